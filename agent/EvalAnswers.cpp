//===- EvalAnswers.cpp - Recorded Parser answers, scored ------------------===//
//
// The answers are never edited to pass; the rows and rates printed here are
// what test/lit/eval/parser-seat.test pins.
//
//===----------------------------------------------------------------------===//
#include "agent/EvalAnswers.h"

#include "agent/ParserAgent.h"
#include "ir/SourceManager.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <ostream>

namespace plate::agent {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct AnswerTotals {
  size_t compiled = 0, equivalent = 0, answered = 0;
  /// Equivalent, or equivalent once the text's ranges count as one value.
  size_t withinRanges = 0;
  double paSum = 0;
  std::string disagreements; ///< one indented line per protocol
};

std::optional<std::string> readAnswer(const std::string &answersDir, const std::string &name) {
  fs::path folder = fs::path(answersDir) / name;
  std::optional<std::string> reply = readWholeFile((folder / "answer.md").string());
  if (!reply)
    reply = readWholeFile((folder / "answer.plate").string());
  return reply;
}

/// The row of one answered protocol; adds to `totals`.
json scoreAnswer(const CorpusEntry &entry, const ScriptLayers &truth, const std::string &reply,
                 const EvalCompiler &compiler, bool verbose, AnswerTotals &totals,
                 std::ostream &out) {
  ++totals.answered;
  ScriptLayers cand = compiler.scriptLayers(extractScript(reply), entry.layout);
  ParameterAccuracy pa = scoreParameterAccuracy(truth.steps, truth.blocks, cand.steps, cand.blocks);
  std::optional<Equivalence> same = equivalenceOf(truth, cand);
  // A reply that checks but does not compile (its loads short of what the
  // run needs, E701) would do the same chemistry, but nothing it says
  // reaches the robot: a first attempt that does not compile is not
  // equivalent ("-", as for one that does not check).
  if (!cand.compiled)
    same.reset();
  totals.compiled += cand.compiled;
  totals.paSum += pa.value;
  totals.equivalent += same && same->equivalent;
  // Where the text leaves a value open ("5-10 min") truth and reply may
  // close it differently; that figure is kept apart from equivalence.
  bool withinRanges = same && same->equivalent;
  if (same && !same->equivalent && truth.platform) {
    TextRanges ranges = textRanges(entry.protocol, *truth.platform);
    std::optional<Equivalence> loose = equivalenceOf(truth, cand, &ranges);
    withinRanges = loose && loose->equivalent;
  }
  totals.withinRanges += withinRanges;
  json verdict = same ? json(same->equivalent) : json(nullptr);
  json row = {{"protocol", entry.name}};
  row.update({{"answered", true}, {"compiles", cand.compiled}, {"pa", pa.value},
              {"equivalent", verdict}, {"equivalent_within_ranges", withinRanges}});
  if (same && !same->equivalent)
    row["difference"] = same->difference;
  if (!cand.compiled) {
    auto error = std::find_if(cand.diagnostics.begin(), cand.diagnostics.end(),
                              [](const json &d) { return d.value("severity", "") == "error"; });
    if (error != cand.diagnostics.end())
      row["first_error"] = error->value("code", "") + " " + error->value("message", "");
  }
  out << fmt::format("{:<42} {:>8} {:>7.3f} {:>10}\n", entry.name, cand.compiled ? "yes" : "no",
                     pa.value, equivalenceCell(verdict));
  if (verbose) {
    if (row.contains("first_error"))
      out << "    " << row["first_error"].get<std::string>() << "\n";
    if (row.contains("difference"))
      out << "    " << row["difference"].get<std::string>() << "\n";
    if (withinRanges && same && !same->equivalent)
      out << "    equivalent within the ranges the text states\n";
  }
  if (std::string why = scoresDisagree(pa.value, verdict); !why.empty())
    totals.disagreements += fmt::format("  {}: {}\n", entry.name, why);
  return row;
}

void writeRates(const AnswerTotals &totals, size_t protocols, std::ostream &out) {
  out << fmt::format("first-attempt compile rate: {}/{} ({})\n", totals.compiled, protocols,
                     formatPercent(totals.compiled, protocols));
  out << fmt::format("equivalent to the truth: {}/{} ({})\n", totals.equivalent, protocols,
                     formatPercent(totals.equivalent, protocols));
  out << fmt::format("mean PA: {:.3f} over {} answer(s)\n",
                     totals.answered ? totals.paSum / double(totals.answered) : 0.0,
                     totals.answered);
  out << fmt::format("equivalent within the ranges the text states: {}/{} ({})\n",
                     totals.withinRanges, protocols, formatPercent(totals.withinRanges, protocols));
  out << "PA and equivalence disagree:\n"
      << (totals.disagreements.empty() ? "  none\n" : totals.disagreements);
}

} // namespace

std::optional<json> scoreRecordedAnswers(const std::vector<CorpusEntry> &protocols,
                                         const std::string &answersDir,
                                         const EvalCompiler &compiler, bool verbose,
                                         std::ostream &out, std::string &error) {
  AnswerTotals totals;
  json rows = json::array();
  out << fmt::format("{:<42} {:>8} {:>7} {:>10}\n", "protocol", "compiles", "PA", "equivalent");
  for (const CorpusEntry &entry : protocols) {
    std::optional<std::string> reply = readAnswer(answersDir, entry.name);
    ScriptLayers truth = compiler.scriptLayers(entry.truth, entry.layout);
    if (!truth.compiled) {
      error = fmt::format("the ground truth of `{}` does not compile", entry.name);
      return std::nullopt;
    }
    if (!reply) {
      out << fmt::format("{:<42} {:>8} {:>7} {:>10}\n", entry.name, "no answer", "-", "-");
      rows.push_back({{"protocol", entry.name}, {"answered", false}});
      continue;
    }
    rows.push_back(scoreAnswer(entry, truth, *reply, compiler, verbose, totals, out));
  }
  writeRates(totals, protocols.size(), out);
  return json{{"protocols", rows},
              {"compiled", totals.compiled},
              {"equivalent", totals.equivalent},
              {"equivalent_within_ranges", totals.withinRanges},
              {"total", protocols.size()}};
}

} // namespace plate::agent
