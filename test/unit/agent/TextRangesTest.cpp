//===- TextRangesTest.cpp - The values a protocol text leaves open --------===//
//
// `eval --answers` counts a reply as equivalent within the text's ranges
// when its plate steps and reads differ from the truth only by values that
// the text leaves open: a range ("5-10 min") admits anything within it, two
// alternatives ("540 or 570 nm") admit those two values only.
//
//===----------------------------------------------------------------------===//
#include "agent/EvalScoring.h"
#include "ir/Platform.h"

#include <gtest/gtest.h>

namespace {

plate::Platform bioforge1() {
  plate::SourceManager sources;
  plate::DiagnosticEngine diags(sources);
  std::optional<plate::Platform> platform =
      plate::loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, {});
  EXPECT_TRUE(platform.has_value());
  return *platform;
}

TEST(TextRangesTest, AlternativeWavelengthsAdmitTheTwoValuesOnly) {
  plate::agent::TextRanges ranges = plate::agent::textRanges(
      "Absorbance at 450 nm, wavelength correction at 540 or 570 nm.", bioforge1());
  ASSERT_EQ(ranges.nanometres.size(), 1u);
  const plate::agent::StatedRange &choice = ranges.nanometres.front();
  EXPECT_TRUE(choice.alternatives);
  EXPECT_TRUE(choice.admits(540));
  EXPECT_TRUE(choice.admits(570));
  EXPECT_FALSE(choice.admits(555));
  EXPECT_FALSE(choice.admits(450));
}

TEST(TextRangesTest, AlternativesWithUnitsOnBothSidesAreConverted) {
  plate::agent::TextRanges ranges =
      plate::agent::textRanges("Incubate 30 min or 1 h at room temperature.", bioforge1());
  ASSERT_EQ(ranges.seconds.size(), 1u);
  EXPECT_TRUE(ranges.seconds.front().admits(1800));
  EXPECT_TRUE(ranges.seconds.front().admits(3600));
  EXPECT_FALSE(ranges.seconds.front().admits(2700));
}

TEST(TextRangesTest, ABareNumberTakesTheUnitAfterTheSecond) {
  plate::agent::TextRanges ranges =
      plate::agent::textRanges("Develop for 20 or 30 min in the dark.", bioforge1());
  ASSERT_EQ(ranges.seconds.size(), 1u);
  EXPECT_TRUE(ranges.seconds.front().admits(1200));
  EXPECT_TRUE(ranges.seconds.front().admits(1800));
}

TEST(TextRangesTest, ARangeAdmitsEveryValueWithinIt) {
  plate::agent::TextRanges ranges =
      plate::agent::textRanges("Shake at 500-700 rpm for 5-10 min.", bioforge1());
  ASSERT_EQ(ranges.rpm.size(), 1u);
  EXPECT_FALSE(ranges.rpm.front().alternatives);
  EXPECT_TRUE(ranges.rpm.front().admits(600));
  EXPECT_FALSE(ranges.rpm.front().admits(800));
  ASSERT_EQ(ranges.seconds.size(), 1u);
  EXPECT_TRUE(ranges.seconds.front().admits(450));
}

TEST(TextRangesTest, AWordEndingInOrIsNoAlternative) {
  // "factor 2" then "for 30 min": neither "factor" nor "for" offers a choice.
  plate::agent::TextRanges ranges = plate::agent::textRanges(
      "Dilute by a factor 2; incubate for 30 min at 37 C.", bioforge1());
  EXPECT_TRUE(ranges.seconds.empty());
  EXPECT_TRUE(ranges.celsius.empty());
}

} // namespace
