//===- TrackVolumesTest.cpp - track-volumes -------------------------------===//
#include "PassTestUtil.h"

#include "passes/TrackVolumes.h"

namespace plate::test {
namespace {

class TrackVolumesTest : public PassFixture {
protected:
  bool track() { return runPasses("normalize-units,track-volumes"); }
  /// Runs the model directly to inspect the final plate.
  std::vector<WellState> finalState() {
    PassContext context{diags, sources, platform};
    createNormalizeUnitsPass()->run(module, context);
    return trackVolumes(module, context);
  }
  const WellState &state(const std::vector<WellState> &plate, std::string_view name) {
    Well well = W(name);
    return plate[(well.row - 1) * module.shape.cols + (well.col - 1)];
  }
  size_t dispense(ir::LiquidId liquid, WellSet to, double ul, bool manual = false) {
    return addOp(ir::DispenseOp{{{liquid, to}}, uL(ul), {}, {}}, manual);
  }
  void expectAt(const Diagnostic &diagnostic, size_t opIndex) {
    EXPECT_EQ(diagnostic.loc.line, opIndex + 1);
    EXPECT_EQ(diagnostic.loc.col, 4u);
    EXPECT_EQ(diagnostic.step, std::to_string(opIndex + 1));
  }
  double capacity() { return platform.findLabware(module.plateType)->wellCapacityUl; }
};

TEST_F(TrackVolumesTest, ManualDispenseFillsWellsForAspirateAll) {
  ir::LiquidId sample = addLiquid("X1", ir::LiquidRole::Sample, wells("A1", "B1"));
  ir::LiquidId buffer = addReagent("buffer");
  dispense(sample, wells("A1", "B1"), 100, /*manual=*/true);
  dispense(buffer, wells({"A1"}), 50);
  size_t aspirate = addOp(ir::AspirateOp{wells("A1", "C1"), {}, {}, {}});
  // C1 was never filled: `aspirate all` from an empty well.
  EXPECT_FALSE(track());
  const auto &resolved = module.ops[aspirate].as<ir::AspirateOp>()->resolved;
  ASSERT_EQ(resolved.size(), 2u);
  EXPECT_EQ(resolved[0].well, W("A1"));
  EXPECT_EQ(resolved[0].volume, uL(150));
  EXPECT_EQ(resolved[1].well, W("B1"));
  EXPECT_EQ(resolved[1].volume, uL(100));
  const Diagnostic &d = only("E502");
  expectAt(d, aspirate);
  EXPECT_NE(d.message.find("`C1`"), std::string::npos) << d.message;
}

TEST_F(TrackVolumesTest, WashEmptiesWellsThatHoldLiquidAndEndsEmpty) {
  ir::LiquidId sample = addLiquid("X1", ir::LiquidRole::Sample, wells("A1", "A2"));
  ir::LiquidId wash = addReagent("wash_buffer");
  dispense(sample, wells({"A1"}), 100, true);
  dispense(sample, wells({"A2"}), 0.1, true);
  dispense(sample, wells({"A2"}), 0.2, true);
  size_t washOp = addOp(ir::WashOp{wash, wells("A1", "A3"), uL(300), 4, {}, {}, {}});
  size_t after = addOp(ir::AspirateOp{wells({"A1"}), {}, {}, {}});
  // The wash left A1 empty: `all` then removes a residue the model does
  // not track (W501), not liquid from a well that never held any (E502).
  EXPECT_TRUE(track());
  const auto &emptied = module.ops[washOp].as<ir::WashOp>()->emptied;
  ASSERT_EQ(emptied.size(), 2u); // A3 held nothing
  EXPECT_EQ(emptied[0].well, W("A1"));
  EXPECT_EQ(emptied[0].volume, uL(100));
  EXPECT_EQ(emptied[1].well, W("A2"));
  EXPECT_EQ(emptied[1].volume, uL(0.3)); // rounded, not 0.30000000000000004
  expectAt(only("W501"), after);
}

TEST_F(TrackVolumesTest, OverflowIsE500NamingWellVolumeCapacity) {
  ir::LiquidId buffer = addReagent("buffer");
  double half = capacity() / 2 + 10;
  dispense(buffer, wells("A1", "A3"), half);
  size_t second = dispense(buffer, wells("A1", "A3"), half);
  EXPECT_FALSE(track());
  const Diagnostic &d = only("E500");
  expectAt(d, second);
  EXPECT_EQ(d.category, Category::Physical);
  EXPECT_NE(d.message.find("`A1`"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find(fmt::format("{}", uL(2 * half))), std::string::npos);
  EXPECT_NE(d.message.find(fmt::format("{}", uL(capacity()))), std::string::npos);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].message.find("2 more well(s)"), std::string::npos);
}

TEST_F(TrackVolumesTest, OneMistakeIsReportedOnce) {
  ir::LiquidId buffer = addReagent("buffer");
  dispense(buffer, wells({"A1"}), capacity() - 10);
  size_t over = dispense(buffer, wells({"A1"}), 20);
  addOp(ir::AspirateOp{wells({"A1"}), uL(capacity()), {}, {}}); // clamped: exact
  EXPECT_FALSE(track());
  EXPECT_EQ(codes(), std::vector<std::string>{"E500"});
  expectAt(only("E500"), over);
}

TEST_F(TrackVolumesTest, AspirateMoreThanHeldIsE502) {
  ir::LiquidId buffer = addReagent("buffer");
  dispense(buffer, wells("A1", "B1"), 100);
  addOp(ir::AspirateOp{wells("A1", "B1"), uL(60), {}, {}});
  size_t second = addOp(ir::AspirateOp{wells("A1", "B1"), uL(60), {}, {}});
  EXPECT_FALSE(track());
  const Diagnostic &d = only("E502");
  expectAt(d, second);
  EXPECT_NE(d.message.find("takes 60 µL from well `A1`, which holds 40 µL"),
            std::string::npos)
      << d.message;
}

TEST_F(TrackVolumesTest, MixMoreThanTheWellHoldsIsE502) {
  ir::LiquidId buffer = addReagent("buffer");
  addOp(ir::DispenseOp{{{buffer, wells({"A1"})}}, uL(100), ir::MixSpec{3, uL(80)}, {}});
  size_t bad = addOp(ir::DispenseOp{{{buffer, wells({"B1"})}}, uL(50),
                                    ir::MixSpec{3, uL(80)}, {}});
  size_t mix = addOp(ir::MixOp{wells({"C1"}), 2, uL(10), {}});
  EXPECT_FALSE(track());
  ASSERT_EQ(codes(), (std::vector<std::string>{"E502", "E502"}));
  expectAt(diags.diagnostics()[0], bad);
  expectAt(diags.diagnostics()[1], mix);
}

TEST_F(TrackVolumesTest, TransferMovesVolumeAndContents) {
  ir::LiquidId a = addLiquid("X1", ir::LiquidRole::Sample, wells({"A1"}));
  ir::LiquidId b = addReagent("diluent");
  dispense(a, wells({"A1"}), 100, true);
  dispense(b, wells({"B1"}), 100);
  addOp(ir::TransferOp{{{W("A1"), W("B1")}, {W("B1"), W("C1")}}, uL(50), {}});
  std::vector<WellState> plate = finalState();
  EXPECT_FALSE(diags.hasErrors());
  EXPECT_DOUBLE_EQ(state(plate, "A1").volumeUl, 50);
  EXPECT_DOUBLE_EQ(state(plate, "B1").volumeUl, 100);
  EXPECT_DOUBLE_EQ(state(plate, "C1").volumeUl, 50);
  EXPECT_EQ(state(plate, "A1").liquids, (llvm::SmallVector<ir::LiquidId, 4>{a}));
  EXPECT_EQ(state(plate, "B1").liquids, (llvm::SmallVector<ir::LiquidId, 4>{a, b}));
  // Pairs run in order: C1 receives B1's mix, not only the diluent.
  EXPECT_EQ(state(plate, "C1").liquids, (llvm::SmallVector<ir::LiquidId, 4>{a, b}));
}

TEST_F(TrackVolumesTest, TransferFromEmptyWellIsE502AndIntoFullWellIsE500) {
  ir::LiquidId b = addReagent("buffer");
  dispense(b, wells({"A1"}), capacity());
  dispense(b, wells({"B1"}), capacity());
  size_t transfer = addOp(ir::TransferOp{{{W("C1"), W("A2")}, {W("A1"), W("B1")}},
                                         uL(10), {}});
  EXPECT_FALSE(track());
  ASSERT_EQ(codes(), (std::vector<std::string>{"E502", "E500"}));
  expectAt(diags.diagnostics()[0], transfer);
  expectAt(diags.diagnostics()[1], transfer);
  EXPECT_NE(diags.diagnostics()[0].message.find("`C1`"), std::string::npos);
  EXPECT_NE(diags.diagnostics()[1].message.find("`B1`"), std::string::npos);
}

TEST_F(TrackVolumesTest, WashFillAboveCapacityIsE500) {
  usePlate("plate384");
  ir::LiquidId wash = addReagent("wash_buffer");
  size_t washOp = addOp(ir::WashOp{wash, wells("A1", "B2"), uL(capacity() + 1), 3,
                                   {}, {}, {}});
  EXPECT_FALSE(track());
  const Diagnostic &d = only("E500");
  expectAt(d, washOp);
  EXPECT_NE(d.message.find("plate384"), std::string::npos);
  EXPECT_TRUE(module.ops[washOp].as<ir::WashOp>()->emptied.empty());
}

TEST_F(TrackVolumesTest, FullElisaLikeSequenceIsClean) {
  ir::LiquidId sample = addLiquid("X", ir::LiquidRole::Sample, wells("A1", "H12"));
  ir::LiquidId wash = addReagent("wash_buffer");
  ir::LiquidId ab = addReagent("ab");
  dispense(sample, wells("A1", "H12"), 100, true);
  addOp(ir::WashOp{wash, wells("A1", "H12"), uL(300), 4, {}, {}, {}});
  dispense(ab, wells("A1", "H12"), 100);
  addOp(ir::WashOp{wash, wells("A1", "H12"), uL(300), 4, {}, {}, {}});
  dispense(ab, wells("A1", "H12"), 100);
  dispense(ab, wells("A1", "H12"), 50);
  EXPECT_TRUE(track());
  EXPECT_TRUE(codes().empty());
  EXPECT_EQ(module.ops[1].as<ir::WashOp>()->emptied.size(), 96u);
  EXPECT_EQ(module.ops[3].as<ir::WashOp>()->emptied.size(), 96u);
}

//===--- W004: `all` leaves out wells that hold liquid ----------------------===//

class AllLeavesOutTest : public TrackVolumesTest {
protected:
  /// A reagent dispense whose wells are `all` (the layout's), as sema
  /// makes it: `allLoc` at column 30 of its line. The fixture's buffer is
  /// blank, so the message reads as for a default `all` (no fix-it); the
  /// written `all` and its fix-it are checked by the lit test of W004.
  size_t dispenseToAll(ir::LiquidId liquid, double ul) {
    size_t index = dispense(liquid, module.layoutWells(), ul);
    module.ops[index].as<ir::DispenseOp>()->allLoc =
        lineLoc(static_cast<uint32_t>(index + 1), 30);
    return index;
  }
  /// Exactly one W004, at the `all` of op `index`, naming `count` well(s).
  void expectOneAt(size_t index, unsigned count, std::string_view named) {
    ASSERT_EQ(warnings().size(), 1u) << ::testing::PrintToString(warnings());
    std::string warning = warnings()[0];
    EXPECT_EQ(warning.rfind(std::to_string(index + 1) + ":30 ", 0), 0u) << warning;
    EXPECT_NE(warning.find(fmt::format("leaves out {} well(s) that hold liquid ({})", count,
                                       named)),
              std::string::npos)
        << warning;
  }
  std::vector<std::string> warnings() const {
    std::vector<std::string> out;
    for (const Diagnostic &d : diags.diagnostics())
      if (d.id == DiagId::AllLeavesOutFilledWells)
        out.push_back(fmt::format("{}:{} {}", d.loc.line, d.loc.col, d.message));
    return out;
  }
};

TEST_F(AllLeavesOutTest, NamesWellsOutsideTheLayoutThatHoldLiquidOncePerWell) {
  addLiquid("X1", ir::LiquidRole::Sample, wells("A1", "B1"));
  ir::LiquidId coat = addReagent("coat");
  ir::LiquidId block = addReagent("block");
  size_t fill = dispense(coat, wells("A1", "D1"), 100, /*manual=*/true);
  size_t first = dispenseToAll(block, 50);
  dispenseToAll(block, 50); // C1, D1 again: named already
  addOp(ir::ReadAbsorbanceOp{Quantity::nanometers(450), {}, wells("A1", "D1")});
  EXPECT_TRUE(track());
  expectOneAt(first, 2, "C1..D1");
  const Diagnostic &d = only("W004");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].loc.line, fill + 1);
  EXPECT_NE(d.notes[0].message.find("`C1`"), std::string::npos);
  EXPECT_NE(d.notes[0].message.find("<MANUAL>"), std::string::npos);
}

TEST_F(AllLeavesOutTest, EmptiedWellsNamedWellsAndLayoutWellsAreNotLeftOut) {
  addLiquid("X1", ir::LiquidRole::Sample, wells("A1", "B1"));
  ir::LiquidId coat = addReagent("coat");
  ir::LiquidId block = addReagent("block");
  // Outside the layout, but emptied before the dispense to `all`.
  dispense(coat, wells("C1", "D1"), 100, /*manual=*/true);
  addOp(ir::AspirateOp{wells({"C1"}), {}, {}, {}});
  addOp(ir::WashOp{block, wells({"D1"}), uL(300), 2, {}, {}, {}});
  // Named wells, not `all`: the author chose them.
  dispense(block, wells({"E1"}), 50);
  dispense(block, wells("A1", "B1"), 50);
  // E1 holds liquid now and `all` does not include it; C1 and D1 are empty.
  size_t toAll = dispenseToAll(block, 50);
  addOp(ir::ReadAbsorbanceOp{Quantity::nanometers(450), {}, wells("A1", "E1")});
  EXPECT_TRUE(track());
  expectOneAt(toAll, 1, "E1");
}

TEST_F(AllLeavesOutTest, ABufferMoatThatIsNeverReadIsNotNamedSampleMaterialIs) {
  addLiquid("X1", ir::LiquidRole::Sample, wells("B2", "B3"));
  ir::LiquidId extra = addLiquid("QC", ir::LiquidRole::Control, wells({"C2"}));
  ir::LiquidId pbs = addReagent("pbs");
  ir::LiquidId stain = addReagent("stain");
  // Edge wells of buffer against evaporation: nothing measures them.
  dispense(pbs, wells("A1", "A12"), 200, /*manual=*/true);
  // A control put into an extra well: sample material, read or not.
  dispense(extra, wells({"H12"}), 100, /*manual=*/true);
  size_t toAll = dispenseToAll(stain, 20);
  addOp(ir::ReadAbsorbanceOp{Quantity::nanometers(450), {}, {}}); // the layout's wells
  EXPECT_TRUE(track());
  expectOneAt(toAll, 1, "H12");
}

TEST_F(AllLeavesOutTest, TheSameMoatIsNamedWhenALaterReadMeasuresIt) {
  addLiquid("X1", ir::LiquidRole::Sample, wells("B2", "B3"));
  ir::LiquidId pbs = addReagent("pbs");
  ir::LiquidId stain = addReagent("stain");
  dispense(pbs, wells("A1", "A3"), 200, /*manual=*/true);
  size_t toAll = dispenseToAll(stain, 20);
  addOp(ir::ReadAbsorbanceOp{Quantity::nanometers(450), {}, wells("A1", "B3")});
  EXPECT_TRUE(track());
  expectOneAt(toAll, 3, "A1..A3");
}

TEST_F(AllLeavesOutTest, ATransferIntoWellsOutsideTheLayoutCounts) {
  ir::LiquidId sample = addLiquid("X1", ir::LiquidRole::Sample, wells({"A1"}));
  ir::LiquidId block = addReagent("block");
  dispense(sample, wells({"A1"}), 200, /*manual=*/true);
  addOp(ir::TransferOp{{{W("A1"), W("A2")}}, uL(100), {}});
  size_t toAll = dispenseToAll(block, 50);
  EXPECT_TRUE(track());
  expectOneAt(toAll, 1, "A2");
}

TEST_F(AllLeavesOutTest, WithoutAllLocNothingIsReported) {
  addLiquid("X1", ir::LiquidRole::Sample, wells({"A1"}));
  ir::LiquidId coat = addReagent("coat");
  dispense(coat, wells("A1", "H12"), 100, /*manual=*/true);
  dispense(coat, module.layoutWells(), 50); // same wells as `all`, but named
  EXPECT_TRUE(track());
  EXPECT_TRUE(warnings().empty());
}

} // namespace
} // namespace plate::test
