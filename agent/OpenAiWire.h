//===- OpenAiWire.h - OpenAI-compatible chat completions --------*- C++ -*-===//
//
// The chat completions protocol of OpenAI and the servers that speak it
// (vLLM, llama.cpp server, Ollama's /v1): wire.md §1.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/WireFormat.h"

namespace plate::agent::openai {

nlohmann::json requestBody(const ModelSpec &spec, const ChatRequest &request);
/// Adds the key as a bearer token.
void addKeyHeader(std::vector<std::string> &headers, const std::string &apiKey);
/// Reads a 2xx body that is a JSON object.
ParsedReply parseReply(const nlohmann::json &body);

} // namespace plate::agent::openai
