//===- EvalCommand.h - `plate eval`: metrics, sweeps, mutation study ------===//
//
// The command line of the evaluation harness of issue 6: `--score` (one
// candidate against one ground truth), `--equivalence`, `--check-corpus`,
// `--mutation-study`, `--answers` and the Parser x Validator sweep. The
// harness itself lives in agent/ (EvalScoring, EvalCorpus, MutationStudy,
// EvalAnswers, EvalSweep, EvalReport); this file binds its options and
// hands it the driver's compiler.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/EvalScoring.h"
#include "agent/EvalSweep.h"
#include "tools/plate/AgentOptions.h"

#include <CLI/CLI.hpp>

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
  /// The sweep's models, attempts, concurrency, report directory, --cache
  /// and transport flags (eval has no --connect-timeout).
  agent::SweepSettings sweep;
  std::string json; ///< write the results as JSON here (score, mutation study)
  std::string stdlibDir;
};

CLI::App *addEvalCommand(CLI::App &app, EvalOptions &options);
int runEvalCommand(const EvalOptions &options);

/// The layers of a script compiled by the driver's Compilation: what the
/// harness's EvalCompiler::scriptLayers is in `plate eval`.
agent::ScriptLayers layersOfScript(const std::string &script, const std::string &stdlibDir,
                                   const std::string &layoutCsv = "");
/// A --direct answer: blocks only.
agent::ScriptLayers layersOfCommands(const std::string &jsonl);

} // namespace plate
