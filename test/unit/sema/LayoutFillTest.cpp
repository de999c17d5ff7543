//===- LayoutFillTest.cpp - The fill rules of spec §4 ---------------------===//
#include "frontend/Layout.h"

#include <gtest/gtest.h>

using namespace plate;
using plate::layout::FillError;

namespace {

WellSet rect(const char *a, const char *b) {
  return WellSet::rectangle(*Well::parse(a), *Well::parse(b));
}

std::vector<std::string> strs(const std::vector<WellSet> &sets) {
  std::vector<std::string> out;
  for (const WellSet &set : sets)
    out.push_back(set.str());
  return out;
}

TEST(LayoutFill, OneNameTakesEveryWell) {
  auto result = layout::fill(rect("A1", "A3"), 1, std::nullopt, false);
  ASSERT_TRUE(std::holds_alternative<std::vector<WellSet>>(result));
  EXPECT_EQ(strs(std::get<0>(result)), std::vector<std::string>{"A1..A3"});
}

TEST(LayoutFill, ColumnMajorWithoutReplicates) {
  auto result = layout::fill(rect("A1", "B2"), 4, std::nullopt, false);
  ASSERT_TRUE(std::holds_alternative<std::vector<WellSet>>(result));
  EXPECT_EQ(strs(std::get<0>(result)),
            (std::vector<std::string>{"A1", "B1", "A2", "B2"}));
}

TEST(LayoutFill, AcrossIsTheSpecExample) {
  // X1..X8 at A3..H4 replicates 2 across: X1 in A3,A4; X2 in B3,B4; ...
  auto result = layout::fill(rect("A3", "H4"), 8, 2u, false);
  ASSERT_TRUE(std::holds_alternative<std::vector<WellSet>>(result));
  auto sets = strs(std::get<0>(result));
  ASSERT_EQ(sets.size(), 8u);
  EXPECT_EQ(sets[0], "A3..A4");
  EXPECT_EQ(sets[1], "B3..B4");
  EXPECT_EQ(sets[7], "H3..H4");
}

TEST(LayoutFill, AcrossRunsGoLeftToRight) {
  // Two runs of two columns: names 1-8 in columns 1-2, names 9-16 in 3-4.
  auto result = layout::fill(rect("A1", "H4"), 16, 2u, false);
  ASSERT_TRUE(std::holds_alternative<std::vector<WellSet>>(result));
  auto sets = strs(std::get<0>(result));
  EXPECT_EQ(sets[7], "H1..H2");
  EXPECT_EQ(sets[8], "A3..A4");
}

TEST(LayoutFill, AcrossThreeReplicatesOfTheBradfordExample) {
  auto result = layout::fill(rect("B1", "F3"), 5, 3u, false);
  ASSERT_TRUE(std::holds_alternative<std::vector<WellSet>>(result));
  auto sets = strs(std::get<0>(result));
  EXPECT_EQ(sets.front(), "B1..B3");
  EXPECT_EQ(sets.back(), "F1..F3");
}

TEST(LayoutFill, DownFillsColumnsTopToBottom) {
  auto result = layout::fill(rect("A1", "D2"), 4, 2u, true);
  ASSERT_TRUE(std::holds_alternative<std::vector<WellSet>>(result));
  EXPECT_EQ(strs(std::get<0>(result)),
            (std::vector<std::string>{"A1..B1", "C1..D1", "A2..B2", "C2..D2"}));
}

TEST(LayoutFill, CountMismatchStatesBothCounts) {
  auto result = layout::fill(rect("B1", "H2"), 7, 3u, false);
  ASSERT_TRUE(std::holds_alternative<FillError>(result));
  const FillError &error = std::get<FillError>(result);
  EXPECT_EQ(error.kind, FillError::Kind::CountMismatch);
  EXPECT_EQ(error.names, 7u);
  EXPECT_EQ(error.replicates, 3u);
  EXPECT_EQ(error.wells, 14u);
}

TEST(LayoutFill, RunsThatDoNotDivide) {
  // 3 columns x 2 rows = 6 wells = 3 names x 2, but 3 columns do not split
  // into runs of 2 adjacent columns.
  auto result = layout::fill(rect("A1", "B3"), 3, 2u, false);
  ASSERT_TRUE(std::holds_alternative<FillError>(result));
  EXPECT_EQ(std::get<FillError>(result).kind, FillError::Kind::RunsDoNotFit);
  // Down: three rows per column do not split into runs of 2.
  auto down = layout::fill(rect("A1", "C2"), 3, 2u, true);
  ASSERT_TRUE(std::holds_alternative<FillError>(down));
  EXPECT_EQ(std::get<FillError>(down).kind, FillError::Kind::RunsDoNotFit);
}

TEST(LayoutFill, NonAdjacentColumnsDoNotMakeARun) {
  WellSet wells = rect("A1", "A1");
  wells.insert(*Well::parse("A3"));
  auto result = layout::fill(wells, 1, 2u, false);
  ASSERT_TRUE(std::holds_alternative<FillError>(result));
  EXPECT_EQ(std::get<FillError>(result).kind, FillError::Kind::RunsDoNotFit);
}

TEST(LayoutNames, NumberedRange) {
  auto names = layout::expandNameRange("S1", "S7");
  ASSERT_TRUE(names);
  EXPECT_EQ(names->size(), 7u);
  EXPECT_EQ(names->front(), "S1");
  EXPECT_EQ(names->back(), "S7");
  auto padded = layout::expandNameRange("S01", "S10");
  ASSERT_TRUE(padded);
  EXPECT_EQ((*padded)[8], "S09");
  EXPECT_EQ((*padded)[9], "S10");
}

TEST(LayoutNames, BadRanges) {
  EXPECT_FALSE(layout::expandNameRange("S1", "T7"));
  EXPECT_FALSE(layout::expandNameRange("S7", "S1"));
  EXPECT_FALSE(layout::expandNameRange("S", "S3"));
}

} // namespace
