//===- OpenAiWire.cpp - OpenAI-compatible chat completions ----------------===//
//
// Part of the LLM client; OpenAiWire.h says which servers speak it.
//
//===----------------------------------------------------------------------===//
#include "agent/OpenAiWire.h"

namespace plate::agent::openai {

using nlohmann::json;

json requestBody(const ModelSpec &spec, const ChatRequest &request) {
  const CallParams &params = request.params;
  json body;
  body["model"] = spec.model;
  body["messages"] = json::array({{{"role", "system"}, {"content", request.system}},
                                  {{"role", "user"}, {"content", request.user}}});
  body["temperature"] = params.temperature;
  // vLLM applies the model's own sampling defaults unless told (§1.5).
  body["top_p"] = params.topP;
  if (params.seed)
    body["seed"] = *params.seed;
  body[spec.useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens"] =
      params.maxTokens;
  if (request.jsonSchema)
    body["response_format"] = {{"type", "json_schema"},
                               {"json_schema",
                                {{"name", request.schemaName},
                                 {"schema", *request.jsonSchema},
                                 {"strict", true}}}};
  return body;
}

void addKeyHeader(std::vector<std::string> &headers, const std::string &apiKey) {
  headers.push_back("Authorization: Bearer " + apiKey);
}

ParsedReply parseReply(const json &body) {
  ParsedReply reply;
  auto choices = body.find("choices");
  if (choices == body.end() || !choices->is_array() || choices->empty() ||
      !(*choices)[0].is_object() || !(*choices)[0].contains("message")) {
    reply.error = "the response has no `choices[0].message` (not a chat completion)";
    return reply;
  }
  const json &choice = (*choices)[0];
  const json &message = choice["message"];
  if (message.contains("content") && message["content"].is_string()) {
    reply.text = message["content"].get<std::string>();
  } else if (message.contains("content") && message["content"].is_array()) {
    for (const json &part : message["content"])
      if (part.value("type", "") == "text" && part.contains("text") && part["text"].is_string())
        reply.text += part["text"].get<std::string>();
  } else if (message.contains("refusal") && message["refusal"].is_string()) {
    reply.error = "the model refused: " + message["refusal"].get<std::string>();
    return reply;
  } else if (!message.contains("content") || !message["content"].is_null()) {
    reply.error = "`choices[0].message.content` is missing or not text";
    return reply;
  }
  if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
    reply.finishReason = choice["finish_reason"].get<std::string>();
  reply.truncated = reply.finishReason == "length";
  if (body.contains("usage") && body["usage"].is_object()) {
    reply.inputTokens = usageCount(body["usage"], "prompt_tokens");
    reply.outputTokens = usageCount(body["usage"], "completion_tokens");
  }
  if (body.contains("system_fingerprint") && body["system_fingerprint"].is_string())
    reply.systemFingerprint = body["system_fingerprint"].get<std::string>();
  return reply;
}

} // namespace plate::agent::openai
