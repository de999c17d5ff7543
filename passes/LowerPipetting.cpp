//===- LowerPipetting.cpp - Pipetting steps to head commands --------------===//
//
// The pass: the tip budget search (TipBudgetSearch.h) chooses the source-tip
// widths with trial lowerings (LoweringTrials.h) of the pipetting lowering
// (PipettingLowering.h), and the module takes the lowering with those
// widths.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerPipetting.h"
#include "passes/TipBudgetSearch.h"

namespace plate {
namespace {

class LowerPipettingPass final : public Pass {
public:
  std::string_view name() const override { return "lower-pipetting"; }
  bool run(ir::Module &module, PassContext &context) override {
    lowering::Lookahead lookahead(module);
    lowering::LoweringTrials trials(module, lookahead, context);
    lowering::TipBudget budget = lowering::searchTipBudget(
        trials, context.platform, context.options.tipCostSeconds, context.options.frontier);
    if (budget.lowered) {
      std::move(*budget.lowered).applyTo(module);
      return true;
    }
    // The chosen trial reported a diagnostic: lower again to report it.
    lowering::PipettingLowering lowering(module, lookahead, context, std::move(budget.widths));
    bool ok = lowering.run(trials.longestLowering());
    std::move(lowering.lowered()).applyTo(module);
    return ok;
  }
};

} // namespace

std::unique_ptr<Pass> createLowerPipettingPass() {
  return std::make_unique<LowerPipettingPass>();
}

} // namespace plate
