//===- EvalScoring.cpp - One candidate against its ground truth -----------===//
//
// The wording of every line here is pinned by the lit tests of
// test/lit/eval and by the reports already recorded: change it only on
// purpose.
//
//===----------------------------------------------------------------------===//
#include "agent/EvalScoring.h"

#include "agent/StepActions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <ostream>

namespace plate::agent {

using nlohmann::json;

namespace {

// Where PA and equivalence are said to disagree (docs/evaluation.md).
constexpr double kLowPa = 0.5;
constexpr double kHighPa = 0.9;

std::string layerLine(const char *name, const LayerScore &s, const char *unit) {
  return fmt::format("{:<17} C = {:>5}  P = {:>5}  T = {:>5}  max(C - P, 0) = {:>5}  ({} {} "
                     "matched, {} over-generated, {} missed)\n",
                     name, s.correct, s.penalty, s.total, s.clamped(), s.matched, unit,
                     s.overGenerated, s.missed);
}

std::string planningLine(const char *name, const PlanningScore &s) {
  return fmt::format("{} types: precision {:.4f}, recall {:.4f}, Levenshtein {} "
                     "(normalised {:.4f})\n",
                     name, s.precision, s.recall, s.levenshtein, s.normalizedLevenshtein);
}

} // namespace

std::string formatPercent(size_t part, size_t whole) {
  return whole == 0 ? "-" : fmt::format("{:.1f} %", 100.0 * double(part) / double(whole));
}

std::optional<Equivalence> equivalenceOf(const ScriptLayers &truth,
                                         const ScriptLayers &candidate,
                                         const TextRanges *ranges) {
  if (!truth.module || !candidate.module)
    return std::nullopt;
  return compareEffects(*truth.module, *candidate.module, *truth.platform, ranges);
}

namespace {

/// The number a quantity is written with ("570" of "570 nm"), if it opens
/// with one.
std::optional<double> leadingNumber(std::string_view text) {
  size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) ||
                               (text[end] == '.' && end > 0)))
    ++end;
  if (end == 0)
    return std::nullopt;
  return std::strtod(std::string(text.substr(0, end)).c_str(), nullptr);
}

/// "540 or 570 nm", "30 min or 45 min": the value offered before `q` as
/// its alternative, in `q`'s canonical unit.
std::optional<double> alternativeBefore(std::string_view protocol, const ProseQuantity &q,
                                        const ProseQuantity *previous) {
  std::string_view before = protocol.substr(0, q.begin);
  while (!before.empty() && before.back() == ' ')
    before.remove_suffix(1);
  if (before.size() < 3 || before.substr(before.size() - 2) != "or" ||
      std::isalpha(static_cast<unsigned char>(before[before.size() - 3])))
    return std::nullopt;
  before.remove_suffix(2);
  while (!before.empty() && before.back() == ' ')
    before.remove_suffix(1);
  if (previous && previous->end <= q.begin && previous->end >= before.size() &&
      previous->dimension == q.dimension && previous->value.kind == Value::Kind::Exact)
    return previous->value.low;
  // A bare number takes the unit written after the second.
  size_t start = before.size();
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(before[start - 1])) ||
                       before[start - 1] == '.'))
    --start;
  if (start == before.size() ||
      (start > 0 && std::isalnum(static_cast<unsigned char>(before[start - 1]))))
    return std::nullopt;
  std::optional<double> bare = leadingNumber(before.substr(start));
  std::optional<double> written = leadingNumber(q.value.text);
  if (!bare || !written || *written == 0)
    return std::nullopt;
  return *bare * (q.value.low / *written);
}

} // namespace

TextRanges textRanges(std::string_view protocol, const Platform &platform) {
  TextRanges out;
  std::vector<ProseQuantity> quantities = proseQuantities(protocol, platform);
  for (size_t k = 0; k < quantities.size(); ++k) {
    const ProseQuantity &q = quantities[k];
    std::optional<StatedRange> range;
    if (q.value.kind == Value::Kind::Range && q.value.high > q.value.low) {
      range = StatedRange{q.value.low, q.value.high};
    } else if (q.value.kind == Value::Kind::Exact) {
      if (std::optional<double> other =
              alternativeBefore(protocol, q, k > 0 ? &quantities[k - 1] : nullptr);
          other && *other != q.value.low)
        range = StatedRange{std::min(*other, q.value.low), std::max(*other, q.value.low), true};
    }
    if (!range)
      continue;
    if (q.dimension == Dimension::Time)
      out.seconds.push_back(*range);
    else if (q.dimension == Dimension::Temperature)
      out.celsius.push_back(*range);
    else if (q.dimension == Dimension::Speed)
      out.rpm.push_back(*range);
    else if (q.dimension == Dimension::Wavelength)
      out.nanometres.push_back(*range);
  }
  return out;
}

std::string equivalenceLine(const std::optional<Equivalence> &equivalence) {
  if (!equivalence)
    return "equivalence: - (the candidate does not check)\n";
  std::string line = equivalence->equivalent
                         ? "equivalence: equivalent (the same wells, liquids, volumes, order, "
                           "incubations and reads)"
                         : "equivalence: not equivalent: " + equivalence->difference;
  std::string renamed;
  for (const auto &[from, to] : equivalence->renamed)
    renamed += fmt::format("{}{} = {}", renamed.empty() ? "" : ", ", from, to);
  if (!renamed.empty())
    line += fmt::format(" [liquids matched under other names: {}]", renamed);
  return line + "\n";
}

json equivalenceJson(const Equivalence &equivalence) {
  json out = {{"equivalent", equivalence.equivalent},
              {"difference", equivalence.difference},
              {"well_events", equivalence.wellEvents},
              {"plate_events", equivalence.plateEvents}};
  json renamed = json::array();
  for (const auto &[from, to] : equivalence.renamed)
    renamed.push_back({{"candidate", from}, {"truth", to}});
  out["renamed"] = renamed;
  return out;
}

std::string equivalenceCell(const json &equivalent) {
  return equivalent.is_boolean() ? (equivalent.get<bool>() ? "yes" : "no") : "-";
}

std::string scoresDisagree(double pa, const json &equivalent) {
  if (!equivalent.is_boolean())
    return "";
  if (equivalent.get<bool>() && pa < kLowPa)
    return fmt::format("equivalent, but PA {:.3f}: written differently, same chemistry", pa);
  if (!equivalent.get<bool>() && pa >= kHighPa)
    return fmt::format("PA {:.3f}, but not equivalent: written alike, different chemistry", pa);
  return "";
}

CandidateScore scoreCandidate(const ScriptLayers &truth, const ScriptLayers &candidate,
                              bool direct) {
  CandidateScore score;
  score.direct = direct;
  score.checked = candidate.checked;
  score.compiled = candidate.compiled;
  score.pa = scoreParameterAccuracy(truth.steps, truth.blocks, candidate.steps, candidate.blocks);
  score.stepPlanning = scorePlanning(stepTypes(truth.steps), stepTypes(candidate.steps));
  score.blockPlanning = scorePlanning(blockTypes(truth.blocks), blockTypes(candidate.blocks));
  // A command stream has no checked module to run.
  if (!direct)
    score.equivalence = equivalenceOf(truth, candidate);
  return score;
}

void writeScore(std::ostream &out, const CandidateScore &score, std::string_view candidateName,
                std::string_view truthName) {
  out << fmt::format("candidate: {}{}\n", candidateName,
                     score.direct     ? " (direct command stream)"
                     : !score.checked  ? " (does not check: no steps, no commands)"
                     : !score.compiled ? " (does not compile: no commands)"
                                       : "");
  out << fmt::format("truth:     {}\n", truthName);
  const ParameterAccuracy &pa = score.pa;
  out << layerLine("structured layer:", pa.structured, "steps");
  out << layerLine("command layer:", pa.command, "blocks");
  out << fmt::format("PA = ({} + {}) / ({} + {}) = {:.4f}\n", pa.structured.clamped(),
                     pa.command.clamped(), pa.structured.total, pa.command.total, pa.value);
  out << planningLine("step", score.stepPlanning);
  out << planningLine("block", score.blockPlanning);
  if (!score.direct)
    out << equivalenceLine(score.equivalence);
}

json scoreJson(const CandidateScore &score) {
  json out = toJson(score.pa);
  out["planning_steps"] = toJson(score.stepPlanning);
  out["planning_blocks"] = toJson(score.blockPlanning);
  out["candidate_compiles"] = score.compiled;
  if (score.equivalence)
    out["equivalent"] = score.equivalence->equivalent;
  return out;
}

void writeUncheckedCandidate(std::ostream &out, std::string_view candidateName,
                             const json &diagnostics) {
  out << fmt::format("candidate: {} does not check:\n", candidateName);
  for (const json &d : diagnostics)
    out << fmt::format("  line {}: [{}] {}\n", d.value("line", 0), d.value("code", ""),
                       d.value("message", ""));
}

} // namespace plate::agent
