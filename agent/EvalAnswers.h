//===- EvalAnswers.h - Recorded Parser answers, scored ----------*- C++ -*-===//
//
// `plate eval --answers DIR`: the recorded first attempt of a model that
// sat in the Parser's seat with only the prompt and the protocol
// (DIR/NAME/answer.md, one per protocol) is scored against the ground
// truth. No network and no retries, so the compile rate is a first-attempt
// rate; a change of the language that breaks what a model writes shows up
// here. A protocol without an answer counts as a failure, not as a skip.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/EvalCorpus.h"
#include "agent/EvalScoring.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace plate::agent {

/// Scores the answers in `answersDir` for `protocols` (see
/// protocolsOfAnswers), printing a row per protocol and the rates on `out`
/// (with `verbose`, a failing answer's first error or difference). Returns
/// the JSON `--answers --json` writes, or nullopt with `error` when a ground
/// truth does not compile.
std::optional<nlohmann::json> scoreRecordedAnswers(const std::vector<CorpusEntry> &protocols,
                                                   const std::string &answersDir,
                                                   const EvalCompiler &compiler, bool verbose,
                                                   std::ostream &out, std::string &error);

} // namespace plate::agent
