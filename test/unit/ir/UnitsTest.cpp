//===- UnitsTest.cpp - Unit table and quantity conversions ----------------===//
#include "ir/Units.h"

#include <gtest/gtest.h>

using namespace plate;

namespace {

TEST(Units, EverySpecSpellingResolvesToItsDimension) {
  struct Case {
    const char *spelling;
    Dimension dimension;
    double factor;
  };
  const Case cases[] = {
      {"nL", Dimension::Volume, 1e-3},   {"uL", Dimension::Volume, 1},
      {"µL", Dimension::Volume, 1},      {"μL", Dimension::Volume, 1},
      {"ul", Dimension::Volume, 1},      {"mL", Dimension::Volume, 1e3},
      {"ml", Dimension::Volume, 1e3},    {"L", Dimension::Volume, 1e6},
      {"s", Dimension::Time, 1},         {"sec", Dimension::Time, 1},
      {"second", Dimension::Time, 1},    {"seconds", Dimension::Time, 1},
      {"min", Dimension::Time, 60},      {"minute", Dimension::Time, 60},
      {"minutes", Dimension::Time, 60},  {"h", Dimension::Time, 3600},
      {"hr", Dimension::Time, 3600},     {"hour", Dimension::Time, 3600},
      {"hours", Dimension::Time, 3600},  {"°C", Dimension::Temperature, 1},
      {"C", Dimension::Temperature, 1},  {"degC", Dimension::Temperature, 1},
      {"rpm", Dimension::Speed, 1},      {"nm", Dimension::Wavelength, 1},
      {"pg/mL", Dimension::Concentration, 1},
      {"ng/mL", Dimension::Concentration, 1e3},
      {"ug/mL", Dimension::Concentration, 1e6},
      {"µg/mL", Dimension::Concentration, 1e6},
      {"mg/mL", Dimension::Concentration, 1e9},
      {"g/L", Dimension::Concentration, 1e9},
      {"pM", Dimension::Concentration, 1},  {"nM", Dimension::Concentration, 1e3},
      {"uM", Dimension::Concentration, 1e6}, {"µM", Dimension::Concentration, 1e6},
      {"mM", Dimension::Concentration, 1e9}, {"M", Dimension::Concentration, 1e12},
      {"%", Dimension::Concentration, 1},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.spelling);
    std::optional<Unit> unit = lookupUnit(c.spelling);
    ASSERT_TRUE(unit.has_value());
    EXPECT_EQ(unitInfo(*unit).dimension, c.dimension);
    EXPECT_DOUBLE_EQ(unitInfo(*unit).factor, c.factor);
  }
}

TEST(Units, NanometerAndNanomolarAreDistinct) {
  EXPECT_EQ(unitInfo(*lookupUnit("nm")).dimension, Dimension::Wavelength);
  EXPECT_EQ(unitInfo(*lookupUnit("nM")).dimension, Dimension::Concentration);
  EXPECT_FALSE(lookupUnit("NM").has_value());
  EXPECT_FALSE(lookupUnit("uX").has_value());
}

TEST(Units, CanonicalConversion) {
  Quantity twoHours{2, Unit::Hour};
  EXPECT_EQ(twoHours.canonical(), Quantity::seconds(7200));
  Quantity halfMl{0.5, Unit::MilliLiter};
  EXPECT_EQ(halfMl.canonical(), Quantity::microliters(500));
  // Concentrations stay in their family.
  EXPECT_EQ(Quantity({2, Unit::MicroMolar}).canonical().unit, Unit::PicoMolar);
  EXPECT_EQ(Quantity({5, Unit::MicrogramPerMl}).canonical().unit, Unit::PicogramPerMl);
  EXPECT_TRUE(Quantity({1, Unit::Ambient}).isSymbolic());
}

TEST(Units, FormattingIsShortAndStable) {
  EXPECT_EQ(fmt::format("{}", Quantity::microliters(100)), "100 µL");
  EXPECT_EQ(fmt::format("{}", Quantity({37.5, Unit::PicogramPerMl})), "37.5 pg/mL");
  EXPECT_EQ(fmt::format("{}", Quantity({20, Unit::Ratio})), "1:20");
  EXPECT_EQ(fmt::format("{}", Quantity({1, Unit::Ambient})), "RT");
  EXPECT_EQ(formatNumber(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(formatNumber(18.75), "18.75");
}

} // namespace
