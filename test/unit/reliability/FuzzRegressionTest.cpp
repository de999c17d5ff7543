//===- FuzzRegressionTest.cpp - Inputs the fuzz targets found --------------===//
//
// Each test replays an input that crashed a fuzz target
// (docs/reliability.md) through the same API, so the fix stays fixed in the
// normal build too, not only under the fuzzer.
//
//===----------------------------------------------------------------------===//
#include "agent/ValidationAgent.h"
#include "backend/Backend.h"
#include "ir/JsonParse.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(diags.diagnostics()[0].id, DiagId::StreamBadJson);
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
