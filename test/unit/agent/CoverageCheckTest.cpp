//===- CoverageCheckTest.cpp - Quantities of the text vs. the script ------===//
#include "agent/CoverageCheck.h"
#include "agent/ParserAgent.h"
#include "agent/ValidationAgent.h"
#include "frontend/Frontend.h"

#include <gtest/gtest.h>

using namespace plate;
using namespace plate::agent;

namespace {

Platform bioforge() {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto platform = loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, {});
  EXPECT_TRUE(platform);
  return *platform;
}

std::vector<Finding> check(const std::string &text, const std::string &script) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t id = sources.addBuffer("s.plate", script);
  ast::Script ast = parseScript(sources, id, diags);
  EXPECT_FALSE(diags.hasErrors()) << script;
  return checkCoverage(text, ast, sources, bioforge());
}

const char *kHead = "<LAYOUT>\nplate plate96\nsample X1..X4 at A1..D1\n</LAYOUT>\n"
                    "<REAGENTS>\nbuf\n</REAGENTS>\n";

} // namespace

TEST(CoverageTest, TextQuantitiesWithRangesSymbolsAndRepeats) {
  Platform platform = bioforge();
  auto qs = extractTextQuantities("1. Add 100 µL buffer, incubate 1 h at 20–25 °C (room temperature).\n"
                                  "2. Wash 3 times with 300 uL. Spin at 1000 x g.\n"
                                  "3. Repeat step 2 twice more.\n"
                                  "4. Incubate overnight at 4°C, then read at 450 nm.\n",
                                  platform);
  std::vector<std::string> seen;
  for (const TextQuantity &q : qs)
    seen.push_back(fmt::format("{}:{}:{}", q.line, dimensionName(q.dimension), q.text));
  std::vector<std::string> expected = {
      "1:volume:100 µL", "1:time:1 h", "1:temperature:20–25 °C",
      "2:count:3 times", "2:volume:300 uL",
      "3:count:3 times", "3:volume:300 uL", "3:count:3 times", "3:volume:300 uL",
      "4:time:overnight", "4:temperature:4°C", "4:wavelength:450 nm"};
  EXPECT_EQ(seen, expected);
}

TEST(CoverageTest, FaithfulScriptHasNoFindings) {
  std::string script = std::string(kHead) +
                       "<INSTRUMENT>\n1. dispense 100 uL of buf to all\n"
                       "2. incubate 1 h at RT\n3. wash 3x with 300 uL of buf\n"
                       "4. read absorbance at 450 nm\n</INSTRUMENT>\n";
  auto findings = check("1. Add 100 uL buffer.\n2. Incubate 1 hour at room temperature.\n"
                        "3. Wash 3 times with 300 µL.\n4. Read at 450 nm.\n",
                        script);
  EXPECT_TRUE(findings.empty()) << findings.front().message;
}

TEST(CoverageTest, WrongMissingInventedAndOrder) {
  std::string script = std::string(kHead) +
                       "<INSTRUMENT>\n1. dispense 100 uL of buf to all\n"
                       "2. read absorbance at 450 nm\n3. incubate 30 min at RT\n"
                       "4. shake 30 s at 300 rpm\n</INSTRUMENT>\n";
  auto findings = check("1. Add 100 uL buffer.\n2. Incubate 1 h at RT.\n"
                        "3. Wash 3 times with 300 uL.\n4. Read at 450 nm.\n",
                        script);
  std::vector<std::string> got;
  for (const Finding &f : findings)
    got.push_back(f.type + " @ " + f.location);
  // The incubation (text line 2) comes after the read (text line 4).
  EXPECT_NE(std::find(got.begin(), got.end(), "order @ script line 11 (step 3)"), got.end())
      << fmt::format("{}", fmt::join(got, "; "));
  // 1 h became 30 min; the wash is missing; 30 s and 300 rpm are invented.
  EXPECT_NE(std::find(got.begin(), got.end(), "parameter @ text line 2"), got.end());
  EXPECT_EQ(std::count(got.begin(), got.end(), "completeness @ text line 3"), 2);
  EXPECT_NE(std::find(got.begin(), got.end(), "parameter @ line 12"), got.end());
}

TEST(CoverageTest, RobotStepMovedToManualNeedsAReason) {
  std::string script = std::string(kHead) +
                       "<MANUAL>\nincubate 1 h at 37 °C\nincubate 16 h at 4 °C\n</MANUAL>\n"
                       "<INSTRUMENT>\nread absorbance at 450 nm\n</INSTRUMENT>\n";
  auto findings = check("Incubate 1 h at 37 °C.\nIncubate 16 h at 4 °C.\nRead at 450 nm.\n",
                        script);
  ASSERT_EQ(findings.size(), 1u) << findings.front().message;
  EXPECT_EQ(findings[0].location, "line 9");
  EXPECT_NE(findings[0].message.find("bioforge1 can do it"), std::string::npos);
}

TEST(ParserPromptTest, ScriptsFencedOrBare) {
  EXPECT_EQ(extractScript("Sure:\n```plate\n<INSTRUMENT>\nwait 1 s\n</INSTRUMENT>\n```\nDone."),
            "<INSTRUMENT>\nwait 1 s\n</INSTRUMENT>\n");
  EXPECT_EQ(extractScript("Here it is.\n<INSTRUMENT>\nwait 1 s\n</INSTRUMENT>\n"),
            "<INSTRUMENT>\nwait 1 s\n</INSTRUMENT>\n");
}

TEST(ValidatorTest, VerdictsAreParsedStrictly) {
  std::string error;
  EXPECT_TRUE(parseVerdict(R"({"verdict":"pass","findings":[]})", error));
  auto fail = parseVerdict(
      "```json\n{\"verdict\":\"fail\",\"findings\":[{\"type\":\"order\",\"location\":\"step 2\","
      "\"message\":\"m\",\"guidance\":\"g\"}]}\n```",
      error);
  ASSERT_TRUE(fail);
  EXPECT_FALSE(fail->pass);
  EXPECT_EQ(fail->findings[0].type, "order");
  EXPECT_FALSE(parseVerdict("PASS", error));
  EXPECT_FALSE(parseVerdict(R"({"verdict":"pass"})", error));
  EXPECT_FALSE(parseVerdict(R"({"verdict":"fail","findings":[]})", error));
  EXPECT_FALSE(parseVerdict(R"({"verdict":"pass","findings":[],"note":"x"})", error));
  EXPECT_EQ(error, "unexpected key `note`");
  EXPECT_FALSE(parseVerdict(
      R"({"verdict":"fail","findings":[{"type":"style","location":"","message":"","guidance":""}]})",
      error));
}

// The Validator sees a checklist prompt by its first line: its items restate
// MANUAL ops and the loading plan, which the summary has on its own lines.
TEST(StepSummaryTest, AChecklistPromptShowsItsFirstLine) {
  ir::Module module;
  ir::Op prompt;
  prompt.payload = ir::PromptOp{"before the robot starts: set up, then confirm\n  [ ] (1,1) buf 2 mL"};
  prompt.loc = SourceLoc{0, 7, 1, 1};
  prompt.step = "1";
  module.ops.push_back(prompt);
  ir::Op pause;
  pause.payload = ir::PromptOp{"check the colour"};
  pause.loc = SourceLoc{0, 9, 1, 1};
  pause.step = "3";
  module.ops.push_back(pause);
  std::string summary = stepSummary(module);
  EXPECT_NE(summary.find("step 1, line 7 (INSTRUMENT): dev.prompt | prompt \"before the robot "
                         "starts: set up, then confirm …\"\n"),
            std::string::npos)
      << summary;
  EXPECT_EQ(summary.find("(1,1) buf"), std::string::npos) << summary;
  EXPECT_NE(summary.find("prompt \"check the colour\"\n"), std::string::npos) << summary;
}
