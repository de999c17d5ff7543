//===- RouteTransportTest.cpp - Tests of route-transport -----------------===//
#include "Fixture.h"
#include "Replay.h"

#include "ir/Verifier.h"
#include "passes/LowerPipetting.h"
#include "passes/RouteTransport.h"

#include <gmock/gmock.h>

namespace plate::testing {
namespace {

class RouteTransportTest : public PassFixture {
protected:
  void SetUp() override {
    PassFixture::SetUp();
    // Line 5 holds a MANUAL statement the prompt quotes.
    std::string text(200, '\n');
    text.insert(4, "3. dispense 100 uL of layout");
    fileId_ = sources_.addBuffer("route.plate", text);
    module_.fileId = fileId_;
    reagent_ = addLiquid("r", ir::LiquidRole::Reagent);
    load(reagent_, 1, 1, 5);
    addLiquid("x", ir::LiquidRole::Sample, wells("A1", "B2"));
  }

  void pipette(uint32_t line) {
    add(ir::DispenseOp{{{reagent_, wells("A1", "A4")}}, ul(50), std::nullopt,
                       ir::TipPolicy::PerSource},
        line);
  }

  ReplayResult lowerAll() {
    EXPECT_TRUE(runPass(createLowerPipettingPass()));
    EXPECT_TRUE(runPass(createRouteTransportPass()));
    for (const std::string &problem : ir::verify(module_))
      ADD_FAILURE() << problem;
    EXPECT_TRUE(module_.lowered);
    ReplayResult result = Replayer(module_, platform_).run();
    EXPECT_EQ(result.error, "");
    return result;
  }

  /// The device ops as `module.op` words, e.g. "LH.MovePlate 1->6".
  std::vector<std::string> transport() const {
    std::vector<std::string> out;
    for (const ir::Op &op : module_.ops) {
      if (auto *m = op.as<ir::MovePlateOp>())
        out.push_back(fmt::format("{}.MovePlate {}->{}", m->module, m->from, m->to));
      else if (auto *l = op.as<ir::LidOp>())
        out.push_back(fmt::format("{}.{}Lid {}", l->module, l->place ? "Place" : "Remove", l->slot));
      else if (auto *t = op.as<ir::SetTemperatureOp>())
        out.push_back(fmt::format("{}.SetTemperature {}", t->module, t->temperature.value));
      else if (auto *h = op.as<ir::HeaterOffOp>())
        out.push_back(h->module + ".Off");
      else if (auto *s = op.as<ir::DevShakeOp>())
        out.push_back(fmt::format("{}.Shake {}", s->module, s->time.value));
      else if (auto *w = op.as<ir::DevWaitOp>())
        out.push_back(fmt::format("SYS.Wait {}", w->time.value));
      else if (auto *r = op.as<ir::DevReadOp>())
        out.push_back(fmt::format("{}.Read {}", r->module, r->wells.size()));
      else if (auto *p = op.as<ir::PromptOp>())
        out.push_back("SYS.Prompt " + p->text);
      else if (op.kind() == ir::OpKind::DevDispense)
        out.push_back("dispense");
    }
    return out;
  }

  ir::LiquidId reagent_ = 0;
};

using ::testing::ElementsAre;

// Bradford tail: dispense, shake, incubate at RT, read.
TEST_F(RouteTransportTest, PipetteShakeIncubateRead) {
  pipette(10);
  add(ir::ShakeOp{Quantity::seconds(30), Quantity::rpm(300)}, 11);
  add(ir::IncubateOp{Quantity::seconds(600), Quantity::celsius(22), std::nullopt, true, false}, 12);
  add(ir::ReadAbsorbanceOp{Quantity::nanometers(595), std::nullopt, {}}, 13);
  add(ir::AnalyzeOp{false, Quantity::nanometers(595), true}, 14);
  ReplayResult result = lowerAll();
  EXPECT_THAT(transport(),
              ElementsAre("LH.RemoveLid 1", "dispense", "LH.MovePlate 1->6", "SHK.Shake 30",
                          "LH.PlaceLid 6", "SYS.Wait 600", "LH.MovePlate 6->1",
                          "PT.MovePlate 1->A1", "PL.MovePlate A1->A3", "PL.RemoveLid A3",
                          "RDR.Read 4"));
  EXPECT_EQ(result.plateSlot, "A3");
  EXPECT_EQ(module_.ops.back().kind(), ir::OpKind::Analyze);
  // Inserted ops carry the line of the op that needed them.
  for (const ir::Op &op : module_.ops) {
    auto *move = op.as<ir::MovePlateOp>();
    if (move && move->to == "6") {
      EXPECT_EQ(op.loc.line, 11u);
    }
    if (move && move->to == "A3") {
      EXPECT_EQ(op.loc.line, 13u);
    }
    if (op.kind() == ir::OpKind::DevWait) {
      EXPECT_EQ(op.loc.line, 12u);
    }
  }
}

TEST_F(RouteTransportTest, ReadsNamedWellsInColumnMajorOrder) {
  WellSet wellsToRead;
  wellsToRead.insert(*Well::parse("B1"));
  wellsToRead.insert(*Well::parse("A2"));
  wellsToRead.insert(*Well::parse("A1"));
  add(ir::ReadAbsorbanceOp{Quantity::nanometers(450), Quantity::nanometers(570), wellsToRead}, 3);
  lowerAll();
  const ir::DevReadOp *read = nullptr;
  for (const ir::Op &op : module_.ops)
    if (op.as<ir::DevReadOp>())
      read = op.as<ir::DevReadOp>();
  ASSERT_NE(read, nullptr);
  ASSERT_EQ(read->wells.size(), 3u);
  EXPECT_EQ(read->wells[0].name(), "A1");
  EXPECT_EQ(read->wells[1].name(), "B1");
  EXPECT_EQ(read->wells[2].name(), "A2");
  ASSERT_TRUE(read->reference.has_value());
  // The plate went with its lid; PL takes it off on the analyzer deck.
  EXPECT_THAT(transport(), ElementsAre("PT.MovePlate 1->A1", "PL.MovePlate A1->A3",
                                       "PL.RemoveLid A3", "RDR.Read 3"));
}

// Heat is switched on once for consecutive heated incubations and off
// after the last; the plate goes to the heater slot with its lid, and
// leaves the cold heater for a later incubation at room temperature.
TEST_F(RouteTransportTest, HeaterOnceAndOffAfterLastHeatedIncubation) {
  add(ir::IncubateOp{Quantity::seconds(3600), Quantity::celsius(37), std::nullopt, true, false}, 20);
  pipette(21);
  add(ir::IncubateOp{Quantity::seconds(1800), Quantity::celsius(37), std::nullopt, true, false}, 22);
  add(ir::IncubateOp{Quantity::seconds(900), Quantity::celsius(22), std::nullopt, false, false}, 23);
  ReplayResult result = lowerAll();
  EXPECT_THAT(transport(),
              ElementsAre("HP.SetTemperature 37", "LH.MovePlate 1->3", "SYS.Wait 3600",
                          "LH.MovePlate 3->1", "LH.RemoveLid 1", "dispense",
                          "LH.MovePlate 1->3", "LH.PlaceLid 3", "SYS.Wait 1800", "HP.Off",
                          "LH.MovePlate 3->1", "LH.RemoveLid 1", "SYS.Wait 900"));
  EXPECT_EQ(result.heaterCelsius, 0);
  for (const ir::Op &op : module_.ops) {
    if (op.kind() == ir::OpKind::HeaterOff) {
      EXPECT_EQ(op.loc.line, 22u);
    }
  }
}

// The heater stays on for a later heated incubation, so the plate leaves
// it for everything in between that keeps it in place: an incubation at
// RT, a wait, a pause, a MANUAL section. It comes back without a second
// SetTemperature when the set point is the same.
TEST_F(RouteTransportTest, PlateLeavesTheHotHeaterBetweenHeatedIncubations) {
  auto heated = [&](uint32_t line) {
    add(ir::IncubateOp{Quantity::seconds(60), Quantity::celsius(65), std::nullopt, true, false},
        line);
  };
  heated(60);
  add(ir::IncubateOp{Quantity::seconds(600), Quantity::celsius(22), std::nullopt, true, false}, 61);
  heated(62);
  add(ir::WaitOp{Quantity::seconds(30)}, 63);
  heated(64);
  add(ir::PauseOp{"check the plate"}, 65);
  heated(66);
  add(ir::NoteOp{"by hand"}, 5, "3").manual = true;
  heated(67);
  ReplayResult result = lowerAll();
  EXPECT_THAT(transport(),
              ElementsAre("HP.SetTemperature 65", "LH.MovePlate 1->3", "SYS.Wait 60",
                          "LH.MovePlate 3->1", "SYS.Wait 600", "LH.MovePlate 1->3", "SYS.Wait 60",
                          "LH.MovePlate 3->1", "SYS.Wait 30", "LH.MovePlate 1->3", "SYS.Wait 60",
                          "LH.MovePlate 3->1", "SYS.Prompt check the plate", "LH.MovePlate 1->3",
                          "SYS.Wait 60", "LH.MovePlate 3->1", "LH.MovePlate 1->3", "SYS.Wait 60",
                          "HP.Off"));
  EXPECT_EQ(result.heaterCelsius, 0);
  // The moves carry the line of the step that needs the plate elsewhere;
  // before the MANUAL section, its first statement's (as its prompt will).
  std::vector<uint32_t> leaving;
  for (const ir::Op &op : module_.ops)
    if (auto *move = op.as<ir::MovePlateOp>(); move && move->from == "3")
      leaving.push_back(op.loc.line);
  EXPECT_THAT(leaving, ElementsAre(61u, 63u, 65u, 5u));
}

// A new set point: the plate waits off the heating plate while it ramps.
TEST_F(RouteTransportTest, PlateLeavesTheHeaterForANewSetPoint) {
  add(ir::IncubateOp{Quantity::seconds(60), Quantity::celsius(37), std::nullopt, true, false}, 70);
  add(ir::IncubateOp{Quantity::seconds(60), Quantity::celsius(65), std::nullopt, true, false}, 71);
  lowerAll();
  EXPECT_THAT(transport(),
              ElementsAre("HP.SetTemperature 37", "LH.MovePlate 1->3", "SYS.Wait 60",
                          "LH.MovePlate 3->1", "HP.SetTemperature 65", "LH.MovePlate 1->3",
                          "SYS.Wait 60", "HP.Off"));
}

// After a read the lid sits in the main deck's holder: an incubation with
// the lid on brings the plate back to the main deck first.
TEST_F(RouteTransportTest, LidOnNeedsThePlateOnTheLidsDeck) {
  pipette(30);
  add(ir::ReadAbsorbanceOp{Quantity::nanometers(450), std::nullopt, {}}, 31);
  add(ir::IncubateOp{Quantity::seconds(600), Quantity::celsius(22), std::nullopt, true, true}, 32);
  ReplayResult result = lowerAll();
  EXPECT_THAT(transport(),
              ElementsAre("LH.RemoveLid 1", "dispense", "PT.MovePlate 1->A1",
                          "PL.MovePlate A1->A3", "RDR.Read 4", "PL.MovePlate A3->A1",
                          "PT.MovePlate A1->1", "LH.PlaceLid 1", "SYS.Wait 600"));
  EXPECT_TRUE(result.lidOn);
}

TEST_F(RouteTransportTest, ShakingIncubationMagnetWaitPauseNote) {
  add(ir::IncubateOp{Quantity::seconds(300), Quantity::celsius(22), Quantity::rpm(500), false, false}, 40);
  add(ir::MagnetOp{Quantity::seconds(120)}, 41);
  add(ir::WaitOp{Quantity::seconds(60)}, 42);
  add(ir::PauseOp{"check the plate"}, 43);
  add(ir::NoteOp{"bubbles are fine"}, 44);
  lowerAll();
  EXPECT_THAT(transport(),
              ElementsAre("LH.MovePlate 1->6", "LH.RemoveLid 6", "SHK.Shake 300",
                          "LH.MovePlate 6->2", "SYS.Wait 120", "SYS.Wait 60",
                          "SYS.Prompt check the plate"));
  EXPECT_EQ(module_.ops.back().kind(), ir::OpKind::Note);
}

// MANUAL ops stay as they are, wherever they stand; the prompts that ask
// for them are operator-checklist's (OperatorChecklistTest).
TEST_F(RouteTransportTest, ManualOpsStayWithoutPrompts) {
  ir::Op &first = add(ir::EquilibrateOp{WellSet::all(module_.shape), Quantity::celsius(22), std::nullopt}, 2);
  first.manual = true;
  pipette(3);
  ir::Op &later = add(ir::DispenseOp{{{reagent_, wells("B1", "B4")}}, ul(100), std::nullopt,
                                     ir::TipPolicy::PerSource},
                      5, "3");
  later.manual = true;
  add(ir::WaitOp{Quantity::seconds(10)}, 7);
  lowerAll();
  EXPECT_EQ(module_.ops.front().kind(), ir::OpKind::Equilibrate);
  EXPECT_TRUE(module_.ops.front().manual);
  EXPECT_EQ(count(ir::OpKind::Prompt), 0u);
  size_t manual = 0;
  for (const ir::Op &op : module_.ops)
    manual += op.manual;
  EXPECT_EQ(manual, 2u);
}

TEST_F(RouteTransportTest, FluorescenceIsACapabilityError) {
  add(ir::ReadFluorescenceOp{Quantity::nanometers(485), Quantity::nanometers(535), {}}, 50);
  EXPECT_FALSE(runPass(createRouteTransportPass()));
  ASSERT_EQ(diags_->diagnostics().size(), 1u);
  EXPECT_STREQ(diagInfo(diags_->diagnostics()[0].id).code, "E609");
  EXPECT_EQ(diags_->diagnostics()[0].loc.line, 50u);
}

} // namespace
} // namespace plate::testing
