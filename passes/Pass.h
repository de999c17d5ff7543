//===- Pass.h - The pass interface and the pass manager -------------------===//
//
// A pass transforms or checks an ir::Module in place and reports user
// problems only through the DiagnosticEngine in its PassContext. Each pass
// lives in its own file, is registered once in PassRegistry.def with a name,
// the passes it needs earlier in the pipeline and a one-line description;
// its header says why it needs them.
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

namespace lowering {
struct PlanFrontier;
} // namespace lowering

/// Robot seconds one fresh tip is worth by default (`--tip-cost`): a 300 µL
/// robot tip at about US$0.25 against about US$60 an hour of an attended
/// liquid handler; docs/schedule.md, "Tip cost", argues the figures.
inline constexpr double kDefaultTipCostSeconds = 15;

/// What the user chose for the passes on the command line.
struct PassOptions {
  /// lower-pipetting minimises robot time + tipCostSeconds × fresh tips.
  double tipCostSeconds = kDefaultTipCostSeconds;
  /// When set, lower-pipetting records the plans it compared (`--pareto`).
  lowering::PlanFrontier *frontier = nullptr;
};

/// What every pass may read besides the module.
struct PassContext {
  PassContext(DiagnosticEngine &diags, const SourceManager &sources, const Platform &platform,
              PassOptions options = {})
      : diags(diags), sources(sources), platform(platform), options(options) {}

  DiagnosticEngine &diags;
  const SourceManager &sources;
  const Platform &platform;
  PassOptions options;
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
  /// Comma-separated names of the passes that must run before this one
  /// (PassRegistry.def's Requires column); use prerequisites() to split it.
  std::string_view requiresText;

  std::vector<std::string_view> prerequisites() const;
};

/// Every registered pass, in the default pipeline order.
const std::vector<PassInfo> &registeredPasses();
const PassInfo *findPass(std::string_view name);

/// Whether a pipeline runs ir::verify after every pass unless told
/// otherwise: yes in debug builds (no NDEBUG) and wherever the environment
/// sets PLATE_VERIFY_EACH=1 (the lit and unit test suites do); no in
/// release builds, where a verifier failure could only turn a usable result
/// into an internal error. PLATE_VERIFY_EACH=0 turns it off in any build.
bool verifyEachByDefault();

struct PipelineOptions {
  bool verifyEach = verifyEachByDefault(); ///< run ir::verify between passes
  bool printAfterAll = false;
  std::vector<std::string> printAfter;    ///< pass names
  std::function<void(std::string_view passName, const ir::Module &)> printer;
  /// Called after every pass (the compile summary keeps the
  /// module after track-volumes for its lower bounds).
  std::function<void(std::string_view passName, const ir::Module &)> observer;
  /// Passes whose products the input module already holds (`plate opt` on
  /// IR text printed mid-pipeline): they count as run for the Requires
  /// check, so a pass can be run on its own from IR text.
  std::vector<std::string> alreadyRun;
};

class PassManager {
public:
  explicit PassManager(PipelineOptions options = {}) : options_(std::move(options)) {}
  void add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  /// Builds the default pipeline (PassRegistry.def order).
  static PassManager defaultPipeline(PipelineOptions options = {});
  /// Parses `a,b,c`; on an unknown name, or a pass whose prerequisites do
  /// not run earlier in the list, returns nullopt and sets `error` (a
  /// usage error for the driver).
  static std::optional<PassManager> parsePipeline(std::string_view text,
                                                  PipelineOptions options,
                                                  std::string &error);
  /// Runs the passes in order; stops after the first pass that fails or
  /// leaves errors in the engine. Returns true when no errors were reported.
  bool run(ir::Module &module, PassContext &context);

  /// The first prerequisite violated by running `names` in order after
  /// `alreadyRun`, as a message; empty when the order is valid. Unknown
  /// names are ignored.
  static std::string checkOrder(const std::vector<std::string_view> &names,
                                const std::vector<std::string> &alreadyRun = {});

private:
  PipelineOptions options_;
  std::vector<std::unique_ptr<Pass>> passes_;
};

} // namespace plate
