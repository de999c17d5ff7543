//===- Compilation.h - One run of the compiler over one script ------------===//
//
// Holds the state of a compilation (sources, diagnostics, AST, IR) and the
// policy of which phases run, so that the driver stays a thin layer over it
// and tests can drive a compilation without a command line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/RunSetup.h"
#include "frontend/Frontend.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "passes/Pass.h"

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plate {

/// The passes that run for `--platform ot2`: the OT-2's emitter lowers from
/// their output (backend/ot2/Ot2Emitter.h) and reports what the robot
/// cannot do.
inline constexpr const char *kOt2Pipeline = "normalize-units,track-volumes,lint-protocol";
/// Whether `platform` (a `--platform` name) is compiled by the OT-2's backend.
inline bool isOt2Target(const std::string &platform) { return platform == "ot2"; }

/// Exit codes of every subcommand, in one place.
enum class ExitCode : int {
  Success = 0,
  InputErrors = 1, ///< the script (or another input) has errors
  Usage = 2,       ///< bad command line or configuration
  /// plate broke its own promise (translation validation refused the
  /// stream): never the script's fault.
  InternalError = 3,
};

/// Text, Json and Sarif print on stderr (Text as it goes, Json and Sarif
/// as one document at the end);
/// Collect keeps the diagnostics for the caller and prints nothing (a
/// candidate's diagnostics belong to the agent's record and feedback).
enum class DiagnosticsFormat { Text, Json, Sarif, Collect };

struct CompileOptions {
  std::string input; ///< the file to read, or the name of `source`
  /// The script's text when it is held in memory (a candidate, a ground
  /// truth): nothing is read from `input`, which names it in diagnostics.
  std::optional<std::string> source;
  std::string layoutCsv;
  std::string stdlibDir;
  /// The platform chosen on the command line (`--platform ot2`), which
  /// wins over the script's `<PLATFORM>`; empty: the script's, else
  /// bioforge1.
  std::string platform;
  DiagnosticsFormat diagnosticsFormat = DiagnosticsFormat::Text;
  bool warningsAsErrors = false;
  bool color = false;
  /// nullopt: the default pipeline; "" (from `--passes=`): no passes.
  std::optional<std::string> passes;
  bool printAfterAll = false;
  std::vector<std::string> printAfter;
  bool verifyEach = verifyEachByDefault(); ///< see passes/Pass.h
  /// `--tip-cost`: robot seconds one fresh tip is worth (PassOptions).
  double tipCostSeconds = kDefaultTipCostSeconds;
  /// Keep the plans lower-pipetting compared (`--pareto`, frontier()).
  bool recordFrontier = false;
  /// Keep the module after track-volumes (highLevel()): the lower bounds
  /// of the compile summary read it.
  bool keepHighLevel = false;
};

class Compilation {
public:
  explicit Compilation(CompileOptions options);
  ~Compilation();

  /// Reads and parses the input; false on read failure or syntax errors.
  bool parse();
  /// Parse + semantic analysis + IR generation.
  bool check();
  /// check() + the pass pipeline. IR printed between passes goes to `dump`.
  bool compile(std::ostream &dump);

  const ast::Script &script() const { return *script_; }
  ir::Module &module() { return program_->module; }
  /// The module as the frontend checked it, before any pass: what
  /// translation validation reads the script as.
  const ir::Module &checkedModule() const { return *checked_; }
  /// Whether semantic analysis produced a module (it did not after errors).
  bool hasCheckedModule() const { return checked_.has_value(); }
  /// The platform the script runs on, once semantic analysis loaded it;
  /// nullptr before or when it could not be loaded.
  const Platform *loadedPlatform() const {
    return program_ && program_->platform ? &*program_->platform : nullptr;
  }
  const Platform &platform() const { return *program_->platform; }
  SourceManager &sources() { return sources_; }
  DiagnosticEngine &diags() { return diags_; }
  const CompileOptions &options() const { return options_; }
  /// Prints the diagnostics collected so far in the chosen format (JSON and
  /// SARIF are printed once, at the end).
  void finishDiagnostics();
  /// Translation validation of the lowered commands against the script
  /// (backend/bioforge1/TranslationValidation.h). On a difference prints the
  /// internal error that refuses the stream and returns false.
  bool validate(const std::vector<backend::Command> &commands, const backend::RunSetup &setup);
  /// The same check, printing nothing: where the lowered commands part
  /// from the script, or nullopt when they do what it says.
  /// The plans lower-pipetting compared, when recordFrontier and the pass
  /// ran; nullptr otherwise.
  const lowering::PlanFrontier *frontier() const { return frontier_.get(); }
  /// The module after track-volumes, when keepHighLevel and the pass ran.
  const ir::Module *highLevel() const { return highLevel_ ? &*highLevel_ : nullptr; }
  std::optional<std::string> translationDifference(const std::vector<backend::Command> &commands,
                                                   const backend::RunSetup &setup) const;

private:
  CompileOptions options_;
  SourceManager sources_;
  DiagnosticEngine diags_;
  std::optional<ast::Script> script_;
  std::optional<CheckedProgram> program_;
  std::optional<ir::Module> checked_;
  std::unique_ptr<lowering::PlanFrontier> frontier_;
  std::optional<ir::Module> highLevel_;
  bool diagnosticsFinished_ = false;
};

} // namespace plate
