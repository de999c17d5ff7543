//===- TlsPolicyTest.cpp - The LLM client keeps TLS peer verification on --===//
//
// libcurl verifies the peer and the host name by default; the only way to
// lose that is an explicit option in the client. This test fails when the
// agent's HTTP transport (or any other agent source) turns either check off
// or asks for an insecure transfer, so a debugging shortcut cannot ship.
//
//===----------------------------------------------------------------------===//
#include "ir/SourceManager.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

TEST(TlsPolicy, LlmClientNeverDisablesPeerVerification) {
  std::filesystem::path agent = std::filesystem::path(PLATE_SOURCE_DIR) / "agent";
  std::optional<std::string> transport =
      plate::readWholeFile((agent / "HttpTransport.cpp").string());
  ASSERT_TRUE(transport) << "agent/HttpTransport.cpp not found";
  // Through agent/CurlLibrary.h: `library->easy_setopt(curl, CURLOPT_...)`.
  ASSERT_NE(transport->find("easy_setopt(curl, CURLOPT_URL"), std::string::npos)
      << "the client no longer uses libcurl; re-check its TLS settings by hand";
  std::regex disabled(R"(CURLOPT_SSL_VERIFY(PEER|HOST)\s*,\s*(0|0L|false)\b)");
  std::regex insecure(R"(CURLSSLOPT_NO_REVOKE|CURLOPT_PROXY_SSL_VERIFY(PEER|HOST)\s*,\s*0)");
  for (const auto &entry : std::filesystem::directory_iterator(agent)) {
    std::optional<std::string> source = plate::readWholeFile(entry.path().string());
    ASSERT_TRUE(source) << entry.path();
    EXPECT_FALSE(std::regex_search(*source, disabled))
        << "TLS verification turned off in " << entry.path();
    EXPECT_FALSE(std::regex_search(*source, insecure)) << "TLS weakened in " << entry.path();
  }
}
