//===- EvalCorpus.h - The corpora the evaluation harness reads --*- C++ -*-===//
//
// A corpus is a directory of protocols, one folder each
// (NN-name/{protocol.txt,truth.plate,layout.csv}), read in name order.
// Several corpora are kept apart (a held-out corpus is reported on its
// own), except where recorded answers name the protocols they were made on.
// Also `--check-corpus`: every ground truth through the deterministic
// layer of `plate translate`, against its own protocol text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/EvalScoring.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace plate::agent {

struct CorpusEntry {
  std::string name; ///< the folder's name, e.g. 02-bradford-bench-notes
  std::string protocol;
  std::string truth;
  std::string layout; ///< layout.csv text, if any
};

struct Corpus {
  std::string dir; ///< as given on the command line, for the reports
  std::vector<CorpusEntry> entries;
};

/// The protocols of `dir` whose folder name contains `only` (all when
/// empty). Nullopt with `error` when the directory is no corpus, a folder
/// lacks protocol.txt, or nothing is left.
std::optional<Corpus> loadCorpus(const std::string &dir, const std::string &only,
                                 std::string &error);

/// The protocols recorded answers in `answersDir` are scored on: those of
/// every corpus in name order, or, when the folder has a `protocols.txt`
/// (one name per line, `#` comments), exactly those, so a recorded set
/// keeps the protocols it was made on after a held-out corpus changes. A
/// listed name no corpus has is an error unless `only` may have filtered
/// it out.
std::optional<std::vector<CorpusEntry>> protocolsOfAnswers(const std::vector<Corpus> &corpora,
                                                           const std::string &answersDir,
                                                           const std::string &only,
                                                           std::string &error);

/// `--check-corpus` for one corpus: a line per ground truth (with every
/// diagnostic and finding when `verbose`), then the totals. True when no
/// ground truth has a compile error or a certain finding.
bool checkCorpus(const Corpus &corpus, const EvalCompiler &compiler, bool verbose,
                 std::ostream &out);

} // namespace plate::agent
