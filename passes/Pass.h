//===- Pass.h - The pass interface and the pass manager -------------------===//
//
// A pass transforms or checks an ir::Module in place and reports user
// problems only through the DiagnosticEngine in its PassContext. Each pass
// lives in its own file, is registered once in PassRegistry.def with a name
// and a one-line description, and its header states its preconditions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace plate {

/// What every pass may read besides the module.
struct PassContext {
  DiagnosticEngine &diags;
  const SourceManager &sources;
  const Platform &platform;
};

class Pass {
public:
  virtual ~Pass() = default;
  /// The name used in --passes= and --print-after=.
  virtual std::string_view name() const = 0;
  /// Runs the pass. Returns false when it reported errors that make later
  /// passes meaningless (the pipeline stops after this pass).
  virtual bool run(ir::Module &module, PassContext &context) = 0;
};

struct PassInfo {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<Pass> (*create)();
};

/// Every registered pass, in the default pipeline order.
const std::vector<PassInfo> &registeredPasses();
const PassInfo *findPass(std::string_view name);

struct PipelineOptions {
  bool verifyEach = true;                 ///< run ir::verify between passes
  bool printAfterAll = false;
  std::vector<std::string> printAfter;    ///< pass names
  std::function<void(std::string_view passName, const ir::Module &)> printer;
};

class PassManager {
public:
  explicit PassManager(PipelineOptions options = {}) : options_(std::move(options)) {}
  void add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  /// Builds the default pipeline (PassRegistry.def order).
  static PassManager defaultPipeline(PipelineOptions options = {});
  /// Parses `a,b,c`; on an unknown name returns nullopt and sets `error`.
  static std::optional<PassManager> parsePipeline(std::string_view text,
                                                  PipelineOptions options,
                                                  std::string &error);
  /// Runs the passes in order; stops after the first pass that fails or
  /// leaves errors in the engine. Returns true when no errors were reported.
  bool run(ir::Module &module, PassContext &context);

private:
  PipelineOptions options_;
  std::vector<std::unique_ptr<Pass>> passes_;
};

} // namespace plate
