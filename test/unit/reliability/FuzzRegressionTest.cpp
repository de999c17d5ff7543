//===- FuzzRegressionTest.cpp - Inputs the fuzz targets found --------------===//
//
// Each test replays an input that crashed a fuzz target
// (docs/reliability.md) through the same API, so the fix stays fixed in the
// normal build too, not only under the fuzzer.
//
//===----------------------------------------------------------------------===//
#include "agent/ValidationAgent.h"
#include "backend/bioforge1/Backend.h"
#include "ir/JsonParse.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace plate;

// stream target, crash-455afb7e: `1e616` made nlohmann::json throw
// out_of_range 406 although exceptions were off; `plate run` aborted.
TEST(FuzzRegression, StreamNumberOverflowIsADiagnostic) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t fileId = sources.addBuffer("overflow.jsonl", "1e616\n");
  std::optional<std::vector<backend::Command>> commands;
  EXPECT_NO_THROW(commands = backend::parseCommandStream(fileId, sources, diags));
  EXPECT_FALSE(commands.has_value());
  ASSERT_EQ(diags.errorCount(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].id, DiagId::StreamNumberOutOfRange);
  EXPECT_EQ(diags.diagnostics()[0].loc.line, 1u);
}

TEST(FuzzRegression, NonThrowingParseDiscardsOverflow) {
  for (const char *text : {"1e616", "{\"a\": -1e999}", "[1E400]"}) {
    nlohmann::json json;
    EXPECT_NO_THROW(json = parseJsonOrDiscarded<nlohmann::json>(std::string(text))) << text;
    EXPECT_TRUE(json.is_discarded()) << text;
  }
  EXPECT_EQ(parseJsonOrDiscarded<nlohmann::json>(std::string("[1e300]"))[0].get<double>(), 1e300);
}

// The same overflow in an LLM verdict must be a malformed verdict, never a
// crash of `plate translate`.
TEST(FuzzRegression, VerdictNumberOverflowIsMalformed) {
  std::string error;
  std::optional<agent::Verdict> verdict;
  EXPECT_NO_THROW(verdict = agent::parseVerdict(
                      R"({"verdict":"pass","findings":[],"score":1e999})", error));
  EXPECT_FALSE(verdict.has_value());
  EXPECT_FALSE(error.empty());
}

// verdict target, round trip: a fence inside a finding's message was taken
// for the reply's fence, so a well-formed verdict, printed indented as
// models answer, was rejected as malformed (and a correct script retried
// into a final fail).
TEST(FuzzRegression, VerdictWithFencesInMessagesRoundTrips) {
  agent::Verdict verdict;
  verdict.findings = {
      {"parameter", "line 4", "the text says ```10 min```", "write `10 min`", "validator", ""},
      {"order", "step 2", "```\nwash\n``` comes first", "swap steps 2 and 3", "validator", ""}};
  nlohmann::json wire = agent::verdictToJson(verdict);
  for (const std::string &printed :
       {wire.dump(), wire.dump(2), "```json\n" + wire.dump(2) + "\n```"}) {
    std::string error;
    auto reread = agent::parseVerdict(printed, error);
    ASSERT_TRUE(reread) << error << "\n" << printed;
    EXPECT_FALSE(reread->pass);
    ASSERT_EQ(reread->findings.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(reread->findings[i].type, verdict.findings[i].type);
      EXPECT_EQ(reread->findings[i].location, verdict.findings[i].location);
      EXPECT_EQ(reread->findings[i].message, verdict.findings[i].message);
      EXPECT_EQ(reread->findings[i].guidance, verdict.findings[i].guidance);
    }
  }
  // A fenced reply still ends at its first closing fence when text follows.
  std::string error;
  auto fenced = agent::parseVerdict(
      "Verdict:\n```json\n{\"verdict\":\"pass\",\"findings\":[]}\n```\nUse ``` for code.", error);
  ASSERT_TRUE(fenced) << error;
  EXPECT_TRUE(fenced->pass);
}

// reader_csv target, round trip (crash on `0.951e99900`): strtod read
// overflowing exponents as infinity, and `nan` and `inf` as values, which
// no reader measures; a NaN would have gone on into the standard-curve fit.
TEST(FuzzRegression, ReaderCsvRejectsNonFiniteValues) {
  std::string dir = ::testing::TempDir();
  for (const char *cell : {"nan", "-inf", "infinity", "1e400"}) {
    std::string path = dir + "/plate-reader-nonfinite.csv";
    std::string csv = "595nm,1,2\nA,0.5,";
    csv += cell;
    csv += "\n";
    {
      std::ofstream out(path, std::ios::trunc);
      out << csv;
    }
    SourceManager sources;
    DiagnosticEngine diags(sources);
    EXPECT_FALSE(backend::readPlateCsv(path, PlateShape{1, 2}, sources, diags)) << cell;
    ASSERT_EQ(diags.errorCount(), 1u) << cell;
    EXPECT_EQ(diags.diagnostics()[0].id, DiagId::ReaderCellNotFinite);
    EXPECT_EQ(diags.diagnostics()[0].loc.line, 2u);
  }
}
