//===- ModelSpec.cpp - Which model, behind which wire protocol ------------===//
//
// Part of the LLM client; ModelSpec.h says what a spec is.
//
//===----------------------------------------------------------------------===//
#include "agent/ModelSpec.h"

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <utility>

namespace plate::agent {

std::string_view wireName(WireProtocol wire) {
  return wire == WireProtocol::OpenAI ? "openai-chat-completions" : "anthropic-messages";
}

namespace {

/// The host of an http(s) URL, without port or brackets.
std::string urlHost(std::string_view url) {
  size_t scheme = url.find("://");
  std::string_view rest = scheme == std::string_view::npos ? url : url.substr(scheme + 3);
  rest = rest.substr(0, rest.find('/'));
  if (rest.starts_with("[")) {
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
  if (!spec.baseUrl.starts_with("http://") && !spec.baseUrl.starts_with("https://")) {
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
    if (name.starts_with(prefix))
      return family;
  if (provider == "anthropic")
    return "anthropic";
  // Unknown local model: its name up to the first version-like character.
  size_t end = name.find_first_of("0123456789-_.:");
  return name.substr(0, end == std::string::npos ? name.size() : std::max<size_t>(end, 1));
}

} // namespace plate::agent
