//===- LlmClient.h - One chat interface over two LLM wire protocols -------===//
//
// The agents talk to language models through this one interface. Two wire
// protocols sit behind it: OpenAI-compatible chat completions (OpenAI, vLLM,
// llama.cpp server, Ollama's /v1) and Anthropic Messages. Every call is
// recorded (endpoint, model, parameters, usage, latency, status, attempts)
// so a run can be reproduced and audited; API keys travel only in request
// headers and never reach a record, a log or an error message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

enum class WireProtocol { OpenAI, Anthropic };
std::string_view wireName(WireProtocol wire);

/// `provider:model[@base-url]`, resolved to a wire protocol and base URL.
struct ModelSpec {
  std::string text;     ///< as the user wrote it
  std::string provider; ///< openai, anthropic, ollama
  std::string model;
  /// OpenAI-compatible: ends in /v1, requests go to {base}/chat/completions.
  /// Anthropic: the host, requests go to {base}/v1/messages.
  std::string baseUrl;
  WireProtocol wire = WireProtocol::OpenAI;
  /// The base URL names this machine: no key is needed.
  bool local = false;
  /// The OpenAI cloud takes `max_completion_tokens`; every local or
  /// compatible server reads only `max_tokens` (wire.md §1.5, §6).
  bool useMaxCompletionTokens = false;

  /// Parses a spec; on failure returns nullopt and says why in `error`.
  static std::optional<ModelSpec> parse(std::string_view text, std::string &error);
  /// The URL requests are posted to.
  std::string endpoint() const;
  /// The model family (openai, anthropic, meta, qwen, ...), for the
  /// "validator of another family" rule.
  std::string family() const;
  /// The environment variable the key comes from.
  std::string_view keyVariable() const;
};

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

struct ClientOptions {
  double connectTimeoutSeconds = 10;
  double totalTimeoutSeconds = 120;
  /// Retries after the first try (the official SDKs default to 2).
  unsigned maxRetries = 2;
  /// Exponential backoff with jitter when the server names no wait.
  double backoffBaseSeconds = 0.5;
  double backoffCapSeconds = 8;
  /// A directory of cached responses keyed by request content; empty: off.
  std::string cacheDir;
  /// Replaces the real sleep (tests can observe waits without a clock).
  std::function<void(double seconds)> sleep;
};

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

struct ChatResult {
  bool ok = false;
  std::string text;      ///< the assistant's text (Anthropic: all text blocks)
  bool truncated = false; ///< finish_reason length / stop_reason max_tokens
  CallRecord record;
  /// Also in record.error; a one-line explanation with the fix.
  const std::string &error() const { return record.error; }
  LlmErrorKind errorKind() const { return record.errorKind; }
};

/// The request body for a spec and a request (exposed for tests and the
/// cache key).
nlohmann::json buildRequestBody(const ModelSpec &spec, const ChatRequest &request);

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

/// Wait the server asks for: retry-after-ms, then retry-after (seconds or an
/// HTTP date); honoured only in (0, 60] seconds.
std::optional<double> retryAfterSeconds(const std::vector<std::pair<std::string, std::string>> &headers);

/// FNV-1a 64 of `text`, as 16 hex digits (cache keys).
std::string fnv1a64Hex(std::string_view text);

/// Current time as ISO 8601 with the local offset (2025-01-31T14:03:07+01:00).
std::string isoTimestampNow();

/// Approximate token count: one token per 4 characters, rounded up (the
/// usual rule of thumb for BPE tokenizers on English and code).
size_t approximateTokens(std::string_view text);

class LlmClient {
public:
  /// `apiKey` may be empty for a local base URL.
  LlmClient(ModelSpec spec, ClientOptions options, std::string apiKey);

  /// Reads the key from the environment; nullopt and `error` (saying how
  /// to configure it) when a remote endpoint has none.
  static std::optional<LlmClient> fromEnvironment(ModelSpec spec, ClientOptions options,
                                                  std::string &error);

  ChatResult chat(const ChatRequest &request);

  const ModelSpec &spec() const { return spec_; }
  const ClientOptions &options() const { return options_; }

private:
  ModelSpec spec_;
  ClientOptions options_;
  std::string apiKey_;
};

} // namespace plate::agent
