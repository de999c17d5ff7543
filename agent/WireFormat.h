//===- WireFormat.h - What a chat call sends and gets back ------*- C++ -*-===//
//
// A chat request, and what comes back, independent of the wire protocol;
// OpenAiWire.h and AnthropicWire.h write and read each protocol's JSON
// (wire.md §1, §2), and the functions here pick the one a spec names.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/ModelSpec.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

/// Sampling and length parameters; the same for every model of a run.
struct CallParams {
  double temperature = 0;
  double topP = 1;
  std::optional<int64_t> seed = 42; ///< never sent to Anthropic (it has none)
  unsigned maxTokens = 4096;
};

struct ChatRequest {
  std::string system;
  std::string user;
  CallParams params;
  /// When set, the answer must be JSON of this schema: OpenAI
  /// response_format json_schema (strict), Anthropic output_config.format.
  std::optional<nlohmann::json> jsonSchema;
  std::string schemaName = "answer";
  /// What the call is for ("parser", "validator"), for the record.
  std::string purpose;
};

/// The request body for a spec and a request (exposed for tests and the
/// cache key).
nlohmann::json buildRequestBody(const ModelSpec &spec, const ChatRequest &request);

/// The header lines of a request: JSON both ways and the key where the
/// spec's protocol takes it. The only place the key is written.
std::vector<std::string> requestHeaders(const ModelSpec &spec, const std::string &apiKey);

/// The parsed content of a 2xx body; `error` set when it is not the wire
/// format.
struct ParsedReply {
  std::string text;
  std::string finishReason;
  bool truncated = false;
  int64_t inputTokens = 0, outputTokens = 0;
  std::string systemFingerprint;
  std::string error;
};
ParsedReply parseReplyBody(WireProtocol wire, std::string_view body);

/// The parsed content of an error body, in any of the shapes of wire.md
/// (OpenAI, vLLM with integer codes, Anthropic).
struct ParsedError {
  std::string message;
  std::string type;
  std::string code; ///< a string, or an integer as text (vLLM)
  bool quotaExhausted = false;
};
ParsedError parseErrorBody(std::string_view body);

/// An integer count of a `usage` object (0 when absent), for the wire
/// formats.
int64_t usageCount(const nlohmann::json &usage, const char *key);

} // namespace plate::agent
