//===- ErrorTest.cpp - Syntax diagnostics E100-E134 and hostile input -----===//
#include "ParseTestUtil.h"

#include <random>

using namespace plate;
using namespace plate::test;

namespace {

using Codes = std::vector<std::string>;

const char *kInstrument = "<INSTRUMENT>\n</INSTRUMENT>\n";

TEST(ParseErrors, E100Wording) {
  auto p = parseStatements("dispense of tmb\nwash 3 times with 300 uL of\nincubate 5 min at 37 C foo\n"
                           "at 3\ndispence 5 uL of tmb\n");
  EXPECT_EQ(p->codes(),
            (Codes{"2:10 E100", "3:28 E100", "4:24 E100", "5:1 E100", "6:1 E123"}));
  const auto &d = p->diags->diagnostics();
  EXPECT_EQ(d[0].message, "unexpected `of`; expected a volume such as `100 uL`");
  EXPECT_EQ(d[1].message, "unexpected end of line; expected a name");
  EXPECT_EQ(d[2].message, "unexpected `foo`; expected end of line");
  EXPECT_EQ(d[3].message,
            "unexpected `at`; expected a statement such as `dispense`, "
            "`wash`, `incubate` or `read`");
  EXPECT_EQ(d[4].message,
            "unknown statement `dispence`; a line starts with a statement word "
            "such as `dispense`, `wash`, `incubate` or `read`, or calls a "
            "procedure `NAME(...)`; did you mean `dispense`?");
  EXPECT_EQ(d[4].suggestion, "dispense");
}

TEST(ParseErrors, E100CarriesTheStepLabel) {
  auto p = parseStatements("7. dispense 10 uL of");
  ASSERT_EQ(p->codes(), Codes{"2:21 E100"});
  EXPECT_EQ(p->diags->diagnostics()[0].step, "7");
}

TEST(ParseErrors, OneErrorPerLineAndRecoveryAtTheNextLine) {
  auto p = parseStatements("dispense of of of\nwait 5 s\nwait\nwait 6 s");
  EXPECT_EQ(p->codes(), (Codes{"2:10 E100", "4:5 E100"}));
  EXPECT_EQ(p->instrument().statements.size(), 2u);
}

TEST(ParseErrors, E101UnknownTag) {
  auto p = parseText(std::string("<LAYOTU>\nplate plate96\n</LAYOTU>\n") + kInstrument);
  EXPECT_EQ(p->codes(), Codes{"1:1 E101"});
  auto q = parseText("<INSTRUMENT>\n<b>wait 1 s</b>\n</INSTRUMENT>\n");
  EXPECT_EQ(q->codes(), (Codes{"2:1 E101", "2:12 E101"}));
  EXPECT_EQ(q->instrument().statements.size(), 1u);
}

TEST(ParseErrors, E102UnclosedTagAtTheOpeningTag) {
  auto p = parseText("<LAYOUT>\nplate plate96\n<INSTRUMENT>\nwait 1 s\n</INSTRUMENT>\n");
  ASSERT_EQ(p->codes(), Codes{"1:1 E102"});
  const Diagnostic &d = p->diags->diagnostics()[0];
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].loc.line, 3u);
  EXPECT_EQ(d.message, "section `<LAYOUT>` is never closed; add `</LAYOUT>`");
  EXPECT_EQ(p->script.layout->plateType->text, "plate96");

  auto q = parseText("<INSTRUMENT>\nwait 1 s\n");
  ASSERT_EQ(q->codes(), Codes{"1:1 E102"});
  EXPECT_EQ(q->diags->diagnostics()[0].notes[0].loc.line, 2u);

  auto t = parseText("<KIT_TITLE>never closed\n<INSTRUMENT>\n</INSTRUMENT>\n");
  ASSERT_EQ(t->codes(), Codes{"1:1 E102"});
  EXPECT_EQ(t->instrument().statements.size(), 0u);
}

TEST(ParseErrors, E103MissingInstrumentAtEndOfFile) {
  auto p = parseText("<LAYOUT>\nplate plate96\n</LAYOUT>\n");
  EXPECT_EQ(p->codes(), Codes{"3:10 E103"});
  auto empty = parseText("");
  EXPECT_EQ(empty->codes(), Codes{"1:1 E103"});
}

TEST(ParseErrors, E104TextOutsideTags) {
  auto p = parseText(std::string("wait 5 s\n") + kInstrument + "  done now\n");
  EXPECT_EQ(p->codes(), (Codes{"1:1 E104", "4:3 E104"}));
}

TEST(ParseErrors, E105SectionOrder) {
  auto p = parseText(std::string(kInstrument) + "<LAYOUT>\n</LAYOUT>\n");
  ASSERT_EQ(p->codes(), Codes{"3:1 E105"});
  EXPECT_EQ(p->diags->diagnostics()[0].message.substr(0, 40),
            "section `<LAYOUT>` after `<INSTRUMENT>`;");
}

TEST(ParseErrors, E106DuplicateSection) {
  auto p = parseText(std::string("<LAYOUT>\nplate a\n</LAYOUT>\n<LAYOUT>\nplate b\n</LAYOUT>\n") +
                     kInstrument);
  EXPECT_EQ(p->codes(), Codes{"4:1 E106"});
  EXPECT_EQ(p->script.layout->plateType->text, "a");
}

TEST(ParseErrors, E107UnterminatedString) {
  auto p = parseStatements("note \"never closed\nwait 5 s\npause \"ends in backslash\\");
  EXPECT_EQ(p->codes(), (Codes{"2:6 E107", "4:7 E107"}));
  EXPECT_EQ(p->instrument().statements.size(), 1u);
}

TEST(ParseErrors, E108StrayCharacter) {
  auto p = parseStatements("wait 5 s $\nwait 5 s\n wait 5 s @ !");
  EXPECT_EQ(p->codes(), (Codes{"2:10 E108", "4:11 E108"}));
  EXPECT_EQ(p->diags->diagnostics()[0].message, "stray character `$`");
  auto nul = parseStatements(std::string("wait 5 s\0", 9));
  ASSERT_EQ(nul->codes(), Codes{"2:9 E108"});
  EXPECT_EQ(nul->diags->diagnostics()[0].message, "stray character `U+0000`");
}

TEST(ParseErrors, E109MismatchedCloseTag) {
  auto p = parseText("<MANUAL>\nwait 5 s\n</INSTRUMENT>\n<INSTRUMENT>\n</INSTRUMENT>\n");
  ASSERT_EQ(p->codes(), Codes{"3:1 E109"});
  EXPECT_EQ(p->diags->diagnostics()[0].message,
            "closing tag `</INSTRUMENT>` inside `<MANUAL>`; close the open section first");
}

TEST(ParseErrors, E110FileTooLarge) {
  std::string text(5u << 20, 'a');
  auto p = parseText(text);
  EXPECT_EQ(p->codes(), Codes{"1:1 E110"});
}

TEST(ParseErrors, E135LineTooLong) {
  std::string text = "<INSTRUMENT>\nnote \"" + std::string(10001, 'x') + "\"\n</INSTRUMENT>\n";
  auto p = parseText(text);
  EXPECT_EQ(p->codes(), Codes{"2:1 E135"});
  // 10000 characters (not bytes) is fine: `µ` is two bytes.
  std::string ok = "<INSTRUMENT>\nnote \"";
  for (int i = 0; i < 4000; ++i)
    ok += "µ";
  ok += "\"\n</INSTRUMENT>\n";
  EXPECT_FALSE(parseText(ok)->diags->hasErrors());
}

TEST(ParseErrors, E136NestingTooDeep) {
  std::string text;
  for (int i = 0; i < 40; ++i)
    text += "repeat 2 {\n";
  text += "wait 1 s\n";
  for (int i = 0; i < 40; ++i)
    text += "}\n";
  auto p = parseStatements(text);
  // The 33rd `{` is on line 34 (the section tag is line 1), column 10.
  EXPECT_EQ(p->codes(), Codes{"34:10 E136"});
}

TEST(ParseErrors, NestingAtTheLimitIsFine) {
  std::string text;
  for (int i = 0; i < 32; ++i)
    text += "repeat 2 {\n";
  for (int i = 0; i < 32; ++i)
    text += "}\n";
  EXPECT_FALSE(parseStatements(text)->diags->hasErrors());
}

TEST(ParseErrors, E111InvalidUtf8) {
  auto p = parseStatements("wait 5 s\nnote \"caf\xe9\"");
  ASSERT_EQ(p->codes(), Codes{"3:10 E111"});
  EXPECT_EQ(p->diags->diagnostics()[0].message,
            "invalid UTF-8 byte 0xe9; scripts are UTF-8 text");
  // Overlong encodings and surrogates are invalid too.
  EXPECT_EQ(parseStatements("note \"\xc0\xaf\"")->codes(), Codes{"2:7 E111"});
  EXPECT_EQ(parseStatements("note \"\xed\xa0\x80\"")->codes(), Codes{"2:7 E111"});
}

TEST(ParseErrors, E112UnclosedBrace) {
  auto p = parseStatements("proc f() {\n  repeat 2 {\n    wait 1 s\n  }\n");
  ASSERT_EQ(p->codes(), Codes{"2:10 E112"});
  EXPECT_EQ(p->diags->diagnostics()[0].message,
            "`{` of `proc f` is never closed; add a line with `}`");
  auto q = parseStatements("}\n");
  EXPECT_EQ(q->codes(), Codes{"2:1 E124"});
}

TEST(ParseErrors, BadHeaderKeepsBlocksBalanced) {
  // The header has an error; its `}` must not be reported as unmatched.
  auto p = parseStatements("repeat {\n  wait 1 s\n}\nwait 2 s");
  EXPECT_EQ(p->codes(), Codes{"2:8 E100"});
  EXPECT_EQ(p->instrument().statements.size(), 1u);
}

TEST(ParseErrors, E113TooManyErrors) {
  SourceManager sources;
  std::string text = "<INSTRUMENT>\n";
  for (int i = 0; i < 80; ++i)
    text += "wait\n";
  text += "</INSTRUMENT>\n";
  uint32_t id = sources.addBuffer("many.plate", text);
  DiagnosticEngine diags(sources);
  parseScript(sources, id, diags);
  ASSERT_EQ(diags.diagnostics().size(), 51u);
  EXPECT_EQ(diagInfo(diags.diagnostics().back().id).code, std::string("E113"));
}

//===----------------------------------------------------------------------===//
// Hostile input: a diagnostic, never a crash or a hang.
//===----------------------------------------------------------------------===//

TEST(ParseHostile, BinaryGarbage) {
  std::mt19937 rng(42);
  for (int round = 0; round < 20; ++round) {
    std::string text(4096, '\0');
    for (char &c : text)
      c = static_cast<char>(rng() & 0xFF);
    auto p = parseText(text);
    EXPECT_TRUE(p->diags->hasErrors());
  }
}

TEST(ParseHostile, ValidUtf8Garbage) {
  // Random picks from the language's own pieces: exercises every rule's
  // error path without an invalid byte.
  const char *pieces[] = {"<INSTRUMENT>", "</INSTRUMENT>", "<LAYOUT>", "</LAYOUT>",
                          "<KIT_TITLE>", "</KIT_TITLE>", "dispense", "10", "uL",
                          "of", "A1", "..", "H12", ",", "\n", "{", "}", "repeat",
                          "proc", "(", ")", ":", "\"", "µ", "°C", "#", "except",
                          "row", "x", "1:2", "tips", "new", "  ", "\t", "\r\n",
                          "sample", "plate", "reservoir", "conc", "at", "\x01"};
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    for (int i = 0; i < 200; ++i)
      text += pieces[rng() % std::size(pieces)];
    text += (round % 2) ? " " : "\n";
    auto p = parseText(text);
    (void)ast::dump(p->script);
    SUCCEED();
  }
}

TEST(ParseHostile, TenMegabyteLine) {
  std::string text = "<INSTRUMENT>\n" + std::string(10u << 20, 'w') + "\n</INSTRUMENT>\n";
  auto p = parseText(text);
  EXPECT_EQ(p->codes(), Codes{"1:1 E110"});
}

TEST(ParseHostile, DeepNesting) {
  std::string text = "<INSTRUMENT>\n";
  for (int i = 0; i < 20000; ++i)
    text += "repeat 1 {\n";
  text += "</INSTRUMENT>\n";
  auto p = parseText(text);
  ASSERT_TRUE(p->diags->hasErrors());
  EXPECT_EQ(p->codes().front(), "34:10 E136");
}

TEST(ParseHostile, DeepParenthesesOnOneLine) {
  auto p = parseStatements("f" + std::string(4000, '(') + std::string(4000, ')'));
  EXPECT_EQ(p->codes(), Codes{"2:3 E100"});
}

TEST(ParseHostile, OnlyCommentsOrBlanks) {
  EXPECT_EQ(parseText("# nothing\n\n   \n")->codes(), Codes{"3:4 E103"});
  EXPECT_EQ(parseText("\n\n\n")->codes(), Codes{"1:1 E103"});
}

} // namespace
