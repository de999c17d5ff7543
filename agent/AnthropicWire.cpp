//===- AnthropicWire.cpp - Anthropic Messages -----------------------------===//
//
// Part of the LLM client; AnthropicWire.h names the protocol.
//
//===----------------------------------------------------------------------===//
#include "agent/AnthropicWire.h"

namespace plate::agent::anthropic {

using nlohmann::json;

json requestBody(const ModelSpec &spec, const ChatRequest &request) {
  const CallParams &params = request.params;
  json body;
  body["model"] = spec.model;
  body["max_tokens"] = params.maxTokens;
  body["system"] = request.system;
  body["messages"] = json::array({{{"role", "user"}, {"content", request.user}}});
  body["temperature"] = params.temperature;
  // top_p 1 is the API default; recent Claude models reject temperature
  // and top_p together, so the default is left implicit.
  if (params.topP != 1)
    body["top_p"] = params.topP;
  if (request.jsonSchema)
    body["output_config"] = {
        {"format", {{"type", "json_schema"}, {"schema", *request.jsonSchema}}}};
  return body;
}

void addKeyHeader(std::vector<std::string> &headers, const std::string &apiKey) {
  headers.push_back("x-api-key: " + apiKey);
  headers.push_back("anthropic-version: 2023-06-01");
}

ParsedReply parseReply(const json &body) {
  ParsedReply reply;
  auto content = body.find("content");
  if (body.value("type", "") != "message" || content == body.end() || !content->is_array()) {
    reply.error = "the response is not a Messages reply (`type` \"message\" with a "
                  "`content` array)";
    return reply;
  }
  // Text is every text block in order; thinking and tool blocks are skipped.
  for (const json &block : *content)
    if (block.is_object() && block.value("type", "") == "text" && block.contains("text") &&
        block["text"].is_string())
      reply.text += block["text"].get<std::string>();
  if (body.contains("stop_reason") && body["stop_reason"].is_string())
    reply.finishReason = body["stop_reason"].get<std::string>();
  reply.truncated = reply.finishReason == "max_tokens";
  if (body.contains("usage") && body["usage"].is_object()) {
    const json &usage = body["usage"];
    reply.inputTokens = usageCount(usage, "input_tokens") +
                        usageCount(usage, "cache_creation_input_tokens") +
                        usageCount(usage, "cache_read_input_tokens");
    reply.outputTokens = usageCount(usage, "output_tokens");
  }
  return reply;
}

} // namespace plate::agent::anthropic
