//===- TipBudgetSearchTest.cpp - Trial lowerings and the tip budget search ===//
//
// The search relies on one property of the trials: a lowering continued
// from a checkpoint taken in the other mode (survey or real) is the
// lowering from the start. These tests check it on IL-6 (docs/examples),
// whose full-width schedule swaps the rack and loses parked tips, so every
// path of the search runs: a real trial, a survey continued from it,
// surveys of narrower widths that record checkpoints, and a real trial
// continued from one.
//
//===----------------------------------------------------------------------===//
#include "frontend/Frontend.h"
#include "passes/TipBudgetSearch.h"

#include <gtest/gtest.h>

namespace plate::lowering {
namespace {

class TipBudgetSearchTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::optional<uint32_t> id =
        sources_.addFile(std::string(PLATE_SOURCE_DIR) + "/docs/examples/il6_elisa.plate");
    ASSERT_TRUE(id.has_value());
    ast::Script script = parseScript(sources_, *id, diags_);
    FrontendOptions options;
    options.stdlibDir = PLATE_STDLIB_DIR;
    program_ = checkScript(script, sources_, diags_, options);
    ASSERT_TRUE(program_.has_value());
    ASSERT_TRUE(program_->platform.has_value());
    context_.emplace(PassContext{diags_, sources_, *program_->platform});
    std::string error;
    std::optional<PassManager> before = PassManager::parsePipeline(
        "normalize-units,check-platform,track-volumes,group-wells,allocate-reservoir", {},
        error);
    ASSERT_TRUE(before.has_value()) << error;
    ASSERT_TRUE(before->run(module(), *context_));
    lookahead_.emplace(module());
    trials_.emplace(module(), *lookahead_, *context_);
  }

  ir::Module &module() { return program_->module; }

  std::vector<std::string> printed(const Trial &trial) {
    std::vector<std::string> lines;
    for (const ir::Op &op : trial.lowered->ops)
      lines.push_back(ir::printOp(op, module()));
    return lines;
  }

  SourceManager sources_;
  DiagnosticEngine diags_{sources_};
  std::optional<CheckedProgram> program_;
  std::optional<PassContext> context_;
  std::optional<Lookahead> lookahead_;
  std::optional<LoweringTrials> trials_;
};

TEST_F(TipBudgetSearchTest, RealLoweringContinuedFromASurveyIsTheLoweringFromTheStart) {
  // Source sets of 3 and 2 channels at the first two reservoir positions.
  ASSERT_GE(module().loadingPlan.size(), 2u);
  WidthPlan narrow = {{module().loadingPlan[0].pos, 3}, {module().loadingPlan[1].pos, 2}};
  Checkpoint checkpoint;
  Trial survey = trials_->run(narrow, true, &checkpoint);
  EXPECT_FALSE(survey.lowered) << "a survey's commands are not a lowering";
  ASSERT_TRUE(checkpoint.state);
  ASSERT_TRUE(checkpoint.prefix) << "the survey swapped racks after its checkpoint";
  Trial continued = trials_->runFrom(narrow, false, checkpoint);
  EXPECT_FALSE(checkpoint.prefix) << "the real lowering took the prefix";
  Trial fresh = trials_->run(narrow, false);
  ASSERT_TRUE(continued.lowered);
  ASSERT_TRUE(fresh.lowered);
  EXPECT_EQ(printed(continued), printed(fresh));
  EXPECT_EQ(continued.lowered->tipsUsed, fresh.lowered->tipsUsed);
  EXPECT_EQ(continued.lowered->tipRacksUsed, fresh.lowered->tipRacksUsed);
  EXPECT_EQ(continued.outcome.parkedTipsLost, fresh.outcome.parkedTipsLost);
}

TEST_F(TipBudgetSearchTest, SurveyContinuedFromARealLoweringIsTheSurveyFromTheStart) {
  Checkpoint checkpoint;
  Trial real = trials_->run({}, false, &checkpoint);
  ASSERT_TRUE(real.lowered);
  EXPECT_GT(real.outcome.parkedTipsLost, 0u) << "IL-6 at full width loses parked tips";
  ASSERT_TRUE(checkpoint.state);
  Outcome continued = trials_->runFrom({}, true, checkpoint).outcome;
  Outcome fresh = trials_->run({}, true).outcome;
  EXPECT_EQ(continued.tips, fresh.tips);
  EXPECT_EQ(continued.freshBeforeLastParkedPick, fresh.freshBeforeLastParkedPick);
  EXPECT_EQ(continued.reliefSources, fresh.reliefSources);
  EXPECT_EQ(continued.sourceSeconds, fresh.sourceSeconds);
}

// docs/schedule.md, "Tip cost": with tips free the planner keeps the
// fastest plan, full width (188 tips on IL-6: the swap throws the 64 parked
// removal tips away).
TEST_F(TipBudgetSearchTest, FreeTipsKeepFullWidth) {
  TipBudget budget = searchTipBudget(*trials_, *program_->platform, 0);
  EXPECT_TRUE(budget.widths.empty());
  ASSERT_TRUE(budget.lowered) << "the chosen trial's lowering is kept";
  EXPECT_EQ(budget.lowered->tipsUsed, 188u);
  EXPECT_GT(trials_->longestLowering(), 0u);
}

// Dear tips: the source sets are narrowed at least until the 64 parked
// removal tips survive the swap (104 tips, the old budget rule's plan).
TEST_F(TipBudgetSearchTest, DearTipsNarrowUntilParkedTipsSurvive) {
  TipBudget budget = searchTipBudget(*trials_, *program_->platform, 1000);
  EXPECT_FALSE(budget.widths.empty());
  for (const auto &[pos, width] : budget.widths)
    EXPECT_LT(width, program_->platform->channels);
  ASSERT_TRUE(budget.lowered);
  EXPECT_LE(budget.lowered->tipsUsed, 104u);
  Trial again = trials_->run(budget.widths, false);
  EXPECT_EQ(again.outcome.parkedTipsLost, 0u);
  EXPECT_EQ(again.outcome.tips, budget.lowered->tipsUsed);
}

// The frontier: no plan on it beats another on both figures, fastest
// first, the same plans whatever the tip cost, and the chosen plan has the
// least robot time + tip cost x tips among them.
TEST_F(TipBudgetSearchTest, FrontierIsNonDominatedAndTheChoiceMinimisesTheCost) {
  PlanFrontier cheap, dear;
  searchTipBudget(*trials_, *program_->platform, 0, &cheap);
  searchTipBudget(*trials_, *program_->platform, 100, &dear);
  ASSERT_GE(cheap.plans.size(), 2u);
  ASSERT_EQ(cheap.plans.size(), dear.plans.size());
  for (size_t i = 0; i < cheap.plans.size(); ++i) {
    EXPECT_EQ(cheap.plans[i].widths, dear.plans[i].widths);
    EXPECT_EQ(cheap.plans[i].tips, dear.plans[i].tips);
    if (i > 0) {
      EXPECT_GT(cheap.plans[i].seconds, cheap.plans[i - 1].seconds);
      EXPECT_LT(cheap.plans[i].tips, cheap.plans[i - 1].tips);
    }
  }
  EXPECT_EQ(cheap.chosen, 0u);
  auto cost = [&](const PlanPoint &plan) { return plan.seconds + 100 * plan.tips; };
  for (const PlanPoint &plan : dear.plans)
    EXPECT_LE(cost(dear.plans[dear.chosen]), cost(plan));
  EXPECT_GT(dear.chosen, 0u);
}

} // namespace
} // namespace plate::lowering
