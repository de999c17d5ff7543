//===- ProcedureText.h - A protocol text read as procedure units and actions -===//
//
// Text to units: hard-wrapped lines are joined; the text is split into
// numbered items, bullets, table rows and paragraphs (units), units into
// sentences and sentences into clauses. Each unit gets a kind: the
// procedure, or a title, header, layout description, materials list,
// preparation, note, summary or analysis (which state values without asking
// for a step of the protocol, the analysis apart from its own analyses). References ("as in step 2", "repeat twice more",
// "as above") become copies of the actions they name.
//
// Units to actions: every clause gives zero or more actions (an action
// class and typed parameters); a value with no verb gives the action its
// dimension implies ("100 µL, 1 h, RT" is an addition and an incubation).
//
// Bad input is reported through the DiagnosticEngine (E960-E962) and
// yields no ProcedureText: the alignment is then skipped, never guessed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/StepActions.h"
#include "ir/Diagnostics.h"
#include "ir/Platform.h"

#include <optional>
#include <string>
#include <vector>

namespace plate::agent {

enum class UnitKind : uint8_t {
  Procedure,
  Title,
  Header,
  Layout,
  Materials,
  Preparation,
  Note,
  Summary,
  /// Under "Data analysis", "Results", "Statistics": what is done with the
  /// readings. Its analyses are steps; its reads and values are not.
  Analysis,
};
std::string_view unitKindName(UnitKind kind);

struct TextUnit {
  UnitKind kind = UnitKind::Procedure;
  std::string label; ///< "3", "5.1", "c"; empty without one
  SourceLoc loc;     ///< first character of its content
  std::string text;  ///< wrapped lines joined with one space
  Domain domain = Domain::Unstated; ///< from its label prefix or header ("Robot part:")
  bool tableRow = false; ///< a row of a table (pipes, aligned columns, tabs)
  std::vector<unsigned> actions;    ///< indices into ProcedureText::actions
};

struct ProcedureText {
  std::vector<TextUnit> units;
  std::vector<Action> actions; ///< in text order, references expanded
  /// Sentences that give work to a person in general terms ("the read is
  /// done by the operator", "the rest is done at the bench"): evidence
  /// that a step in <MANUAL> may be meant, even where its own clause is
  /// silent.
  struct Hint {
    unsigned sentence = 0;
    std::vector<ActionClass> classes; ///< actions it names by a word
    std::vector<std::string> words;   ///< its content words
    bool scopeAfter = false;          ///< "the rest", "from here on"
  };
  std::vector<Hint> personHints;
  /// Every value the document states anywhere (titles, notes, tables and
  /// layout descriptions included), by dimension: a value of the script
  /// that none of these is was invented.
  std::vector<std::pair<Dimension, Value>> stated;
  /// Every number written in the document, with or without a unit: a
  /// table whose header says "Volume (µl)" gives its cells no unit, so a
  /// script value whose number the text writes anywhere may be stated.
  std::vector<double> numbers;
  /// The text gives concentrations (of standards, most likely): without
  /// them an analysis cannot be written.
  bool concentrations = false;
  unsigned requiredCount() const;
};

/// Limits on the text the reader accepts (beyond them: E962).
constexpr size_t kMaxProtocolBytes = 1u << 20;
constexpr unsigned kMaxProtocolLines = 20000;
constexpr unsigned kMaxProtocolActions = 2000;

/// Reads the registered buffer `fileId` as a protocol. On bad input
/// (binary data E960, no recognisable procedure E961, too large E962)
/// reports the diagnostic and returns nullopt.
std::optional<ProcedureText> readProcedure(const SourceManager &sources, uint32_t fileId,
                                           DiagnosticEngine &diags, const Platform &platform);

} // namespace plate::agent
