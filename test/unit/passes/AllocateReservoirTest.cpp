//===- AllocateReservoirTest.cpp - allocate-reservoir ---------------------===//
#include "PassTestUtil.h"

#include "passes/AllocateReservoir.h"

#include <fmt/format.h>
#include <cmath>

namespace plate::test {
namespace {

class AllocateReservoirTest : public PassFixture {
protected:
  bool allocate() { return runPasses("normalize-units,allocate-reservoir"); }
  ir::LiquidId reagent(std::string name, std::optional<double> declaredMl = {},
                       std::optional<ir::ReservoirPos> at = {}) {
    ir::LiquidId id = addReagent(std::move(name));
    if (declaredMl)
      module.liquids[id].declaredVolume = mL(*declaredMl);
    module.liquids[id].fixedPosition = at;
    return id;
  }
  void dispense(ir::LiquidId liquid, WellSet to, double ul,
                std::optional<ir::MixSpec> mix = {}, bool manual = false) {
    if (!manual)
      module.liquids[liquid].pipettedByInstrument = true;
    addOp(ir::DispenseOp{{{liquid, to}}, uL(ul), mix, {}}, manual);
  }
  void wash(ir::LiquidId liquid, WellSet to, double ul, unsigned cycles) {
    module.liquids[liquid].pipettedByInstrument = true;
    addOp(ir::WashOp{liquid, to, uL(ul), cycles, {}, {}, {}});
  }
  /// The plan's positions of one liquid.
  std::vector<ir::ReservoirLoad> loads(ir::LiquidId liquid) {
    std::vector<ir::ReservoirLoad> out;
    for (const ir::ReservoirLoad &load : module.loadingPlan)
      if (load.liquid == liquid)
        out.push_back(load);
    return out;
  }
  double roundUpTenth(double v) { return std::ceil(v * 10 - 1e-9) / 10; }
  unsigned positions() { return platform.reservoirRows * platform.reservoirCols; }
};

TEST_F(AllocateReservoirTest, BradfordLikeNeedsAndOrder) {
  // Layout liquid declared before the reagent: reagents still come first.
  ir::LiquidId s1 = addLiquid("S1", ir::LiquidRole::Calibrant, wells("B1", "B3"));
  ir::LiquidId bradford = reagent("bradford", 25);
  ir::LiquidId unused = reagent("manual_only", 5);
  dispense(s1, wells("B1", "B3"), 10);
  dispense(bradford, wells("A1", "F3"), 200, ir::MixSpec{3, uL(100)});
  dispense(unused, wells("A1", "A3"), 100, {}, /*manual=*/true);
  ASSERT_TRUE(allocate()) << codes().size();
  ASSERT_EQ(module.loadingPlan.size(), 2u);
  const double dead = platform.reservoirDeadMl;
  // 200 µL x 18 wells (the mix adds nothing) need 3.6 mL + dead; bradford
  // is declared with 25 mL, which is what the operator loads.
  EXPECT_EQ(module.loadingPlan[0].liquid, bradford);
  EXPECT_EQ(module.loadingPlan[0].pos, (ir::ReservoirPos{1, 1}));
  EXPECT_DOUBLE_EQ(module.loadingPlan[0].volumeMl, 25);
  EXPECT_DOUBLE_EQ(plannedLoadMl(3.6, 1, dead), roundUpTenth(3.6 + dead));
  EXPECT_EQ(module.loadingPlan[1].liquid, s1);
  EXPECT_EQ(module.loadingPlan[1].pos, (ir::ReservoirPos{1, 2}));
  EXPECT_DOUBLE_EQ(module.loadingPlan[1].volumeMl, roundUpTenth(0.03 + dead));
  EXPECT_TRUE(loads(unused).empty()); // MANUAL-only takes no position
}

TEST_F(AllocateReservoirTest, RoundsUpToATenthWithoutNoise) {
  ir::LiquidId r = reagent("r");
  dispense(r, wells("A1", "H12"), 100); // 9.6 mL exactly
  ASSERT_TRUE(allocate());
  ASSERT_EQ(module.loadingPlan.size(), 1u);
  EXPECT_EQ(formatNumber(module.loadingPlan[0].volumeMl),
            formatNumber(9.6 + platform.reservoirDeadMl));
}

TEST(PlannedLoads, WholeSharesWhereTheyFit) {
  // 230.4 mL of 300 µL fills over 10 positions of 25 mL (0.5 dead): whole
  // head loads of 1.2 mL, 20 in two positions and 19 in eight.
  std::vector<double> loads = plannedLoadsMl(230.4, 10, 0.5, 300, 25, std::nullopt, 4);
  ASSERT_EQ(loads.size(), 10u);
  EXPECT_DOUBLE_EQ(loads[0], 24.5);
  EXPECT_DOUBLE_EQ(loads[1], 24.5);
  EXPECT_DOUBLE_EQ(loads[9], 23.3);
  // 162 fills: 21 head loads (25.7 mL) would not fit, 81 shares (24.8) do.
  EXPECT_EQ(plannedLoadsMl(48.6, 2, 0.5, 300, 25, std::nullopt, 4),
            (std::vector<double>{24.8, 24.8}));
  // No common share (mixed volumes), one position, or a declared volume
  // below the whole-share plan: the even split.
  EXPECT_EQ(plannedLoadsMl(50, 3, 0.5, 0, 25, std::nullopt, 4),
            std::vector<double>(3, plannedLoadMl(50, 3, 0.5)));
  EXPECT_EQ(plannedLoadsMl(10, 1, 0.5, 300, 25, std::nullopt, 4),
            std::vector<double>{plannedLoadMl(10, 1, 0.5)});
  EXPECT_EQ(plannedLoadsMl(230.4, 10, 0.5, 300, 25, 235.0, 4),
            std::vector<double>(10, plannedLoadMl(230.4, 10, 0.5)));
}

TEST_F(AllocateReservoirTest, LargeNeedSpansPositionsEachWithDeadVolume) {
  ir::LiquidId buffer = reagent("wash_buffer");
  ir::LiquidId ab = reagent("ab", {}, ir::ReservoirPos{1, 2});
  for (int i = 0; i < 3; ++i)
    wash(buffer, wells("A1", "H8"), 300, 4); // 3 x 4 x 300 µL x 64 = 230.4 mL
  dispense(ab, wells("A1", "H8"), 100);
  ASSERT_TRUE(allocate());
  const double usable = platform.reservoirCapacityMl - platform.reservoirDeadMl;
  const unsigned k = static_cast<unsigned>(std::ceil(230.4 / usable));
  std::vector<ir::ReservoirLoad> spread = loads(buffer);
  ASSERT_EQ(spread.size(), k);
  double total = 0;
  // Whole head loads (4 channels x 300 µL) per position, as evenly as they
  // go: 192 over k positions.
  const double head = 4 * 0.3;
  for (size_t i = 0; i < spread.size(); ++i) {
    const ir::ReservoirLoad &load = spread[i];
    unsigned heads = 192 / k + (i < 192 % k ? 1 : 0);
    EXPECT_DOUBLE_EQ(load.volumeMl, roundUpTenth(heads * head + platform.reservoirDeadMl));
    EXPECT_LE(load.volumeMl, platform.reservoirCapacityMl);
    EXPECT_NE(load.pos, (ir::ReservoirPos{1, 2})); // the fixed one is skipped
    total += load.volumeMl - platform.reservoirDeadMl;
  }
  EXPECT_GE(total, 230.4);
  EXPECT_EQ(spread[0].pos, (ir::ReservoirPos{1, 1}));
  EXPECT_EQ(spread[1].pos, (ir::ReservoirPos{1, 3}));
  ASSERT_EQ(loads(ab).size(), 1u);
  EXPECT_EQ(loads(ab)[0].pos, (ir::ReservoirPos{1, 2}));
  EXPECT_TRUE(std::is_sorted(module.loadingPlan.begin(), module.loadingPlan.end(),
                             [](const auto &a, const auto &b) { return a.pos < b.pos; }));
}

TEST_F(AllocateReservoirTest, DeclaredBelowNeedIsE701WithShortfall) {
  ir::LiquidId tmb = reagent("tmb", 5);
  dispense(tmb, wells("A1", "H6"), 100); // 4.8 mL + dead
  EXPECT_FALSE(allocate());
  const Diagnostic &d = only("E701");
  EXPECT_EQ(d.loc, module.liquids[tmb].loc);
  EXPECT_EQ(d.category, Category::Resource);
  const double required = 4.8 + platform.reservoirDeadMl;
  EXPECT_NE(d.message.find(fmt::format("needs {}", Quantity{required, Unit::MilliLiter})),
            std::string::npos)
      << d.message;
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].message.find(
                fmt::format("{} mL short", formatNumber(std::round((required - 5) * 1e6) / 1e6))),
            std::string::npos)
      << d.notes[0].message;
}

TEST_F(AllocateReservoirTest, TooManyLayoutLiquidsIsE706WithShortfallAndManualHint) {
  std::vector<ir::LiquidId> samples;
  for (unsigned i = 0; i <= positions(); ++i) {
    Well well{static_cast<uint8_t>(1 + i % 8), static_cast<uint8_t>(1 + i / 8)};
    WellSet set;
    set.insert(well);
    samples.push_back(addLiquid(fmt::format("X{}", i + 1), ir::LiquidRole::Sample, set));
    dispense(samples.back(), set, 50);
  }
  EXPECT_FALSE(allocate());
  const Diagnostic &d = only("E706");
  EXPECT_EQ(d.loc, module.liquids[samples.back()].loc); // the first that does not fit
  EXPECT_NE(d.message.find("has 15, 1 short"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("<MANUAL>"), std::string::npos) << d.message;
  EXPECT_TRUE(module.loadingPlan.empty());
}

TEST_F(AllocateReservoirTest, FixedLiquidThatNeedsTwoPositionsIsE504) {
  ir::LiquidId buffer = reagent("wash_buffer", {}, ir::ReservoirPos{2, 2});
  wash(buffer, wells("A1", "H12"), 300, 3); // 86.4 mL
  EXPECT_FALSE(allocate());
  const Diagnostic &d = only("E504");
  EXPECT_EQ(d.loc, module.liquids[buffer].loc);
  EXPECT_NE(d.message.find("`wash_buffer`"), std::string::npos);
}

TEST_F(AllocateReservoirTest, FixedConflictsAreE314AndOffReservoirE313) {
  ir::LiquidId a = reagent("a", {}, ir::ReservoirPos{1, 1});
  ir::LiquidId b = reagent("b", {}, ir::ReservoirPos{1, 1});
  ir::LiquidId c = reagent("c", {},
                           ir::ReservoirPos{platform.reservoirRows + 1, 1});
  for (ir::LiquidId id : {a, b, c})
    dispense(id, wells({"A1"}), 10);
  EXPECT_FALSE(allocate());
  EXPECT_EQ(codes(), (std::vector<std::string>{"E314", "E313"}));
  EXPECT_EQ(only("E314").loc, module.liquids[b].loc);
  ASSERT_EQ(only("E314").notes.size(), 1u);
  EXPECT_EQ(only("E314").notes[0].loc, module.liquids[a].loc);
  EXPECT_EQ(only("E313").loc, module.liquids[c].loc);
}

TEST_F(AllocateReservoirTest, NeedsCountOnlyInstrumentSteps) {
  ir::LiquidId r = reagent("r");
  dispense(r, wells("A1", "A4"), 100);
  dispense(r, wells("A1", "A4"), 100, {}, /*manual=*/true);
  wash(r, wells("B1", "B2"), 200, 3);
  std::vector<double> need = reservoirNeedsUl(module);
  EXPECT_DOUBLE_EQ(need[r], 4 * 100 + 3 * 200 * 2);
}

} // namespace
} // namespace plate::test
