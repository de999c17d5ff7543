//===- WellsTest.cpp - Well coordinates and well sets ---------------------===//
#include "ir/Wells.h"

#include <gtest/gtest.h>

using namespace plate;

namespace {

TEST(Wells, ParseAcceptsOnlyPlateCoordinates) {
  EXPECT_EQ(Well::parse("A1"), (Well{1, 1}));
  EXPECT_EQ(Well::parse("H12"), (Well{8, 12}));
  EXPECT_EQ(Well::parse("P24"), (Well{16, 24}));
  EXPECT_FALSE(Well::parse("B0"));
  EXPECT_FALSE(Well::parse("S1"));
  EXPECT_FALSE(Well::parse("A25"));
  EXPECT_FALSE(Well::parse("A01"));
  EXPECT_FALSE(Well::parse("a1"));
}

TEST(Wells, ColumnMajorOrder) {
  WellSet set = WellSet::rectangle(*Well::parse("A1"), *Well::parse("B2"));
  std::vector<std::string> names;
  for (Well well : set.columnMajor())
    names.push_back(well.name());
  EXPECT_EQ(names, (std::vector<std::string>{"A1", "B1", "A2", "B2"}));
  names.clear();
  for (Well well : set.rowMajor())
    names.push_back(well.name());
  EXPECT_EQ(names, (std::vector<std::string>{"A1", "A2", "B1", "B2"}));
}

TEST(Wells, PrintsMaximalRectangles) {
  WellSet set = WellSet::rectangle(*Well::parse("A1"), *Well::parse("H2"));
  set.insert(*Well::parse("A3"));
  EXPECT_EQ(set.str(), "A1..H2,A3");
  WellSet plate = WellSet::all(PlateShape{8, 12});
  EXPECT_EQ(plate.size(), 96u);
  EXPECT_EQ(plate.str(), "A1..H12");
  plate.subtract(WellSet::rectangle(*Well::parse("A1"), *Well::parse("A12")));
  EXPECT_EQ(plate.size(), 84u);
  EXPECT_EQ(plate.str(), "B1..H12");
}

} // namespace
