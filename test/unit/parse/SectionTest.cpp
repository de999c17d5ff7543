//===- SectionTest.cpp - Tags, LAYOUT, REAGENTS, PLATFORM, the examples ---===//
#include "ParseTestUtil.h"
#include "ir/SourceManager.h"

using namespace plate;
using namespace plate::test;
using QK = ast::QuantityExpr::Kind;
using WK = ast::WellItem::Kind;

namespace {

std::string readExample(const std::string &name) {
  std::optional<std::string> text =
      readWholeFile(std::string(PLATE_SOURCE_DIR) + "/docs/examples/" + name);
  EXPECT_TRUE(text) << name << " not found";
  return text.value_or("");
}

TEST(ParseSections, BradfordExample) {
  auto p = parseText(readExample("bradford.plate"), "bradford.plate");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const ast::Script &s = p->script;
  EXPECT_EQ(*s.title, "Bradford total protein, FBS batches");
  ASSERT_TRUE(s.layout);
  EXPECT_EQ(s.layout->plateType->text, "plate96");
  ASSERT_EQ(s.layout->roles.size(), 3u);
  const ast::RoleLine &cal = s.layout->roles[1];
  EXPECT_EQ(cal.role, ast::Role::Calibrant);
  EXPECT_EQ(cal.names.first.text, "S1");
  EXPECT_EQ(cal.names.last->text, "S5");
  EXPECT_EQ(cal.conc->values, (std::vector<double>{5, 10, 15, 20, 25}));
  EXPECT_EQ(cal.conc->unit, "ug/mL");
  EXPECT_EQ(cal.replicates->value, 3);
  EXPECT_FALSE(cal.down);
  EXPECT_EQ(s.layout->roles[2].dilution->value, 100);
  ASSERT_EQ(s.reagents.size(), 1u);
  EXPECT_EQ(s.reagents[0].names.first.text, "bradford");
  ASSERT_EQ(s.sections.size(), 2u);
  EXPECT_EQ(s.sections[0].kind, ast::SectionKind::Manual);
  EXPECT_EQ(s.sections[0].statements.size(), 2u);
  EXPECT_EQ(s.sections[1].statements.size(), 6u);
  EXPECT_EQ(s.sections[1].statements[5].stepLabel, "6");
}

TEST(ParseSections, ElisaExample) {
  auto p = parseText(readExample("il6_elisa.plate"), "il6_elisa.plate");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const ast::Script &s = p->script;
  EXPECT_EQ(s.reagents.size(), 5u);
  EXPECT_FALSE(s.reagents[0].volume);
  EXPECT_EQ(s.reagents[3].flags.size(), 1u);
  EXPECT_EQ(s.reagents[3].flags[0].text, "light_sensitive");
  EXPECT_EQ(p->instrument().statements.size(), 13u);
  // The dump is deterministic and names every statement.
  std::string dump = ast::dump(s);
  EXPECT_EQ(dump, ast::dump(s));
  EXPECT_NE(dump.find("Analyze 35:5 model=4pl subtract_blank step=13"), std::string::npos)
      << dump;
}

TEST(ParseSections, TitleIsFreeText) {
  auto p = parseText("<KIT_TITLE>  IL-6: <high> sensitivity # not a comment, "
                     "\"quoted\" 5 uL </KIT_TITLE>\n<INSTRUMENT>\n</INSTRUMENT>\n");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  EXPECT_EQ(*p->script.title,
            "IL-6: <high> sensitivity # not a comment, \"quoted\" 5 uL");
}

TEST(ParseSections, PlatformAndTagsCaseInsensitive) {
  auto p = parseText("<platform>\nbioforge1\n</Platform>\n<Instrument></INSTRUMENT>");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  EXPECT_EQ(p->script.platform->text, "bioforge1");
  EXPECT_EQ(p->script.platform->loc.line, 2u);
}

TEST(ParseSections, ManualAndInstrumentAlternate) {
  auto p = parseText("<MANUAL>\nwait 1 s\n</MANUAL>\n<INSTRUMENT>\nwait 2 s\n"
                     "</INSTRUMENT>\n<MANUAL>\nwait 3 s\n</MANUAL>\n"
                     "<INSTRUMENT>wait 4 s</INSTRUMENT>\n");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  ASSERT_EQ(p->script.sections.size(), 4u);
  EXPECT_EQ(p->script.sections[2].kind, ast::SectionKind::Manual);
  EXPECT_EQ(p->script.sections[3].statements.size(), 1u);
}

TEST(ParseSections, CommentsAndBlankLinesAnywhere) {
  auto p = parseText("# header\n\n<LAYOUT> # plate\n\nplate plate96 # the plate\n"
                     "# between\n</LAYOUT>\n   # outside\n<INSTRUMENT>\n\n  # c\n"
                     "wait 1 s # trailing\n\n</INSTRUMENT>\n# end\n");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  EXPECT_EQ(p->instrument().statements.size(), 1u);
}

TEST(ParseLayout, RoleLines) {
  auto p = parseText("<LAYOUT>\nplate plate384\n"
                     "blank B0 at A1..A2\n"
                     "standard S1..S7 at B1..H2 conc 300, 150, 75, 37.5, 18.75, 9.38, 4.69 pg/mL replicates 2 down\n"
                     "sample X1..X8 at A3..H4 replicates 2 across dilution 2x\n"
                     "control QC1 at A12\n"
                     "</LAYOUT>\n<INSTRUMENT>\n</INSTRUMENT>\n");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const ast::Layout &l = *p->script.layout;
  EXPECT_EQ(l.plateType->text, "plate384");
  ASSERT_EQ(l.roles.size(), 4u);
  EXPECT_EQ(l.roles[0].role, ast::Role::Blank);
  EXPECT_FALSE(l.roles[0].names.last);
  EXPECT_EQ(l.roles[1].role, ast::Role::Calibrant); // `standard` is an alias
  EXPECT_TRUE(l.roles[1].down);
  EXPECT_EQ(l.roles[1].conc->values.size(), 7u);
  EXPECT_EQ(l.roles[1].conc->valueLocs[3].col, 46u);
  EXPECT_EQ(l.roles[2].role, ast::Role::Sample);
  EXPECT_FALSE(l.roles[2].down);
  EXPECT_EQ(l.roles[2].dilution->unit, "x");
  EXPECT_EQ(l.roles[3].role, ast::Role::Control);
  EXPECT_EQ(l.roles[3].wells->items[0].kind, WK::Well);
}

TEST(ParseLayout, GridForm) {
  auto p = parseText("<LAYOUT>\nplate plate96\n"
                     "blank B0\ncalibrant S1..S2 conc 10, 5 ng/mL\nsample X1\n"
                     "    1  2  3\n"
                     "A   B0 S1 S1\n"
                     "B   .  S2 S2\n"
                     "D   X1 .  .\n"
                     "</LAYOUT>\n<INSTRUMENT>\n</INSTRUMENT>\n");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const ast::Layout &l = *p->script.layout;
  ASSERT_EQ(l.roles.size(), 3u);
  EXPECT_FALSE(l.roles[0].wells);
  ASSERT_TRUE(l.grid);
  EXPECT_EQ(l.grid->columns, (std::vector<unsigned>{1, 2, 3}));
  EXPECT_EQ(l.grid->columnLocs[1].col, 8u);
  ASSERT_EQ(l.grid->rows.size(), 3u);
  EXPECT_EQ(l.grid->rows[2].row.text, "D");
  ASSERT_EQ(l.grid->rows[1].cells.size(), 3u);
  EXPECT_EQ(l.grid->rows[1].cells[0].text, ".");
  EXPECT_EQ(l.grid->rows[1].cells[1].text, "S2");
  EXPECT_EQ(l.grid->rows[1].cells[1].loc.col, 8u);
}

TEST(ParseLayout, GridErrors) {
  auto p = parseText("<LAYOUT>\nA B0\n1 2\n1 2\n1.5 2\n</LAYOUT>\n<INSTRUMENT>\n</INSTRUMENT>\n");
  EXPECT_EQ(p->codes(), (std::vector<std::string>{"2:1 E133", "4:1 E131", "5:1 E131"}));
}

TEST(ParseLayout, MisspeltRole) {
  auto p = parseText("<LAYOUT>\nsmaple X1 at A1\n</LAYOUT>\n<INSTRUMENT>\n</INSTRUMENT>\n");
  ASSERT_EQ(p->codes(), std::vector<std::string>{"2:1 E212"});
  EXPECT_EQ(p->diags->diagnostics()[0].suggestion, "sample");
}

TEST(ParseReagents, Forms) {
  auto p = parseText("<REAGENTS>\nwash_buffer    120 mL\n"
                     "detection_ab   12 mL   at reservoir(1,2)\n"
                     "tmb            11 mL   light_sensitive keep_cold\n"
                     "stop_solution\n"
                     "substrate at reservoir(2, 3) light_sensitive\n"
                     "</REAGENTS>\n<INSTRUMENT>\n</INSTRUMENT>\n");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  const auto &r = p->script.reagents;
  ASSERT_EQ(r.size(), 5u);
  EXPECT_TRUE(p->script.hasReagents);
  EXPECT_EQ(r[0].volume->value, 120);
  EXPECT_EQ(r[0].volume->unit, "mL");
  EXPECT_EQ(*r[1].position, (std::pair<unsigned, unsigned>{1, 2}));
  EXPECT_EQ(r[1].positionLoc.col, 24u);
  EXPECT_EQ(r[2].flags.size(), 2u);
  EXPECT_FALSE(r[3].volume);
  EXPECT_FALSE(r[4].volume);
  EXPECT_EQ(*r[4].position, (std::pair<unsigned, unsigned>{2, 3}));
}

TEST(ParseReagents, KeywordAsReagentName) {
  auto p = parseText("<REAGENTS>\nread 10 mL\n</REAGENTS>\n<INSTRUMENT>\n</INSTRUMENT>\n");
  ASSERT_EQ(p->codes(), std::vector<std::string>{"2:1 E117"});
  EXPECT_NE(p->diags->diagnostics()[0].message.find("`read` is a keyword"),
            std::string::npos)
      << p->messages();
}

// Kits call their buffers "Wash" and "Mix"; where only a liquid's name can
// stand, those two keywords are names, and they stay statement words in a
// well set (`to sample mix 3 times`).
TEST(ParseReagents, WashAndMixNameLiquids) {
  auto p = parseText("<REAGENTS>\nWash 10 mL\nmix 2 mL\n</REAGENTS>\n<INSTRUMENT>\n"
                     "wash 3 times with 300 uL of Wash\n"
                     "dispense 20 uL of mix to A1 mix 3 times 10 uL\n</INSTRUMENT>\n");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  ASSERT_EQ(p->script.reagents.size(), 2u);
  EXPECT_EQ(p->script.reagents[0].names.first.text, "Wash");
  EXPECT_EQ(p->script.reagents[1].names.first.text, "mix");
}

} // namespace

namespace {

TEST(ParseSections, CrLfLineEndings) {
  auto p = parseText("<KIT_TITLE>Title\r</KIT_TITLE>\r\n<INSTRUMENT>\r\n3. wait 1 s\r\n"
                     "repeat 2 {\r\n  wait 2 s\r\n}\r\n</INSTRUMENT>\r\n");
  ASSERT_FALSE(p->diags->hasErrors()) << p->messages();
  EXPECT_EQ(*p->script.title, "Title");
  const auto &s = p->instrument().statements;
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].loc.line, 3u);
  EXPECT_EQ(s[0].loc.col, 4u);
  EXPECT_EQ(std::get<ast::Repeat>(s[1].kind).body.size(), 1u);
}

} // namespace
