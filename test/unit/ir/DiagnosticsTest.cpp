//===- DiagnosticsTest.cpp - Engine, rendering, the code table -------------===//
#include "ir/Diagnostics.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace plate;

namespace {

TEST(Diagnostics, CodesAreUniqueAndWordedByTheRules) {
  std::set<std::string> codes;
  for (unsigned i = 0; i < static_cast<unsigned>(DiagId::NumDiagIds); ++i) {
    const DiagInfo &info = diagInfo(static_cast<DiagId>(i));
    SCOPED_TRACE(info.name);
    EXPECT_TRUE(codes.insert(info.code).second) << "duplicate code " << info.code;
    std::string_view format = info.format;
    ASSERT_FALSE(format.empty());
    EXPECT_NE(format.back(), '.') << "no trailing period";
    EXPECT_FALSE(format[0] >= 'A' && format[0] <= 'Z') << "lower case";
    EXPECT_EQ(diagInfoByCode(info.code), &info);
  }
}

TEST(Diagnostics, RendersClangStyleWithCaretAndFixit) {
  SourceManager sources;
  uint32_t file = sources.addBuffer("t.plate", "<INSTRUMENT>\n1. dispense 100 uX of tmb\n");
  DiagnosticEngine diags(sources);
  diags.report(DiagId::UnknownUnit, SourceLoc{file, 2, 17, 2}, "uX", "; expected a volume")
      .suggest("uL")
      .step("1");
  ASSERT_EQ(diags.errorCount(), 1u);
  std::string text = renderText(diags.diagnostics()[0], sources, false);
  EXPECT_EQ(text, "t.plate:2:17: error: unknown unit `uX`; expected a volume [E200]\n"
                  "    2 | 1. dispense 100 uX of tmb\n"
                  "      |                 ^~\n"
                  "      |                 uL\n");
}

TEST(Diagnostics, JsonCarriesEveryField) {
  SourceManager sources;
  uint32_t file = sources.addBuffer("t.plate", "line one\nline two\n");
  DiagnosticEngine diags(sources);
  diags.report(DiagId::UndefinedName, SourceLoc{file, 2, 6, 3}, "two", "declare it")
      .note(SourceLoc{file, 1, 1, 4}, "declared here")
      .step("4");
  nlohmann::json json = nlohmann::json::parse(renderJson(diags.diagnostics(), sources));
  ASSERT_EQ(json["diagnostics"].size(), 1u);
  const auto &d = json["diagnostics"][0];
  EXPECT_EQ(d["code"], "E202");
  EXPECT_EQ(d["severity"], "error");
  EXPECT_EQ(d["category"], "type");
  EXPECT_EQ(d["file"], "t.plate");
  EXPECT_EQ(d["line"], 2);
  EXPECT_EQ(d["column"], 6);
  EXPECT_EQ(d["step"], "4");
  EXPECT_EQ(d["notes"][0]["line"], 1);
  EXPECT_EQ(json["errors"], 1);
}

// A diagnostic with a formatted note is committed when its statement ends,
// before anything the next statement reports (clang 14 once deferred it to
// the end of the block, which reordered parse errors under the fuzz build).
TEST(Diagnostics, CommitsAtTheEndOfTheStatement) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  {
    diags.report(DiagId::UnclosedTag, SourceLoc{}, "INSTRUMENT", "INSTRUMENT")
        .note(SourceLoc{}, "the file ends after {} lines", 2);
    EXPECT_EQ(diags.diagnostics().size(), 1u);
    diags.report(DiagId::UnterminatedString, SourceLoc{});
  }
  ASSERT_EQ(diags.diagnostics().size(), 2u);
  EXPECT_EQ(diags.diagnostics()[0].id, DiagId::UnclosedTag);
  EXPECT_EQ(diags.diagnostics()[0].notes[0].message, "the file ends after 2 lines");
  EXPECT_EQ(diags.diagnostics()[1].id, DiagId::UnterminatedString);
}

TEST(Diagnostics, ErrorLimitStopsFlooding) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  diags.setErrorLimit(3);
  for (int i = 0; i < 100; ++i)
    diags.report(DiagId::StrayCharacter, SourceLoc{}, "$");
  EXPECT_EQ(diags.diagnostics().size(), 4u);
  EXPECT_EQ(diags.diagnostics().back().id, DiagId::TooManyErrors);
}

TEST(Diagnostics, DidYouMean) {
  EXPECT_EQ(closestMatch("uX", {"uL", "mL", "nm"}), "uL");
  EXPECT_EQ(closestMatch("wash_bufer", {"wash_buffer", "tmb"}), "wash_buffer");
  EXPECT_EQ(closestMatch("completely_else", {"tmb"}), "");
}

} // namespace
