//===- BenchLibTest.cpp - The benchmark yardsticks measure what they say ---===//
//
// No timing here (that is the guard's business): these tests check that
// the generator's scripts compile at sizes around its cycle boundaries,
// and that the naive reference, the tip bound and the token counter count
// what bench/README.md says they count.
//
//===----------------------------------------------------------------------===//
#include "bench/BenchLib.h"
#include "bench/ScriptGen.h"
#include "backend/bioforge1/CommandSerializer.h"
#include "backend/bioforge1/CommandTiming.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace plate;
using namespace plate::bench;

namespace {

CompileResult compileText(const std::string &text) {
  CompileRequest request;
  request.text = text;
  request.keepIR = true;
  return compileStaged(request);
}

unsigned countLinesStartingWithNumber(const std::string &text) {
  unsigned count = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    if (end > start && std::isdigit(static_cast<unsigned char>(text[start])))
      ++count;
    start = end + 1;
  }
  return count;
}

TEST(ScriptGen, EverySizeAroundTheCycleCompiles) {
  for (const char *plate : {"plate96", "plate384"})
    for (unsigned steps : {1u, 13u, 14u, 19u, 20u, 21u, 60u, 250u}) {
      std::string text = generateScript({plate, steps});
      EXPECT_EQ(countLinesStartingWithNumber(text), steps) << plate << " x " << steps;
      CompileResult result = compileText(text);
      EXPECT_TRUE(result.ok) << plate << " x " << steps << ":\n" << result.firstError;
      EXPECT_GT(result.commandCount, 0u);
    }
}

TEST(ScriptGen, Deterministic) {
  EXPECT_EQ(generateScript({"plate384", 77}), generateScript({"plate384", 77}));
  EXPECT_NE(generateScript({"plate384", 77}), generateScript({"plate96", 77}));
}

TEST(CompileStaged, StagesInPipelineOrder) {
  CompileResult result = compileText(generateScript({"plate96", 20}));
  ASSERT_TRUE(result.ok) << result.firstError;
  std::vector<std::string> names;
  for (const StageTime &stage : result.stages)
    names.push_back(stage.name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(names.front(), "parse");
  EXPECT_EQ(names[1], "sema");
  EXPECT_EQ(names[names.size() - 2], "lower");
  EXPECT_EQ(names.back(), "emit");
  EXPECT_NE(std::find(names.begin(), names.end(), "group-wells"), names.end());
  EXPECT_EQ(std::count(result.jsonl.begin(), result.jsonl.end(), '\n'),
            static_cast<long>(result.commandCount));
}

TEST(CompileStaged, ReportsTheFirstError) {
  CompileResult result = compileText("<INSTRUMENT>\n1. dispense 10 uL of nothing to A1\n"
                                     "</INSTRUMENT>\n");
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.firstError.find("error"), std::string::npos);
}

const char *kTwoWells = R"(<LAYOUT>
plate plate96
sample X1 at A1..A2
</LAYOUT>
<REAGENTS>
ab 5 mL
</REAGENTS>
<INSTRUMENT>
1. dispense 50 uL of ab to A1..A2
2. aspirate all from A1
3. mix 2 times 10 uL in A2
</INSTRUMENT>
)";

TEST(NaiveLowering, OneChannelAndAFreshTipPerWell) {
  CompileResult result = compileText(kTwoWells);
  ASSERT_TRUE(result.ok) << result.firstError;
  ASSERT_TRUE(result.highLevel);
  std::vector<backend::Command> naive = naivePipetting(*result.highLevel, benchPlatform());
  // dispense: 2 x (pick, aspirate, dispense, drop); aspirate A1: pick,
  // aspirate, dispense to waste, drop; mix A2: pick, mix, drop.
  std::vector<std::string> ops;
  for (const backend::Command &command : naive) {
    ops.emplace_back(backend::opName(command.fields.op));
    if (backend::Json args = backend::commandArgs(command); args.contains("mask")) {
      EXPECT_EQ(args["mask"], "1000");
    }
  }
  std::vector<std::string> expected = {
      "PickTips", "Aspirate", "Dispense", "DropTips", "PickTips", "Aspirate", "Dispense",
      "DropTips", "PickTips", "Aspirate", "Dispense", "DropTips", "PickTips", "Mix",
      "DropTips"};
  EXPECT_EQ(ops, expected);
  EXPECT_EQ(backend::commandArgs(naive[10])["slot"], 8); // the solution waste
  EXPECT_EQ(backend::commandArgs(naive[9])["volume_ul"], 50);
}

TEST(TipBound, ReservoirLiquidsPlusContactWells) {
  CompileResult result = compileText(kTwoWells);
  ASSERT_TRUE(result.ok) << result.firstError;
  // ab needs one tip; A1 (aspirate) and A2 (mix) one each.
  EXPECT_EQ(tipLowerBound(*result.highLevel, benchPlatform()), 3u);
  Quality quality = measureQuality(result, benchPlatform());
  EXPECT_GE(quality.tipsUsed, quality.tipBound);
  EXPECT_EQ(quality.naiveTips, 4u);
  EXPECT_LE(quality.handlingSeconds, quality.naiveHandlingSeconds);
}

TEST(TipBound, NewPolicyCountsTripsPerLiquid) {
  // Layout dispense (`new`): 11 liquids of 3 wells x 10 uL, one trip each,
  // plus one tip for the bradford reagent.
  std::optional<std::string> text =
      readWholeFile(std::string(PLATE_SOURCE_DIR) + "/docs/examples/bradford.plate");
  ASSERT_TRUE(text);
  CompileResult result = compileText(*text);
  ASSERT_TRUE(result.ok) << result.firstError;
  EXPECT_EQ(tipLowerBound(*result.highLevel, benchPlatform()), 12u);
  EXPECT_EQ(result.headPositions, result.headPositionBound);
}

TEST(Tokens, Cl100kPreTokenizer) {
  // dispense | " " | 10 | " uL" | " of" | " r" | 1
  EXPECT_EQ(countTokens("dispense 10 uL of r1").pretokens, 7u);
  // {" | seq | ": | 1 | ," | module | ":" | LH | "}
  EXPECT_EQ(countTokens(R"({"seq":1,"module":"LH"})").pretokens, 9u);
  // Numbers split in groups of three digits.
  EXPECT_EQ(countTokens("1234567").pretokens, 3u);
  // "wash" | " 3" -> wash | " " | 3; a newline run is one piece.
  EXPECT_EQ(countTokens("wash 3\n\nread").pretokens, 5u);
  EXPECT_EQ(countTokens("").pretokens, 0u);
  EXPECT_EQ(countTokens("abcdefgh").quarterBytes(), 2u);
}

TEST(Heap, PeakCoversALiveAllocation) {
  heapResetPeak();
  { std::vector<char> block(1 << 20); block[0] = 1; }
  EXPECT_GE(heapPeakBytes(), size_t(1) << 20);
  heapResetPeak();
  EXPECT_LT(heapPeakBytes(), size_t(1) << 20);
}

} // namespace

TEST(PlatePipetting, CountedOnTheStreamAgainstTheBound) {
  // Bradford step 1 dispenses 10 uL of the layout into 33 wells: 11 head
  // positions cover them, and the stream dispenses once per position with
  // the blank or calibrant and the sample side by side (it dispensed once
  // per liquid per position, 16, until issue 16); step 2 (one reagent)
  // meets its bound too.
  std::optional<std::string> text =
      readWholeFile(std::string(PLATE_SOURCE_DIR) + "/docs/examples/bradford.plate");
  ASSERT_TRUE(text);
  CompileResult result = compileText(*text);
  ASSERT_TRUE(result.ok) << result.firstError;
  std::vector<StepPipetting> steps =
      platePipettingBySteps(*result.highLevel, result.commands, benchPlatform());
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].step, "1");
  EXPECT_EQ(steps[0].commands, 11u);
  EXPECT_EQ(steps[0].bound, 11u);
  EXPECT_EQ(steps[1].commands, 11u);
  EXPECT_EQ(steps[1].bound, 11u);
}

TEST(PlatePipetting, NoScheduleBeatsTheBound) {
  // A bound the compiler's own stream undercuts is no bound: every step of
  // every corpus ground truth and example is checked.
  std::vector<std::string> scripts = {"/docs/examples/bradford.plate",
                                      "/docs/examples/il6_elisa.plate",
                                      "/bench/elisa96_full.plate"};
  for (const auto &entry : std::filesystem::directory_iterator(
           std::string(PLATE_SOURCE_DIR) + "/test/corpus"))
    scripts.push_back(entry.path().string().substr(std::string(PLATE_SOURCE_DIR).size()) +
                      "/truth.plate");
  unsigned checkedSteps = 0;
  for (const std::string &script : scripts) {
    std::optional<std::string> text = readWholeFile(std::string(PLATE_SOURCE_DIR) + script);
    ASSERT_TRUE(text) << script;
    CompileResult result = compileText(*text);
    if (!result.ok)
      continue; // a script that needs --layout; the examples all compile
    for (const StepPipetting &step :
         platePipettingBySteps(*result.highLevel, result.commands, benchPlatform())) {
      EXPECT_GE(step.commands, step.bound) << script << " line " << step.line;
      EXPECT_GT(step.bound, 0u) << script << " line " << step.line;
      ++checkedSteps;
    }
    // Nor may the stream's robot time undercut its bound.
    const Platform &platform = benchPlatform();
    double robot = backend::robotSeconds(result.commands, platform);
    double bound = robotTimeLowerBound(*result.highLevel, result.commands, platform,
                                       tipLowerBound(*result.highLevel, platform));
    EXPECT_LE(bound, robot + 1e-6) << script;
  }
  EXPECT_GT(checkedSteps, 200u);
}
