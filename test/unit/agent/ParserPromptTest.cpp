//===- ParserPromptTest.cpp - The prompt teaches the whole language -------===//
//
// The Parser's prompt is generated from the grammar; the notes of
// agent/LanguageNotes.cpp say what each form means. These tests fail when
// the grammar gains a form without a note, when a note outlives its form,
// and when docs/language.md lists a statement the prompt does not have.
//
//===----------------------------------------------------------------------===//
#include "agent/LanguageNotes.h"
#include "agent/LlmClient.h"
#include "agent/ParserAgent.h"
#include "ir/Diagnostics.h"
#include "ir/Platform.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace plate::agent {
namespace {

std::string systemPrompt() {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  std::optional<Platform> platform = loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, {});
  EXPECT_TRUE(platform);
  ParserInput input;
  input.protocolText = "Add 100 uL.";
  return buildParserPrompt(*platform, input).system;
}

TEST(ParserPromptTest, FormsComeFromTheGrammar) {
  auto forms = statementForms();
  ASSERT_GE(forms.size(), 15u);
  EXPECT_EQ(forms[0].substr(0, forms[0].find("   (")),
            "dispense VOLUME [of] layout|NAMES [to|into WELLS] [mix COUNT [VOLUME]]");
  EXPECT_NE(std::find_if(forms.begin(), forms.end(),
                         [](const std::string &form) {
                           // cover, seal and adhesive strip are in the note
                           return form.starts_with("incubate TIME [at TEMPERATURE] [shaking "
                                                   "SPEED] [lid on|off] [with lid] "
                                                   "[covered|sealed|uncovered|unsealed] [dark]");
                         }),
            forms.end());
  std::string system = systemPrompt();
  ParserPrompt prompt{system, "Add 100 uL."};
  EXPECT_NE(prompt.system.find("absorbance at 405, 450, 490, 540, 570, 595, 620, 650 nm only; "
                               "no fluorescence, no luminescence"),
            std::string::npos);
  EXPECT_NE(prompt.system.find("heater: room temperature up to 70 C"), std::string::npos);
  EXPECT_NE(prompt.system.find("volume: nL"), std::string::npos);
  // Every Parser call pays for the prompt: it grew from 892 to about 1700
  // tokens when it came to teach the whole language (issue 15: notes per
  // form, assay roles and analyses, lid spellings, labels, reagents), and to
  // about 1860 when parser-seat round 6's first attempts failed on what it
  // did not say (wells start empty, a name is declared once, word step
  // labels, per-litre units), and past 1900 with the per-decilitre units
  // that round 17's reply had to convert by hand; to about 1925 when rounds
  // 24 and 28 (the whole held-out corpus) failed to compile on `Wash` as a
  // name and on stated loads below the steps' use plus the dead volume; and
  // to about 1928 when `wash` and `mix` became names (round 31); and to
  // about 1942 with a range of layout names in a well set (`Std1..Std6`,
  // round 34's reply that did not compile); and to 1945 with clock-time
  // step labels (`08:50`, round 35's reply to a run sheet); and to 1956
  // with `equilibrate all` as the plate (rounds 35 and 37: replies warmed
  // the reagents and left the plate, which the text warms too, to a note);
  // and to 2002 when rule 1 kept a step whose time or speed the text gives
  // only in words ("shake briefly", with a usual value and a comment; in
  // rounds 46-63 such a step left to a note decided 8 of the 15 texts that
  // replay as not equivalent) and
  // the wells' note said how medium already on cells comes off; and to 2007
  // with a range of layout names as a dispense source (round 72's reply);
  // and to 2016 with a list of columns after `cols` (`cols 1, 2, 5`, which
  // two of round 78's three replies wrote); and to 2020 with a list of
  // layout names and roles as a dispense source (round 79).
  EXPECT_LT(approximateTokens(prompt.system + prompt.user), 2025u);
}

TEST(ParserPromptTest, EveryFormOfTheGrammarHasANote) {
  std::set<std::string> known;
  for (std::string_view rule : notedRules())
    for (const std::string &label : alternativeLabels(rule)) {
      EXPECT_FALSE(label.empty()) << "an alternative of `" << rule << "` has no # label";
      EXPECT_TRUE(languageNotes().contains(label))
          << "grammar form `" << label << "` (rule `" << rule
          << "`) has no note in agent/LanguageNotes.cpp: say what it means to a model";
      known.insert(label);
    }
  for (const std::string &role : roleWords()) {
    EXPECT_TRUE(languageNotes().contains(role)) << "role `" << role << "` has no note";
    known.insert(role);
  }
  // A declaration rule with one form carries its note under the rule's name.
  EXPECT_TRUE(languageNotes().contains("reagentDecl")) << "REAGENTS lines have no note";
  known.insert("reagentDecl");
  for (const auto &[key, note] : languageNotes())
    EXPECT_TRUE(known.contains(std::string(key)))
        << "note `" << key << "` names no form of the grammar any more";
  EXPECT_GE(known.size(), 35u);
}

TEST(ParserPromptTest, EveryNoteReachesThePrompt) {
  std::string system = systemPrompt();
  for (const auto &[key, note] : languageNotes()) {
    if (!note.empty()) {
      EXPECT_NE(system.find(note), std::string::npos) << "note of `" << key << "` is missing";
    }
  }
  for (std::string_view needle : {"except", "A1, A3, B1..B4", "never a name", "column-major",
                                  "serial_dilution RATIO [across|down] WELLS"})
    EXPECT_NE(system.find(needle), std::string::npos) << needle;
}

// docs/language.md §7's table lists every statement a script may write
// (`| \`dispense V ...\` | ...`); each must open a form in the prompt.
TEST(ParserPromptTest, EveryStatementOfTheDocsIsInThePrompt) {
  std::ifstream in(std::string(PLATE_SOURCE_DIR) + "/docs/language.md");
  ASSERT_TRUE(in) << "docs/language.md";
  std::stringstream text;
  text << in.rdbuf();
  std::string docs = text.str();
  size_t start = docs.find("## 7. Statements");
  size_t end = docs.find("\n## 8.", start);
  ASSERT_NE(start, std::string::npos);
  std::string section = docs.substr(start, end - start);
  std::string system = systemPrompt();
  std::regex row(R"(\n\| `([a-z_]+))");
  size_t statements = 0;
  for (auto it = std::sregex_iterator(section.begin(), section.end(), row);
       it != std::sregex_iterator(); ++it) {
    std::string keyword = (*it)[1];
    ++statements;
    EXPECT_TRUE(system.find("\n" + keyword + " ") != std::string::npos ||
                system.find("\n" + keyword + "|") != std::string::npos)
        << "docs/language.md lists `" << keyword << "`, the prompt has no form for it";
  }
  EXPECT_GE(statements, 12u);
}

} // namespace
} // namespace plate::agent
