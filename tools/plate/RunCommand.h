//===- RunCommand.h - `plate run`: replay a stream or a script -------------===//
//
// `plate run FILE.jsonl [--loading-plan PLAN.json] [--script FILE.plate]`
// replays a saved command stream; `plate run FILE.plate` compiles the
// script first. A stream compiled here, or given with the script it came
// from, runs only if translation validation finds that it does what the
// script says (backend/bioforge1/TranslationValidation.h). Either way the
// backend interpreter checks every invariant of bioforge1.md §4 before each
// command, simulates the plate reader (or takes --reader-data files) and
// runs the `analyze` steps.
//
// Every run appends its confirmed commands to a journal (default
// OUT_DIR/NAME-journal.jsonl); `--resume JOURNAL` continues a run that
// crashed or stopped; `--fault` and `--fault-rate` make the simulator fail
// commands (docs/reliability.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/plate/Compilation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace plate {

struct RunCommandOptions {
  CompileOptions compile;              ///< input, stdlib, diagnostics format
  std::string loadingPlan;             ///< --loading-plan (streams only)
  /// --script (streams only): the script the stream claims to be; the run
  /// takes its loading plan and layout and refuses a stream that does not
  /// do what the script says (E950).
  std::string script;
  std::string truthFile;               ///< --truth
  std::vector<std::string> readerData; ///< --reader-data (repeatable)
  std::string outDir = ".";            ///< --out-dir
  uint64_t seed = 42;                  ///< --seed
  std::string progress = "auto";      ///< --progress auto|bar|log|none
  // Reliability (docs/reliability.md).
  std::string journal;                 ///< --journal (default: next to the outputs)
  bool noJournal = false;              ///< --no-journal
  std::string resume;                  ///< --resume JOURNAL
  std::vector<std::string> faults;     ///< --fault SEQ:KIND (repeatable)
  double faultRate = 0;                ///< --fault-rate
  std::string journalFlush;            ///< --journal-flush line|group
  uint64_t faultSeed = 1;              ///< --fault-seed
  std::string stateOut;                ///< --state-out FILE (final deck state JSON)
};

/// A compiled script ready to run: its commands and what the run starts from.
struct LoweredScript {
  std::vector<backend::Command> commands;
  backend::RunSetup setup;
};

/// Compiles the script with the compilation's pipeline and lowers it to
/// device commands; nullopt when it has errors or the pipeline did not
/// lower it (the diagnostics say which). Translation validation is the
/// caller's next step.
std::optional<LoweredScript> compileForRun(Compilation &compilation);

/// Adds the run-specific options (not FILE or the common ones) to `command`.
void addRunOptions(CLI::App &command, RunCommandOptions &options);
int runRunCommand(const RunCommandOptions &options);

} // namespace plate
