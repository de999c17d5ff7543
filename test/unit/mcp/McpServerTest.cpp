//===- McpServerTest.cpp - The JSON-RPC layer of `plate mcp`, line by line -===//
//
// The server is driven one line at a time with a tool of the test's own,
// so each rule of the protocol layer (lifecycle, negotiation, error codes,
// what each revision is sent) is checked apart from plate's tools; the
// last tests call plate's tools and resources themselves.
//
//===----------------------------------------------------------------------===//
#include "agent/ParserAgent.h"
#include "ir/Platform.h"
#include "tools/plate/McpServer.h"
#include "tools/plate/McpTools.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

using namespace plate::mcp;

namespace {

Json echoSchema() {
  return Json::parse(R"({"type": "object",
    "properties": {"word": {"type": "string", "minLength": 1},
                   "times": {"type": "integer", "minimum": 1, "maximum": 3}},
    "required": ["word"], "additionalProperties": false})");
}

Server makeServer() {
  Tool echo{"echo",
            "Echo",
            "says the word back",
            echoSchema(),
            Json::parse(R"({"type": "object", "properties": {"said": {"type": "string"}}})"),
            Json{{"readOnlyHint", true}},
            [](const Json &arguments, const ProgressFn &progress) {
              progress("echoing");
              if (arguments["word"] == "twice")
                throw InvalidArguments("`twice` is not a word");
              ToolResult result;
              std::string said;
              for (int i = 0; i < arguments.value("times", 1); ++i)
                said += arguments["word"].get<std::string>();
              result.structured = Json{{"said", said}};
              result.text = "said it";
              result.isError = arguments["word"] == "fail";
              return result;
            }};
  Resource note{"test://note", "note", "A note", "a short text", "text/plain",
                [] { return std::string("hello"); }};
  return Server({"test", "Test server", "1.0", "use echo"}, {echo}, {note});
}

Json answer(Server &server, const std::string &line) {
  std::optional<std::string> reply = server.handleLine(line);
  EXPECT_TRUE(reply) << "no answer to " << line;
  if (!reply)
    return Json();
  EXPECT_EQ(reply->find('\n'), std::string::npos) << "an answer must be one line";
  return Json::parse(*reply);
}

std::string request(int id, const std::string &method, const Json &params = Json::object()) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

void initialize(Server &server, const std::string &version) {
  Json reply = answer(server, request(0, "initialize",
                                      {{"protocolVersion", version},
                                       {"capabilities", Json::object()},
                                       {"clientInfo", {{"name", "gtest"}, {"version", "0"}}}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
}

int errorCode(const Json &reply) { return reply.at("error").at("code").get<int>(); }

TEST(McpServer, NegotiatesTheClientsRevisionWhenItSpeaksIt) {
  for (const std::string &version : supportedProtocolVersions()) {
    Server server = makeServer();
    Json reply = answer(server, request(1, "initialize", {{"protocolVersion", version}}));
    EXPECT_EQ(reply["result"]["protocolVersion"], version);
    EXPECT_EQ(server.protocolVersion(), version);
  }
  EXPECT_EQ(supportedProtocolVersions().front(), "2025-11-25");
}

TEST(McpServer, AnswersAnUnknownRevisionWithItsNewest) {
  Server server = makeServer();
  Json reply = answer(server, request(1, "initialize", {{"protocolVersion", "2099-01-01"}}));
  EXPECT_EQ(reply["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(reply["result"]["serverInfo"]["name"], "test");
  EXPECT_EQ(reply["result"]["instructions"], "use echo");
  EXPECT_TRUE(reply["result"]["capabilities"].contains("tools"));
  EXPECT_TRUE(reply["result"]["capabilities"].contains("resources"));
}

TEST(McpServer, InitializeNeedsAVersionAndHappensOnce) {
  Server server = makeServer();
  EXPECT_EQ(errorCode(answer(server, request(1, "initialize", {{"protocolVersion", 5}}))),
            InvalidParams);
  initialize(server, "2025-11-25");
  EXPECT_EQ(errorCode(answer(server, request(2, "initialize", {{"protocolVersion", "2025-11-25"}}))),
            InvalidRequest);
}

TEST(McpServer, OnlyPingBeforeInitialize) {
  Server server = makeServer();
  EXPECT_EQ(answer(server, request(1, "ping"))["result"], Json::object());
  Json early = answer(server, request(2, "tools/list"));
  EXPECT_EQ(errorCode(early), InvalidRequest);
  EXPECT_EQ(early["id"], 2);
}

TEST(McpServer, MalformedLinesGetErrorsWithNullId) {
  Server server = makeServer();
  initialize(server, "2025-11-25");
  for (const std::string &line : {std::string("{oops"), std::string("\xff\xfe{}"),
                                  std::string(1000, '[') + std::string(1000, ']')}) {
    Json reply = answer(server, line);
    EXPECT_EQ(errorCode(reply), ParseError) << line.substr(0, 20);
    EXPECT_TRUE(reply["id"].is_null());
  }
  EXPECT_EQ(errorCode(answer(server, "[1,2]")), InvalidRequest);
  EXPECT_EQ(errorCode(answer(server, "42")), InvalidRequest);
  EXPECT_EQ(errorCode(answer(server, R"({"jsonrpc":"2.0","id":null,"method":"ping"})")),
            InvalidRequest);
  EXPECT_EQ(errorCode(answer(server, R"({"jsonrpc":"2.0","id":{},"method":"ping"})")),
            InvalidRequest);
  EXPECT_EQ(errorCode(answer(server, R"({"id":3,"method":"ping"})")), InvalidRequest);
  EXPECT_EQ(errorCode(answer(server, R"({"jsonrpc":"2.0","id":3,"method":4})")), InvalidRequest);
  EXPECT_EQ(errorCode(answer(server, R"({"jsonrpc":"2.0","id":3,"method":"ping","params":[]})")),
            InvalidParams);
  EXPECT_EQ(answer(server, request(4, "ping"))["result"], Json::object());
}

TEST(McpServer, NotificationsResponsesAndBlankLinesGetNoAnswer) {
  Server server = makeServer();
  initialize(server, "2025-11-25");
  EXPECT_FALSE(server.handleLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  EXPECT_FALSE(server.handleLine(R"({"jsonrpc":"2.0","method":"no/such/notification"})"));
  EXPECT_FALSE(server.handleLine(
      R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})"));
  EXPECT_FALSE(server.handleLine(R"({"jsonrpc":"2.0","id":7,"result":{}})"));
  EXPECT_FALSE(server.handleLine("   \r"));
}

TEST(McpServer, UnknownMethodsAndToolsAndResources) {
  Server server = makeServer();
  initialize(server, "2025-11-25");
  Json method = answer(server, request(1, "prompts/list"));
  EXPECT_EQ(errorCode(method), MethodNotFound);
  EXPECT_NE(method["error"]["message"].get<std::string>().find("prompts/list"), std::string::npos);
  Json tool = answer(server, request(2, "tools/call", {{"name", "nope"}}));
  EXPECT_EQ(errorCode(tool), InvalidParams);
  EXPECT_NE(tool["error"]["message"].get<std::string>().find("the tools are echo"),
            std::string::npos);
  EXPECT_EQ(errorCode(answer(server, request(3, "tools/call", {{"name", "echo"}, {"arguments", 1}}))),
            InvalidParams);
  Json resource = answer(server, request(4, "resources/read", {{"uri", "test://other"}}));
  EXPECT_EQ(errorCode(resource), ResourceNotFound);
  EXPECT_EQ(resource["error"]["data"]["uri"], "test://other");
  EXPECT_EQ(errorCode(answer(server, request(5, "tools/list", {{"cursor", "x"}}))), InvalidParams);
}

TEST(McpServer, ArgumentsOutsideTheSchemaAreToolErrorsFrom2025_11_25) {
  Server server = makeServer();
  initialize(server, "2025-11-25");
  Json reply = answer(server, request(1, "tools/call", {{"name", "echo"}, {"arguments", {{"word", 5}}}}));
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(reply["result"]["isError"], true);
  EXPECT_EQ(reply["result"]["content"][0]["text"],
            "invalid arguments for tool `echo`: `arguments.word` must be a string, not integer");
  Json thrown = answer(server, request(2, "tools/call",
                                       {{"name", "echo"}, {"arguments", {{"word", "twice"}}}}));
  EXPECT_EQ(thrown["result"]["isError"], true);
}

TEST(McpServer, ArgumentsOutsideTheSchemaAreInvalidParamsBefore2025_11_25) {
  Server server = makeServer();
  initialize(server, "2025-06-18");
  Json reply = answer(server, request(1, "tools/call", {{"name", "echo"}, {"arguments", {{"times", 2}}}}));
  EXPECT_EQ(errorCode(reply), InvalidParams);
  EXPECT_EQ(reply["error"]["message"], "invalid arguments for tool `echo`: `arguments` needs `word`");
  Json thrown = answer(server, request(2, "tools/call",
                                       {{"name", "echo"}, {"arguments", {{"word", "twice"}}}}));
  EXPECT_EQ(errorCode(thrown), InvalidParams);
}

TEST(McpServer, StructuredContentAndItsTextCopy) {
  Server server = makeServer();
  initialize(server, "2025-11-25");
  Json reply = answer(server, request(1, "tools/call",
                                      {{"name", "echo"}, {"arguments", {{"word", "ab"}, {"times", 2}}}}));
  const Json &result = reply["result"];
  EXPECT_EQ(result["isError"], false);
  EXPECT_EQ(result["structuredContent"], (Json{{"said", "abab"}}));
  ASSERT_EQ(result["content"].size(), 2u);
  EXPECT_EQ(result["content"][0]["text"], "said it");
  EXPECT_EQ(Json::parse(result["content"][1]["text"].get<std::string>()), result["structuredContent"]);
  Json failed = answer(server, request(2, "tools/call", {{"name", "echo"}, {"arguments", {{"word", "fail"}}}}));
  EXPECT_EQ(failed["result"]["isError"], true);
}

TEST(McpServer, EachRevisionGetsTheFieldsItDefines) {
  Server newest = makeServer();
  initialize(newest, "2025-06-18");
  Json tool = answer(newest, request(1, "tools/list"))["result"]["tools"][0];
  EXPECT_TRUE(tool.contains("outputSchema"));
  EXPECT_TRUE(tool.contains("title"));
  EXPECT_TRUE(tool.contains("annotations"));

  Server oldest = makeServer();
  initialize(oldest, "2024-11-05");
  tool = answer(oldest, request(1, "tools/list"))["result"]["tools"][0];
  EXPECT_FALSE(tool.contains("outputSchema"));
  EXPECT_FALSE(tool.contains("title"));
  EXPECT_FALSE(tool.contains("annotations"));
  Json called = answer(oldest, request(2, "tools/call", {{"name", "echo"}, {"arguments", {{"word", "a"}}}}));
  EXPECT_FALSE(called["result"].contains("structuredContent"));
  EXPECT_EQ(Json::parse(called["result"]["content"][1]["text"].get<std::string>())["said"], "a");
}

TEST(McpServer, ReadsResources) {
  Server server = makeServer();
  initialize(server, "2025-11-25");
  Json listed = answer(server, request(1, "resources/list"))["result"]["resources"];
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]["uri"], "test://note");
  Json read = answer(server, request(2, "resources/read", {{"uri", "test://note"}}));
  EXPECT_EQ(read["result"]["contents"][0]["text"], "hello");
  EXPECT_EQ(read["result"]["contents"][0]["mimeType"], "text/plain");
  EXPECT_EQ(answer(server, request(3, "resources/templates/list"))["result"]["resourceTemplates"],
            Json::array());
}

TEST(SchemaViolation, NamesTheArgument) {
  Json schema = echoSchema();
  EXPECT_FALSE(schemaViolation(schema, Json{{"word", "a"}, {"times", 3}}));
  EXPECT_FALSE(schemaViolation(schema, Json{{"word", "a"}, {"times", 2.0}}));
  EXPECT_EQ(schemaViolation(schema, Json{{"word", "a"}, {"times", 2.5}}),
            "`arguments.times` must be an integer, not number");
  EXPECT_EQ(schemaViolation(schema, Json{{"word", "a"}, {"times", 0}}),
            "`arguments.times` must be at least 1, not 0");
  EXPECT_EQ(schemaViolation(schema, Json{{"word", "a"}, {"times", 4}}),
            "`arguments.times` must be at most 3, not 4");
  EXPECT_EQ(schemaViolation(schema, Json{{"word", ""}}), "`arguments.word` must not be empty");
  EXPECT_EQ(schemaViolation(schema, Json{{"word", "a"}, {"loud", true}}),
            "`arguments` has no property `loud`; the properties are word, times");
  EXPECT_EQ(schemaViolation(schema, Json::array()), "`arguments` must be an object, not array");
  Json choice{{"type", "string"}, {"enum", {"a", "b"}}};
  EXPECT_EQ(schemaViolation(choice, "c", "mode"), "`mode` must be one of \"a\", \"b\", not \"c\"");
}

//===--- plate's own tools and resources -----------------------------------===//

Server plateServer() {
  return Server(plateServerInfo(), plateTools(PLATE_STDLIB_DIR), plateResources(PLATE_STDLIB_DIR));
}

TEST(PlateTools, ScriptErrorsAreToolResultsWithTheirCodes) {
  Server server = plateServer();
  initialize(server, "2025-11-25");
  Json reply = answer(server, request(1, "tools/call",
                                      {{"name", "check"},
                                       {"arguments", {{"source", "not a script\n"}, {"name", "bad.plate"}}}}));
  const Json &result = reply["result"];
  EXPECT_EQ(result["isError"], true);
  EXPECT_EQ(result["structuredContent"]["ok"], false);
  ASSERT_FALSE(result["structuredContent"]["diagnostics"].empty());
  const Json &first = result["structuredContent"]["diagnostics"][0];
  EXPECT_EQ(first["file"], "bad.plate");
  EXPECT_EQ(first["line"], 1);
  EXPECT_EQ(first["code"].get<std::string>().front(), 'E');
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("bad.plate:1:"), std::string::npos);
}

TEST(PlateTools, PathOrSourceNotBoth) {
  Server server = plateServer();
  initialize(server, "2025-06-18");
  Json reply = answer(server, request(1, "tools/call",
                                      {{"name", "compile"},
                                       {"arguments", {{"path", "a.plate"}, {"source", "x"}}}}));
  EXPECT_EQ(errorCode(reply), InvalidParams);
  EXPECT_EQ(reply["error"]["message"],
            "invalid arguments for tool `compile`: give the script as `path` or as `source`, not both");
}

TEST(PlateTools, TheLanguageReferenceIsTheParsersText) {
  Server server = plateServer();
  initialize(server, "2025-11-25");
  Json read = answer(server, request(1, "resources/read", {{"uri", "plate://reference/language"}}));
  std::string reference = read["result"]["contents"][0]["text"];
  plate::SourceManager sources;
  plate::DiagnosticEngine diags(sources);
  std::optional<plate::Platform> platform =
      plate::loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, plate::SourceLoc{});
  ASSERT_TRUE(platform);
  plate::agent::ParserPrompt prompt = plate::agent::buildParserPrompt(*platform, {});
  EXPECT_GT(reference.size(), 1000u);
  EXPECT_NE(prompt.system.find(reference), std::string::npos);
  Json platforms = answer(server, request(2, "resources/read", {{"uri", "plate://platforms/bioforge1"}}));
  EXPECT_EQ(platforms["result"]["contents"][0]["mimeType"], "application/toml");
  EXPECT_EQ(platforms["result"]["contents"][0]["text"],
            plate::readWholeFile(std::string(PLATE_STDLIB_DIR) + "/platforms/bioforge1.toml").value());
}

/// What serveLines() writes for `input` (small enough for the pipes'
/// buffers), and its exit status.
std::string served(const std::string &input, int *status = nullptr) {
  int in[2], out[2];
  EXPECT_EQ(pipe(in), 0);
  EXPECT_EQ(pipe(out), 0);
  EXPECT_EQ(write(in[1], input.data(), input.size()), static_cast<ssize_t>(input.size()));
  close(in[1]);
  Server server = makeServer();
  int exit = serveLines(server, in[0], out[1]);
  if (status)
    *status = exit;
  close(out[1]);
  std::string output;
  char buffer[4096];
  for (ssize_t got; (got = read(out[0], buffer, sizeof buffer)) > 0;)
    output.append(buffer, static_cast<size_t>(got));
  close(in[0]);
  close(out[0]);
  return output;
}

TEST(ServeLines, SendsProgressOnlyWhenAskedFor) {
  std::string init = request(0, "initialize", {{"protocolVersion", "2025-11-25"}}) + "\n";
  Json asked{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
             {"params", {{"name", "echo"}, {"arguments", {{"word", "a"}}},
                         {"_meta", {{"progressToken", "t1"}}}}}};
  std::string output = served(init + asked.dump() + "\n");
  EXPECT_NE(output.find(R"({"jsonrpc":"2.0","method":"notifications/progress","params":)"
                        R"({"progressToken":"t1","progress":1,"message":"echoing"}})"
                        "\n"
                        R"({"jsonrpc":"2.0","id":1,"result":)"),
            std::string::npos)
      << output;
  std::string quiet = served(init + request(1, "tools/call", {{"name", "echo"},
                                                              {"arguments", {{"word", "a"}}}}));
  EXPECT_EQ(quiet.find("notifications/progress"), std::string::npos) << quiet;
}

TEST(ServeLines, AnswersEachLineAndEndsCleanlyAtEndOfInput) {
  int status = -1;
  std::string output =
      served(request(1, "ping") + "\n" + "garbage\n" + request(2, "ping"), &status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(output, R"({"jsonrpc":"2.0","id":1,"result":{}})"
                    "\n"
                    R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: )"
                    R"([json.exception.parse_error.101] parse error at line 1, column 1: syntax )"
                    R"(error while parsing value - invalid literal; last read: 'g'"}})"
                    "\n"
                    R"({"jsonrpc":"2.0","id":2,"result":{}})"
                    "\n");
}

} // namespace
