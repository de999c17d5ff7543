//===- EvalCommand.h - `plate eval`: metrics, sweeps, mutation study ------===//
//
// The glue between the command line and the evaluation harness of issue 6:
// `--score` (one candidate against one ground truth), `--check-corpus`
// (every ground truth compiles and passes the deterministic layer),
// `--mutation-study` (what the deterministic layer alone catches, per
// corpus), and the
// Parser x Validator sweep over the corpus with its Markdown/SVG/JSON
// report. Metrics live in agent/Metrics.h, layers and mutants in
// agent/Eval.h; this file compiles scripts and runs the translation loop.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/Eval.h"
#include "tools/plate/AgentOptions.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace plate {

struct EvalOptions {
  // --score, --equivalence
  std::string candidate;
  std::string equivalence; ///< a candidate to compare with --truth by what it does
  std::string truth;
  // corpus work
  std::vector<std::string> corpora; ///< --corpus, repeatable
  std::string answers; ///< recorded Parser replies to score against the corpus
  std::string only; ///< protocols whose directory name contains this
  bool checkCorpus = false;
  bool mutationStudy = false;
  bool verbose = false;
  // sweep
  std::vector<std::string> parsers;
  std::vector<std::string> validators;
  bool direct = false; ///< also run every Parser with --direct mapping
  unsigned maxAttempts = 3;
  unsigned jobs = 2;
  double perMinute = 0; ///< translations started per minute; 0: unlimited
  double temperature = 0;
  int64_t seed = 42;
  std::string outDir;
  std::string label; ///< what the sweep is (shown at the top of the report)
  std::string json;  ///< write the results as JSON here (score, mutation study)
  std::string stdlibDir;
  /// --cache and the transport flags (eval has no --connect-timeout).
  agent::ClientOptions client;
};

CLI::App *addEvalCommand(CLI::App &app, EvalOptions &options);
int runEvalCommand(const EvalOptions &options);

/// The two layers of a script: steps from the checked module, blocks from
/// the lowered commands (empty when it does not compile).
struct ScriptLayers {
  bool checked = false;  ///< parse + sema without errors
  bool compiled = false; ///< the whole pipeline without errors
  nlohmann::json diagnostics = nlohmann::json::array();
  std::vector<agent::StepRecord> steps;
  std::vector<agent::CommandBlock> blocks;
  /// The frontend's module and the platform, when the script checks: what
  /// equivalence (agent/Equivalence.h) runs.
  std::optional<ir::Module> module;
  std::optional<Platform> platform;
};
ScriptLayers layersOfScript(const std::string &script, const std::string &stdlibDir,
                            const std::string &layoutCsv = "");
/// A --direct answer: blocks only.
ScriptLayers layersOfCommands(const std::string &jsonl);

} // namespace plate
