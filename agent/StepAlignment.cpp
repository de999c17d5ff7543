//===- StepAlignment.cpp - DP alignment, findings and their confidence ----===//
#include "agent/StepAlignment.h"
#include "agent/ProseScan.h"
#include "agent/ScriptActions.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace plate::agent {

using nlohmann::json;

json toJson(const Finding &finding) {
  json out = {{"type", finding.type},
              {"location", finding.location},
              {"message", finding.message},
              {"guidance", finding.guidance},
              {"source", finding.source}};
  if (!finding.confidence.empty())
    out["confidence"] = finding.confidence;
  return out;
}

std::string_view findingKindName(FindingKind kind) {
  switch (kind) {
  case FindingKind::Missing: return "missing";
  case FindingKind::Invented: return "invented";
  case FindingKind::Parameter: return "parameter";
  case FindingKind::Order: return "order";
  case FindingKind::Domain: return "domain";
  }
  return "?";
}

std::string_view relationName(Relation relation) {
  switch (relation) {
  case Relation::Match: return "match";
  case Relation::Missing: return "missing";
  case Relation::Invented: return "invented";
  case Relation::Order: return "order";
  case Relation::Covered: return "covered";
  case Relation::Unpaired: return "unpaired";
  }
  return "?";
}

unsigned StepAlignment::certainCount() const {
  return static_cast<unsigned>(std::count_if(findings.begin(), findings.end(),
                                             [](const AlignmentFinding &f) { return f.certain; }));
}

unsigned StepAlignment::uncertainCount() const {
  return static_cast<unsigned>(findings.size()) - certainCount();
}

namespace {

//===--- Similarity -------------------------------------------------------===//

enum class ClassFit : uint8_t { None, Compatible, Same };

bool isPersonClass(ActionClass cls) {
  return cls == ActionClass::Prepare || cls == ActionClass::Equilibrate ||
         cls == ActionClass::Note;
}

/// Whether a script value satisfies what the text states for a parameter:
/// one of the text's stated values (or, with only bounds, all of them).
bool valuesMatch(const std::vector<Value> &text, const Value &script) {
  bool anyExact = std::any_of(text.begin(), text.end(), [](const Value &v) { return v.exact(); });
  auto fits = [&](const Value &t) {
    if (script.symbolic == Unit::Ambient)
      return t.symbolic == Unit::Ambient || (t.low <= script.high + 1e-9 && t.high >= script.low - 1e-9);
    return t.admits(script.low);
  };
  if (anyExact)
    return std::any_of(text.begin(), text.end(), [&](const Value &t) { return t.exact() && fits(t); });
  return std::all_of(text.begin(), text.end(), fits);
}

/// A text value is unambiguous when it is one stated value (or bounds only).
bool unambiguous(const std::vector<Value> &text) {
  size_t exact = static_cast<size_t>(
      std::count_if(text.begin(), text.end(), [](const Value &v) { return v.exact(); }));
  return exact <= 1;
}

bool shareValue(const Action &t, const Action &s) {
  for (size_t p = 0; p < kParamCount; ++p)
    for (const Value &v : s.params[p])
      if (!t.params[p].empty() && valuesMatch(t.params[p], v))
        return true;
  return false;
}

ClassFit classFit(const Action &t, const Action &s) {
  if (s.isNoteLike || t.cls == ActionClass::Note) {
    // A note of the script restates what the text says for the operator;
    // it never stands for a step the robot must do.
    if (s.isNoteLike && (t.cls == ActionClass::Note || !t.required) && shareValue(t, s))
      return t.cls == ActionClass::Note ? ClassFit::Same : ClassFit::Compatible;
    return ClassFit::None;
  }
  if (t.cls == s.cls)
    return ClassFit::Same;
  auto pair = [&](ActionClass a, ActionClass b) {
    return (t.cls == a && s.cls == b) || (t.cls == b && s.cls == a);
  };
  if (pair(ActionClass::Incubate, ActionClass::Wait) ||
      pair(ActionClass::Incubate, ActionClass::Equilibrate) ||
      pair(ActionClass::Wait, ActionClass::Equilibrate) ||
      pair(ActionClass::Dispense, ActionClass::Transfer) ||
      pair(ActionClass::Shake, ActionClass::Mix) || pair(ActionClass::Shake, ActionClass::Incubate) ||
      pair(ActionClass::Read, ActionClass::ReadFluorescence))
    return ClassFit::Compatible;
  return ClassFit::None;
}

struct Comparison {
  ClassFit fit = ClassFit::None;
  double score = 0;
  unsigned equal = 0;     ///< numeric parameters on both sides that agree
  unsigned mismatch = 0;  ///< ... that differ
  double liquid = -1;     ///< liquid similarity, -1 when a side names none
};

Comparison compare(const Action &t, const Action &s) {
  Comparison c;
  c.fit = classFit(t, s);
  // A later pass of a repeated step ("repeat 6 { incubate; read }") is
  // the procedure's "every 5 min"; a read named in a revision history or a
  // calculation ("Rev. 4: 6 reads") is none of them.
  if (c.fit == ClassFit::None || (s.laterCopy && !t.inProcedure)) {
    c.fit = ClassFit::None;
    return c;
  }
  c.score = c.fit == ClassFit::Same ? 3.0 : 1.5;
  if (s.isNoteLike)
    c.score = 1.0;
  for (size_t p = 0; p < kParamCount; ++p) {
    if (t.params[p].empty() || s.params[p].empty())
      continue;
    if (valuesMatch(t.params[p], s.params[p].front())) {
      ++c.equal;
      c.score += 1.0;
    } else {
      ++c.mismatch;
      // A value a later amendment contests is weak evidence against a pair
      // ("read at 550" answered by "it's 540"): the amended step is still
      // the step the script's read stands for.
      c.score -= t.superseded ? 0.2 : unambiguous(t.params[p]) ? 1.5 : 0.5;
    }
  }
  if (!t.words.empty() && !s.words.empty()) {
    c.liquid = liquidSimilarity(t.words, s.words);
    c.score += c.liquid > 0 ? 1.0 * c.liquid : -0.3;
  }
  if (s.cls == ActionClass::Dispense && t.cls == ActionClass::Dispense) {
    if (t.layoutLiquid && s.layoutLiquid)
      c.score += 0.8;
    else if (t.layoutLiquid != s.layoutLiquid)
      c.score -= 0.3;
  }
  if (t.domain == Domain::Person)
    c.score += s.manual ? 0.3 : -0.3;
  else if (t.domain == Domain::Robot)
    c.score += s.manual ? -0.3 : 0.3;
  if (t.fourPL && s.fourPL)
    c.score += *t.fourPL == *s.fourPL ? 0.5 : -0.5;
  if (t.dark && s.dark)
    c.score += *t.dark == *s.dark ? 0.2 : -0.2;
  return c;
}

/// A step whose place in time is physical: not a preparation (made at any
/// time before its first use, where a text mentions it at that use), an
/// equilibration, a note or an analysis (computed after the run).
bool timeOrdered(ActionClass cls) { return robotClass(cls) && cls != ActionClass::Analyze; }

/// A step of the text whose place in the sequence is a fact: a plain
/// step of the procedure (a person's too), not a mention, a preparation, a
/// conditional or the uncertain last copy of "repeat N times".
bool orderable(const Action &t) {
  return t.inProcedure && !t.weak && (robotClass(t.cls) || t.midProcedure) && !t.conditional &&
         !t.ambiguousCopy && !t.inexactCopy && !t.aside;
}

/// The liquids of a text step and a script step are the same one: both
/// the layout's (standards, samples), or one reagent by its name.
bool liquidsAgree(const Action &t, const Action &s) {
  if (t.layoutLiquid || s.layoutLiquid)
    return t.layoutLiquid && s.layoutLiquid;
  return !t.words.empty() && !s.words.empty() && liquidSimilarity(t.words, s.words) >= 0.5;
}

bool liquidsDisagree(const Action &t, const Action &s) {
  if (t.layoutLiquid != s.layoutLiquid)
    return true;
  return !t.layoutLiquid && !t.words.empty() && !s.words.empty() &&
         liquidSimilarity(t.words, s.words) == 0;
}

double textGap(const Action &t) {
  if (t.required)
    return 2.5;
  return t.weak ? 0.1 : 0.6;
}

double scriptGap(const Action &s) {
  if (s.isNoteLike || isPersonClass(s.cls))
    return 0.2;
  return s.manual ? 0.8 : 2.5;
}

/// The same stated values, in any order.
bool equalValueSets(const std::vector<Value> &a, const std::vector<Value> &b) {
  if (a.size() != b.size())
    return false;
  for (const Value &v : a)
    if (std::none_of(b.begin(), b.end(), [&](const Value &w) {
          return std::abs(v.low - w.low) < 1e-9 && std::abs(v.high - w.high) < 1e-9 &&
                 v.kind == w.kind;
        }))
      return false;
  return true;
}

//===--- Findings ---------------------------------------------------------===//

std::string where(const Action &t) {
  return fmt::format("text {}:{}", t.loc.line, t.loc.col);
}

std::string scriptWhere(const Action &s) {
  std::string step = s.step.empty() ? "" : fmt::format(" (step {})", s.step);
  return fmt::format("script line {}{}", s.loc.line, step);
}

std::string quote(std::string_view text, size_t max = 70) {
  // Runs of spaces (a notebook's aligned fields, a blanked field name)
  // print as one.
  std::string t;
  for (char c : text)
    if (c != ' ' || t.empty() || t.back() != ' ')
      t += c;
  if (t.size() > max) {
    size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80)
      --cut;
    t = t.substr(0, cut) + "…";
  }
  return "\"" + t + "\"";
}

std::string valuesText(const std::vector<Value> &values) {
  std::vector<std::string> parts;
  for (const Value &v : values)
    parts.push_back(v.display());
  return fmt::format("{}", fmt::join(parts, " or "));
}

/// Numbers the text states anywhere (a value the script invents is one no
/// sentence of the protocol has).
struct TextValues {
  std::vector<std::pair<Dimension, Value>> all;
  bool states(Param p, const Value &v) const {
    // A count and a dilution factor are both bare numbers in prose ("25X
    // concentrate" is a 1:25 dilution).
    auto kind = [](Dimension d) { return d == Dimension::Ratio ? Dimension::Count : d; };
    for (const auto &[d, t] : all)
      if (kind(d) == kind(paramDimension(p)) && t.admits(v.low))
        return true;
    return false;
  }
};

/// The filter of `filters` (not empty) nearest to `wantedNm`.
double nearestFilterNm(const std::vector<double> &filters, double wantedNm) {
  return *std::min_element(filters.begin(), filters.end(), [wantedNm](double a, double b) {
    return std::fabs(a - wantedNm) < std::fabs(b - wantedNm);
  });
}

class Aligner {
public:
  Aligner(const ProcedureText &text, std::vector<Action> script, const Platform &platform,
          const RobotTrialFn &robotTrial)
      : procedure_(text), platform_(platform), robotTrial_(robotTrial) {
    out_.text = text.actions;
    out_.script = std::move(script);
    values_.all = text.stated;
    for (const Action &a : out_.text)
      for (size_t p = 0; p < kParamCount; ++p)
        for (const Value &v : a.params[p])
          values_.all.emplace_back(paramDimension(static_cast<Param>(p)), v);
    labelsScrambled_ = labelsOutOfOrder(text);
  }

  StepAlignment run();

private:
  const ProcedureText &procedure_;
  const Platform &platform_;
  const RobotTrialFn &robotTrial_;
  StepAlignment out_;
  TextValues values_;
  /// `v` is the reader's filter nearest to a wavelength the text states and
  /// the reader lacks.
  bool nearestFilterForStated(const Value &v) const {
    const std::vector<double> &filters = platform_.readerFiltersNm;
    for (const auto &[dimension, stated] : values_.all) {
      if (dimension != Dimension::Wavelength || platform_.hasFilter(stated.low) ||
          filters.empty())
        continue;
      if (std::fabs(nearestFilterNm(filters, stated.low) - v.low) <= kQuantitySlack)
        return true;
    }
    return false;
  }
  /// `v` is the reader's filter nearest to the one wavelength `stated`
  /// gives, which the reader lacks.
  bool nearestFilterTo(const std::vector<Value> &stated, const Value &v) const {
    const std::vector<double> &filters = platform_.readerFiltersNm;
    if (stated.size() != 1 || filters.empty() || platform_.hasFilter(stated.front().low) ||
        std::fabs(stated.front().high - stated.front().low) > kQuantitySlack)
      return false;
    return std::fabs(nearestFilterNm(filters, stated.front().low) - v.low) <= kQuantitySlack;
  }
  std::vector<int> matchT_, matchS_;
  std::vector<bool> orderT_, orderS_, coveredT_, coveredS_;
  std::vector<bool> cyclesSummed_; ///< text: the cycles of a wash split on one side agree

  void dp();
  /// "7.6 Add 100 µL of substrate" above "7.1 Insert ... 7.7 ... 7.2": the
  /// text's numbered steps out of their order (two columns of a PDF read
  /// across), so its reading order is not the time order.
  bool labelsScrambled_ = false;
  static bool labelsOutOfOrder(const ProcedureText &text);
  void crossings();
  void splitWashes();
  void coverage();
  void pairFindings();
  void gapFindings();
  void buildRows();
  /// Whether a step of `t`'s unit, or of the nearest unit with steps before
  /// or after it, is aligned with a step of the script: a lone statement
  /// far from the aligned procedure is more likely a description.
  bool nextToAlignedStep(const Action &t) const;
  /// Whether script step `j` (in <MANUAL>) is in one run of <MANUAL> steps
  /// with a step that belongs there (the platform cannot do it, a layout
  /// load, or the text gives it to a person).
  bool besideJustifiedManual(size_t j) const;
  /// Script step `j` is paired with nothing and expected to be.
  bool unpairedScript(size_t j) const;
  /// Whether the text writes the number of script value `v` anywhere.
  bool writesNumberOf(const Value &v) const;
  /// One of two text steps is a table row and the other prose: a table
  /// of volumes per reagent does not say where the prose around it falls.
  bool tableAndProse(size_t a, size_t b) const;
  /// Whether the order of text step `t` and script step `j` is physical:
  /// both are robot work other than an analysis, or `j` prepares a reagent
  /// that an earlier script step already used.
  bool orderMatters(const Action &t, size_t j) const;
  /// Script step `j`, placed by the text after script step `textPlace`,
  /// crosses only preparations (making or warming reagents it does not
  /// use): a text's "Reagent preparation" section for two days, before a
  /// procedure that starts on the first day, puts no time order between
  /// them.
  bool movedOnlyAcrossPreparations(size_t j, int textPlace) const;
  /// Text step `i` has a step of the same kind and values outside any
  /// table: a table row that restates a step of the prose.
  bool restatedInProse(size_t i) const;
  /// Some text step of sentence `sentence` states `v` for `param`.
  bool statedInSentence(unsigned sentence, Param param, const Value &v) const;
  /// Text unit `unit` holds `v` as a number without a unit the reader
  /// took ("incubate at thirty-seven", "37 for 1 h"): the text may state it.
  bool bareNumberInUnit(unsigned unit, Param param, const Value &v) const;
  /// Text step `i` comes from a row of a table.
  bool inTable(size_t i) const;
  /// A paired script step of the same pipetting kind, paired in `t`'s
  /// paragraph or the next, whose values admit all of `t`'s and whose
  /// liquid does not differ: the index, or -1.
  int explainedBy(const Action &t) const;
  /// A script step of `t`'s kind with no value against `t`'s, paired with
  /// a text step that is not required (a summary's row, a FAQ, a later
  /// restatement): the script does `t`, and the alignment gave the pair to
  /// its echo. The index, or -1.
  int pairedWithRestatement(const Action &t) const;
  /// A script step of `t`'s kind, where `t` would sit, paired with a later
  /// passage that is not required (a reply, a remark) and says the step
  /// with other values, which the script has: the script follows a later
  /// change of `t`. The index, or -1.
  int followsLaterValues(const Action &t) const;
  /// The text step paired with script step `j`, or null.
  const Action *textPairedWith(size_t j) const;
  /// Script step `s` is `t`'s kind with equal values and none against
  /// them, and a liquid that does not differ.
  bool doesSameStep(const Action &t, const Action &s) const;
  /// Pairing text step `t` with script step `j` would cross a pair of
  /// robot steps.
  bool crossesRobotPair(const Action &t, size_t j) const;
  /// An unpaired script step that may be text step `t` in other words (a
  /// kind that fits or a shared value): the index, or -1. Two leftovers
  /// that may be one step are a reading problem, not a certain finding.
  int unpairedTwin(const Action &t) const;
  /// The same from the script's side.
  bool textTwin(const Action &s) const;
  /// How an unpaired text step shows in the table.
  Relation textRelation(size_t i) const;
  bool personHint(const Action &t, const Action &s) const;
  void add(FindingKind kind, bool certain, int t, int s, std::string message,
           std::string guidance, std::string why) {
    out_.findings.push_back(
        {kind, certain, t, s, std::move(message), std::move(guidance), std::move(why)});
  }
};

bool Aligner::labelsOutOfOrder(const ProcedureText &text) {
  // Per parent ("7" of "7.6"), the numbers in reading order.
  std::map<std::string, std::vector<long>> siblings;
  for (const TextUnit &unit : text.units) {
    const std::string &label = unit.label;
    size_t dot = label.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 >= label.size())
      continue;
    long number = 0;
    auto [end, ec] = std::from_chars(label.data() + dot + 1, label.data() + label.size(), number);
    if (ec != std::errc() || end != label.data() + label.size())
      continue;
    siblings[label.substr(0, dot)].push_back(number);
  }
  for (const auto &[parent, numbers] : siblings) {
    // Rising runs: a list told twice (the steps, then a table of them) is
    // two long runs; two columns read across are many short ones.
    size_t runs = numbers.empty() ? 0 : 1;
    for (size_t i = 1; i < numbers.size(); ++i)
      runs += numbers[i] < numbers[i - 1] ? 1 : 0;
    if (runs >= 3 && numbers.size() < 3 * runs)
      return true;
  }
  return false;
}

void Aligner::dp() {
  const auto &T = out_.text;
  const auto &S = out_.script;
  size_t n = T.size(), m = S.size();
  matchT_.assign(n, -1);
  matchS_.assign(m, -1);
  // Scores in two rows; one byte of traceback per cell (0 match, 1 text
  // gap, 2 script gap).
  std::vector<double> prev(m + 1, 0), cur(m + 1, 0);
  std::vector<uint8_t> back((n + 1) * (m + 1), 0);
  for (size_t j = 1; j <= m; ++j) {
    prev[j] = prev[j - 1] - scriptGap(S[j - 1]);
    back[j] = 2;
  }
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = prev[0] - textGap(T[i - 1]);
    back[i * (m + 1)] = 1;
    for (size_t j = 1; j <= m; ++j) {
      double best = prev[j] - textGap(T[i - 1]);
      uint8_t how = 1;
      double skipScript = cur[j - 1] - scriptGap(S[j - 1]);
      if (skipScript > best) {
        best = skipScript;
        how = 2;
      }
      Comparison c = compare(T[i - 1], S[j - 1]);
      if (c.fit != ClassFit::None && prev[j - 1] + c.score >= best) {
        best = prev[j - 1] + c.score;
        how = 0;
      }
      // "dispense 50 uL of standards" written as two dispenses (the blank,
      // then the calibrants): a dispense with the same values as the
      // dispense before it, which this text step took, in the same section
      // and of layout liquids (or of the same liquid, to other wells),
      // splits that step and costs no gap (coverage() then marks it
      // covered). Two reagents are two additions.
      uint8_t before = back[i * (m + 1) + j - 1];
      if (j >= 2 && (before == 0 || before == 3) && c.fit == ClassFit::Same && c.mismatch == 0 &&
          c.equal > 0 && S[j - 1].cls == ActionClass::Dispense && S[j - 2].cls == ActionClass::Dispense &&
          S[j - 1].manual == S[j - 2].manual &&
          ((S[j - 1].layoutLiquid && S[j - 2].layoutLiquid) || S[j - 1].liquid == S[j - 2].liquid) &&
          cur[j - 1] > best) {
        best = cur[j - 1];
        how = 3;
      }
      cur[j] = best;
      back[i * (m + 1) + j] = how;
    }
    std::swap(prev, cur);
  }
  size_t i = n, j = m;
  while (i > 0 || j > 0) {
    uint8_t how = back[i * (m + 1) + j];
    if (i > 0 && j > 0 && how == 0) {
      matchT_[i - 1] = static_cast<int>(j - 1);
      matchS_[j - 1] = static_cast<int>(i - 1);
      --i, --j;
    } else if (i > 0 && (how == 1 || j == 0)) {
      --i;
    } else if (how == 3) {
      // A split of the text step that the script step before it took.
      --j;
      while (j > 0 && back[i * (m + 1) + j] == 3)
        --j;
      matchT_[i - 1] = static_cast<int>(j - 1);
      matchS_[j - 1] = static_cast<int>(i - 1);
      --i, --j;
    } else {
      --j;
    }
  }
}

void Aligner::crossings() {
  const auto &T = out_.text;
  const auto &S = out_.script;
  orderT_.assign(T.size(), false);
  orderS_.assign(S.size(), false);
  // 1. Two aligned steps of one kind that fit each other's partner far
  //    better: their order differs ("25 µL conjugate, then 25 µL
  //    antibody" against the reverse).
  std::vector<size_t> matched;
  for (size_t i = 0; i < T.size(); ++i)
    if (matchT_[i] >= 0)
      matched.push_back(i);
  for (size_t k = 0; k + 1 < matched.size(); ++k) {
    size_t i1 = matched[k], i2 = matched[k + 1];
    int j1 = matchT_[i1], j2 = matchT_[i2];
    if (orderT_[i1] || orderT_[i2])
      continue;
    Comparison s11 = compare(T[i1], S[j1]), s22 = compare(T[i2], S[j2]);
    Comparison s12 = compare(T[i1], S[j2]), s21 = compare(T[i2], S[j1]);
    if (s12.fit != ClassFit::Same || s21.fit != ClassFit::Same || s12.mismatch > 0 ||
        s21.mismatch > 0)
      continue;
    if (s12.score + s21.score <= s11.score + s22.score + 1.5)
      continue;
    orderT_[i1] = orderT_[i2] = true;
    orderS_[j1] = orderS_[j2] = true;
    bool numbers = s12.equal > 0 && s21.equal > 0 &&
                   (s11.mismatch + s22.mismatch > 0 || s11.fit != ClassFit::Same ||
                    s22.fit != ClassFit::Same);
    // "Blanks get 100 µL plain medium" may be the blank's layout liquid or
    // a reagent put into the blank wells: its liquid is no evidence.
    bool names = liquidsAgree(T[i1], S[j2]) && liquidsAgree(T[i2], S[j1]) &&
                 liquidsDisagree(T[i1], S[j1]) && liquidsDisagree(T[i2], S[j2]) &&
                 !T[i1].roleReceives && !T[i2].roleReceives;
    bool certain = (numbers || names) && !tableAndProse(i1, i2) && orderable(T[i1]) &&
                   orderable(T[i2]) && orderMatters(T[i1], j1) && orderMatters(T[i2], j2) &&
                   !T[i1].orderLoose && !T[i2].orderLoose && !S[j1].isNoteLike &&
                   !S[j2].isNoteLike && !labelsScrambled_;
    add(FindingKind::Order, certain, static_cast<int>(i2), j1,
        fmt::format("{} ({}) comes before {} ({}), but the text has them the other way round: "
                    "{} {} then {} {}",
                    scriptWhere(S[j1]), S[j1].summary(), scriptWhere(S[j2]), S[j2].summary(),
                    where(T[i1]), quote(T[i1].text), where(T[i2]), quote(T[i2].text)),
        fmt::format("swap the steps at script lines {} and {}", S[j1].loc.line, S[j2].loc.line),
        certain ? "each step fits the other's place in the text exactly"
                : "a preparation, a note, or text whose order is not the time order");
  }
  // 2. A step of each side left over, fitting each other: a step moved.
  struct Candidate {
    size_t t, s;
    double score;
    Comparison c;
  };
  std::vector<Candidate> candidates;
  for (size_t i = 0; i < T.size(); ++i) {
    if (matchT_[i] >= 0 || T[i].weak)
      continue;
    for (size_t j = 0; j < S.size(); ++j) {
      if (matchS_[j] >= 0)
        continue;
      Comparison c = compare(T[i], S[j]);
      if (c.fit != ClassFit::Same || c.mismatch > 0 ||
          (c.equal == 0 && !(T[i].cls == ActionClass::Analyze)))
        continue;
      candidates.push_back({i, j, c.score, c});
    }
    if (candidates.size() > 100000)
      break;
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
  std::vector<bool> usedT(T.size(), false), usedS(S.size(), false);
  for (const Candidate &c : candidates) {
    if (usedT[c.t] || usedS[c.s])
      continue;
    usedT[c.t] = usedS[c.s] = true;
    orderT_[c.t] = true;
    orderS_[c.s] = true;
    const Action &t = T[c.t];
    const Action &s = S[c.s];
    // Where the text puts it: after the script step of the text's step
    // before it.
    int before = -1;
    size_t beforeText = c.t;
    for (size_t k = c.t; k-- > 0;)
      if (matchT_[k] >= 0) {
        before = matchT_[k];
        beforeText = k;
        break;
      }
    // In running prose a step moved elsewhere is certain only where a verb
    // asks for it: a value in a sentence that describes (an introduction's
    // "the 405 nm filter is what we use") has no place in the time order to
    // be out of (held-out 82). List items and table rows are steps as
    // written, verb or not ("100 ul of each std into B1-H2"); an item's
    // later sentences are prose ("- ... stays a hand step. 3 h for A549.").
    bool certain = orderable(t) && !t.orderLoose && !t.inexactCopy && !s.isNoteLike &&
                   orderMatters(t, c.s) && c.c.equal > 0 &&
                   !tableAndProse(c.t, beforeText) &&
                   (t.named || !(t.inParagraph || t.afterItemsFirstSentence)) &&
                   !movedOnlyAcrossPreparations(c.s, before) && !labelsScrambled_;
    std::string place = before >= 0 ? fmt::format("after script line {}", S[before].loc.line)
                                     : "before the first step";
    add(FindingKind::Order, certain, static_cast<int>(c.t), static_cast<int>(c.s),
        fmt::format("{} ({}) is out of the text's order: the text has it at {} {}, which puts "
                    "it {}",
                    scriptWhere(s), s.summary(), where(t), quote(t.text), place),
        fmt::format("move the step at script line {} {}", s.loc.line, place),
        certain ? "the step matches its place in the text exactly and the text's order is the time order"
                : "a preparation, an analysis, a note, a person's step or text whose order is not "
                  "the time order");
  }
}

void Aligner::coverage() {
  const auto &T = out_.text;
  const auto &S = out_.script;
  coveredT_.assign(T.size(), false);
  coveredS_.assign(S.size(), false);
  // A text step restating its neighbour's, done by the same script step:
  // "column 1 = blank 200 µL, columns 2-12 = 200 µL samples" against one
  // layout dispense.
  // The script step that does a text step: its pair, or the step that
  // covers it. A run of per-role additions ("the drugs get 100 µL", "the
  // vehicle wells get 100 µL", "the blank wells get 100 µL") is covered one
  // neighbour at a time, so the loop runs until nothing changes.
  std::vector<int> doneBy(matchT_.begin(), matchT_.end());
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < T.size(); ++i) {
      if (matchT_[i] >= 0 || orderT_[i] || coveredT_[i])
        continue;
      for (size_t k : {i > 0 ? i - 1 : i, i + 1}) {
        if (k == i || k >= T.size() || doneBy[k] < 0 || T[k].cls != T[i].cls)
          continue;
        const Action &s = S[static_cast<size_t>(doneBy[k])];
        Comparison c = compare(T[i], s);
        if (c.fit != ClassFit::Same || c.mismatch > 0)
          continue;
        // A layout dispense does several liquids in one step: the text's
        // additions of one volume in one sentence ("column 1 = blank 100 µL;
        // columns 2-12 = 100 µL dye") are that step.
        bool layout = T[i].cls == ActionClass::Dispense && s.layoutLiquid &&
                      (T[i].layoutLiquid || T[i].sentence == T[k].sentence);
        bool restated = matchT_[k] >= 0 &&
                        (T[i].weak || (T[i].sentence == T[k].sentence && !T[i].required));
        if (layout || restated) {
          coveredT_[i] = true;
          doneBy[i] = doneBy[k];
          changed = true;
          break;
        }
      }
    }
  }
  // "50 µL was transferred from column 1 to column 2 and mixed, then from
  // column 2 to column 3, and so on up to column 10" against one
  // `serial_dilution`: the statement does each link of the chain the text
  // tells one by one.
  for (size_t j = 0; j < S.size(); ++j) {
    int k = matchS_[j];
    if (k < 0 || S[j].seriesLinks < 2)
      continue;
    unsigned more = S[j].seriesLinks - 1;
    for (size_t i = 0; i < T.size() && more > 0; ++i) {
      if (matchT_[i] >= 0 || orderT_[i] || coveredT_[i] || T[i].cls != S[j].cls ||
          T[i].unit != T[static_cast<size_t>(k)].unit)
        continue;
      Comparison c = compare(T[i], S[j]);
      if (c.fit != ClassFit::Same || c.mismatch > 0)
        continue;
      coveredT_[i] = true;
      --more;
    }
  }
  // "Remove the coating solution. Wash three times ...": a wash empties
  // wells that hold liquid before its first cycle (the language's `wash`),
  // so a removal right before a wash is part of it.
  for (size_t i = 0; i < T.size(); ++i) {
    if (matchT_[i] >= 0 || orderT_[i] || coveredT_[i] || T[i].cls != ActionClass::Aspirate ||
        T[i].has(Param::Volume))
      continue;
    for (size_t k = i + 1; k < T.size(); ++k) {
      if (!T[k].required && T[k].cls != ActionClass::Wash)
        continue;
      if (T[k].cls == ActionClass::Wash && matchT_[k] >= 0)
        coveredT_[i] = true;
      break;
    }
  }
  // "Remove stain; add 200 uL water" inside a loop drawn back to it until
  // the fourth rinse, done by a script's `wash 4 times with 200 uL of
  // water`: an addition of the wash's liquid and volume, next to a text
  // step that the wash took, is one of its fills.
  for (size_t i = 0; i < T.size(); ++i) {
    if (matchT_[i] >= 0 || orderT_[i] || coveredT_[i] || T[i].cls != ActionClass::Dispense ||
        !T[i].has(Param::Volume) || T[i].words.empty())
      continue;
    for (size_t k = i > 2 ? i - 2 : 0; k < T.size() && k <= i + 2; ++k) {
      int j = matchT_[k];
      if (k == i || j < 0 || S[static_cast<size_t>(j)].cls != ActionClass::Wash)
        continue;
      const Action &wash = S[static_cast<size_t>(j)];
      if (wash.has(Param::Volume) &&
          valuesMatch(T[i].values(Param::Volume), wash.values(Param::Volume).front()) &&
          liquidSimilarity(T[i].words, wash.words) > 0) {
        coveredT_[i] = true;
        break;
      }
    }
  }
  // A paragraph that describes one step in several sentences ("Aspirate
  // each well and wash, three times more. Wash by filling each well with
  // 400 µL ...") states its values twice: a step of its own unit with the
  // same kind and the same values, done by a script step, is that step.
  // "Repeat" asks for the step again and is not a restatement, but a copy
  // of a restating paragraph ("repeat the wash as in step 4") copies the
  // restatement too.
  for (size_t i = 0; i < T.size(); ++i) {
    if (matchT_[i] >= 0 || orderT_[i] || coveredT_[i])
      continue;
    for (size_t k = 0; k < T.size(); ++k) {
      if (k == i || matchT_[k] < 0 || T[k].unit != T[i].unit || T[k].cls != T[i].cls)
        continue;
      bool copies = T[i].copyOf >= 0 || T[k].copyOf >= 0;
      // "Repeat the wash as in step 2, but wash 5 times instead of 4": the
      // varied value, said with the step's noun, is the copy's.
      bool variation = T[i].copyOf < 0 && T[k].copyOf >= 0 && T[i].sentence == T[k].sentence;
      if (copies && !variation &&
          (T[i].copyOf < 0 || T[k].copyOf < 0 || T[i].copyOf == T[k].copyOf ||
           T[i].sentence != T[k].sentence))
        continue;
      // With another step between them, the second is a step again
      // ("incubate 1 h ... add ... incubate 1 h" in one paragraph).
      bool between = false;
      for (size_t m = std::min(i, k) + 1; m < std::max(i, k); ++m)
        between |= T[m].required && T[m].cls != T[i].cls;
      // Two liquids of one volume are two additions.
      bool additions = T[i].cls == ActionClass::Dispense || T[i].cls == ActionClass::Transfer;
      if (between || (additions && (T[i].layoutLiquid != T[k].layoutLiquid ||
                                    T[i].words.empty() != T[k].words.empty() ||
                                    liquidSimilarity(T[i].words, T[k].words) < 0.5)))
        continue;
      Comparison same = compare(T[i], S[static_cast<size_t>(matchT_[k])]);
      bool restates = same.fit == ClassFit::Same && same.mismatch == 0 && same.equal > 0;
      for (size_t p = 0; p < kParamCount && restates; ++p)
        restates = (T[i].params[p].empty() == T[k].params[p].empty() ||
                    (variation && T[i].params[p].empty())) &&
                   (T[i].params[p].empty() || equalValueSets(T[i].params[p], T[k].params[p]));
      if (restates) {
        coveredT_[i] = true;
        break;
      }
    }
  }
  // A script step that splits one text step ("dispense 100 µL into columns
  // 1 and 12" written as two dispenses): the same kind and values as its
  // aligned neighbour.
  // A run of such steps ("5 µL of blank, standards and samples" as three
  // dispenses) is covered step by step from the one aligned.
  std::vector<int> coverText(S.size(), -1);
  for (size_t j = 0; j < S.size(); ++j) {
    if (matchS_[j] >= 0 || orderS_[j])
      continue;
    for (size_t k : {j > 0 ? j - 1 : j, j + 1}) {
      int tk = k < S.size() ? (matchS_[k] >= 0 ? matchS_[k] : coverText[k]) : -1;
      if (k == j || k >= S.size() || tk < 0 || S[k].cls != S[j].cls)
        continue;
      const Action &t = T[static_cast<size_t>(tk)];
      Comparison c = compare(t, S[j]);
      if (c.fit == ClassFit::Same && c.mismatch == 0 && c.equal > 0) {
        coveredS_[j] = true;
        coverText[j] = tk;
        break;
      }
    }
  }
}

void Aligner::splitWashes() {
  const auto &T = out_.text;
  const auto &S = out_.script;
  cyclesSummed_.assign(T.size(), false);
  auto cycles = [](const Action &w) {
    return w.has(Param::Cycles) ? w.values(Param::Cycles).front().low : 1.0;
  };
  auto sameWash = [](const Action &a, const Action &b) {
    if (a.cls != ActionClass::Wash || b.cls != ActionClass::Wash)
      return false;
    if (a.has(Param::Volume) && b.has(Param::Volume) &&
        !valuesMatch(a.values(Param::Volume), b.values(Param::Volume).front()))
      return false;
    return a.words.empty() || b.words.empty() || liquidSimilarity(a.words, b.words) > 0 ||
           liquidSimilarity(b.words, a.words) > 0;
  };
  // One text wash written as several script washes in a row, or the other
  // way round: the cycles count together.
  for (size_t i = 0; i < T.size(); ++i) {
    int j = matchT_[i];
    if (j < 0 || T[i].cls != ActionClass::Wash || !T[i].has(Param::Cycles) ||
        S[j].cls != ActionClass::Wash ||
        valuesMatch(T[i].values(Param::Cycles), S[j].values(Param::Cycles).front()))
      continue;
    // Script side.
    double total = cycles(S[j]);
    std::vector<size_t> parts;
    for (size_t k = static_cast<size_t>(j) + 1; k < S.size() && matchS_[k] < 0 && !orderS_[k] &&
                                                sameWash(T[i], S[k]);
         ++k) {
      total += cycles(S[k]);
      parts.push_back(k);
    }
    if (!parts.empty() && T[i].values(Param::Cycles).front().admits(total)) {
      for (size_t k : parts)
        coveredS_[k] = true;
      cyclesSummed_[i] = true;
      continue;
    }
    // Text side.
    total = cycles(T[i]);
    parts.clear();
    // A mention ("After the last wash, ...") is no cycle.
    for (size_t k = i + 1; k < T.size() && matchT_[k] < 0 && !orderT_[k] && !T[k].weak &&
                           sameWash(T[k], S[j]);
         ++k) {
      total += cycles(T[k]);
      parts.push_back(k);
    }
    Value sum;
    sum.low = sum.high = total;
    if (!parts.empty() && valuesMatch({sum}, S[j].values(Param::Cycles).front())) {
      for (size_t k : parts)
        coveredT_[k] = true;
      cyclesSummed_[i] = true;
    }
  }
}

/// Words that name an action or a worker, not a liquid.
bool robotClassWord(const std::string &w) {
  static const std::set<std::string, std::less<>> words = {
      "loads",   "load",    "loaded",  "loading", "pipette", "pipettes", "pipetted", "pipetting",
      "adds",    "add",     "added",   "adding",  "coats",   "coat",     "coated",   "coating",
      "hand",    "manual",  "manually", "operator", "technician", "user", "multichannel",
      "laboratory", "lab",  "bench",   "done",    "reads",   "read",     "reading",  "measured",
      "person",  "plate",   "wells",   "performs", "perform", "does",    "takes"};
  return words.count(w) > 0;
}

bool Aligner::personHint(const Action &t, const Action &s) const {
  for (const ProcedureText::Hint &hint : procedure_.personHints) {
    if (hint.scopeAfter && hint.sentence < t.sentence)
      return true;
    // A sentence that is itself a step gives only that step away.
    bool step = std::any_of(out_.text.begin(), out_.text.end(), [&](const Action &a) {
      return a.sentence == hint.sentence && !a.weak;
    });
    if (step)
      continue;
    // "The laboratory loads standards and samples by hand" gives away the
    // loading of those liquids, not every addition of the protocol: a
    // sentence that names liquids speaks of them only.
    std::vector<std::string> named;
    for (const std::string &w : hint.words)
      if (!robotClassWord(w))
        named.push_back(w);
    bool layoutWords = std::any_of(named.begin(), named.end(), [](const std::string &w) {
      return w.rfind("standard", 0) == 0 || w.rfind("sample", 0) == 0 || w == "blank" ||
             w == "blanks" || w.rfind("control", 0) == 0 || w.rfind("calibrat", 0) == 0;
    });
    if (s.layoutLiquid && layoutWords)
      return true;
    if (!s.words.empty() && liquidSimilarity(named, s.words) >= 0.5)
      return true;
    if (!named.empty() && (s.cls == ActionClass::Dispense || s.cls == ActionClass::Wash))
      continue;
    for (ActionClass cls : hint.classes)
      if (cls == t.cls || cls == s.cls ||
          (cls == ActionClass::Incubate && t.cls == ActionClass::Equilibrate))
        return true;
  }
  return false;
}

/// Parameters a statement of the language cannot leave out (the grammar's
/// required operands): a script states them even where the text does not.
bool languageRequires(ActionClass cls, Param param) {
  switch (cls) {
  case ActionClass::Shake: return param == Param::Time || param == Param::Speed;
  case ActionClass::Read: return param == Param::Wavelength;
  case ActionClass::Incubate: return param == Param::Time;
  case ActionClass::Wash: return param == Param::Volume || param == Param::Cycles;
  case ActionClass::Mix: return param == Param::Volume || param == Param::Cycles;
  case ActionClass::Dispense:
  case ActionClass::Transfer: return param == Param::Volume;
  default: return false;
  }
}

/// Whether the text's step names `liquid` (`capture_ab` as "capture ab"
/// or "capture_ab", any case).
bool namesLiquid(const Action &t, const std::string &liquid) {
  if (liquid.empty())
    return true;
  std::string name = prose::lowerAscii(liquid);
  std::string spaced = name;
  std::replace(spaced.begin(), spaced.end(), '_', ' ');
  std::string text = prose::lowerAscii(t.text);
  return text.find(name) != std::string::npos || text.find(spaced) != std::string::npos;
}

void Aligner::pairFindings() {
  const auto &T = out_.text;
  const auto &S = out_.script;
  // Whether the pair of text step `i` differs on `param` in a value both
  // sides state (the values a platform's filters round apart aside).
  // Whether text step `i`'s values `tv` agree with its script step's
  // first value `sv`: the same, cycles the text sums, or, as "ref 630 nm"
  // on a reader whose filters stop at 620 and 650 nm, the text's value as
  // the platform can read it.
  auto agree = [&](size_t i, Param param, const std::vector<Value> &tv, const Value &sv) {
    return valuesMatch(tv, sv) || (param == Param::Cycles && cyclesSummed_[i]) ||
           ((param == Param::Wavelength || param == Param::Reference) && nearestFilterTo(tv, sv));
  };
  auto differs = [&](size_t i, Param param) {
    int j = matchT_[i];
    if (j < 0 || orderT_[i] || !T[i].inProcedure)
      return false;
    const std::vector<Value> &tv = T[i].params[static_cast<size_t>(param)];
    const std::vector<Value> &sv = S[static_cast<size_t>(j)].params[static_cast<size_t>(param)];
    if (tv.empty() || sv.empty() || agree(i, param, tv, sv.front()))
      return false;
    // A difference the text explains (a deviation, a correction, a value
    // the platform lacks, a choice the sentence offers) is no sign of a
    // shifted pairing.
    const Action &t = T[i];
    return !t.superseded && !t.conditional && !t.weak && !t.inexactCopy && !t.beyond(param) &&
           !statedInSentence(t.sentence, param, sv.front());
  };
  // A pair that differs on a value, or whose liquids share no word.
  auto doubtful = [&](size_t k) {
    const Action &s = S[static_cast<size_t>(matchT_[k])];
    for (size_t p = 0; p < kParamCount; ++p)
      if (differs(k, static_cast<Param>(p)))
        return true;
    // Two additions of named liquids that share no word ("inhibitor" and
    // `egf`); the layout's liquids go by roles the words may not name.
    return T[k].cls == s.cls && T[k].cls == ActionClass::Dispense && s.liquid != "layout" &&
           !T[k].layoutLiquid && !T[k].words.empty() && !s.words.empty() &&
           liquidSimilarity(T[k].words, s.words) == 0;
  };
  // The nearest paired text step of the same kind before or after `i`, in
  // the alignment's order, within three pairs, past doubtful pairs only: a
  // sound pair between them ends the run.
  auto pairedNeighbour = [&](size_t i, int step) -> std::optional<size_t> {
    int pairs = 0;
    for (long k = static_cast<long>(i) + step;
         k >= 0 && k < static_cast<long>(T.size()) && pairs < 3; k += step) {
      size_t n = static_cast<size_t>(k);
      if (matchT_[n] < 0 || orderT_[n] || !T[n].inProcedure)
        continue;
      ++pairs;
      if (T[n].cls == T[i].cls)
        return n;
      if (!doubtful(n))
        return std::nullopt;
    }
    return std::nullopt;
  };
  for (size_t i = 0; i < T.size(); ++i) {
    int j = matchT_[i];
    if (j < 0 || orderT_[i])
      continue;
    const Action &t = T[i];
    const Action &s = S[j];
    ClassFit fit = classFit(t, s);
    // A summary, title or note restates the procedure: its differences are
    // no evidence.
    if (!t.inProcedure)
      continue;
    bool solid = fit == ClassFit::Same && t.inProcedure && !t.weak && !t.inexactCopy &&
                 !t.conditional && !t.superseded && !s.isNoteLike && t.cls != ActionClass::Note;
    for (size_t p = 0; p < kParamCount; ++p) {
      Param param = static_cast<Param>(p);
      const std::vector<Value> &tv = t.params[p];
      const std::vector<Value> &sv = s.params[p];
      if (!tv.empty() && !sv.empty()) {
        if (agree(i, param, tv, sv.front()))
          continue;
        bool inferred = std::any_of(tv.begin(), tv.end(), [](const Value &v) { return v.inferred; });
        // A preparation states its volumes in several ways (concentrate,
        // diluent, total): which one the script carries is a choice.
        bool prepVolume = t.cls == ActionClass::Prepare && param == Param::Volume;
        // A text value the platform cannot do (a filter it lacks) makes the
        // script choose another; a script value the same sentence states
        // ("ex 480 / em 520 (485/535 also fine)") is one the text allows.
        // Only the value beyond reach: "1 h at 4 °C" on a platform that
        // cannot cool leaves no choice of the hour.
        bool choice = t.beyond(param) || statedInSentence(t.sentence, param, sv.front());
        // "dilute each plasma 1:4" paired with `prepare CAL1 ... 1:2000`:
        // a preparation's value speaks for the liquid it names.
        bool otherLiquid = t.cls == ActionClass::Prepare && !namesLiquid(t, s.liquid);
        // "Starve 4 h", "after 3 h of the starve", "that last 1 h" paired in
        // turn with a script's 3 h, 1 h, 20 min: when the pair next to this
        // one differs on the same value of the same kind of step too, the
        // likelier story is an alignment shifted by a step, not a script
        // wrong twice in a row.
        bool shifted = false;
        for (int step : {-1, 1}) {
          std::optional<size_t> k = pairedNeighbour(i, step);
          shifted = shifted || (k && S[static_cast<size_t>(matchT_[*k])].cls == s.cls &&
                                differs(*k, param));
        }
        bool certain = solid && unambiguous(tv) && !inferred && !prepVolume && !choice &&
                       !otherLiquid && !shifted;
        add(FindingKind::Parameter, certain, static_cast<int>(i), j,
            fmt::format("{} {} {} but {} ({}) has {}", where(t), quote(t.text), 
                        fmt::format("states {} {}", paramName(param), valuesText(tv)),
                        scriptWhere(s), s.summary(), sv.front().display()),
            fmt::format("use {} {} as the text says", paramName(param), valuesText(tv)),
            certain ? "the text states one value for this step"
                    : prepVolume ? "a preparation's volume may be the concentrate's, the diluent's or the total"
                    : otherLiquid ? "the text's preparation does not name the liquid the script prepares"
                    : shifted ? "the pair beside it differs on the same value too: the steps may be paired one off"
                    : choice ? "the platform cannot do the text's value, or the text states the script's value too"
                    : t.superseded ? "a later amendment of the text (a reply, a deviation, a correction) changes this step"
                    : fit != ClassFit::Same ? "the steps are of related kinds, not the same"
                    : (t.inexactCopy || inferred) ? "the value comes from \"as above\", a guess at which step is meant"
                                    : "the text gives several values, a bound, or is not a plain step");
      } else if (!sv.empty() && tv.empty() && !s.isNoteLike && !isPersonClass(s.cls)) {
        const Value &v = sv.front();
        // RT is what `incubate` means without a temperature.
        bool defaultValue = v.symbolic == Unit::Ambient ||
                            (param == Param::Cycles && s.cls != ActionClass::Wash);
        if (defaultValue || values_.states(param, v))
          continue;
        // A value that no sentence of the text states at all. When the
        // language makes the statement carry it (`shake TIME at SPEED`) and
        // the text's step gives none ("shake briefly"), the script had to
        // choose one: the choice may be poor, never invented.
        bool chosen = languageRequires(s.cls, param);
        // `analyze ... at 570 nm` names the read it fits; whether that read's
        // wavelength is right is the read's own finding (a filter the
        // reader lacks makes the script read at another).
        bool followsRead =
            s.cls == ActionClass::Analyze && param == Param::Wavelength &&
            std::any_of(S.begin(), S.end(), [&](const Action &read) {
              return read.cls == ActionClass::Read &&
                     std::any_of(read.values(Param::Wavelength).begin(),
                                 read.values(Param::Wavelength).end(),
                                 [&](const Value &w) { return w.admits(v.low); });
            });
        bool bare = bareNumberInUnit(t.unit, param, v);
        bool certain = solid && !s.manual && !chosen && !followsRead && !bare;
        add(FindingKind::Parameter, certain, static_cast<int>(i), j,
            fmt::format("{} ({}) has {} {}, which the text states nowhere (its step: {} {})",
                        scriptWhere(s), s.summary(), paramName(param), v.display(), where(t),
                        quote(t.text)),
            fmt::format("leave out the {} or use the protocol's value", paramName(param)),
            certain ? "no sentence of the protocol states this value"
            : bare ? "the text's step has the number without a unit the reader could take"
            : followsRead ? "the wavelength names the script's read that the analysis fits"
            : chosen ? "the language requires the statement to state it and the text's step "
                       "gives none, so the script had to choose a value"
                     : "a step in <MANUAL> or a loose match");
      } else if (!tv.empty() && sv.empty() && t.cls == s.cls &&
                 (param == Param::Speed || param == Param::Reference || param == Param::Time ||
                  param == Param::Temperature) &&
                 !(param == Param::Time && (s.cls == ActionClass::Wash))) {
        add(FindingKind::Parameter, false, static_cast<int>(i), j,
            fmt::format("{} {} states {} {}, which {} ({}) does not have", where(t),
                        quote(t.text), paramName(param), valuesText(tv), scriptWhere(s),
                        s.summary()),
            fmt::format("add the {} the text gives", paramName(param)),
            "the script may carry it elsewhere (a note, a separate step)");
      }
    }
    // Flags.
    if (t.dark.value_or(false) && s.dark && !*s.dark && t.cls == s.cls)
      add(FindingKind::Parameter, false, static_cast<int>(i), j,
          fmt::format("{} {} keeps the plate in the dark but {} ({}) does not", where(t),
                      quote(t.text), scriptWhere(s), s.summary()),
          "add `dark`", "the dark may belong to a neighbouring step of the text");
    if (t.fourPL && s.fourPL && *t.fourPL != *s.fourPL)
      add(FindingKind::Parameter, false, static_cast<int>(i), j,
          fmt::format("{} {} asks for a {} fit but {} fits {}", where(t), quote(t.text),
                      *t.fourPL ? "4-parameter logistic" : "linear", scriptWhere(s),
                      *s.fourPL ? "4pl" : "linear"),
          fmt::format("use `analyze standard_curve {}`", *t.fourPL ? "4pl" : "linear"),
          "the model is read from words, not values");

    // Domain.
    // An incubation in a gassed incubator ("37 C / 5% CO2") is cell
    // culture, which the platform's heater cannot hold: <MANUAL> is right.
    if (s.manual && s.instrumentCapable && !isPersonClass(s.cls) && !s.isNoteLike &&
        t.cls != ActionClass::Note && robotClass(t.cls) && !t.cellCulture) {
      bool explicitRobot = t.domain == Domain::Robot;
      // Words of its own sentence, or a sentence about its liquids or its
      // kind of step, that give work to a person make a <MANUAL> step
      // consistent with the text: no finding.
      if ((explicitRobot || t.domain == Domain::Unstated) && !t.personNearby && !personHint(t, s)) {
        bool layoutLoad = s.cls == ActionClass::Dispense && s.layoutLiquid;
        bool grouped = besideJustifiedManual(static_cast<size_t>(j));
        // Hours of incubation tie up the robot, and labs move them off it
        // (an overnight drying on the bench); a table row restates.
        bool longHold = t.cls == ActionClass::Incubate &&
                        std::any_of(s.values(Param::Time).begin(), s.values(Param::Time).end(),
                                    [](const Value &v) { return v.high >= 4 * 3600; });
        bool certain = t.inProcedure && !t.weak && !t.conditional && !longHold &&
                       !(inTable(i) && restatedInProse(i)) &&
                       (explicitRobot || (!layoutLoad && !grouped));
        // On the robot it may not fit beside the other steps (reservoir
        // positions, tips, waste): the compiler says.
        std::optional<std::string> doesNotFit;
        if (certain && robotTrial_ && !s.bodyLoc.isValid())
          doesNotFit = robotTrial_(s.loc);
        if (doesNotFit)
          certain = false;
        add(FindingKind::Domain, certain, static_cast<int>(i), j,
            fmt::format("{} ({}) is in <MANUAL>, but {}the text {} ({} {})",
                        scriptWhere(s), s.summary(),
                        doesNotFit ? std::string() : platform_.name + " can do it and ",
                        explicitRobot ? "gives it to the robot" : "does not give it to a person",
                        where(t), quote(t.text)),
            "move it to <INSTRUMENT>; <MANUAL> is for what the platform cannot do (cooling, "
            "fluorescence, a missing filter) or what the text gives to a person",
            certain ? (explicitRobot ? "the text names the robot for this step"
                                     : "nothing in the text gives this step to a person")
            : doesNotFit ? "on the robot the script does not compile: " + *doesNotFit
            : layoutLoad ? "loading standards and samples is often done by hand without the "
                           "text saying so"
            : grouped ? "it sits with work that has to be done by hand (the platform cannot "
                        "do it, or the text gives it to a person); an author may keep the "
                        "neighbouring steps with it"
                         : "a mention, a conditional or a step outside the procedure");
      }
    }
    if (!s.manual && t.domain == Domain::Person && robotClass(t.cls))
      add(FindingKind::Domain, false, static_cast<int>(i), j,
          fmt::format("{} ({}) is in <INSTRUMENT>, but the text gives it to a person ({} {})",
                      scriptWhere(s), s.summary(), where(t), quote(t.text)),
          "move it to <MANUAL> if a person does it",
          "the person's words may belong to a neighbouring step of the same sentence");
  }
}

void Aligner::gapFindings() {
  const auto &T = out_.text;
  const auto &S = out_.script;
  for (size_t i = 0; i < T.size(); ++i) {
    if (matchT_[i] >= 0 || orderT_[i] || coveredT_[i])
      continue;
    const Action &t = T[i];
    if (t.cls == ActionClass::Note && t.inProcedure && t.has(Param::Time) &&
        !t.values(Param::Time).front().exact()) {
      // "read within 30 minutes": a limit the operator should be told.
      add(FindingKind::Missing, false, static_cast<int>(i), -1,
          fmt::format("{} {} sets a time limit ({}) that no note of the script repeats",
                      where(t), quote(t.text), valuesText(t.values(Param::Time))),
          "add a `note` with the limit", "a limit for the operator, no step of the robot");
      continue;
    }
    if (t.weak || t.aside || t.cls == ActionClass::Note || !t.inProcedure)
      continue;
    if (!robotClass(t.cls))
      continue;
    bool nearMatch = nextToAlignedStep(t);
    int twin = unpairedTwin(t);
    // A step the text states without a value ("remove the coating
    // solution") is often left to the next step by a script (a `wash`
    // empties the wells first); an analysis needs the standards'
    // concentrations, which a text may not give.
    bool analysis = t.cls == ActionClass::Analyze && (t.fourPL || t.subtractBlank) &&
                    procedure_.concentrations;
    bool valued = t.hasNumeric() || analysis;
    bool tableRow = inTable(i) && restatedInProse(i);
    int explainer = explainedBy(t);
    // "So twenty mikes of everything into columns one to four", a map's
    // legend "Clear plate, 20 ul/well. blk = medium only": a volume with no
    // verb that a paired script step of the same kind has, naming no liquid
    // or the layout's liquids where the step dispenses the layout, is that
    // step told again.
    static const std::set<std::string, std::less<>> generic = {
        "so", "everything", "all", "it", "that", "this", "these", "those", "them", "each",
        "every", "same", "one", "two", "three", "four", "five", "six", "seven", "eight",
        "nine", "ten", "eleven", "twelve",
        // a speaker's fillers ("in one hundred microlitres uh in one hundred
        // microlitres yes")
        "uh", "um", "er", "yes", "yeah", "okay", "ok", "right", "again", "sorry"};
    bool namesNoLiquid = std::all_of(t.words.begin(), t.words.end(),
                                     [](const std::string &w) { return generic.count(w) > 0; });
    bool restatedVolume =
        !t.named && (t.cls == ActionClass::Dispense || t.cls == ActionClass::Aspirate) &&
        t.has(Param::Volume) &&
        std::any_of(S.begin(), S.end(), [&](const Action &s) {
          return matchS_[&s - S.data()] >= 0 && s.cls == t.cls && s.has(Param::Volume) &&
                 std::all_of(t.values(Param::Volume).begin(), t.values(Param::Volume).end(),
                             [&](const Value &v) { return s.values(Param::Volume).front().admits(v.low); }) &&
                 (namesNoLiquid ||
                  (s.liquid == "layout" &&
                   (t.layoutLiquid || liquidSimilarity(t.words, s.words) > 0)));
        });
    // An analysis the language can say: a 4PL, a blank subtracted, or a
    // standard curve by name ("linear std curve"); not "the initial rate
    // from the linear part of the curve".
    std::string lowerText = prose::lowerAscii(t.text);
    auto says = [&](const char *word) { return lowerText.find(word) != std::string::npos; };
    // A fit of a dose response ("IC50 by 4-parameter logistic fit per
    // compound") is no standard curve, whatever its model: the language's
    // curve reads concentrations of unknowns off standards.
    bool doseResponse = says("ic50") || says("ec50") || says("ic90") || says("ec90") ||
                        says("ld50") || says("dose-response") || says("dose response");
    // "Percent inhibition ... relative to the DMSO (0 %) and amodiaquine
    // (100 %) columns after subtraction of the blank": each well against the
    // plate's controls, no concentrations read off standards.
    bool standards = says("standard") || says("std") || says("calibra");
    bool againstControls = !standards && (says("inhibition") || says("% of control") ||
                                          says("percent of control") || says("relative to") ||
                                          says("viability") || says("% activity") ||
                                          says("percent activity") || says("haemolysis") ||
                                          says("hemolysis"));
    bool curve = t.cls == ActionClass::Analyze && !doseResponse && !againstControls &&
                 ((t.fourPL && *t.fourPL) || (t.subtractBlank && *t.subtractBlank) ||
                  (says("curve") && standards));
    // A text tells its one analysis in several sentences, or copies it
    // ("... dilute and repeat"): beside an analysis the script does, it is
    // that one. One the script leaves to a person in a note is not missing.
    int sameAnalysis = -1, analysisNote = -1;
    if (t.cls == ActionClass::Analyze) {
      for (size_t j = 0; j < S.size(); ++j) {
        if (S[j].cls == ActionClass::Analyze && matchS_[j] >= 0) {
          const Action &m = T[static_cast<size_t>(matchS_[j])];
          bool sameKind = !(t.fourPL && m.fourPL && *t.fourPL != *m.fourPL);
          bool copy = !m.copiedFrom.empty() || !t.copiedFrom.empty();
          // A procedure's "k. Fit the standard curve" and its section of
          // calculations ("nmol/min = slope of the standard curve ...")
          // tell one analysis twice.
          auto inAnalysisSection = [&](const Action &a) {
            return a.unit < procedure_.units.size() &&
                   procedure_.units[a.unit].kind == UnitKind::Analysis;
          };
          bool toldInSection = inAnalysisSection(m) != inAnalysisSection(t);
          // A workshop's agenda ("Data analysis: 4-parameter fit, ...") and
          // its handout ("4-parameter logistic fit of the standards") name
          // the same model: one analysis told twice.
          bool sameModel = t.fourPL && m.fourPL && *t.fourPL == *m.fourPL;
          // "the curve and results come from the 4 h read" paired, "4PL fit
          // of the standards" left: the pair names no model, and this one
          // names the script's.
          bool scriptsModel = !m.fourPL && t.fourPL && S[j].fourPL && *t.fourPL == *S[j].fourPL;
          if ((m.unit == t.unit || copy || toldInSection || sameModel || scriptsModel) && sameKind &&
              sameAnalysis < 0)
            sameAnalysis = static_cast<int>(j);
        }
        if (S[j].isNoteLike && analysisNote < 0) {
          std::string note = prose::lowerAscii(S[j].text);
          for (const char *w : {"curve", "fit", "4pl", "4-pl", "logistic", "regression", "analy",
                                "calculat", "interpolat"})
            if (note.find(w) != std::string::npos)
              analysisNote = static_cast<int>(j);
        }
      }
    }
    int restatement = pairedWithRestatement(t);
    int changedLater = restatement < 0 ? followsLaterValues(t) : -1;
    // A speaker corrects a value by saying it again without the verb:
    // "incubate overnight, well, twenty-four hours really": the next clause
    // of the same sentence, of the same kind and paired, gives another value
    // of a parameter this step states.
    bool correctedNext = false;
    if (i + 1 < T.size() && matchT_[i + 1] >= 0) {
      const Action &next = T[i + 1];
      // Of an addition, the same liquid or none named ("fifty, no, seventy
      // microlitres"), not the next liquid of a terse list ("25ul
      // std/sample -> wells; 200ul WR").
      bool sameLiquid = !(t.cls == ActionClass::Dispense || t.cls == ActionClass::Aspirate ||
                          t.cls == ActionClass::Transfer) ||
                        next.words.empty() || liquidSimilarity(t.words, next.words) > 0;
      // A word that takes back what was said: "well ... really", "no
      // sorry", "actually", "I mean"; not a list of steps ("30 s on the
      // shaker, then 10 min ...").
      auto corrects = [](const std::string &text) {
        std::string words = " ";
        for (char c : prose::lowerAscii(text))
          words += std::isalnum(static_cast<unsigned char>(c)) ? c : ' ';
        words += ' ';
        for (const char *marker :
             {" really ", " sorry ", " actually ", " rather ", " i mean ", " correction "})
          if (words.find(marker) != std::string::npos)
            return true;
        return false;
      };
      if (next.unit == t.unit && next.sentence == t.sentence && next.cls == t.cls &&
          !next.named && sameLiquid && (corrects(t.text) || corrects(next.text)))
        for (Param p : {Param::Volume, Param::Time, Param::Temperature, Param::Speed})
          if (t.has(p) && next.has(p) &&
              (t.values(p).front().low != next.values(p).front().low ||
               t.values(p).front().high != next.values(p).front().high))
            correctedNext = true;
    }
    // "Fill the outer wells with 200 µL PBS" left to the person in a
    // <MANUAL> note that says it with the step's value and liquid (wells
    // outside the layout, which no statement can name): the script tells
    // the person, though no statement does it.
    int handNote = -1;
    for (size_t j = 0; j < S.size() && handNote < 0 && t.cls != ActionClass::Analyze; ++j) {
      // A note may tell a whole sentence ("Sera were heat-inactivated for
      // 45 min at 56 °C and diluted 1:10"), paired with one of its clauses.
      // Paired with an echo outside the procedure (a read-back, a
      // summary) it is still free to tell this step.
      bool pairedElsewhere = matchS_[j] >= 0 &&
                             T[static_cast<size_t>(matchS_[j])].sentence != t.sentence &&
                             T[static_cast<size_t>(matchS_[j])].inProcedure;
      if (!S[j].isNoteLike || !S[j].manual || pairedElsewhere || !shareValue(t, S[j]))
        continue;
      // Most of the liquid's words, not one word of another liquid ("lysis
      // buffer" for "reaction buffer").
      std::string note = prose::lowerAscii(S[j].text);
      size_t words = 0, shared = 0;
      for (const std::string &w : t.words)
        if (w.size() >= 3) {
          ++words;
          shared += note.find(w) != std::string::npos;
        }
      // A step that names no liquid ("Bleach it: squirt bleach into the
      // wells, leave it thirty minutes"): three longer words of its
      // paragraph in the note besides the value.
      if (words == 0 && t.unit < procedure_.units.size()) {
        std::string paragraph = prose::lowerAscii(procedure_.units[t.unit].text);
        std::set<std::string> seen;
        for (size_t b = 0; b < paragraph.size();) {
          size_t e = b;
          while (e < paragraph.size() && std::isalpha(static_cast<unsigned char>(paragraph[e])))
            ++e;
          std::string w = paragraph.substr(b, e - b);
          if (w.size() >= 5 && seen.insert(w).second && note.find(w) != std::string::npos)
            ++shared;
          b = e + 1;
        }
        words = shared >= 3 ? shared : 0;
      }
      if (shared > 0 && shared * 2 >= words && words > 0)
        handNote = static_cast<int>(j);
    }
    // "Starve 6 h at 37 °C ... after 5 h of the starve, add the inhibitor
    // ... back in the incubator for the last 1 h": a total the text tells
    // in parts, which the script's paired incubations have.
    bool totalOfParts = false;
    auto exactTime = [](const Action &a) -> std::optional<double> {
      if (a.cls != ActionClass::Incubate || a.values(Param::Time).size() != 1 ||
          !a.values(Param::Time).front().exact())
        return std::nullopt;
      return a.values(Param::Time).front().low;
    };
    if (std::optional<double> time = exactTime(t)) {
      // The parts follow the total, additions between them only (a wash,
      // a shake or a read ends the span the total covers).
      // A part says it is one ("the last 1 h", "the remaining 30 min"):
      // two incubations that add up by chance say nothing of the kind.
      auto saysPart = [&](const Action &a) {
        // The clause and the words just before it ("for the last 1 h.").
        std::string clause = a.text;
        if (a.unit < procedure_.units.size()) {
          const std::string &unit = procedure_.units[a.unit].text;
          if (size_t at = unit.find(a.text); at != std::string::npos)
            clause = unit.substr(at >= 24 ? at - 24 : 0, a.text.size() + std::min<size_t>(at, 24));
        }
        std::string text = " " + prose::lowerAscii(clause) + " ";
        for (char &c : text)
          if (!std::isalnum(static_cast<unsigned char>(c)))
            c = ' ';
        for (const char *w : {" last ", " remaining ", " rest ", " further ", " another ", " more "})
          if (text.find(w) != std::string::npos)
            return true;
        return false;
      };
      double sum = 0;
      unsigned parts = 0;
      bool toldAsPart = false;
      for (size_t k = i + 1; k < T.size() && k <= i + 8 && parts < 3 && !totalOfParts; ++k) {
        const Action &a = T[k];
        // A person's part ("back in the incubator for the last 1 h") is
        // a part when the script does it.
        if (!a.inProcedure || a.weak || (!a.required && matchT_[k] < 0))
          continue;
        std::optional<double> part = exactTime(a);
        if (part && matchT_[k] >= 0 && !orderT_[k]) {
          sum += *part;
          ++parts;
          toldAsPart = toldAsPart || saysPart(a);
          totalOfParts = parts >= 2 && toldAsPart && std::abs(sum - *time) <= 1e-6 * *time;
        } else if (!(a.cls == ActionClass::Dispense || a.cls == ActionClass::Aspirate)) {
          break;
        }
      }
    }
    // A reference ("repeat.") resolved in a text whose numbered steps are
    // out of their order copies a step it may not mean.
    bool guessedCopy = labelsScrambled_ && !t.copiedFrom.empty();
    bool certain = t.required && !t.inexactCopy && !guessedCopy && nearMatch && twin < 0 && valued &&
                   (timeOrdered(t.cls) || curve) && !tableRow && explainer < 0 &&
                   sameAnalysis < 0 && analysisNote < 0 &&
                   (!t.superseded || t.supersededValuesOnly) && !restatedVolume &&
                   restatement < 0 && changedLater < 0 && !correctedNext && handNote < 0 &&
                   !totalOfParts;
    std::string why;
    if (certain)
      why = "a plain step of the procedure with stated values, within the platform's reach";
    else if (t.required && totalOfParts)
      why = "its time is the sum of two or three paired incubations after it, one told as a "
            "part (\"the last 1 h\"): a total the text also tells in parts";
    else if (t.required && restatedVolume)
      why = "a volume without a verb that a paired step of the text already has: that step "
            "told again (a summary, a map's legend)";
    else if (t.required && correctedNext)
      why = "the next clause says this step again with another value and no verb (a "
            "correction: \"overnight, well, twenty-four hours\"), and that clause has its step";
    else if (t.superseded)
      why = "a later amendment of the text (a reply, a deviation, a correction) changes this step";
    else if (t.required && restatement >= 0)
      why = fmt::format("script line {} ({}) does what this step says; the alignment paired it "
                        "with the same step told again ({})",
                        S[static_cast<size_t>(restatement)].loc.line,
                        S[static_cast<size_t>(restatement)].summary(),
                        where(*textPairedWith(static_cast<size_t>(restatement))));
    else if (t.required && changedLater >= 0)
      why = fmt::format("script line {} ({}) has this step with the values that a later passage "
                        "gives it ({}): a change of the step the script follows",
                        S[static_cast<size_t>(changedLater)].loc.line,
                        S[static_cast<size_t>(changedLater)].summary(),
                        where(*textPairedWith(static_cast<size_t>(changedLater))));
    else if (t.required && sameAnalysis >= 0)
      why = fmt::format("script line {} ({}) does the analysis its paragraph describes; this may "
                        "be the same analysis told again",
                        S[static_cast<size_t>(sameAnalysis)].loc.line,
                        S[static_cast<size_t>(sameAnalysis)].summary());
    else if (t.required && handNote >= 0)
      why = fmt::format("script line {} leaves this step to a person in a note with its values",
                        S[static_cast<size_t>(handNote)].loc.line);
    else if (t.required && analysisNote >= 0)
      why = fmt::format("script line {} leaves the analysis to a person in a note",
                        S[static_cast<size_t>(analysisNote)].loc.line);
    else if (t.required && valued && t.cls == ActionClass::Analyze)
      why = "an analysis other than a named standard curve, which the language may not say";
    else if (t.required && valued && tableRow)
      why = "a row of a table that restates a step of the prose, which the script writes once";
    else if (t.required && valued && explainer >= 0)
      why = fmt::format("script line {} ({}) has the same values and may do this step too (one "
                        "statement for several wells or columns the text names apart)",
                        S[static_cast<size_t>(explainer)].loc.line,
                        S[static_cast<size_t>(explainer)].summary());
    else if (t.required && !valued)
      why = t.cls == ActionClass::Analyze
                ? "the text gives no concentrations of the standards, which an analysis needs"
                : "a step without a value, which a script may leave to its neighbour (a wash "
                  "empties the wells first)";
    else if (t.required && twin >= 0)
      why = fmt::format("script line {} ({}) is left unpaired too and may be this step in "
                        "other words",
                        S[static_cast<size_t>(twin)].loc.line, S[static_cast<size_t>(twin)].summary());
    else if (t.required && !nearMatch)
      why = "no step of its paragraph or the paragraphs beside it is in the script: it may be "
            "a description (intended use, kit contents, a summary) rather than a step";
    else if (t.domain == Domain::Person || t.domain == Domain::Both)
      why = "the text gives it to a person, who may do it outside the script";
    else if (!t.platformCan())
      why = "the platform cannot do it as stated";
    else if (t.cellCulture)
      why = "cell culture in a gassed incubator (the sentence names CO2), which the text may do "
            "off the platform";
    else if (t.conditional)
      why = "the text makes it conditional or optional";
    else if (t.ambiguousCopy)
      why = "\"repeat N times\" may mean N or N+1 times in all";
    else
      why = "the step was read from a reference (\"as above\")";
    add(FindingKind::Missing, certain, static_cast<int>(i), -1,
        fmt::format("{} {} ({}){} has no step in the script", where(t), quote(t.text),
                    t.summary(),
                    t.copiedFrom.empty() ? "" : fmt::format(", as {},", t.copiedFrom)),
        "add the step (a repeated step is written out again or with `repeat N { ... }`)", why);
  }
  for (size_t j = 0; j < S.size(); ++j) {
    if (matchS_[j] >= 0 || orderS_[j] || coveredS_[j])
      continue;
    const Action &s = S[j];
    if (s.isNoteLike || isPersonClass(s.cls))
      continue;
    // Certain only for a robot step whose every value the text never states.
    bool numeric = false, stated = false;
    for (size_t p = 0; p < kParamCount; ++p)
      for (const Value &v : s.params[p]) {
        if (v.symbolic == Unit::Ambient || static_cast<Param>(p) == Param::Temperature)
          continue;
        numeric = true;
        stated |= values_.states(static_cast<Param>(p), v) || writesNumberOf(v);
      }
    bool twin = textTwin(s);
    // "measured at 593 nm" on a reader whose nearest filter is 595 nm: the
    // script's 595 nm is the text's value as the platform can read it.
    for (const Value &v : s.values(Param::Wavelength))
      stated |= nearestFilterForStated(v);
    bool certain = !s.manual && numeric && !stated && !twin;
    add(FindingKind::Invented, certain, -1, static_cast<int>(j),
        fmt::format("{} ({}) does not match any step of the text", scriptWhere(s), s.summary()),
        "remove it unless the protocol asks for it",
        certain ? "no sentence of the protocol states any of its values"
        : twin  ? "a step of the text is left unpaired too and may be this one in other words"
                : "the text may describe it in words the reader does not take for a step");
  }
}

bool Aligner::movedOnlyAcrossPreparations(size_t j, int textPlace) const {
  const auto &S = out_.script;
  // The script steps between where the script has step `j` and where the
  // text puts it (after script step `textPlace`), as [from, to).
  size_t from = 0, to = j;
  if (textPlace >= 0) {
    auto place = static_cast<size_t>(textPlace);
    from = j > place ? place + 1 : j + 1;
    to = j > place ? j : place + 1;
  }
  bool crossed = false;
  for (size_t k = from; k < to && k < S.size(); ++k) {
    if (k == j || matchS_[k] < 0 || S[k].isNoteLike)
      continue;
    // Warming the plate ("equilibrate all to RT" before a read) acts on
    // the wells, so it has a place in the time order, unless the text
    // asks for it among the preparations ("let everything, including the
    // coated plate, come to room temperature" under "Reagent preparation").
    bool preparation =
        S[k].cls == ActionClass::Prepare ||
        (S[k].cls == ActionClass::Equilibrate &&
         (!S[k].warmsPlate || !out_.text[static_cast<size_t>(matchS_[k])].inProcedure));
    // Dispensing a liquid before it is made is out of order whatever the
    // text's sections.
    if (!preparation || (!S[j].liquid.empty() && S[k].liquid == S[j].liquid))
      return false;
    crossed = true;
  }
  return crossed;
}

bool Aligner::orderMatters(const Action &t, size_t j) const {
  const auto &S = out_.script;
  if (timeOrdered(t.cls) && timeOrdered(S[j].cls))
    return true;
  if (S[j].cls != ActionClass::Prepare || S[j].liquid.empty())
    return false;
  for (size_t k = 0; k < j; ++k)
    if (S[k].cls != ActionClass::Prepare && robotClass(S[k].cls) && S[k].liquid == S[j].liquid)
      return true;
  return false;
}

bool Aligner::restatedInProse(size_t i) const {
  const auto &T = out_.text;
  for (size_t k = 0; k < T.size(); ++k) {
    if (k == i || inTable(k) || T[k].cls != T[i].cls || T[k].weak)
      continue;
    bool same = true;
    for (size_t p = 0; p < kParamCount && same; ++p) {
      const std::vector<Value> &mine = T[i].params[p];
      if (mine.empty())
        continue;
      const std::vector<Value> &theirs = T[k].params[p];
      same = std::any_of(theirs.begin(), theirs.end(), [&](const Value &v) {
        return std::any_of(mine.begin(), mine.end(),
                           [&](const Value &m) { return v.admits(m.low) || m.admits(v.low); });
      });
    }
    if (same)
      return true;
  }
  return false;
}

bool Aligner::statedInSentence(unsigned sentence, Param param, const Value &v) const {
  for (const Action &t : out_.text)
    if (t.sentence == sentence)
      for (const Value &stated : t.values(param))
        if (stated.admits(v.low))
          return true;
  return false;
}

bool Aligner::bareNumberInUnit(unsigned unit, Param param, const Value &v) const {
  if (unit >= procedure_.units.size())
    return false;
  // The units a number may be in: µL or mL, s or min or h.
  std::vector<double> factors{1};
  if (param == Param::Volume)
    factors.push_back(1000);
  if (param == Param::Time) {
    factors.push_back(60);
    factors.push_back(3600);
  }
  const std::string &text = procedure_.units[unit].text;
  std::vector<prose::Token> tokens = prose::tokenize(text);
  for (size_t k = 0; k < tokens.size(); ++k) {
    // Only a number that reads as no quantity: "30" of "30 min" is a time.
    if (!tokens[k].isNumber() || prose::quantityAt(tokens, k, platform_, text))
      continue;
    for (double factor : factors)
      if (std::abs(tokens[k].number * factor - v.low) < 1e-6)
        return true;
  }
  return false;
}

bool Aligner::inTable(size_t i) const {
  unsigned u = out_.text[i].unit;
  return u < procedure_.units.size() && procedure_.units[u].tableRow;
}

int Aligner::explainedBy(const Action &t) const {
  // Only pipetting that the text splits by wells ("column 1 = blank 200 uL,
  // columns 2-12 = 200 uL dye"): the script step that does it is paired
  // with a text step of the same or the next paragraph. Elsewhere two
  // equal steps (two washes, two incubations) are two steps.
  if (t.cls != ActionClass::Dispense && t.cls != ActionClass::Aspirate)
    return -1;
  const auto &S = out_.script;
  const auto &T = out_.text;
  for (size_t j = 0; j < S.size(); ++j) {
    int paired = matchS_[j];
    if (paired < 0)
      continue;
    unsigned unit = T[static_cast<size_t>(paired)].unit;
    if (unit + 1 < t.unit || t.unit + 1 < unit)
      continue;
    if (doesSameStep(t, S[j]))
      return static_cast<int>(j);
  }
  return -1;
}

bool Aligner::doesSameStep(const Action &t, const Action &s) const {
  Comparison c = compare(t, s);
  return c.fit == ClassFit::Same && c.mismatch == 0 && c.equal > 0 && !liquidsDisagree(t, s);
}

/// Every value `a` states, `b` states too, and `b` states more.
bool saysLessThan(const Action &a, const Action &b) {
  size_t aCount = 0, bCount = 0;
  for (size_t p = 0; p < kParamCount; ++p) {
    aCount += a.params[p].size();
    bCount += b.params[p].size();
    for (const Value &v : a.params[p])
      if (std::none_of(b.params[p].begin(), b.params[p].end(), [&](const Value &w) {
            return std::abs(v.low - w.low) < 1e-9 && std::abs(v.high - w.high) < 1e-9;
          }))
        return false;
  }
  return aCount > 0 && aCount < bCount;
}

bool Aligner::crossesRobotPair(const Action &t, size_t j) const {
  const auto &S = out_.script;
  const auto &T = out_.text;
  size_t i = static_cast<size_t>(&t - T.data());
  for (size_t k = 0; k < S.size(); ++k) {
    int paired = matchS_[k];
    if (paired < 0 || k == j || S[k].isNoteLike || isPersonClass(S[k].cls))
      continue;
    size_t m = static_cast<size_t>(paired);
    // A pair whose text step is out of the text's order ("after step 2
    // shake ...") crosses nothing, and neither does another echo told in
    // the same passage as `j`'s (a flow diagram's box "COAT: 25 ul cAb,
    // 4 °C o/n" pairs the coating and the incubation beside it).
    int echo = matchS_[j];
    if (T[m].orderLoose ||
        (!T[m].required && echo >= 0 && !T[static_cast<size_t>(echo)].required &&
         T[m].unit == T[static_cast<size_t>(echo)].unit))
      continue;
    if ((m < i && k > j) || (m > i && k < j))
      return true;
  }
  return false;
}

/// Whether `later` names a word of `line` beyond the words every step of a
/// kind uses ("extraction" in "extract with 100 uL GuHCl, 1 h at RT" and
/// "ok: extraction 2 h"): words of five letters or more, compared by their
/// first five.
bool sharesSubjectWord(std::string_view line, std::string_view later) {
  static const std::set<std::string, std::less<>> common = {
      "incub", "minut", "hours", "secon", "plate", "wells", "shake", "shaki", "tempe",
      "robot", "after", "befor", "again", "every", "until", "about", "which", "there",
      "their", "these", "those", "first", "third", "final", "steps", "toget", "while",
      "would", "could", "shoul", "still", "withi", "micro", "milli", "volum", "place",
      "leave", "allow", "stand", "cover", "agree", "thank", "colum", "using", "sampl"};
  auto stems = [&](std::string_view text) {
    std::set<std::string> out;
    std::string lower = prose::lowerAscii(text);
    for (size_t b = 0; b < lower.size();) {
      size_t e = b;
      while (e < lower.size() && std::isalpha(static_cast<unsigned char>(lower[e])))
        ++e;
      if (e - b >= 5) {
        std::string stem = lower.substr(b, 5);
        if (!common.count(stem))
          out.insert(stem);
      }
      b = e + 1;
    }
    return out;
  };
  std::set<std::string> a = stems(line), b = stems(later);
  return std::any_of(a.begin(), a.end(), [&](const std::string &w) { return b.count(w) > 0; });
}

const Action *Aligner::textPairedWith(size_t j) const {
  int paired = matchS_[j];
  return paired < 0 ? nullptr : &out_.text[static_cast<size_t>(paired)];
}

int Aligner::followsLaterValues(const Action &t) const {
  const auto &S = out_.script;
  for (size_t j = 0; j < S.size(); ++j) {
    const Action *pairedText = textPairedWith(j);
    if (!pairedText)
      continue;
    const Action &later = *pairedText;
    // A time or a count changed in a reply ("ok: extraction 2 h"), not a
    // numbered step of the procedure ("5. Bench: ... 4 °C overnight") nor
    // a read that a later paragraph tells again otherwise.
    bool changeable = t.cls == ActionClass::Incubate || t.cls == ActionClass::Shake ||
                      t.cls == ActionClass::Wash || t.cls == ActionClass::Mix;
    if (!changeable || later.required || later.cls != t.cls || later.unit <= t.unit ||
        !later.copiedFrom.empty() || !later.label.empty() || !doesSameStep(later, S[j]) ||
        crossesRobotPair(t, j))
      continue;
    // The later passage names what `t`'s line does ("extract with ...
    // GuHCl, 1 h at RT" and "ok: extraction 2 h"): another step of the
    // kind told later is no change of this one.
    if (t.unit >= procedure_.units.size() || !sharesSubjectWord(procedure_.units[t.unit].text, later.text))
      continue;
    for (Param p : {Param::Volume, Param::Time, Param::Temperature, Param::Speed,
                    Param::Wavelength, Param::Cycles})
      if (t.has(p) && later.has(p) &&
          (std::abs(t.values(p).front().low - later.values(p).front().low) > 1e-9 ||
           std::abs(t.values(p).front().high - later.values(p).front().high) > 1e-9))
        return static_cast<int>(j);
  }
  return -1;
}

int Aligner::pairedWithRestatement(const Action &t) const {
  const auto &S = out_.script;
  for (size_t j = 0; j < S.size(); ++j) {
    const Action *pairedText = textPairedWith(j);
    if (!pairedText)
      continue;
    // A required partner is the step itself when `t` says less of it
    // ("WR, shake, 37 deg C, cool, read" beside "incubate at 37 °C for 30
    // minutes" far below it); two steps that say the same, or two in one
    // passage, are two steps.
    const Action &partner = *pairedText;
    bool apart = t.unit + 1 < partner.unit || partner.unit + 1 < t.unit;
    bool vaguer = partner.required && apart && partner.cls == t.cls &&
                  saysLessThan(t, partner);
    if (partner.required && !vaguer)
      continue;
    // Paired with an echo (a summary's row), the script step must sit where
    // `t` would: a step that crosses another pair of steps the robot does
    // is out of order, and that stays certain.
    if (!vaguer && crossesRobotPair(t, j))
      continue;
    if (doesSameStep(t, S[j]))
      return static_cast<int>(j);
  }
  return -1;
}

bool Aligner::tableAndProse(size_t a, size_t b) const {
  return a != b && inTable(a) != inTable(b);
}

bool Aligner::writesNumberOf(const Value &v) const {
  // The number as the script writes it ("50 uL" -> 50), against every
  // number of the text, units or not.
  double n = 0;
  auto [end, error] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), n);
  if (error != std::errc() || end == v.text.data())
    return false;
  return std::any_of(procedure_.numbers.begin(), procedure_.numbers.end(),
                     [&](double t) { return std::abs(t - n) < 1e-9; });
}

bool Aligner::unpairedScript(size_t j) const {
  const Action &s = out_.script[j];
  return matchS_[j] < 0 && !orderS_[j] && !coveredS_[j] && !s.isNoteLike && !isPersonClass(s.cls);
}

int Aligner::unpairedTwin(const Action &t) const {
  for (size_t j = 0; j < out_.script.size(); ++j)
    if (unpairedScript(j) &&
        (classFit(t, out_.script[j]) != ClassFit::None || shareValue(t, out_.script[j])))
      return static_cast<int>(j);
  return -1;
}

bool Aligner::textTwin(const Action &s) const {
  for (size_t i = 0; i < out_.text.size(); ++i) {
    const Action &t = out_.text[i];
    if (matchT_[i] >= 0 || orderT_[i] || coveredT_[i] || !t.inProcedure || t.weak ||
        !robotClass(t.cls))
      continue;
    if (classFit(t, s) != ClassFit::None || shareValue(t, s))
      return true;
  }
  return false;
}

bool Aligner::besideJustifiedManual(size_t j) const {
  const auto &S = out_.script;
  // The run of <MANUAL> steps around `j` (notes and preparations do not
  // break it: they are a person's in any case).
  auto justified = [&](size_t k) {
    const Action &s = S[k];
    if (s.isNoteLike || isPersonClass(s.cls))
      return false;
    if (!s.instrumentCapable || (s.cls == ActionClass::Dispense && s.layoutLiquid))
      return true;
    int i = matchS_[k];
    return i >= 0 && (out_.text[static_cast<size_t>(i)].domain == Domain::Person ||
                      out_.text[static_cast<size_t>(i)].domain == Domain::Both ||
                      out_.text[static_cast<size_t>(i)].personNearby);
  };
  for (size_t k = j; k-- > 0 && S[k].manual;)
    if (justified(k))
      return true;
  for (size_t k = j + 1; k < S.size() && S[k].manual; ++k)
    if (justified(k))
      return true;
  return false;
}

bool Aligner::nextToAlignedStep(const Action &t) const {
  // Units in text order that have actions; the step's own, and the one
  // before and after it.
  const std::vector<TextUnit> &units = procedure_.units;
  auto matched = [&](size_t u) {
    for (unsigned k : units[u].actions)
      if (k < matchT_.size() && matchT_[k] >= 0)
        return true;
    return false;
  };
  if (t.unit >= units.size())
    return false;
  if (matched(t.unit))
    return true;
  // Units whose steps are all mentions ("removed by the robot") say
  // nothing about where the procedure is.
  auto steps = [&](size_t u) {
    return std::any_of(units[u].actions.begin(), units[u].actions.end(),
                       [&](unsigned k) { return out_.text[k].required; });
  };
  for (size_t u = t.unit; u-- > 0;)
    if (steps(u)) {
      if (matched(u))
        return true;
      break;
    }
  for (size_t u = t.unit + 1; u < units.size(); ++u)
    if (steps(u))
      return matched(u);
  return false;
}

Relation Aligner::textRelation(size_t i) const {
  return orderT_[i]                ? Relation::Order
         : coveredT_[i]            ? Relation::Covered
         : out_.text[i].required ? Relation::Missing
                                   : Relation::Unpaired;
}

void Aligner::buildRows() {
  const auto &T = out_.text;
  const auto &S = out_.script;
  size_t i = 0, j = 0;
  while (i < T.size() || j < S.size()) {
    if (i < T.size() && matchT_[i] >= 0 && static_cast<size_t>(matchT_[i]) == j) {
      out_.rows.push_back({static_cast<int>(i), static_cast<int>(j), Relation::Match});
      ++i, ++j;
      continue;
    }
    // Script steps before the next matched pair come first.
    if (j < S.size() && (matchS_[j] < 0)) {
      Relation rel = orderS_[j]     ? Relation::Order
                     : coveredS_[j] ? Relation::Covered
                     : (S[j].isNoteLike || isPersonClass(S[j].cls)) ? Relation::Unpaired
                                                                    : Relation::Invented;
      // Text steps that come before it in the text go first.
      if (i < T.size() && matchT_[i] < 0) {
        out_.rows.push_back({static_cast<int>(i), -1, textRelation(i)});
        ++i;
        continue;
      }
      out_.rows.push_back({-1, static_cast<int>(j), rel});
      ++j;
      continue;
    }
    if (i < T.size() && matchT_[i] < 0) {
      out_.rows.push_back({static_cast<int>(i), -1, textRelation(i)});
      ++i;
      continue;
    }
    // Both sides are at matched steps that are not each other's (cannot
    // happen in a monotone alignment); advance the script.
    if (j < S.size()) {
      ++j;
    } else {
      ++i;
    }
  }
}

StepAlignment Aligner::run() {
  dp();
  crossings();
  coverage();
  splitWashes();
  pairFindings();
  gapFindings();
  buildRows();
  // Certain findings first, each group in text order.
  std::stable_sort(out_.findings.begin(), out_.findings.end(),
                   [](const AlignmentFinding &a, const AlignmentFinding &b) {
                     return a.certain > b.certain;
                   });
  return std::move(out_);
}

} // namespace

std::optional<StepAlignment> alignSteps(const ProcedureText &text, std::vector<Action> script,
                                        const Platform &platform, DiagnosticEngine &diags,
                                        SourceLoc where, const RobotTrialFn &robotTrial) {
  size_t cells = (text.actions.size() + 1) * (script.size() + 1);
  if (cells > kMaxAlignmentCells) {
    diags.report(DiagId::AlignmentTooLarge, where, text.actions.size(), script.size(), cells,
                 kMaxAlignmentCells);
    return std::nullopt;
  }
  Aligner aligner(text, std::move(script), platform, robotTrial);
  return aligner.run();
}

std::optional<StepAlignment> alignProtocol(const SourceManager &textSources, uint32_t textFile,
                                           DiagnosticEngine &textDiags,
                                           const ir::Module &checked,
                                           const SourceManager &scriptSources,
                                           const Platform &platform,
                                           const RobotTrialFn &robotTrial) {
  std::optional<ProcedureText> text = readProcedure(textSources, textFile, textDiags, platform);
  if (!text)
    return std::nullopt;
  // The standards' concentrations may sit in a layout the text draws or
  // describes in a table the reader does not take for values; the script's
  // calibrants carry them then.
  for (const ir::Liquid &liquid : checked.liquids)
    text->concentrations |= liquid.concentration.has_value();
  std::optional<StepAlignment> alignment =
      alignSteps(*text, scriptActions(checked, scriptSources, platform), platform, textDiags,
                 SourceLoc{textFile, 1, 1, 1}, robotTrial);
  if (alignment) {
    alignment->textName = textSources.name(textFile);
    alignment->scriptName = scriptSources.name(checked.fileId);
  }
  return alignment;
}

//===--- Output -----------------------------------------------------------===//

namespace {

std::string pad(std::string s, size_t width) {
  // Count code points, not bytes, so µ and ° keep the columns.
  size_t shown = 0;
  for (unsigned char c : s)
    shown += (c & 0xC0) != 0x80;
  if (shown > width) {
    size_t cut = 0, count = 0;
    while (cut < s.size() && count < width - 1) {
      ++cut;
      while (cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
        ++cut;
      ++count;
    }
    return s.substr(0, cut) + "…";
  }
  return s + std::string(width - shown, ' ');
}

std::string textCell(const Action &t) {
  std::string tag;
  if (t.domain == Domain::Person)
    tag = " [person]";
  else if (t.domain == Domain::Robot)
    tag = " [robot]";
  else if (t.domain == Domain::Both)
    tag = " [person/robot]";
  if (!t.copiedFrom.empty())
    tag += " [" + t.copiedFrom + "]";
  if (!t.required)
    tag += t.weak ? " (mention)" : " (optional)";
  return t.summary() + tag;
}

std::string scriptCell(const Action &s) {
  return s.summary() + (s.manual ? " [MANUAL]" : "");
}

const char *symbol(Relation relation, bool finding) {
  switch (relation) {
  case Relation::Match: return finding ? "≠" : "=";
  case Relation::Missing: return "-";
  case Relation::Invented: return "+";
  case Relation::Order: return "x";
  case Relation::Covered: return "~";
  case Relation::Unpaired: return ".";
  }
  return "?";
}

json actionJson(const Action &a, bool textSide) {
  json params = json::object();
  for (size_t p = 0; p < kParamCount; ++p) {
    if (a.params[p].empty())
      continue;
    json values = json::array();
    for (const Value &v : a.params[p]) {
      json value = {{"text", v.display()}, {"low", v.low}, {"high", v.high}};
      switch (v.kind) {
      case Value::Kind::Exact: value["kind"] = "exact"; break;
      case Value::Kind::Range: value["kind"] = "range"; break;
      case Value::Kind::AtLeast: value["kind"] = "at_least"; break;
      case Value::Kind::AtMost: value["kind"] = "at_most"; break;
      case Value::Kind::About: value["kind"] = "about"; break;
      }
      values.push_back(value);
    }
    params[std::string(paramName(static_cast<Param>(p)))] = values;
  }
  json out = {{"class", actionClassName(a.cls)},
              {"summary", a.summary()},
              {"line", a.loc.line},
              {"column", a.loc.col},
              {"text", a.text},
              {"parameters", params}};
  if (!a.liquid.empty())
    out["liquid"] = a.liquid;
  if (a.dark)
    out["dark"] = *a.dark;
  if (textSide) {
    out["domain"] = domainName(a.domain);
    out["required"] = a.required;
    out["mention"] = a.weak;
    if (!a.copiedFrom.empty())
      out["copied_from"] = a.copiedFrom;
    if (!a.label.empty())
      out["label"] = a.label;
  } else {
    out["section"] = a.manual ? "manual" : "instrument";
    if (!a.step.empty())
      out["step"] = a.step;
    if (!a.platformLimit.empty())
      out["platform_limit"] = a.platformLimit;
  }
  return out;
}

} // namespace

std::string renderAlignment(const StepAlignment &a) {
  std::set<int> withFinding;
  for (const AlignmentFinding &f : a.findings)
    if (f.kind == FindingKind::Parameter || f.kind == FindingKind::Domain)
      withFinding.insert(f.text);
  unsigned required = static_cast<unsigned>(
      std::count_if(a.text.begin(), a.text.end(), [](const Action &t) { return t.required; }));
  std::string out = fmt::format(
      "{} ↔ {}: {} text step(s) ({} required), {} script step(s); {} certain and {} uncertain "
      "finding(s)\n\n",
      a.textName, a.scriptName, a.text.size(), required, a.script.size(), a.certainCount(),
      a.uncertainCount());
  out += fmt::format("{} {} {}   {} {}\n", pad("text", 7), pad("text step", 46), " ", pad("line", 5),
                     "script step");
  for (const AlignmentRow &row : a.rows) {
    std::string left = "", lloc = "";
    if (row.text >= 0) {
      const Action &t = a.text[static_cast<size_t>(row.text)];
      lloc = fmt::format("{}:{}", t.loc.line, t.loc.col);
      left = textCell(t);
    }
    std::string right = "", rloc = "";
    if (row.script >= 0) {
      const Action &s = a.script[static_cast<size_t>(row.script)];
      rloc = fmt::format("{}", s.loc.line);
      right = scriptCell(s);
    }
    out += fmt::format("{} {} {}   {} {}\n", pad(lloc, 7), pad(left, 46),
                       symbol(row.relation, withFinding.count(row.text) > 0), pad(rloc, 5), right);
    // Trailing spaces help nobody.
    while (out.size() >= 2 && out[out.size() - 2] == ' ') {
      out.erase(out.size() - 2, 1);
    }
  }
  out += "\n= same step, ≠ same step with a finding, - missing from the script, + not in the "
         "text, x out of order, ~ restates a neighbour, . nothing expected\n";
  if (a.findings.empty()) {
    out += "\nno findings\n";
    return out;
  }
  out += "\nfindings:\n";
  for (const AlignmentFinding &f : a.findings)
    out += fmt::format("{} {}: {}\n    why {}: {}\n    fix: {}\n", f.certain ? "certain" : "uncertain",
                       findingKindName(f.kind), f.message, f.certain ? "certain" : "uncertain",
                       f.why, f.guidance);
  return out;
}

json alignmentToJson(const StepAlignment &a) {
  json text = json::array(), script = json::array(), rows = json::array(),
       findings = json::array();
  for (const Action &t : a.text)
    text.push_back(actionJson(t, true));
  for (const Action &s : a.script)
    script.push_back(actionJson(s, false));
  for (const AlignmentRow &row : a.rows)
    rows.push_back({{"text", row.text >= 0 ? json(row.text) : json(nullptr)},
                    {"script", row.script >= 0 ? json(row.script) : json(nullptr)},
                    {"relation", relationName(row.relation)}});
  for (const AlignmentFinding &f : a.findings) {
    json item = {{"kind", findingKindName(f.kind)},
                 {"confidence", f.certain ? "certain" : "uncertain"},
                 {"text", f.text >= 0 ? json(f.text) : json(nullptr)},
                 {"script", f.script >= 0 ? json(f.script) : json(nullptr)},
                 {"message", f.message},
                 {"guidance", f.guidance},
                 {"why", f.why}};
    if (f.text >= 0) {
      item["text_line"] = a.text[static_cast<size_t>(f.text)].loc.line;
      item["text_column"] = a.text[static_cast<size_t>(f.text)].loc.col;
    }
    if (f.script >= 0)
      item["script_line"] = a.script[static_cast<size_t>(f.script)].loc.line;
    findings.push_back(std::move(item));
  }
  return {{"protocol", a.textName},
          {"script", a.scriptName},
          {"certain", a.certainCount()},
          {"uncertain", a.uncertainCount()},
          {"text_steps", text},
          {"script_steps", script},
          {"rows", rows},
          {"findings", findings}};
}

std::string alignmentEvidence(const StepAlignment &a) {
  std::string out;
  for (const AlignmentRow &row : a.rows) {
    std::string left = "(none)", right = "(none)";
    if (row.text >= 0) {
      const Action &t = a.text[static_cast<size_t>(row.text)];
      left = fmt::format("text line {}: {}", t.loc.line, textCell(t));
    }
    if (row.script >= 0) {
      const Action &s = a.script[static_cast<size_t>(row.script)];
      right = fmt::format("script line {}: {}", s.loc.line, scriptCell(s));
    }
    out += fmt::format("- [{}] {} <-> {}\n", relationName(row.relation), left, right);
  }
  return out;
}

std::vector<Finding> alignmentFindings(const StepAlignment &a, bool certain) {
  std::vector<Finding> out;
  for (const AlignmentFinding &f : a.findings) {
    if (f.certain != certain)
      continue;
    std::string location =
        f.script >= 0 ? fmt::format("line {}", a.script[static_cast<size_t>(f.script)].loc.line)
                      : fmt::format("text line {}", a.text[static_cast<size_t>(f.text)].loc.line);
    out.push_back({std::string(findingKindName(f.kind)), location, f.message, f.guidance,
                   "alignment", certain ? "certain" : "uncertain"});
  }
  return out;
}

} // namespace plate::agent
