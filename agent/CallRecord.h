//===- CallRecord.h - What a model call leaves for an audit -----*- C++ -*-===//
//
// Every model call is recorded (endpoint, model, parameters, usage,
// latency, status, attempts) so a run can be reproduced and audited. No
// record holds a key: errors are redacted before they get here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

enum class LlmErrorKind {
  None,
  Configuration, ///< missing key, bad spec
  Unreachable,   ///< cannot connect, DNS, TLS
  Timeout,
  Authentication, ///< 401, 403
  Quota,          ///< spent quota or spend limit: not retried
  BadRequest,     ///< 400, 404, 413, 422 ...
  RateLimited,    ///< 429 after every retry
  Server,         ///< 5xx / 529 after every retry
  Malformed,      ///< a 2xx body that is not the wire format
};
std::string_view errorKindName(LlmErrorKind kind);

/// One HTTP exchange of a call (a call retries several).
struct AttemptRecord {
  long status = 0; ///< 0: no HTTP response
  double latencySeconds = 0;
  std::string error;      ///< empty on success
  double waitSeconds = 0; ///< slept after this try before the next one
  std::string waitReason; ///< retry-after-ms, retry-after, backoff
};

/// Everything needed to reproduce or audit one model call. No keys.
struct CallRecord {
  std::string purpose;
  std::string endpoint;
  std::string provider;
  std::string wire;
  std::string model;
  std::string toolVersion;
  std::string timestamp; ///< ISO 8601 with the local offset
  double temperature = 0;
  double topP = 1;
  std::optional<int64_t> seed; ///< as sent (nullopt for Anthropic)
  unsigned maxTokens = 0;
  std::string maxTokensField; ///< max_tokens or max_completion_tokens
  bool structuredOutput = false;
  int64_t inputTokens = 0;
  int64_t outputTokens = 0;
  double latencySeconds = 0; ///< the whole call, waits included
  long status = 0;           ///< last HTTP status; 0 when none
  std::string finishReason;
  bool truncated = false;
  bool cached = false;
  std::string requestHash;
  std::string requestId; ///< x-request-id / request-id, when sent
  std::string systemFingerprint;
  std::vector<AttemptRecord> attempts;
  std::string error;
  LlmErrorKind errorKind = LlmErrorKind::None;
};
nlohmann::json toJson(const CallRecord &record);

/// Current time as ISO 8601 with the local offset (2025-01-31T14:03:07+01:00).
std::string isoTimestampNow();

} // namespace plate::agent
