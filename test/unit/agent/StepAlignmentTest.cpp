//===- StepAlignmentTest.cpp - The step alignment on texts people write ---===//
//
// Each test is a short protocol text in one of the styles of issue 14 and a
// script for it: the correct script draws no certain finding, and a script
// with one change (a step dropped, a value changed, two steps swapped, a
// robot step moved to MANUAL) draws the certain finding of that kind. The
// scripts go through the same compile hook as `plate translate`.
//
//===----------------------------------------------------------------------===//
#include "agent/ProseScan.h"
#include "agent/StepActions.h"
#include "agent/Translator.h"
#include "ir/Platform.h"
#include "tools/plate/TranslateCommand.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using plate::agent::CompileReport;
using plate::agent::Finding;

namespace {

const char *kHeader = R"(<KIT_TITLE>test</KIT_TITLE>
<LAYOUT>
plate plate96
blank     B0 at A1..A2
calibrant S1..S3 at B1..D2 conc 100, 50, 25 pg/mL replicates 2 across
sample    X1..X3 at E1..G2 replicates 2 across
</LAYOUT>
<REAGENTS>
conjugate
wash_buffer
tmb        light_sensitive
stop
capture
</REAGENTS>
)";

CompileReport align(const std::string &text, const std::string &body) {
  CompileReport report =
      plate::compileCandidate(kHeader + body, text, PLATE_STDLIB_DIR, "");
  EXPECT_TRUE(report.ok) << report.diagnostics.dump(1);
  EXPECT_FALSE(report.alignmentRecord.is_null()) << "the alignment was skipped";
  return report;
}

std::string describe(const std::vector<Finding> &findings) {
  std::string out;
  for (const Finding &f : findings)
    out += f.type + ": " + f.message + "\n";
  return out;
}

void expectNoCertainFinding(const std::string &text, const std::string &body) {
  CompileReport r = align(text, body);
  EXPECT_TRUE(r.certain.empty()) << describe(r.certain);
}

bool hasCertain(const CompileReport &r, const std::string &type) {
  return std::any_of(r.certain.begin(), r.certain.end(),
                     [&](const Finding &f) { return f.type == type; });
}

// A sandwich ELISA as a kit insert: hard wraps mid-phrase ("at room" /
// "temperature"), a title and a summary table that restate values, "as in
// step 2", a range and the µl spelling.
const char *kKitInsert = R"(Human XYZ ELISA (100 ul samples, 2 h at RT)

1. Add 100 µl of standard, blank or sample to each well and incubate for
   2 hours at room
   temperature.
2. Wash 3 times with 300 µl wash buffer.
3. Add 100 µl conjugate and incubate 1-2 h at 18-25 °C.
4. Wash as in step 2.
5. Add 100 µl TMB; incubate 15 min at RT in the dark.
6. Add 50 µl stop solution and read at 450 nm.

Summary
| Step | Volume | Time |
| Samples | 100 µl | 2 h |
| Conjugate | 100 µl | 1-2 h |
| TMB | 100 µl | 15 min |
)";

const char *kKitScript = R"(<INSTRUMENT>
dispense 100 uL of layout
incubate 2 h at RT
wash 3 times with 300 uL of wash_buffer
dispense 100 uL of conjugate to all
incubate 90 min at RT
wash 3 times with 300 uL of wash_buffer
dispense 100 uL of tmb to all
incubate 15 min at RT dark
dispense 50 uL of stop to all
read absorbance at 450 nm
</INSTRUMENT>
)";

std::string replaced(std::string s, const std::string &from, const std::string &to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    s.replace(at, from.size(), to);
  return s;
}

TEST(StepAlignment, CorrectKitInsertScriptDrawsNoCertainFinding) {
  expectNoCertainFinding(kKitInsert, kKitScript);
}

TEST(StepAlignment, WrappedRoomTemperatureIsRead) {
  // "at room" / "temperature." is RT: 37 °C is a certain parameter finding.
  CompileReport r =
      align(kKitInsert, replaced(kKitScript, "incubate 2 h at RT", "incubate 2 h at 37 C"));
  EXPECT_TRUE(hasCertain(r, "parameter")) << describe(r.certain) << describe(r.uncertain);
}

TEST(StepAlignment, RangeAdmitsAnyValueInside) {
  expectNoCertainFinding(kKitInsert, replaced(kKitScript, "incubate 90 min", "incubate 2 h"));
  CompileReport outside = align(kKitInsert, replaced(kKitScript, "incubate 90 min", "incubate 3 h"));
  EXPECT_TRUE(hasCertain(outside, "parameter")) << describe(outside.certain);
}

TEST(StepAlignment, WashAsInStepTwoIsAStepOfItsOwn) {
  // The second wash comes from "Wash as in step 2"; dropping it is missing.
  std::string body = kKitScript;
  size_t second = body.rfind("wash 3 times with 300 uL of wash_buffer\n");
  body.erase(second, std::string("wash 3 times with 300 uL of wash_buffer\n").size());
  CompileReport r = align(kKitInsert, body);
  EXPECT_TRUE(hasCertain(r, "missing")) << describe(r.certain) << describe(r.uncertain);
}

TEST(StepAlignment, SwappedStepsAreOutOfOrder) {
  // The stop solution before the colour has developed.
  CompileReport r = align(kKitInsert,
                          replaced(kKitScript,
                                   "incubate 15 min at RT dark\ndispense 50 uL of stop to all\n",
                                   "dispense 50 uL of stop to all\nincubate 15 min at RT dark\n"));
  EXPECT_TRUE(hasCertain(r, "order")) << describe(r.certain) << describe(r.uncertain);
}

TEST(StepAlignment, RobotStepMovedToManualIsADomainFinding) {
  CompileReport r = align(
      kKitInsert, replaced(kKitScript, "read absorbance at 450 nm\n</INSTRUMENT>\n",
                           "</INSTRUMENT>\n<MANUAL>\nread absorbance at 450 nm\n</MANUAL>\n"));
  EXPECT_TRUE(hasCertain(r, "domain")) << describe(r.certain) << describe(r.uncertain);
}

// Hand work in the middle of robot steps, in words, in an e-mail.
const char *kEmail = R"(Hi Ana,

the robot adds 100 uL of capture antibody to all wells, then I coat it
overnight in the fridge at 4 deg C myself. Next morning the BioForge washes
3x with 300 ul wash buffer and adds 100 ul conjugate, 1 h at RT. I add the
TMB (100 ul) by hand, 15 min dark, and the robot reads at 450 nm.
)";

const char *kEmailScript = R"(<INSTRUMENT>
dispense 100 uL of capture to all
</INSTRUMENT>
<MANUAL>
incubate overnight at 4 C
</MANUAL>
<INSTRUMENT>
wash 3 times with 300 uL of wash_buffer
dispense 100 uL of conjugate to all
incubate 1 h at RT
</INSTRUMENT>
<MANUAL>
dispense 100 uL of tmb to all
</MANUAL>
<INSTRUMENT>
incubate 15 min at RT dark
read absorbance at 450 nm
</INSTRUMENT>
)";

TEST(StepAlignment, HandWorkInWordsIsManual) { expectNoCertainFinding(kEmail, kEmailScript); }

TEST(StepAlignment, PlainRobotStepInManualIsCertain) {
  CompileReport r = align(kEmail, replaced(kEmailScript,
                                           "dispense 100 uL of conjugate to all\n",
                                           "</INSTRUMENT>\n<MANUAL>\ndispense 100 uL of "
                                           "conjugate to all\n</MANUAL>\n<INSTRUMENT>\n"));
  EXPECT_TRUE(hasCertain(r, "domain")) << describe(r.certain) << describe(r.uncertain);
}

// Preparation in tubes, a volume table without units in its cells, and a
// paragraph describing one wash twice: none of it asks for more steps.
const char *kPrepAndTable = R"(Before you start: reconstitute the standard with 1 mL diluent and mix
gently for 10 min. Standard series in tubes: 250 uL diluent per tube, then
transfer 250 uL from tube to tube.

Reagent	Volume (ul)	Time
Conjugate	100	60 min

Aspirate each well and wash, repeating the process twice for a total of
three washes. Wash by filling each well with wash buffer (300 ul).

Reagent	Volume (ul)	Time
TMB	100	15 min, dark

Read at 450 nm.
)";

const char *kPrepScript = R"(<INSTRUMENT>
dispense 100 uL of conjugate to all
incubate 60 min at RT
wash 3 times with 300 uL of wash_buffer
dispense 100 uL of tmb to all
incubate 15 min at RT dark
read absorbance at 450 nm
</INSTRUMENT>
)";

TEST(StepAlignment, PreparationTablesAndRestatementsAskForNoMoreSteps) {
  expectNoCertainFinding(kPrepAndTable, kPrepScript);
}

TEST(StepAlignment, UncertainFindingsNeverEndTheAttempt) {
  // A layout load in MANUAL that the text does not give to a person: many
  // authors load samples by hand without saying so, so it is uncertain.
  CompileReport r = align(kKitInsert,
                          replaced(kKitScript, "<INSTRUMENT>\ndispense 100 uL of layout\n",
                                   "<MANUAL>\ndispense 100 uL of layout\n</MANUAL>\n<INSTRUMENT>\n"));
  EXPECT_TRUE(r.certain.empty()) << describe(r.certain);
  ASSERT_FALSE(r.uncertain.empty());
  EXPECT_EQ(r.uncertain.front().confidence, "uncertain");
  EXPECT_EQ(r.uncertain.front().source, "alignment");
}

} // namespace

// The script of several texts below: the layout, then one read.
/// BioForge-1 as the stdlib describes it: the units and reach the prose
/// reader measures quantities against.
std::optional<plate::Platform> bioforge1() {
  plate::SourceManager sources;
  plate::DiagnosticEngine diags(sources);
  return plate::loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, {});
}

const char *kLayoutThenRead450 = R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. read absorbance at 450 nm
</INSTRUMENT>
)";

// The general causes behind the first held-out corpus's rejections of
// correct scripts (issue 14), each on a text written here.

TEST(StepAlignmentHeldOutCauses, PipettingUpAndDownIsAMix) {
  expectNoCertainFinding(R"(1. Add 100 µl of standard, blank or sample to each well.
2. Add 50 µl conjugate to each well, pipetting up and down 3 times (100 µl).
3. Read at 450 nm.
)",
                         R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. dispense 50 uL of conjugate to all mix 3 times 100 uL
3. read absorbance at 450 nm
</INSTRUMENT>
)");
}

const char *kAlternatives = R"(1. Add 100 µl of standard, blank or sample to each well.
2. Read the absorbance at 450 nm within 30 minutes, using 540 nm or 570 nm as
   reference wavelength.
)";

TEST(StepAlignmentHeldOutCauses, EitherAlternativeReferenceIsRight) {
  expectNoCertainFinding(kAlternatives, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. read absorbance at 450 nm reference 570 nm
</INSTRUMENT>
)");
  expectNoCertainFinding(kAlternatives, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. read absorbance at 450 nm reference 540 nm
</INSTRUMENT>
)");
  CompileReport other = align(kAlternatives, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. read absorbance at 450 nm reference 620 nm
</INSTRUMENT>
)");
  // Neither alternative: flagged, though not certain (two values stated).
  EXPECT_TRUE(std::any_of(other.uncertain.begin(), other.uncertain.end(),
                          [](const Finding &f) { return f.type == "parameter"; }))
      << describe(other.uncertain);
}

TEST(StepAlignmentHeldOutCauses, AProductCodeIsNoQuantity) {
  expectNoCertainFinding(R"(XYZ ELISA Kit
Product code 3420-1H | Contents sufficient for 10 plates

1. Add 100 µl of standard, blank or sample to each well.
2. Read at 450 nm.
)",
                         kLayoutThenRead450);
}

TEST(StepAlignmentHeldOutCauses, TheSpanOfAScheduleIsNoStepTime) {
  expectNoCertainFinding(R"(1. Add 100 µl of standard, blank or sample to each well.
2. Absorbance at 405 nm is read at once and then every 5 min for 30-60 min,
   the plate being kept at 37 °C between readings.
)",
                         R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. read absorbance at 405 nm
repeat 6 {
  incubate 5 min at 37 C
  read absorbance at 405 nm
}
</INSTRUMENT>
)");
}

const char *kEmailWithMap = R"(Hi all,

Plate map (96-well):
  A1-A2 blank, B1-D2 standards, E1-G2 samples

Monday (Lena, by hand): add 100 ul of standard, blank or sample to the wells,
with our 200 ul of buffer already in there.

Tuesday (robot): add 100 ul conjugate to all wells, incubate 1 h at 37 C,
then read at 450 nm.

Thanks!
)";

TEST(StepAlignmentHeldOutCauses, APlateMapEndsWithItsBlock) {
  expectNoCertainFinding(kEmailWithMap, R"(<MANUAL>
dispense 100 uL of layout
</MANUAL>
<INSTRUMENT>
dispense 100 uL of conjugate to all
incubate 1 h at 37 C
read absorbance at 450 nm
</INSTRUMENT>
)");
  CompileReport dropped = align(kEmailWithMap, R"(<MANUAL>
dispense 100 uL of layout
</MANUAL>
<INSTRUMENT>
dispense 100 uL of conjugate to all
read absorbance at 450 nm
</INSTRUMENT>
)");
  EXPECT_TRUE(hasCertain(dropped, "missing")) << describe(dropped.certain);
}

TEST(StepAlignmentHeldOutCauses, APreparationMayComeFirst) {
  expectNoCertainFinding(R"(1. Add 100 µl of standard, blank or sample to each well.
2. Add 100 µl of conjugate, diluted 1:100 in wash buffer, to each well.
3. Read at 450 nm.
)",
                         R"(<MANUAL>
prepare conjugate dilute 1:100
</MANUAL>
<INSTRUMENT>
1. dispense 100 uL of layout
2. dispense 100 uL of conjugate to all
3. read absorbance at 450 nm
</INSTRUMENT>
)");
}

TEST(StepAlignmentHeldOutCauses, AnAnalysisTheLanguageCannotSayIsUncertain) {
  expectNoCertainFinding(R"(1. Add 100 µl of standard, blank or sample to each well.
2. Read at 405 nm.
3. Calculate the initial rate for each well from the linear part of the curve.
)",
                         R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. read absorbance at 405 nm
</INSTRUMENT>
)");
}

// Causes found by the second held-out round (each on a text written here).

TEST(StepAlignmentHeldOutCauses, AFilterThePlatformLacksLeavesTheChoiceToTheScript) {
  expectNoCertainFinding(R"(1. Add 100 µl of standard, blank or sample to each well.
2. Read A562 (our reader has no 562 filter).
)",
                         R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. read absorbance at 570 nm
</INSTRUMENT>
)");
}

TEST(StepAlignmentHeldOutCauses, OnceIsOneCycle) {
  expectNoCertainFinding(R"(1. Wash the wells once before use with 300 µl wash buffer.
2. Add 100 µl of standard, blank or sample to each well.
3. Read at 450 nm.
)",
                         R"(<INSTRUMENT>
1. wash 1 times with 300 uL of wash_buffer
2. dispense 100 uL of layout
3. read absorbance at 450 nm
</INSTRUMENT>
)");
}

TEST(StepAlignmentHeldOutCauses, AnOvernightHoldMayBeAPersonsStep) {
  expectNoCertainFinding(R"(1. Add 100 µl of standard, blank or sample to each well.
2. The plate was left to dry overnight at room temperature.
3. Read at 450 nm.
)",
                         R"(<INSTRUMENT>
1. dispense 100 uL of layout
</INSTRUMENT>
<MANUAL>
2. incubate overnight at RT lid off
</MANUAL>
<INSTRUMENT>
3. read absorbance at 450 nm
</INSTRUMENT>
)");
}

TEST(StepAlignmentHeldOutCauses, MoreThanAWellHoldsIsNoPlateStep) {
  expectNoCertainFinding(R"(Kit contents: Phosphate Standard, 1 mM, 1 ml; Wash buffer, 50 ml.
1. Wash the cells once in 1 ml of ice-cold PBS.
2. Add 100 µl of standard, blank or sample to each well.
3. Read at 450 nm.
)",
                         kLayoutThenRead450);
}

const char *kRepeatWithTotal = R"(1. Add 100 µl of standard, blank or sample to each well.
2. Aspirate each well and wash by filling each well with wash buffer (300 µL)
and removing it again. Repeat twice more, for three washes in total.
3. Read at 450 nm.
)";

TEST(StepAlignmentHeldOutCauses, ARepeatThatStatesItsTotalCountsTheTotal) {
  expectNoCertainFinding(kRepeatWithTotal, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. wash 3 times with 300 uL of wash_buffer
3. read absorbance at 450 nm
</INSTRUMENT>
)");
  CompileReport more = align(kRepeatWithTotal, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. wash 4 times with 300 uL of wash_buffer
3. read absorbance at 450 nm
</INSTRUMENT>
)");
  EXPECT_TRUE(hasCertain(more, "parameter")) << describe(more.certain);
}

// Held-out rounds 3 and 4 (texts 51, 69, 71, 74): "shake briefly (~10 s)"
// with no speed, and a script that must write `shake 10 s at SPEED`. The
// speed is the script's choice, not an invention; a speed the text does
// state and the script changes stays certain.
const char *kShakeBriefly = R"(1. Add 100 µl of standard, blank or sample to each well.
2. Shake the plate briefly (about 10 s) on the plate shaker.
3. Read at 450 nm.
)";

TEST(StepAlignmentHeldOutCauses, ASpeedTheLanguageRequiresIsTheScriptsChoice) {
  CompileReport chosen = align(kShakeBriefly, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. shake 10 s at 600 rpm
3. read absorbance at 450 nm
</INSTRUMENT>
)");
  EXPECT_TRUE(chosen.certain.empty()) << describe(chosen.certain);
  EXPECT_TRUE(std::any_of(chosen.uncertain.begin(), chosen.uncertain.end(),
                          [](const Finding &f) {
                            return f.type == "parameter" &&
                                   f.message.find("600 rpm") != std::string::npos;
                          }))
      << describe(chosen.uncertain);

  CompileReport changed = align(R"(1. Add 100 µl of standard, blank or sample to each well.
2. Shake the plate for 10 s at 600 rpm.
3. Read at 450 nm.
)",
                                R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. shake 10 s at 300 rpm
3. read absorbance at 450 nm
</INSTRUMENT>
)");
  EXPECT_TRUE(std::any_of(changed.certain.begin(), changed.certain.end(),
                          [](const Finding &f) { return f.type == "parameter"; }))
      << describe(changed.certain);
}

// Held-out round 5 and the rest of round 4 (texts 65, 66, 70, 72, 73, 75,
// 76), each cause on text written for this test.

// A value after an arrow or an equals sign, or after "so the volume stays
// at", states what the wells hold afterwards or defines a term.
TEST(StepAlignmentHeldOutCauses, AResultAfterAnArrowIsNoStep) {
  expectNoCertainFinding(R"(1. 100 ul of each std or sample into its wells
2. 100 ul conjugate into every well -> 200 ul
3. Blanks get 100 ul wash buffer instead so the volume stays at 200 ul.
4. Read at 450 nm.
)",
                         R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. dispense 100 uL of conjugate to all except blank
3. dispense 100 uL of wash_buffer to blank
4. read absorbance at 450 nm
</INSTRUMENT>
)");
}

// "PREP (~15 min)" is a heading although it states a duration, and "5.1",
// "5.2" under "5. REAGENT PREPARATION" stay in the preparation's scope.
TEST(StepAlignmentHeldOutCauses, NumberedItemsUnderAPreparationHeadingArePreparation) {
  expectNoCertainFinding(R"(4. REAGENT PREPARATION
4.1 Conjugate - mix parts A and B together in equal volumes within 10 minutes of
    use. 100 ul per well is needed.
PREP (~15 min)
 - WS = working stock: 10 uL STD + 990 uL diluent
5. PROCEDURE
5.1 Add 100 ul of each standard, blank or sample.
5.2 Read at 450 nm.
)",
                         kLayoutThenRead450);
}

// A calculation section's legend states values of the read, not steps;
// bullets under a numbered heading stay in its scope.
TEST(StepAlignmentHeldOutCauses, ACalculationLegendAndTroubleshootingAreNoSteps) {
  expectNoCertainFinding(R"(1. Add 100 ul of each standard, blank or sample.
2. Read at 450 nm.

3. Calculation (not on the robot):
- U/L = dA/min x 200 / (13.6 x 0.58)
  13.6 = extinction coefficient, 0.58 cm = path length for 200 ul per well
4. TROUBLESHOOTING
- High blank: wash 5x with 300 ul as in step 1, with a soak.
)",
                         kLayoutThenRead450);
}

// Centrifuging, spinning and vortexing are bench work on tubes: their
// times are not incubations of the plate.
TEST(StepAlignmentHeldOutCauses, CentrifugingIsBenchWork) {
  expectNoCertainFinding(R"(1. Samples: centrifuge the supernatants for 5 min at 1000 x g.
2. Add 100 ul of each standard, blank or sample.
3. Read at 450 nm.
)",
                         kLayoutThenRead450);
}

// "1-2 h at RT. We use 1 h ..." chooses from the range; it is no second
// incubation. "3  s/d down cols 1-2" is step 3, not 3 seconds.
TEST(StepAlignmentHeldOutCauses, AValueChosenFromARangeAndAColumnAlignedLabel) {
  expectNoCertainFinding(R"(STEPS
 1  100 ul of each std, blank or sample into its wells
 2  incubate 1-2 h at RT. We use 1 h when the day is short, which is always.
 3  s/d of nothing here, just read at 450 nm
)",
                         R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. incubate 1 h
3. read absorbance at 450 nm
</INSTRUMENT>
)");
}

// A preparation's ratio speaks for the liquid it names: "dilute each serum
// 1:4" is not the script's `prepare conjugate ... 1:2000`. Naming the same
// liquid, the mismatch stays certain.
TEST(StepAlignmentHeldOutCauses, APreparationsRatioSpeaksForItsLiquid) {
  const char *script = R"(<MANUAL>
1. prepare conjugate from "HRP conjugate concentrate" dilute 1:2000
</MANUAL>
<INSTRUMENT>
2. dispense 100 uL of layout
3. read absorbance at 450 nm
</INSTRUMENT>
)";
  expectNoCertainFinding(R"(1. By hand: dilute each serum 1:4 in diluent.
2. Add 100 ul of each standard, blank or sample.
3. Read at 450 nm.
)",
                         script);
  CompileReport same = align(R"(1. By hand: dilute the conjugate 1:500 in diluent.
2. Add 100 ul of each standard, blank or sample.
3. Read at 450 nm.
)",
                             script);
  EXPECT_TRUE(std::any_of(same.certain.begin(), same.certain.end(), [](const Finding &f) {
    return f.type == "parameter" && f.message.find("1:500") != std::string::npos;
  })) << describe(same.certain) << describe(same.uncertain);
}

// Held-out round 6 (text 83): "Before you start" and its bullets, then a
// blank line and a list from 1: the list is the procedure. The alignment had
// read every step as preparation and skipped the text (E961).
TEST(StepAlignmentHeldOutCauses, AListFromOneAfterThePreparationIsTheProcedure) {
  CompileReport report = align(R"(Bench protocol for the standard curve.

Before you start
- Bring the conjugate to room temperature, 30 min.
- Dilute the wash buffer 1:20.

1. Robot: 100 ul of each standard, blank or sample into its wells.
2. Robot: read at 450 nm.
)",
                               kLayoutThenRead450);
  EXPECT_TRUE(report.certain.empty()) << describe(report.certain);
  CompileReport dropped = align(R"(Bench protocol for the standard curve.

Before you start
- Bring the conjugate to room temperature, 30 min.

1. Robot: 100 ul of each standard, blank or sample into its wells.
2. Robot: read at 450 nm.
)",
                                R"(<INSTRUMENT>
1. read absorbance at 450 nm
</INSTRUMENT>
)");
  EXPECT_TRUE(hasCertain(dropped, "missing")) << describe(dropped.certain);
}

// Held-out text 81: "stock ..., stored at -20 °C" lost its sign and was read
// as a 20 °C incubation the script lacked. A dash glued to a number with no
// number before it is a sign; a freezer is beyond the platform, so no
// certain finding. "2-8 °C" stays a range.
TEST(StepAlignmentHeldOutCauses, AFreezerTemperatureIsBelowZero) {
  expectNoCertainFinding(R"(Materials: capture stock 10 mg/mL in PBS, stored at -20 °C.

1. Add 100 µl of standard, blank or sample to each well.
2. Read at 450 nm.
)",
                         kLayoutThenRead450);
  std::optional<plate::Platform> platform = bioforge1();
  ASSERT_TRUE(platform);
  std::vector<plate::agent::ProseQuantity> quantities = plate::agent::proseQuantities(
      "stored at -20 °C or at −80 °C, shipped at 2-8 °C", *platform);
  ASSERT_EQ(quantities.size(), 3u);
  EXPECT_EQ(quantities[0].value.low, -20);
  EXPECT_EQ(quantities[1].value.low, -80);
  EXPECT_EQ(quantities[2].value.low, 2);
  EXPECT_EQ(quantities[2].value.high, 8);
}

// Held-out text 115 (round 12): "1:20,000" was read as 1:20. Commas group
// thousands only after one to three digits and before exactly three; a
// list of wells or of numbers with spaces is no number.
TEST(StepAlignmentHeldOutCauses, CommasGroupThousands) {
  std::optional<plate::Platform> platform = bioforge1();
  ASSERT_TRUE(platform);
  auto lows = [&](const char *text) {
    std::vector<double> out;
    for (const plate::agent::ProseQuantity &q : plate::agent::proseQuantities(text, *platform))
      out.push_back(q.value.low);
    return out;
  };
  EXPECT_EQ(lows("dilute the conjugate 1:20,000 in buffer"), std::vector<double>{20000});
  EXPECT_EQ(lows("dilute 1:1,000,000 first"), std::vector<double>{1000000});
  EXPECT_EQ(lows("wells A1,A2 get 100 uL"), std::vector<double>{100});
  std::vector<double> decimalComma = lows("add 12,5 uL");
  EXPECT_EQ(std::count(decimalComma.begin(), decimalComma.end(), 12500.0), 0)
      << "12,5 groups two digits: not twelve thousand five hundred";
}

// Held-out texts 78 and 82: values stating what a step leaves or what a
// dilution gives were read as steps: "-> 0.45 mg/mL final, 220 uL." across
// a line wrap, "That leaves about 50 uL behind", "20 ul in a 200 ul well
// gives 0.02 U/ml final". A dropped step is still missing.
TEST(StepAlignmentHeldOutCauses, ResultsAndCalculationPremisesAreNoSteps) {
  const char *text = R"(Solutions
- Conjugate: 1:100 in buffer; 10 µl in a 100 µl well gives 1:1000 final.

1. Robot adds 100 ul of each standard, blank or sample to its wells ->
   about 1 ug/mL final, 100 uL.
2. Robot removes 70 uL from each well. That leaves about 30 uL behind.
3. Read at 450 nm.
)";
  expectNoCertainFinding(text, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. aspirate 70 uL from all
3. read absorbance at 450 nm
</INSTRUMENT>
)");
  CompileReport dropped = align(text, R"(<INSTRUMENT>
1. dispense 100 uL of layout
3. read absorbance at 450 nm
</INSTRUMENT>
)");
  EXPECT_TRUE(hasCertain(dropped, "missing")) << describe(dropped.certain);
}

// Held-out round 7 (text 84): a section on the reader and its filter before
// the procedure was read as a read step the script lacked. What the lab must
// have (a heading about the instrument, equipment or filters, or a filter's
// wavelength in a sentence with no verb of reading) is no step; the read of
// the procedure still counts.
TEST(StepAlignmentHeldOutCauses, ARemarkOnTheReaderIsNoStep) {
  const char *headed = R"(Total protein, microtitre format

1. EQUIPMENT AND FILTERS
Use any photometer; one with filters from 440 to 460 nm will do, 450 nm is best.

2. ASSAY
2.1 Add 100 ul of each standard, blank or sample.
2.2 Read at 450 nm.
)";
  expectNoCertainFinding(headed, kLayoutThenRead450);
  CompileReport dropped = align(headed, R"(<INSTRUMENT>
1. read absorbance at 450 nm
</INSTRUMENT>
)");
  EXPECT_TRUE(hasCertain(dropped, "missing")) << describe(dropped.certain);
  expectNoCertainFinding(R"(Readout, short version

Our plate photometer has the 450 nm filter this needs.

1. Add 100 ul of each standard, blank or sample.
2. Read the plate.
)",
                         kLayoutThenRead450);
}

// Held-out round 7 (text 87): a methods paragraph that tells how the samples
// were made ("fibroblasts ... were rinsed three times with saline and
// lysed") had its rinse read as a wash of the plate. Liquid work in a
// sentence of bench work (lysing, harvesting, centrifuging) that names no
// plate or well is preparation.
TEST(StepAlignmentHeldOutCauses, WashingCellsBeforeLysisIsSamplePreparation) {
  expectNoCertainFinding(R"(2.4 Enzyme assay

Fibroblasts grown on collagen for three weeks were rinsed three times with
saline, harvested with a scraper and lysed by sonication; debris was removed
by centrifugation (5 min, 10,000 x g). On the robot, 100 ul of each standard,
blank or lysate was placed in its wells and read at 450 nm.
)",
                         kLayoutThenRead450);
}

// Held-out round 7 (text 88): a quick card whose headings are in capitals
// with a remark in lower case ("METHOD (robot, room temp)") had its steps
// left in the scope of the preparation above them, and the reader found no
// procedure (E961).
TEST(StepAlignmentHeldOutCauses, ACapitalsHeadingWithARemarkIsAHeading) {
  expectNoCertainFinding(R"(ELISA READOUT CARD

GET READY
 * conjugate out of the fridge 20 min before

METHOD (robot, room temp)
 1. 100 ul std/blank/sample -> own wells
 2. read 450 nm
)",
                         kLayoutThenRead450);
}

// Held-out round 7 (text 89): "store at room temperature, away from light"
// under a heading about solutions and their storage, and "plates may be
// held at RT in the dark for a few days" in a step, were read as
// incubations. A storage remark ("store", "stable", a keeping that is
// allowed rather than ordered) states no step; "A450 minus the blank" is a
// term of a calculation, not a read.
TEST(StepAlignmentHeldOutCauses, AStorageRemarkIsNoIncubation) {
  const char *text = R"(Buffers and their storage
- Wash buffer: store at room temperature, away from light.

1. Add 100 ul of each standard, blank or sample.
2. Incubate 30 min at RT in the dark. (Plates may be held at RT in the dark
   for a few days at this point.)
3. Read at 450 nm.

Give results as A450 minus the mean of the blank wells.
)";
  const char *script = R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. incubate 30 min at RT dark
3. read absorbance at 450 nm
</INSTRUMENT>
)";
  expectNoCertainFinding(text, script);
  CompileReport changed = align(text, replaced(script, "incubate 30 min", "incubate 60 min"));
  EXPECT_TRUE(hasCertain(changed, "parameter")) << describe(changed.certain);
}

namespace {

std::vector<plate::agent::prose::Token> proseTokens(const char *text) {
  return plate::agent::prose::tokenize(text);
}

double onlyNumber(const char *text) {
  std::vector<plate::agent::prose::Token> tokens = proseTokens(text);
  auto number = std::find_if(tokens.begin(), tokens.end(),
                             [](const auto &t) { return t.isNumber(); });
  EXPECT_NE(number, tokens.end()) << text;
  EXPECT_EQ(std::count_if(tokens.begin(), tokens.end(), [](const auto &t) { return t.isNumber(); }),
            1)
      << text;
  return number == tokens.end() ? -1 : number->number;
}

} // namespace

// Dictated notes say numbers in words; read as numbers, they meet the
// script's values (test/lit/align/dictated-notes.test).
TEST(ProseTokens, SpelledOutNumbersAreNumbers) {
  EXPECT_EQ(onlyNumber("add twenty microlitres"), 20);
  EXPECT_EQ(onlyNumber("two hundred and fifty ul"), 250);
  EXPECT_EQ(onlyNumber("at a thousand rpm"), 1000);
  EXPECT_EQ(onlyNumber("read at four-oh-five"), 405);
  EXPECT_EQ(onlyNumber("the three-eighty-four plate"), 384);
  EXPECT_EQ(onlyNumber("twelve and a half micromolar"), 12.5);
  EXPECT_EQ(onlyNumber("six point two five micromolar"), 6.25);
  EXPECT_EQ(onlyNumber("thirty-seven degrees"), 37);
  EXPECT_EQ(onlyNumber("five mils of buffer"), 5);
}

TEST(ProseTokens, LoneSmallNumberWordsStayWords) {
  for (const char *text : {"one of the wells", "step two", "wash three times", "the first one",
                           "oh, and the buffer", "a hundred-well rack-like thing"}) {
    std::vector<plate::agent::prose::Token> tokens = proseTokens(text);
    EXPECT_TRUE(std::none_of(tokens.begin(), tokens.end(), [](const auto &t) { return t.isNumber(); }))
        << text;
  }
}

// Held-out round 21 (text 165, a batch record): "2 h ± 10 min" was read as
// a time of 2 h and a second incubation of 10 min. A tolerance with a unit
// of its own widens the value; one without a unit still shares the value's.
TEST(StepAlignmentHeldOutCauses, ToleranceWithItsOwnUnit) {
  std::optional<plate::Platform> platform = bioforge1();
  ASSERT_TRUE(platform);
  auto bounds = [&](const char *text) {
    std::vector<std::pair<double, double>> out;
    for (const plate::agent::ProseQuantity &q : plate::agent::proseQuantities(text, *platform))
      out.emplace_back(q.value.low, q.value.high);
    return out;
  };
  using Bounds = std::vector<std::pair<double, double>>;
  EXPECT_EQ(bounds("incubate 2 h ± 10 min"), (Bounds{{110 * 60, 130 * 60}}));
  EXPECT_EQ(bounds("at 37 °C +/- 1 °C"), (Bounds{{36, 38}}));
  EXPECT_EQ(bounds("shake at 500 ± 50 rpm"), (Bounds{{450, 550}}));
  // A unit of another dimension is the next quantity, not a tolerance.
  EXPECT_EQ(bounds("2 h ± 37 °C").size(), 2u);
}

// Held-out round 21 (text 166): "Shorter than 10 min underestimates slow
// binders" after a 15 min incubation was a certain mismatch. A sentence
// that opens with a comparison states what happens past a bound.
TEST(StepAlignmentHeldOutCauses, ComparisonsAreNoSteps) {
  const char *text = R"(1. Add 100 µl of standard, blank or sample to each well.
2. Incubate 15 min at RT. Shorter than 10 min underestimates slow binders.
3. Read at 450 nm.
)";
  expectNoCertainFinding(text, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. incubate 15 min at RT
3. read absorbance at 450 nm
</INSTRUMENT>
)");
  CompileReport changed = align(text, R"(<INSTRUMENT>
1. dispense 100 uL of layout
2. incubate 30 min at RT
3. read absorbance at 450 nm
</INSTRUMENT>
)");
  EXPECT_TRUE(hasCertain(changed, "parameter")) << describe(changed.certain);
}

// Held-out text 273 (round 55, a run log): "elapsed 18 min 45 s" was two
// times and "rpm=600 seconds=30" an 800-second shake. A time in two or
// three falling units is one time; a key=value pair has the unit its key
// names; a bigger unit after a smaller one starts a new quantity.
TEST(StepAlignmentHeldOutCauses, CompoundTimesAndNamedValues) {
  std::optional<plate::Platform> platform = bioforge1();
  ASSERT_TRUE(platform);
  auto read = [&](const char *text) {
    std::vector<std::pair<plate::Dimension, double>> out;
    for (const plate::agent::ProseQuantity &q : plate::agent::proseQuantities(text, *platform))
      out.emplace_back(q.dimension, q.value.low);
    return out;
  };
  using plate::Dimension;
  using Read = std::vector<std::pair<Dimension, double>>;
  EXPECT_EQ(read("incubate 1 h 30 min at 37 °C"),
            (Read{{Dimension::Time, 5400}, {Dimension::Temperature, 37}}));
  EXPECT_EQ(read("elapsed 18 min 45 s"), (Read{{Dimension::Time, 1125}}));
  EXPECT_EQ(read("1 h and 15 min"), (Read{{Dimension::Time, 4500}}));
  EXPECT_EQ(read("1 h 2 h 30 min"), (Read{{Dimension::Time, 3600}, {Dimension::Time, 9000}}));
  EXPECT_EQ(read("30 min 1 h"), (Read{{Dimension::Time, 1800}, {Dimension::Time, 3600}}));
  EXPECT_EQ(read("SHK.Shake rpm=600 seconds=30"),
            (Read{{Dimension::Speed, 600}, {Dimension::Time, 30}}));
  EXPECT_EQ(read("HP.SetTemperature celsius=37"), (Read{{Dimension::Temperature, 37}}));
}
