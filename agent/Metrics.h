//===- Metrics.h - Parameter Accuracy and protocol-planning metrics -------===//
//
// The translation-quality metrics of the evaluation harness (issue 6), on
// plain records so they can be pinned on hand-computed examples:
//
// Parameter Accuracy over two layers,
//   PA = [max(C_struct - P_struct, 0) + max(C_seq - P_seq, 0)]
//        / (T_struct + T_seq),
// where the structured layer holds the steps of the script (one per
// statement, each with a fixed list of named parameters) and the command
// layer holds the command blocks (the compiled BioForge-1 commands of one
// step) with their rows (commands) and each row's arguments.
//
// Matching is by type alone, before any parameter is compared: the
// candidate's and the truth's type sequences are aligned by a longest
// common subsequence (in order; ties broken towards the earliest truth
// element). C counts the equal parameters of matched steps (command layer:
// each matched row counts 1, plus its equal arguments; rows of matched
// blocks are aligned by a second LCS on module.op). P counts every
// parameter (command layer: rows and arguments) of candidate steps or
// blocks left unmatched (over-generation). T comes from the truth alone.
// Each layer is clamped at zero on its own before the two are added.
//
// Protocol-planning metrics after BioPlanner: precision and recall of step
// types (multiset intersection) and the Levenshtein distance between the
// two step-type sequences, normalised by the longer one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace plate::agent {

/// One named parameter with its value rendered canonically (units
/// converted, defaults filled), so equal means the same physical choice.
using NamedParam = std::pair<std::string, std::string>;

/// A step of the structured layer: one statement of the script.
struct StepRecord {
  std::string type; ///< dispense, wash, incubate, read.absorbance, ...
  std::vector<NamedParam> params;
};

/// One command of a block.
struct CommandRow {
  std::string type; ///< module.op
  std::vector<NamedParam> args;
};

/// The commands one step compiled to.
struct CommandBlock {
  std::string type; ///< dispense, wash, read, ... (see classifyBlock)
  std::string step; ///< the step label the commands carry
  std::vector<CommandRow> rows;
};

/// The C, P and T terms of one layer.
struct LayerScore {
  size_t correct = 0;  ///< C
  size_t penalty = 0;  ///< P (over-generation)
  size_t total = 0;    ///< T (ground truth)
  size_t matched = 0;  ///< steps or blocks matched by type
  size_t overGenerated = 0;
  size_t missed = 0;   ///< truth steps or blocks without a match
  /// max(C - P, 0): the layer's contribution to PA.
  size_t clamped() const { return correct > penalty ? correct - penalty : 0; }
};

struct ParameterAccuracy {
  LayerScore structured;
  LayerScore command;
  /// NaN-free: 0 when both T terms are 0.
  double value = 0;
};

/// Index pairs (truth, candidate) of a longest common subsequence of the
/// two type sequences.
std::vector<std::pair<size_t, size_t>> alignByType(const std::vector<std::string> &truth,
                                                   const std::vector<std::string> &candidate);

/// Parameters of `candidate` equal (same name, same value) to one of
/// `truth`; each truth parameter is used once.
size_t equalParams(const std::vector<NamedParam> &truth, const std::vector<NamedParam> &candidate);

LayerScore scoreSteps(const std::vector<StepRecord> &truth,
                      const std::vector<StepRecord> &candidate);
LayerScore scoreBlocks(const std::vector<CommandBlock> &truth,
                       const std::vector<CommandBlock> &candidate);

/// PA from the two layers (clamped per layer).
double parameterAccuracy(const LayerScore &structured, const LayerScore &command);
ParameterAccuracy scoreParameterAccuracy(const std::vector<StepRecord> &truthSteps,
                                         const std::vector<CommandBlock> &truthBlocks,
                                         const std::vector<StepRecord> &candidateSteps,
                                         const std::vector<CommandBlock> &candidateBlocks);

struct PlanningScore {
  double precision = 0;
  double recall = 0;
  size_t levenshtein = 0;
  double normalizedLevenshtein = 0; ///< distance / max(len); 0 when both empty
};

size_t levenshteinDistance(const std::vector<std::string> &a, const std::vector<std::string> &b);
PlanningScore scorePlanning(const std::vector<std::string> &truthTypes,
                            const std::vector<std::string> &candidateTypes);

nlohmann::json toJson(const LayerScore &score);
nlohmann::json toJson(const ParameterAccuracy &score);
nlohmann::json toJson(const PlanningScore &score);

} // namespace plate::agent
