//===- AnthropicWire.h - Anthropic Messages ---------------------*- C++ -*-===//
//
// The Messages protocol of Anthropic: wire.md §2.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/WireFormat.h"

namespace plate::agent::anthropic {

nlohmann::json requestBody(const ModelSpec &spec, const ChatRequest &request);
/// Adds the key and the API version.
void addKeyHeader(std::vector<std::string> &headers, const std::string &apiKey);
/// Reads a 2xx body that is a JSON object.
ParsedReply parseReply(const nlohmann::json &body);

} // namespace plate::agent::anthropic
