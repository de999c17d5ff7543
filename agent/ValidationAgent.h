//===- ValidationAgent.h - A second LLM judges script against text --------===//
//
// The Validation Agent gets the original text, the script, a compact
// per-step summary of the lowered commands and the compiler's diagnostics,
// and answers with a verdict of a fixed JSON shape. The verdict is parsed
// strictly: anything but a well-formed verdict is malformed, retried a
// bounded number of times, and never taken as a pass.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/Finding.h"
#include "agent/LlmClient.h"
#include "ir/IR.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace plate::agent {

/// The JSON schema of a verdict (sent as structured output where the
/// provider supports it).
const nlohmann::json &verdictSchema();

struct Verdict {
  bool pass = false;
  std::vector<Finding> findings;
};

/// Parses a verdict strictly (a ```json fence around it is tolerated);
/// nullopt with the reason in `error` when it is not one.
std::optional<Verdict> parseVerdict(std::string_view reply, std::string &error);
/// The verdict in the wire shape of verdictSchema(), which parseVerdict
/// reads back to an equal verdict.
nlohmann::json verdictToJson(const Verdict &verdict);

/// One line per step of the compiled module: which commands it produced
/// and with which values, never the raw command list.
std::string stepSummary(const ir::Module &module);

struct ValidatorInput {
  std::string protocolText;
  std::string script;
  std::string summary;
  nlohmann::json diagnostics = nlohmann::json::array();
  /// The step alignment's table (alignmentEvidence()) and its uncertain
  /// findings: evidence to weigh, not orders.
  std::string alignment;
  std::vector<Finding> evidence;
};

ChatRequest buildValidatorRequest(const ValidatorInput &input, const CallParams &params);

struct ValidationRun {
  std::optional<Verdict> verdict; ///< nullopt: no valid verdict
  std::vector<nlohmann::json> calls; ///< prompt, response, call record each
  std::string error;                 ///< why there is no verdict
  LlmErrorKind llmError = LlmErrorKind::None;
};

/// Calls the validator, retrying a malformed or truncated verdict up to
/// `maxMalformedRetries` times with the reason attached.
ValidationRun runValidator(LlmClient &client, const ValidatorInput &input,
                           const CallParams &params, unsigned maxMalformedRetries = 2);

} // namespace plate::agent
