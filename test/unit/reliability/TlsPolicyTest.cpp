//===- TlsPolicyTest.cpp - The LLM client keeps TLS peer verification on ---===//
//
// libcurl verifies the peer and the host name by default; the only way to
// lose that is an explicit option in the client. This test fails when the
// agent's client source turns either check off or asks for an insecure
// transfer, so a debugging shortcut cannot ship.
//
//===----------------------------------------------------------------------===//
#include "ir/SourceManager.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

TEST(TlsPolicy, LlmClientNeverDisablesPeerVerification) {
  std::optional<std::string> read =
      plate::readWholeFile(std::string(PLATE_SOURCE_DIR) + "/agent/LlmClient.cpp");
  ASSERT_TRUE(read) << "agent/LlmClient.cpp not found";
  std::string source = std::move(*read);
  // Through agent/CurlLibrary.h: `library->easy_setopt(curl, CURLOPT_...)`.
  ASSERT_NE(source.find("easy_setopt(curl, CURLOPT_URL"), std::string::npos)
      << "the client no longer uses libcurl; re-check its TLS settings by hand";
  std::regex disabled(R"(CURLOPT_SSL_VERIFY(PEER|HOST)\s*,\s*(0|0L|false)\b)");
  EXPECT_FALSE(std::regex_search(source, disabled)) << "TLS verification turned off";
  std::regex insecure(R"(CURLSSLOPT_NO_REVOKE|CURLOPT_PROXY_SSL_VERIFY(PEER|HOST)\s*,\s*0)");
  EXPECT_FALSE(std::regex_search(source, insecure)) << "TLS weakened";
}
