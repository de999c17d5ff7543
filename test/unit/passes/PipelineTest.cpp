//===- PipelineTest.cpp - Pass prerequisites, verifier, concentration units -===//
//
// The pass registry's Requires column, pipeline validation, the verifier on
// hand-broken modules, and the concentration unit handling of normalize-units
// and the analysis.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Analysis.h"
#include "test/unit/passes/PassTestUtil.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace plate::test {
namespace {

std::string pipelineError(std::string_view text) {
  std::string error;
  std::optional<PassManager> manager = PassManager::parsePipeline(text, {}, error);
  EXPECT_EQ(manager.has_value(), error.empty()) << text;
  return error;
}

TEST(PassRegistryTest, PrerequisitesAreRegisteredAndEarlierInTheDefaultOrder) {
  const std::vector<PassInfo> &passes = registeredPasses();
  for (size_t i = 0; i < passes.size(); ++i)
    for (std::string_view needed : passes[i].prerequisites()) {
      ASSERT_NE(findPass(needed), nullptr) << passes[i].name << " needs " << needed;
      bool earlier = false;
      for (size_t j = 0; j < i; ++j)
        earlier |= passes[j].name == needed;
      EXPECT_TRUE(earlier) << passes[i].name << " needs " << needed;
    }
  std::vector<std::string_view> names;
  for (const PassInfo &info : passes)
    names.push_back(info.name);
  EXPECT_EQ(PassManager::checkOrder(names), "");
}

TEST(PassRegistryTest, SplitsTheRequiresColumn) {
  const PassInfo *lower = findPass("lower-pipetting");
  ASSERT_NE(lower, nullptr);
  std::vector<std::string_view> expected{"normalize-units", "track-volumes",
                                         "allocate-reservoir"};
  EXPECT_EQ(lower->prerequisites(), expected);
  ASSERT_NE(findPass("normalize-units"), nullptr);
  EXPECT_TRUE(findPass("normalize-units")->prerequisites().empty());
}

TEST(PipelineTest, RejectsAPassWithoutItsPrerequisite) {
  EXPECT_EQ(pipelineError("track-volumes"),
            "pass `track-volumes` needs `normalize-units` earlier in the pipeline; for "
            "example `--passes=normalize-units,track-volumes`");
  // Later is not earlier.
  EXPECT_EQ(pipelineError("track-volumes,normalize-units"),
            "pass `track-volumes` needs `normalize-units` earlier in the pipeline; for "
            "example `--passes=normalize-units,track-volumes`");
  // The example closes over prerequisites of prerequisites.
  EXPECT_EQ(pipelineError("normalize-units,check-platform,route-transport"),
            "pass `route-transport` needs `lower-pipetting` earlier in the pipeline; for "
            "example `--passes=normalize-units,check-platform,track-volumes,"
            "allocate-reservoir,lower-pipetting,route-transport`");
}

TEST(PipelineTest, AcceptsValidPipelines) {
  EXPECT_EQ(pipelineError(""), "");
  EXPECT_EQ(pipelineError("normalize-units,track-volumes"), "");
  EXPECT_EQ(pipelineError("group-wells,lint-protocol"), "");
  EXPECT_EQ(pipelineError("normalize-units,,track-volumes,"), "");
  EXPECT_EQ(pipelineError("normalize-units,track-volumes,allocate-reservoir,lower-pipetting"),
            "");
}

TEST(PipelineTest, UnknownPassSuggestsTheClosest) {
  EXPECT_EQ(pipelineError("normalize-units,track-volume"),
            "unknown pass `track-volume`; did you mean `track-volumes`?");
}

TEST(PipelineTest, VerifyEachFollowsTheEnvironment) {
  const char *old = std::getenv("PLATE_VERIFY_EACH");
  std::string saved = old ? old : "";
  setenv("PLATE_VERIFY_EACH", "1", 1);
  EXPECT_TRUE(verifyEachByDefault());
  EXPECT_TRUE(PipelineOptions{}.verifyEach);
  setenv("PLATE_VERIFY_EACH", "0", 1);
  EXPECT_FALSE(verifyEachByDefault());
  EXPECT_FALSE(PipelineOptions{}.verifyEach);
  if (old)
    setenv("PLATE_VERIFY_EACH", saved.c_str(), 1);
  else
    unsetenv("PLATE_VERIFY_EACH");
}

class VerifierTest : public PassFixture {};

TEST_F(VerifierTest, AcceptsAWellFormedModule) {
  ir::LiquidId buffer = addReagent("buffer");
  ir::LiquidId s1 = addLiquid("S1", ir::LiquidRole::Calibrant, wells("A1", "A2"));
  module.liquids[s1].concentration = Quantity{5, Unit::MicrogramPerMl};
  addOp(ir::DispenseOp{{{buffer, wells("A1", "A2")}}, uL(50), {}, ir::TipPolicy::PerSource});
  EXPECT_EQ(ir::verify(module), std::vector<std::string>{});
}

TEST_F(VerifierTest, ReportsBrokenInvariants) {
  ir::LiquidId buffer = addReagent("buffer");
  ir::DispenseOp dispense{{{buffer, wells("A1", "A2")}}, Quantity::seconds(5), {},
                          ir::TipPolicy::PerSource};
  addOp(dispense);
  ir::WashOp wash;
  wash.reagent = 7; // no such liquid
  wash.wells = wells("A1", "A1");
  wash.volume = uL(300);
  wash.cycles = 0;
  addOp(wash);
  std::vector<std::string> problems = ir::verify(module);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0], "op #0 (dispense): volume has dimension time, expected volume");
  EXPECT_EQ(problems[1], "op #1 (wash): reagent names liquid id 7 of 1");
  EXPECT_EQ(problems[2], "op #1 (wash): wash with zero cycles");
}

TEST_F(VerifierTest, CanonicalFormAfterNormalizeExceptConcentrations) {
  ir::LiquidId buffer = addReagent("buffer");
  module.liquids[buffer].declaredVolume = mL(10);
  ir::LiquidId s1 = addLiquid("S1", ir::LiquidRole::Calibrant, wells("A1", "A1"));
  module.liquids[s1].concentration = Quantity{0.5, Unit::NanogramPerMl};
  addOp(ir::DispenseOp{{{buffer, wells("A1", "A1")}}, mL(0.1), {}, ir::TipPolicy::PerSource});
  module.unitsNormalized = true; // claimed, but not done
  std::vector<std::string> problems = ir::verify(module);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0],
            "declared volume of %buffer = 10 mL is not canonical after normalize-units");
  EXPECT_EQ(problems[1], "op #0 (dispense): volume = 0.1 mL is not canonical after "
                         "normalize-units");

  module.liquids[s1].concentration = Quantity{-1, Unit::NanogramPerMl};
  module.liquids[buffer].declaredVolume.reset();
  module.unitsNormalized = false;
  problems = ir::verify(module);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "liquid %S1 has concentration -1 ng/mL, not a finite value >= 0");
}

TEST_F(VerifierTest, NormalizeUnitsKeepsConcentrationsAsWritten) {
  ir::LiquidId s1 = addLiquid("S1", ir::LiquidRole::Calibrant, wells("A1", "A1"));
  module.liquids[s1].concentration = Quantity{25, Unit::MicrogramPerMl};
  ir::LiquidId qc = addLiquid("QC", ir::LiquidRole::Control, wells("A2", "A2"));
  module.liquids[qc].concentration = Quantity{3, Unit::NanoMolar};
  addOp(ir::WaitOp{{2, Unit::Minute}});
  ASSERT_TRUE(runPasses("normalize-units"));
  EXPECT_EQ(module.liquids[s1].concentration, (Quantity{25, Unit::MicrogramPerMl}));
  EXPECT_EQ(module.liquids[qc].concentration, (Quantity{3, Unit::NanoMolar}));
  EXPECT_EQ(module.ops[0].as<ir::WaitOp>()->time, Quantity::seconds(120));
}

TEST(ConcentrationTest, ConvertsWithinAFamilyOnly) {
  using backend::convertConcentration;
  EXPECT_EQ(convertConcentration(5, "ug/mL", "ug/mL"), 5);
  EXPECT_DOUBLE_EQ(convertConcentration(500, "ng/mL", "µg/mL").value(), 0.5);
  EXPECT_DOUBLE_EQ(convertConcentration(2, "µg/mL", "ug/ml").value(), 2);
  EXPECT_DOUBLE_EQ(convertConcentration(1, "uM", "nM").value(), 1000);
  EXPECT_FALSE(convertConcentration(1, "nM", "ng/mL").has_value());
  EXPECT_FALSE(convertConcentration(1, "uL", "mL").has_value());
  EXPECT_FALSE(convertConcentration(1, "furlongs", "ng/mL").has_value());
}

TEST(ConcentrationTest, FormatsInFixedNotation) {
  using backend::formatConcentration;
  EXPECT_EQ(formatConcentration(995.53), "995.5");
  EXPECT_EQ(formatConcentration(1200), "1200");
  EXPECT_EQ(formatConcentration(12345.6), "12346");
  EXPECT_EQ(formatConcentration(0.012345), "0.01235");
  EXPECT_EQ(formatConcentration(2.5), "2.5");
  EXPECT_EQ(formatConcentration(0), "0");
  EXPECT_EQ(formatConcentration(-3.25), "-3.25");
  EXPECT_EQ(formatConcentration(9.955e8), "995500000");
  EXPECT_EQ(formatConcentration(2.5e9), "2.5e+09");
  EXPECT_EQ(formatConcentration(1.5e-5), "1.5e-05");
  EXPECT_EQ(formatConcentration(123.456789, 6), "123.457");
}

} // namespace
} // namespace plate::test
