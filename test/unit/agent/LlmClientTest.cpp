//===- LlmClientTest.cpp - The libcurl client against the stub server -----===//
//
// Every exchange goes over real HTTP on 127.0.0.1 to
// test/agent/stub_llm_server.py, which checks the requests the way the
// services do; waits are observed through the sleep hook, so retry-after
// and backoff are asserted without making the suite slow.
//
//===----------------------------------------------------------------------===//
#include "agent/HttpTransport.h"
#include "agent/LlmClient.h"
#include "StubServer.h"

#include <gtest/gtest.h>

#include <regex>
#include <sys/socket.h>
#include <netinet/in.h>

using namespace plate::agent;
using plate::agent::test::StubServer;
using nlohmann::json;

namespace {

const char *kKey = "sk-test-secret-7f3a9c";

ModelSpec spec(const std::string &text) {
  std::string error;
  auto parsed = ModelSpec::parse(text, error);
  EXPECT_TRUE(parsed) << error;
  return parsed.value_or(ModelSpec{});
}

struct Waits {
  std::vector<double> seconds;
  ClientOptions options() {
    ClientOptions options;
    options.backoffBaseSeconds = 0.01;
    options.backoffCapSeconds = 0.05;
    options.sleep = [this](double s) { seconds.push_back(s); };
    return options;
  }
};

ChatRequest simpleRequest() {
  ChatRequest request;
  request.system = "You translate protocols.";
  request.user = "Translate: add 100 uL.";
  request.purpose = "parser";
  request.params.maxTokens = 512;
  return request;
}

} // namespace

TEST(ModelSpecTest, ProvidersAndBaseUrls) {
  ModelSpec openai = spec("openai:gpt-4.1");
  EXPECT_EQ(openai.endpoint(), "https://api.openai.com/v1/chat/completions");
  EXPECT_TRUE(openai.useMaxCompletionTokens);
  EXPECT_FALSE(openai.local);
  EXPECT_EQ(openai.family(), "openai");

  ModelSpec claude = spec("anthropic:claude-sonnet-4-6");
  EXPECT_EQ(claude.endpoint(), "https://api.anthropic.com/v1/messages");
  EXPECT_EQ(claude.wire, WireProtocol::Anthropic);
  EXPECT_EQ(claude.family(), "anthropic");
  EXPECT_EQ(claude.keyVariable(), "ANTHROPIC_API_KEY");

  ModelSpec ollama = spec("ollama:llama3.3");
  EXPECT_EQ(ollama.endpoint(), "http://localhost:11434/v1/chat/completions");
  EXPECT_TRUE(ollama.local);
  EXPECT_FALSE(ollama.useMaxCompletionTokens);
  EXPECT_EQ(ollama.family(), "meta");

  ModelSpec vllm = spec("openai:qwen2.5@http://127.0.0.1:8000/v1/");
  EXPECT_EQ(vllm.model, "qwen2.5");
  EXPECT_EQ(vllm.endpoint(), "http://127.0.0.1:8000/v1/chat/completions");
  EXPECT_TRUE(vllm.local);
  EXPECT_FALSE(vllm.useMaxCompletionTokens);
  EXPECT_EQ(vllm.family(), "qwen");
}

TEST(ModelSpecTest, MisconfiguredSpecsSayWhy) {
  std::string error;
  EXPECT_FALSE(ModelSpec::parse("gpt-4.1", error));
  EXPECT_NE(error.find("provider:model"), std::string::npos) << error;
  EXPECT_FALSE(ModelSpec::parse("mistralai:large", error));
  EXPECT_NE(error.find("unknown provider `mistralai`"), std::string::npos) << error;
  EXPECT_FALSE(ModelSpec::parse("anthropic:claude@http://127.0.0.1:9/v1", error));
  EXPECT_NE(error.find("give the host only"), std::string::npos) << error;
  EXPECT_FALSE(ModelSpec::parse("openai:qwen@http://127.0.0.1:8000", error));
  EXPECT_NE(error.find("does not end in /v1"), std::string::npos) << error;
  EXPECT_FALSE(ModelSpec::parse("openai:", error));
}

TEST(LlmClientTest, RequestBodiesFollowEachWire) {
  ChatRequest request = simpleRequest();
  request.jsonSchema = json{{"type", "object"}};
  request.schemaName = "verdict";
  json cloud = buildRequestBody(spec("openai:gpt-4.1"), request);
  EXPECT_EQ(cloud["max_completion_tokens"], 512);
  EXPECT_FALSE(cloud.contains("max_tokens"));
  EXPECT_EQ(cloud["seed"], 42);
  EXPECT_EQ(cloud["messages"][0]["role"], "system");
  EXPECT_EQ(cloud["response_format"]["json_schema"]["strict"], true);
  EXPECT_EQ(cloud["response_format"]["json_schema"]["name"], "verdict");

  json local = buildRequestBody(spec("ollama:llama3.3"), request);
  EXPECT_EQ(local["max_tokens"], 512);
  EXPECT_FALSE(local.contains("max_completion_tokens"));

  json anthropic = buildRequestBody(spec("anthropic:claude-sonnet-4-6"), request);
  EXPECT_FALSE(anthropic.contains("seed"));
  EXPECT_EQ(anthropic["system"], request.system);
  EXPECT_EQ(anthropic["messages"].size(), 1u);
  EXPECT_EQ(anthropic["output_config"]["format"]["type"], "json_schema");
  EXPECT_EQ(anthropic["max_tokens"], 512);
}

TEST(LlmClientTest, ErrorBodiesOfEveryShape) {
  ParsedError openai = parseErrorBody(
      R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}})");
  EXPECT_TRUE(openai.quotaExhausted);
  EXPECT_EQ(openai.code, "insufficient_quota");
  ParsedError vllmOld = parseErrorBody(
      R"({"object":"error","message":"model not found","type":"NotFoundError","param":null,"code":404})");
  EXPECT_EQ(vllmOld.message, "model not found");
  EXPECT_EQ(vllmOld.code, "404");
  ParsedError vllmNew =
      parseErrorBody(R"({"error":{"message":"bad","type":"BadRequestError","code":400}})");
  EXPECT_EQ(vllmNew.code, "400");
  ParsedError spend = parseErrorBody(
      R"({"type":"error","error":{"type":"rate_limit_error","message":"limit","details":{"error_code":"enforced_spend_limit_reached"}}})");
  EXPECT_TRUE(spend.quotaExhausted);
  ParsedError rate = parseErrorBody(
      R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down"}})");
  EXPECT_FALSE(rate.quotaExhausted);
  ParsedError garbage = parseErrorBody("<html>Bad Gateway</html>");
  EXPECT_NE(garbage.message.find("non-JSON body"), std::string::npos);
}

TEST(LlmClientTest, RetryAfterHeaders) {
  EXPECT_EQ(retryAfterSeconds({{"retry-after", "2"}}), 2.0);
  EXPECT_EQ(retryAfterSeconds({{"retry-after-ms", "1500"}, {"retry-after", "9"}}), 1.5);
  EXPECT_EQ(retryAfterSeconds({{"retry-after", "0.5"}}), 0.5);
  EXPECT_FALSE(retryAfterSeconds({{"retry-after", "120"}}));
  EXPECT_FALSE(retryAfterSeconds({{"retry-after", "0"}}));
  EXPECT_FALSE(retryAfterSeconds({}));
}

TEST(LlmClientTest, OpenAiReplyAndRecord) {
  StubServer stub(json{{"key", kKey}, {"openai", {{{"text", "<KIT_TITLE>x</KIT_TITLE>"}}}}});
  ASSERT_NE(stub.port(), 0);
  Waits waits;
  LlmClient client(spec("openai:qwen2.5@" + stub.openaiBase()), waits.options(), kKey);
  ChatResult result = client.chat(simpleRequest());
  ASSERT_TRUE(result.ok) << result.error();
  EXPECT_EQ(result.text, "<KIT_TITLE>x</KIT_TITLE>");
  EXPECT_FALSE(result.truncated);
  json record = toJson(result.record);
  EXPECT_EQ(record["endpoint"], stub.openaiBase() + "/chat/completions");
  EXPECT_EQ(record["model"], "qwen2.5");
  EXPECT_EQ(record["status"], 200);
  EXPECT_EQ(record["seed"], 42);
  EXPECT_EQ(record["temperature"], 0.0);
  EXPECT_EQ(record["max_tokens_field"], "max_tokens");
  EXPECT_GT(record["usage"]["input_tokens"].get<int>(), 0);
  EXPECT_EQ(record["attempts"].size(), 1u);
  EXPECT_EQ(record["system_fingerprint"], "fp_stub");
  EXPECT_TRUE(std::regex_match(record["timestamp"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d)")))
      << record["timestamp"];
  EXPECT_EQ(record.dump().find(kKey), std::string::npos);
  json requests = stub.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_FALSE(requests[0].contains("violation")) << requests[0].dump();
  EXPECT_EQ(requests[0]["system"], "You translate protocols.");
}

TEST(LlmClientTest, AnthropicConcatenatesTextBlocks) {
  json body = {{"id", "msg_1"},
               {"type", "message"},
               {"role", "assistant"},
               {"model", "claude-sonnet-4-6"},
               {"content",
                {{{"type", "thinking"}, {"thinking", "hmm"}},
                 {{"type", "text"}, {"text", "part one, "}},
                 {{"type", "text"}, {"text", "part two"}}}},
               {"stop_reason", "end_turn"},
               {"usage",
                {{"input_tokens", 10},
                 {"output_tokens", 5},
                 {"cache_read_input_tokens", 7}}}};
  StubServer stub(json{{"key", kKey}, {"anthropic", {{{"body", body}}}}});
  Waits waits;
  LlmClient client(spec("anthropic:claude-sonnet-4-6@" + stub.anthropicBase()), waits.options(),
                   kKey);
  ChatResult result = client.chat(simpleRequest());
  ASSERT_TRUE(result.ok) << result.error();
  EXPECT_EQ(result.text, "part one, part two");
  EXPECT_EQ(result.record.inputTokens, 17);
  EXPECT_FALSE(result.record.seed);
  json requests = stub.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_FALSE(requests[0].contains("violation")) << requests[0].dump();
  EXPECT_EQ(requests[0]["anthropic_version"], "2023-06-01");
}

TEST(LlmClientTest, RateLimitHonoursRetryAfter) {
  StubServer stub(json{{"openai",
                    {{{"status", 429},
                      {"headers", {{"retry-after", "1"}}},
                      {"error", {{"type", "requests"}, {"code", "rate_limit_exceeded"},
                                 {"message", "Rate limit reached for requests"}}}},
                     {{"text", "ok"}}}}});
  Waits waits;
  LlmClient client(spec("openai:gpt-4.1@" + stub.openaiBase()), waits.options(), "");
  ChatResult result = client.chat(simpleRequest());
  ASSERT_TRUE(result.ok) << result.error();
  ASSERT_EQ(waits.seconds.size(), 1u);
  EXPECT_EQ(waits.seconds[0], 1.0);
  ASSERT_EQ(result.record.attempts.size(), 2u);
  EXPECT_EQ(result.record.attempts[0].status, 429);
  EXPECT_EQ(result.record.attempts[0].waitReason, "retry-after");
  EXPECT_EQ(stub.requests().size(), 2u);
}

TEST(LlmClientTest, OverloadedBacksOffWithJitter) {
  json overloaded = {{"status", 529},
                     {"error", {{"type", "overloaded_error"}, {"message", "Overloaded"}}}};
  StubServer stub(json{{"anthropic", {overloaded, overloaded, {{"text", "fine"}}}}});
  Waits waits;
  LlmClient client(spec("anthropic:claude-sonnet-4-6@" + stub.anthropicBase()), waits.options(),
                   "");
  ChatResult result = client.chat(simpleRequest());
  ASSERT_TRUE(result.ok) << result.error();
  EXPECT_EQ(result.text, "fine");
  ASSERT_EQ(waits.seconds.size(), 2u);
  // base 0.01 s doubling, minus up to 25 % jitter.
  EXPECT_GT(waits.seconds[0], 0.0074);
  EXPECT_LE(waits.seconds[0], 0.01);
  EXPECT_GT(waits.seconds[1], 0.0149);
  EXPECT_LE(waits.seconds[1], 0.02);
  EXPECT_EQ(result.record.attempts[0].waitReason, "backoff");
}

TEST(LlmClientTest, OverloadedGivesUpAfterRetries) {
  json overloaded = {{"status", 529},
                     {"error", {{"type", "overloaded_error"}, {"message", "Overloaded"}}}};
  StubServer stub(json{{"anthropic", {overloaded, overloaded, overloaded}}});
  Waits waits;
  LlmClient client(spec("anthropic:claude-sonnet-4-6@" + stub.anthropicBase()), waits.options(),
                   "");
  ChatResult result = client.chat(simpleRequest());
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.errorKind(), LlmErrorKind::Server);
  EXPECT_NE(result.error().find("HTTP 529 (overloaded_error)"), std::string::npos)
      << result.error();
  EXPECT_NE(result.error().find("after 3 tries"), std::string::npos) << result.error();
}

TEST(LlmClientTest, SpentQuotaIsNeverRetried) {
  StubServer stub(
      json{{"openai",
        {{{"status", 429},
          {"headers", {{"retry-after", "1"}}},
          {"error", {{"type", "insufficient_quota"}, {"code", "insufficient_quota"},
                     {"message", "You exceeded your current quota"}}}}}},
       {"anthropic",
        {{{"status", 429},
          {"error", {{"type", "rate_limit_error"}, {"message", "spend limit"},
                     {"details", {{"error_code", "enforced_spend_limit_reached"}}}}}}}}});
  Waits waits;
  LlmClient openai(spec("openai:gpt-4.1@" + stub.openaiBase()), waits.options(), "");
  ChatResult a = openai.chat(simpleRequest());
  EXPECT_EQ(a.errorKind(), LlmErrorKind::Quota);
  EXPECT_NE(a.error().find("not retried"), std::string::npos) << a.error();
  LlmClient anthropic(spec("anthropic:claude-sonnet-4-6@" + stub.anthropicBase()),
                      waits.options(), "");
  ChatResult b = anthropic.chat(simpleRequest());
  EXPECT_EQ(b.errorKind(), LlmErrorKind::Quota);
  EXPECT_TRUE(waits.seconds.empty());
  EXPECT_EQ(stub.requests().size(), 2u);
}

TEST(LlmClientTest, RejectedKeyIsNotRetriedNorEchoed) {
  StubServer stub(json{{"openai",
                    {{{"status", 401},
                      {"error", {{"type", "invalid_request_error"}, {"code", "invalid_api_key"},
                                 {"message", std::string("Incorrect API key provided: ") +
                                                 kKey}}}}}}});
  Waits waits;
  LlmClient client(spec("openai:gpt-4.1@" + stub.openaiBase()), waits.options(), kKey);
  ChatResult result = client.chat(simpleRequest());
  EXPECT_EQ(result.errorKind(), LlmErrorKind::Authentication);
  EXPECT_NE(result.error().find("check OPENAI_API_KEY"), std::string::npos) << result.error();
  EXPECT_NE(result.error().find("[redacted]"), std::string::npos) << result.error();
  EXPECT_EQ(toJson(result.record).dump().find(kKey), std::string::npos);
  EXPECT_EQ(stub.requests().size(), 1u);
}

TEST(LlmClientTest, TimeoutIsRetried) {
  StubServer stub(json{{"openai", {{{"delay", 2}, {"text", "late"}}, {{"text", "on time"}}}}});
  Waits waits;
  ClientOptions options = waits.options();
  options.totalTimeoutSeconds = 0.5;
  LlmClient client(spec("openai:gpt-4.1@" + stub.openaiBase()), options, "");
  ChatResult result = client.chat(simpleRequest());
  ASSERT_TRUE(result.ok) << result.error();
  EXPECT_EQ(result.text, "on time");
  ASSERT_EQ(result.record.attempts.size(), 2u);
  EXPECT_NE(result.record.attempts[0].error.find("did not answer within 0.5 s"),
            std::string::npos)
      << result.record.attempts[0].error;
}

TEST(LlmClientTest, UnreachableEndpointSaysSo) {
  // A port that was free a moment ago: nothing listens there.
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
  int port = ntohs(address.sin_port);
  close(fd);
  Waits waits;
  ClientOptions options = waits.options();
  options.maxRetries = 1;
  LlmClient client(spec("openai:m@http://127.0.0.1:" + std::to_string(port) + "/v1"), options,
                   "");
  ChatResult result = client.chat(simpleRequest());
  EXPECT_EQ(result.errorKind(), LlmErrorKind::Unreachable);
  EXPECT_NE(result.error().find("cannot reach http://127.0.0.1:"), std::string::npos)
      << result.error();
  EXPECT_NE(result.error().find("check the base URL"), std::string::npos);
}

TEST(LlmClientTest, MalformedBodiesAreErrors) {
  StubServer stub(json{{"openai",
                    {{{"raw", "this is not json"}},
                     {{"status", 400},
                      {"body", {{"object", "error"}, {"message", "max_tokens too large"},
                                {"type", "BadRequestError"}, {"code", 400}}}}}}});
  Waits waits;
  LlmClient client(spec("openai:m@" + stub.openaiBase()), waits.options(), "");
  ChatResult garbage = client.chat(simpleRequest());
  EXPECT_EQ(garbage.errorKind(), LlmErrorKind::Malformed);
  EXPECT_NE(garbage.error().find("not a JSON object"), std::string::npos) << garbage.error();
  ChatResult vllm = client.chat(simpleRequest());
  EXPECT_EQ(vllm.errorKind(), LlmErrorKind::BadRequest);
  EXPECT_NE(vllm.error().find("HTTP 400 (BadRequestError, 400): max_tokens too large"),
            std::string::npos)
      << vllm.error();
}

TEST(LlmClientTest, TruncationIsDetectedOnBothWires) {
  StubServer stub(json{{"openai", {{{"text", "<KIT_TI"}, {"truncated", true}}}},
                   {"anthropic", {{{"text", "<KIT_TI"}, {"truncated", true}}}}});
  Waits waits;
  LlmClient openai(spec("openai:m@" + stub.openaiBase()), waits.options(), "");
  ChatResult a = openai.chat(simpleRequest());
  ASSERT_TRUE(a.ok);
  EXPECT_TRUE(a.truncated);
  EXPECT_EQ(a.record.finishReason, "length");
  LlmClient anthropic(spec("anthropic:claude-sonnet-4-6@" + stub.anthropicBase()),
                      waits.options(), "");
  ChatResult b = anthropic.chat(simpleRequest());
  ASSERT_TRUE(b.ok);
  EXPECT_TRUE(b.truncated);
  EXPECT_EQ(b.record.finishReason, "max_tokens");
}

TEST(LlmClientTest, CacheReplaysOffline) {
  StubServer stub(json{{"openai", {{{"text", "cached answer"}}}}});
  Waits waits;
  ClientOptions options = waits.options();
  options.cacheDir = (stub.dir() / "cache").string();
  LlmClient client(spec("openai:m@" + stub.openaiBase()), options, "");
  ChatResult first = client.chat(simpleRequest());
  ASSERT_TRUE(first.ok) << first.error();
  EXPECT_FALSE(first.record.cached);
  ChatResult second = client.chat(simpleRequest());
  ASSERT_TRUE(second.ok) << second.error();
  EXPECT_TRUE(second.record.cached);
  EXPECT_EQ(second.text, "cached answer");
  EXPECT_EQ(second.record.requestHash, first.record.requestHash);
  EXPECT_EQ(stub.requests().size(), 1u);
  // A different prompt is a different key.
  ChatRequest other = simpleRequest();
  other.user += " And shake.";
  ChatResult third = client.chat(other);
  EXPECT_FALSE(third.ok); // the stub has no second answer
  EXPECT_EQ(stub.requests().size(), 2u);
}

TEST(LlmClientTest, MissingKeyForRemoteEndpoint) {
  unsetenv("ANTHROPIC_API_KEY");
  std::string error;
  auto client = LlmClient::fromEnvironment(spec("anthropic:claude-sonnet-4-6"), {}, error);
  EXPECT_FALSE(client);
  EXPECT_NE(error.find("set ANTHROPIC_API_KEY"), std::string::npos) << error;
  auto local = LlmClient::fromEnvironment(spec("ollama:llama3.3"), {}, error);
  EXPECT_TRUE(local);
}

TEST(LlmClientTest, TokenApproximation) {
  EXPECT_EQ(approximateTokens(""), 0u);
  EXPECT_EQ(approximateTokens("abcd"), 1u);
  EXPECT_EQ(approximateTokens("abcde"), 2u);
  EXPECT_EQ(fnv1a64Hex(""), "cbf29ce484222325");
  EXPECT_EQ(fnv1a64Hex("a"), "af63dc4c8601ec8c");
}
