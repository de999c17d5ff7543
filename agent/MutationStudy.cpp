//===- MutationStudy.cpp - What the deterministic layer alone catches -----===//
//
// The lines printed here are pinned by test/lit/eval/mutation-study.test
// and compared across versions of the compiler: change them on purpose.
//
//===----------------------------------------------------------------------===//
#include "agent/MutationStudy.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <ostream>

namespace plate::agent {

using nlohmann::json;

namespace {

/// What the deterministic layer says about one script.
struct DeterministicVerdict {
  bool compileError = false;
  bool certainFinding = false;
  bool skipped = false;   ///< the alignment could not read the text
  unsigned uncertain = 0; ///< uncertain findings (evidence for the Validator)
  /// Findings by confidence and kind ("certain missing"), for the study's
  /// breakdown of what a correct script draws.
  std::map<std::string, unsigned> kinds;
  std::string first; ///< the first reason, for -v
  bool caught() const { return compileError || certainFinding; }
};

std::string firstReason(const CompileReport &report, const DeterministicVerdict &verdict) {
  if (verdict.compileError) {
    for (const json &d : report.diagnostics)
      if (d.value("severity", "") == "error")
        return fmt::format("compiler {} line {}: {}", d.value("code", ""), d.value("line", 0),
                           d.value("message", ""));
    return "";
  }
  if (verdict.certainFinding)
    return "alignment " + report.certain.front().type + ": " + report.certain.front().message;
  if (!report.uncertain.empty())
    return "uncertain " + report.uncertain.front().type + ": " +
           report.uncertain.front().message;
  return "";
}

DeterministicVerdict deterministicVerdict(const EvalCompiler &compiler,
                                          const std::string &script,
                                          const std::string &protocol) {
  CompileReport report = compiler.checkCandidate(script, protocol);
  DeterministicVerdict verdict;
  verdict.compileError = !report.ok;
  verdict.certainFinding = report.ok && !report.certain.empty();
  verdict.skipped = report.ok && report.alignmentRecord.is_null();
  verdict.uncertain = static_cast<unsigned>(report.uncertain.size());
  for (const Finding &f : report.certain)
    ++verdict.kinds["certain " + f.type];
  for (const Finding &f : report.uncertain)
    ++verdict.kinds["uncertain " + f.type];
  verdict.first = firstReason(report, verdict);
  return verdict;
}

/// Mutants of one kind and who caught them.
struct Tally {
  size_t mutants = 0, caught = 0, byCompiler = 0, byAlignment = 0, uncertainOnly = 0;
  void add(const Tally &t) {
    mutants += t.mutants;
    caught += t.caught;
    byCompiler += t.byCompiler;
    byAlignment += t.byAlignment;
    uncertainOnly += t.uncertainOnly;
  }
  double share() const { return mutants == 0 ? 1.0 : double(caught) / double(mutants); }
};

/// The study of one corpus as it accumulates.
struct StudyState {
  std::map<std::string, Tally> tallies; ///< by mutation kind
  size_t truthsRejected = 0, truthsSkipped = 0, truthUncertain = 0, truthsAccepted = 0;
  size_t truthsFailingToCompile = 0;
  /// Mutants of a rejected ground truth: rejected whatever they change, so
  /// counting them as caught would credit the check with its own mistake.
  size_t mutantsNotScored = 0;
  /// Swaps that do the same to the plate as the ground truth (two MANUAL
  /// preparations, a note and a step, dispenses into disjoint wells), by
  /// the equivalence check: equivalent mutants, which no check could or
  /// should catch, so they are not scored.
  size_t equivalentSwaps = 0;
  std::map<std::string, unsigned> truthKinds; ///< findings on the correct scripts
  json records = json::array();
};

/// The unmutated ground truth: it must pass, and its uncertain findings are
/// the baseline a mutant's are compared with.
DeterministicVerdict studyGroundTruth(const EvalCompiler &compiler, const CorpusEntry &entry,
                         StudyState &state, std::ostream &out) {
  DeterministicVerdict base = deterministicVerdict(compiler, entry.truth, entry.protocol);
  for (const auto &[kind, count] : base.kinds)
    state.truthKinds[kind] += count;
  state.truthsFailingToCompile += base.compileError;
  if (base.caught()) {
    ++state.truthsRejected;
    out << fmt::format("{}: the unmutated ground truth is rejected: {}\n", entry.name,
                       base.first);
  } else {
    ++state.truthsAccepted;
    state.truthUncertain += base.uncertain;
  }
  if (base.skipped) {
    ++state.truthsSkipped;
    out << fmt::format("{}: the alignment cannot read the protocol text\n", entry.name);
  }
  return base;
}

void studyMutant(const EvalCompiler &compiler, const CorpusEntry &entry, const Mutant &mutant,
                 const DeterministicVerdict &base, bool verbose, StudyState &state,
                 std::ostream &out) {
  DeterministicVerdict verdict = deterministicVerdict(compiler, mutant.script, entry.protocol);
  Tally &tally = state.tallies[mutant.kind];
  ++tally.mutants;
  tally.caught += verdict.caught();
  tally.byCompiler += verdict.compileError;
  tally.byAlignment += verdict.certainFinding;
  tally.uncertainOnly += !verdict.caught() && verdict.uncertain > base.uncertain;
  if (verbose)
    out << fmt::format("{} {:<11} line {:>3} {:<6} {}{}\n", entry.name, mutant.kind, mutant.line,
                       verdict.caught() ? "caught" : "MISSED", mutant.description,
                       verdict.first.empty() ? "" : "  [" + verdict.first + "]");
  state.records.push_back({{"protocol", entry.name},
                           {"kind", mutant.kind},
                           {"line", mutant.line},
                           {"change", mutant.description},
                           {"caught", verdict.caught()},
                           {"by", verdict.compileError     ? "compiler"
                                  : verdict.certainFinding ? "alignment"
                                                           : "none"},
                           {"uncertain", verdict.uncertain},
                           {"reason", verdict.first}});
}

std::string tallyRow(const std::string &name, const Tally &t) {
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", name, t.mutants, t.caught,
                     formatPercent(t.caught, t.mutants), t.byCompiler, t.byAlignment,
                     t.uncertainOnly);
}

/// The table by kind, in report order, with the parameter kinds and all
/// kinds summed; returns the table's JSON.
json writeKindTable(const StudyState &state, Tally &parameters, Tally &all, std::ostream &out) {
  out << "| kind | mutants | caught | share | by compiler | by alignment | uncertain only |\n";
  out << "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  json table = json::array();
  for (const std::string &kind : mutationKinds()) {
    auto it = state.tallies.find(kind);
    if (it == state.tallies.end())
      continue;
    const Tally &t = it->second;
    out << tallyRow(kind, t);
    table.push_back({{"kind", kind},
                     {"mutants", t.mutants},
                     {"caught", t.caught},
                     {"by_compiler", t.byCompiler},
                     {"by_alignment", t.byAlignment},
                     {"uncertain_only", t.uncertainOnly}});
    all.add(t);
    if (isParameterMutation(kind))
      parameters.add(t);
  }
  out << tallyRow("parameter changes", parameters);
  out << tallyRow("all", all);
  return table;
}

void writeTruthSummary(const Corpus &corpus, const StudyState &state, double averageUncertain,
                       std::ostream &out) {
  out << fmt::format("mutation study of {}: {} ground truth(s), {} unmutated rejected, {:.2f} "
                     "uncertain finding(s) per accepted ground truth\n",
                     corpus.dir, corpus.entries.size(), state.truthsRejected, averageUncertain);
  // By kind only: a held-out corpus is judged by such totals, never by
  // reading which of its texts drew them.
  std::vector<std::string> kindCounts;
  for (const auto &[kind, count] : state.truthKinds)
    kindCounts.push_back(fmt::format("{} {}", kind, count));
  out << fmt::format("findings on the ground truths: {}\n",
                     kindCounts.empty() ? "none" : fmt::format("{}", fmt::join(kindCounts, ", ")));
}

bool goalMet(const StudyState &state, const Tally &parameters) {
  auto share = [&](const std::string &kind) {
    auto it = state.tallies.find(kind);
    return it == state.tallies.end() ? 1.0 : it->second.share();
  };
  return state.truthsRejected == 0 && state.truthsSkipped == 0 && share("drop") >= 1.0 &&
         parameters.share() >= 0.95 && share("swap") >= 0.90 && share("to-manual") >= 0.90;
}

} // namespace

MutationStudy runMutationStudy(const Corpus &corpus, const EvalCompiler &compiler,
                               const Platform &platform, bool verbose, std::ostream &out) {
  StudyState state;
  for (const CorpusEntry &entry : corpus.entries) {
    DeterministicVerdict base = studyGroundTruth(compiler, entry, state, out);
    std::vector<Mutant> mutants = makeMutants(entry.truth, platform);
    if (base.caught()) {
      state.mutantsNotScored += mutants.size();
      continue;
    }
    std::optional<ScriptLayers> truthLayers;
    for (const Mutant &mutant : mutants) {
      if (mutant.kind == "swap") {
        if (!truthLayers)
          truthLayers = compiler.scriptLayers(entry.truth, entry.layout);
        std::optional<Equivalence> same =
            equivalenceOf(*truthLayers, compiler.scriptLayers(mutant.script, entry.layout));
        if (same && same->equivalent) {
          ++state.equivalentSwaps;
          if (verbose)
            out << fmt::format("{} {:<11} line {:>3} equivalent, not scored: {}\n", entry.name,
                               mutant.kind, mutant.line, mutant.description);
          continue;
        }
      }
      studyMutant(compiler, entry, mutant, base, verbose, state, out);
    }
  }
  double averageUncertain =
      state.truthsAccepted ? double(state.truthUncertain) / double(state.truthsAccepted) : 0.0;
  writeTruthSummary(corpus, state, averageUncertain, out);
  if (state.mutantsNotScored)
    out << fmt::format("{} mutant(s) of the rejected ground truths not scored (every one would "
                       "count as caught)\n",
                       state.mutantsNotScored);
  if (state.equivalentSwaps)
    out << fmt::format("{} swap(s) not scored: they do the same to the plate as the ground "
                       "truth (equivalence)\n",
                       state.equivalentSwaps);
  Tally parameters, all;
  json table = writeKindTable(state, parameters, all, out);
  MutationStudy study;
  study.goalMet = goalMet(state, parameters);
  out << fmt::format("goal (no ground truth rejected, every drop, >= 95 % of parameter "
                     "changes, >= 90 % of swaps and of moves to MANUAL): {}\n",
                     study.goalMet ? "met" : "NOT met");
  // What `plate translate` does by default: alignment findings are evidence
  // for the Validator and end no attempt, so only the compiler rejects.
  out << fmt::format("without --alignment-gate (the default of plate translate): {} ground "
                     "truth(s) rejected, {} of {} mutants caught by the compiler, the rest "
                     "left to the Validator with the alignment's findings as evidence\n",
                     state.truthsFailingToCompile, all.byCompiler, all.mutants);
  study.record = {{"corpus", corpus.dir},
                  {"protocols", corpus.entries.size()},
                  {"truths_rejected", state.truthsRejected},
                  {"truths_rejected_without_gate", state.truthsFailingToCompile},
                  {"mutants_not_scored", state.mutantsNotScored},
                  {"equivalent_swaps_not_scored", state.equivalentSwaps},
                  {"uncertain_per_truth", averageUncertain},
                  {"truth_findings", state.truthKinds},
                  {"table", table},
                  {"goal_met", study.goalMet},
                  {"mutants", std::move(state.records)}};
  return study;
}

} // namespace plate::agent
