//===- OperatorChecklistTest.cpp - Tests of operator-checklist ------------===//
#include "Fixture.h"
#include "Replay.h"

#include "ir/Verifier.h"
#include "passes/LowerPipetting.h"
#include "passes/OperatorChecklist.h"
#include "passes/RouteTransport.h"

#include <gmock/gmock.h>

namespace plate::testing {
namespace {

using ::testing::HasSubstr;

class OperatorChecklistTest : public PassFixture {
protected:
  void SetUp() override {
    PassFixture::SetUp();
    // Source lines the checklists quote.
    std::vector<std::string> lines(200);
    lines[3] = "equilibrate all to RT for 30 min";
    lines[4] = "  2. dispense 100 uL of layout  ";
    lines[6] = "4. dispense 50 uL of r to A1..A4";
    lines[8] = "6. wait 1 min";
    std::string text;
    for (size_t i = 1; i < lines.size(); ++i)
      text += lines[i] + "\n";
    fileId_ = sources_.addBuffer("checklist.plate", text);
    module_.fileId = fileId_;
    reagent_ = addLiquid("r", ir::LiquidRole::Reagent);
    load(reagent_, 1, 1, 5);
    sample_ = addLiquid("x", ir::LiquidRole::Sample, wells("A1", "B2"));
    blank_ = addLiquid("b0", ir::LiquidRole::Blank, wells("C1", "C2"));
  }

  ir::Op &manual(ir::OpPayload payload, uint32_t line, std::string step = "") {
    ir::Op &op = add(std::move(payload), line, std::move(step));
    op.manual = true;
    return op;
  }
  void pipette(uint32_t line) {
    add(ir::DispenseOp{{{reagent_, wells("A1", "A4")}}, ul(50), std::nullopt,
                       ir::TipPolicy::PerSource},
        line, "4");
  }

  /// `racks`: what lower-pipetting counted, as a long run would need.
  void lowerAll(std::optional<unsigned> racks = std::nullopt) {
    ASSERT_TRUE(runPass(createLowerPipettingPass()));
    ASSERT_TRUE(runPass(createRouteTransportPass()));
    if (racks)
      module_.tipRacksUsed = racks;
    ASSERT_TRUE(runPass(createOperatorChecklistPass()));
    for (const std::string &problem : ir::verify(module_))
      ADD_FAILURE() << problem;
    EXPECT_EQ(Replayer(module_, platform_).run().error, "");
  }

  std::vector<const ir::Op *> prompts() const {
    std::vector<const ir::Op *> out;
    for (const ir::Op &op : module_.ops)
      if (op.as<ir::PromptOp>())
        out.push_back(&op);
    return out;
  }

  ir::LiquidId reagent_ = 0, sample_ = 0, blank_ = 0;
};

// The set-up prompt comes first, before the leading MANUAL ops it lists,
// and carries the first one's line and step; the layout dispense names each
// liquid with its volume and wells.
TEST_F(OperatorChecklistTest, SetUpChecklistBeforeTheFirstRobotCommand) {
  manual(ir::EquilibrateOp{WellSet::all(module_.shape), Quantity::celsius(22), std::nullopt}, 3);
  manual(ir::DispenseOp{{{sample_, wells("A1", "B2")}, {blank_, wells("C1", "C2")}}, ul(100),
                        std::nullopt, ir::TipPolicy::PerSource},
         4, "2");
  pipette(6);
  lowerAll(3);
  auto found = prompts();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], &module_.ops.front());
  EXPECT_EQ(found[0]->loc.line, 3u);
  EXPECT_EQ(found[0]->step, "");
  EXPECT_FALSE(found[0]->manual);
  EXPECT_TRUE(module_.ops[1].manual);
  EXPECT_TRUE(module_.ops[2].manual);
  EXPECT_EQ(module_.ops[1].kind(), ir::OpKind::Equilibrate);
  const std::string &text = found[0]->as<ir::PromptOp>()->text;
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "before the robot starts (MANUAL from line 3): set up, then confirm");
  EXPECT_THAT(text, HasSubstr("manual steps:\n"
                              "  [ ] equilibrate all to RT for 30 min\n"
                              "  [ ] 2. dispense 100 uL of layout\n"
                              "        x: 100 µL into A1..B2\n"
                              "        b0: 100 µL into C1..C2\n"
                              "reservoir on slot 5 (reservoir), as the loading plan says:\n"
                              "  [ ] (1,1) r 5 mL\n"
                              "deck:\n"
                              "  [ ] plate96 plate on slot 1 (sample plate), lid on\n"
                              "  [ ] a full tip rack (96 tips) on slot 4 (tip rack); 2 more full "
                              "rack(s) in the stacker\n"));
  EXPECT_THAT(text, HasSubstr("slot A3 (reader)\n  [ ] slot 3 (heater) off\n"));
  EXPECT_EQ(text.substr(text.rfind('\n') + 1), "confirm when all of the above is done");
}

// Without MANUAL ops the set-up prompt still comes (deck and reservoir),
// at the first robot statement; with no robot command there is none.
TEST_F(OperatorChecklistTest, NoManualSectionStillGetsTheSetUp) {
  pipette(6);
  lowerAll();
  auto found = prompts();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], &module_.ops.front());
  EXPECT_EQ(found[0]->loc.line, 6u);
  EXPECT_EQ(found[0]->step, "4");
  const std::string &text = found[0]->as<ir::PromptOp>()->text;
  EXPECT_EQ(text.substr(0, text.find('\n')), "before the robot starts: set up, then confirm");
  EXPECT_THAT(text, ::testing::Not(HasSubstr("manual steps")));
  EXPECT_THAT(text, HasSubstr("(96 tips) on slot 4 (tip rack)\n")); // one rack: no spare

}

TEST_F(OperatorChecklistTest, NothingRunsNothingToConfirm) {
  manual(ir::WaitOp{Quantity::seconds(60)}, 8);
  add(ir::NoteOp{"done by hand"}, 9);
  ASSERT_TRUE(runPass(createOperatorChecklistPass()));
  EXPECT_TRUE(prompts().empty());
  EXPECT_EQ(module_.ops.size(), 2u);
}

// A MANUAL section after robot commands: one prompt before it with its
// statements and where the plate stands (the lid came off for pipetting).
TEST_F(OperatorChecklistTest, LaterManualSectionSaysWhereThePlateIs) {
  pipette(6);
  manual(ir::WaitOp{Quantity::seconds(60)}, 8, "6");
  manual(ir::DispenseOp{{{reagent_, wells("B1", "B4")}}, ul(20), std::nullopt,
                        ir::TipPolicy::PerSource},
         8, "6");
  add(ir::WaitOp{Quantity::seconds(10)}, 9);
  lowerAll();
  auto found = prompts();
  ASSERT_EQ(found.size(), 2u);
  const ir::Op &section = *found[1];
  EXPECT_EQ(section.loc.line, 8u);
  EXPECT_EQ(section.step, "6");
  size_t at = static_cast<size_t>(&section - module_.ops.data());
  ASSERT_LT(at + 2, module_.ops.size());
  EXPECT_TRUE(module_.ops[at + 1].manual);
  EXPECT_TRUE(module_.ops[at + 2].manual);
  // One quote per source line, the dispense's wells under it.
  std::string text = section.as<ir::PromptOp>()->text;
  // Listed twice in a pipeline, the pass adds nothing the second time.
  size_t before = module_.ops.size();
  ASSERT_TRUE(runPass(createOperatorChecklistPass()));
  EXPECT_EQ(module_.ops.size(), before);
  EXPECT_EQ(text,
            "MANUAL steps from line 8: the plate is on slot 1 (sample plate), lid off\n"
            "  [ ] 6. wait 1 min\n"
            "        r: 20 µL into B1..B4\n"
            "when done, the plate is back on slot 1 (sample plate), lid off, as you found it; "
            "confirm when done");
}

} // namespace
} // namespace plate::testing
