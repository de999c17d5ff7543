//===- Backend.h - The BioForge-1 backend API the driver calls -------------===//
//
// Compile side: lowered ir::Module -> commands -> JSON Lines or a listing,
// followed by the loading plan and a summary. Run side: a command stream
// (lowered in process or read from a .jsonl file) replayed by the
// interpreter against a Device, with the digital twin checking every
// invariant of bioforge1.md §4 before each command, the clock of §5, plate
// reads written as CSV, and the `analyze` steps fitted and plotted.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Analysis.h"
#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/CommandDecode.h"
#include "backend/bioforge1/CommandSerializer.h"
#include "backend/bioforge1/CommandTiming.h"
#include "backend/bioforge1/LowerToCommands.h"
#include "backend/bioforge1/Device.h"
#include "backend/bioforge1/RunSetup.h"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::backend {

//===--- Emission ----------------------------------------------------------===//

/// The command stream as JSON Lines (bioforge1.md §3), one command a line.
/// With `withPlan` the loading plan and summary follow as `#` comment
/// lines, which the stream reader skips.
void emitJsonl(const ir::Module &module, const Platform &platform, std::ostream &out,
               bool withPlan = false);
/// Human listing (`--emit=bf1`): commands grouped under their step heading
/// with the source text, then the loading plan and the summary.
void emitListing(const ir::Module &module, const Platform &platform,
                 const SourceManager &sources, std::ostream &out);
/// The statement text of a source line, trimmed, without its step label
/// (`2. `): what a listing or an emitted protocol quotes of the script.
std::string statementText(const SourceManager &sources, uint32_t fileId, uint32_t line);
/// The same without the statement's step label `label` (the listing names
/// the step before it).
std::string statementText(const SourceManager &sources, uint32_t fileId, uint32_t line,
                          std::string_view label);
/// The loading plan of language spec §11 plus the keys of RunSetup.h.
Json loadingPlanJson(const ir::Module &module, const Platform &platform);
/// `loading plan:` table and `summary:` line shared by both emitters.
std::string planText(const RunSetup &setup, size_t commandCount);

//===--- Reading a saved stream --------------------------------------------===//

/// Parses a .jsonl command stream. Every line is checked first (invalid
/// JSON, unknown module.op, missing or mistyped argument, seq gaps);
/// diagnostics name the file and line. Blank lines and lines starting with
/// `#` are skipped. nullopt when anything was wrong.
std::optional<std::vector<Command>> readCommandStream(const std::string &path,
                                                      SourceManager &sources,
                                                      DiagnosticEngine &diags);
/// The same on a buffer already registered in `sources`.
std::optional<std::vector<Command>> parseCommandStream(uint32_t fileId,
                                                       const SourceManager &sources,
                                                       DiagnosticEngine &diags);

//===--- Running -----------------------------------------------------------===//

struct RunProgress {
  const Command *command = nullptr; ///< just executed
  size_t index = 0, total = 0;      ///< 1-based index
  double clockSeconds = 0;          ///< robot time so far
};

struct RunOptions {
  std::string truthFile;                ///< --truth
  std::vector<std::string> readerData;  ///< --reader-data, k-th file replaces k-th read
  std::string outDir = ".";             ///< where reads, tables and plots go
  std::string outPrefix = "run";        ///< file names start with this
  uint64_t seed = 42;
  double noiseSigma = 0.005;
  bool writeFiles = true;
  /// When the commands were lowered in process: the script, so that
  /// diagnostics point at the source line (commands from a .jsonl point
  /// at the stream line instead).
  uint32_t scriptFileId = 0;
  std::function<void(const RunProgress &)> progress;
  /// A device other than the simulator (a real robot); null: simulate.
  Device *device = nullptr;
  /// Reliability (docs/reliability.md): faults the simulator injects, the
  /// journal to append to (empty: none) and a journal to resume from.
  FaultPlan faults;
  std::string journal;
  std::string resume;
  /// How the simulator writes journal lines: each line as it happens (as
  /// on a robot, which also syncs each) or grouped, 64 KiB per write
  /// (docs/reliability.md). Unset: grouped, unless faults are injected,
  /// which rehearse a robot's failures and so journal as a robot does.
  std::optional<bool> journalEachLine;
  std::string inputName; ///< recorded in the journal header
  /// Fill RunResult::finalState (`plate run --state-out`). Serializing
  /// every well and tip is a sizable part of a short run, so only a
  /// caller that asks pays for it.
  bool keepFinalState = false;
};

struct RunResult {
  bool ok = false;
  size_t executed = 0;       ///< commands the device confirmed
  double robotSeconds = 0;   ///< clock at the end (or at the failure)
  std::optional<uint32_t> failedSeq;
  std::vector<PlateRead> reads;
  std::vector<AnalysisResult> analyses;
  std::vector<std::string> outputs; ///< files written
  std::vector<std::string> events;  ///< recoveries and resume notes for the operator
  size_t resumedFrom = 0;           ///< commands taken from the journal
  unsigned journalSyncs = 0;        ///< fdatasyncs of the journal (docs/reliability.md)
  /// DeckState::toJson() where the run ended (RunOptions::keepFinalState).
  Json finalState;
  /// The device's name ("simulator" when RunOptions::device was null).
  std::string device;
  /// The simulator's true sample concentrations (docs/simulator.md); empty
  /// on a robot.
  std::vector<SampleTruth> truths;
  std::string truthFile; ///< --truth, as the run used it
  /// No calibrant states a concentration and nothing competes: the reader
  /// model has no response to scale, so every well reads the baseline.
  bool flatResponse = false;

  bool simulatedDevice() const { return device == "simulator"; }
};

RunResult runCommands(const std::vector<Command> &commands, const RunSetup &setup,
                      const Platform &platform, const RunOptions &options,
                      SourceManager &sources, DiagnosticEngine &diags);


/// A progress printer: on a terminal one updating bar with the step and
/// robot time, otherwise one plain line per step.
std::function<void(const RunProgress &)> makeProgressPrinter(std::ostream &out, bool terminal);

//===--- Saying what is simulated ------------------------------------------===//
//
// Every output of a run that shows simulated values says so, and names the
// sample concentrations the simulator invented (docs/simulator.md). A read
// replaced by --reader-data is measured, unless its file says otherwise.

/// The lines `plate run` prints before its results: what ran on the
/// simulator, which reads are simulated, which concentrations were
/// invented. Empty on a robot with measured reads.
std::vector<std::string> simulationNotes(const RunResult &result);
/// The `simulation` object of the state JSON and the journal header:
/// device, reads (when given) and true concentrations. Null when nothing
/// was simulated.
Json simulationJson(const RunResult &result);
/// A read's values are the reader model's (not a --reader-data file's).
inline bool modelRead(const PlateRead &read) { return read.simulated && read.dataFile.empty(); }

//===--- Reader data -------------------------------------------------------===//

/// A read as a reader-style plate map: a header row of column numbers
/// (corner cell `595nm` or `595/650nm`), then one row per plate row; wells
/// that were not read are empty cells. A simulated read starts with `#`
/// lines that say so and list `invented` concentrations.
std::string plateReadCsv(const PlateRead &read, const PlateShape &shape,
                         const std::vector<SampleTruth> &invented = {},
                         const std::string &truthFile = {});
/// Reads such a plate map; the shape must match the plate. `#` lines before
/// the header are comments; `declaresSimulated` tells whether one of them
/// says `SIMULATED` (a simulated read's file given back as reader data).
/// Diagnostics (E940) name file:line.
std::optional<WellValues> readPlateCsv(const std::string &path,
                                                   const PlateShape &shape,
                                                   SourceManager &sources,
                                                   DiagnosticEngine &diags,
                                                   bool *declaresSimulated = nullptr);

} // namespace plate::backend
