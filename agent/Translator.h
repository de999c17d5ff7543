//===- Translator.h - The self-correction loop of the dual-agent translation ---===//
//
// Attempt = Parser Agent, compile and lower, validate (compiler errors ->
// certain findings of the step alignment -> Validation Agent, each stopping
// the attempt when it finds something; the alignment's uncertain findings
// go to the Validation Agent as evidence, never to the Parser). Every
// finding that stops an attempt becomes structured feedback on the next
// Parser input, together with the previous script.
// The run is recorded in full (prompts, responses, diagnostics, findings,
// timings, tokens) so every decision can be traced.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/Finding.h"
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

/// What compiling one candidate and aligning it with the text produced.
struct CompileReport {
  bool ok = false;                 ///< no errors (warnings allowed)
  nlohmann::json diagnostics = nlohmann::json::array(); ///< all, as objects
  std::string summary;             ///< stepSummary() of the lowered module
  /// The step alignment's certain findings (agent/StepAlignment.h): they
  /// end the attempt and go back to the Parser.
  std::vector<Finding> certain;
  /// Its uncertain findings: evidence for the Validation Agent only.
  std::vector<Finding> uncertain;
  std::string alignment;          ///< alignmentEvidence(), for the Validator's prompt
  nlohmann::json alignmentRecord; ///< alignmentToJson(), for the run record
};

/// Turns the alignment's certain findings into evidence for the Validator
/// (first in the list, still labelled certain): on text the reader was not
/// developed on, half the correct scripts drew one (docs/agents.md), and a
/// wrong order to the Parser is worse than none.
void demoteToEvidence(CompileReport &report);

/// Compiles a candidate script and aligns its steps with the protocol
/// text. The driver provides it (it owns the Compilation).
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
