//===- CallRecord.cpp - What a model call leaves for an audit -------------===//
//
// Part of the LLM client; CallRecord.h says what is recorded and why.
//
//===----------------------------------------------------------------------===//
#include "agent/CallRecord.h"

#include <fmt/format.h>

#include <ctime>

namespace plate::agent {

using nlohmann::json;

std::string_view errorKindName(LlmErrorKind kind) {
  switch (kind) {
  case LlmErrorKind::None: return "none";
  case LlmErrorKind::Configuration: return "configuration";
  case LlmErrorKind::Unreachable: return "unreachable";
  case LlmErrorKind::Timeout: return "timeout";
  case LlmErrorKind::Authentication: return "authentication";
  case LlmErrorKind::Quota: return "quota";
  case LlmErrorKind::BadRequest: return "bad_request";
  case LlmErrorKind::RateLimited: return "rate_limited";
  case LlmErrorKind::Server: return "server";
  case LlmErrorKind::Malformed: return "malformed";
  }
  return "unknown";
}

std::string isoTimestampNow() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[64];
  size_t length = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S%z", &local);
  std::string_view text(buffer, length); // ...+0100: ISO 8601 extended form wants +01:00
  if (text.size() < 5)
    return std::string(text);
  return fmt::format("{}:{}", text.substr(0, text.size() - 2), text.substr(text.size() - 2));
}

json toJson(const CallRecord &record) {
  json attempts = json::array();
  for (const AttemptRecord &attempt : record.attempts) {
    json entry = {{"status", attempt.status},
                  {"latency_s", attempt.latencySeconds}};
    if (!attempt.error.empty())
      entry["error"] = attempt.error;
    if (attempt.waitSeconds > 0) {
      entry["wait_s"] = attempt.waitSeconds;
      entry["wait_reason"] = attempt.waitReason;
    }
    attempts.push_back(std::move(entry));
  }
  json result = {
      {"purpose", record.purpose},
      {"endpoint", record.endpoint},
      {"provider", record.provider},
      {"wire", record.wire},
      {"model", record.model},
      {"tool_version", record.toolVersion},
      {"timestamp", record.timestamp},
      {"temperature", record.temperature},
      {"top_p", record.topP},
      {"seed", record.seed ? json(*record.seed) : json(nullptr)},
      {"max_tokens", record.maxTokens},
      {"max_tokens_field", record.maxTokensField},
      {"structured_output", record.structuredOutput},
      {"usage", {{"input_tokens", record.inputTokens}, {"output_tokens", record.outputTokens}}},
      {"latency_s", record.latencySeconds},
      {"status", record.status},
      {"finish_reason", record.finishReason},
      {"truncated", record.truncated},
      {"cached", record.cached},
      {"request_hash", record.requestHash},
      {"attempts", attempts},
  };
  if (!record.requestId.empty())
    result["request_id"] = record.requestId;
  if (!record.systemFingerprint.empty())
    result["system_fingerprint"] = record.systemFingerprint;
  if (record.errorKind != LlmErrorKind::None) {
    result["error"] = record.error;
    result["error_kind"] = errorKindName(record.errorKind);
  }
  return result;
}

} // namespace plate::agent
