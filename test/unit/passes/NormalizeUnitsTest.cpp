//===- NormalizeUnitsTest.cpp - normalize-units ---------------------------===//
#include "PassTestUtil.h"

namespace plate::test {
namespace {

class NormalizeUnitsTest : public PassFixture {};

TEST_F(NormalizeUnitsTest, ConvertsEveryFieldToCanonical) {
  ir::LiquidId ab = addReagent("detection_ab");
  module.liquids[ab].declaredVolume = mL(12);
  ir::LiquidId s1 = addLiquid("S1", ir::LiquidRole::Calibrant, wells({"A1"}));
  module.liquids[s1].concentration = Quantity{0.5, Unit::NanogramPerMl};
  ir::LiquidId m1 = addLiquid("M1", ir::LiquidRole::Sample, wells({"A2"}));
  module.liquids[m1].concentration = Quantity{2, Unit::MicroMolar};

  ir::DispenseOp dispense;
  dispense.portions.push_back({ab, wells("A1", "B2")});
  dispense.volume = mL(0.1);
  dispense.mix = ir::MixSpec{3, Quantity{50000, Unit::NanoLiter}};
  addOp(dispense);
  ir::IncubateOp incubate;
  incubate.time = Quantity{2, Unit::Hour};
  incubate.temperature = Quantity{37, Unit::Celsius};
  incubate.shaking = Quantity::rpm(300);
  addOp(incubate);
  ir::WashOp wash;
  wash.reagent = ab;
  wash.wells = wells("A1", "B2");
  wash.volume = mL(0.3);
  wash.cycles = 3;
  wash.soak = Quantity{0.5, Unit::Minute};
  addOp(wash);

  ASSERT_TRUE(runPasses("normalize-units"));
  EXPECT_TRUE(diags.diagnostics().empty());
  EXPECT_TRUE(module.unitsNormalized);
  const auto &d = *module.ops[0].as<ir::DispenseOp>();
  EXPECT_EQ(d.volume, uL(100));
  EXPECT_EQ(d.mix->volume, uL(50));
  const auto &i = *module.ops[1].as<ir::IncubateOp>();
  EXPECT_EQ(i.time, Quantity::seconds(7200));
  EXPECT_EQ(i.temperature, Quantity::celsius(37));
  const auto &w = *module.ops[2].as<ir::WashOp>();
  EXPECT_EQ(w.volume, uL(300));
  EXPECT_EQ(*w.soak, Quantity::seconds(30));
  EXPECT_EQ(*module.liquids[ab].declaredVolume, uL(12000));
  // Concentrations keep the unit they were written in (language spec §2:
  // "kept with its unit family"), so reports speak the calibrants' unit.
  EXPECT_EQ(*module.liquids[s1].concentration, (Quantity{0.5, Unit::NanogramPerMl}));
  EXPECT_EQ(*module.liquids[m1].concentration, (Quantity{2, Unit::MicroMolar}));
  EXPECT_TRUE(ir::verify(module).empty());
}

TEST_F(NormalizeUnitsTest, AmbientTakesThePlatformValue) {
  ir::IncubateOp incubate;
  incubate.time = Quantity{10, Unit::Minute};
  incubate.temperature = Quantity{1, Unit::Ambient};
  addOp(incubate);
  ir::EquilibrateOp equilibrate;
  equilibrate.temperature = Quantity{1, Unit::Ambient};
  addOp(equilibrate, /*manual=*/true);
  ASSERT_TRUE(runPasses("normalize-units"));
  EXPECT_TRUE(diags.diagnostics().empty());
  EXPECT_EQ(module.ops[0].as<ir::IncubateOp>()->temperature,
            Quantity::celsius(platform.ambientCelsius));
  EXPECT_EQ(module.ops[1].as<ir::EquilibrateOp>()->temperature,
            Quantity::celsius(platform.ambientCelsius));
}

TEST_F(NormalizeUnitsTest, OvernightWarnsW001AtTheOp) {
  addOp(ir::WaitOp{Quantity::seconds(5)});
  ir::IncubateOp incubate;
  incubate.time = Quantity{1, Unit::Overnight};
  incubate.temperature = Quantity::celsius(4);
  addOp(incubate, /*manual=*/true);
  ASSERT_TRUE(runPasses("normalize-units"));
  EXPECT_EQ(module.ops[1].as<ir::IncubateOp>()->time,
            Quantity::seconds(platform.overnightSeconds));
  const Diagnostic &warning = only("W001");
  EXPECT_EQ(warning.severity, Severity::Warning);
  EXPECT_EQ(warning.loc.line, 2u);
  EXPECT_EQ(warning.loc.col, 4u);
  EXPECT_EQ(warning.step, "2");
  EXPECT_NE(warning.message.find("`overnight` is taken as 16 h"), std::string::npos)
      << warning.message;
}

TEST_F(NormalizeUnitsTest, IsIdempotent) {
  addOp(ir::WaitOp{Quantity{3, Unit::Minute}});
  ASSERT_TRUE(runPasses("normalize-units,normalize-units"));
  EXPECT_EQ(module.ops[0].as<ir::WaitOp>()->time, Quantity::seconds(180));
}

} // namespace
} // namespace plate::test

namespace plate::test {
namespace {

TEST_F(NormalizeUnitsTest, ConversionLeavesNoBinaryNoise) {
  volatile double millilitres = 1.001; // volatile: no constant folding
  ASSERT_NE(millilitres * 1000, 1001.0); // the noise this test is about
  addOp(ir::MixOp{wells({"A1"}), 2, mL(millilitres), ir::TipPolicy::PerWell});
  addOp(ir::WaitOp{Quantity{0.03, Unit::Minute}});
  ASSERT_TRUE(runPasses("normalize-units"));
  EXPECT_EQ(module.ops[0].as<ir::MixOp>()->volume, uL(1001));
  EXPECT_EQ(module.ops[1].as<ir::WaitOp>()->time, Quantity::seconds(1.8));
}

} // namespace
} // namespace plate::test
