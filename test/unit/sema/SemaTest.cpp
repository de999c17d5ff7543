//===- SemaTest.cpp - Sema and IRGen on hand-built ASTs -------------------===//
#include "SemaTestUtil.h"

#include "frontend/LayoutCsv.h"

using namespace plate;
using plate::test::SemaTest;
using K = plate::ast::WellItem::Kind;

namespace {

TEST_F(SemaTest, BasicScriptBuildsLiquidsAndOps) {
  ast::Script script = basic();
  body(script).push_back(stmt(dispense(10, "layout", at(11)), at(11), "1"));
  body(script).push_back(stmt(dispense(100, "buf", at(12)), at(12), "2"));
  ast::Incubate inc;
  inc.time = q(30, "min", at(13));
  body(script).push_back(stmt(inc, at(13), "3"));
  ast::ReadAbsorbance read;
  read.wavelength = q(450, "nm", at(14));
  body(script).push_back(stmt(read, at(14), "4"));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  const ir::Module &m = program->module;
  EXPECT_EQ(m.plateType, "plate96");
  EXPECT_EQ(m.shape.rows, 8u);
  EXPECT_EQ(liquid(m, "B0")->wells.str(), "A1..A2");
  EXPECT_EQ(liquid(m, "X1")->wells.str(), "A3");
  EXPECT_EQ(liquid(m, "X4")->wells.str(), "D3");
  ASSERT_EQ(m.ops.size(), 4u);
  const auto *layoutDispense = m.ops[0].as<ir::DispenseOp>();
  ASSERT_TRUE(layoutDispense);
  EXPECT_EQ(layoutDispense->portions.size(), 5u); // B0 + X1..X4
  EXPECT_EQ(layoutDispense->tips, ir::TipPolicy::New);
  const auto *reagentDispense = m.ops[1].as<ir::DispenseOp>();
  ASSERT_TRUE(reagentDispense);
  EXPECT_EQ(reagentDispense->tips, ir::TipPolicy::PerSource);
  EXPECT_EQ(reagentDispense->portions.front().wells.str(), "A1..A3,B3..D3");
  EXPECT_EQ(reagentDispense->volume, (Quantity{100, Unit::MicroLiter}));
  const auto *incubate = m.ops[2].as<ir::IncubateOp>();
  ASSERT_TRUE(incubate);
  EXPECT_EQ(incubate->temperature.unit, Unit::Ambient);
  EXPECT_TRUE(incubate->lidOn);
  EXPECT_EQ(incubate->time, (Quantity{30, Unit::Minute}));
  EXPECT_EQ(m.ops[3].as<ir::ReadAbsorbanceOp>()->wells.size(), 6u);
  EXPECT_EQ(m.ops[3].step, "4");
  EXPECT_EQ(m.ops[3].loc.line, 14u);
  EXPECT_TRUE(liquid(m, "buf")->pipettedByInstrument);
  EXPECT_TRUE(liquid(m, "X1")->pipettedByInstrument);
}

TEST_F(SemaTest, ManualStepsAreKeptAndDoNotNeedAReservoir) {
  ast::Script script = basic();
  script.sections.insert(script.sections.begin(),
                         ast::Section{ast::SectionKind::Manual, at(8), {}});
  script.sections.front().statements.push_back(
      stmt(dispense(50, "buf", at(9)), at(9)));
  body(script).push_back(stmt(ast::Note{"hello"}, at(11)));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  EXPECT_TRUE(program->module.ops[0].manual);
  EXPECT_FALSE(program->module.ops[1].manual);
  EXPECT_FALSE(liquid(program->module, "buf")->pipettedByInstrument);
}

//===--- Quantities ----------------------------------------------------------===//

TEST_F(SemaTest, WrongDimensionE201) {
  ast::Script script = basic();
  ast::Incubate inc;
  inc.time = q(100, "uL", at(11, 10));
  body(script).push_back(stmt(inc, at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E201", 11, 10)) << all();
  EXPECT_NE(find("E201")->message.find("volume"), std::string::npos);
  EXPECT_NE(find("E201")->message.find("time"), std::string::npos);
}

TEST_F(SemaTest, UnknownUnitE200SuggestsASpelling) {
  ast::Script script = basic();
  body(script).push_back(stmt(dispense(10, "buf", at(11)), at(11)));
  std::get<ast::Dispense>(body(script).back().kind).volume.unit = "uLL";
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E200", 11, 5)) << all();
  EXPECT_EQ(find("E200")->suggestion, "uL");
}

TEST_F(SemaTest, MissingUnitE210) {
  ast::Script script = basic();
  ast::Wait wait;
  wait.time = q(5, "", at(11, 6));
  body(script).push_back(stmt(wait, at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E210", 11, 6)) << all();
}

TEST_F(SemaTest, CountMustBeWholeE211) {
  ast::Script script = basic();
  ast::Wash wash;
  wash.count = q(2.5, "x", at(11, 6));
  wash.volume = q(300, "uL", at(11, 12));
  wash.reagent = {"buf", at(11, 25)};
  body(script).push_back(stmt(wash, at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E211", 11, 6)) << all();
}

TEST_F(SemaTest, NonPositiveVolumeE400) {
  ast::Script script = basic();
  body(script).push_back(stmt(dispense(0, "buf", at(11, 10)), at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E400", 11, 10)) << all();
}

TEST_F(SemaTest, RatiosAndCountsFromX) {
  ast::Script script = basic();
  script.layout->roles[1].dilution = q(20, "x", at(4, 30));
  ast::Wash wash;
  wash.count = q(3, "x", at(11, 6));
  wash.volume = q(300, "uL", at(11, 12));
  wash.reagent = {"buf", at(11, 25)};
  body(script).push_back(stmt(wash, at(11)));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  EXPECT_EQ(*liquid(program->module, "X2")->dilution, 20);
  EXPECT_EQ(program->module.ops[0].as<ir::WashOp>()->cycles, 3u);
  EXPECT_EQ(program->module.ops[0].as<ir::WashOp>()->wells.size(), 6u);
}

TEST_F(SemaTest, DilutionNotAboveOneE402) {
  ast::Script script = basic();
  script.layout->roles[1].dilution = ratio(1, at(4, 30));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E402", 4, 30)) << all();
}

TEST_F(SemaTest, DarkWithLidOffE405) {
  ast::Script script = basic();
  ast::Incubate inc;
  inc.time = q(1, "h", at(11, 10));
  inc.lidOn = false;
  inc.lidLoc = at(11, 20);
  inc.dark = true;
  body(script).push_back(stmt(inc, at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E405", 11, 20)) << all();
}

//===--- Names -------------------------------------------------------------===//

TEST_F(SemaTest, UndefinedReagentE202WithSuggestion) {
  ast::Script script = basic();
  body(script).push_back(stmt(dispense(10, "bufx", at(11, 15)), at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E202", 11, 15)) << all();
  EXPECT_EQ(find("E202")->suggestion, "buf");
}

TEST_F(SemaTest, DuplicateNameE203NotesTheFirst) {
  ast::Script script = basic();
  script.reagents.push_back(reagent("buf", at(7, 1)));
  EXPECT_FALSE(check(script));
  ASSERT_TRUE(reported("E203", 7, 1)) << all();
  ASSERT_EQ(find("E203")->notes.size(), 1u);
  EXPECT_EQ(find("E203")->notes[0].loc.line, 6u);
}

TEST_F(SemaTest, ALayoutNameUnderReagentsGivesItsLoading) {
  ast::Script script = basic();
  script.reagents.push_back(reagent("X2", at(7, 1)));
  EXPECT_TRUE(check(script)) << all();
  EXPECT_FALSE(reported("E203", 7, 1)) << all();
}

TEST_F(SemaTest, WrongKindE204) {
  ast::Script script = basic();
  ast::Wash wash;
  wash.count = q(3, "x", at(11, 6));
  wash.volume = q(300, "uL", at(11, 12));
  wash.reagent = {"X1", at(11, 25)};
  body(script).push_back(stmt(wash, at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E204", 11, 25)) << all();
}

TEST_F(SemaTest, UnknownPlateTypeE209) {
  ast::Script script = basic();
  script.layout->plateType = ast::Name{"plate69", at(2, 7)};
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E209", 2, 7)) << all();
  EXPECT_EQ(find("E209")->suggestion, "plate96");
}

TEST_F(SemaTest, ManualOnlyE214) {
  ast::Script script = basic();
  ast::Prepare prepare;
  prepare.names.first = {"buf", at(11, 9)};
  body(script).push_back(stmt(prepare, at(11, 4)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E214", 11, 4)) << all();
}

TEST_F(SemaTest, ReservoirPositionsE313E314) {
  ast::Script script = basic();
  script.reagents[0].position = {{4, 1}};
  script.reagents[0].positionLoc = at(6, 10);
  script.reagents.push_back(reagent("a", at(7)));
  script.reagents.back().position = {{1, 1}};
  script.reagents.push_back(reagent("b", at(8)));
  script.reagents.back().position = {{1, 1}};
  script.reagents.back().positionLoc = at(8, 10);
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E313", 6, 10)) << all();
  EXPECT_TRUE(reported("E314", 8, 10)) << all();
}

TEST_F(SemaTest, TipsReuseWarnsOnce) {
  ast::Script script = basic();
  for (unsigned line : {11u, 12u}) {
    body(script).push_back(stmt(dispense(10, "buf", at(line)), at(line)));
    body(script).back().tips = ast::TipPolicy::Reuse;
    body(script).back().tipsLoc = at(line, 30);
  }
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  EXPECT_EQ(diags.warningCount(), 1u);
  EXPECT_TRUE(reported("W002", 11, 30));
  EXPECT_TRUE(program->module.ops[1].tipsReuse);
  EXPECT_EQ(program->module.ops[1].as<ir::DispenseOp>()->tips, ir::TipPolicy::Reuse);
}

TEST_F(SemaTest, DispenseWithMixUsesPerWellTips) {
  ast::Script script = basic();
  ast::Dispense d = dispense(50, "buf", at(11));
  d.mix = ast::MixClause{at(11, 20), q(3, "x", at(11, 24)), std::nullopt};
  body(script).push_back(stmt(d, at(11)));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  const auto *op = program->module.ops[0].as<ir::DispenseOp>();
  EXPECT_EQ(op->tips, ir::TipPolicy::PerWell);
  ASSERT_TRUE(op->mix);
  EXPECT_EQ(op->mix->cycles, 3u);
}

//===--- Well sets ---------------------------------------------------------===//

TEST_F(SemaTest, WellOutsidePlateE300) {
  ast::Script script = basic();
  body(script).push_back(stmt(dispense(10, "buf", at(11), block("A1", "P24", at(11, 20))),
                              at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E300", 11, 20)) << all();
  EXPECT_NE(find("E300")->message.find("A1..H12"), std::string::npos);
}

TEST_F(SemaTest, NoLayoutE303) {
  ast::Script script = basic();
  script.layout.reset();
  body(script).push_back(stmt(dispense(10, "buf", at(11)), at(11, 4)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E303", 11, 4)) << all();
}

TEST_F(SemaTest, TransferPairsColumnMajorAndChecksSizesE304) {
  ast::Script script = basic();
  ast::Transfer ok;
  ok.volume = q(20, "uL", at(11));
  ok.from = block("A3", "B3", at(11, 10));
  ok.to = block("A5", "B5", at(11, 20));
  body(script).push_back(stmt(ok, at(11)));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  const auto *op = program->module.ops[0].as<ir::TransferOp>();
  ASSERT_EQ(op->pairs.size(), 2u);
  EXPECT_EQ(op->pairs[1].first.name(), "B3");
  EXPECT_EQ(op->pairs[1].second.name(), "B5");

  ast::Transfer bad = ok;
  bad.to = block("A5", "C5", at(12, 20));
  body(script).push_back(stmt(bad, at(12, 4)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E304", 12, 4)) << all();
}

TEST_F(SemaTest, ExceptRemovesAllE340AndRowsColsE308E309) {
  ast::Script script = basic();
  ast::Aspirate a;
  a.wells = ws({item(K::Block, at(11, 20), "A1", "A2")}, at(11, 20),
               {item(K::Row, at(11, 35), "A")});
  body(script).push_back(stmt(a, at(11)));
  ast::Aspirate b;
  b.wells = ws({item(K::Row, at(12, 20), "J")}, at(12, 20));
  body(script).push_back(stmt(b, at(12)));
  ast::Aspirate c;
  c.wells = ws({item(K::Cols, at(13, 20), "1", "13")}, at(13, 20));
  body(script).push_back(stmt(c, at(13)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E340", 11, 20)) << all();
  EXPECT_TRUE(reported("E308", 12, 20)) << all();
  EXPECT_TRUE(reported("E309", 13, 20)) << all();
}

TEST_F(SemaTest, RolesNamesAndExcept) {
  ast::Script script = basic();
  ast::Aspirate a;
  a.wells = ws({item(K::Name, at(11), "sample")}, at(11),
               {item(K::Name, at(11), "X2")});
  body(script).push_back(stmt(a, at(11)));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  EXPECT_EQ(program->module.ops[0].as<ir::AspirateOp>()->wells.str(), "A3,C3..D3");
}

TEST_F(SemaTest, LayoutDispenseToForeignWellsE312) {
  ast::Script script = basic();
  body(script).push_back(
      stmt(dispense(10, "sample", at(11), block("A3", "A5", at(11, 20))), at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E312", 11, 20)) << all();
}

//===--- Layout --------------------------------------------------------------===//

TEST_F(SemaTest, FillCountMismatchE301) {
  ast::Script script = basic();
  script.layout->roles[1].wells = block("A3", "H3", at(4, 10));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E301", 4, 10)) << all();
  EXPECT_NE(find("E301")->message.find("has 8"), std::string::npos);
}

TEST_F(SemaTest, WellClaimedTwiceE302) {
  ast::Script script = basic();
  script.layout->roles.push_back(
      role(ast::Role::Control, "QC", "", block("A2", "A2", at(5, 12)), at(5)));
  EXPECT_FALSE(check(script));
  ASSERT_TRUE(reported("E302", 5, 12)) << all();
  EXPECT_EQ(find("E302")->notes.at(0).loc.line, 3u);
}

TEST_F(SemaTest, ReplicatesDoNotFitE306) {
  ast::Script script = basic();
  script.layout->roles[1] =
      role(ast::Role::Sample, "X1", "X3", block("A3", "B5", at(4, 10)), at(4));
  script.layout->roles[1].replicates = q(2, "", at(4, 30));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E306", 4, 10)) << all();
}

TEST_F(SemaTest, ConcCountE307AndCalibrantsE401) {
  ast::Script script = basic();
  auto cal = role(ast::Role::Calibrant, "S1", "S2", block("A5", "B5", at(5, 10)), at(5));
  cal.conc = ast::ConcList{at(5, 20), {1, 2, 3}, {}, "ng/mL", at(5, 30)};
  script.layout->roles.push_back(cal);
  auto cal2 = role(ast::Role::Calibrant, "T1", "", block("A6", "A6", at(6, 10)), at(6, 3));
  script.layout->roles.push_back(cal2);
  body(script).push_back(stmt(ast::Analyze{}, at(11)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E307", 5, 20)) << all();
  EXPECT_TRUE(reported("E401", 6, 3)) << all();
}

TEST_F(SemaTest, AnalyzeNeedsCalibrantsE404) {
  ast::Script script = basic();
  body(script).push_back(stmt(ast::Analyze{}, at(11, 4)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E404", 11, 4)) << all();
}

TEST_F(SemaTest, ConcentrationsAreKeptPerName) {
  ast::Script script = basic();
  auto cal = role(ast::Role::Calibrant, "S1", "S2", block("A5", "B5", at(5, 10)), at(5));
  cal.conc = ast::ConcList{at(5, 20), {300, 150}, {}, "pg/mL", at(5, 30)};
  script.layout->roles.push_back(cal);
  ast::ReadAbsorbance read; // the analysis needs its read (E406)
  read.wavelength = q(450, "nm", at(10));
  body(script).push_back(stmt(read, at(10)));
  ast::Analyze analyze;
  analyze.subtractBlank = true;
  body(script).push_back(stmt(analyze, at(11)));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  EXPECT_EQ(*liquid(program->module, "S2")->concentration,
            (Quantity{150, Unit::PicogramPerMl}));
  EXPECT_EQ(liquid(program->module, "S2")->wells.str(), "B5");
}

TEST_F(SemaTest, GridPlacesNamesDeclaredWithoutAt) {
  ast::Script script = basic();
  script.layout->roles.push_back(role(ast::Role::Control, "QC1", "", std::nullopt, at(5)));
  script.layout->roles.push_back(role(ast::Role::Control, "QC2", "", std::nullopt, at(5, 20)));
  ast::Grid grid;
  grid.loc = at(7);
  grid.columns = {11, 12};
  grid.columnLocs = {at(7, 3), at(7, 6)};
  grid.rows.push_back({{"A", at(8)}, {{"QC1", at(8, 3)}, {"QC2", at(8, 7)}}});
  grid.rows.push_back({{"B", at(9)}, {{".", at(9, 3)}, {"QC1", at(9, 7)}}});
  script.layout->grid = grid;
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  EXPECT_EQ(liquid(program->module, "QC1")->wells.str(), "A11,B12");
  EXPECT_EQ(liquid(program->module, "QC2")->wells.str(), "A12");
}

TEST_F(SemaTest, GridShapeE310AndUnplacedE311) {
  ast::Script script = basic();
  script.layout->roles.push_back(role(ast::Role::Control, "QC1", "", std::nullopt, at(5)));
  script.layout->roles.push_back(role(ast::Role::Control, "QC2", "", std::nullopt, at(6, 2)));
  ast::Grid grid;
  grid.loc = at(7);
  grid.columns = {11, 12};
  grid.columnLocs = {at(7, 3), at(7, 6)};
  grid.rows.push_back({{"A", at(8, 1)}, {{"QC1", at(8, 3)}}});
  grid.rows.push_back({{"B", at(9, 1)}, {{"QC1", at(9, 3)}, {".", at(9, 7)}}});
  script.layout->grid = grid;
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E310", 8, 1)) << all();
  EXPECT_TRUE(reported("E311", 6, 2)) << all();
}

TEST_F(SemaTest, LayoutCsvPointsIntoTheCsv) {
  ast::Script script = basic();
  script.layout->roles.push_back(role(ast::Role::Control, "QC1", "", std::nullopt, at(5)));
  uint32_t csv = sources.addBuffer("plate.csv", ",11,12\nA,QC1,\nB,,QC9\n");
  auto grid = parseLayoutCsv(sources, csv, diags);
  ASSERT_TRUE(grid);
  EXPECT_EQ(grid->columns, (std::vector<unsigned>{11, 12}));
  ASSERT_EQ(grid->rows.size(), 2u);
  EXPECT_EQ(grid->rows[1].cells[1].text, "QC9");
  EXPECT_EQ(grid->rows[1].cells[1].loc.line, 3u);
  EXPECT_EQ(grid->rows[1].cells[1].loc.col, 4u);
  EXPECT_EQ(grid->rows[0].cells[1].text, ".");
}

//===--- Procedures and repeat ---------------------------------------------===//

ast::ProcDef makeProc(SemaTest *, std::string name, std::vector<ast::Param> params,
                      std::vector<ast::Statement> body, SourceLoc loc) {
  ast::ProcDef def;
  def.name = {std::move(name), loc};
  def.params = std::move(params);
  def.body = std::move(body);
  return def;
}

TEST_F(SemaTest, CallsExpandWithBodyLocAndCallSiteStep) {
  ast::Script script = basic();
  ast::Dispense d = dispense(0, "r", at(12));
  d.volume = p("v", at(12, 12));
  d.source = {"r", at(12, 17)};
  ast::Incubate inc;
  inc.time = p("t", at(13, 12));
  auto def = makeProc(this, "add",
                      {{{"r", at(11, 10)}, ast::ParamType::Reagent, at(11, 13)},
                       {{"v", at(11, 22)}, ast::ParamType::Volume, at(11, 25)},
                       {{"t", at(11, 33)}, ast::ParamType::Time, at(11, 36)}},
                      {stmt(d, at(12, 3)), stmt(inc, at(13, 3))}, at(11, 6));
  body(script).push_back(stmt(def, at(11)));
  ast::Call call;
  call.callee = {"add", at(15, 4)};
  call.args.push_back({at(15, 8), p("buf", at(15, 8)), std::nullopt});
  call.args.push_back({at(15, 13), q(50, "uL", at(15, 13)), std::nullopt});
  call.args.push_back({at(15, 20), q(1, "h", at(15, 20)), std::nullopt});
  body(script).push_back(stmt(call, at(15, 4), "7"));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  const auto &ops = program->module.ops;
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].loc.line, 12u);
  EXPECT_EQ(ops[0].step, "7");
  EXPECT_EQ(ops[0].as<ir::DispenseOp>()->volume, (Quantity{50, Unit::MicroLiter}));
  EXPECT_EQ(ops[1].loc.line, 13u);
  EXPECT_EQ(ops[1].as<ir::IncubateOp>()->time, (Quantity{1, Unit::Hour}));
}

TEST_F(SemaTest, CallChecksArityAndTypesE205E201) {
  ast::Script script = basic();
  ast::Wait wait;
  wait.time = p("t", at(12, 8));
  auto def = makeProc(this, "pause_for",
                      {{{"t", at(11, 16)}, ast::ParamType::Time, at(11, 19)}},
                      {stmt(wait, at(12, 3))}, at(11, 6));
  body(script).push_back(stmt(def, at(11)));
  ast::Call arity;
  arity.callee = {"pause_for", at(14, 1)};
  body(script).push_back(stmt(arity, at(14)));
  ast::Call type;
  type.callee = {"pause_for", at(15, 1)};
  type.args.push_back({at(15, 11), q(5, "uL", at(15, 11)), std::nullopt});
  body(script).push_back(stmt(type, at(15)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E205", 14, 1)) << all();
  EXPECT_TRUE(reported("E201", 15, 11)) << all();
}

TEST_F(SemaTest, MutualRecursionE206) {
  ast::Script script = basic();
  ast::Call callG, callF;
  callG.callee = {"g", at(12, 3)};
  callF.callee = {"f", at(15, 3)};
  body(script).push_back(stmt(makeProc(this, "f", {}, {stmt(callG, at(12, 3))}, at(11, 6)),
                              at(11)));
  body(script).push_back(stmt(makeProc(this, "g", {}, {stmt(callF, at(15, 3))}, at(14, 6)),
                              at(14)));
  ast::Call top;
  top.callee = {"f", at(17, 1)};
  body(script).push_back(stmt(top, at(17)));
  EXPECT_FALSE(check(script));
  const Diagnostic *d = find("E206");
  ASSERT_TRUE(d) << all();
  EXPECT_EQ(d->loc.line, 15u);
  EXPECT_NE(d->message.find("`f` -> `g` -> `f`"), std::string::npos) << d->message;
}

TEST_F(SemaTest, ProcDefinedTwiceE213AndCallBeforeDefinitionE224) {
  ast::Script script = basic();
  ast::Call early;
  early.callee = {"f", at(11, 1)};
  body(script).push_back(stmt(early, at(11)));
  body(script).push_back(stmt(makeProc(this, "f", {}, {stmt(ast::Note{"x"}, at(13))}, at(12, 6)),
                              at(12)));
  body(script).push_back(stmt(makeProc(this, "f", {}, {stmt(ast::Note{"y"}, at(15))}, at(14, 6)),
                              at(14)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E224", 11, 1)) << all();
  EXPECT_TRUE(reported("E213", 14, 6)) << all();
}

TEST_F(SemaTest, RepeatExpandsAndIsBounded) {
  ast::Script script = basic();
  ast::Repeat repeat;
  repeat.count = q(3, "", at(11, 8));
  ast::Wait wait;
  wait.time = q(1, "min", at(12));
  repeat.body.push_back(stmt(wait, at(12, 3)));
  repeat.body.push_back(stmt(ast::Note{"n"}, at(13, 3)));
  body(script).push_back(stmt(repeat, at(11), "5"));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  ASSERT_EQ(program->module.ops.size(), 6u);
  EXPECT_EQ(program->module.ops[4].loc.line, 12u);
  EXPECT_EQ(program->module.ops[4].step, "5");

  ast::Repeat outer;
  outer.count = q(200, "", at(20, 8));
  ast::Repeat inner;
  inner.count = q(100, "", at(21, 10));
  inner.body.push_back(stmt(ast::Note{"n"}, at(22)));
  outer.body.push_back(stmt(inner, at(21)));
  body(script).push_back(stmt(outer, at(20)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E403", 20)) << all();
}

TEST_F(SemaTest, RepeatCountFromAParameter) {
  ast::Script script = basic();
  ast::Repeat repeat;
  repeat.count = p("n", at(12, 10));
  repeat.body.push_back(stmt(ast::Note{"n"}, at(13)));
  auto def = makeProc(this, "times",
                      {{{"n", at(11, 12)}, ast::ParamType::Count, at(11, 15)}},
                      {stmt(repeat, at(12))}, at(11, 6));
  body(script).push_back(stmt(def, at(11)));
  ast::Call call;
  call.callee = {"times", at(15)};
  call.args.push_back({at(15, 7), q(4, "", at(15, 7)), std::nullopt});
  body(script).push_back(stmt(call, at(15)));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  EXPECT_EQ(program->module.ops.size(), 4u);
}

TEST_F(SemaTest, NestedProcE216AndUnknownModuleE207) {
  ast::Script script = basic();
  ast::Repeat repeat;
  repeat.count = q(2, "", at(11, 8));
  repeat.body.push_back(stmt(makeProc(this, "inner", {}, {}, at(12, 8)), at(12)));
  body(script).push_back(stmt(repeat, at(11)));
  body(script).push_back(stmt(ast::Use{"elisaa", at(14, 5)}, at(14, 1)));
  EXPECT_FALSE(check(script));
  EXPECT_TRUE(reported("E216", 12, 8)) << all();
  EXPECT_TRUE(reported("E207", 14, 1)) << all();
}

TEST_F(SemaTest, ErrorInProcBodyIsReportedOnce) {
  ast::Script script = basic();
  ast::Wait wait;
  wait.time = q(5, "uL", at(12, 8));
  body(script).push_back(
      stmt(makeProc(this, "bad", {}, {stmt(wait, at(12, 3))}, at(11, 6)), at(11)));
  for (unsigned line : {14u, 15u}) {
    ast::Call call;
    call.callee = {"bad", at(line)};
    body(script).push_back(stmt(call, at(line)));
  }
  EXPECT_FALSE(check(script));
  EXPECT_EQ(diags.errorCount(), 1u) << all();
  EXPECT_TRUE(reported("E201", 12, 8));
}

TEST_F(SemaTest, WellsParameterAndExpansionErrorsNoteTheCall) {
  ast::Script script = basic();
  ast::Transfer t;
  t.volume = q(10, "uL", at(12));
  t.from = named("src", at(12, 20));
  t.to = block("A5", "B5", at(12, 30));
  auto def = makeProc(this, "move",
                      {{{"src", at(11, 10)}, ast::ParamType::Wells, at(11, 15)}},
                      {stmt(t, at(12, 3))}, at(11, 6));
  body(script).push_back(stmt(def, at(11)));
  ast::Call good;
  good.callee = {"move", at(14)};
  good.args.push_back({at(14, 6), std::nullopt, block("A3", "B3", at(14, 6))});
  body(script).push_back(stmt(good, at(14)));
  auto program = check(script);
  ASSERT_TRUE(program) << all();
  EXPECT_EQ(program->module.ops[0].as<ir::TransferOp>()->pairs.size(), 2u);

  ast::Call bad;
  bad.callee = {"move", at(15, 1)};
  bad.args.push_back({at(15, 6), std::nullopt, named("sample", at(15, 6))});
  body(script).push_back(stmt(bad, at(15)));
  EXPECT_FALSE(check(script));
  const Diagnostic *d = find("E304");
  ASSERT_TRUE(d) << all();
  EXPECT_EQ(d->loc.line, 12u);
  ASSERT_FALSE(d->notes.empty());
  EXPECT_EQ(d->notes.back().loc.line, 15u);
}

} // namespace
