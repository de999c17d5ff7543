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
  diags.report(DiagId::UnknownUnit, SourceLoc{file, 2, 17, 2}, "uX", "uL")
      .suggest("uL")
      .step("1");
  ASSERT_EQ(diags.errorCount(), 1u);
  std::string text = renderText(diags.diagnostics()[0], sources, false);
  EXPECT_EQ(text, "t.plate:2:17: error: unknown unit `uX`; did you mean `uL`? [E200]\n"
                  "    2 | 1. dispense 100 uX of tmb\n"
                  "      |                 ^~\n"
                  "      |                 uL\n");
}

TEST(Diagnostics, JsonCarriesEveryField) {
  SourceManager sources;
  uint32_t file = sources.addBuffer("t.plate", "line one\nline two\n");
  DiagnosticEngine diags(sources);
  diags.report(DiagId::UndefinedName, SourceLoc{file, 2, 6, 3}, "two", "tow")
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

// SourceLoc columns count bytes and its length characters; SARIF columns
// count UTF-16 code units (`µ` is 2 bytes and 1 unit, `🧪` 4 bytes and 2).
TEST(Diagnostics, SarifColumnsAreUtf16CodeUnits) {
  SourceManager sources;
  uint32_t file = sources.addBuffer("dir/a b.plate", "µ x 🧪 yy\nab\n\xff z\n");
  DiagnosticEngine diags(sources);
  diags.report(DiagId::StrayCharacter, SourceLoc{file, 1, 6, 1}, "🧪");
  diags.report(DiagId::StrayCharacter, SourceLoc{file, 1, 11, 2}, "yy")
      .suggest("zz")
      .note(SourceLoc{file, 2, 1, 1}, "here")
      .note(SourceLoc{}, "nowhere");
  // A caret after the last character, and a range running past the line.
  diags.report(DiagId::StrayCharacter, SourceLoc{file, 2, 3, 1}, "x").suggest(";");
  diags.report(DiagId::StrayCharacter, SourceLoc{file, 2, 2, 5}, "b").suggest("c");
  // An ill-formed byte is one unit.
  diags.report(DiagId::StrayCharacter, SourceLoc{file, 3, 3, 1}, "z");
  diags.report(DiagId::CannotRead, SourceLoc{file, 0, 0, 0}, "a b.plate", "no");
  diags.report(DiagId::CannotRead, SourceLoc{}, "x", "no").suggest("y");
  nlohmann::json log = nlohmann::json::parse(renderSarif(diags.diagnostics(), sources, "1.2.3"));
  const auto &run = log["runs"][0];
  EXPECT_EQ(run["columnKind"], "utf16CodeUnits");
  EXPECT_EQ(run["tool"]["driver"]["version"], "1.2.3");
  const auto &results = run["results"];
  ASSERT_EQ(results.size(), 7u);
  auto region = [&](size_t i) {
    return results[i]["locations"][0]["physicalLocation"]["region"];
  };
  auto span = [](const nlohmann::json &r) {
    return std::make_pair(r["startColumn"].get<int>(), r["endColumn"].get<int>());
  };
  const auto &artifact = results[0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(artifact["uri"], "dir/a%20b.plate");
  EXPECT_EQ(span(region(0)), std::make_pair(5, 7));
  EXPECT_EQ(span(region(1)), std::make_pair(8, 10));
  const auto &replacement = results[1]["fixes"][0]["artifactChanges"][0]["replacements"][0];
  EXPECT_EQ(span(replacement["deletedRegion"]), std::make_pair(8, 10));
  EXPECT_EQ(replacement["insertedContent"]["text"], "zz");
  EXPECT_EQ(results[1]["relatedLocations"].size(), 2u);
  EXPECT_EQ(results[1]["relatedLocations"][1]["message"]["text"], "nowhere");
  EXPECT_FALSE(results[1]["relatedLocations"][1].contains("physicalLocation"));
  // The caret past the end marks one column; its fix is an insertion there.
  EXPECT_EQ(span(region(2)), std::make_pair(3, 4));
  const auto &insertion = results[2]["fixes"][0]["artifactChanges"][0]["replacements"][0];
  EXPECT_EQ(span(insertion["deletedRegion"]), std::make_pair(3, 3));
  EXPECT_EQ(span(region(3)), std::make_pair(2, 3));
  EXPECT_EQ(span(region(4)), std::make_pair(3, 4));
  // A file without a line: the artifact and no region; no file: no locations.
  EXPECT_FALSE(results[5]["locations"][0]["physicalLocation"].contains("region"));
  EXPECT_FALSE(results[6].contains("locations"));
  EXPECT_FALSE(results[6].contains("fixes"));
  EXPECT_EQ(results[6]["properties"]["suggestion"], "y");
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
