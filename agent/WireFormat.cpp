//===- WireFormat.cpp - What a chat call sends and gets back --------------===//
//
// Part of the LLM client; WireFormat.h says what is common to the wires.
//
//===----------------------------------------------------------------------===//
#include "agent/WireFormat.h"
#include "agent/AnthropicWire.h"
#include "agent/OpenAiWire.h"
#include "ir/JsonParse.h"

#include <algorithm>

namespace plate::agent {

using nlohmann::json;

json buildRequestBody(const ModelSpec &spec, const ChatRequest &request) {
  return spec.wire == WireProtocol::OpenAI ? openai::requestBody(spec, request)
                                           : anthropic::requestBody(spec, request);
}

std::vector<std::string> requestHeaders(const ModelSpec &spec, const std::string &apiKey) {
  std::vector<std::string> headers = {"Content-Type: application/json",
                                      "Accept: application/json"};
  // Local servers need some bearer value even when they ignore it.
  std::string key = apiKey.empty() ? "none" : apiKey;
  if (spec.wire == WireProtocol::OpenAI)
    openai::addKeyHeader(headers, key);
  else
    anthropic::addKeyHeader(headers, key);
  return headers;
}

ParsedReply parseReplyBody(WireProtocol wire, std::string_view bodyText) {
  json body = parseJsonOrDiscarded<json>(bodyText);
  if (body.is_discarded() || !body.is_object()) {
    ParsedReply reply;
    reply.error = "the response body is not a JSON object";
    return reply;
  }
  return wire == WireProtocol::OpenAI ? openai::parseReply(body) : anthropic::parseReply(body);
}

int64_t usageCount(const json &usage, const char *key) {
  auto it = usage.find(key);
  return it != usage.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

ParsedError parseErrorBody(std::string_view bodyText) {
  ParsedError parsed;
  json body = parseJsonOrDiscarded<json>(bodyText);
  if (body.is_discarded() || !body.is_object()) {
    std::string snippet(bodyText.substr(0, 200));
    std::replace(snippet.begin(), snippet.end(), '\n', ' ');
    parsed.message = snippet.empty() ? "empty body" : "non-JSON body: " + snippet;
    return parsed;
  }
  // OpenAI, Ollama and new vLLM nest under `error`; old vLLM is flat.
  const json *error = &body;
  if (body.contains("error") && body["error"].is_object())
    error = &body["error"];
  else if (body.contains("error") && body["error"].is_string())
    parsed.message = body["error"].get<std::string>(); // llama.cpp variants
  auto text = [](const json &value) -> std::string {
    if (value.is_string())
      return value.get<std::string>();
    if (value.is_number_integer())
      return std::to_string(value.get<int64_t>());
    return {};
  };
  if (error->contains("message"))
    parsed.message = text((*error)["message"]);
  if (error->contains("type"))
    parsed.type = text((*error)["type"]);
  if (error->contains("code"))
    parsed.code = text((*error)["code"]);
  std::string detailCode;
  if (error->contains("details") && (*error)["details"].is_object() &&
      (*error)["details"].contains("error_code"))
    detailCode = text((*error)["details"]["error_code"]);
  parsed.quotaExhausted = parsed.code == "insufficient_quota" ||
                          parsed.type == "insufficient_quota" ||
                          detailCode == "enforced_spend_limit_reached" ||
                          parsed.type == "billing_error";
  if (!detailCode.empty() && parsed.code.empty())
    parsed.code = detailCode;
  return parsed;
}

} // namespace plate::agent
