//===- QuantityWellTest.cpp - Unit spellings, quantities and well sets ----===//
#include "ParseTestUtil.h"

using namespace plate;
using namespace plate::test;
using QK = ast::QuantityExpr::Kind;
using WK = ast::WellItem::Kind;

namespace {

struct UnitCase {
  const char *written; ///< the quantity as it appears in `wait ...`
  const char *unit;    ///< expected spelling kept in the AST
  double value;
};

class UnitSpelling : public ::testing::TestWithParam<UnitCase> {};

// Every spelling of spec §2, with and without a space. The statement does
// not matter to the parser (Sema checks the dimension), so all go through
// `wait`.
TEST_P(UnitSpelling, KeptAsWritten) {
  const UnitCase &c = GetParam();
  auto p = parseStatements(std::string("wait ") + c.written);
  ASSERT_FALSE(p->diags->hasErrors()) << c.written << "\n" << p->messages();
  const auto &q = first<ast::Wait>(*p).time;
  EXPECT_EQ(q.kind, QK::Number);
  EXPECT_EQ(q.unit, c.unit) << c.written;
  EXPECT_DOUBLE_EQ(q.value, c.value) << c.written;
}

INSTANTIATE_TEST_SUITE_P(
    AllSpellings, UnitSpelling,
    ::testing::Values(
        UnitCase{"100 nL", "nL", 100}, UnitCase{"100nL", "nL", 100},
        UnitCase{"100 uL", "uL", 100}, UnitCase{"100uL", "uL", 100},
        UnitCase{"100 µL", "µL", 100}, UnitCase{"100µL", "µL", 100},
        UnitCase{"100 μL", "μL", 100}, UnitCase{"100μL", "μL", 100},
        UnitCase{"100 ul", "ul", 100}, UnitCase{"2 mL", "mL", 2},
        UnitCase{"2ml", "ml", 2}, UnitCase{"1 L", "L", 1},
        UnitCase{"1e-3 mL", "mL", 1e-3}, UnitCase{"1.5E2 uL", "uL", 150},
        UnitCase{"30 s", "s", 30}, UnitCase{"30s", "s", 30},
        UnitCase{"30 sec", "sec", 30}, UnitCase{"1 second", "second", 1},
        UnitCase{"30 seconds", "seconds", 30}, UnitCase{"5 min", "min", 5},
        UnitCase{"5min", "min", 5}, UnitCase{"1 minute", "minute", 1},
        UnitCase{"5 minutes", "minutes", 5}, UnitCase{"2 h", "h", 2},
        UnitCase{"2h", "h", 2}, UnitCase{"2 hr", "hr", 2},
        UnitCase{"1 hour", "hour", 1}, UnitCase{"2 hours", "hours", 2},
        UnitCase{"37 °C", "°C", 37}, UnitCase{"37°C", "°C", 37},
        UnitCase{"37 ° C", "°C", 37}, UnitCase{"37 C", "C", 37},
        UnitCase{"37C", "C", 37}, UnitCase{"37 degC", "degC", 37},
        UnitCase{"37 ℃", "℃", 37}, UnitCase{"37.5 °C", "°C", 37.5},
        UnitCase{"300 rpm", "rpm", 300}, UnitCase{"300rpm", "rpm", 300},
        UnitCase{"450 nm", "nm", 450}, UnitCase{"450nm", "nm", 450},
        UnitCase{"5 pg/mL", "pg/mL", 5}, UnitCase{"5 ng/mL", "ng/mL", 5},
        UnitCase{"5 ug/mL", "ug/mL", 5}, UnitCase{"5ug/mL", "ug/mL", 5},
        UnitCase{"5 ug / mL", "ug/mL", 5}, UnitCase{"5 µg/mL", "µg/mL", 5},
        UnitCase{"5 μg/mL", "μg/mL", 5}, UnitCase{"5 mg/mL", "mg/mL", 5},
        UnitCase{"5 g/L", "g/L", 5}, UnitCase{"5 pM", "pM", 5},
        UnitCase{"5 nM", "nM", 5}, UnitCase{"5 uM", "uM", 5},
        UnitCase{"5 µM", "µM", 5}, UnitCase{"5 mM", "mM", 5},
        UnitCase{"5 M", "M", 5}, UnitCase{"0.5 %", "%", 0.5},
        UnitCase{"0.5%", "%", 0.5}, UnitCase{"3 times", "times", 3},
        UnitCase{"3 TIMES", "TIMES", 3}, UnitCase{"3x", "x", 3},
        UnitCase{"3 x", "x", 3}, UnitCase{"3×", "×", 3},
        UnitCase{"20x", "x", 20}, UnitCase{"5 parsecs", "parsecs", 5},
        UnitCase{".5 mL", "mL", 0.5}, UnitCase{"-5 uL", "uL", -5}));

TEST(ParseQuantity, BareNumber) {
  auto p = parseStatements("wait 12");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const auto &q = first<ast::Wait>(*p).time;
  EXPECT_EQ(q.kind, QK::Number);
  EXPECT_EQ(q.unit, "");
  EXPECT_EQ(q.text, "12");
}

TEST(ParseQuantity, Symbolic) {
  auto p = parseStatements("incubate overnight at RT\nincubate 1 h at room   temperature\n"
                           "incubate 1 h at Ambient");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  EXPECT_EQ(first<ast::Incubate>(*p, 0).time.kind, QK::Overnight);
  EXPECT_EQ(first<ast::Incubate>(*p, 0).temperature->text, "RT");
  EXPECT_EQ(first<ast::Incubate>(*p, 1).temperature->text, "room temperature");
  EXPECT_EQ(first<ast::Incubate>(*p, 1).temperature->loc.length, 18u);
  EXPECT_EQ(first<ast::Incubate>(*p, 2).temperature->kind, QK::RoomTemp);
}

TEST(ParseQuantity, Ratios) {
  auto p = parseStatements("prepare a dilute 1:20\nprepare b dilute 20x\nprepare c dilute 2:5");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const auto &colon = *first<ast::Prepare>(*p, 0).dilute;
  EXPECT_EQ(colon.kind, QK::ColonRatio);
  EXPECT_EQ(colon.value, 20);
  EXPECT_EQ(colon.text, "1:20");
  const auto &times = *first<ast::Prepare>(*p, 1).dilute;
  EXPECT_EQ(times.kind, QK::Number);
  EXPECT_EQ(times.unit, "x");
  EXPECT_EQ(first<ast::Prepare>(*p, 2).dilute->value, 2.5);
}

TEST(ParseQuantity, HugeNumberIsAnError) {
  auto p = parseStatements("wait 1e999 s");
  EXPECT_EQ(p->codes(), std::vector<std::string>{"2:6 E125"});
}

TEST(ParseWellSet, AllForms) {
  auto p = parseStatements(
      "read absorbance at 450 nm A1, B3..C4, row A, rows B..D, col 1, cols 2..3, "
      "blank, calibrant, standard, sample, control, S3, all except H12, row P");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const auto &set = *first<ast::ReadAbsorbance>(*p).wells;
  ASSERT_EQ(set.items.size(), 13u);
  EXPECT_EQ(set.items[0].kind, WK::Well);
  EXPECT_EQ(set.items[1].kind, WK::Block);
  EXPECT_EQ(set.items[2].kind, WK::Row);
  EXPECT_EQ(set.items[2].a, "A");
  EXPECT_EQ(set.items[3].kind, WK::Rows);
  EXPECT_EQ(set.items[4].kind, WK::Col);
  EXPECT_EQ(set.items[4].a, "1");
  EXPECT_EQ(set.items[5].kind, WK::Cols);
  EXPECT_EQ(set.items[5].b, "3");
  for (size_t i = 6; i <= 11; ++i)
    EXPECT_EQ(set.items[i].kind, WK::Name) << i;
  EXPECT_EQ(set.items[8].a, "standard");
  EXPECT_EQ(set.items[11].a, "S3");
  EXPECT_EQ(set.items[12].kind, WK::All);
  ASSERT_EQ(set.except.size(), 2u);
  EXPECT_EQ(set.except[0].a, "H12");
  EXPECT_EQ(set.except[1].kind, WK::Row);
  EXPECT_EQ(set.except[1].a, "P");
}

TEST(ParseWellSet, WellCoordinatesVersusNames) {
  // A1..P24 are wells; B0, S1, A25, Q1 and lower case are names.
  auto p = parseStatements("read absorbance at 450 nm A1, P24, B0, S1, A25, Q1, a1, A01");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const auto &items = first<ast::ReadAbsorbance>(*p).wells->items;
  ASSERT_EQ(items.size(), 8u);
  EXPECT_EQ(items[0].kind, WK::Well);
  EXPECT_EQ(items[1].kind, WK::Well);
  for (size_t i = 2; i < items.size(); ++i)
    EXPECT_EQ(items[i].kind, WK::Name) << items[i].a;
}

// Where only a liquid's name can stand, a coordinate is that name
// (samples P1..P40, docs/language.md §3); a parameter cannot be one.
TEST(ParseWellSet, WellIsANameOnlyWhereANameStands) {
  auto source = parseStatements("dispense 10 uL of P1");
  ASSERT_FALSE(source->diags->hasErrors()) << source->messages();
  EXPECT_EQ(first<ast::Dispense>(*source).source.text, "P1");
  auto param = parseStatements("proc f(x: Volume, P1: Volume) {\n}");
  ASSERT_EQ(param->codes(), std::vector<std::string>{"2:19 E118"});
  EXPECT_NE(param->diags->diagnostics()[0].message.find("well coordinate"),
            std::string::npos);
}

} // namespace
