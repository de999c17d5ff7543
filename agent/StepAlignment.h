//===- StepAlignment.h - The text's steps aligned with the script's -------===//
//
// The deterministic gate of `plate translate` (and what `plate align`
// shows): the protocol's actions (agent/ProcedureText.h) and the script's
// (agent/ScriptActions.h) are aligned in order by dynamic programming, a
// global sequence alignment whose match score weighs the action class and
// the agreement of parameters (in the spirit of BioPlanner's step
// matching), with a gap cost that depends on how much each side must have
// a counterpart. The findings come from the alignment:
//
//   missing    a step of the text with no step in the script
//   invented   a step of the script the text does not ask for
//   parameter  an aligned pair whose values differ
//   order      two steps in the other order than the text's (a crossing)
//   domain     a step the text gives to the robot placed in <MANUAL>, or
//              the reverse
//
// Each finding is certain or uncertain. A certain finding ends the attempt
// and goes back to the Parser; an uncertain one goes to the Validation
// Agent as evidence, never to the Parser as an order. Rejecting a correct
// script is the costly mistake, so a finding is certain only where the
// text is unambiguous (docs/agents.md lists the rules).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/Finding.h"
#include "agent/ProcedureText.h"
#include "agent/StepActions.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plate::agent {

enum class FindingKind : uint8_t { Missing, Invented, Parameter, Order, Domain };
std::string_view findingKindName(FindingKind kind);

struct AlignmentFinding {
  FindingKind kind = FindingKind::Missing;
  bool certain = false;
  int text = -1;   ///< index into StepAlignment::text, or -1
  int script = -1; ///< index into StepAlignment::script, or -1
  std::string message;
  std::string guidance;
  std::string why; ///< why it is (un)certain
};

/// How a row of the alignment relates its two sides.
enum class Relation : uint8_t {
  Match,    ///< the same step
  Missing,  ///< text only, a step the script lacks
  Invented, ///< script only
  Order,    ///< a step of the pair found elsewhere (a crossing)
  Covered,  ///< one side restates a step the other side does once
  Unpaired, ///< text only or script only, and nothing is expected of it
};
std::string_view relationName(Relation relation);

struct AlignmentRow {
  int text = -1;
  int script = -1;
  Relation relation = Relation::Match;
};

struct StepAlignment {
  std::string textName, scriptName;
  std::vector<Action> text;   ///< the protocol's actions
  std::vector<Action> script; ///< the script's actions
  std::vector<AlignmentRow> rows;
  std::vector<AlignmentFinding> findings;

  unsigned certainCount() const;
  unsigned uncertainCount() const;
};

/// The largest alignment table (text actions x script steps) computed;
/// larger inputs draw E962 (the DP keeps one byte per cell for the
/// traceback and two rows of scores).
constexpr size_t kMaxAlignmentCells = 4'000'000;

/// Compiles the script with the <MANUAL> step at `step` moved to the
/// robot and returns the first error when that fails ("6 liquid(s) need 20
/// reservoir positions ... [E700]"), else nullopt. A step the platform can
/// do alone may still not fit beside the others (reservoir positions, tip
/// racks, waste), and only the compiler knows; the driver, which owns it,
/// supplies this. Empty: not asked.
using RobotTrialFn = std::function<std::optional<std::string>(const SourceLoc &step)>;

/// Aligns `text` with `script`. Returns nullopt (after E962 on `diags`,
/// located at `where`) when the table would be larger than the limit.
std::optional<StepAlignment> alignSteps(const ProcedureText &text, std::vector<Action> script,
                                        const Platform &platform, DiagnosticEngine &diags,
                                        SourceLoc where, const RobotTrialFn &robotTrial = {});

/// The whole gate on one protocol text and one checked script: the text is
/// read from `textSources`/`textFile`, its problems go to `textDiags`
/// (E960-E962) and the result is nullopt; the script is its checked module.
std::optional<StepAlignment> alignProtocol(const SourceManager &textSources, uint32_t textFile,
                                           DiagnosticEngine &textDiags,
                                           const ir::Module &checked,
                                           const SourceManager &scriptSources,
                                           const Platform &platform,
                                           const RobotTrialFn &robotTrial = {});

/// For a person: the two sides in rows, parameters side by side, then each
/// finding with its confidence.
std::string renderAlignment(const StepAlignment &alignment);
/// The same for tools (`plate align --format=json`).
nlohmann::json alignmentToJson(const StepAlignment &alignment);
/// A compact table of the pairs for the Validation Agent's prompt.
std::string alignmentEvidence(const StepAlignment &alignment);
/// The findings of one confidence in the loop's shape (source "alignment").
std::vector<Finding> alignmentFindings(const StepAlignment &alignment, bool certain);

} // namespace plate::agent
