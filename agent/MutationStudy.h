//===- MutationStudy.h - What the deterministic layer catches --*- C++ -*-===//
//
// `plate eval --mutation-study`: every single-change mutant of every ground
// truth of a corpus (agent/Eval.h, makeMutants) goes through the
// deterministic layer of `plate translate` (the compiler, then the step
// alignment's certain findings), so the study measures exactly what a
// translation run would catch before any Validator looks. A Validator that
// always passes adds nothing, so this is what a liberal Validator leaves.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/EvalCorpus.h"
#include "agent/EvalScoring.h"
#include "ir/Platform.h"

#include <nlohmann/json.hpp>

#include <iosfwd>

namespace plate::agent {

struct MutationStudy {
  /// No ground truth rejected or unreadable by the alignment, every drop,
  /// >= 95 % of parameter changes, >= 90 % of swaps and of moves to MANUAL.
  bool goalMet = false;
  /// The corpus's entry of the study's JSON: totals, the table by kind and
  /// every mutant.
  nlohmann::json record;
};

/// Studies one corpus: prints what stands out (rejected ground truths; with
/// `verbose`, every mutant), the table by kind and the goal on `out`.
MutationStudy runMutationStudy(const Corpus &corpus, const EvalCompiler &compiler,
                               const Platform &platform, bool verbose, std::ostream &out);

} // namespace plate::agent
