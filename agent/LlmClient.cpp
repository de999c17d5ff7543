//===- LlmClient.cpp - A chat call: cache, transport, retries, record -----===//
//
// One HTTP POST per try. The retry policy follows the official SDKs
// (wire.md §1.4, §2.3): 408/409/429/5xx/529 are retried with the server's
// retry-after-ms / retry-after when it lies in (0, 60] s, else exponential
// backoff with jitter; a spent quota, a bad request or a rejected key is
// never retried.
//
//===----------------------------------------------------------------------===//
#include "agent/LlmClient.h"
#include "agent/HttpTransport.h"
#include "agent/ResponseCache.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <thread>

#ifndef PLATE_VERSION
#define PLATE_VERSION "0.0.0"
#endif

namespace plate::agent {

using nlohmann::json;

std::string fnv1a64Hex(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", hash);
}

size_t approximateTokens(std::string_view text) { return (text.size() + 3) / 4; }

namespace {

/// Replaces every occurrence of the key, so that no server echo of it (some
/// 401 bodies quote the key) reaches a record.
std::string redact(std::string text, const std::string &key) {
  if (key.size() < 4)
    return text;
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at))
    text.replace(at, key.size(), "[redacted]");
  return text;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void accept(ChatResult &result, const ParsedReply &reply) {
  result.ok = true;
  result.text = reply.text;
  result.truncated = reply.truncated;
  CallRecord &record = result.record;
  record.finishReason = reply.finishReason;
  record.truncated = reply.truncated;
  record.inputTokens = reply.inputTokens;
  record.outputTokens = reply.outputTokens;
  record.systemFingerprint = reply.systemFingerprint;
}

} // namespace

struct LlmClient::Verdict {
  std::optional<ParsedReply> reply; ///< set on success
  LlmErrorKind kind = LlmErrorKind::None;
  std::string message;
  bool retryable = false;
};

LlmClient::LlmClient(ModelSpec spec, ClientOptions options, std::string apiKey)
    : spec_(std::move(spec)), options_(std::move(options)), apiKey_(std::move(apiKey)) {}

std::optional<LlmClient> LlmClient::fromEnvironment(ModelSpec spec, ClientOptions options,
                                                    std::string &error) {
  std::string variable(spec.keyVariable());
  const char *value = std::getenv(variable.c_str());
  std::string key = value ? value : "";
  if (key.empty() && !spec.local) {
    error = fmt::format("no API key for `{}`: set {} in the environment (a local server, "
                        "@http://127.0.0.1:PORT/v1, needs none)",
                        spec.text, variable);
    return std::nullopt;
  }
  return LlmClient(std::move(spec), std::move(options), std::move(key));
}

ChatResult LlmClient::chat(const ChatRequest &request) {
  ChatResult result;
  json body = buildRequestBody(spec_, request);
  std::string bodyText = body.dump();
  CallRecord &record = result.record = startRecord(request, bodyText);

  // A cached reply replays the exact body the model once sent.
  ResponseCache cache(options_.cacheDir, record.requestHash);
  std::optional<ParsedReply> replayed;
  if (std::optional<CachedReply> cached = cache.find([&](const std::string &cachedBody) {
        replayed = parseReplyBody(spec_.wire, cachedBody);
        return replayed->error.empty();
      })) {
    record.cached = true;
    record.status = cached->status;
    record.latencySeconds = cached->latencySeconds;
    accept(result, *replayed);
    return result;
  }

  std::vector<std::string> headers = requestHeaders(spec_, apiKey_);
  auto start = std::chrono::steady_clock::now();
  for (unsigned attempt = 0;; ++attempt) {
    auto tryStart = std::chrono::steady_clock::now();
    HttpReply reply = httpPost(record.endpoint, headers, bodyText,
                               {options_.connectTimeoutSeconds, options_.totalTimeoutSeconds});
    AttemptRecord &tryRecord = record.attempts.emplace_back();
    tryRecord.latencySeconds = secondsSince(tryStart);
    tryRecord.status = reply.status;
    record.status = reply.status;
    if (auto id = reply.header("x-request-id"))
      record.requestId = *id;
    else if (auto id = reply.header("request-id"))
      record.requestId = *id;

    Verdict verdict = judge(reply, record.endpoint);
    if (verdict.reply) {
      accept(result, *verdict.reply);
      record.latencySeconds = secondsSince(start);
      cache.store(body, {reply.status, record.latencySeconds, reply.body});
      return result;
    }
    tryRecord.error = redact(verdict.message, apiKey_);
    if (!verdict.retryable || attempt >= options_.maxRetries) {
      record.latencySeconds = secondsSince(start);
      if (verdict.retryable)
        verdict.message += fmt::format(" (after {} tries)", attempt + 1);
      result.ok = false;
      record.errorKind = verdict.kind;
      record.error = redact(std::move(verdict.message), apiKey_);
      return result;
    }
    waitBeforeRetry(attempt, reply, tryRecord);
  }
}

CallRecord LlmClient::startRecord(const ChatRequest &request,
                                  const std::string &bodyText) const {
  CallRecord record;
  record.purpose = request.purpose;
  record.endpoint = spec_.endpoint();
  record.provider = spec_.provider;
  record.wire = std::string(wireName(spec_.wire));
  record.model = spec_.model;
  record.toolVersion = "plate " PLATE_VERSION;
  record.timestamp = isoTimestampNow();
  record.temperature = request.params.temperature;
  record.topP = request.params.topP;
  if (spec_.wire == WireProtocol::OpenAI)
    record.seed = request.params.seed;
  record.maxTokens = request.params.maxTokens;
  record.maxTokensField = spec_.useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens";
  record.structuredOutput = request.jsonSchema.has_value();
  record.requestHash = fnv1a64Hex(std::string(wireName(spec_.wire)) + "\n" + bodyText);
  return record;
}

LlmClient::Verdict LlmClient::judge(const HttpReply &reply, const std::string &endpoint) const {
  Verdict verdict;
  if (reply.transportFailed) {
    verdict.kind = reply.timedOut ? LlmErrorKind::Timeout : LlmErrorKind::Unreachable;
    verdict.retryable = reply.transient;
    verdict.message =
        reply.timedOut
            ? fmt::format("{} did not answer within {} s ({})", endpoint,
                          options_.totalTimeoutSeconds, reply.transportError)
            : fmt::format("cannot reach {}: {}; check the base URL in `{}` and that the "
                          "server is running",
                          endpoint, reply.transportError, spec_.text);
    return verdict;
  }
  if (reply.status < 200 || reply.status >= 300)
    return judgeHttpError(reply, endpoint);
  ParsedReply parsed = parseReplyBody(spec_.wire, reply.body);
  if (parsed.error.empty()) {
    verdict.reply = std::move(parsed);
    return verdict;
  }
  verdict.kind = LlmErrorKind::Malformed;
  verdict.message =
      fmt::format("{} answered HTTP {} but {}", endpoint, reply.status, parsed.error);
  return verdict;
}

LlmClient::Verdict LlmClient::judgeHttpError(const HttpReply &reply,
                                             const std::string &endpoint) const {
  Verdict verdict;
  ParsedError parsed = parseErrorBody(reply.body);
  long status = reply.status;
  std::string detail = parsed.type;
  if (!parsed.code.empty())
    detail += (detail.empty() ? "" : ", ") + parsed.code;
  verdict.message = fmt::format("{} answered HTTP {}{}: {}", endpoint, status,
                                detail.empty() ? "" : " (" + detail + ")",
                                parsed.message.empty() ? "no message" : parsed.message);
  if (parsed.quotaExhausted || status == 402) {
    verdict.kind = LlmErrorKind::Quota;
    verdict.message += "; the account's quota or spend limit is used up (not retried)";
    return verdict;
  }
  if (status == 401 || status == 403) {
    verdict.kind = LlmErrorKind::Authentication;
    verdict.message += fmt::format("; check {}", spec_.keyVariable());
  } else if (status == 429) {
    verdict.kind = LlmErrorKind::RateLimited;
    verdict.retryable = true;
  } else if (status >= 500 || status == 408 || status == 409) {
    verdict.kind = LlmErrorKind::Server;
    verdict.retryable = true;
  } else {
    verdict.kind = LlmErrorKind::BadRequest;
    if (status == 404)
      verdict.message +=
          fmt::format("; check the model name and the base URL of `{}`", spec_.text);
  }
  // The server may overrule the status (wire.md §1.4), except on a spent
  // quota.
  if (auto should = reply.header("x-should-retry")) {
    if (*should == "true")
      verdict.retryable = true;
    else if (*should == "false")
      verdict.retryable = false;
  }
  return verdict;
}

void LlmClient::waitBeforeRetry(unsigned attempt, const HttpReply &reply,
                                AttemptRecord &tryRecord) const {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  double wait;
  if (auto after = retryAfterSeconds(reply.headers)) {
    wait = *after;
    tryRecord.waitReason = reply.header("retry-after-ms") ? "retry-after-ms" : "retry-after";
  } else {
    double backoff = std::min(options_.backoffBaseSeconds * std::pow(2.0, attempt),
                              options_.backoffCapSeconds);
    double jitter = 1 - 0.25 * std::uniform_real_distribution<double>(0, 1)(random);
    wait = backoff * jitter;
    tryRecord.waitReason = "backoff";
  }
  tryRecord.waitSeconds = wait;
  if (options_.sleep)
    options_.sleep(wait);
  else
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
}

} // namespace plate::agent
