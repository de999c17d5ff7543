//===- LowerPipettingTest.cpp - Tests of lower-pipetting -----------------===//
//
// Hand-built modules (as group-wells, track-volumes and allocate-reservoir
// would leave them) are lowered and the result is replayed against the
// invariants of bioforge1.md §4 by Replay.h.
//
//===----------------------------------------------------------------------===//
#include "Fixture.h"
#include "Replay.h"

#include "ir/Verifier.h"
#include "passes/LowerPipetting.h"

#include <fmt/format.h>
#include <set>

namespace plate::testing {
namespace {

class LowerPipettingTest : public PassFixture {
protected:
  ReplayResult lowerAndReplay(std::map<Well, double> initial = {}) {
    EXPECT_TRUE(runPass(createLowerPipettingPass()));
    for (const std::string &problem : ir::verify(module_))
      ADD_FAILURE() << problem;
    Replayer replay(module_, platform_);
    replay.assumePlateReady();
    for (const auto &[well, ul] : initial)
      replay.setWell(well, ul);
    ReplayResult result = replay.run();
    EXPECT_EQ(result.error, "");
    EXPECT_EQ(module_.tipsUsed.value_or(0), result.freshTipsPicked);
    return result;
  }

  void expectAllHighLevelLowered() {
    for (const ir::Op &op : module_.ops)
      EXPECT_TRUE(op.manual || ir::isDeviceOp(op.kind())) << ir::printOp(op, module_);
  }
};

// Bradford, §12 of the language spec: 33 layout wells of 11 liquids
// (`tips new`), then 200 µL of one reagent to all of them (`per_source`).
TEST_F(LowerPipettingTest, BradfordLayoutAndReagent) {
  std::vector<ir::Portion> portions;
  ir::LiquidId blank = addLiquid("B0", ir::LiquidRole::Blank, wells("A1", "A3"));
  portions.push_back({blank, wells("A1", "A3")});
  load(blank, 1, 1, 1);
  const char *rows = "BCDEF";
  for (int i = 0; i < 5; ++i) {
    std::string r(1, rows[i]);
    WellSet w = wells((r + "1").c_str(), (r + "3").c_str());
    ir::LiquidId s = addLiquid(fmt::format("S{}", i + 1), ir::LiquidRole::Calibrant, w);
    portions.push_back({s, w});
    load(s, 1 + (i + 1) / 5, 1 + (i + 1) % 5, 1);
  }
  const char *sampleRows = "ABCDE";
  for (int i = 0; i < 5; ++i) {
    std::string r(1, sampleRows[i]);
    WellSet w = wells((r + "4").c_str(), (r + "6").c_str());
    ir::LiquidId s = addLiquid("FBS" + std::to_string(i + 1), ir::LiquidRole::Sample, w);
    portions.push_back({s, w});
    load(s, 1 + (i + 6) / 5, 1 + (i + 6) % 5, 1);
  }
  ir::LiquidId bradford = addLiquid("bradford", ir::LiquidRole::Reagent);
  load(bradford, 3, 2, 7.2);
  WellSet all = module_.layoutWells();
  ASSERT_EQ(all.size(), 33u);

  add(ir::DispenseOp{portions, ul(10), std::nullopt, ir::TipPolicy::New}, 16, "1");
  add(ir::DispenseOp{{{bradford, all}}, ul(200), std::nullopt, ir::TipPolicy::PerSource},
      17, "2");
  ReplayResult result = lowerAndReplay();
  expectAllHighLevelLowered();

  for (Well well : all.columnMajor())
    EXPECT_DOUBLE_EQ(result.wellVolume[well], 210) << well.name();
  // One fresh tip per (liquid, channel) the row-wise blocks need: rows of
  // six wells split 1111 + 11, so B0/S*: 3 channels, FBS*: 3 channels; and
  // one 4-channel set for bradford, kept for the whole step.
  EXPECT_EQ(*module_.tipsUsed, 33u + 4u);
  EXPECT_EQ(*module_.tipRacksUsed, 1u);
  // Every command traces back to its statement.
  for (const ir::Op &op : module_.ops)
    EXPECT_TRUE(op.loc.line == 16 || op.loc.line == 17);
  EXPECT_EQ(count(ir::OpKind::SwapTipRack), 0u);
}

// per_source multi-dispense: 50 µL into 96 wells is six wells per 300 µL fill.
TEST_F(LowerPipettingTest, PerSourceMultiDispenseUpToTipCapacity) {
  ir::LiquidId reagent = addLiquid("detection_ab", ir::LiquidRole::Reagent);
  load(reagent, 1, 1, 5.5);
  add(ir::DispenseOp{{{reagent, WellSet::all(module_.shape)}}, ul(50), std::nullopt,
                     ir::TipPolicy::PerSource},
      3, "3");
  ReplayResult result = lowerAndReplay();
  EXPECT_EQ(*module_.tipsUsed, 4u);
  EXPECT_EQ(count(ir::OpKind::PickTips), 1u);
  EXPECT_EQ(count(ir::OpKind::DevAspirate), 4u); // 96 wells * 50 / (4 * 300)
  EXPECT_EQ(count(ir::OpKind::DevDispense), 24u);
  for (const ir::Op &op : module_.ops) {
    if (auto *asp = op.as<ir::DevAspirateOp>()) {
      EXPECT_DOUBLE_EQ(asp->volume.value, 300);
    }
  }
  EXPECT_NEAR((result.reservoir[{1, 1}]), 700, 1e-6); // 5.5 mL - 96 * 50 µL
}

// A liquid spanning two positions: the first drains to its dead volume,
// then new tips (bound to the second position) continue.
TEST_F(LowerPipettingTest, LiquidSpanningPositionsDrainsInOrder) {
  ir::LiquidId wash = addLiquid("buffer", ir::LiquidRole::Reagent);
  load(wash, 1, 1, 0.5 + 2.0); // 2 mL usable
  load(wash, 1, 2, 0.5 + 2.8);
  add(ir::DispenseOp{{{wash, WellSet::all(module_.shape)}}, ul(50), std::nullopt,
                     ir::TipPolicy::PerSource},
      4);
  ReplayResult result = lowerAndReplay();
  EXPECT_NEAR((result.reservoir[{1, 1}]), 500, 1e-6);
  EXPECT_NEAR((result.reservoir[{1, 2}]), 500, 1e-6);
  for (Well well : WellSet::all(module_.shape).columnMajor())
    EXPECT_DOUBLE_EQ(result.wellVolume[well], 50);
  EXPECT_EQ(*module_.tipsUsed, 8u);
}

// A volume above the tip capacity goes in equal pieces.
TEST_F(LowerPipettingTest, VolumeAboveTipCapacitySplits) {
  ir::LiquidId reagent = addLiquid("r", ir::LiquidRole::Reagent);
  load(reagent, 1, 1, 2);
  add(ir::DispenseOp{{{reagent, wells("A1", "A4")}}, ul(340), std::nullopt,
                     ir::TipPolicy::PerSource},
      5);
  ReplayResult result = lowerAndReplay();
  EXPECT_EQ(count(ir::OpKind::DevAspirate), 2u);
  for (const ir::Op &op : module_.ops) {
    if (auto *asp = op.as<ir::DevAspirateOp>()) {
      EXPECT_DOUBLE_EQ(asp->volume.value, 170);
    }
  }
  EXPECT_DOUBLE_EQ(result.wellVolume[*Well::parse("A3")], 340);
}

// ELISA wash: removal tips are per well and parked between cycles, and the
// same tips serve the next wash of the same wells; the fill set is parked
// between cycles too.
TEST_F(LowerPipettingTest, WashParksRemovalTipsPerWell) {
  ir::LiquidId buffer = addLiquid("wash_buffer", ir::LiquidRole::Reagent);
  ir::LiquidId ab = addLiquid("detection_ab", ir::LiquidRole::Reagent);
  for (unsigned c = 1; c <= 5; ++c)
    load(buffer, 1, c, 25);
  load(ab, 2, 1, 7);
  WellSet plate = wells("A1", "H8"); // 64 wells
  std::map<Well, double> initial;
  std::vector<ir::WellAmount> emptied;
  for (Well well : plate.columnMajor()) {
    initial[well] = 100;
    emptied.push_back({well, ul(100)});
  }
  ir::WashOp first{buffer, plate, ul(300), 2, Quantity::seconds(30), emptied,
                   ir::TipPolicy::PerWell};
  add(first, 10, "2");
  add(ir::DispenseOp{{{ab, plate}}, ul(100), std::nullopt, ir::TipPolicy::PerSource}, 11, "3");
  std::vector<ir::WellAmount> emptied2 = emptied;
  add(ir::WashOp{buffer, plate, ul(300), 2, std::nullopt, emptied2, ir::TipPolicy::PerWell},
      12, "5");
  ReplayResult result = lowerAndReplay(initial);
  expectAllHighLevelLowered();
  for (Well well : plate.columnMajor())
    EXPECT_NEAR(result.wellVolume[well], 0, 1e-6) << well.name();
  // 64 removal tips for the whole protocol, 4 per buffer position drawn
  // from, 4 for the antibody.
  std::set<unsigned> bufferPositions;
  for (const ir::Op &op : module_.ops) {
    auto *a = op.as<ir::DevAspirateOp>();
    if (a && a->liquid == buffer && a->place.slot == platform_.reservoirSlot)
      bufferPositions.insert(a->place.col);
  }
  EXPECT_EQ(bufferPositions.size(), 4u); // 76.8 mL from 24.5 mL positions
  EXPECT_EQ(*module_.tipsUsed, 64u + 4u * bufferPositions.size() + 4u);
  EXPECT_GT(count(ir::OpKind::ReturnTips), 0u);
  EXPECT_EQ(count(ir::OpKind::DevWait), 2u); // soak per cycle of the first wash
  for (const ir::Op &op : module_.ops) {
    if (auto *d = op.as<ir::DevDispenseOp>(); d && d->place.slot == platform_.solutionWasteSlot) {
      EXPECT_EQ(d->place.row, 0u);
    }
  }
}

// A mix after a dispense binds the tips to the wells; a later removal of
// those wells picks the same tips up again.
TEST_F(LowerPipettingTest, MixAfterDispenseBindsTipsToWells) {
  ir::LiquidId reagent = addLiquid("r", ir::LiquidRole::Reagent);
  load(reagent, 1, 1, 2);
  WellSet row = wells("A1", "A4");
  add(ir::DispenseOp{{{reagent, row}}, ul(100), ir::MixSpec{3, ul(50)},
                     ir::TipPolicy::PerSource},
      6);
  add(ir::AspirateOp{row, std::nullopt, {{*Well::parse("A1"), ul(100)},
                                         {*Well::parse("A2"), ul(100)},
                                         {*Well::parse("A3"), ul(100)},
                                         {*Well::parse("A4"), ul(100)}},
                     ir::TipPolicy::PerWell},
      7);
  ReplayResult result = lowerAndReplay();
  EXPECT_EQ(count(ir::OpKind::DevMix), 1u);
  EXPECT_EQ(*module_.tipsUsed, 4u);
  EXPECT_EQ(count(ir::OpKind::ReturnTips), 1u);
  EXPECT_NEAR(result.wellVolume[*Well::parse("A2")], 0, 1e-6);
}

TEST_F(LowerPipettingTest, TransferLinesUpSourcesAndTargets) {
  std::map<Well, double> initial;
  ir::TransferOp transfer;
  transfer.volume = ul(40);
  transfer.tips = ir::TipPolicy::PerWell;
  for (int c = 1; c <= 4; ++c) {
    Well from{1, static_cast<uint8_t>(c)}, to{2, static_cast<uint8_t>(c)};
    transfer.pairs.push_back({from, to});
    initial[from] = 100;
  }
  transfer.pairs.push_back({*Well::parse("C7"), *Well::parse("D1")});
  initial[*Well::parse("C7")] = 100;
  addLiquid("x", ir::LiquidRole::Sample, wells("A1", "A4"));
  add(transfer, 8);
  ReplayResult result = lowerAndReplay(initial);
  EXPECT_EQ(count(ir::OpKind::DevAspirate), 2u);
  EXPECT_EQ(*module_.tipsUsed, 5u);
  EXPECT_DOUBLE_EQ(result.wellVolume[*Well::parse("B3")], 40);
  EXPECT_DOUBLE_EQ(result.wellVolume[*Well::parse("D1")], 40);
}

TEST_F(LowerPipettingTest, ReuseUsesOneSetAndMarksCommands) {
  ir::LiquidId a = addLiquid("a", ir::LiquidRole::Reagent);
  ir::LiquidId b = addLiquid("b", ir::LiquidRole::Reagent);
  load(a, 1, 1, 2);
  load(b, 1, 2, 2);
  ir::Op &op = add(ir::DispenseOp{{{a, wells("A1", "A4")}, {b, wells("B1", "B4")}}, ul(20),
                                  ir::MixSpec{2, ul(10)}, ir::TipPolicy::Reuse},
                   9);
  op.tipsReuse = true;
  lowerAndReplay();
  EXPECT_EQ(*module_.tipsUsed, 4u);
  for (const ir::Op &lowered : module_.ops)
    EXPECT_TRUE(lowered.tipsReuse);
}

TEST_F(LowerPipettingTest, UsesGroupWellsBlocksWhenPresent) {
  ir::LiquidId reagent = addLiquid("r", ir::LiquidRole::Reagent);
  load(reagent, 1, 1, 2);
  ir::Op &op = add(ir::DispenseOp{{{reagent, wells("A1", "A2")}}, ul(20), std::nullopt,
                                  ir::TipPolicy::New},
                   9);
  // The block group-wells would give: anchor A1, channels 1 and 2.
  ir::HeadPosition block{*Well::parse("A1"), {0b0011, 4}};
  op.blocks = {block};
  lowerAndReplay();
  bool sawDispense = false;
  for (const ir::Op &lowered : module_.ops) {
    if (auto *d = lowered.as<ir::DevDispenseOp>()) {
      EXPECT_EQ(d->mask.str(), "1100");
      EXPECT_EQ(d->place.col, 1u);
      sawDispense = true;
    }
  }
  EXPECT_TRUE(sawDispense);
}

// Removal from many wells with `tips new` on a full plate twice needs a
// second rack; with no spare racks that is E702 at the step that ran out.
TEST_F(LowerPipettingTest, RackSwapAndOutOfRacks) {
  WellSet plate = WellSet::all(module_.shape);
  addLiquid("x", ir::LiquidRole::Sample, plate);
  add(ir::AspirateOp{plate, ul(10), {}, ir::TipPolicy::New}, 20, "1");
  add(ir::AspirateOp{plate, ul(10), {}, ir::TipPolicy::New}, 21, "2");
  std::map<Well, double> initial;
  for (Well well : plate.columnMajor())
    initial[well] = 20;
  ReplayResult result = lowerAndReplay(initial);
  EXPECT_EQ(*module_.tipsUsed, 192u);
  EXPECT_EQ(*module_.tipRacksUsed, 2u);
  EXPECT_EQ(result.swaps, 1u);

  // Same again with an empty stacker.
  module_.ops.clear();
  add(ir::AspirateOp{plate, ul(10), {}, ir::TipPolicy::New}, 20, "1");
  add(ir::AspirateOp{plate, ul(10), {}, ir::TipPolicy::New}, 21, "2");
  platform_.spareTipRacks = 0;
  EXPECT_FALSE(runPass(createLowerPipettingPass()));
  ASSERT_EQ(diags_->diagnostics().size(), 1u);
  const Diagnostic &d = diags_->diagnostics()[0];
  EXPECT_STREQ(diagInfo(d.id).code, "E702");
  EXPECT_EQ(d.loc.line, 21u);
  EXPECT_EQ(d.loc.col, 1u);
  EXPECT_EQ(d.step, "2");
}

TEST_F(LowerPipettingTest, TipWasteFull) {
  platform_.tipWasteCapacity = 10;
  WellSet row = wells("A1", "A12");
  addLiquid("x", ir::LiquidRole::Sample, row);
  add(ir::AspirateOp{row, ul(10), {}, ir::TipPolicy::New}, 30, "4");
  EXPECT_FALSE(runPass(createLowerPipettingPass()));
  ASSERT_EQ(diags_->diagnostics().size(), 1u);
  const Diagnostic &d = diags_->diagnostics()[0];
  EXPECT_STREQ(diagInfo(d.id).code, "E703");
  EXPECT_EQ(d.loc.line, 30u);
  EXPECT_NE(d.message.find("12 tips"), std::string::npos) << d.message;
}

// A dispense with mix whose first position runs out after two channels:
// the two channels served there mix their wells right away, the other two
// mix after their share from the next position. Every well is mixed once.
TEST_F(LowerPipettingTest, MixAfterPositionSplitMixesEveryChannel) {
  ir::LiquidId reagent = addLiquid("r", ir::LiquidRole::Reagent);
  load(reagent, 1, 1, 0.5 + 0.25); // room for two 100 µL shares
  load(reagent, 1, 2, 0.5 + 1.0);
  WellSet row = wells("A1", "A4");
  add(ir::DispenseOp{{{reagent, row}}, ul(100), ir::MixSpec{3, ul(50)},
                     ir::TipPolicy::PerSource},
      6);
  ReplayResult result = lowerAndReplay();
  std::map<Well, unsigned> mixed;
  for (const ir::Op &op : module_.ops)
    if (auto *m = op.as<ir::DevMixOp>())
      for (unsigned k = 0; k < m->mask.channels; ++k)
        if (m->mask.test(k))
          ++mixed[Well{static_cast<uint8_t>(m->place.row), static_cast<uint8_t>(m->place.col + k)}];
  for (Well well : row.columnMajor()) {
    EXPECT_EQ(mixed[well], 1u) << well.name();
    EXPECT_DOUBLE_EQ(result.wellVolume[well], 100) << well.name();
  }
}

// Leftovers below one channel's share stay unused while later positions
// can cover the rest; when they cannot, a share is split across two
// positions (two dispenses into one well) and every position drains to
// its dead volume exactly.
TEST_F(LowerPipettingTest, LeftoverSplitOnlyWhenLaterPositionsFallShort) {
  ir::LiquidId reagent = addLiquid("r", ir::LiquidRole::Reagent);
  load(reagent, 1, 1, 0.5 + 0.25); // 250 µL: two shares and a half
  load(reagent, 1, 2, 0.5 + 0.05); // 50 µL: the missing half
  WellSet row = wells("A1", "A3");
  add(ir::DispenseOp{{{reagent, row}}, ul(100), std::nullopt, ir::TipPolicy::PerSource}, 7);
  ReplayResult result = lowerAndReplay();
  for (Well well : row.columnMajor())
    EXPECT_NEAR(result.wellVolume[well], 100, 1e-9) << well.name();
  EXPECT_NEAR((result.reservoir[{1, 1}]), 500, 1e-6);
  EXPECT_NEAR((result.reservoir[{1, 2}]), 500, 1e-6);
  unsigned toA3 = 0;
  for (const ir::Op &op : module_.ops)
    if (auto *d = op.as<ir::DevDispenseOp>(); d && d->place.col <= 3 && d->place.row == 1 &&
                                              d->mask.test(3 - d->place.col))
      ++toA3;
  EXPECT_EQ(toA3, 2u);
}

// Tip budgeting: 64 per-well removal tips, fill sets on several buffer
// positions and two antibodies do not fit one rack at full width; the
// source sets are narrowed so that the parked removal tips are never
// thrown away by a rack swap.
TEST_F(LowerPipettingTest, NarrowSourceSetsKeepParkedTipsInTheRack) {
  passOptions_.tipCostSeconds = 1000; // tips dear: the planner narrows
  ir::LiquidId buffer = addLiquid("wash_buffer", ir::LiquidRole::Reagent);
  ir::LiquidId ab = addLiquid("detection_ab", ir::LiquidRole::Reagent);
  ir::LiquidId hrp = addLiquid("hrp", ir::LiquidRole::Reagent);
  for (unsigned c = 1; c <= 5; ++c)
    for (unsigned r = 1; r <= 2; ++r)
      load(buffer, r, c, 23.6);
  load(ab, 3, 1, 7);
  load(hrp, 3, 2, 7);
  WellSet plate = wells("A1", "H8");
  std::map<Well, double> initial;
  std::vector<ir::WellAmount> emptied;
  for (Well well : plate.columnMajor()) {
    initial[well] = 100;
    emptied.push_back({well, ul(100)});
  }
  for (unsigned wash = 0; wash < 3; ++wash) {
    add(ir::WashOp{buffer, plate, ul(300), 4, std::nullopt, emptied, ir::TipPolicy::PerWell},
        10 + 2 * wash);
    if (wash < 2)
      add(ir::DispenseOp{{{wash == 0 ? ab : hrp, plate}}, ul(100), std::nullopt,
                         ir::TipPolicy::PerSource},
          11 + 2 * wash);
  }
  ReplayResult result = lowerAndReplay(initial);
  EXPECT_EQ(result.swaps, 0u);
  EXPECT_LE(*module_.tipsUsed, 96u);
  EXPECT_GE(*module_.tipsUsed, 64u + 12u); // one tip per well and per position
  for (Well well : plate.columnMajor())
    EXPECT_NEAR(result.wellVolume[well], 0, 1e-6) << well.name();
}

// A full plate: 96 per-well removal tips and a source set do not fit one
// rack, so the wash runs in parts of head-position columns; each well gets
// all its cycles, the swap falls between parts (the replay rejects a pick
// of a parked tip after a swap), and every removal tip is bought once.
TEST_F(LowerPipettingTest, FullPlateWashRunsInColumnParts) {
  ir::LiquidId buffer = addLiquid("wash_buffer", ir::LiquidRole::Reagent);
  for (unsigned c = 1; c <= 5; ++c)
    load(buffer, 1, c, 23.6);
  WellSet plate = wells("A1", "H12");
  std::map<Well, double> initial;
  std::vector<ir::WellAmount> emptied;
  for (Well well : plate.columnMajor()) {
    initial[well] = 100;
    emptied.push_back({well, ul(100)});
  }
  add(ir::WashOp{buffer, plate, ul(300), 3, std::nullopt, emptied, ir::TipPolicy::PerWell},
      10, "2");
  ReplayResult result = lowerAndReplay(initial);
  expectAllHighLevelLowered();
  for (Well well : plate.columnMajor())
    EXPECT_NEAR(result.wellVolume[well], 0, 1e-6) << well.name();
  EXPECT_EQ(result.swaps, 1u);
  // Before the swap only the first part's columns are touched.
  std::set<unsigned> beforeSwap;
  double filledUl = 0;
  for (const ir::Op &op : module_.ops) {
    if (op.as<ir::SwapTipRackOp>())
      break;
    if (auto *a = op.as<ir::DevAspirateOp>(); a && a->place.slot == platform_.samplePlateSlot)
      beforeSwap.insert(a->place.col);
    if (auto *d = op.as<ir::DevDispenseOp>(); d && d->place.slot == platform_.samplePlateSlot)
      filledUl += d->volume.canonicalValue() * d->mask.count();
  }
  EXPECT_EQ(beforeSwap, (std::set<unsigned>{1, 5})); // anchors of columns 1-8
  EXPECT_NEAR(filledUl, 64 * 300.0 * 3, 1e-6); // all three cycles of 64 wells
  std::set<unsigned> bufferPositions;
  for (const ir::Op &op : module_.ops)
    if (auto *a = op.as<ir::DevAspirateOp>(); a && a->place.slot == platform_.reservoirSlot)
      bufferPositions.insert(a->place.col);
  EXPECT_EQ(bufferPositions.size(), 4u); // 86.4 mL from 23.1 mL usable each
  // 96 removal tips; source sets at most one per position and rack.
  EXPECT_GT(*module_.tipsUsed, 96u);
  EXPECT_LE(*module_.tipsUsed, 96u + 4u * 2u * bufferPositions.size());
}

TEST_F(LowerPipettingTest, ReservoirShortfall) {
  ir::LiquidId reagent = addLiquid("tmb", ir::LiquidRole::Reagent);
  load(reagent, 1, 1, 1); // 0.5 mL usable, 9.6 mL needed
  add(ir::DispenseOp{{{reagent, WellSet::all(module_.shape)}}, ul(100), std::nullopt,
                     ir::TipPolicy::PerSource},
      40);
  EXPECT_FALSE(runPass(createLowerPipettingPass()));
  ASSERT_FALSE(diags_->diagnostics().empty());
  const Diagnostic &d = diags_->diagnostics()[0];
  EXPECT_STREQ(diagInfo(d.id).code, "E701");
  EXPECT_EQ(d.loc.line, 40u);
  // The plan's load, not what was left when the position ran dry; the
  // need is that load plus what the position could not give.
  EXPECT_EQ(d.message, "`tmb` is declared as 1 mL but the protocol needs 10.1 mL (including "
                       "0.5 mL dead volume); load at least 10.1 mL");
}

TEST_F(LowerPipettingTest, ManualOpsStay) {
  ir::LiquidId reagent = addLiquid("r", ir::LiquidRole::Reagent);
  ir::Op &op = add(ir::DispenseOp{{{reagent, wells("A1", "A4")}}, ul(20), std::nullopt,
                                  ir::TipPolicy::PerSource},
                   2);
  op.manual = true;
  EXPECT_TRUE(runPass(createLowerPipettingPass()));
  ASSERT_EQ(module_.ops.size(), 1u);
  EXPECT_EQ(module_.ops[0].kind(), ir::OpKind::Dispense);
  EXPECT_EQ(*module_.tipsUsed, 0u);
  EXPECT_EQ(*module_.tipRacksUsed, 0u);
}

} // namespace
} // namespace plate::testing
