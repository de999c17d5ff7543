//===- Translator.h - The self-correction loop of the dual-agent translation ---===//
//
// Attempt = Parser Agent, compile and lower, validate (compiler errors ->
// coverage check -> Validation Agent, each stopping the attempt when it
// finds something). Every finding of every layer becomes structured
// feedback on the next Parser input, together with the previous script.
// The run is recorded in full (prompts, responses, diagnostics, findings,
// timings, tokens) so every decision can be traced.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/CoverageCheck.h"
#include "agent/LlmClient.h"
#include "agent/ParserAgent.h"
#include "agent/ValidationAgent.h"
#include "ir/Platform.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plate::agent {

/// What compiling one candidate produced.
struct CompileReport {
  bool ok = false;                 ///< no errors (warnings allowed)
  nlohmann::json diagnostics = nlohmann::json::array(); ///< all, as objects
  std::string summary;             ///< stepSummary() of the lowered module
  std::vector<Finding> coverage;   ///< checkCoverage() on the AST
};

/// Compiles a candidate script and runs the coverage check against the
/// protocol text. The driver provides it (it owns the Compilation).
using CompileFn = std::function<CompileReport(const std::string &script,
                                              const std::string &protocolText)>;
/// Checks a --direct command stream; returns diagnostics (errors fail).
using CommandCheckFn = std::function<CompileReport(const std::string &jsonl)>;

struct TranslatorConfig {
  unsigned maxAttempts = 3;
  bool direct = false;
  CallParams parserParams;
  CallParams validatorParams;
  unsigned maxMalformedVerdicts = 2;
};

struct TranslationResult {
  std::string outcome; ///< 1st pass, 2nd pass, 3rd pass, ..., final fail
  bool passed = false;
  std::string finalOutput;      ///< the script (or JSONL) of the last attempt
  std::vector<Finding> findings; ///< of the last attempt
  nlohmann::json attempts = nlohmann::json::array();
  std::string error; ///< an LLM call failed for good
  LlmErrorKind errorKind = LlmErrorKind::None;
};

/// "1st pass", "2nd pass", "3rd pass", "4th pass", ...
std::string passName(unsigned attempt);

/// The feedback text for the next Parser input: one line per finding of
/// every layer, grouped by source.
std::string renderFeedback(const nlohmann::json &diagnostics, const std::vector<Finding> &findings);

class Translator {
public:
  Translator(LlmClient &parser, LlmClient &validator, const Platform &platform,
             TranslatorConfig config, CompileFn compile, CommandCheckFn checkCommands = {});

  TranslationResult run(const std::string &protocolText, const std::string &layout);

  /// Progress lines (attempt started, verdicts); stderr in the driver.
  std::function<void(const std::string &)> progress;

private:
  LlmClient &parser_;
  LlmClient &validator_;
  const Platform &platform_;
  TranslatorConfig config_;
  CompileFn compile_;
  CommandCheckFn checkCommands_;
};

} // namespace plate::agent
