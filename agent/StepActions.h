//===- StepActions.h - Actions: what a text step and a script step do ----===//
//
// The common currency of the step alignment (agent/StepAlignment.h): a
// protocol text and a checked script are both read as sequences of actions,
// each an action class with typed parameters. A text action comes from a
// clause of the protocol (agent/ProcedureText.h); a script action from an
// op of the checked module (agent/ScriptActions.h). Values are quantities
// in the canonical unit of their dimension (µL, s, °C, rpm, nm), with the
// forms prose uses: ranges ("1-2 h"), bounds ("at least 5 min"), RT and
// overnight.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Platform.h"
#include "ir/SourceManager.h"
#include "ir/Units.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

enum class ActionClass : uint8_t {
  Dispense,
  Aspirate,
  Wash,
  Mix,
  Transfer,
  Incubate,
  Shake,
  Read,
  ReadFluorescence,
  Analyze,
  Wait,
  Magnet,
  Prepare,
  Equilibrate,
  Note, ///< a value for the operator (a script note, a text's "within 10 min")
};
std::string_view actionClassName(ActionClass cls);
/// Classes of what the robot does (not preparation, equilibration, notes).
bool robotClass(ActionClass cls);

/// Who the text gives a step to (text side), from words like "by hand",
/// "operator", "robot", "BioForge".
enum class Domain : uint8_t { Unstated, Robot, Person, Both };
std::string_view domainName(Domain domain);

enum class Param : uint8_t {
  Volume,
  Time,
  Temperature,
  Speed, ///< a shake's speed, an incubation's shaking
  Wavelength,
  Reference,
  Excitation,
  Emission,
  Cycles, ///< wash cycles, mix cycles
  Ratio,  ///< a preparation's dilution factor
};
constexpr size_t kParamCount = 10;
std::string_view paramName(Param param);
/// The dimension a parameter's values have.
Dimension paramDimension(Param param);

/// One stated value. Ranges keep both ends; a bound keeps the stated end
/// and open the other; RT and overnight keep their symbolic unit and the
/// platform's interval (20-25 °C; 12-20 h for overnight).
struct Value {
  enum class Kind : uint8_t { Exact, Range, AtLeast, AtMost, About };
  Kind kind = Kind::Exact;
  double low = 0, high = 0; ///< canonical units
  Unit symbolic = Unit::Count; ///< Ambient or Overnight when so written
  std::string text;            ///< as written
  SourceLoc loc;               ///< text side: where it is written
  /// Copied by "as above" or "again" from an earlier step: which step is
  /// meant is a guess.
  bool inferred = false;

  /// A value stated as one number or interval (not a bound).
  bool exact() const { return kind == Kind::Exact || kind == Kind::Range; }
  /// Whether the canonical number `v` satisfies this value.
  bool admits(double v) const;
  std::string display() const;
};

struct Action {
  ActionClass cls = ActionClass::Note;
  std::array<std::vector<Value>, kParamCount> params;
  std::optional<bool> dark, lidOn, shaking; ///< incubations
  std::optional<bool> fourPL, subtractBlank; ///< analyses
  std::vector<std::string> words; ///< lower-case words naming the liquid
  std::string liquid;             ///< how the liquid is named, for display
  bool layoutLiquid = false; ///< standards, samples, blanks (text); `layout` (script)
  /// Text: the role names the wells that get the liquid ("blanks get 100
  /// µL plain medium"), so it may be a layout's liquid or a reagent.
  bool roleReceives = false;
  SourceLoc loc;             ///< the clause (text) or statement (script)
  std::string text;          ///< the clause or statement as written

  // Text side.
  Domain domain = Domain::Unstated;
  /// Domain words anywhere in the sentence, its unit's label and header:
  /// a step the text may give to a person in words that do not reach the
  /// clause ("add ... and incubate 1 h (by hand)").
  bool personNearby = false;
  bool robotNearby = false;
  unsigned unit = 0;     ///< index of the text unit
  unsigned sentence = 0; ///< index of the sentence in the document
  bool required = false; ///< must have a counterpart in the script (see ProcedureText.cpp)
  bool weak = false;     ///< no parameter: a mention more than a step
  bool inProcedure = true; ///< from a procedure unit (not a note, summary, title)
  bool conditional = false; ///< "if ...", "optionally", "alternatively"
  bool aside = false; ///< a value in parentheses with no verb ("(takes five minutes)"), or a
                      ///< repeat of no stated kind ("3 x 50 uL")
  /// A later section of deviations ("D1 (7.2) we use 10 µl, not 50 µl")
  /// changes this step: its values may not be the ones the lab runs.
  bool superseded = false;
  /// Every amendment that supersedes this step changes only its values
  /// ("All washes: 300 µL, not 400 µL"): the step itself stays asked for.
  bool supersededValuesOnly = false;
  /// A verb names the step ("read at 405 nm"); not only a value of a
  /// sentence that describes ("the 405 nm filter is what we use").
  bool named = false;
  /// That verb gives an order ("Incubate 10 min"), not a description with
  /// a subject of its own ("globulins react ... after 10 min").
  bool imperative = false;
  bool inParagraph = false; ///< from running prose, not a list item or a table row
  /// From a list item's second or later sentence where the item opens
  /// with prose, not with a step's verb ("- The MTT incubation stays a
  /// hand step. 3 h for A549.").
  bool afterItemsFirstSentence = false;
  bool orderLoose = false;  ///< "... after adding", "before reading": text order is not time order
  std::string copiedFrom;   ///< "step 3", "the previous step": made by a reference
  bool inexactCopy = false; ///< "as above", "as before": which step is meant is a guess
  bool ambiguousCopy = false; ///< the last copy of "repeat 3 times" (3 or 4 in all?)
  bool repeatCopy = false;    ///< made by "repeat" (not by "as in step N")
  /// A copy: the index of the text action it copies (which of the named
  /// unit's steps), else -1.
  int copyOf = -1;
  SourceLoc copiedLoc; ///< a copy: where the step it copies is written
  /// A step that took its values from another ("Wash as in step 3."):
  /// where that step is written.
  SourceLoc filledFrom;
  /// The parameters whose stated values are beyond the platform's reach,
  /// a bit (1 << Param) each: "1 h at 4 °C" is beyond it in its
  /// temperature, not its time.
  uint32_t beyondPlatform = 0;
  bool beyond(Param p) const { return (beyondPlatform >> static_cast<unsigned>(p)) & 1u; }
  /// All the stated values are within the platform's reach.
  bool platformCan() const { return beyondPlatform == 0; }
  /// Cell culture in a gassed incubator ("seeded ... after 24 h ... 37 °C,
  /// 5% CO2"): work the text may do off the platform, whose heater holds
  /// no atmosphere.
  bool cellCulture = false;
  /// A warming, cooling or preparation after a step of the robot's kind:
  /// a step of the procedure, not the preparation before it.
  bool midProcedure = false;
  std::string label;        ///< the step label of its unit ("3", "5.1", "c")

  // Script side.
  bool manual = false;
  bool instrumentCapable = true; ///< the platform could do it in <INSTRUMENT>
  std::string platformLimit;     ///< why not, when not
  std::string step;              ///< step label
  SourceLoc bodyLoc;             ///< the body line when expanded from a call or repeat
  bool isNoteLike = false;       ///< note, pause: for the operator, no action
  /// The second or later pass of a `repeat` body line (or a call's): the
  /// text tells it once, in the procedure, if at all.
  bool laterCopy = false;
  bool warmsPlate = false;       ///< an equilibrate of wells, not of reagents
  /// A serial dilution's transfers down each chain (column 1 to 2, 2 to 3,
  /// ...): one statement the text may tell as that many transfers.
  unsigned seriesLinks = 0;

  bool has(Param p) const { return !params[static_cast<size_t>(p)].empty(); }
  const std::vector<Value> &values(Param p) const { return params[static_cast<size_t>(p)]; }
  std::vector<Value> &values(Param p) { return params[static_cast<size_t>(p)]; }
  bool hasNumeric() const;
  /// `dispense 100 µL` style one-line summary of class and parameters.
  std::string summary() const;
};

/// A quantity read from prose: "100 µL", "1-2 h", "18-25 °C", "RT",
/// "overnight", "3x", "OD450". Used for text clauses and for the strings
/// of script notes alike.
struct ProseQuantity {
  Dimension dimension = Dimension::Count;
  Value value;
  size_t begin = 0, end = 0; ///< byte offsets in the scanned string
};
/// Every quantity of a short string (a note's text), with its dimension.
std::vector<ProseQuantity> proseQuantities(std::string_view text, const Platform &platform);

/// A unit as prose writes it ("µl", "microlitres", "hrs", "deg C", "C"),
/// resolved with the compiler's own table (plate::lookupUnit) first.
std::optional<Unit> proseUnit(std::string_view word);

/// Lower-case content words of a liquid name, split on `_`, `-` and
/// spaces, for comparing a text's "Detection Antibody" with `detection_ab`.
std::vector<std::string> nameWords(std::string_view name);
/// How well two liquid names agree, 0..1 (shared words, abbreviations).
double liquidSimilarity(const std::vector<std::string> &a, const std::vector<std::string> &b);

} // namespace plate::agent
