//===- Metrics.cpp - Parameter Accuracy and protocol-planning metrics -----===//
//
// Plain dynamic programming: the sequences are a protocol's steps (tens)
// and a block's commands (at most a few thousand for a whole-plate wash),
// so O(n·m) tables are cheap.
//
//===----------------------------------------------------------------------===//
#include "agent/Metrics.h"

#include <algorithm>
#include <map>

namespace plate::agent {

using nlohmann::json;

std::vector<std::pair<size_t, size_t>> alignByType(const std::vector<std::string> &truth,
                                                   const std::vector<std::string> &candidate) {
  size_t n = truth.size(), m = candidate.size();
  // suffix[i][j]: LCS length of truth[i..] and candidate[j..]; walking it
  // forwards takes the earliest possible match at every choice.
  std::vector<std::vector<unsigned>> suffix(n + 1, std::vector<unsigned>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      suffix[i][j] = truth[i] == candidate[j]
                         ? suffix[i + 1][j + 1] + 1
                         : std::max(suffix[i + 1][j], suffix[i][j + 1]);
  std::vector<std::pair<size_t, size_t>> pairs;
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    if (truth[i] == candidate[j] && suffix[i][j] == suffix[i + 1][j + 1] + 1) {
      pairs.emplace_back(i++, j++);
    } else if (suffix[i + 1][j] >= suffix[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return pairs;
}

size_t equalParams(const std::vector<NamedParam> &truth, const std::vector<NamedParam> &candidate) {
  std::vector<bool> used(truth.size(), false);
  size_t equal = 0;
  for (const NamedParam &c : candidate)
    for (size_t i = 0; i < truth.size(); ++i)
      if (!used[i] && truth[i] == c) {
        used[i] = true;
        ++equal;
        break;
      }
  return equal;
}

namespace {

template <typename T> std::vector<std::string> typesOf(const std::vector<T> &items) {
  std::vector<std::string> types;
  types.reserve(items.size());
  for (const T &item : items)
    types.push_back(item.type);
  return types;
}

size_t rowWeight(const CommandRow &row) { return 1 + row.args.size(); }

size_t blockWeight(const CommandBlock &block) {
  size_t weight = 0;
  for (const CommandRow &row : block.rows)
    weight += rowWeight(row);
  return weight;
}

template <typename T, typename Weight, typename Correct>
LayerScore scoreLayer(const std::vector<T> &truth, const std::vector<T> &candidate,
                      Weight weight, Correct correct) {
  LayerScore score;
  for (const T &item : truth)
    score.total += weight(item);
  auto pairs = alignByType(typesOf(truth), typesOf(candidate));
  std::vector<bool> candidateMatched(candidate.size(), false);
  for (auto [t, c] : pairs) {
    candidateMatched[c] = true;
    score.correct += correct(truth[t], candidate[c]);
  }
  score.matched = pairs.size();
  score.missed = truth.size() - pairs.size();
  for (size_t c = 0; c < candidate.size(); ++c)
    if (!candidateMatched[c]) {
      ++score.overGenerated;
      score.penalty += weight(candidate[c]);
    }
  return score;
}

} // namespace

LayerScore scoreSteps(const std::vector<StepRecord> &truth,
                      const std::vector<StepRecord> &candidate) {
  return scoreLayer(
      truth, candidate, [](const StepRecord &s) { return s.params.size(); },
      [](const StepRecord &t, const StepRecord &c) { return equalParams(t.params, c.params); });
}

LayerScore scoreBlocks(const std::vector<CommandBlock> &truth,
                       const std::vector<CommandBlock> &candidate) {
  return scoreLayer(truth, candidate, blockWeight,
                    [](const CommandBlock &t, const CommandBlock &c) {
                      size_t correct = 0;
                      for (auto [i, j] : alignByType(typesOf(t.rows), typesOf(c.rows)))
                        correct += 1 + equalParams(t.rows[i].args, c.rows[j].args);
                      return correct;
                    });
}

double parameterAccuracy(const LayerScore &structured, const LayerScore &command) {
  size_t total = structured.total + command.total;
  if (total == 0)
    return 0;
  return static_cast<double>(structured.clamped() + command.clamped()) /
         static_cast<double>(total);
}

ParameterAccuracy scoreParameterAccuracy(const std::vector<StepRecord> &truthSteps,
                                         const std::vector<CommandBlock> &truthBlocks,
                                         const std::vector<StepRecord> &candidateSteps,
                                         const std::vector<CommandBlock> &candidateBlocks) {
  ParameterAccuracy result;
  result.structured = scoreSteps(truthSteps, candidateSteps);
  result.command = scoreBlocks(truthBlocks, candidateBlocks);
  result.value = parameterAccuracy(result.structured, result.command);
  return result;
}

size_t levenshteinDistance(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(previous, current);
  }
  return previous[b.size()];
}

PlanningScore scorePlanning(const std::vector<std::string> &truthTypes,
                            const std::vector<std::string> &candidateTypes) {
  PlanningScore score;
  std::map<std::string, size_t> truthCount;
  for (const std::string &type : truthTypes)
    ++truthCount[type];
  size_t common = 0;
  for (const std::string &type : candidateTypes)
    if (auto it = truthCount.find(type); it != truthCount.end() && it->second > 0) {
      --it->second;
      ++common;
    }
  score.precision = candidateTypes.empty() ? 0 : double(common) / double(candidateTypes.size());
  score.recall = truthTypes.empty() ? 0 : double(common) / double(truthTypes.size());
  score.levenshtein = levenshteinDistance(truthTypes, candidateTypes);
  size_t longer = std::max(truthTypes.size(), candidateTypes.size());
  score.normalizedLevenshtein = longer == 0 ? 0 : double(score.levenshtein) / double(longer);
  return score;
}

json toJson(const LayerScore &score) {
  return {{"C", score.correct},         {"P", score.penalty},
          {"T", score.total},           {"matched", score.matched},
          {"over_generated", score.overGenerated}, {"missed", score.missed}};
}

json toJson(const ParameterAccuracy &score) {
  return {{"pa", score.value},
          {"structured", toJson(score.structured)},
          {"command", toJson(score.command)}};
}

json toJson(const PlanningScore &score) {
  return {{"precision", score.precision},
          {"recall", score.recall},
          {"levenshtein", score.levenshtein},
          {"normalized_levenshtein", score.normalizedLevenshtein}};
}

} // namespace plate::agent
