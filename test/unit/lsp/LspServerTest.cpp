//===- LspServerTest.cpp - The server driven in process --------------------===//
#include "tools/plate/LspServer.h"

#include "ir/SourceManager.h"

#include <gtest/gtest.h>

using namespace plate;
using namespace plate::lsp;

namespace {

struct Harness {
  std::vector<Json> sent;
  LspServer server{ServerOptions{PLATE_STDLIB_DIR, false}, [this](const Json &message) {
                     sent.push_back(message);
                     return true;
                   }};

  void send(Json message) {
    message["jsonrpc"] = "2.0";
    server.handleBody(message.dump());
  }
  std::vector<Json> published() const {
    std::vector<Json> out;
    for (const Json &message : sent)
      if (message.value("method", "") == "textDocument/publishDiagnostics")
        out.push_back(message["params"]);
    return out;
  }
};

const char *kUri = "file:///work/t.plate";

std::string il6() {
  std::optional<std::string> text =
      readWholeFile(std::string(PLATE_SOURCE_DIR) + "/docs/examples/il6_elisa.plate");
  EXPECT_TRUE(text);
  return text.value_or("");
}

void openIl6(Harness &h) {
  h.send({{"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", Json::object()}}}});
  h.send({{"method", "textDocument/didOpen"},
          {"params",
           {{"textDocument", {{"uri", kUri}, {"languageId", "plate"}, {"version", 1}, {"text", il6()}}}}}});
}

Json change(int version, uint32_t line, uint32_t character, const std::string &text) {
  Json range{{"start", {{"line", line}, {"character", character}}},
             {"end", {{"line", line}, {"character", character}}}};
  return {{"method", "textDocument/didChange"},
          {"params",
           {{"textDocument", {{"uri", kUri}, {"version", version}}},
            {"contentChanges", Json::array({{{"range", range}, {"text", text}}})}}}};
}

TEST(LspServer, ABurstOfChangesIsCompiledAndPublishedOnce) {
  Harness h;
  openIl6(h);
  // Line 25 is `3. dispense 100 uL of detection_ab to all`; type `xyz`
  // after the name, one keystroke a notification, before the server idles.
  h.send(change(2, 24, 34, "x"));
  h.send(change(3, 24, 35, "y"));
  h.send(change(4, 24, 36, "z"));
  EXPECT_TRUE(h.published().empty());
  h.server.publishStale();
  std::vector<Json> published = h.published();
  ASSERT_EQ(published.size(), 1u);
  EXPECT_EQ(published[0]["version"], 4);
  // E202 for the name, W003 for the reagent no step uses any more.
  ASSERT_EQ(published[0]["diagnostics"].size(), 2u);
  EXPECT_EQ(published[0]["diagnostics"][0]["code"], "E202");
  EXPECT_NE(published[0]["diagnostics"][0]["message"].get<std::string>().find("detection_abxyz"),
            std::string::npos);
  // Nothing changed since: idling again publishes nothing.
  h.server.publishStale();
  EXPECT_EQ(h.published().size(), 1u);
}

TEST(LspServer, ARequestSeesTheLatestTextAndPublishesItFirst) {
  Harness h;
  openIl6(h);
  h.send(change(2, 24, 34, "x"));
  h.send({{"id", 2},
          {"method", "textDocument/definition"},
          {"params", {{"textDocument", {{"uri", kUri}}}, {"position", {{"line", 23}, {"character", 36}}}}}});
  ASSERT_GE(h.sent.size(), 3u);
  const Json &publish = h.sent[h.sent.size() - 2];
  const Json &reply = h.sent.back();
  EXPECT_EQ(publish["method"], "textDocument/publishDiagnostics");
  EXPECT_EQ(publish["params"]["version"], 2);
  ASSERT_EQ(reply["id"], 2);
  // `wash_buffer` on step 2 is declared on line 11 (0-based 10).
  ASSERT_EQ(reply["result"].size(), 1u);
  EXPECT_EQ(reply["result"][0]["range"]["start"]["line"], 10);
}

TEST(LspServer, AChangeWithoutARangeReplacesTheWholeText) {
  Harness h;
  openIl6(h);
  h.send({{"method", "textDocument/didChange"},
          {"params",
           {{"textDocument", {{"uri", kUri}, {"version", 2}}},
            {"contentChanges",
             Json::array({{{"text", "<INSTRUMENT>\n1. wait 5 parsecs\n</INSTRUMENT>\n"}}})}}}});
  h.server.publishStale();
  std::vector<Json> published = h.published();
  ASSERT_EQ(published.size(), 1u);
  ASSERT_EQ(published[0]["diagnostics"].size(), 1u);
  const Json &diagnostic = published[0]["diagnostics"][0];
  EXPECT_EQ(diagnostic["code"], "E200"); // unknown unit, on the new text's line 2
  EXPECT_EQ(diagnostic["range"]["start"]["line"], 1);
  EXPECT_EQ(diagnostic["range"]["start"]["character"], 10);
}

TEST(LspServer, ExitCodesFollowTheProtocol) {
  Harness withShutdown;
  openIl6(withShutdown);
  withShutdown.send({{"id", 9}, {"method", "shutdown"}});
  withShutdown.send({{"method", "exit"}});
  EXPECT_TRUE(withShutdown.server.finished());
  EXPECT_EQ(withShutdown.server.exitCode(), 0);

  Harness without;
  openIl6(without);
  without.send({{"method", "exit"}});
  EXPECT_TRUE(without.server.finished());
  EXPECT_EQ(without.server.exitCode(), 1);
}

TEST(LspServer, ClosingADocumentClearsItsDiagnostics) {
  Harness h;
  openIl6(h);
  h.send(change(2, 24, 34, "x"));
  h.server.publishStale();
  h.send({{"method", "textDocument/didClose"}, {"params", {{"textDocument", {{"uri", kUri}}}}}});
  std::vector<Json> published = h.published();
  ASSERT_EQ(published.size(), 2u);
  EXPECT_TRUE(published[1]["diagnostics"].empty());
}

} // namespace
