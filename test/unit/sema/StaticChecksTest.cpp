//===- StaticChecksTest.cpp - Checks a user hits, from script text --------===//
//
// E406 (an INSTRUMENT `analyze` without the read the run fits), E114 (a
// volume unit where the liquid's name belongs) and E210's likely units:
// each needs the written text (columns, what follows a number), so these
// tests parse scripts rather than build ASTs.
//
//===----------------------------------------------------------------------===//
#include "frontend/Frontend.h"
#include "ir/Diagnostics.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace plate {
namespace {

struct Checked {
  SourceManager sources;
  std::unique_ptr<DiagnosticEngine> diags;
  std::vector<std::string> found; ///< "CODE@line:col", W003 left out

  const Diagnostic *first(std::string_view code) const {
    for (const Diagnostic &d : diags->diagnostics())
      if (diagInfo(d.id).code == code)
        return &d;
    return nullptr;
  }
};

/// Parses and checks a script whose INSTRUMENT body starts on line 9.
std::unique_ptr<Checked> check(const std::string &manualThenInstrument,
                               const std::string &reagents = "buf 20 mL\n") {
  std::string text = "<LAYOUT>\n"
                     "plate plate96\n"
                     "blank B0 at A1\n"
                     "calibrant S1..S2 at B1..C1 conc 10, 20 ug/mL\n"
                     "</LAYOUT>\n"
                     "<REAGENTS>\n" +
                     reagents + "</REAGENTS>\n" + manualThenInstrument;
  auto checked = std::make_unique<Checked>();
  uint32_t id = checked->sources.addBuffer("test.plate", text);
  checked->diags = std::make_unique<DiagnosticEngine>(checked->sources);
  ast::Script script = parseScript(checked->sources, id, *checked->diags);
  FrontendOptions options;
  options.stdlibDir = PLATE_STDLIB_DIR;
  if (!checked->diags->hasErrors())
    checkScript(script, checked->sources, *checked->diags, options);
  for (const Diagnostic &d : checked->diags->diagnostics())
    if (d.id != DiagId::UnusedName) // the scripts leave `buf` unused at will
      checked->found.push_back(
        fmt::format("{}@{}:{}", diagInfo(d.id).code, d.loc.line, d.loc.col));
  return checked;
}

std::string instrument(const std::string &body) {
  return "<INSTRUMENT>\n" + body + "</INSTRUMENT>\n";
}
std::string manual(const std::string &body) { return "<MANUAL>\n" + body + "</MANUAL>\n"; }

using Codes = std::vector<std::string>;

//===--- E411, E412 ------------------------------------------------------===//

// The fixture's layout has two calibrant levels: enough for a line, not for
// a 4pl curve, which the check says before the robot runs.
TEST(AnalyzeLevelsTest, TheLayoutsLevelsAreCountedBeforeTheRun) {
  EXPECT_EQ(check(instrument("read absorbance at 450 nm\n"
                             "analyze standard_curve linear at 450 nm\n"))
                ->found,
            Codes{});
  EXPECT_EQ(check(instrument("read absorbance at 450 nm\n"
                             "analyze standard_curve 4pl at 450 nm\n"))
                ->found,
            Codes{"E412@11:1"});
}

//===--- E406 ------------------------------------------------------------===//

// Line numbers: <REAGENTS> holds one line, so the first line after it is 9
// and a section's first statement is on line 10.

TEST(AnalyzeReadTest, ARobotReadAtTheWavelengthOrAnyWithoutAtIsEnough) {
  EXPECT_EQ(check(instrument("read absorbance at 450 nm\n"
                             "analyze standard_curve linear at 450 nm\n"
                             "analyze standard_curve linear\n"))
                ->found,
            Codes{});
  // The primary wavelength of a read with a reference.
  EXPECT_EQ(check(instrument("read absorbance at 450 nm reference 620 nm\n"
                             "analyze standard_curve linear at 450 nm\n"))
                ->found,
            Codes{});
  // Nanometres are the only wavelength unit; 450.0 is 450.
  EXPECT_EQ(check(instrument("read absorbance at 450.0 nm\n"
                             "analyze standard_curve linear at 450 nm\n"))
                ->found,
            Codes{});
}

TEST(AnalyzeReadTest, AReadAfterTheAnalysisDoesNotCount) {
  auto c = check(instrument("analyze standard_curve linear at 450 nm\n"
                            "read absorbance at 450 nm\n"));
  EXPECT_EQ(c->found, Codes{"E406@10:34"});
  EXPECT_EQ(c->first("E406")->suggestion, "");
}

TEST(AnalyzeReadTest, AManualReadIsNotARobotReadButServesAManualAnalysis) {
  auto c = check(manual("read absorbance at 562 nm\n") +
                 instrument("analyze standard_curve linear at 562 nm\n"));
  EXPECT_EQ(c->found, Codes{"E426@13:34"});
  const Diagnostic *d = c->first("E426");
  EXPECT_NE(d->message.find("the read at 562 nm on line 10"), std::string::npos) << d->message;
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_EQ(d->notes[0].loc.line, 10u);

  EXPECT_EQ(check(manual("read absorbance at 562 nm\n"
                         "analyze standard_curve linear at 562 nm\n") +
                  instrument("wait 1 s\n"))
                ->found,
            Codes{});
}

TEST(AnalyzeReadTest, OtherRobotWavelengthsAreListedAndTheNearestIsTheFixIt) {
  auto c = check(instrument("read absorbance at 405 nm\n"
                            "read absorbance at 570 nm\n"
                            "read absorbance at 405 nm\n"
                            "analyze standard_curve linear at 562 nm\n"));
  // The reader has no 562 nm filter, so the hint offers no new read.
  EXPECT_EQ(c->found, Codes{"E430@13:34"});
  const Diagnostic *d = c->first("E430");
  EXPECT_NE(d->message.find("at 405 and 570 nm"), std::string::npos) << d->message;
  EXPECT_EQ(d->suggestion, "570 nm");
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_EQ(d->notes[0].loc.line, 11u);
}

TEST(AnalyzeReadTest, AReferenceWavelengthPointsAtThePrimary) {
  auto c = check(instrument("read absorbance at 450 nm reference 620 nm\n"
                            "analyze standard_curve linear at 620 nm\n"));
  const Diagnostic *d = c->first("E428");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("620 nm is the reference of the read on line 10"),
            std::string::npos)
      << d->message;
  EXPECT_EQ(d->suggestion, "450 nm");
}

TEST(AnalyzeReadTest, AReadWithErrorsSuppressesTheCascade) {
  auto c = check(instrument("read absorbance at 450 uL\n"
                            "analyze standard_curve linear at 450 nm\n"));
  EXPECT_EQ(c->found, Codes{"E201@10:20"});
}

TEST(AnalyzeReadTest, AProcedureBodyIsCheckedPerCallAndReportedOnce) {
  auto c = check(instrument("proc fit() {\n"
                            "  analyze standard_curve linear at 450 nm\n"
                            "}\n"
                            "fit()\n"
                            "read absorbance at 450 nm\n"
                            "fit()\n"
                            "fit()\n"));
  // The first call comes before the read; the others after it.
  EXPECT_EQ(c->found, Codes{"E406@11:36"});
  ASSERT_EQ(c->first("E406")->notes.size(), 1u);
  EXPECT_EQ(c->first("E406")->notes[0].loc.line, 13u);
}

//===--- E114, E137 ---------------------------------------------------------===//

TEST(MissingLiquidTest, AVolumeUnitInTheNamesPlaceIsAForgottenName) {
  auto c = check(instrument("wash 3 times with 300 uL\n"), "buf 20 mL\nwash_buffer 50 mL\n");
  EXPECT_EQ(c->found, Codes{"E137@11:19"});
  EXPECT_EQ(c->first("E137")->suggestion, "300 uL of wash_buffer");
  EXPECT_EQ(c->first("E137")->loc.length, 6u);
}

TEST(MissingLiquidTest, TheWashBufferIsTheOneAnEarlierWashUsed) {
  auto c = check(instrument("wash 3 times with 300 uL of buf\n"
                            "wash 3 times with 300 mL\n"),
                 "buf 50 mL\nother 5 mL\n");
  EXPECT_EQ(c->first("E137")->suggestion, "300 mL of buf");
  // Two candidates and no earlier wash: no guess.
  auto two = check(instrument("wash 3 times with 300 uL\n"), "buf 50 mL\nother 5 mL\n");
  EXPECT_EQ(two->found, Codes{"E137@11:19"});
  EXPECT_EQ(two->first("E137")->suggestion, "");
  ASSERT_EQ(two->first("E137")->notes.size(), 1u);
  EXPECT_EQ(two->first("E137")->notes[0].message, "the reagents are buf, other");
}

TEST(MissingLiquidTest, ADispenseNamesCandidatesButGuessesNone) {
  auto c = check(instrument("dispense 100 uL to all\n"));
  EXPECT_EQ(c->found, Codes{"E114@10:10"});
  EXPECT_EQ(c->first("E114")->suggestion, "");
}

TEST(MissingLiquidTest, ANameThatIsDeclaredOrAfterOfIsAName) {
  // A reagent may be called `uL` (units are not keywords).
  EXPECT_EQ(check(instrument("dispense 100 uL to all\n"), "uL 20 mL\n")->found,
            Codes{"E210@10:10"});
  // `of` between them: the unit is missing, the name was written.
  EXPECT_EQ(check(instrument("dispense 100 of uL to all\n"))->found,
            (Codes{"E210@10:10", "E226@10:17"}));
  // Not a volume unit: a name that is not declared.
  EXPECT_EQ(check(instrument("dispense 100 min to all\n"))->found,
            (Codes{"E210@10:10", "E226@10:14"}));
}

//===--- E210's likely units ----------------------------------------------===//

std::string fixFor(const std::string &statement) {
  auto c = check(instrument("proc hold(t: Time) {\n  wait t\n}\n" + statement + "\n"));
  const Diagnostic *d = c->first("E210");
  if (!d)
    return "(no E210: " + ::testing::PrintToString(c->found) + ")";
  return d->suggestion + " | " + d->message.substr(d->message.find("did you mean"));
}

TEST(LikelyUnitsTest, ATimeOffersTheUnitsOfItsStatementInItsUsualSpanFirst) {
  EXPECT_EQ(fixFor("incubate 30"), "30 min | did you mean `30 min` or `30 h`?");
  EXPECT_EQ(fixFor("incubate 2"), "2 h | did you mean `2 h` or `2 min`?");
  EXPECT_EQ(fixFor("incubate 4"), "4 h | did you mean `4 h` or `4 min`?");
  EXPECT_EQ(fixFor("incubate 5"), "5 min | did you mean `5 min` or `5 h`?");
  EXPECT_EQ(fixFor("incubate 90"), "90 min | did you mean `90 min` or `90 h`?");
  EXPECT_EQ(fixFor("shake 30 at 300 rpm"), "30 s | did you mean `30 s` or `30 min`?");
  EXPECT_EQ(fixFor("shake 5 at 300 rpm"), "5 min | did you mean `5 min` or `5 s`?");
  EXPECT_EQ(fixFor("wash 3x with 300 uL of buf soak 30"),
            "30 s | did you mean `30 s` or `30 min`?");
  EXPECT_EQ(fixFor("magnet 2"), "2 min | did you mean `2 min` or `2 s`?");
  EXPECT_EQ(fixFor("wait 30"), "30 s | did you mean `30 s`, `30 min` or `30 h`?");
  EXPECT_EQ(fixFor("hold(45)"), "45 s | did you mean `45 s`, `45 min` or `45 h`?");
}

TEST(LikelyUnitsTest, OtherDimensionsOfferTheirLabUnit) {
  EXPECT_EQ(fixFor("dispense 300 of buf to all"), "300 uL | did you mean `300 uL`?");
  EXPECT_EQ(fixFor("incubate 1 h at 37"), "37 °C | did you mean `37 °C`?");
  EXPECT_EQ(fixFor("shake 30 s at 300"), "300 rpm | did you mean `300 rpm`?");
  EXPECT_EQ(fixFor("read absorbance at 450"), "450 nm | did you mean `450 nm`?");
  // What a reservoir is loaded with, or a person prepares, is millilitres.
  auto loaded = check(instrument("wait 1 s\n"), "buf 20\n");
  ASSERT_NE(loaded->first("E210"), nullptr);
  EXPECT_EQ(loaded->first("E210")->suggestion, "20 mL");
  auto prepared = check(manual("prepare buf 15\n") + instrument("wait 1 s\n"));
  ASSERT_NE(prepared->first("E210"), nullptr);
  EXPECT_EQ(prepared->first("E210")->suggestion, "15 mL");
  // `equilibrate ... for` is an incubation's span.
  auto equilibrated = check(manual("equilibrate all to RT for 30\n") + instrument("wait 1 s\n"));
  ASSERT_NE(equilibrated->first("E210"), nullptr);
  EXPECT_EQ(equilibrated->first("E210")->suggestion, "30 min");
}

} // namespace
} // namespace plate
