//===- OptCommand.h - `plate opt`: run passes on IR text ------------------===//
//
// The counterpart of LLVM's opt and mlir-opt: reads the textual IR that
// `plate compile --emit=ir` and `--print-after-all` print (ir/IRReader.h),
// verifies it, runs the chosen passes with the same registry and pass
// manager as `plate compile` (the verifier between passes), and prints the
// IR again. Lets each pass be tested from IR text, on its own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "passes/Pass.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace plate {

struct OptOptions {
  std::string input; ///< FILE.pir, or `-` for stdin
  /// nullopt (no --passes): no passes, only parse, verify and print.
  std::optional<std::string> passes;
  bool printAfterAll = false;
  std::vector<std::string> printAfter;
  std::string output; ///< -o; empty or `-`: stdout
  /// --source: the script the ops' locations point into, so that passes
  /// quote it (diagnostics, the operator checklist's statement lines).
  std::string source;
  std::string stdlibDir;
  double tipCostSeconds = kDefaultTipCostSeconds; ///< --tip-cost (passes/Pass.h)
};

/// Adds the `opt` subcommand; main() then calls runOptCommand when it was
/// chosen.
CLI::App *addOptCommand(CLI::App &app, OptOptions &options);
int runOptCommand(const OptOptions &options);

/// The passes of the default pipeline that `module` shows it has been
/// through: every pass up to the last whose product is in the printed form
/// (canonical units, resolved amounts, head blocks, a loading plan, a tip
/// count, device ops only, the set-up checklist). `plate opt` counts them
/// as run when it checks a pipeline's prerequisites.
std::vector<std::string> passesEvidentIn(const ir::Module &module);

} // namespace plate
