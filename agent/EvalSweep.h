//===- EvalSweep.h - Parser x Validator sweeps over a corpus ----*- C++ -*-===//
//
// Every Parser with every Validator (and, with `direct`, every Parser with
// direct command mapping) translates every protocol of the corpus through
// the loop of agent/Translator.h; every attempt is scored against the
// ground truth. Translations run on `jobs` threads because the waits are
// on the network; `perMinute` spaces their starts for rate-limited APIs.
// A sweep run with a response cache replays offline.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/EvalCorpus.h"
#include "agent/EvalScoring.h"
#include "agent/LlmClient.h"
#include "ir/Platform.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plate::agent {

/// How a sweep runs, and what its report says it was.
struct SweepSettings {
  std::vector<std::string> parsers;    ///< model specs, provider:model[@base-url]
  std::vector<std::string> validators; ///< model specs
  bool direct = false; ///< also run every Parser with --direct mapping
  unsigned maxAttempts = 3;
  unsigned jobs = 2;
  double perMinute = 0; ///< translations started per minute; 0: unlimited
  double temperature = 0;
  int64_t seed = 42;
  std::string outDir; ///< where report.md, sweep.json and the charts go
  std::string label;  ///< what the sweep is (shown at the top of the report)
  /// --cache and the transport settings of every model call.
  ClientOptions client;
};

/// A finished sweep: what sweep.json holds.
struct SweepResult {
  std::string started; ///< ISO timestamp
  /// One record per translation (protocol, models, mode, outcome, every
  /// attempt scored, PA after each attempt), in job order.
  nlohmann::json runs = nlohmann::json::array();
};

/// Runs the sweep; `progress` gets a line per finished translation (from
/// the worker threads, one at a time; no newline, as the Translator's).
/// Nullopt with `error` when a model spec does not parse or a ground truth
/// does not compile.
std::optional<SweepResult> runSweep(const SweepSettings &settings, const Corpus &corpus,
                                    const EvalCompiler &compiler, const Platform &platform,
                                    const std::function<void(const std::string &)> &progress,
                                    std::string &error);

/// The whole sweep as sweep.json holds it: the settings, the corpus and
/// every run.
nlohmann::json sweepJson(const SweepSettings &settings, const Corpus &corpus,
                         const SweepResult &result);

} // namespace plate::agent
