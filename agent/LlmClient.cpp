//===- LlmClient.cpp - OpenAI chat completions and Anthropic Messages -----===//
//
// One libcurl POST per try. The retry policy follows the official SDKs
// (wire.md §1.4, §2.3): 408/409/429/5xx/529 are retried with the server's
// retry-after-ms / retry-after when it lies in (0, 60] s, else exponential
// backoff with jitter; a spent quota, a bad request or a rejected key is
// never retried. TLS peer verification is libcurl's default and stays on.
//
//===----------------------------------------------------------------------===//
#include "agent/LlmClient.h"
#include "agent/CurlLibrary.h"
#include "ir/JsonParse.h"

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#ifndef PLATE_VERSION
#define PLATE_VERSION "0.0.0"
#endif

namespace plate::agent {

using nlohmann::json;

std::string_view wireName(WireProtocol wire) {
  return wire == WireProtocol::OpenAI ? "openai-chat-completions" : "anthropic-messages";
}

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

//===--- Model specs -------------------------------------------------------===//

namespace {

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

/// The host of an http(s) URL, without port or brackets.
std::string urlHost(std::string_view url) {
  size_t scheme = url.find("://");
  std::string_view rest = scheme == std::string_view::npos ? url : url.substr(scheme + 3);
  rest = rest.substr(0, rest.find('/'));
  if (startsWith(rest, "[")) {
    size_t close = rest.find(']');
    return std::string(rest.substr(1, close == std::string_view::npos ? rest.npos : close - 1));
  }
  return llvm::StringRef(rest.substr(0, rest.find(':'))).lower();
}

} // namespace

std::optional<ModelSpec> ModelSpec::parse(std::string_view text, std::string &error) {
  ModelSpec spec;
  spec.text = std::string(text);
  size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    error = fmt::format("model `{}` has no provider; write provider:model[@base-url], "
                        "e.g. openai:gpt-4.1, anthropic:claude-sonnet-4-6, ollama:llama3.3",
                        text);
    return std::nullopt;
  }
  spec.provider = llvm::StringRef(text.substr(0, colon)).lower();
  std::string_view rest = text.substr(colon + 1);
  size_t at = rest.find("@http");
  std::string_view model = rest.substr(0, at);
  if (at != std::string_view::npos)
    spec.baseUrl = std::string(rest.substr(at + 1));
  if (model.empty()) {
    error = fmt::format("model `{}` names no model after `{}:`", text, spec.provider);
    return std::nullopt;
  }
  spec.model = std::string(model);

  if (spec.provider == "openai") {
    spec.wire = WireProtocol::OpenAI;
    if (spec.baseUrl.empty())
      spec.baseUrl = "https://api.openai.com/v1";
  } else if (spec.provider == "ollama") {
    spec.wire = WireProtocol::OpenAI;
    if (spec.baseUrl.empty())
      spec.baseUrl = "http://localhost:11434/v1";
  } else if (spec.provider == "anthropic") {
    spec.wire = WireProtocol::Anthropic;
    if (spec.baseUrl.empty())
      spec.baseUrl = "https://api.anthropic.com";
  } else {
    error = fmt::format("unknown provider `{}` in `{}`; use openai (also for vLLM and "
                        "llama.cpp servers with @base-url), anthropic or ollama",
                        spec.provider, text);
    return std::nullopt;
  }
  while (!spec.baseUrl.empty() && spec.baseUrl.back() == '/')
    spec.baseUrl.pop_back();
  if (!startsWith(spec.baseUrl, "http://") && !startsWith(spec.baseUrl, "https://")) {
    error = fmt::format("base URL `{}` must start with http:// or https://", spec.baseUrl);
    return std::nullopt;
  }
  // The providers' SDKs use these base URL conventions; a base of the
  // other kind would post to a path that does not exist.
  bool endsInV1 = spec.baseUrl.size() >= 3 &&
                  spec.baseUrl.compare(spec.baseUrl.size() - 3, 3, "/v1") == 0;
  if (spec.wire == WireProtocol::Anthropic && endsInV1) {
    error = fmt::format("Anthropic base URL `{}` ends in /v1; give the host only (requests "
                        "go to {{base}}/v1/messages)",
                        spec.baseUrl);
    return std::nullopt;
  }
  if (spec.wire == WireProtocol::OpenAI && !endsInV1) {
    error = fmt::format("OpenAI-compatible base URL `{}` does not end in /v1; requests go "
                        "to {{base}}/chat/completions, e.g. http://127.0.0.1:8000/v1",
                        spec.baseUrl);
    return std::nullopt;
  }
  std::string host = urlHost(spec.baseUrl);
  spec.local = host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "0.0.0.0";
  spec.useMaxCompletionTokens = spec.provider == "openai" && host == "api.openai.com";
  return spec;
}

std::string ModelSpec::endpoint() const {
  return wire == WireProtocol::OpenAI ? baseUrl + "/chat/completions" : baseUrl + "/v1/messages";
}

std::string_view ModelSpec::keyVariable() const {
  return wire == WireProtocol::Anthropic ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
}

std::string ModelSpec::family() const {
  std::string name = llvm::StringRef(model).lower();
  size_t slash = name.rfind('/'); // hub names: meta-llama/Llama-3.3-70B
  if (slash != std::string::npos)
    name = name.substr(slash + 1);
  static const std::pair<const char *, const char *> prefixes[] = {
      {"gpt", "openai"},       {"chatgpt", "openai"},   {"o1", "openai"},
      {"o3", "openai"},        {"o4", "openai"},        {"claude", "anthropic"},
      {"llama", "meta"},       {"meta-llama", "meta"},  {"codellama", "meta"},
      {"qwen", "qwen"},        {"qwq", "qwen"},         {"mistral", "mistral"},
      {"mixtral", "mistral"},  {"codestral", "mistral"}, {"ministral", "mistral"},
      {"gemma", "google"},     {"gemini", "google"},    {"deepseek", "deepseek"},
      {"phi", "microsoft"},    {"command", "cohere"},   {"granite", "ibm"},
  };
  for (auto [prefix, family] : prefixes)
    if (startsWith(name, prefix))
      return family;
  if (provider == "anthropic")
    return "anthropic";
  // Unknown local model: its name up to the first version-like character.
  size_t end = name.find_first_of("0123456789-_.:");
  return name.substr(0, end == std::string::npos ? name.size() : std::max<size_t>(end, 1));
}

//===--- Small utilities ---------------------------------------------------===//

std::string fnv1a64Hex(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", hash);
}

std::string isoTimestampNow() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S%z", &local);
  std::string text = buffer; // ...+0100: ISO 8601 extended form wants +01:00
  if (text.size() >= 5)
    text.insert(text.size() - 2, ":");
  return text;
}

size_t approximateTokens(std::string_view text) { return (text.size() + 3) / 4; }

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

//===--- Wire formats ------------------------------------------------------===//

json buildRequestBody(const ModelSpec &spec, const ChatRequest &request) {
  const CallParams &params = request.params;
  json body;
  body["model"] = spec.model;
  if (spec.wire == WireProtocol::OpenAI) {
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
  } else {
    body["max_tokens"] = params.maxTokens;
    body["system"] = request.system;
    body["messages"] = json::array({{{"role", "user"}, {"content", request.user}}});
    body["temperature"] = params.temperature;
    // top_p 1 is the API default; recent Claude models reject temperature
    // and top_p together, so the default is left implicit.
    if (params.topP != 1)
      body["top_p"] = params.topP;
    if (request.jsonSchema)
      body["output_config"] = {{"format", {{"type", "json_schema"}, {"schema", *request.jsonSchema}}}};
  }
  return body;
}

ParsedReply parseReplyBody(WireProtocol wire, std::string_view bodyText) {
  ParsedReply reply;
  json body = parseJsonOrDiscarded<json>(bodyText);
  if (body.is_discarded() || !body.is_object()) {
    reply.error = "the response body is not a JSON object";
    return reply;
  }
  auto tokens = [](const json &usage, const char *key) -> int64_t {
    auto it = usage.find(key);
    return it != usage.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
  };
  if (wire == WireProtocol::OpenAI) {
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
      reply.inputTokens = tokens(body["usage"], "prompt_tokens");
      reply.outputTokens = tokens(body["usage"], "completion_tokens");
    }
    if (body.contains("system_fingerprint") && body["system_fingerprint"].is_string())
      reply.systemFingerprint = body["system_fingerprint"].get<std::string>();
    return reply;
  }
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
    reply.inputTokens = tokens(usage, "input_tokens") +
                        tokens(usage, "cache_creation_input_tokens") +
                        tokens(usage, "cache_read_input_tokens");
    reply.outputTokens = tokens(usage, "output_tokens");
  }
  return reply;
}

ParsedError parseErrorBody(std::string_view bodyText) {
  ParsedError parsed;
  json body = parseJsonOrDiscarded<json>(bodyText);
  if (body.is_discarded() || !body.is_object()) {
    std::string snippet(bodyText.substr(0, 200));
    std::replace(snippet.begin(), snippet.end(), '\n', ' ');
    parsed.message = snippet.empty() ? "empty body" : "non-JSON body: " + snippet;
    return parsed;
  }
  // OpenAI, Ollama and new vLLM nest under `error`; old vLLM is flat.
  const json *error = &body;
  if (body.contains("error") && body["error"].is_object())
    error = &body["error"];
  else if (body.contains("error") && body["error"].is_string())
    parsed.message = body["error"].get<std::string>(); // llama.cpp variants
  auto text = [](const json &value) -> std::string {
    if (value.is_string())
      return value.get<std::string>();
    if (value.is_number_integer())
      return std::to_string(value.get<int64_t>());
    return {};
  };
  if (error->contains("message"))
    parsed.message = text((*error)["message"]);
  if (error->contains("type"))
    parsed.type = text((*error)["type"]);
  if (error->contains("code"))
    parsed.code = text((*error)["code"]);
  std::string detailCode;
  if (error->contains("details") && (*error)["details"].is_object() &&
      (*error)["details"].contains("error_code"))
    detailCode = text((*error)["details"]["error_code"]);
  parsed.quotaExhausted = parsed.code == "insufficient_quota" ||
                          parsed.type == "insufficient_quota" ||
                          detailCode == "enforced_spend_limit_reached" ||
                          parsed.type == "billing_error";
  if (!detailCode.empty() && parsed.code.empty())
    parsed.code = detailCode;
  return parsed;
}

std::optional<double>
retryAfterSeconds(const std::vector<std::pair<std::string, std::string>> &headers) {
  auto find = [&](std::string_view name) -> std::optional<std::string> {
    for (const auto &[key, value] : headers)
      if (key == name)
        return value;
    return std::nullopt;
  };
  auto inRange = [](double seconds) -> std::optional<double> {
    if (seconds > 0 && seconds <= 60)
      return seconds;
    return std::nullopt;
  };
  if (auto ms = find("retry-after-ms")) {
    char *end = nullptr;
    double value = std::strtod(ms->c_str(), &end);
    if (end != ms->c_str())
      if (auto seconds = inRange(value / 1000))
        return seconds;
  }
  if (auto after = find("retry-after")) {
    char *end = nullptr;
    double value = std::strtod(after->c_str(), &end);
    if (end != after->c_str() && *end == '\0')
      return inRange(value);
    std::string unavailable;
    const CurlLibrary *curl = curlLibrary(unavailable);
    time_t when = curl ? curl->getdate(after->c_str(), nullptr) : -1;
    if (when != -1)
      return inRange(std::difftime(when, std::time(nullptr)));
  }
  return std::nullopt;
}

//===--- HTTP --------------------------------------------------------------===//

namespace {

struct HttpReply {
  CURLcode code = CURLE_OK;
  std::string curlError;
  long status = 0;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers; ///< lower-case names
};

size_t writeBody(char *data, size_t size, size_t count, void *user) {
  static_cast<std::string *>(user)->append(data, size * count);
  return size * count;
}

size_t writeHeader(char *data, size_t size, size_t count, void *user) {
  auto *headers = static_cast<std::vector<std::pair<std::string, std::string>> *>(user);
  std::string_view line(data, size * count);
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name = llvm::StringRef(line.substr(0, colon)).lower();
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    headers->emplace_back(std::move(name), std::string(value));
  } else if (startsWith(line, "HTTP/")) {
    headers->clear(); // a new response (after 100-continue) starts over
  }
  return size * count;
}

HttpReply httpPost(const std::string &url, const std::vector<std::string> &headerLines,
                   const std::string &body, const ClientOptions &options) {
  HttpReply reply;
  const CurlLibrary *library = curlLibrary(reply.curlError);
  if (!library) {
    reply.code = CURLE_FAILED_INIT;
    return reply;
  }
  CURL *curl = library->easy_init();
  if (!curl) {
    reply.code = CURLE_FAILED_INIT;
    reply.curlError = "libcurl could not start a session";
    return reply;
  }
  char errorBuffer[CURL_ERROR_SIZE] = {0};
  curl_slist *headers = nullptr;
  for (const std::string &line : headerLines)
    headers = library->slist_append(headers, line.c_str());
  library->easy_setopt(curl, CURLOPT_URL, url.c_str());
  library->easy_setopt(curl, CURLOPT_POST, 1L);
  library->easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  library->easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  library->easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  library->easy_setopt(curl, CURLOPT_WRITEFUNCTION, writeBody);
  library->easy_setopt(curl, CURLOPT_WRITEDATA, &reply.body);
  library->easy_setopt(curl, CURLOPT_HEADERFUNCTION, writeHeader);
  library->easy_setopt(curl, CURLOPT_HEADERDATA, &reply.headers);
  library->easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
  library->easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  library->easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options.connectTimeoutSeconds * 1000));
  library->easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.totalTimeoutSeconds * 1000));
  library->easy_setopt(curl, CURLOPT_USERAGENT, "plate/" PLATE_VERSION);
  // Proxies from the environment would route 127.0.0.1 elsewhere.
  library->easy_setopt(curl, CURLOPT_NOPROXY, "127.0.0.1,localhost,::1");
  reply.code = library->easy_perform(curl);
  if (reply.code != CURLE_OK)
    reply.curlError = errorBuffer[0] ? errorBuffer : library->easy_strerror(reply.code);
  else
    library->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  library->slist_free_all(headers);
  library->easy_cleanup(curl);
  return reply;
}

std::optional<std::string> header(const HttpReply &reply, std::string_view name) {
  for (const auto &[key, value] : reply.headers)
    if (key == name)
      return value;
  return std::nullopt;
}

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

} // namespace

//===--- The client --------------------------------------------------------===//

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
  CallRecord &record = result.record;
  json body = buildRequestBody(spec_, request);
  std::string bodyText = body.dump();
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

  auto accept = [&](const ParsedReply &reply) {
    result.ok = true;
    result.text = reply.text;
    result.truncated = reply.truncated;
    record.finishReason = reply.finishReason;
    record.truncated = reply.truncated;
    record.inputTokens = reply.inputTokens;
    record.outputTokens = reply.outputTokens;
    record.systemFingerprint = reply.systemFingerprint;
  };
  auto fail = [&](LlmErrorKind kind, std::string message) {
    result.ok = false;
    record.errorKind = kind;
    record.error = redact(std::move(message), apiKey_);
  };

  // A cached reply replays the exact body the model once sent.
  std::filesystem::path cacheFile;
  if (!options_.cacheDir.empty()) {
    cacheFile = std::filesystem::path(options_.cacheDir) / (record.requestHash + ".json");
    std::ifstream in(cacheFile);
    if (in) {
      json entry = parseJsonOrDiscarded<json>(in);
      if (!entry.is_discarded() && entry.contains("response_body") &&
          entry["response_body"].is_string()) {
        ParsedReply reply = parseReplyBody(spec_.wire, entry["response_body"].get<std::string>());
        if (reply.error.empty()) {
          record.cached = true;
          record.status = entry.value("status", 200L);
          // The latency the model once took, so a replayed sweep reports
          // the run it replays (record.cached tells the two apart).
          record.latencySeconds = entry.value("latency_s", 0.0);
          accept(reply);
          return result;
        }
      }
    }
  }

  std::vector<std::string> headers = {"Content-Type: application/json",
                                      "Accept: application/json"};
  // Local servers need some bearer value even when they ignore it.
  std::string key = apiKey_.empty() ? "none" : apiKey_;
  if (spec_.wire == WireProtocol::OpenAI) {
    headers.push_back("Authorization: Bearer " + key);
  } else {
    headers.push_back("x-api-key: " + key);
    headers.push_back("anthropic-version: 2023-06-01");
  }

  static thread_local std::mt19937_64 random{std::random_device{}()};
  auto start = std::chrono::steady_clock::now();
  for (unsigned attempt = 0;; ++attempt) {
    auto tryStart = std::chrono::steady_clock::now();
    HttpReply reply = httpPost(record.endpoint, headers, bodyText, options_);
    AttemptRecord &tryRecord = record.attempts.emplace_back();
    tryRecord.latencySeconds = secondsSince(tryStart);
    tryRecord.status = reply.status;
    record.status = reply.status;
    if (auto id = header(reply, "x-request-id"))
      record.requestId = *id;
    else if (auto id = header(reply, "request-id"))
      record.requestId = *id;

    bool retryable = false;
    LlmErrorKind kind = LlmErrorKind::None;
    std::string message;
    if (reply.code != CURLE_OK) {
      bool timedOut = reply.code == CURLE_OPERATION_TIMEDOUT;
      kind = timedOut ? LlmErrorKind::Timeout : LlmErrorKind::Unreachable;
      retryable = timedOut || reply.code == CURLE_COULDNT_CONNECT ||
                  reply.code == CURLE_RECV_ERROR || reply.code == CURLE_SEND_ERROR ||
                  reply.code == CURLE_GOT_NOTHING;
      message = timedOut
                    ? fmt::format("{} did not answer within {} s ({})", record.endpoint,
                                  options_.totalTimeoutSeconds, reply.curlError)
                    : fmt::format("cannot reach {}: {}; check the base URL in `{}` and that "
                                  "the server is running",
                                  record.endpoint, reply.curlError, spec_.text);
    } else if (reply.status >= 200 && reply.status < 300) {
      ParsedReply parsed = parseReplyBody(spec_.wire, reply.body);
      if (parsed.error.empty()) {
        accept(parsed);
        record.latencySeconds = secondsSince(start);
        if (!cacheFile.empty()) {
          std::error_code ignored;
          std::filesystem::create_directories(cacheFile.parent_path(), ignored);
          std::ofstream out(cacheFile);
          out << json{{"request_hash", record.requestHash},
                      {"request", body},
                      {"status", reply.status},
                      {"latency_s", record.latencySeconds},
                      {"response_body", reply.body}}
                     .dump(1)
              << "\n";
        }
        return result;
      }
      kind = LlmErrorKind::Malformed;
      message = fmt::format("{} answered HTTP {} but {}", record.endpoint, reply.status,
                            parsed.error);
    } else {
      ParsedError parsed = parseErrorBody(reply.body);
      long status = reply.status;
      std::string detail = parsed.type;
      if (!parsed.code.empty())
        detail += (detail.empty() ? "" : ", ") + parsed.code;
      message = fmt::format("{} answered HTTP {}{}: {}", record.endpoint, status,
                            detail.empty() ? "" : " (" + detail + ")",
                            parsed.message.empty() ? "no message" : parsed.message);
      if (parsed.quotaExhausted || status == 402) {
        kind = LlmErrorKind::Quota;
        message += "; the account's quota or spend limit is used up (not retried)";
      } else if (status == 401 || status == 403) {
        kind = LlmErrorKind::Authentication;
        message += fmt::format("; check {}", spec_.keyVariable());
      } else if (status == 429) {
        kind = LlmErrorKind::RateLimited;
        retryable = true;
      } else if (status >= 500) {
        kind = LlmErrorKind::Server;
        retryable = true;
      } else if (status == 408 || status == 409) {
        kind = LlmErrorKind::Server;
        retryable = true;
      } else {
        kind = LlmErrorKind::BadRequest;
        if (status == 404)
          message += fmt::format("; check the model name and the base URL of `{}`", spec_.text);
      }
      if (kind != LlmErrorKind::Quota) {
        if (auto should = header(reply, "x-should-retry")) {
          if (*should == "true")
            retryable = true;
          else if (*should == "false")
            retryable = false;
        }
      }
    }
    tryRecord.error = redact(message, apiKey_);
    if (!retryable || attempt >= options_.maxRetries) {
      record.latencySeconds = secondsSince(start);
      if (retryable)
        message += fmt::format(" (after {} tries)", attempt + 1);
      fail(kind, std::move(message));
      return result;
    }
    double wait;
    if (auto after = retryAfterSeconds(reply.headers)) {
      wait = *after;
      tryRecord.waitReason = header(reply, "retry-after-ms") ? "retry-after-ms" : "retry-after";
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
}

} // namespace plate::agent
