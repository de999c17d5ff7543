//===- ModelSpec.h - Which model, behind which wire protocol ----*- C++ -*-===//
//
// A model is named `provider:model[@base-url]` (docs/agents.md); the spec
// resolves the name to the wire protocol, the URL requests go to and the
// environment variable the key comes from.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>

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

} // namespace plate::agent
