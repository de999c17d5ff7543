//===- StatementTest.cpp - Every statement form of spec §7 parses ---------===//
#include "ParseTestUtil.h"

using namespace plate;
using namespace plate::test;
using QK = ast::QuantityExpr::Kind;
using WK = ast::WellItem::Kind;

namespace {

void expectClean(const Parsed &p) {
  EXPECT_FALSE(p.diags->hasErrors()) << p.messages();
}

TEST(ParseStatement, DispenseAllClauses) {
  auto p = parseStatements("dispense 100 uL of tmb into A1..H12 mix 3 x 50 uL tips per_well");
  expectClean(*p);
  const auto &d = first<ast::Dispense>(*p);
  EXPECT_EQ(d.volume.value, 100);
  EXPECT_EQ(d.volume.unit, "uL");
  EXPECT_EQ(d.source.text, "tmb");
  EXPECT_FALSE(d.sourceIsLayout);
  ASSERT_TRUE(d.wells);
  ASSERT_EQ(d.wells->items.size(), 1u);
  EXPECT_EQ(d.wells->items[0].kind, WK::Block);
  EXPECT_EQ(d.wells->items[0].a, "A1");
  EXPECT_EQ(d.wells->items[0].b, "H12");
  ASSERT_TRUE(d.mix);
  EXPECT_EQ(d.mix->count.value, 3);
  EXPECT_EQ(d.mix->count.unit, "x");
  ASSERT_TRUE(d.mix->volume);
  EXPECT_EQ(d.mix->volume->unit, "uL");
  const ast::Statement &stmt = p->instrument().statements[0];
  EXPECT_EQ(stmt.tips, ast::TipPolicy::PerWell);
  EXPECT_EQ(stmt.tipsLoc.line, 2u);
  EXPECT_EQ(stmt.tipsLoc.col, 51u);
}

TEST(ParseStatement, DispenseMinimalAndLayout) {
  auto p = parseStatements("dispense 10 uL layout\ndispense 5uL sample\n"
                           "dispense 5 uL of standard to calibrant");
  expectClean(*p);
  EXPECT_TRUE(first<ast::Dispense>(*p, 0).sourceIsLayout);
  EXPECT_FALSE(first<ast::Dispense>(*p, 0).wells);
  EXPECT_EQ(first<ast::Dispense>(*p, 1).source.text, "sample");
  EXPECT_EQ(first<ast::Dispense>(*p, 1).volume.unit, "uL");
  EXPECT_EQ(first<ast::Dispense>(*p, 2).source.text, "standard");
  EXPECT_EQ(first<ast::Dispense>(*p, 2).wells->items[0].a, "calibrant");
  EXPECT_EQ(first<ast::Dispense>(*p, 2).wells->items[0].kind, WK::Name);
}

TEST(ParseStatement, AspirateAndRemove) {
  auto p = parseStatements("aspirate 50 uL from A1, B1 to waste\nremove all from sample");
  expectClean(*p);
  const auto &a = first<ast::Aspirate>(*p, 0);
  ASSERT_TRUE(a.volume);
  EXPECT_EQ(a.volume->value, 50);
  EXPECT_TRUE(a.toWaste);
  EXPECT_EQ(a.wells.items.size(), 2u);
  const auto &r = first<ast::Aspirate>(*p, 1);
  EXPECT_FALSE(r.volume);
  EXPECT_EQ(r.allLoc.line, 3u);
  EXPECT_EQ(r.allLoc.col, 8u);
  EXPECT_FALSE(r.toWaste);
}

TEST(ParseStatement, WashForms) {
  auto p = parseStatements("wash 4 times with 300 uL of wash_buffer\n"
                           "wash 3x with 200 µL wash_buffer soak 30 s cols 1..6\n"
                           "wash 2 × with 300 uL of wb except col 1\n");
  expectClean(*p);
  const auto &w0 = first<ast::Wash>(*p, 0);
  EXPECT_EQ(w0.count.unit, "times");
  EXPECT_EQ(w0.reagent.text, "wash_buffer");
  EXPECT_FALSE(w0.soak);
  EXPECT_FALSE(w0.wells);
  const auto &w1 = first<ast::Wash>(*p, 1);
  EXPECT_EQ(w1.count.unit, "x");
  EXPECT_EQ(w1.volume.unit, "µL");
  ASSERT_TRUE(w1.soak);
  EXPECT_EQ(w1.soak->unit, "s");
  ASSERT_TRUE(w1.wells);
  EXPECT_EQ(w1.wells->items[0].kind, WK::Cols);
  const auto &w2 = first<ast::Wash>(*p, 2);
  EXPECT_EQ(w2.count.unit, "×");
  // A set that starts with `except` subtracts from `all`.
  ASSERT_TRUE(w2.wells);
  ASSERT_EQ(w2.wells->items.size(), 1u);
  EXPECT_EQ(w2.wells->items[0].kind, WK::All);
  ASSERT_EQ(w2.wells->except.size(), 1u);
  EXPECT_EQ(w2.wells->except[0].kind, WK::Col);
}

TEST(ParseStatement, IncubateOptionsInAnyOrder) {
  auto p = parseStatements("incubate 1 h at 37 °C shaking 300 rpm lid off\n"
                           "incubate 15 min dark at RT\n"
                           "incubate overnight at 4 C lid on");
  expectClean(*p);
  const auto &i0 = first<ast::Incubate>(*p, 0);
  EXPECT_EQ(i0.time.unit, "h");
  ASSERT_TRUE(i0.temperature);
  EXPECT_EQ(i0.temperature->unit, "°C");
  ASSERT_TRUE(i0.shaking);
  EXPECT_EQ(i0.shaking->unit, "rpm");
  ASSERT_TRUE(i0.lidOn);
  EXPECT_FALSE(*i0.lidOn);
  const auto &i1 = first<ast::Incubate>(*p, 1);
  EXPECT_TRUE(i1.dark);
  EXPECT_EQ(i1.temperature->kind, QK::RoomTemp);
  const auto &i2 = first<ast::Incubate>(*p, 2);
  EXPECT_EQ(i2.time.kind, QK::Overnight);
  EXPECT_TRUE(*i2.lidOn);
}

TEST(ParseStatement, IncubateClauseTwiceIsAnError) {
  auto p = parseStatements("incubate 1 h at 37 C at 25 C");
  EXPECT_EQ(p->codes(), std::vector<std::string>{"2:22 E126"});
}

TEST(ParseStatement, ShakeMixTransferMagnetWait) {
  auto p = parseStatements("shake 30 s at 300 rpm\n"
                           "mix 3 times 50 uL in A1..A12\n"
                           "transfer 20 uL from col 1 to col 2\n"
                           "magnet 2 min\n"
                           "wait 5 min");
  expectClean(*p);
  EXPECT_EQ(first<ast::Shake>(*p, 0).speed.value, 300);
  EXPECT_EQ(first<ast::Mix>(*p, 1).count.unit, "times");
  EXPECT_EQ(first<ast::Mix>(*p, 1).volume.value, 50);
  EXPECT_EQ(first<ast::Transfer>(*p, 2).from.items[0].kind, WK::Col);
  EXPECT_EQ(first<ast::Transfer>(*p, 2).to.items[0].a, "2");
  EXPECT_EQ(first<ast::Magnet>(*p, 3).time.unit, "min");
  EXPECT_EQ(first<ast::Wait>(*p, 4).time.value, 5);
}

TEST(ParseStatement, ReadAndAnalyze) {
  auto p = parseStatements("read absorbance at 450 nm reference 570 nm rows A..D\n"
                           "read fluorescence excitation 485 nm emission 520nm\n"
                           "analyze standard_curve 4pl at 450 nm subtract blank\n"
                           "analyze standard_curve linear");
  expectClean(*p);
  const auto &a = first<ast::ReadAbsorbance>(*p, 0);
  EXPECT_EQ(a.wavelength.value, 450);
  ASSERT_TRUE(a.reference);
  EXPECT_EQ(a.reference->value, 570);
  EXPECT_EQ(a.wells->items[0].kind, WK::Rows);
  EXPECT_EQ(a.wells->items[0].b, "D");
  const auto &f = first<ast::ReadFluorescence>(*p, 1);
  EXPECT_EQ(f.emission.unit, "nm");
  EXPECT_FALSE(f.wells);
  const auto &z = first<ast::Analyze>(*p, 2);
  EXPECT_EQ(z.model, ast::Analyze::Model::FourPL);
  EXPECT_TRUE(z.subtractBlank);
  const auto &l = first<ast::Analyze>(*p, 3);
  EXPECT_EQ(l.model, ast::Analyze::Model::Linear);
  EXPECT_FALSE(l.wavelength);
}

TEST(ParseStatement, StringsWithEscapes) {
  auto p = parseStatements("pause \"add \\\"stop\\\" now\"\nnote \"back\\\\slash # not a comment\"\nuse \"elisa\"");
  expectClean(*p);
  EXPECT_EQ(first<ast::Pause>(*p, 0).message, "add \"stop\" now");
  EXPECT_EQ(first<ast::Note>(*p, 1).text, "back\\slash # not a comment");
  EXPECT_EQ(first<ast::Use>(*p, 2).module, "elisa");
}

TEST(ParseStatement, UnknownEscapeIsKeptWithAWarning) {
  auto p = parseStatements("note \"a\\nb\"");
  EXPECT_EQ(p->codes(), std::vector<std::string>{"2:8 W006"});
  EXPECT_EQ(first<ast::Note>(*p, 0).text, "a\\nb");
}

TEST(ParseStatement, PrepareAndEquilibrate) {
  auto p = parseStatements("prepare wash_buffer from \"20x concentrate\" dilute 1:20 500 mL\n"
                           "prepare tmb\n"
                           "equilibrate all to room temperature for 30 min\n"
                           "equilibrate all to ambient");
  expectClean(*p);
  const auto &pr = first<ast::Prepare>(*p, 0);
  EXPECT_EQ(pr.names.first.text, "wash_buffer");
  EXPECT_EQ(*pr.from, "20x concentrate");
  EXPECT_EQ(pr.dilute->kind, QK::ColonRatio);
  EXPECT_EQ(pr.dilute->value, 20);
  EXPECT_EQ(pr.volume->unit, "mL");
  EXPECT_FALSE(first<ast::Prepare>(*p, 1).from);
  const auto &eq = first<ast::Equilibrate>(*p, 2);
  EXPECT_EQ(eq.wells.items[0].kind, WK::All);
  EXPECT_EQ(eq.temperature.kind, QK::RoomTemp);
  EXPECT_EQ(eq.temperature.text, "room temperature");
  EXPECT_EQ(eq.time->value, 30);
  EXPECT_EQ(first<ast::Equilibrate>(*p, 3).temperature.text, "ambient");
}

TEST(ParseStatement, TipPolicies) {
  auto p = parseStatements("dispense 10 uL of a tips new\n"
                           "dispense 10 uL of a tips per_source\n"
                           "aspirate all from A1 tips per_well\n"
                           "mix 2 times 10 uL in A1 tips reuse\n"
                           "wait 1 s");
  expectClean(*p);
  const auto &s = p->instrument().statements;
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].tips, ast::TipPolicy::New);
  EXPECT_EQ(s[1].tips, ast::TipPolicy::PerSource);
  EXPECT_EQ(s[2].tips, ast::TipPolicy::PerWell);
  EXPECT_EQ(s[3].tips, ast::TipPolicy::Reuse);
  EXPECT_EQ(s[4].tips, ast::TipPolicy::Default);
}

TEST(ParseStatement, StepLabels) {
  auto p = parseStatements("3. wait 1 s\n12) wait 2 s\nwait 3 s");
  expectClean(*p);
  const auto &s = p->instrument().statements;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].stepLabel, "3");
  EXPECT_EQ(s[0].loc.col, 4u);
  EXPECT_EQ(s[1].stepLabel, "12");
  EXPECT_EQ(s[1].loc.col, 5u);
  EXPECT_EQ(s[2].stepLabel, "");
}

TEST(ParseStatement, RepeatAndProcBlocks) {
  auto p = parseStatements("proc add(reagent: Reagent, vol: Volume, t: Time, w: Wells, "
                           "temp: temperature, n: Count, s: Speed, wl: Wavelength) {\n"
                           "  dispense vol of reagent to w\n"
                           "  repeat n {\n"
                           "    incubate t at temp\n"
                           "  }\n"
                           "}\n"
                           "2. repeat 3 times {\n"
                           "  add(tmb, 100 uL, 5 min, A1..A3, RT, 2, 300 rpm, 450 nm)\n"
                           "}");
  expectClean(*p);
  const auto &proc = first<ast::ProcDef>(*p, 0);
  EXPECT_EQ(proc.name.text, "add");
  ASSERT_EQ(proc.params.size(), 8u);
  EXPECT_EQ(proc.params[0].type, ast::ParamType::Reagent);
  EXPECT_EQ(proc.params[4].type, ast::ParamType::Temperature);
  EXPECT_EQ(proc.params[7].type, ast::ParamType::Wavelength);
  ASSERT_EQ(proc.body.size(), 2u);
  const auto &d = std::get<ast::Dispense>(proc.body[0].kind);
  EXPECT_EQ(d.volume.kind, QK::Param);
  EXPECT_EQ(d.volume.param, "vol");
  const auto &inner = std::get<ast::Repeat>(proc.body[1].kind);
  EXPECT_EQ(inner.count.kind, QK::Param);
  ASSERT_EQ(inner.body.size(), 1u);
  EXPECT_EQ(std::get<ast::Incubate>(inner.body[0].kind).temperature->param, "temp");

  const auto &rep = first<ast::Repeat>(*p, 1);
  EXPECT_EQ(p->instrument().statements[1].stepLabel, "2");
  EXPECT_EQ(rep.count.unit, "times");
  ASSERT_EQ(rep.body.size(), 1u);
  const auto &call = std::get<ast::Call>(rep.body[0].kind);
  EXPECT_EQ(call.callee.text, "add");
  ASSERT_EQ(call.args.size(), 8u);
  // A bare name could be a reagent or wells: both readings are offered.
  ASSERT_TRUE(call.args[0].quantity);
  EXPECT_EQ(call.args[0].quantity->param, "tmb");
  ASSERT_TRUE(call.args[0].wells);
  EXPECT_EQ(call.args[0].wells->items[0].a, "tmb");
  EXPECT_EQ(call.args[1].quantity->unit, "uL");
  EXPECT_FALSE(call.args[1].wells);
  EXPECT_EQ(call.args[3].wells->items[0].kind, WK::Block);
  EXPECT_EQ(call.args[4].quantity->kind, QK::RoomTemp);
}

TEST(ParseStatement, CallWithoutArguments) {
  auto p = parseStatements("finish()");
  expectClean(*p);
  EXPECT_TRUE(first<ast::Call>(*p).args.empty());
}

TEST(ParseStatement, UnknownParamType) {
  auto p = parseStatements("proc f(v: Volum) {\n}");
  EXPECT_EQ(p->codes(), std::vector<std::string>{"2:11 E129"});
  EXPECT_EQ(p->diags->diagnostics()[0].suggestion, "Volume");
}

TEST(ParseStatement, KeywordsAreCaseInsensitive) {
  auto p = parseStatements("DISPENSE 10 uL OF Tmb TO All TIPS NEW\nIncubate 1 H At rt Dark");
  expectClean(*p);
  const auto &d = first<ast::Dispense>(*p, 0);
  EXPECT_EQ(d.source.text, "Tmb"); // names keep their case
  EXPECT_EQ(d.wells->items[0].kind, WK::All);
  const auto &i = first<ast::Incubate>(*p, 1);
  EXPECT_EQ(i.time.unit, "H");
  EXPECT_EQ(i.temperature->kind, QK::RoomTemp);
  EXPECT_TRUE(i.dark);
}

TEST(ParseStatement, StatementLocations) {
  auto p = parseStatements("  dispense 100 uL of tmb to A1");
  expectClean(*p);
  const auto &s = p->instrument().statements[0];
  EXPECT_EQ(s.loc.line, 2u);
  EXPECT_EQ(s.loc.col, 3u);
  const auto &d = std::get<ast::Dispense>(s.kind);
  EXPECT_EQ(d.volume.loc.col, 12u);
  EXPECT_EQ(d.volume.loc.length, 6u); // `100 uL`
  EXPECT_EQ(d.volume.unitLoc.col, 16u);
  EXPECT_EQ(d.source.loc.col, 22u);
  EXPECT_EQ(d.wells->items[0].loc.col, 29u);
}

TEST(ParseStatement, ColumnsCountBytesAfterMultibyteCharacters) {
  // `µ` is two bytes: the column of `tmb` moves by one more than the
  // character count.
  auto p = parseStatements("dispense 100 µL of tmb");
  expectClean(*p);
  const auto &d = first<ast::Dispense>(*p);
  EXPECT_EQ(d.volume.unitLoc.col, 14u);
  EXPECT_EQ(d.volume.unitLoc.length, 2u);
  EXPECT_EQ(d.source.loc.col, 21u);
}

} // namespace
