//===- LintProtocolTest.cpp - Tests of lint-protocol ---------------------===//
#include "Fixture.h"

#include "passes/LintProtocol.h"

namespace plate::testing {
namespace {

class LintProtocolTest : public PassFixture {
protected:
  void SetUp() override {
    PassFixture::SetUp();
    layout_ = addLiquid("X1", ir::LiquidRole::Sample, wells("A1", "H2"));
    buffer_ = addLiquid("wash_buffer", ir::LiquidRole::Reagent);
    conjugate_ = addLiquid("hrp_conjugate", ir::LiquidRole::Reagent);
    tmb_ = addLiquid("tmb", ir::LiquidRole::Reagent);
    module_.liquids[tmb_].flags.push_back("light_sensitive");
    stop_ = addLiquid("stop_solution", ir::LiquidRole::Reagent);
  }

  void dispense(ir::LiquidId liquid, uint32_t line, WellSet to = {}) {
    if (to.empty())
      to = wells("A1", "H2");
    add(ir::DispenseOp{{{liquid, to}}, ul(100), std::nullopt, ir::TipPolicy::PerSource}, line,
        std::to_string(line));
  }
  void wash(uint32_t line) {
    add(ir::WashOp{buffer_, wells("A1", "H2"), ul(300), 3, std::nullopt, {}, ir::TipPolicy::PerWell},
        line);
  }
  void incubate(uint32_t line, bool dark, bool lidOn = true) {
    add(ir::IncubateOp{Quantity::seconds(900), Quantity::celsius(22), std::nullopt, lidOn, dark},
        line);
  }
  void read(uint32_t line, WellSet wells = {}) {
    add(ir::ReadAbsorbanceOp{Quantity::nanometers(450), std::nullopt, wells}, line);
  }

  std::vector<std::string> codes() {
    EXPECT_TRUE(runPass(createLintProtocolPass()));
    std::vector<std::string> out;
    for (const Diagnostic &d : diags_->diagnostics()) {
      EXPECT_EQ(d.severity, Severity::Warning);
      out.push_back(fmt::format("{}@{}:{}", diagInfo(d.id).code, d.loc.line, d.loc.col));
    }
    return out;
  }

  ir::LiquidId layout_ = 0, buffer_ = 0, conjugate_ = 0, tmb_ = 0, stop_ = 0;
};

// The IL-6 ELISA order is clean.
TEST_F(LintProtocolTest, ElisaOrderIsClean) {
  dispense(conjugate_, 5);
  incubate(6, false);
  wash(7);
  dispense(tmb_, 8);
  incubate(9, true);
  dispense(stop_, 10);
  read(11);
  add(ir::AnalyzeOp{true, Quantity::nanometers(450), true}, 12);
  EXPECT_EQ(codes(), std::vector<std::string>{});
}

TEST_F(LintProtocolTest, W801SubstrateAfterConjugateWithoutWash) {
  dispense(conjugate_, 5);
  incubate(6, false);
  dispense(tmb_, 8);
  incubate(9, true);
  dispense(stop_, 10);
  read(11);
  EXPECT_EQ(codes(), std::vector<std::string>{"W801@8:1"});
  const Diagnostic &d = diags_->diagnostics()[0];
  EXPECT_EQ(d.category, Category::Order);
  EXPECT_EQ(d.step, "8");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].loc.line, 5u);
  EXPECT_NE(d.message.find("`tmb`"), std::string::npos);
  EXPECT_NE(d.message.find("`hrp_conjugate`"), std::string::npos);
}

TEST_F(LintProtocolTest, W802StopWithoutRead) {
  dispense(tmb_, 8);
  incubate(9, true);
  dispense(stop_, 10);
  EXPECT_EQ(codes(), std::vector<std::string>{"W802@10:1"});
  EXPECT_EQ(diags_->diagnostics()[0].category, Category::Completeness);
}

TEST_F(LintProtocolTest, W803AnalyzeWithoutRead) {
  add(ir::AnalyzeOp{false, std::nullopt, false}, 14);
  read(15);
  EXPECT_EQ(codes(), std::vector<std::string>{"W803@14:1"});
}

TEST_F(LintProtocolTest, W804DispenseIntoWellsNeverRead) {
  dispense(conjugate_, 3, wells("A1", "H3")); // column 3 is not in the layout
  read(4);
  EXPECT_EQ(codes(), std::vector<std::string>{"W804@3:1"});
  EXPECT_NE(diags_->diagnostics()[0].message.find("8 well(s)"), std::string::npos);
  EXPECT_NE(diags_->diagnostics()[0].message.find("A3..H3"), std::string::npos);
}

TEST_F(LintProtocolTest, W804NeedsAReadAtAll) {
  dispense(conjugate_, 3, wells("A1", "H3"));
  EXPECT_EQ(codes(), std::vector<std::string>{});
}

TEST_F(LintProtocolTest, W804CountsOnlyLaterReads) {
  read(2, wells("A1", "A1"));
  dispense(conjugate_, 3, wells("A1", "A1"));
  EXPECT_EQ(codes(), std::vector<std::string>{"W804@3:1"});
}

TEST_F(LintProtocolTest, W805LightSensitiveIncubatedWithTheLidOff) {
  dispense(tmb_, 8);
  incubate(9, false);                     // lid on: dark already
  incubate(10, false, /*lidOn=*/false);   // light gets in
  incubate(11, false, /*lidOn=*/false);   // once per dispense
  dispense(stop_, 12);
  read(13);
  EXPECT_EQ(codes(), std::vector<std::string>{"W805@10:1"});
}

TEST_F(LintProtocolTest, W805EndsWithAWash) {
  dispense(tmb_, 8);
  wash(9);
  incubate(10, false, /*lidOn=*/false);
  read(11);
  EXPECT_EQ(codes(), std::vector<std::string>{});
}

TEST_F(LintProtocolTest, FlagsOverrideNames) {
  ir::LiquidId odd = addLiquid("reagent_c", ir::LiquidRole::Reagent);
  module_.liquids[odd].flags.push_back("substrate");
  ir::LiquidId other = addLiquid("reagent_b", ir::LiquidRole::Reagent);
  module_.liquids[other].flags.push_back("conjugate");
  dispense(other, 3);
  dispense(odd, 4);
  read(5);
  EXPECT_EQ(codes(), std::vector<std::string>{"W801@4:1"});
}

} // namespace
} // namespace plate::testing
