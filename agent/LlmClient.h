//===- LlmClient.h - One chat interface over two LLM wire protocols -------===//
//
// The agents talk to language models through this one interface. Two wire
// protocols sit behind it: OpenAI-compatible chat completions (OpenAI, vLLM,
// llama.cpp server, Ollama's /v1) and Anthropic Messages. A call is composed
// of the model spec (ModelSpec.h), the wire format (WireFormat.h), the
// response cache (ResponseCache.h) and the HTTP transport
// (HttpTransport.h); this client adds the retry policy and the record of
// every call (CallRecord.h). API keys travel only in request headers and
// never reach a record, a log or an error message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/CallRecord.h"
#include "agent/ModelSpec.h"
#include "agent/WireFormat.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace plate::agent {

struct HttpReply;

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

struct ChatResult {
  bool ok = false;
  std::string text;      ///< the assistant's text (Anthropic: all text blocks)
  bool truncated = false; ///< finish_reason length / stop_reason max_tokens
  CallRecord record;
  /// Also in record.error; a one-line explanation with the fix.
  const std::string &error() const { return record.error; }
  LlmErrorKind errorKind() const { return record.errorKind; }
};

/// FNV-1a 64 of `text`, as 16 hex digits (cache keys).
std::string fnv1a64Hex(std::string_view text);

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
  /// What one try came to: a reply, or an error and whether to try again.
  struct Verdict;

  CallRecord startRecord(const ChatRequest &request, const std::string &bodyText) const;
  Verdict judge(const HttpReply &reply, const std::string &endpoint) const;
  Verdict judgeHttpError(const HttpReply &reply, const std::string &endpoint) const;
  /// Sleeps before try `attempt` + 2 as the reply or the backoff asks; says
  /// so in `tryRecord`.
  void waitBeforeRetry(unsigned attempt, const HttpReply &reply,
                       AttemptRecord &tryRecord) const;

  ModelSpec spec_;
  ClientOptions options_;
  std::string apiKey_;
};

} // namespace plate::agent
