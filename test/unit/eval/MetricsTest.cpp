//===- MetricsTest.cpp - Metrics pinned on hand-computed examples ---------===//
//
// Every expected number here was worked out by hand from the definitions
// in agent/Metrics.h (the arithmetic is in the comments), including
// over-generation and the per-layer clamp.
//
//===----------------------------------------------------------------------===//
#include "agent/Metrics.h"

#include <gtest/gtest.h>

using namespace plate::agent;

namespace {

StepRecord step(std::string type, std::vector<NamedParam> params) {
  return {std::move(type), std::move(params)};
}

CommandRow row(std::string type, std::vector<NamedParam> args) {
  return {std::move(type), std::move(args)};
}

CommandBlock block(std::string type, std::vector<CommandRow> rows) {
  return {std::move(type), "", std::move(rows)};
}

} // namespace

TEST(MetricsTest, AlignmentIsLongestCommonSubsequenceByTypeInOrder) {
  auto pairs = alignByType({"a", "b", "c"}, {"a", "c"});
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0], (std::pair<size_t, size_t>{0, 0}));
  EXPECT_EQ(pairs[1], (std::pair<size_t, size_t>{2, 1}));
  // Order matters: a swapped pair keeps only one of the two.
  EXPECT_EQ(alignByType({"wash", "read"}, {"read", "wash"}).size(), 1u);
  // Ties go to the earliest truth element: "x" matches truth[0], not truth[1].
  auto tie = alignByType({"x", "x"}, {"x"});
  ASSERT_EQ(tie.size(), 1u);
  EXPECT_EQ(tie[0].first, 0u);
}

TEST(MetricsTest, EqualParamsUsesEachTruthParameterOnce) {
  std::vector<NamedParam> truth = {{"volume", "100 µL"}, {"wells", "A1"}};
  EXPECT_EQ(equalParams(truth, {{"volume", "100 µL"}, {"volume", "100 µL"}}), 1u);
  EXPECT_EQ(equalParams(truth, {{"volume", "200 µL"}, {"wells", "A1"}}), 1u);
  // Same value under another name is not the same parameter.
  EXPECT_EQ(equalParams(truth, {{"mix_volume", "100 µL"}}), 0u);
}

TEST(MetricsTest, StructuredLayerWithOverGeneration) {
  // T = 3 + 2 = 5 from the truth alone.
  std::vector<StepRecord> truth = {
      step("dispense", {{"volume", "100 µL"}, {"source", "x"}, {"wells", "all"}}),
      step("incubate", {{"time", "3600 s"}, {"temperature", "RT"}})};
  // dispense matches with 2 of 3 equal; the shake is over-generated (P = 2);
  // incubate matches with 1 of 2 equal. C = 2 + 1 = 3.
  std::vector<StepRecord> candidate = {
      step("dispense", {{"volume", "200 µL"}, {"source", "x"}, {"wells", "all"}}),
      step("shake", {{"time", "30 s"}, {"speed", "300 rpm"}}),
      step("incubate", {{"time", "3600 s"}, {"temperature", "37 °C"}})};
  LayerScore s = scoreSteps(truth, candidate);
  EXPECT_EQ(s.correct, 3u);
  EXPECT_EQ(s.penalty, 2u);
  EXPECT_EQ(s.total, 5u);
  EXPECT_EQ(s.matched, 2u);
  EXPECT_EQ(s.overGenerated, 1u);
  EXPECT_EQ(s.missed, 0u);
  EXPECT_EQ(s.clamped(), 1u);
}

TEST(MetricsTest, MissedStepCostsItsParametersOnlyThroughT) {
  std::vector<StepRecord> truth = {step("wash", {{"cycles", "3"}, {"volume", "300 µL"}}),
                                   step("read.absorbance", {{"wavelength", "450 nm"}})};
  LayerScore s = scoreSteps(truth, {step("read.absorbance", {{"wavelength", "450 nm"}})});
  EXPECT_EQ(s.correct, 1u);
  EXPECT_EQ(s.penalty, 0u);
  EXPECT_EQ(s.total, 3u);
  EXPECT_EQ(s.missed, 1u);
}

TEST(MetricsTest, CommandLayerCountsRowsAndArguments) {
  // Truth: dispense block 3 rows x (1 + 2) = 9, wait block 1 + 1 = 2; T = 11.
  std::vector<CommandBlock> truth = {
      block("dispense", {row("LH.PickTips", {{"row", "1"}, {"col", "1"}}),
                         row("LH.Aspirate", {{"slot", "5"}, {"volume_ul", "100"}}),
                         row("LH.Dispense", {{"slot", "1"}, {"volume_ul", "100"}})}),
      block("wait", {row("SYS.Wait", {{"seconds", "3600"}})})};
  // Candidate: the dispense block matches, rows all match by op:
  // (1 + 2) + (1 + 1) + (1 + 1) = 7; the shake block is over-generated:
  // P = 1 + 2 = 3; the wait block matches fully: 1 + 1 = 2. C = 9.
  std::vector<CommandBlock> candidate = {
      block("dispense", {row("LH.PickTips", {{"row", "1"}, {"col", "1"}}),
                         row("LH.Aspirate", {{"slot", "5"}, {"volume_ul", "200"}}),
                         row("LH.Dispense", {{"slot", "1"}, {"volume_ul", "200"}})}),
      block("shake", {row("SHK.Shake", {{"rpm", "300"}, {"seconds", "30"}})}),
      block("wait", {row("SYS.Wait", {{"seconds", "3600"}})})};
  LayerScore s = scoreBlocks(truth, candidate);
  EXPECT_EQ(s.correct, 9u);
  EXPECT_EQ(s.penalty, 3u);
  EXPECT_EQ(s.total, 11u);
  EXPECT_EQ(s.overGenerated, 1u);
}

TEST(MetricsTest, RowsInsideAMatchedBlockAreAlignedByOp) {
  // Truth rows PickTips, Aspirate, Dispense, DropTips (weights 2+2+2+2 = 8);
  // the candidate lacks the Aspirate: 3 rows match, each fully: 3 x 2 = 6.
  std::vector<CommandBlock> truth = {block(
      "dispense", {row("LH.PickTips", {{"mask", "1111"}}), row("LH.Aspirate", {{"slot", "5"}}),
                   row("LH.Dispense", {{"slot", "1"}}), row("LH.DropTips", {{"mask", "1111"}})})};
  std::vector<CommandBlock> candidate = {
      block("dispense", {row("LH.PickTips", {{"mask", "1111"}}), row("LH.Dispense", {{"slot", "1"}}),
                         row("LH.DropTips", {{"mask", "1111"}})})};
  LayerScore s = scoreBlocks(truth, candidate);
  EXPECT_EQ(s.correct, 6u);
  EXPECT_EQ(s.total, 8u);
  EXPECT_EQ(s.penalty, 0u);
}

TEST(MetricsTest, EachLayerIsClampedOnItsOwn) {
  // Structured: truth incubate (T = 2); the candidate adds two dispenses
  // (P = 3 + 3 = 6) and gets the time wrong (C = 1): max(1 - 6, 0) = 0.
  std::vector<StepRecord> truthSteps = {step("incubate", {{"time", "3600 s"}, {"temperature", "RT"}})};
  std::vector<StepRecord> candidateSteps = {
      step("dispense", {{"volume", "1 µL"}, {"source", "a"}, {"wells", "A1"}}),
      step("dispense", {{"volume", "2 µL"}, {"source", "b"}, {"wells", "A2"}}),
      step("incubate", {{"time", "7200 s"}, {"temperature", "RT"}})};
  // Command: one matching wait block: C = 2, P = 0, T = 2.
  std::vector<CommandBlock> truthBlocks = {block("wait", {row("SYS.Wait", {{"seconds", "3600"}})})};
  std::vector<CommandBlock> candidateBlocks = truthBlocks;
  ParameterAccuracy pa =
      scoreParameterAccuracy(truthSteps, truthBlocks, candidateSteps, candidateBlocks);
  EXPECT_EQ(pa.structured.correct, 1u);
  EXPECT_EQ(pa.structured.penalty, 6u);
  EXPECT_EQ(pa.structured.clamped(), 0u);
  EXPECT_EQ(pa.command.clamped(), 2u);
  // PA = (0 + 2) / (2 + 2) = 0.5; without the per-layer clamp it would be
  // (1 - 6 + 2) / 4 < 0.
  EXPECT_DOUBLE_EQ(pa.value, 0.5);
}

TEST(MetricsTest, ParameterAccuracyFormula) {
  LayerScore structured;
  structured.correct = 10;
  structured.penalty = 4;
  structured.total = 12;
  LayerScore command;
  command.correct = 30;
  command.penalty = 5;
  command.total = 40;
  // (6 + 25) / 52
  EXPECT_DOUBLE_EQ(parameterAccuracy(structured, command), 31.0 / 52.0);
  EXPECT_DOUBLE_EQ(parameterAccuracy(LayerScore{}, LayerScore{}), 0.0);
  // A perfect candidate scores 1.
  std::vector<StepRecord> steps = {step("shake", {{"time", "30 s"}, {"speed", "300 rpm"}})};
  std::vector<CommandBlock> blocks = {block("shake", {row("SHK.Shake", {{"rpm", "300"}})})};
  EXPECT_DOUBLE_EQ(scoreParameterAccuracy(steps, blocks, steps, blocks).value, 1.0);
}

TEST(MetricsTest, PlanningPrecisionRecallLevenshtein) {
  std::vector<std::string> truth = {"dispense", "incubate", "wash", "read"};
  std::vector<std::string> candidate = {"dispense", "wash", "wash", "read", "analyze"};
  PlanningScore s = scorePlanning(truth, candidate);
  // Multiset intersection {dispense, wash, read} = 3: precision 3/5, recall 3/4.
  EXPECT_DOUBLE_EQ(s.precision, 0.6);
  EXPECT_DOUBLE_EQ(s.recall, 0.75);
  // incubate -> wash (substitution) and insert analyze: 2; normalised 2/5.
  EXPECT_EQ(s.levenshtein, 2u);
  EXPECT_DOUBLE_EQ(s.normalizedLevenshtein, 0.4);
  EXPECT_EQ(levenshteinDistance({}, {"a", "b"}), 2u);
  EXPECT_EQ(levenshteinDistance({"a", "b"}, {"b", "a"}), 2u);
  PlanningScore empty = scorePlanning({}, {});
  EXPECT_DOUBLE_EQ(empty.normalizedLevenshtein, 0.0);
}
