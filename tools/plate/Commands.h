//===- Commands.h - The subcommands of the plate driver --------------------===//
#pragma once

#include "tools/plate/Compilation.h"

#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace plate {

struct CompileCommandOptions {
  CompileOptions compile;
  std::string emit = "bf1"; ///< ast, ir, bf1, bf1-json
  std::string output;       ///< -o; empty: stdout
  std::string loadingPlan;  ///< --loading-plan FILE
  /// --validate: translation validation of the lowered stream against the
  /// script, with its figures; PLATE_VALIDATE=1 validates silently.
  bool validate = false;
  /// --platform: bioforge1 (the default) or ot2, an Opentrons Python
  /// protocol (backend/ot2, docs/porting.md).
  std::string platform = "bioforge1";
  /// --manual-fallback: where the OT-2 lacks a device, pause for the
  /// operator instead of an error.
  bool manualFallback = false;
  /// --pareto: print the plans lower-pipetting compared (frontier).
  bool pareto = false;
};

/// `--tip-cost SECONDS` on `command`, into `seconds`: a number >= 0, else a
/// usage error that says what the option wants.
void addTipCostOption(CLI::App &command, double &seconds);

int runCheckCommand(const CompileOptions &options);
int runCompileCommand(const CompileCommandOptions &options);
int runListPasses();

/// Emission kinds `--emit` accepts, for the help text and validation.
const std::vector<std::string> &emitKinds();

} // namespace plate
