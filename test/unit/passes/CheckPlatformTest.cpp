//===- CheckPlatformTest.cpp - check-platform -----------------------------===//
//
// Limits come from the loaded platform; the tests derive the values they
// probe from it (just inside, just outside), never from copied numbers.
//
//===----------------------------------------------------------------------===//
#include "PassTestUtil.h"

#include "passes/CheckPlatform.h"

namespace plate::test {
namespace {

class CheckPlatformTest : public PassFixture {
protected:
  size_t incubate(double celsius, std::optional<double> rpm = std::nullopt,
                  bool manual = false) {
    ir::IncubateOp op;
    op.time = Quantity{30, Unit::Minute};
    op.temperature = Quantity::celsius(celsius);
    if (rpm)
      op.shaking = Quantity::rpm(*rpm);
    return addOp(op, manual);
  }
  bool check() { return runPasses("normalize-units,check-platform"); }
  /// The hint of E601 (after the filter list) for a read at `nm` on a
  /// reader with `filters`.
  std::string filterHint(std::vector<double> filters, double nm) {
    platform.readerFiltersNm = std::move(filters);
    DiagnosticEngine fresh(sources);
    PassContext context{fresh, sources, platform};
    ir::Module read = module;
    ir::Op op;
    op.payload = ir::ReadAbsorbanceOp{Quantity::nanometers(nm), {}, wells({"A1"})};
    op.loc = lineLoc(1, 4);
    read.ops = {op};
    read.unitsNormalized = true;
    createCheckPlatformPass()->run(read, context);
    if (fresh.diagnostics().size() != 1)
      return "(" + std::to_string(fresh.diagnostics().size()) + " diagnostics)";
    const std::string &message = fresh.diagnostics().front().message;
    return message.substr(message.find("); ") + 3);
  }
  void expectAt(const Diagnostic &diagnostic, size_t opIndex) {
    EXPECT_EQ(diagnostic.loc.line, opIndex + 1);
    EXPECT_EQ(diagnostic.loc.col, 4u);
    EXPECT_EQ(diagnostic.step, std::to_string(opIndex + 1));
  }
};

TEST_F(CheckPlatformTest, RoomTemperatureAndHeaterRangeAreAccepted) {
  incubate(platform.roomTempMinCelsius);
  incubate(platform.roomTempMaxCelsius);
  incubate(platform.heaterMaxCelsius);
  addOp(ir::IncubateOp{Quantity::seconds(60), Quantity{1, Unit::Ambient}, {}, true, false});
  EXPECT_TRUE(check());
  EXPECT_TRUE(codes().empty());
}

TEST_F(CheckPlatformTest, AboveHeaterIsE503) {
  incubate(platform.roomTempMaxCelsius + 1);
  size_t hot = incubate(platform.heaterMaxCelsius + 5);
  EXPECT_FALSE(check());
  const Diagnostic &d = only("E503");
  expectAt(d, hot);
  EXPECT_EQ(d.category, Category::Physical);
  EXPECT_NE(d.message.find(fmt::format("{} °C", formatNumber(platform.heaterMaxCelsius))),
            std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find(platform.heaterModule), std::string::npos) << d.message;
}

TEST_F(CheckPlatformTest, BelowRoomTemperatureIsCoolingE602SuggestingManual) {
  size_t cold = incubate(platform.roomTempMinCelsius - 16);
  EXPECT_FALSE(check());
  const Diagnostic &d = only("E602");
  expectAt(d, cold);
  EXPECT_EQ(d.category, Category::Capability);
  EXPECT_NE(d.message.find("<MANUAL>"), std::string::npos) << d.message;
}

TEST_F(CheckPlatformTest, ManualOpsHaveNoRangeChecks) {
  incubate(4, 3000, /*manual=*/true);
  incubate(platform.heaterMaxCelsius + 30, std::nullopt, /*manual=*/true);
  addOp(ir::ReadAbsorbanceOp{Quantity::nanometers(562), {}, wells({"A1"})}, true);
  addOp(ir::ReadFluorescenceOp{Quantity::nanometers(485), Quantity::nanometers(535),
                               wells({"A1"})},
        true);
  addOp(ir::DispenseOp{{{addReagent("r"), wells({"A1"})}}, uL(1000), {}, {}}, true);
  EXPECT_TRUE(check());
  EXPECT_TRUE(codes().empty());
}

TEST_F(CheckPlatformTest, ShakingSpeedOutsideShakerIsE503) {
  addOp(ir::ShakeOp{Quantity::seconds(30), Quantity::rpm(platform.shakerMinRpm)});
  addOp(ir::ShakeOp{Quantity::seconds(30), Quantity::rpm(platform.shakerMaxRpm)});
  size_t fast = addOp(ir::ShakeOp{Quantity::seconds(30),
                                  Quantity::rpm(platform.shakerMaxRpm + 1)});
  size_t slow = incubate(platform.ambientCelsius, platform.shakerMinRpm / 2);
  EXPECT_FALSE(check());
  ASSERT_EQ(codes(), (std::vector<std::string>{"E503", "E503"}));
  expectAt(diags.diagnostics()[0], fast);
  expectAt(diags.diagnostics()[1], slow);
  EXPECT_NE(diags.diagnostics()[0].message.find(platform.shakerModule), std::string::npos);
}

TEST_F(CheckPlatformTest, HeatedShakingOnUnheatedShakerIsE605) {
  ASSERT_FALSE(platform.shakerHeated);
  incubate(platform.ambientCelsius, 300); // room temperature shaking is fine
  size_t warm = incubate(37, 300);
  EXPECT_FALSE(check());
  const Diagnostic &d = only("E605");
  expectAt(d, warm);
  EXPECT_NE(d.message.find("heated shaker"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("`shake`"), std::string::npos) << d.message;

  // The same script on a platform whose shaker heats is accepted.
  platform.shakerHeated = true;
  DiagnosticEngine fresh(sources);
  PassContext context{fresh, sources, platform};
  EXPECT_TRUE(createCheckPlatformPass()->run(module, context));
  EXPECT_FALSE(fresh.hasErrors());
}

TEST_F(CheckPlatformTest, WavelengthBetweenFiltersIsE617ListingFilters) {
  ASSERT_FALSE(platform.readerFiltersNm.empty());
  double good = platform.readerFiltersNm.front();
  addOp(ir::ReadAbsorbanceOp{Quantity::nanometers(good), {}, wells({"A1"})});
  size_t bad = addOp(ir::ReadAbsorbanceOp{Quantity::nanometers(good),
                                          Quantity::nanometers(good + 7), wells({"A1"})});
  EXPECT_FALSE(check());
  const Diagnostic &d = only("E617");
  expectAt(d, bad);
  for (double filter : platform.readerFiltersNm)
    EXPECT_NE(d.message.find(formatNumber(filter)), std::string::npos) << d.message;
  EXPECT_NE(d.message.find(formatNumber(good + 7) + " nm"), std::string::npos);
}

TEST_F(CheckPlatformTest, E601E617E618NameTheNearestFiltersCloserFirstAndTheManualFix) {
  std::vector<double> filters{405, 450, 540, 570, 650};
  const std::string manual = "move the read to a `<MANUAL>` section and use another reader";
  // Between two filters: both, the closer first (562 is 8 from 570, 22 from 540).
  EXPECT_EQ(filterHint(filters, 562),
            "the nearest are 570 and 540 nm: read at one of them, or " + manual);
  EXPECT_EQ(filterHint(filters, 545),
            "the nearest are 540 and 570 nm: read at one of them, or " + manual);
  // Half way: the lower first, deterministically.
  EXPECT_EQ(filterHint(filters, 555),
            "the nearest are 540 and 570 nm: read at one of them, or " + manual);
  // Outside the filter range: one neighbour only.
  EXPECT_EQ(filterHint(filters, 340), "the nearest is 405 nm: read at it, or " + manual);
  EXPECT_EQ(filterHint(filters, 700), "the nearest is 650 nm: read at it, or " + manual);
  // A reader without filters leaves the MANUAL fix only.
  EXPECT_EQ(filterHint({}, 562), manual);
  // A filter the reader has is no error.
  EXPECT_EQ(filterHint(filters, 570), "(0 diagnostics)");
}

TEST_F(CheckPlatformTest, FluorescenceIsE600SuggestingManual) {
  ASSERT_FALSE(platform.readerFluorescence);
  size_t read = addOp(ir::ReadFluorescenceOp{Quantity::nanometers(485),
                                             Quantity::nanometers(535), wells({"A1"})});
  EXPECT_FALSE(check());
  const Diagnostic &d = only("E600");
  expectAt(d, read);
  EXPECT_NE(d.message.find("fluorescence"), std::string::npos);
  EXPECT_NE(d.message.find("<MANUAL>"), std::string::npos);
}

TEST_F(CheckPlatformTest, MagnetNeedsAMagnetSlot) {
  addOp(ir::MagnetOp{Quantity{2, Unit::Minute}});
  EXPECT_TRUE(check());
  EXPECT_TRUE(codes().empty());

  platform.magnetSlot.clear();
  DiagnosticEngine fresh(sources);
  PassContext context{fresh, sources, platform};
  EXPECT_FALSE(createCheckPlatformPass()->run(module, context));
  ASSERT_EQ(fresh.diagnostics().size(), 1u);
  EXPECT_STREQ(diagInfo(fresh.diagnostics()[0].id).code, "E607");
  EXPECT_NE(fresh.diagnostics()[0].message.find("magnet"), std::string::npos);
}

TEST_F(CheckPlatformTest, MixAboveTipIsE501MovingMoreTakesTripsAboveWellIsE500) {
  ir::LiquidId buffer = addReagent("buffer");
  double tip = platform.tipCapacityUl;
  double well96 = platform.findLabware("plate96")->wellCapacityUl;
  ASSERT_GT(well96, tip); // plate96 wells take more than one tip
  addOp(ir::DispenseOp{{{buffer, wells("A1", "A4")}}, uL(tip), {}, {}});
  // More than a tip per well: the robot makes two trips, no diagnostic.
  addOp(ir::DispenseOp{{{buffer, wells("B2", "B4")}}, uL(tip + 10), {}, {}});
  // A mix draws its volume into the tip at once.
  size_t mix = addOp(ir::MixOp{wells("A1", "A4"), 3, uL(tip + 10), {}});
  size_t huge = addOp(ir::WashOp{buffer, wells("C3", "C4"), uL(well96 + 1), 2, {}, {}, {}});
  EXPECT_FALSE(check());
  ASSERT_EQ(codes(), (std::vector<std::string>{"E501", "E500"}));
  expectAt(diags.diagnostics()[0], mix);
  const Diagnostic &overflow = diags.diagnostics()[1];
  expectAt(overflow, huge);
  EXPECT_NE(overflow.message.find("`C3`"), std::string::npos) << overflow.message;
  EXPECT_NE(overflow.message.find(formatNumber(well96)), std::string::npos);
}

TEST_F(CheckPlatformTest, SmallPlateWellCapacityComesFromLabware) {
  usePlate("plate384");
  double well384 = platform.findLabware("plate384")->wellCapacityUl;
  ASSERT_LT(well384, platform.tipCapacityUl);
  ir::LiquidId buffer = addReagent("buffer");
  addOp(ir::DispenseOp{{{buffer, wells({"P24"})}}, uL(well384), {}, {}});
  size_t over = addOp(ir::TransferOp{{{W("A1"), W("P24")}}, uL(well384 + 5), {}});
  EXPECT_FALSE(check());
  const Diagnostic &d = only("E500");
  expectAt(d, over);
  EXPECT_NE(d.message.find("`P24`"), std::string::npos);
  EXPECT_NE(d.message.find("plate384"), std::string::npos);
}

/// The same pass on the OT-2's description: its cooler (the temperature
/// module) holds what BioForge-1 cannot cool, its heater-shaker starts at
/// its own minimum, and the ranges quoted are the OT-2's.
class CheckPlatformOt2Test : public CheckPlatformTest {
protected:
  void SetUp() override {
    CheckPlatformTest::SetUp();
    std::optional<Platform> loaded = loadPlatform("ot2", PLATE_STDLIB_DIR, diags, SourceLoc{},
                                                  PlatformLookup::CommandLine);
    ASSERT_TRUE(loaded.has_value());
    platform = std::move(*loaded);
    usePlate("plate96");
  }
};

TEST_F(CheckPlatformOt2Test, TheCoolerHoldsBelowRoomTemperature) {
  ASSERT_FALSE(platform.coolerModule.empty());
  incubate(platform.coolerMinCelsius);
  incubate(platform.roomTempMinCelsius - 1);
  // Above room temperature but below the heater-shaker: the cooler warms.
  incubate(platform.heaterMinCelsius - 1);
  incubate(platform.heaterMinCelsius, platform.shakerMinRpm);
  EXPECT_TRUE(check());
  EXPECT_TRUE(codes().empty());
}

TEST_F(CheckPlatformOt2Test, RangesAreTheOt2s) {
  size_t cold = incubate(platform.coolerMinCelsius - 1);
  size_t hot = incubate(platform.heaterMaxCelsius + 1);
  size_t slow =
      addOp(ir::ShakeOp{Quantity::seconds(30), Quantity::rpm(platform.shakerMinRpm - 1)});
  EXPECT_FALSE(check());
  ASSERT_EQ(codes(), (std::vector<std::string>{"E503", "E503", "E503"}));
  const auto &found = diags.diagnostics();
  expectAt(found[0], cold);
  EXPECT_NE(found[0].message.find(platform.coolerModule), std::string::npos) << found[0].message;
  EXPECT_NE(found[0].message.find(fmt::format("{}..", formatNumber(platform.coolerMinCelsius))),
            std::string::npos)
      << found[0].message;
  expectAt(found[1], hot);
  EXPECT_NE(found[1].message.find(fmt::format("{}..{} °C", formatNumber(platform.heaterMinCelsius),
                                              formatNumber(platform.heaterMaxCelsius))),
            std::string::npos)
      << found[1].message;
  expectAt(found[2], slow);
  EXPECT_NE(found[2].message.find(fmt::format("{}..{} rpm", formatNumber(platform.shakerMinRpm),
                                              formatNumber(platform.shakerMaxRpm))),
            std::string::npos)
      << found[2].message;
}

} // namespace
} // namespace plate::test
