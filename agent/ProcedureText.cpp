//===- ProcedureText.cpp - Units, sentences, clauses, actions, references --===//
//
// The reader is built from what protocols written by people do, and errs
// on the side of fewer required steps: a step it reads wrongly must cost a
// missed catch, never a correct script rejected. Everything it is unsure
// of (a mention without values, a person's step, a conditional, a copy made
// by "as above") still takes part in the alignment, but is not required to
// have a counterpart in the script.
//
//===----------------------------------------------------------------------===//
#include "agent/ProcedureText.h"
#include "agent/MarkupText.h"
#include "agent/ProseScan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>

namespace plate::agent {

using prose::Token;

std::string_view unitKindName(UnitKind kind) {
  switch (kind) {
  case UnitKind::Procedure: return "procedure";
  case UnitKind::Title: return "title";
  case UnitKind::Header: return "header";
  case UnitKind::Layout: return "layout";
  case UnitKind::Materials: return "materials";
  case UnitKind::Preparation: return "preparation";
  case UnitKind::Note: return "note";
  case UnitKind::Summary: return "summary";
  case UnitKind::Analysis: return "analysis";
  }
  return "?";
}

unsigned ProcedureText::requiredCount() const {
  return static_cast<unsigned>(
      std::count_if(actions.begin(), actions.end(), [](const Action &a) { return a.required; }));
}

namespace {

//===--- Lexicon ----------------------------------------------------------===//

struct VerbInfo {
  ActionClass cls;
};

const std::map<std::string, ActionClass, std::less<>> &verbs() {
  static const std::map<std::string, ActionClass, std::less<>> table = [] {
    std::map<std::string, ActionClass, std::less<>> t;
    auto put = [&](ActionClass cls, std::initializer_list<const char *> words) {
      for (const char *w : words)
        t[w] = cls;
    };
    put(ActionClass::Dispense,
        {"add", "adds", "added", "adding", "dispense", "dispenses", "dispensed", "dispensing",
         "pipette", "pipettes", "pipetted", "pipetting", "load", "loads", "loaded", "fill",
         "fills", "filled", "coat", "coats", "coated", "block", "blocks", "blocked", "apply",
         "applies", "applied", "seed", "seeds", "seeded", "overlay", "overlaid", "receive",
         "receives", "received", "stop", "stops", "stopped", "stopping", "put", "plated", "deliver", "delivers", "delivered", "distribute", "distributed"});
    put(ActionClass::Aspirate,
        {"aspirate", "aspirates", "aspirated", "aspirating", "remove", "removes", "removed",
         "removing", "discard", "discards", "discarded", "decant", "decanted", "empty", "emptied",
         "withdraw", "withdrawn", "flick", "flicked", "blot", "blotted"});
    put(ActionClass::Wash, {"wash", "washes", "washed", "washing", "rinse", "rinses", "rinsed",
                            "rinsing"});
    put(ActionClass::Mix, {"mix", "mixes", "mixed", "mixing", "triturate", "triturated"});
    put(ActionClass::Transfer, {"transfer", "transfers", "transferred", "transferring"});
    put(ActionClass::Incubate,
        {"incubate", "incubates", "incubated", "incubating", "leave", "left", "develop",
         "develops", "developed", "developing", "heat", "heats", "heated", "react", "keep",
         "kept", "store", "stored", "hold"});
    // Drying a washed plate at room temperature is a timed stand like any
    // incubation ("air-dry >= 1 h, RT, lid off"). A bare "dry" is not: "tap
    // dry", "dried plates keep", "never let the dye dry".
    put(ActionClass::Incubate, {"air-dry", "air-dried", "air-drying", "airdry"});
    put(ActionClass::Shake, {"shake", "shakes", "shaken", "shaking", "agitate", "agitated"});
    put(ActionClass::Read, {"read", "reads", "measure", "measures", "measured", "measuring",
                            "record", "recorded", "scan", "scanned"});
    put(ActionClass::Analyze,
        {"calculate", "calculated", "fit", "fitted", "evaluate", "evaluated", "interpolate",
         "interpolated", "analyse", "analyze", "analysed", "analyzed", "plot", "subtract",
         "subtracted", "subtracting", "curve", "regression", "logistic", "4-pl", "4pl",
         "4-param", "four-parameter", "4-parameter", "5-pl", "5pl", "quantify", "quantified"});
    put(ActionClass::Wait, {"wait", "waits", "stand", "sit", "settle"});
    put(ActionClass::Magnet, {"magnet", "magnetic"});
    put(ActionClass::Prepare,
        {"prepare", "prepared", "dilute", "diluted", "reconstitute", "reconstituted", "dissolve",
         "dissolved", "premix", "premixed", "make"});
    // Bench work on tubes, never the robot's: its times and speeds are no step.
    // Boiling (a heat-killed control, "serum boiled for five minutes") is
    // beyond the platform's heater.
    put(ActionClass::Prepare, {"centrifuge", "centrifuged", "centrifuges", "centrifuging",
                               "spin", "spins", "spinning", "spun", "vortex", "vortexed",
                               "vortexing", "sonicate", "sonicated", "boil", "boiled", "boiling"});
    // Making samples from cells or tissue ("cells were washed and lysed",
    // "lysates were cleared by centrifugation"): bench work before the plate.
    put(ActionClass::Prepare, {"lyse", "lysed", "lysing", "harvest", "harvested", "harvesting",
                               "homogenise", "homogenised", "homogenize", "homogenized",
                               "centrifugation"});
    put(ActionClass::Equilibrate,
        {"equilibrate", "equilibrated", "bring", "brought", "warm", "cool", "cooled", "reach",
         "thaw", "thawed"});
    return t;
  }();
  return table;
}

bool isAnyVerb(std::string_view lower) { return verbs().count(lower) > 0; }

/// Words that place a step, not name its liquid: wells, rows, columns.
bool isWellWordLike(const std::string &lower) {
  static const std::set<std::string, std::less<>> place = {
      "row", "rows", "column", "columns", "col", "cols", "well", "wells", "plate", "across",
      "down", "left", "right", "half", "top", "bottom"};
  if (place.count(lower))
    return true;
  std::string upper = lower;
  for (char &c : upper)
    if (c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
  return prose::isWellWord(upper);
}

/// A teaching lab's people, named in a class's or a lab's talk more often
/// than handed work ("a rotation student would have copied it", "tell the
/// demonstrator"): they give a clause to a person, never a whole sentence
/// as a hint that work in general is a person's.
const std::set<std::string, std::less<>> kTeachingPeople = {
    "student", "students", "demonstrator", "demonstrators", "teacher", "instructor",
    "pupils", "trainee", "trainees"};
const std::set<std::string, std::less<>> kPersonWords = [] {
  std::set<std::string, std::less<>> words = {
      "manual",   "manually", "operator", "operators",  "user",       "technician",
      "person",   "analyst",  "multichannel", "bench",  "fridge",     "refrigerator",
      "incubator", "tecan",   "offline",  "off-deck",   "yourself",   "hand-coated",
      "hand-pipetted", "scientist", "by-hand"};
  words.insert(kTeachingPeople.begin(), kTeachingPeople.end());
  return words;
}();
const std::set<std::string, std::less<>> kRobotWords = {
    "robot", "robotic", "robots", "instrument", "bioforge", "bf1", "bf-1", "automated",
    "automatically", "deck", "bioforge-1", "machine", "liquid-handler"};
const std::set<std::string, std::less<>> kLayoutWords = {
    "blank",     "blanks",     "standard",   "standards", "std",      "stds",     "sample",
    "samples",   "control",    "controls",   "calibrator", "calibrators", "unknown", "unknowns",
    "duplicate", "duplicates", "triplicate", "triplicates", "quadruplicate", "quadruplicates",
    "replicate", "replicates", "dup",        "nsb",       "sera",     "serum",    "lysate",
    "lysates",   "specimen",   "specimens",  "qc",        "calibrants", "calibrant"};
const std::set<std::string, std::less<>> kLiquidLayoutWords = {
    "blank",      "blanks",      "standard", "standards", "std",     "stds",     "sample",
    "samples",    "control",     "controls", "calibrator", "calibrators", "unknown", "unknowns",
    "sera",       "serum",       "lysate",   "lysates",   "specimen", "specimens", "qc",
    "calibrants", "calibrant",   "dilution", "dilutions",
    // a cell assay's treatments, added per well by the layout
    "vehicle",    "treatment",   "treatments"};
const std::set<std::string, std::less<>> kDeterminers = {
    "the", "a", "an", "each", "this", "that", "average", "blank", "final", "every", "any", "first",
    "second", "its", "their", "our"};
const std::set<std::string, std::less<>> kNounFollowers = {
    "buffer", "buffers", "solution", "solutions", "reagent", "reagents", "step", "steps",
    "bottle", "volume", "cycle", "cycles", "plate", "station", "block", "protocol", "time",
    "times", "program", "head", "manifold", "concentrate", "concentration"};

//===--- Lines and units --------------------------------------------------===//

struct Line {
  uint32_t number = 0;
  std::string_view raw;
  size_t offset = 0; ///< of raw in the buffer
  bool blank = true;
  std::string label;   ///< step label, or empty
  bool bullet = false; ///< -, *, •, ->
  bool table = false;  ///< a pipe-table row (cells joined), or a separator
  bool separator = false;
  bool quoted = false;  ///< an e-mail's quoted line ("> ...", ">> ..."), its marks blanked
  bool columns = false; ///< cells aligned with runs of spaces: a table row
  bool boxed = false;   ///< inside a text box drawn with "+---+" and "|" (its frame blanked)
  size_t content = 0;  ///< byte offset of the content within raw
  std::string text;    ///< the content (cells of a table row joined with ", ")
  /// Text offset -> raw offset (of line `line`, this line when 0), for tables.
  struct Piece {
    size_t text = 0;
    size_t raw = 0;
    uint32_t line = 0;
  };
  std::vector<Piece> pieces;
  /// A table row's cells, continuation lines of the row included.
  struct Cell {
    std::string text;
    std::vector<Piece> pieces; ///< offsets within the cell's text
  };
  std::vector<Cell> cells;
  std::vector<bool> loadColumns; ///< per cell: a column of amounts per run, not per well
  /// per cell: a column of what was recorded ("Actual", "Checked by"), not
  /// of what to do
  std::vector<bool> recordColumns;
  /// per cell: a column of what a step should give ("Expected", "Target"),
  /// which mostly restates the instruction beside it
  std::vector<bool> expectedColumns;
  /// per cell: the unit its column's name gives ("volume_uL", "Time
  /// (min)"), written after a bare number of the cell
  std::vector<std::string> unitColumns;
  /// per cell: a column that names who does the step ("who"), where "me"
  /// is the person writing
  std::vector<bool> whoColumns;
  /// per cell: a column of remarks ("Notes", "Comments"), which may say a
  /// step's values again
  std::vector<bool> remarkColumns;
  std::vector<std::pair<size_t, size_t>> loads; ///< text ranges of those cells
  size_t pipes = 0;     ///< '|' in a table row
  bool marked = false;  ///< between runs of '=', '-' or '*': "*** what's done ***"
  bool merged = false;  ///< a continuation line, read as part of the row above
};

using prose::trimView;

bool isDigitChar(char c) { return c >= '0' && c <= '9'; }

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// A lower-case Roman numeral as a step label: "i" to "xii".
bool romanNumeral(std::string_view s) {
  static const std::set<std::string, std::less<>> numerals = {
      "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"};
  return numerals.count(s) > 0;
}

/// The step label and bullet at the start of a line: "3.", "3)", "(3)",
/// "Step 3:", "5.1", "1 -", "a)", "(iv)", "ii.", "-", "*", "•", "->", "#.".
/// "2/10 Day 0: seed ..." at a line's start: the post's number, the
/// thread's count and where the post's text starts.
struct ThreadPost {
  unsigned first = 0, second = 0;
  size_t content = 0;
};
std::optional<ThreadPost> threadPostNumber(std::string_view raw) {
  size_t k = 0;
  while (k < raw.size() && (raw[k] == ' ' || raw[k] == '\t'))
    ++k;
  auto number = [&](unsigned &out) {
    size_t from = k;
    out = 0;
    while (k < raw.size() && isDigitChar(raw[k]) && k - from < 3)
      out = out * 10 + static_cast<unsigned>(raw[k++] - '0');
    return k > from && !(k < raw.size() && isDigitChar(raw[k]));
  };
  ThreadPost post;
  if (!number(post.first) || k >= raw.size() || raw[k] != '/')
    return std::nullopt;
  ++k;
  // "1/9" alone on its line, the post's text below it, as a thread shows it.
  if (!number(post.second) || (k < raw.size() && raw[k] != ' ') || post.first == 0 ||
      post.first > post.second)
    return std::nullopt;
  while (k < raw.size() && raw[k] == ' ')
    ++k;
  post.content = k;
  return post;
}

/// Whether `line`, which opens with what reads as a section's number
/// ("1.0 absorbance units"), goes on with the sentence that `before` broke
/// off after a word that wants what follows ("to", "of", "=").
bool continuesMidPhrase(const Line &before, const Line &line) {
  static const std::set<std::string, std::less<>> wantsMore = {
      "to", "of", "at", "and", "or", "by", "from", "than", "x", "about", "roughly",
      "approximately", "around", "between", "with", "into", "in", "for", "is", "was",
      "are", "were", "gives", "give", "reads", "reaches", "=", "+", "~"};
  if (before.blank || before.table || before.separator || line.content >= line.raw.size())
    return false;
  char first = line.raw[line.content];
  if (!(first >= 'a' && first <= 'z'))
    return false;
  std::string_view text = trimView(before.text);
  size_t space = text.find_last_of(" \t");
  std::string last = prose::lowerAscii(space == std::string_view::npos ? text : text.substr(space + 1));
  return wantsMore.count(last) > 0;
}

void parseStart(Line &line, bool quantityFirstOk = false) {
  std::string_view s = line.raw;
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
    ++i;
  auto skipSpaces = [&](size_t k) {
    while (k < s.size() && (s[k] == ' ' || s[k] == '\t'))
      ++k;
    return k;
  };
  size_t start = i;
  auto rest = s.substr(i);
  // Bullets; "#." and "#)" are reStructuredText's auto-numbered items.
  for (std::string_view bullet :
       {"->", "→", "=>", "•", "*", "-", "–", "+", ">", "▪", "◦", "●", "#.", "#)"}) {
    // "▪️ shake 30 s": U+FE0F after the bullet draws it as an emoji.
    size_t width = bullet.size();
    if (rest.size() >= width + 3 && rest.substr(width, 3) == "\xEF\xB8\x8F")
      width += 3;
    if (rest.substr(0, bullet.size()) == bullet &&
        (rest.size() == width || rest[width] == ' ' || rest[width] == '\t' ||
         (bullet == "+" && rest.size() > 1 && isDigitChar(rest[1])))) {
      line.bullet = true;
      // "+ 200ul" and "+25ul" are additions: keep the plus in the text.
      line.content = bullet == "+" ? i : skipSpaces(i + width);
      return;
    }
  }
  // ":Agreed, 620.", "::OK with all of that.": a wiki talk page's reply,
  // indented with colons, is a post of its own, never the line above run
  // on.
  if (rest.size() > 1 && rest[0] == ':') {
    size_t colons = 0;
    while (colons < rest.size() && rest[colons] == ':')
      ++colons;
    if (colons < rest.size() &&
        (std::isalpha(static_cast<unsigned char>(rest[colons])) || rest[colons] == '{')) {
      line.bullet = true;
      line.content = i + colons;
      return;
    }
  }
  // A checklist's boxes: "[ ] thaw the samples", "[x] 09:15 ...", "☐ ...".
  for (std::string_view box : {"[ ]", "[x]", "[X]", "[✓]", "[✔]", "☐", "☑", "☒"}) {
    if (rest.substr(0, box.size()) == box && rest.size() > box.size() &&
        (rest[box.size()] == ' ' || rest[box.size()] == '\t')) {
      line.bullet = true;
      line.content = skipSpaces(i + box.size());
      return;
    }
  }
  // "Step 3", "step 3:".
  size_t k = i;
  std::string lower = prose::lowerAscii(rest.substr(0, 5));
  if (lower == "step " || lower == "step\t") {
    k = skipSpaces(i + 5);
  }
  bool paren = false;
  if (k < s.size() && s[k] == '(') {
    paren = true;
    ++k;
  }
  size_t numberStart = k;
  while (k < s.size() && (isDigitChar(s[k]) || (s[k] == '.' && k + 1 < s.size() && isDigitChar(s[k + 1]) && k > numberStart)))
    ++k;
  bool number = k > numberStart;
  // "C.1.2 Assay procedure": a section numbered under a lettered part (a
  // grant's "C. Approach", an appendix's "A.3").
  if (!number && !paren && k + 2 < s.size() && s[k] >= 'A' && s[k] <= 'Z' && s[k + 1] == '.' &&
      isDigitChar(s[k + 2])) {
    size_t end = k + 2;
    while (end < s.size() && (isDigitChar(s[end]) || (s[end] == '.' && end + 1 < s.size() &&
                                                       isDigitChar(s[end + 1]))))
      ++end;
    if (end < s.size() && (s[end] == ' ' || s[end] == '\t' ||
                           (s[end] == '.' && end + 1 < s.size() && s[end + 1] == ' '))) {
      k = end;
      number = true;
    }
  }
  size_t labelEnd = k;
  // "Step 11/14", "Step 3 of 10": an electronic notebook counts the steps;
  // the count is part of the label, not of the step's text.
  if (number && (lower == "step " || lower == "step\t")) {
    size_t of = k;
    if (of + 1 < s.size() && s[of] == '/' && isDigitChar(s[of + 1]))
      of += 1;
    else if (s.substr(of, 4) == " of " && of + 4 < s.size() && isDigitChar(s[of + 4]))
      of += 4;
    if (of != k) {
      while (of < s.size() && isDigitChar(s[of]))
        ++of;
      k = of;
    }
  }
  bool letter = false;
  if (!number && k < s.size() && ((s[k] >= 'a' && s[k] <= 'h') || (s[k] >= 'A' && s[k] <= 'H')) &&
      k + 1 < s.size() && (s[k + 1] == ')' || s[k + 1] == '.') &&
      (k + 2 >= s.size() || s[k + 2] == ' ' || s[k + 2] == '\t')) {
    letter = true;
    ++k;
  }
  // "i.", "ii)", "(iv)": steps numbered in Roman numerals, followed by a
  // space ("i.e." is no label).
  if (!number && !letter) {
    size_t r = k;
    while (r < s.size() && (s[r] == 'i' || s[r] == 'v' || s[r] == 'x'))
      ++r;
    if (r > k && romanNumeral(s.substr(k, r - k)) && r < s.size() &&
        (s[r] == ')' || (s[r] == '.' && !paren)) &&
        (r + 1 >= s.size() || s[r + 1] == ' ' || s[r + 1] == '\t')) {
      letter = true;
      k = r;
    }
  }
  if (!number && !letter)
    return;
  std::string label(s.substr(numberStart, (number ? labelEnd : k) - numberStart));
  size_t after = k;
  if (paren) {
    if (after >= s.size() || s[after] != ')')
      return;
    ++after;
  } else if (after < s.size() && (s[after] == '.' || s[after] == ')' || s[after] == ':')) {
    // "1:2-1:5 in MeOH" at the start of a wrapped line is a ratio.
    if (s[after] == ':' && number && after + 1 < s.size() && isDigitChar(s[after + 1]))
      return;
    ++after;
  } else if (number) {
    // "1 - Add", "5.1 Equilibrate", "  1     Diluted serum" (a table
    // without pipes), "Step 3 Add": a label only when words follow, not a
    // unit ("1.5 h at RT", "10 min RT").
    size_t next = skipSpaces(after);
    if (next == after && lower.rfind("step", 0) != 0)
      return;
    if (next < s.size() && s[next] == '-' && next + 1 < s.size() && s[next + 1] == ' ') {
      after = next + 1;
    } else {
      size_t wordEnd = next;
      while (wordEnd < s.size() && s[wordEnd] != ' ' && s[wordEnd] != '\t' && s[wordEnd] != ',')
        ++wordEnd;
      std::string_view word = s.substr(next, wordEnd - next);
      // "6.2 30 s bei 1000 rpm schütteln": a section-numbered step whose
      // text opens with a quantity (a number and its unit).
      bool quantityFirst = false;
      if (quantityFirstOk && !word.empty() && isDigitChar(word[0]) &&
          label.find('.') != std::string::npos &&
          label[0] != '0' && std::all_of(word.begin(), word.end(), isDigitChar)) {
        size_t unitStart = skipSpaces(wordEnd);
        size_t unitEnd = unitStart;
        while (unitEnd < s.size() && s[unitEnd] != ' ' && s[unitEnd] != '\t' && s[unitEnd] != ',' &&
               s[unitEnd] != '.')
          ++unitEnd;
        quantityFirst = unitEnd > unitStart && proseUnit(s.substr(unitStart, unitEnd - unitStart));
      }
      if (!quantityFirst && (word.empty() || proseUnit(word) || isDigitChar(word[0]) ||
          prose::lowerAscii(word) == "x" || prose::lowerAscii(word) == "times" ||
          prose::lowerAscii(word) == "parts" || prose::lowerAscii(word) == "part"))
        return;
      if (label.find('.') == std::string::npos && next - after < 2 &&
          lower.rfind("step", 0) != 0 && !(word[0] >= 'A' && word[0] <= 'Z'))
        return;
    }
  } else {
    return;
  }
  (void)start;
  line.label = label;
  line.content = skipSpaces(after);
}

/// A table row's text from its cells: cells joined with ", " (so a row
/// reads like a line of bench notes); the first cell, when a number, is the
/// step label.
/// The numbers of cell `c` ("150 µl PBS") all stand in another cell of
/// the row ("wash once with 150 µl PBS"): the cell restates the step.
bool restatesRow(const std::vector<Line::Cell> &cells, size_t c,
                 const std::vector<bool> &recordColumns) {
  auto numbers = [](std::string_view text) {
    std::vector<std::string> out;
    for (size_t i = 0; i < text.size();) {
      if (!isDigitChar(text[i])) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < text.size() && (isDigitChar(text[end]) || text[end] == '.'))
        ++end;
      out.emplace_back(text.substr(i, end - i));
      i = end;
    }
    return out;
  };
  std::vector<std::string> own = numbers(cells[c].text);
  if (own.empty())
    return false;
  std::vector<std::string> others;
  // What was recorded ("Actual: 30 s / 300 rpm") repeats the target by
  // design; only the instruction's own words can restate it.
  for (size_t k = 0; k < cells.size(); ++k)
    if (k != c && !(k < recordColumns.size() && recordColumns[k]))
      for (std::string &n : numbers(cells[k].text))
        others.push_back(std::move(n));
  return std::all_of(own.begin(), own.end(), [&](const std::string &n) {
    return std::find(others.begin(), others.end(), n) != others.end();
  });
}

bool hasAnyWord(std::string_view lowerText, std::initializer_list<std::string_view> words);

/// "25", "0.5", "5-10", "5–10": a cell of numbers alone, whose unit the
/// column's name gives.
bool bareNumbers(std::string_view cell) {
  cell = trimView(cell);
  if (cell.empty() || !isDigitChar(cell[0]))
    return false;
  for (size_t k = 0; k < cell.size(); ++k) {
    char ch = cell[k];
    if (isDigitChar(ch) || ch == '.' || ch == '-' || ch == ' ')
      continue;
    if (cell.substr(k).rfind("–", 0) == 0) { // an en dash
      k += std::string_view("–").size() - 1;
      continue;
    }
    return false;
  }
  return true;
}

/// The unit a column's or a key's name gives its values: "volume_uL",
/// "Volume (µL)", "time_min", "temp_C", "speed_rpm", "wavelength_nm",
/// "Vol [ul]". Empty when it names none. A Celsius "C" only after a name
/// of a temperature.
std::string unitOfName(std::string_view name) {
  std::string lower = prose::lowerAscii(trimView(name));
  std::string base, unit;
  if (size_t open = lower.find_first_of("(["); open != std::string::npos) {
    size_t close = lower.find_first_of(")]", open);
    if (close == std::string::npos)
      return "";
    unit = lower.substr(open + 1, close - open - 1);
    base = lower.substr(0, open);
  } else if (size_t sep = lower.find_last_of("_ "); sep != std::string::npos) {
    unit = lower.substr(sep + 1);
    base = lower.substr(0, sep);
  } else {
    return "";
  }
  while (!unit.empty() && unit.back() == ' ')
    unit.pop_back();
  while (!unit.empty() && unit.front() == ' ')
    unit.erase(0, 1);
  static const std::map<std::string, std::string, std::less<>> units = {
      {"ul", "µL"},   {"µl", "µL"},   {"μl", "µL"},  {"ml", "mL"},  {"nl", "nL"},
      {"min", "min"}, {"mins", "min"}, {"s", "s"},   {"sec", "s"},  {"secs", "s"},
      {"h", "h"},     {"hr", "h"},    {"hrs", "h"},  {"rpm", "rpm"}, {"nm", "nm"},
      {"c", "°C"},    {"°c", "°C"},   {"degc", "°C"}, {"deg c", "°C"}};
  auto it = units.find(unit);
  if (it == units.end())
    return "";
  if (it->second == "°C" && !hasAnyWord(base, {"temp", "temperature", "t"}) &&
      base.find("temp") == std::string::npos)
    return "";
  return it->second;
}

void fillTableRow(Line &line) {
  std::vector<Line::Cell> &cells = line.cells;
  line.text.clear();
  line.pieces.clear();
  line.loads.clear();
  line.label.clear();
  size_t last = cells.size();
  while (last > 0 && cells[last - 1].text.empty())
    --last;
  size_t first = 0;
  if (last > 0 && !cells[0].text.empty() &&
      std::all_of(cells[0].text.begin(), cells[0].text.end(),
                  [](char ch) { return isDigitChar(ch) || ch == '.'; })) {
    line.label = cells[0].text;
    first = 1;
  }
  for (size_t c = first; c < last; ++c) {
    const std::string &cell = cells[c].text;
    if (cell.empty() || cell == "-" || cell == "–" || cell == "—")
      continue;
    if (c < line.recordColumns.size() && line.recordColumns[c])
      continue;
    // "| 1 | equilibrate | 30 min | RT | out of the fridge 30 min before |":
    // a remark that only says the row's numbers again states no more.
    if (c < line.expectedColumns.size() && line.expectedColumns[c] &&
        restatesRow(cells, c, line.recordColumns))
      continue;
    if (c < line.remarkColumns.size() && line.remarkColumns[c]) {
      // Only the row's value columns (those whose names give a unit) count:
      // the step's number and a remark's "10 uL buffer" for other wells do
      // not make it a restatement.
      std::vector<bool> notValues(cells.size(), true);
      for (size_t k = 0; k < cells.size() && k < line.unitColumns.size(); ++k)
        notValues[k] = line.unitColumns[k].empty();
      if (restatesRow(cells, c, notValues))
        continue;
    }
    // "| 4.3 | Mix on shaker. | 30 s at 300 rpm |": a target column gives
    // the values of the instruction beside it, so its cell joins the
    // instruction's last sentence instead of standing as one of its own.
    if (c < line.expectedColumns.size() && line.expectedColumns[c] && !line.text.empty() &&
        line.text.back() == '.')
      line.text.pop_back();
    if (!line.text.empty())
      line.text += ", ";
    for (const Line::Piece &piece : cells[c].pieces)
      line.pieces.push_back({line.text.size() + piece.text, piece.raw, piece.line});
    if (c < line.loadColumns.size() && line.loadColumns[c])
      line.loads.emplace_back(line.text.size(), line.text.size() + cell.size());
    std::string lowerCell = prose::lowerAscii(cell);
    if (c < line.whoColumns.size() && line.whoColumns[c] &&
        (lowerCell == "me" || lowerCell == "i" || lowerCell == "myself" || lowerCell == "self" ||
         lowerCell == "us" || lowerCell == "we")) {
      line.text += "by hand";
      continue;
    }
    line.text += cell;
    if (c < line.unitColumns.size() && !line.unitColumns[c].empty() && bareNumbers(cell))
      line.text += " " + line.unitColumns[c];
  }
  line.content = last > first && !cells[first].pieces.empty() ? cells[first].pieces[0].raw : 0;
}

/// A pipe-table row, "| 1 | Add | 50 µL |" or, in a table drawn without
/// outer pipes, "1 | Add | 50 µL".
void parseTableRow(Line &line, bool outerPipes = true) {
  std::string_view s = trimView(line.raw);
  if (s.empty() || (outerPipes && s[0] != '|') || s.find('|') == std::string_view::npos)
    return;
  line.table = true;
  line.pipes = static_cast<size_t>(std::count(s.begin(), s.end(), '|'));
  size_t base = static_cast<size_t>(s.data() - line.raw.data());
  std::vector<std::pair<size_t, std::string_view>> cells;
  size_t i = outerPipes ? 1 : 0;
  while (i <= s.size()) {
    size_t bar = s.find('|', i);
    if (bar == std::string_view::npos)
      bar = s.size();
    std::string_view cell = s.substr(i, bar - i);
    size_t lead = 0;
    while (lead < cell.size() && (cell[lead] == ' ' || cell[lead] == '\t'))
      ++lead;
    std::string_view trimmed = trimView(cell);
    cells.emplace_back(base + i + lead, trimmed);
    i = bar + 1;
    if (bar == s.size())
      break;
  }
  bool separator = std::all_of(cells.begin(), cells.end(), [](const auto &c) {
    return std::all_of(c.second.begin(), c.second.end(), [](char ch) {
      return ch == '-' || ch == ':' || ch == ' ' || ch == '=' || ch == '+';
    });
  });
  if (separator) {
    line.separator = true;
    return;
  }
  for (const auto &[at, text] : cells)
    line.cells.push_back({std::string(text), {{0, at, 0}}});
  fillTableRow(line);
}

bool endsJoining(std::string_view s);

/// The letters (and hyphens) that open `text`, in lower case.
std::string leadingWord(std::string_view text) {
  std::string word;
  for (char ch : text) {
    if (!std::isalpha(static_cast<unsigned char>(ch)) && ch != '-')
      break;
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return word;
}

/// Whether a wrapped table line opening with `word` starts a sub-step of
/// its own ("pre-incubate 15 min") rather than going on with the cell
/// above it: a verb under a cell that ends its phrase.
bool opensSubStep(std::string word, std::string_view cellAbove) {
  if (word.rfind("pre-", 0) == 0 || word.rfind("re-", 0) == 0)
    word = word.substr(word.find('-') + 1);
  return isAnyVerb(word) && !endsJoining(cellAbove);
}

/// Whether table row `cont`, whose first cell is empty, continues row
/// `head` (a cell wrapped onto the next line) rather than being a row of its
/// own without a label: a sub-step ("pre-incubate 15 min") starts with a
/// verb under a cell that ends its phrase, and a sum ("total | 100 µL")
/// starts with its word.
bool continuesRow(const Line &head, const Line &cont) {
  if (cont.pipes != head.pipes || head.cells.empty() || head.cells[0].text.empty() ||
      cont.cells.empty() || !cont.cells[0].text.empty() || head.merged)
    return false;
  bool any = false;
  for (size_t c = 1; c < cont.cells.size(); ++c) {
    const std::string &text = cont.cells[c].text;
    if (text.empty())
      continue;
    std::string word = leadingWord(text);
    if (!any && (word == "total" || word == "sum" || word == "final"))
      return false;
    any = true;
    std::string_view above = c < head.cells.size() ? std::string_view(head.cells[c].text) : "";
    if (opensSubStep(word, above))
      return false;
  }
  return any;
}

/// Whether `line` holds only the wrapped end of a cell of `row`, a table
/// whose columns are aligned with runs of spaces: it starts deep in the
/// line, where one of the row's later cells starts.
bool wrapsColumnCell(std::string_view row, std::string_view line) {
  size_t indent = line.find_first_not_of(' ');
  if (indent == std::string_view::npos || indent < 8 || line.substr(0, indent).find('\t') != std::string_view::npos ||
      row.find('\t') != std::string_view::npos)
    return false;
  size_t first = row.find_first_not_of(' ');
  for (size_t k = first; k + 3 < row.size(); ++k) {
    if (row[k] != ' ' || row[k - 1] == ' ' || row[k + 1] != ' ' || row[k + 2] != ' ')
      continue;
    size_t cell = row.find_first_not_of(' ', k);
    if (cell == std::string_view::npos)
      break;
    if (cell + 1 >= indent && cell <= indent + 1) {
      size_t cellEnd = std::min(row.find("   ", cell), row.size());
      return !opensSubStep(leadingWord(line.substr(indent)), row.substr(cell, cellEnd - cell));
    }
    k = cell;
  }
  return false;
}

/// A spreadsheet saved as CSV ("step,who,action,reagent,volume_uL,..."
/// over rows "5,me,pipette,standards,25,,,,\"A1:H3, I1:I3\",..."): a run of
/// three lines or more with the same number of commas outside quotes, three
/// or more, is one. Rows with two cells or more become a table drawn
/// without outer pipes (each comma a pipe, each quote that delimits a cell
/// a blank); a line with one cell is prose (its commas and quotes blanks).
/// Offsets are kept, so locations hold. `rows` marks the table's rows and
/// `headers` each table's first row when it names its columns.
std::string withCsvAsTable(std::string_view text, std::vector<bool> &rows,
                           std::vector<bool> &headers) {
  std::string out(text);
  std::vector<std::pair<size_t, size_t>> lines; // [begin, end) in out
  for (size_t at = 0; at <= out.size();) {
    size_t end = std::min(out.find('\n', at), out.size());
    size_t stop = end > at && out[end - 1] == '\r' ? end - 1 : end;
    lines.emplace_back(at, stop);
    at = end + 1;
  }
  rows.assign(lines.size(), false);
  headers.assign(lines.size(), false);
  // Per line: the offsets of commas outside quotes and of delimiting quotes.
  std::vector<std::vector<size_t>> commas(lines.size()), quotes(lines.size());
  for (size_t n = 0; n < lines.size(); ++n) {
    bool quoted = false;
    for (size_t k = lines[n].first; k < lines[n].second; ++k) {
      char ch = out[k];
      if (ch == '"') {
        if (quoted && k + 1 < lines[n].second && out[k + 1] == '"') {
          ++k; // "" inside a quoted cell
          continue;
        }
        bool opens = !quoted && (k == lines[n].first || out[k - 1] == ',');
        bool closes = quoted && (k + 1 == lines[n].second || out[k + 1] == ',');
        if (opens || closes) {
          quoted = !quoted;
          quotes[n].push_back(k);
        }
      } else if (ch == ',' && !quoted) {
        commas[n].push_back(k);
      }
    }
  }
  size_t n = 0;
  while (n < lines.size()) {
    size_t width = commas[n].size();
    size_t end = n;
    while (end < lines.size() && commas[end].size() == width)
      ++end;
    // Prose wrapped into lines of as many commas writes ", " between its
    // words; a spreadsheet leaves cells empty (",,") or writes no space.
    size_t spaced = 0, total = 0;
    bool emptyCell = false;
    for (size_t k = n; k < end; ++k)
      for (size_t comma : commas[k]) {
        ++total;
        spaced += comma + 1 < out.size() && out[comma + 1] == ' ';
        emptyCell |= comma + 1 < out.size() && out[comma + 1] == ',';
      }
    if (width < 3 || end - n < 3 || (!emptyCell && 2 * spaced >= total)) {
      n = std::max(end, n + 1);
      continue;
    }
    bool headerSeen = false;
    for (size_t k = n; k < end; ++k) {
      // The cells' texts, to count the filled ones.
      std::vector<std::string_view> cells;
      size_t from = lines[k].first;
      for (size_t comma : commas[k]) {
        cells.push_back(trimView(std::string_view(out).substr(from, comma - from)));
        from = comma + 1;
      }
      cells.push_back(trimView(std::string_view(out).substr(from, lines[k].second - from)));
      size_t filled = 0;
      bool numbers = false;
      for (std::string_view cell : cells) {
        std::string_view bare = cell;
        if (bare.size() >= 2 && bare.front() == '"' && bare.back() == '"')
          bare = bare.substr(1, bare.size() - 2);
        if (!trimView(bare).empty())
          ++filled;
        numbers |= !bare.empty() && bareNumbers(bare);
      }
      bool row = filled >= 2;
      for (size_t comma : commas[k])
        out[comma] = row ? '|' : ' ';
      for (size_t quote : quotes[k])
        out[quote] = ' ';
      rows[k] = row;
      if (row && !headerSeen) {
        headerSeen = true;
        headers[k] = !numbers && filled >= 3;
      }
      if (!row)
        headerSeen = false;
    }
    n = end;
  }
  return out;
}

/// A table drawn without outer pipes ("Step | Action | Volume" over
/// "-----+--------+-------"): a block of lines with a rule of dashes and
/// '+' or '|' among rows of at least two cells. Pipes in prose ("blank A1 |
/// standards B1-H2") draw no rule.
std::vector<bool> innerPipeTables(const std::vector<std::string_view> &raws) {
  std::vector<bool> table(raws.size(), false);
  size_t i = 0;
  while (i < raws.size()) {
    size_t end = i;
    while (end < raws.size() && !trimView(raws[end]).empty())
      ++end;
    bool rule = false;
    for (size_t k = i; k < end; ++k) {
      std::string_view t = trimView(raws[k]);
      rule = rule || (t.size() >= 3 && t[0] != '|' && t[0] != '+' &&
                      t.find_first_of("+|") != std::string_view::npos &&
                      t.find_first_not_of("-+|=: ") == std::string_view::npos);
    }
    for (size_t k = i; rule && k < end; ++k) {
      std::string_view t = trimView(raws[k]);
      table[k] = std::count(t.begin(), t.end(), '|') >= 2;
    }
    i = end + 1;
  }
  return table;
}

/// The top or bottom of a text box: "+-----+".
bool boxBorder(std::string_view t) {
  return t.size() >= 4 && t.front() == '+' && t.back() == '+' &&
         t.find_first_not_of("+-=") == std::string_view::npos;
}

/// "+ ~~50~~ 100 µl", "~~72 h~~ 48 h": struck-out text (Markdown's
/// strikethrough) is what the author took back; it reads as blanks, so the
/// columns of what stays are kept.
std::string withoutStruckText(std::string_view text) {
  std::string out(text);
  for (size_t open = out.find("~~"); open != std::string::npos; open = out.find("~~", open)) {
    size_t close = out.find("~~", open + 2);
    if (close == std::string::npos)
      break;
    std::fill(out.begin() + static_cast<long>(open), out.begin() + static_cast<long>(close + 2), ' ');
    open = close + 2;
  }
  return out;
}

/// Full-width forms of East Asian typesetting ("１００μＬ", "３７℃",
/// "（ｍｉｎ）", the ideographic space, comma and full stop "、" "。") read
/// as their ASCII letters, digits and signs; a full-width tilde or wave
/// dash after a digit is a range ("１～２ｍｉｎ"), and 【】 are a heading's
/// brackets (blanks). Each such
/// character is three bytes: a run of them becomes its ASCII characters
/// followed by blanks for the bytes it freed, no-break spaces inside a line
/// (so no run of spaces makes a column of a table), spaces at its end; a
/// number stays one word, offsets and line breaks are kept, and locations
/// hold (within a run, to its start).
std::string withAsciiForFullWidth(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t freed = 0;
  auto fullWidthAt = [&](size_t i) -> std::optional<char> {
    if (i + 3 > text.size())
      return std::nullopt;
    auto b0 = static_cast<unsigned char>(text[i]), b1 = static_cast<unsigned char>(text[i + 1]),
         b2 = static_cast<unsigned char>(text[i + 2]);
    if (b0 == 0xE3 && b1 == 0x80 && b2 == 0x80)
      return ' '; // ideographic space
    if (b0 == 0xE3 && b1 == 0x80 && b2 == 0x9C)
      return '~'; // wave dash
    if (b0 == 0xE3 && b1 == 0x80 && b2 == 0x81)
      return ','; // ideographic comma
    if (b0 == 0xE3 && b1 == 0x80 && b2 == 0x82)
      return '.'; // ideographic full stop
    if (b0 == 0xE3 && b1 == 0x80 && (b2 == 0x90 || b2 == 0x91 || b2 == 0x96 || b2 == 0x97))
      return ' '; // 【Assay Procedure】, 〖...〗: a heading's brackets
    if (b0 != 0xEF || (b1 != 0xBC && b1 != 0xBD))
      return std::nullopt;
    unsigned code = 0xFF00u + ((b1 - 0xBCu) << 6) + (b2 - 0x80u);
    if (b2 < 0x80 || b2 > 0xBF || code < 0xFF01 || code > 0xFF5E)
      return std::nullopt;
    return static_cast<char>(code - 0xFEE0u);
  };
  // Blanks for the freed bytes: spaces at a line's end or beside a space
  // (a heading's brackets, an ideographic space), else no-break spaces.
  auto pad = [&](size_t next) {
    // A blank (a heading's bracket, an ideographic space) pads with blanks.
    bool plain = next >= text.size() || text[next] == '\n' || text[next] == '\r' ||
                 (!out.empty() && out.back() == ' ');
    // After a full stop or a comma ("aspirate．Repeat"), two spaces end
    // the sentence or the clause; the rest stay no-break.
    bool punct = !out.empty() && std::ispunct(static_cast<unsigned char>(out.back())) &&
                 !(next < text.size() && text[next] == ' ');
    for (bool first = true; freed >= 2; freed -= 2, first = false)
      out += plain || (punct && first) ? "  " : "\xC2\xA0";
    freed = 0;
  };
  for (size_t i = 0; i < text.size();) {
    if (std::optional<char> ascii = fullWidthAt(i)) {
      char c = *ascii;
      if (c == '~' && !out.empty() && std::isdigit(static_cast<unsigned char>(out.back())))
        c = '-';
      out += c;
      freed += 2;
      i += 3;
      continue;
    }
    pad(i);
    out += text[i++];
  }
  pad(text.size());
  return out;
}

/// A typewriter's correction: the typist struck the wrong characters out
/// with x's and typed on ("20 min.xxxxxxx 30 min.", "Add 2xxx 200 λ").
/// A run of three or more x's glued to the text before it, and then a
/// space, strikes out the words before it that its length covers (at
/// least the word it is glued to, never past the line's start); the run
/// and the struck words become blanks.
std::string withoutTypedOverText(std::string_view text) {
  std::string out(text);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] != 'x' && out[i] != 'X')
      continue;
    size_t end = i;
    while (end < out.size() && (out[end] == 'x' || out[end] == 'X'))
      ++end;
    size_t run = end - i;
    bool glued = i > 0 && out[i - 1] != ' ' && out[i - 1] != '\t' && out[i - 1] != '\n' &&
                 out[i - 1] != '\r' && !std::isalpha(static_cast<unsigned char>(out[i - 1]));
    bool closed = end == out.size() || out[end] == ' ' || out[end] == '\n' || out[end] == '\r';
    if (run < 3 || !glued || !closed) {
      i = end;
      continue;
    }
    // The struck words: back from the run, whole words while they fit.
    size_t from = i;
    size_t word = i;
    while (word > 0 && out[word - 1] != ' ' && out[word - 1] != '\n' && out[word - 1] != '\r')
      --word;
    from = word;
    while (from > 0 && out[from - 1] == ' ') {
      size_t prev = from - 1;
      while (prev > 0 && out[prev - 1] == ' ')
        --prev;
      size_t start = prev;
      while (start > 0 && out[start - 1] != ' ' && out[start - 1] != '\n' && out[start - 1] != '\r')
        --start;
      if (start == prev || i - start > run)
        break;
      from = start;
    }
    for (size_t k = from; k < end; ++k)
      out[k] = ' ';
    i = end;
  }
  return out;
}

namespace {

/// "SUB_VOL", "T_SUB", "RUN_ID": a template parameter's name, in capitals.
bool parameterName(std::string_view word) {
  if (word.size() < 2 || !std::isupper(static_cast<unsigned char>(word[0])))
    return false;
  return std::all_of(word.begin(), word.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || isDigitChar(c) || c == '_';
  });
}

struct Placeholder {
  size_t begin, end; ///< the whole of "${NAME}"
  std::string name;
};

/// `{{NAME}}`, `${NAME}` and `<<NAME>>`, the placeholders of the common
/// template engines, with the name in any case.
std::vector<Placeholder> placeholders(std::string_view text) {
  static const std::pair<std::string_view, std::string_view> forms[] = {
      {"{{", "}}"}, {"${", "}"}, {"<<", ">>"}};
  std::vector<Placeholder> found;
  for (size_t i = 0; i < text.size(); ++i)
    for (const auto &[open, close] : forms) {
      if (text.compare(i, open.size(), open) != 0)
        continue;
      size_t from = i + open.size();
      size_t to = text.find(close, from);
      if (to == std::string_view::npos || to - from > 40)
        continue;
      std::string_view name = trimView(text.substr(from, to - from));
      if (name.empty() || isDigitChar(name[0]) ||
          !std::all_of(name.begin(), name.end(), identifierChar))
        continue;
      found.push_back({i, to + close.size(), std::string(name)});
      i = to + close.size() - 1;
      break;
    }
  return found;
}

} // namespace

namespace {

/// The columns of a side-by-side comparison of alternatives, "Condition A
/// Condition B Condition C" over rows of values: where each column starts
/// in its line, and its label.
struct AlternativeColumns {
  std::string word;                ///< "condition"
  std::vector<std::string> labels; ///< "A", "B", "C"
  std::vector<size_t> starts;      ///< byte offsets in the header line
};

/// The cells of a line laid out in columns: runs of text separated by two
/// or more blanks or a tab, as [begin, end) byte offsets.
std::vector<std::pair<size_t, size_t>> spacedCells(std::string_view line) {
  std::vector<std::pair<size_t, size_t>> cells;
  for (size_t k = 0; k < line.size();) {
    while (k < line.size() && (line[k] == ' ' || line[k] == '\t'))
      ++k;
    size_t begin = k;
    while (k < line.size() && line[k] != '\t' &&
           !(line[k] == ' ' && k + 1 < line.size() && (line[k + 1] == ' ' || line[k + 1] == '\t')))
      ++k;
    if (k > begin)
      cells.emplace_back(begin, k);
  }
  return cells;
}

std::optional<AlternativeColumns> alternativeHeader(std::string_view line) {
  AlternativeColumns columns;
  for (auto [at, end] : spacedCells(line)) {
    std::string_view cell = trimView(line.substr(at, end - at));
    size_t space = cell.find(' ');
    if (space == std::string_view::npos || cell.find(' ', space + 1) != std::string_view::npos)
      continue;
    std::string word = prose::lowerAscii(cell.substr(0, space));
    std::string_view label = cell.substr(space + 1);
    bool shortLabel = !label.empty() && label.size() <= 3 &&
                      std::all_of(label.begin(), label.end(), [](char c) {
                        return std::isupper(static_cast<unsigned char>(c)) || isDigitChar(c);
                      });
    if (!shortLabel || !std::isalpha(static_cast<unsigned char>(word[0])))
      continue;
    if (!columns.word.empty() && word != columns.word)
      return std::nullopt;
    // Words that name alternatives; "Plate 1  Plate 2  Plate 3" or "Day 1
    // Day 2" are parts of one run, every column of which is done.
    static const std::set<std::string, std::less<>> alternatives = {
        "condition", "conditions", "option", "options", "variant", "variants", "version",
        "protocol", "method", "setting", "settings", "trial", "arm", "setup", "set-up",
        "scheme", "approach", "candidate", "cond", "opt"};
    if (!alternatives.count(word))
      return std::nullopt;
    columns.word = word;
    columns.labels.emplace_back(label);
    columns.starts.push_back(at);
  }
  std::set<std::string> distinct(columns.labels.begin(), columns.labels.end());
  if (columns.labels.size() < 3 || distinct.size() != columns.labels.size())
    return std::nullopt;
  return columns;
}

/// What a text adopts among the labels: "we go with C", "condition C was
/// chosen", "adopted: C"; and what it takes from another column ("except
/// the substrate (TMB) time of B"): the row's words, the kind of value and
/// that column's label.
struct Adoption {
  std::string label;
  std::vector<std::string> rowWords;
  std::optional<Dimension> kind;
  std::string otherLabel;
};

std::optional<Adoption> adoptionIn(std::string_view text, const AlternativeColumns &columns) {
  std::vector<Token> toks = prose::tokenize(text);
  auto isLabel = [&](const Token &t) {
    return std::find(columns.labels.begin(), columns.labels.end(), t.text) != columns.labels.end();
  };
  static const std::set<std::string, std::less<>> verbs = {
      "adopt", "adopted", "choose", "chose", "chosen", "select", "selected", "pick",
      "picked", "prefer", "preferred", "recommend", "recommended", "winner", "adopting",
      "choosing", "selecting", "decision"};
  std::optional<Adoption> adoption;
  for (size_t k = 0; k < toks.size() && !adoption; ++k) {
    // The verb, then at most the column word and "with"/"on"/"for"/":".
    bool cue = verbs.count(toks[k].lower) > 0 ||
               ((toks[k].is("go") || toks[k].is("going") || toks[k].is("went") ||
                 toks[k].is("settled") || toks[k].is("settle") || toks[k].is("decided")) &&
                k + 1 < toks.size() &&
                (toks[k + 1].is("with") || toks[k + 1].is("on") || toks[k + 1].is("for")));
    if (!cue)
      continue;
    size_t j = k + 1;
    while (j < toks.size() && j <= k + 3 &&
           (toks[j].is("with") || toks[j].is("on") || toks[j].is("for") || toks[j].isPunct(":") ||
            toks[j].is(columns.word) || toks[j].is("is") || toks[j].is("was")))
      ++j;
    if (j < toks.size() && isLabel(toks[j]))
      adoption = Adoption{toks[j].text, {}, std::nullopt, {}};
    // "Condition C was adopted": the label before the verb.
    else if (k >= 2 && (toks[k - 1].is("was") || toks[k - 1].is("is")) && isLabel(toks[k - 2]) &&
             verbs.count(toks[k].lower))
      adoption = Adoption{toks[k - 2].text, {}, std::nullopt, {}};
    if (!adoption)
      continue;
    // "..., except the substrate (TMB) time of B".
    for (size_t e = j + 1; e < toks.size() && e < j + 8; ++e) {
      if (!toks[e].is("except") && !toks[e].is("but"))
        continue;
      std::vector<std::string> words;
      for (size_t w = e + 1; w < toks.size() && w < e + 10; ++w) {
        static const std::map<std::string, Dimension, std::less<>> kinds = {
            {"time", Dimension::Time},          {"duration", Dimension::Time},
            {"volume", Dimension::Volume},      {"temperature", Dimension::Temperature},
            {"temp", Dimension::Temperature},   {"speed", Dimension::Speed},
            {"wavelength", Dimension::Wavelength}};
        auto kind = kinds.find(toks[w].lower);
        if (kind != kinds.end()) {
          size_t o = w + 1;
          while (o < toks.size() && o <= w + 3 &&
                 (toks[o].is("of") || toks[o].is("from") || toks[o].is(columns.word)))
            ++o;
          if (o < toks.size() && isLabel(toks[o]) && toks[o].text != adoption->label) {
            adoption->rowWords = words;
            adoption->kind = kind->second;
            adoption->otherLabel = toks[o].text;
          }
          break;
        }
        if (toks[w].isWord() && !toks[w].is("the") && !toks[w].is("for") && !toks[w].is("with") &&
            !toks[w].is("a") && !toks[w].is("an") && !toks[w].is("of"))
          words.push_back(toks[w].lower);
      }
      break;
    }
  }
  return adoption;
}

/// The quantities of one dimension in a cell: where each is and its text.
std::vector<std::pair<size_t, size_t>> quantitiesOf(std::string_view cell, Dimension kind) {
  std::vector<std::pair<size_t, size_t>> found;
  for (size_t k = 0; k < cell.size();) {
    if (!isDigitChar(cell[k]) || (k > 0 && (std::isalnum(static_cast<unsigned char>(cell[k - 1])) ||
                                            cell[k - 1] == '.'))) {
      ++k;
      continue;
    }
    size_t begin = k;
    while (k < cell.size() && (isDigitChar(cell[k]) || cell[k] == '.' || cell[k] == ','))
      ++k;
    size_t unitBegin = k;
    while (unitBegin < cell.size() && cell[unitBegin] == ' ')
      ++unitBegin;
    size_t unitEnd = unitBegin;
    while (unitEnd < cell.size() && cell[unitEnd] != ' ' && cell[unitEnd] != ',' &&
           cell[unitEnd] != ';' && cell[unitEnd] != ')')
      ++unitEnd;
    std::optional<Unit> unit = proseUnit(cell.substr(unitBegin, unitEnd - unitBegin));
    if (unit && unitInfo(*unit).dimension == kind) {
      found.emplace_back(begin, unitEnd);
      k = unitEnd;
    }
  }
  return found;
}

} // namespace

/// An optimisation's write-up: a table of the alternatives tried
/// ("Condition A  Condition B  Condition C" over rows of volumes, times and
/// temperatures per step) and a decision ("we go with C"). The columns of
/// the alternatives not adopted read as blanks, so the table reads as the
/// adopted procedure, row by row; what the decision takes from another
/// column ("except the substrate (TMB) time of B") replaces the value of
/// that kind in the adopted cell of the rows it names. Without a decision
/// no column is a procedure to run, and all of them read as blanks. The
/// table ends at a blank line; lines are kept, so locations hold to the
/// line.
std::string withAdoptedAlternative(std::string_view text) {
  std::vector<std::string_view> lines = prose::textLines(text);
  std::string out(text);
  for (size_t h = 0; h < lines.size(); ++h) {
    std::optional<AlternativeColumns> columns = alternativeHeader(lines[h]);
    if (!columns)
      continue;
    std::optional<Adoption> adoption = adoptionIn(text, *columns);
    size_t adopted = columns->labels.size();
    if (adoption)
      adopted = static_cast<size_t>(
          std::find(columns->labels.begin(), columns->labels.end(), adoption->label) -
          columns->labels.begin());
    auto lineOffset = [&](size_t i) { return static_cast<size_t>(lines[i].data() - text.data()); };
    auto columnOf = [&](size_t at) {
      size_t c = columns->starts.size();
      for (size_t k = 0; k < columns->starts.size(); ++k)
        if (at + 2 >= columns->starts[k])
          c = k;
      return c;
    };
    // The header keeps only the adopted label's cell.
    std::string rowLabel;
    // (offset, length, text): applied last, from the end, as they may
    // change a line's length.
    std::vector<std::tuple<size_t, size_t, std::string>> edits;
    for (size_t i = h; i < lines.size() && !trimView(lines[i]).empty(); ++i) {
      std::string_view line = lines[i];
      if (i > h && !line.empty() && line[0] != ' ' && line[0] != '\t') {
        size_t end = 0;
        while (end < line.size() && !(line[end] == ' ' && end + 1 < line.size() && line[end + 1] == ' '))
          ++end;
        rowLabel = prose::lowerAscii(line.substr(0, end));
      }
      bool exceptionRow =
          adoption && adoption->kind && i > h &&
          std::any_of(adoption->rowWords.begin(), adoption->rowWords.end(),
                      [&](const std::string &w) { return hasAnyWord(rowLabel, {w}); });
      // Cells of this line, by column.
      std::vector<std::pair<size_t, size_t>> cells(columns->starts.size(), {0, 0});
      for (auto [begin, end] : spacedCells(line)) {
        size_t c = columnOf(begin);
        if (c < cells.size())
          cells[c] = {begin, end};
      }
      std::string replacement;
      if (exceptionRow && adopted < cells.size()) {
        size_t other = static_cast<size_t>(
            std::find(columns->labels.begin(), columns->labels.end(), adoption->otherLabel) -
            columns->labels.begin());
        if (other < cells.size()) {
          std::string_view from = line.substr(cells[other].first, cells[other].second - cells[other].first);
          auto q = quantitiesOf(from, *adoption->kind);
          if (!q.empty())
            replacement = std::string(from.substr(q[0].first, q[0].second - q[0].first));
        }
      }
      for (size_t c = 0; c < cells.size(); ++c) {
        auto [begin, end] = cells[c];
        if (end == begin)
          continue;
        if (c != adopted) {
          for (size_t k = begin; k < end; ++k)
            out[lineOffset(i) + k] = ' ';
          continue;
        }
        if (replacement.empty())
          continue;
        std::string_view cell = line.substr(begin, end - begin);
        auto q = quantitiesOf(cell, *adoption->kind);
        if (!q.empty())
          edits.emplace_back(lineOffset(i) + begin + q[0].first, q[0].second - q[0].first,
                             replacement);
      }
    }
    for (auto edit = edits.rbegin(); edit != edits.rend(); ++edit)
      out.replace(std::get<0>(*edit), std::get<1>(*edit), std::get<2>(*edit));
    break;
  }
  return out;
}

/// A form's field whose options are tick boxes or radio buttons, the chosen
/// ones ticked ("Incubation:  [ ] 1 h   [x] 2 h   [ ] 3 h", "(•) 450 nm
/// ( ) 405 nm", "☑ shake 300 rpm ☐ no shaking"): on a line with two or
/// more boxes of which one or more is ticked, an unticked box and its
/// option (up to the next box or a gap of two blanks) read as blanks, and
/// a ticked box as blanks before its option. A checklist's box at the start
/// of a step ("[ ] Add 100 µL TMB") is alone on its line and is left as it
/// is: unticked there means not yet done, not not chosen. Offsets are kept.
std::string withUntickedOptionsBlank(std::string_view text) {
  static const std::string_view unticked[] = {"[ ]", "( )", "\xE2\x98\x90" /* ☐ */,
                                              "\xE2\x96\xA1" /* □ */, "\xE2\x97\x8B" /* ○ */};
  static const std::string_view ticked[] = {
      "[x]", "[X]", "[\xE2\x9C\x93]" /* [✓] */, "[\xE2\x9C\x94]" /* [✔] */,
      "(\xE2\x80\xA2)" /* (•) */, "(x)", "(X)", "(*)", "\xE2\x98\x91" /* ☑ */,
      "\xE2\x98\x92" /* ☒ */, "\xE2\x97\x89" /* ◉ */};
  std::string out(text);
  auto boxAt = [&](size_t k, bool &isTicked) -> size_t {
    for (std::string_view b : unticked)
      if (text.compare(k, b.size(), b) == 0) {
        isTicked = false;
        return b.size();
      }
    for (std::string_view b : ticked)
      if (text.compare(k, b.size(), b) == 0) {
        isTicked = true;
        return b.size();
      }
    return 0;
  };
  for (size_t begin = 0; begin < text.size();) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos)
      end = text.size();
    struct Box {
      size_t at, size;
      bool ticked;
    };
    std::vector<Box> boxes;
    for (size_t k = begin; k < end; ++k) {
      bool isTicked = false;
      if (size_t size = boxAt(k, isTicked)) {
        boxes.push_back({k, size, isTicked});
        k += size - 1;
      }
    }
    bool anyTicked = std::any_of(boxes.begin(), boxes.end(), [](const Box &b) { return b.ticked; });
    if (boxes.size() >= 2 && anyTicked)
      for (size_t i = 0; i < boxes.size(); ++i) {
        size_t stop = boxes[i].at + boxes[i].size;
        if (!boxes[i].ticked) {
          size_t limit = i + 1 < boxes.size() ? boxes[i + 1].at : end;
          while (stop < limit && !(text[stop] == ' ' && stop > boxes[i].at + boxes[i].size + 1 &&
                                   stop + 1 < limit && text[stop + 1] == ' '))
            ++stop;
        }
        for (size_t k = boxes[i].at; k < stop; ++k)
          if (out[k] != '\r')
            out[k] = ' ';
      }
    begin = end + 1;
  }
  return out;
}

/// A template rendered for one run: the steps name parameters in
/// placeholders ("Dispense ${SUB_VOL} of substrate", "Shake <<SHAKE_T>> at
/// {{SHAKE_RPM}}") and a block fills them in, a name and its value per line
/// ("SUB_VOL   100 µL   comment", "T_SUB = 30 min"). Each placeholder reads
/// as its value, and so does a name of the block with an underscore where
/// the text names it bare ("x SAMPLE_DIL"); the block's lines define and ask
/// for nothing, so they read as blanks. A parameter left empty ("(left
/// empty)", "-") keeps its name, so a default the text states beside it
/// still reads. A block is three or more such lines in a row, two of them
/// named by placeholders; without one the text is left as it is. Lines are
/// kept, so locations hold to the line.
std::string withPlaceholdersFilled(std::string_view text) {
  std::vector<Placeholder> uses = placeholders(text);
  if (uses.size() < 2)
    return std::string(text);
  std::set<std::string, std::less<>> used;
  for (const Placeholder &p : uses)
    used.insert(p.name);
  struct LineSpan {
    size_t begin, end;
  };
  std::vector<LineSpan> lines;
  for (size_t begin = 0; begin <= text.size();) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos)
      end = text.size();
    lines.push_back({begin, end});
    begin = end + 1;
  }
  // A definition: the name first, then spaces, "=" or ":", then the value
  // up to a gap of two spaces or a tab (the next column: a comment).
  auto definition = [&](const LineSpan &line, std::string &name,
                        std::optional<std::string> &value) {
    std::string_view l = text.substr(line.begin, line.end - line.begin);
    if (!l.empty() && l.back() == '\r')
      l.remove_suffix(1);
    size_t k = 0;
    while (k < l.size() && (l[k] == ' ' || l[k] == '\t'))
      ++k;
    size_t nameEnd = k;
    while (nameEnd < l.size() && identifierChar(l[nameEnd]))
      ++nameEnd;
    name = std::string(l.substr(k, nameEnd - k));
    if (!parameterName(name) || (nameEnd < l.size() && l[nameEnd] != ' ' && l[nameEnd] != '\t' &&
                                 l[nameEnd] != '=' && l[nameEnd] != ':'))
      return false;
    size_t v = nameEnd;
    while (v < l.size() && (l[v] == ' ' || l[v] == '\t' || l[v] == '=' || l[v] == ':'))
      ++v;
    size_t vEnd = v;
    while (vEnd < l.size() && l[vEnd] != '\t' && !(l[vEnd] == ' ' && vEnd + 1 < l.size() && l[vEnd + 1] == ' '))
      ++vEnd;
    std::string_view raw = trimView(l.substr(v, vEnd - v));
    std::string lower = prose::lowerAscii(raw);
    bool empty = raw.empty() || raw[0] == '(' || lower == "-" || lower == "n/a" || lower == "tbd" ||
                 raw == "\xE2\x80\x94" || raw == "\xE2\x80\x93";
    value = empty ? std::nullopt : std::optional<std::string>(std::string(raw));
    return true;
  };
  std::map<std::string, std::string, std::less<>> values;
  std::vector<bool> blank(lines.size(), false);
  for (size_t i = 0; i < lines.size();) {
    size_t j = i;
    std::vector<std::pair<std::string, std::optional<std::string>>> block;
    std::string name;
    std::optional<std::string> value;
    while (j < lines.size() && definition(lines[j], name, value)) {
      block.emplace_back(name, value);
      ++j;
    }
    size_t named = static_cast<size_t>(std::count_if(
        block.begin(), block.end(), [&](const auto &d) { return used.count(d.first) > 0; }));
    if (block.size() >= 3 && named >= 2) {
      for (size_t k = i; k < j; ++k)
        blank[k] = true;
      for (auto &[n, v] : block)
        if (v)
          values[n] = *v;
    }
    i = j == i ? i + 1 : j;
  }
  if (values.empty())
    return std::string(text);
  // A parameter left empty takes the default the text states for it
  // ("(SHAKE_T default: 30 s if left empty)"): its name, "default", and a
  // number with its unit.
  auto defaultAfter = [&](size_t at) -> std::optional<std::string> {
    std::string_view rest = text.substr(at, 40);
    std::string lower = prose::lowerAscii(rest);
    size_t k = 0;
    while (k < lower.size() && (lower[k] == ' ' || lower[k] == ':' || lower[k] == '='))
      ++k;
    if (lower.compare(k, 7, "default") != 0)
      return std::nullopt;
    k += 7;
    while (k < lower.size() && (lower[k] == ' ' || lower[k] == ':' || lower[k] == '='))
      ++k;
    if (lower.compare(k, 3, "is ") == 0)
      k += 3;
    size_t v = k;
    while (k < rest.size() && (isDigitChar(rest[k]) || rest[k] == '.'))
      ++k;
    if (k == v)
      return std::nullopt;
    while (k < rest.size() && rest[k] == ' ')
      ++k;
    size_t unitEnd = k;
    while (unitEnd < rest.size() && rest[unitEnd] != ' ' && rest[unitEnd] != ')' &&
           rest[unitEnd] != ',' && rest[unitEnd] != ';' && rest[unitEnd] != '\n')
      ++unitEnd;
    if (unitEnd == k || !proseUnit(rest.substr(k, unitEnd - k)))
      return std::nullopt;
    return std::string(rest.substr(v, unitEnd - v));
  };
  std::set<std::string, std::less<>> defaulted;
  for (const Placeholder &p : uses) {
    if (values.count(p.name))
      continue;
    for (size_t at = text.find(p.name); at != std::string_view::npos;
         at = text.find(p.name, at + 1)) {
      bool whole = (at == 0 || !identifierChar(text[at - 1])) &&
                   (at + p.name.size() >= text.size() || !identifierChar(text[at + p.name.size()]));
      if (!whole)
        continue;
      if (std::optional<std::string> d = defaultAfter(at + p.name.size())) {
        values[p.name] = *d;
        defaulted.insert(p.name);
        break;
      }
    }
  }
  std::string out;
  out.reserve(text.size());
  size_t nextUse = 0; // placeholders are found in text order
  for (size_t li = 0; li < lines.size(); ++li) {
    const LineSpan &line = lines[li];
    if (li > 0)
      out += '\n';
    std::string_view l = text.substr(line.begin, line.end - line.begin);
    if (blank[li]) {
      for (char c : l)
        out += c == '\r' ? '\r' : ' ';
      continue;
    }
    for (size_t k = 0; k < l.size();) {
      while (nextUse < uses.size() && uses[nextUse].begin < line.begin + k)
        ++nextUse;
      if (nextUse < uses.size() && uses[nextUse].begin == line.begin + k &&
          uses[nextUse].end <= line.end) {
        const Placeholder &p = uses[nextUse++];
        auto v = values.find(p.name);
        out += v != values.end() ? v->second : p.name;
        k = p.end - line.begin;
        continue;
      }
      // A bare name of the block, whole.
      if (identifierChar(l[k]) && (k == 0 || !identifierChar(l[k - 1]))) {
        size_t e = k;
        while (e < l.size() && identifierChar(l[e]))
          ++e;
        std::string_view word = l.substr(k, e - k);
        auto v = values.find(word);
        // "(SHAKE_T default: 30 s)" names the parameter, not its value.
        if (v != values.end() && word.find('_') != std::string_view::npos &&
            !(defaulted.count(word) && defaultAfter(line.begin + e))) {
          out += v->second;
        } else {
          out += word;
        }
        k = e;
        continue;
      }
      out += l[k++];
    }
  }
  return out;
}

/// "Incubate [deleted: 45 min][inserted: 1 h] at RT", "[Comment JS: ...]":
/// a draft with its changes tracked reads as the revised text. What was
/// deleted and the reviewers' comments read as blanks, an insertion as its
/// words; offsets and line breaks are kept, so locations hold. A marker
/// without its closing bracket within a paragraph's length is left as it is.
std::string withoutTrackedChanges(std::string_view text) {
  std::string out(text);
  enum class Change { Delete, Insert };
  static const std::pair<std::string_view, Change> markers[] = {
      {"[deleted:", Change::Delete}, {"[del:", Change::Delete},   {"[removed:", Change::Delete},
      {"[comment", Change::Delete},  {"[inserted:", Change::Insert}, {"[ins:", Change::Insert},
      {"[added:", Change::Insert}};
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k)
      if (out[k] != '\n' && out[k] != '\r')
        out[k] = ' ';
  };
  for (size_t open = out.find('['); open != std::string::npos; open = out.find('[', open + 1)) {
    for (const auto &[marker, change] : markers) {
      if (out.size() - open < marker.size() ||
          prose::lowerAscii(std::string_view(out).substr(open, marker.size())) != marker)
        continue;
      // "[Comment JS: ...]", "[comment: ...]": initials before the colon.
      size_t body = open + marker.size();
      if (marker == "[comment") {
        size_t colon = out.find(':', body);
        size_t closeTag = out.find(']', body);
        // Word's comments pasted as text, "[Comment JB3]: We used to ...":
        // the tag closes before the colon and the comment, replies and
        // all, runs to the end of its line.
        if (closeTag != std::string::npos && closeTag <= body + 12 &&
            (colon == std::string::npos || closeTag < colon)) {
          size_t eol = out.find('\n', closeTag);
          blank(open, eol == std::string::npos ? out.size() : eol);
          open = closeTag;
          break;
        }
        if (colon == std::string::npos || colon > body + 12)
          break;
        body = colon + 1;
      }
      size_t close = out.find(']', body);
      if (close == std::string::npos || close - open > 600)
        break;
      if (change == Change::Delete) {
        blank(open, close + 1);
      } else {
        blank(open, body);
        blank(close, close + 1);
      }
      open = close;
      break;
    }
  }
  // A transcriber's remark on what the page had struck out, "wash [3x
  // crossed out] 5x", "[1:10 000 crossed out] 1:15 000": the bracket holds
  // the struck value, which the writer took back; what follows stands.
  for (size_t open = out.find('['); open != std::string::npos; open = out.find('[', open + 1)) {
    size_t close = out.find(']', open);
    size_t eol = out.find('\n', open);
    if (close == std::string::npos || eol < close || close - open > 80)
      continue;
    std::string inside = prose::lowerAscii(std::string_view(out).substr(open + 1, close - open - 1));
    while (!inside.empty() && (inside.back() == ' ' || inside.back() == '.'))
      inside.pop_back();
    bool struck = false;
    for (std::string_view remark : {" crossed out", " struck out", " struck through", " scored out",
                                    " crossed through", " lined out"})
      if (inside.size() > remark.size() &&
          inside.compare(inside.size() - remark.size(), remark.size(), remark) == 0)
        struck = true;
    if (struck) {
      blank(open, close + 1);
      open = close;
    }
  }
  // Struck through in Markdown ("~~20 µL~~ 50 µL per well"): deleted, as a
  // batch record's hand correction deletes the printed value. Both marks
  // on one line; a single "~" is "about".
  for (size_t open = out.find("~~"); open != std::string::npos; open = out.find("~~", open + 2)) {
    size_t close = out.find("~~", open + 2);
    if (close == std::string::npos)
      break;
    size_t eol = out.find('\n', open);
    if (eol < close || close - open > 300)
      continue;
    blank(open, close + 2);
    open = close;
  }
  return out;
}

/// "[run 1: 200 µL]", "(run 1: made the day before, 4 °C overnight)",
/// "(was: 30 min)": an aside in brackets that opens by naming an earlier
/// run or version gives the old values a rerun replaces. It reads as
/// blanks, offsets and line breaks kept.
std::string withoutPastRunAsides(std::string_view text) {
  std::string out(text);
  for (size_t open = out.find_first_of("(["); open != std::string::npos;
       open = out.find_first_of("([", open + 1)) {
    char closeChar = out[open] == '(' ? ')' : ']';
    size_t k = open + 1;
    while (k < out.size() && out[k] == ' ')
      ++k;
    std::string head = prose::lowerAscii(std::string_view(out).substr(k, 24));
    size_t colon = head.find(':');
    if (colon == std::string::npos)
      continue;
    std::string name = head.substr(0, colon);
    while (!name.empty() && name.back() == ' ')
      name.pop_back();
    bool pastRun = false;
    for (std::string_view prefix : {"run ", "previous run", "last run", "old", "was", "v",
                                    "version ", "rev ", "rev. ", "before"}) {
      if (name.rfind(prefix, 0) != 0)
        continue;
      std::string_view rest = std::string_view(name).substr(prefix.size());
      bool numbered = !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) {
        return isDigitChar(c) || c == '.';
      });
      bool bare = rest.empty() && prefix.back() != ' ' && prefix != "v";
      pastRun = (prefix == "run " || prefix == "v" || prefix == "version " || prefix == "rev " ||
                 prefix == "rev. ")
                    ? numbered
                    : bare;
      if (pastRun)
        break;
    }
    if (!pastRun)
      continue;
    size_t close = out.find(closeChar, open + 1);
    if (close == std::string::npos || close - open > 400 ||
        out.find(out[open], open + 1) < close)
      continue;
    for (size_t c = open; c <= close; ++c)
      if (out[c] != '\n' && out[c] != '\r')
        out[c] = ' ';
    open = close;
  }
  return out;
}

/// "Instead of the 50 uL of substrate used in [31], 40 uL of pNPP ...",
/// "(410 nm in [31])", "(rather than 60 min at room temperature [31])": in
/// a methods section that cites the method it changes, a clause or a
/// bracket that holds a numbered citation and says it is the cited
/// method's ("in [31]", "of [31]", "used in", "instead of", "rather than",
/// "replacing") gives the old values, not this procedure's. It reads as
/// blanks, offsets and line breaks kept.
std::string withoutCitedValues(std::string_view text) {
  std::string out(text);
  auto citationAt = [&](size_t k) {
    if (out[k] != '[')
      return false;
    size_t d = k + 1;
    while (d < out.size() && isDigitChar(out[d]))
      ++d;
    if (d == k + 1 || d - k > 4 || d >= out.size() ||
        (out[d] != ']' && out[d] != ',' && out[d] != '-'))
      return false;
    // A notebook's prompt "In [7]:" and code ("x[0, 1]") are no citations.
    size_t close = out.find(']', d);
    return close != std::string::npos && close - k < 12 &&
           (close + 1 == out.size() || std::string_view(" ),.;\n").find(out[close + 1]) !=
                                           std::string_view::npos) &&
           k > 0 && (out[k - 1] == ' ' || out[k - 1] == '(') &&
           !(k >= 3 && (out.compare(k - 3, 3, "In ") == 0 ||
                        (k >= 4 && out.compare(k - 4, 4, "Out ") == 0)));
  };
  // A clause ends at its punctuation or at a blank line.
  auto paragraphBreak = [&](size_t c) {
    return out[c] == '\n' && c + 1 < out.size() &&
           (out[c + 1] == '\n' || (out[c + 1] == '\r' && c + 2 < out.size() && out[c + 2] == '\n'));
  };
  for (size_t k = 0; k < out.size(); ++k) {
    if (!citationAt(k))
      continue;
    // The span around the citation: from the last clause boundary before it
    // to the next after it (a comma, a semicolon, a sentence's end, or the
    // bracket that holds it).
    size_t begin = k, end = k;
    while (begin > 0 && std::string_view(",;(:").find(out[begin - 1]) == std::string_view::npos &&
           !paragraphBreak(begin - 1) &&
           !(out[begin - 1] == '.' && begin >= 2 && out[begin - 2] != ' ' &&
             (begin == out.size() || out[begin] == ' ')) &&
           k - begin < 160)
      --begin;
    bool bracketed = begin > 0 && out[begin - 1] == '(';
    while (end < out.size() && std::string_view(bracketed ? ")" : ",;.:").find(out[end]) == std::string_view::npos &&
           !paragraphBreak(end) && end - k < 160)
      ++end;
    if (end >= out.size() || k - begin >= 160 || end - k >= 160)
      continue;
    std::string span = prose::lowerAscii(std::string_view(out).substr(begin, end - begin));
    bool cited = false;
    for (std::string_view mark : {"in [", "of [", "used in", "instead of", "rather than", "replacing",
                                  "as in [", "than in ["})
      cited = cited || span.find(mark) != std::string::npos;
    if (!cited)
      continue;
    size_t from = bracketed ? begin - 1 : begin;
    size_t to = bracketed && end < out.size() ? end : end - 1;
    for (size_t c = from; c <= to && c < out.size(); ++c)
      if (out[c] != '\n' && out[c] != '\r')
        out[c] = ' ';
    k = to;
  }
  return out;
}

/// A wiki page's heading, "=== Day 0 - seeding (by hand, hood) ===", as
/// its words, which the headings below then read like any other; any other
/// line as it is. A banner between runs of `=` ("=== LYSOZYME | 384w |
/// A450 kinetic ===") is no heading: its fields stay as they are.
///
/// So is a heading between runs of three dashes or more, "----- THE
/// PROCEDURE AS WE RUN IT NOW -----", which is no bullet.
std::string_view withoutWikiHeadingMarks(std::string_view t) {
  if (t.empty())
    return t;
  // "## Calculations" in Markdown (a README, a notebook's export): two to
  // six marks and a space open a heading, and marks may close it. One mark
  // is as often a comment ("# method file v2") as a title.
  if (size_t marks = t.find_first_not_of('#'); t.front() == '#' && marks >= 2 && marks <= 6 &&
                                                marks < t.size() && t[marks] == ' ') {
    std::string_view inner = trimView(t.substr(marks));
    while (!inner.empty() && inner.back() == '#')
      inner.remove_suffix(1);
    return trimView(inner);
  }
  // "*** what's already done ***" in an e-mail marks a heading as dashes do.
  char mark = t.front() == '-' ? '-' : t.front() == '*' ? '*' : '=';
  size_t open = t.find_first_not_of(mark);
  if (open < (mark == '=' ? 2 : 3) || open == std::string_view::npos)
    return t;
  size_t close = t.find_last_not_of(mark);
  size_t closing = t.size() - 1 - close;
  if (mark == '=' ? closing != open : closing < 3)
    return t;
  std::string_view inner = trimView(t.substr(open, close + 1 - open));
  if (inner.find('|') != std::string_view::npos ||
      std::count(inner.begin(), inner.end(), ' ') >= 12)
    return t;
  return inner;
}

/// "=====", "- - - -", "*****": a rule drawn across the page.
bool horizontalRule(std::string_view t) {
  if (t.size() < 3)
    return false;
  char c = t[0];
  if (c != '=' && c != '-' && c != '_' && c != '*' && c != '~')
    return false;
  // "-------------------- [ORANGE]": a rule with a short tag at its end
  // (a note's colour, a card's name) still separates what it stands
  // between.
  size_t end = t.size();
  if (t.back() == ']') {
    size_t open = t.rfind('[');
    if (open != std::string_view::npos && open >= 10 && end - open <= 42)
      end = open;
  }
  return std::all_of(t.begin(), t.begin() + static_cast<long>(end),
                     [c](char ch) { return ch == c || ch == ' '; });
}

/// "-----+--------+-----": the rule under a table's header drawn with
/// crossings and no outer pipes.
bool tableRule(std::string_view t) {
  return t.size() >= 5 && t.find('+') != std::string_view::npos &&
         t.find_first_not_of("+-=: ") == std::string_view::npos &&
         std::count(t.begin(), t.end(), '-') + std::count(t.begin(), t.end(), '=') >= 4;
}

/// A line inside a text box: "| text |", one cell between the sides.
bool boxSide(std::string_view t) {
  return t.size() >= 2 && t.front() == '|' && t.back() == '|' && t.find('|', 1) == t.size() - 1;
}

bool endsTerminal(std::string_view s) {
  s = trimView(s);
  return !s.empty() && (s.back() == '.' || s.back() == '!' || s.back() == '?' || s.back() == ':');
}

bool endsJoining(std::string_view s) {
  s = trimView(s);
  if (s.empty())
    return false;
  char c = s.back();
  if (c == ',' || c == ';' || c == '(' || c == '-' || c == '/' || c == '&' || c == '+')
    return true;
  // "... -> 6x wash 350 ul ->" over "200 ul TMB -> ...": a flow that ends
  // its line in an arrow goes on in the next.
  if (s.size() >= 2 && (s.substr(s.size() - 2) == "->" || s.substr(s.size() - 2) == "=>"))
    return true;
  if (s.size() >= 3 && s.substr(s.size() - 3) == "→")
    return true;
  size_t space = s.find_last_of(" \t");
  std::string last = prose::lowerAscii(space == std::string_view::npos ? s : s.substr(space + 1));
  static const std::set<std::string, std::less<>> joiners = {
      "and", "or", "then", "the", "a", "an", "of", "with", "at", "to", "for", "in", "into",
      "by", "from", "per", "on", "each", "after", "before", "until", "than", "is", "are", "was",
      "were", "be", "which", "that", "while", "as", "plus", "onto", "under", "over", "using"};
  return joiners.count(last) > 0;
}

std::string firstWordLower(std::string_view s) {
  s = trimView(s);
  size_t e = 0;
  while (e < s.size() && s[e] != ' ' && s[e] != '\t' && s[e] != ',' && s[e] != ':' &&
         s[e] != ';' && s[e] != '.' && s[e] != '(')
    ++e;
  return prose::lowerAscii(s.substr(0, e));
}

bool startsLower(std::string_view s) {
  s = trimView(s);
  // "= 14.4 mL + dead volume)": a sum wrapped before its equals sign.
  bool wrappedSum = s.size() > 2 && s[0] == '=' && s[1] == ' ' && isDigitChar(s[2]);
  return !s.empty() && ((s[0] >= 'a' && s[0] <= 'z') || s[0] == '(' || isDigitChar(s[0]) ||
                        static_cast<unsigned char>(s[0]) >= 0x80 || wrappedSum);
}

/// "50 µl NED → all used wells": a quick card's line that opens with a
/// volume and sends it somewhere with an arrow is an entry of its own. A
/// line that only wraps a sentence ("... incubate for" over "30 min at
/// RT") continues with a value, not with a volume that goes somewhere.
bool arrowEntry(std::string_view text) {
  text = trimView(text);
  size_t digits = 0;
  while (digits < text.size() && (isDigitChar(text[digits]) || text[digits] == '.'))
    ++digits;
  if (digits == 0)
    return false;
  size_t unitBegin = digits;
  while (unitBegin < text.size() && text[unitBegin] == ' ')
    ++unitBegin;
  size_t unitEnd = unitBegin;
  while (unitEnd < text.size() && text[unitEnd] != ' ' && text[unitEnd] != '/')
    ++unitEnd;
  std::optional<Unit> unit = proseUnit(text.substr(unitBegin, unitEnd - unitBegin));
  if (!unit || unitInfo(*unit).dimension != Dimension::Volume)
    return false;
  std::string_view rest = text.substr(unitEnd);
  return rest.find("→") != std::string_view::npos || rest.find("->") != std::string_view::npos ||
         rest.find("=>") != std::string_view::npos;
}

/// "Layout:", "Plate map:", "robot:", "Day 1 (by hand):": a short prefix
/// ending in a colon, with the content after it.
std::string colonPrefix(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 48)
    return "";
  // "1:20" is a ratio, not a prefix.
  if (colon + 1 < text.size() && isDigitChar(text[colon + 1]) && isDigitChar(text[colon - 1]))
    return "";
  std::string_view prefix = text.substr(0, colon);
  unsigned words = 1;
  for (char c : prefix)
    words += c == ' ';
  if (words > 6)
    return "";
  return std::string(prefix);
}

/// "step_14.volume_ul: 300": the record a notebook's key belongs to, its
/// name up to the last dot ("step_14."), or empty when the line opens with
/// no such key.
std::string recordOf(std::string_view text) {
  std::string key = colonPrefix(text);
  size_t dot = key.rfind('.');
  if (dot == std::string::npos || dot == 0 || key.find(' ') != std::string::npos)
    return "";
  return key.substr(0, dot + 1);
}

/// The text with every bracketed part left out.
std::string withoutBrackets(std::string_view s) {
  std::string out;
  int depth = 0;
  for (char c : s) {
    if (c == '(')
      ++depth;
    else if (c == ')' && depth > 0)
      --depth;
    else if (depth == 0)
      out += c;
  }
  return out;
}

/// Whether `label` numbers an item under `parent` ("5.1" under "5", "5."
/// or "5)"; "2a" under "2").
/// "7" of "7.2", "12" of "12": a label's first number (up to four digits),
/// 0 without one.
unsigned leadingNumber(std::string_view label) {
  size_t k = 0;
  unsigned n = 0;
  while (k < label.size() && k < 4 && isDigitChar(label[k]))
    n = n * 10 + static_cast<unsigned>(label[k++] - '0');
  return n;
}

bool subLabelOf(std::string_view label, std::string_view parent) {
  while (!parent.empty() && (parent.back() == '.' || parent.back() == ')'))
    parent.remove_suffix(1);
  if (parent.empty() || label.size() <= parent.size() || label.substr(0, parent.size()) != parent)
    return false;
  char next = label[parent.size()];
  return next == '.' || (next >= 'a' && next <= 'z');
}

/// "PRODUCER'S ESSAY - "Why two?"": a heading's quoted subtitle after a
/// dash or a colon. The text before it, or the whole text when it has none.
std::string_view withoutQuotedSubtitle(std::string_view s) {
  std::string_view t = trimView(s);
  bool straight = !t.empty() && t.back() == '"';
  bool curly = t.size() >= 3 && t.substr(t.size() - 3) == "\xE2\x80\x9D" /* ” */;
  if (!straight && !curly)
    return s;
  std::string_view inner = t.substr(0, t.size() - (curly ? 3 : 1));
  size_t open = curly ? inner.rfind("\xE2\x80\x9C" /* “ */) : inner.rfind('"');
  if (open == std::string_view::npos || open == 0)
    return s;
  std::string_view head = trimView(t.substr(0, open));
  for (std::string_view mark : {" -", " \xE2\x80\x93", " \xE2\x80\x94", ":"})
    if (head.size() > mark.size() && head.substr(head.size() - mark.size()) == mark)
      return trimView(head.substr(0, head.size() - mark.size()));
  return s;
}

/// "PACKING NOTE      page 2 of 3": a running header's page number, set
/// apart by a run of spaces at the end of the line, is no part of the
/// heading. The text without it, or the whole text when it has none.
std::string_view withoutPageMarker(std::string_view s) {
  std::string_view trimmed = trimView(s);
  size_t gap = trimmed.rfind("  ");
  if (gap == std::string_view::npos)
    return s;
  std::string lowerTail = prose::lowerAscii(trimView(trimmed.substr(gap)));
  std::string_view rest;
  for (std::string_view word : {"page ", "p. ", "pg. ", "pg "})
    if (lowerTail.rfind(word, 0) == 0) {
      rest = std::string_view(lowerTail).substr(word.size());
      break;
    }
  // "page 2 of 3", "page 2/3", "page 2".
  size_t k = 0;
  auto number = [&] {
    size_t start = k;
    while (k < rest.size() && isDigitChar(rest[k]))
      ++k;
    return k > start && k - start <= 3;
  };
  if (rest.empty() || !number())
    return s;
  if (k < rest.size()) {
    std::string_view between = rest.substr(k);
    if (between.rfind(" of ", 0) == 0)
      k += 4;
    else if (between.rfind("/", 0) == 0)
      k += 1;
    else
      return s;
    if (!number() || k != rest.size())
      return s;
  }
  return trimView(trimmed.substr(0, gap));
}

bool allCapsHeading(std::string_view s) {
  unsigned upper = 0, lower = 0;
  for (char c : s) {
    if (c >= 'A' && c <= 'Z')
      ++upper;
    else if (c >= 'a' && c <= 'z')
      ++lower;
  }
  return upper >= 6 && lower == 0;
}

/// The words a procedure's heading is made of ("Steps", "Assay procedure",
/// "Protocol", "Robot steps").
bool isProcedureHeadingWord(std::string_view lower) {
  static const std::set<std::string, std::less<>> words = {
      "steps", "step", "procedure", "protocol", "method", "assay procedure",
      "test procedure", "assay protocol", "robot steps", "the run", "run", "workflow",
      "plate steps", "on the robot", "on the deck", "on deck", "assay steps", "the assay"};
  return words.count(lower) > 0;
}

/// Words separated by runs of spaces ("PER WELL (200 µL total)      who" is 6).
size_t wordCount(std::string_view s) {
  size_t words = 0;
  bool inWord = false;
  for (char c : s) {
    bool space = c == ' ' || c == '\t';
    words += !space && !inWord;
    inWord = !space;
  }
  return words;
}

/// "Data analysis (not marked in the quiz): rates are ...": a short label
/// whose remark in brackets runs past the words a key may have, without
/// the remark ("Data analysis"); empty when the line opens with no such
/// label.
std::string labelWithRemark(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon > 80)
    return "";
  std::string_view prefix = prose::trimView(text.substr(0, colon));
  size_t open = prefix.find('(');
  if (prefix.empty() || prefix.back() != ')' || open == std::string_view::npos || open == 0)
    return "";
  std::string bare = withoutBrackets(prefix);
  std::string_view label = prose::trimView(bare);
  if (label.empty() || wordCount(label) > 4)
    return "";
  return std::string(label);
}

/// "[bottom margin, pencil:] plate summary for the robot folder: ...": a
/// transcriber's remark in square brackets that ends in a colon says where
/// the words stand, not what they are; the text after it, or the whole text
/// when it opens with no such remark.
std::string_view afterTranscriberRemark(std::string_view text) {
  std::string_view trimmed = prose::trimView(text);
  if (trimmed.empty() || trimmed.front() != '[')
    return text;
  size_t close = trimmed.find(']');
  if (close == std::string_view::npos || close < 2 || close > 60 || trimmed[close - 1] != ':')
    return text;
  return prose::trimView(trimmed.substr(close + 1));
}

/// A heading in capitals followed by a remark in brackets: the part outside
/// the brackets is capitals alone (a word of five letters is enough, as
/// "STEPS" or "NOTES" above a list) and the line ends with the remark.
bool capsHeadingWithRemark(std::string_view s) {
  // "PER WELL (200 µL total)          who": the heading of a table aligned
  // with spaces, its other columns named after a run of spaces.
  if (size_t close = s.rfind(')'); close != std::string_view::npos && close + 1 < s.size() &&
                                   s.substr(close + 1, 3) == "   ") {
    std::string_view columns = trimView(s.substr(close + 1));
    bool names = !columns.empty() && columns.size() <= 24 &&
                 std::none_of(columns.begin(), columns.end(),
                              [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (names)
      s = s.substr(0, close + 1);
  }
  if (s.empty() || s.back() != ')' || s.find('(') == std::string_view::npos)
    return false;
  std::string bare = withoutBrackets(s);
  unsigned upper = 0, lower = 0;
  for (char c : bare) {
    if (c >= 'A' && c <= 'Z')
      ++upper;
    else if (c >= 'a' && c <= 'z')
      ++lower;
  }
  return upper >= 5 && lower == 0;
}

/// The heading a paragraph opens with ("Data analysis. For each well ...",
/// "Statistics. Means ..."): up to four capitalised words, no verb, no
/// number, and a full stop before the next sentence. Lower case; "" if
/// there is none.
std::string runInHeading(std::string_view text) {
  size_t stop = text.find(". ");
  if (stop == std::string_view::npos || stop == 0 || stop > 40 || text[0] < 'A' || text[0] > 'Z')
    return "";
  size_t next = stop + 2;
  while (next < text.size() && text[next] == ' ')
    ++next;
  if (next >= text.size() || text[next] < 'A' || text[next] > 'Z')
    return "";
  std::string_view head = text.substr(0, stop);
  // "Assay procedure (per 384-well plate). Plates will be ...": the
  // heading's own remark in brackets.
  if (!head.empty() && head.back() == ')') {
    size_t open = head.rfind('(');
    if (open == std::string_view::npos || open == 0)
      return "";
    head = prose::trimView(head.substr(0, open));
  }
  unsigned words = 1;
  for (char c : head) {
    if (c == ' ')
      ++words;
    else if (!std::isalpha(static_cast<unsigned char>(c)) && c != '-' && c != '&' && c != '/')
      return "";
  }
  if (words > 4)
    return "";
  std::string lower = prose::lowerAscii(head);
  for (size_t b = 0; b < lower.size();) {
    size_t e = lower.find(' ', b);
    if (e == std::string::npos)
      e = lower.size();
    if (isAnyVerb(std::string_view(lower).substr(b, e - b)))
      return "";
    b = e + 1;
  }
  return lower;
}

/// Where `word` first stands as a whole word in `lowerText`, or npos.
size_t wordAt(std::string_view lowerText, std::string_view word) {
  // "@ana_bench", "wash_buffer": a handle or a name is one word, none of
  // its parts ("bench") said.
  auto partOfWord = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  size_t pos = 0;
  while ((pos = lowerText.find(word, pos)) != std::string_view::npos) {
    bool left = pos == 0 || (!partOfWord(lowerText[pos - 1]) && lowerText[pos - 1] != '@');
    size_t end = pos + word.size();
    bool right = end >= lowerText.size() || !partOfWord(lowerText[end]);
    if (left && right)
      return pos;
    pos = end;
  }
  return std::string_view::npos;
}

bool hasWord(std::string_view lowerText, std::string_view word) {
  return wordAt(lowerText, word) != std::string_view::npos;
}

bool hasAnyWord(std::string_view lowerText, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view w) { return hasWord(lowerText, w); });
}

/// What a header or label prefix makes of the units under it. Layout and
/// materials need the heading to be about them ("Plate map:", "Reagents"),
/// not to mention a plate or a reagent ("Plate prep for the screen").
/// "slide 3 — plate map" -> "plate map": the number of a slide or page
/// heads what follows it; the words after it say what kind of section it is.
/// So does a part's letter or number: "part c – data analysis (write-up)",
/// and an attachment's: "attachment 1 — plate map (clear 96-well plate)".
std::string withoutSlideNumber(const std::string &lower) {
  // "2B  ANALYSIS", "3a Reagents": a section's number with a letter, which
  // the step labels ("2.", "3)") do not take.
  {
    size_t k = 0;
    while (k < lower.size() && k < 2 && isDigitChar(lower[k]))
      ++k;
    if (k > 0 && k + 2 < lower.size() && lower[k] >= 'a' && lower[k] <= 'h' &&
        (lower[k + 1] == ' ' || lower[k + 1] == '\t')) {
      size_t word = lower.find_first_not_of(" \t", k + 1);
      if (word != std::string::npos && std::isalpha(static_cast<unsigned char>(lower[word])))
        return lower.substr(word);
    }
  }
  for (std::string_view prefix : {"slide ", "page ", "part ", "section ", "stage ", "phase ",
                                   "attachment ", "appendix ", "annex ", "exhibit "}) {
    if (lower.rfind(prefix, 0) != 0)
      continue;
    size_t k = prefix.size();
    size_t digits = k;
    while (k < lower.size() && isDigitChar(lower[k]))
      ++k;
    bool letter = prefix != "slide " && prefix != "page " && k == digits && k + 1 < lower.size() &&
                  lower[k] >= 'a' && lower[k] <= 'z' && (lower[k + 1] == ' ' || lower[k + 1] == ':');
    if (letter)
      ++k;
    if (k == digits)
      return lower;
    while (k < lower.size() && (lower[k] == ' ' || lower[k] == '-' || lower[k] == ':' ||
                                lower[k] == '.'))
      ++k;
    // An en or em dash is three bytes of UTF-8.
    for (std::string_view dash : {"\u2014", "\u2013"})
      if (lower.compare(k, dash.size(), dash) == 0)
        k += dash.size();
    while (k < lower.size() && lower[k] == ' ')
      ++k;
    return lower.substr(k);
  }
  return lower;
}

/// "WHAT THE PRACTICAL IS", "What this assay measures", "About the
/// experiment": the task told in a paragraph before its steps, which tell
/// its values again. "What the robot does" and "What to do" head steps, so
/// the subject must be the task itself.
bool namesWhatTheTaskIs(std::string_view lower) {
  static constexpr std::string_view kTasks[] = {
      "practical", "assay", "experiment", "method", "test", "lab", "protocol",
      "project", "session", "lesson", "class", "activity", "investigation", "this", "it"};
  auto afterDeterminer = [](std::string_view rest) {
    for (std::string_view det : {"the ", "this ", "today's ", "our "})
      if (rest.rfind(det, 0) == 0)
        return rest.substr(det.size());
    return rest;
  };
  auto isTask = [&](std::string_view word) {
    return std::find(std::begin(kTasks), std::end(kTasks), word) != std::end(kTasks);
  };
  auto firstWord = [](std::string_view rest) { return rest.substr(0, rest.find(' ')); };
  if (lower.rfind("about ", 0) == 0) {
    std::string_view rest = lower.substr(6);
    std::string_view det = afterDeterminer(rest);
    return det != rest && det.find(' ') == std::string_view::npos && isTask(det);
  }
  if (lower.rfind("what ", 0) != 0)
    return false;
  std::string_view rest = lower.substr(5);
  for (std::string_view verb : {"is ", "'s "})
    if (rest.rfind(verb, 0) == 0) {
      std::string_view det = afterDeterminer(rest.substr(verb.size()));
      return det.find(' ') == std::string_view::npos && isTask(det);
    }
  std::string_view subject = afterDeterminer(rest);
  std::string_view word = firstWord(subject);
  if (!isTask(word) || word.size() == subject.size())
    return false;
  std::string_view tail = subject.substr(word.size() + 1);
  for (std::string_view ending : {"is", "is about", "is for", "measures", "shows", "tests"})
    if (tail == ending)
      return true;
  return false;
}

UnitKind kindOfHeading(const std::string &lowerHeading) {
  // "Example 2 (Comparative). Cuvette Kinetic Assay": a method set against
  // the one used, its remark in brackets included.
  if (hasAnyWord(lowerHeading, {"comparative", "comparative example"}))
    return UnitKind::Note;
  // A screenplay's "INT. VIROLOGY LAB - NIGHT (FLASHBACK, 2011)": the
  // scene shows how the method was once run, up to the next scene.
  if (hasAnyWord(lowerHeading, {"flashback", "flash back", "flashbacks"}))
    return UnitKind::Note;
  // A service report's "WORK CARRIED OUT", "Actions taken": the record of
  // what an engineer did to the instrument (a leak test at 300 uL, a 60 s
  // hold), no step of the assay.
  if (hasAnyWord(lowerHeading, {"work carried out", "work done", "work performed",
                                "work completed", "actions taken", "action taken",
                                "repairs carried out", "service carried out",
                                "maintenance carried out", "maintenance performed"}))
    return UnitKind::Note;
  std::string lower = lowerHeading;
  size_t paren = lower.find('(');
  if (paren != std::string::npos && paren > 0)
    lower = lower.substr(0, paren);
  while (!lower.empty() && (lower.back() == ':' || lower.back() == ' ' || lower.back() == '.'))
    lower.pop_back();
  while (!lower.empty() && lower.front() == ' ')
    lower.erase(0, 1);
  lower = withoutSlideNumber(lower);
  if (hasAnyWord(lower, {"summary", "overview", "at a glance", "quick reference", "in brief",
                         "outline", "flowchart", "flow chart", "short protocol", "quick guide",
                         "tl;dr", "tldr", "in short", "short version", "bottom line",
                         // "WHAT CHANGED FROM VERSION 2", "Changes since v3":
                         // the changed values, which the procedure states
                         // again.
                         "what changed", "what has changed", "what's changed",
                         "changes since", "changes from", "changes in this version",
                         "differences from", "differences to",
                         // "ACTION REPLAY" in a commentary, "Recap": what
                         // was done, told again.
                         "recap", "replay", "action replay", "instant replay",
                         // A shop's product page: "About this item" above
                         // "FAST: one reagent addition, one 30 min
                         // incubation, read at 450 nm", the selling points.
                         "about this item", "about this product", "product highlights",
                         "key features", "product features", "highlights"}))
    return UnitKind::Summary;
  if (namesWhatTheTaskIs(lower))
    return UnitKind::Summary;
  // "LATE CHANGES (posted at registration)", "UPLINKED CHANGES": a list of
  // the values that replace the method's, which the script follows; the
  // method is told elsewhere. Not "Medium changes" or "Buffer changes",
  // steps of their own.
  std::string_view lastClause = lower;
  if (size_t stop = lastClause.rfind(". "); stop != std::string_view::npos)
    lastClause.remove_prefix(stop + 2);
  if (size_t last = lastClause.rfind(' ');
      (lastClause == "changes" ||
       (last != std::string_view::npos && lastClause.substr(last + 1) == "changes")) &&
      lastClause.rfind("what ", 0) != 0 &&
      !hasAnyWord(lastClause, {"medium", "media", "buffer", "tip", "tips", "plate", "plates",
                          "solution", "temperature", "lid", "well", "wells",
                          // proposals, which a discussion accepts or strikes
                          "requested", "proposed", "suggested", "possible"}))
    return UnitKind::Summary;
  static const std::set<std::string, std::less<>> layout = {
      "layout", "plate layout", "plate map", "map", "plate", "wells", "well layout",
      "standards", "samples", "calibrators", "controls", "unknowns", "standards and samples",
      "plate setup", "plate set-up", "well assignment", "well assignments", "positions",
      "blank", "blanks", "sample layout", "layout of the plate", "plate plan",
      // "Sample list:" above "SN2  LPS 10 ng/mL 0.5 h": what each sample
      // is, its treatment times included.
      "sample list", "list of samples", "samples list", "sample key", "sample table",
      "sample information", "sample ids"};
  if (layout.count(lower) || lower.rfind("layout", 0) == 0 || lower.rfind("plate map", 0) == 0 ||
      lower.rfind("plate layout", 0) == 0)
    return UnitKind::Layout;
  // "Each pair needs", "Per bench you will need", "Items required": a list
  // of what to have at hand; "What the kit contains": what comes in it.
  for (std::string_view need : {" need", " needs", " needed", " required", " contains"})
    if (lower.size() > need.size() && lower.compare(lower.size() - need.size(), need.size(), need) == 0 &&
        !hasAnyWord(lower, {"procedure", "protocol", "steps", "step"}))
      return UnitKind::Materials;
  static const std::set<std::string, std::less<>> materials = {
      "materials", "material", "equipment", "kit contents", "kit components", "components",
      "storage", "reagents supplied", "reagents", "reagent", "materials and reagents",
      "reagents and materials", "materials required", "required materials",
      "materials required but not supplied", "stability", "storage and stability",
      "what you need", "supplies", "consumables", "instruments", "ingredients",
      "you will need", "you'll need", "shopping list",
      // A core facility's sheet: what the user hands over.
      "what you bring", "what to bring", "bring", "what you provide", "what to provide",
      // A notebook's "Need: ~40 mL wash per 3x round": what to have.
      "need", "needs", "needed", "required"};
  if (materials.count(lower))
    return UnitKind::Materials;
  // "Materials supplied", "Kit contents and storage", "Components provided",
  // "Additionally required material (not contained)".
  if (hasAnyWord(lower, {"materials", "material", "contents", "components"}) &&
      !hasAnyWord(lower, {"procedure", "protocol", "steps", "step", "assay"}))
    return UnitKind::Materials;
  // "Solutions and storage", "Storage and handling": how things
  // are kept, not steps.
  if (hasAnyWord(lower, {"storage", "stability"}))
    return UnitKind::Materials;
  // "Instrument and filter", "Equipment needed", "Filter requirements": what
  // the lab must have, whose wavelengths and temperatures are no steps. A
  // heading over the robot's part or its settings ("Instrument part",
  // "Reader settings") keeps its steps.
  if (hasAnyWord(lower, {"instrument", "instruments", "instrumentation", "equipment",
                         "apparatus", "filter", "filters"}) &&
      !hasAnyWord(lower, {"part", "parts", "step", "steps", "procedure", "protocol", "run",
                          "setting", "settings", "program", "programme", "set-up", "setup",
                          "work", "operation", "reading", "measurement", "read"}))
    return UnitKind::Materials;
  if (hasAnyWord(lower, {"preparation", "prepare", "prepared", "working reagent", "working solution",
                         "before you start", "before starting", "reagent prep", "prep",
                         "reagent preparation", "sample preparation", "extraction",
                         "sample extraction"}) &&
      !hasAnyWord(lower, {"plate"}))
    return UnitKind::Preparation;
  // "Discussion and decisions:" in a meeting's minutes: what was agreed is
  // the procedure.
  if (hasAnyWord(lower, {"discussion", "conclusion", "conclusions"}) &&
      hasAnyWord(lower, {"decision", "decisions", "decided", "agreed", "agreement", "actions"}))
    return UnitKind::Procedure;
  // An encyclopedia's article around its "Method": other formats and the
  // method's past, no steps. Only as the heading's first words: "Example
  // 3 - Determination of the activity of variants V0 to V15" is a method.
  for (const char *start : {"variations", "variants", "other formats", "other variants",
                            "alternative methods", "alternative formats", "alternative protocols",
                            "history", "see also"})
    if (lower.rfind(start, 0) == 0)
      return UnitKind::Note;
  // "DONE OVERNIGHT (don't repeat any of this):", "Already done": a
  // handover's record of what an earlier shift did; the steps left are
  // told under another heading.
  // An incident report's "TIMELINE OF THE FAILED RUN (as actually done)"
  // and "ROOT CAUSE ANALYSIS": what went wrong, not the method to run.
  if (hasAnyWord(lowerHeading, {"failed run", "as actually done", "what happened",
                                "sequence of events", "chronology", "root cause", "5 whys",
                                "five whys"}))
    return UnitKind::Note;
  for (const char *done : {"done overnight", "done last night", "done yesterday", "already done",
                           "done so far", "completed steps", "steps completed", "done by the night",
                           "done by the previous"})
    if (lower.rfind(done, 0) == 0)
      return UnitKind::Note;
  if (lowerHeading.find("don't repeat") != std::string::npos ||
      lowerHeading.find("do not repeat") != std::string::npos)
    return UnitKind::Note;
  if (hasAnyWord(lower, {"note", "notes", "nb", "important", "caution", "warning", "warnings",
                         "tip", "tips", "remarks", "comment", "comments", "precautions",
                         "limitations", "troubleshooting", "safety", "background", "critical",
                         "waste", "disposal", "decontamination", "hazard", "hazards",
                         "biosafety", "spills", "clean-up", "cleanup",
                         "hint", "hints", "pitfalls", "mistakes", "common mistakes",
                         "common errors", "errors to avoid", "dos and don'ts",
                         "do's and don'ts",
                         "principle", "introduction", "references", "disclaimer",
                         // An album's "PRODUCER'S ESSAY", a book's "Foreword":
                         // the story around the method, its older values
                         // included.
                         "essay", "foreword", "afterword", "preface", "epilogue",
                         // A chart's "PRN ORDERS (give only if indicated)",
                         // a plan's "Contingency": given only if something
                         // happens, no step of the run as planned.
                         "prn", "prn orders", "as needed", "if needed", "contingency",
                         "contingencies",
                         // "Winning time estimate: 5 h 45 min (robot; ...)",
                         // "Estimated run time:": how long it will take.
                         "estimate", "estimated", "time estimate",
                         "intended use", "purpose", "scope", "specifications",
                         // What the experiment is for ("OBJECTIVE: determine
                         // the IC50 ... after 48 h exposure"): its design.
                         "objective", "objectives", "aim", "aims", "goal", "goals",
                         "rationale", "hypothesis",
                         // A report's discussion of what went wrong ("6.
                         // Discussion and sources of error": "(iii) reading
                         // at 620 nm instead of 580 nm lowers ...").
                         "discussion", "conclusion", "conclusions", "sources of error",
                         "error analysis",
                         // A pull request's "Review" or "Conversation": the
                         // reviewers quote the file and argue about it; what
                         // they settle is in a later commit.
                         "review", "reviews", "conversation",
                         // "tngata commented on line 7:" over the line it
                         // quotes: a reviewer's remark on the file.
                         "commented",
                         // A manual page's "OPTIONS" (each with its default),
                         // "ENVIRONMENT", "FILES" and "BUGS": how the command
                         // is set, what the run is is told elsewhere.
                         "options", "environment", "files", "bugs",
                         "specification", "performance", "sensitivity", "specificity",
                         "precision", "characteristics", "ordering", "contact",
                         "calculation", "calculations", "calc", "calcs", "formula", "formulas",
                         "equation",
                         "equations", "example data", "example results", "example calculation",
                         "worked example", "illustration", "typical data", "typical results",
                         "representative data", "representative results", "expected results",
                         "sample data", "sample calculation", "example curve",
                         "typical standard curve", "typical curve",
                         // A teaching handout's questions ask about the
                         // steps; their values are answers, not steps.
                         "questions", "question", "quiz", "exercises", "self-test",
                         // A supplier's page: answers to customers' questions.
                         "faq", "faqs", "frequently asked questions", "q&a",
                         // What changed between versions of an SOP: the old
                         // values are history, the procedure states the new.
                         "revision history", "revisions", "document history",
                         // An electronic notebook's record of who changed
                         // what ("step 7: 30 min -> 45 min"): history.
                         "audit trail", "audit log", "edit history", "change record",
                         "change history", "version history", "change log", "changelog",
                         // A batch record's criteria judge the run after it.
                         "acceptance criteria", "acceptance", "validity criteria",
                         "assay validity", "run acceptance", "qc limits", "qc criteria",
                         "qc checks", "quality criteria", "quality control limits",
                         "quality control criteria",
                         "what went wrong", "what happened", "root cause",
                         // "Abbrev: ... o/n = overnight": what the card's
                         // shorthand means, not steps.
                         "abbrev", "abbreviation", "abbreviations", "glossary",
                         "definitions", "shorthand", "key to abbreviations",
                         // "Timing: hands-on loading ... 20 min, robot ...
                         // ~40 min": how long the parts take, told again.
                         "timing", "timings", "time required", "total time",
                         "hands-on time",
                         // Minutes' "ACTION ITEMS": who updates the SOP or
                         // orders kits by when; the run's steps are elsewhere.
                         "action items", "action item", "action points",
                         // protocols.io's "GUIDELINES": advice and the
                         // final conditions in the well, above the steps.
                         "guidelines", "guideline", "general guidelines",
                         // A paper's or protocols.io's "ABSTRACT": what the
                         // method is, told before it ("miniaturised to 50 uL").
                         "abstract",
                         // A wiki's "Requested changes (X -> Y)" under an
                         // edit request: proposals, which the discussion
                         // after them accepts or strikes.
                         "requested changes", "proposed changes", "suggested changes",
                         "change request", "change requests"}))
    return UnitKind::Note;
  // A handover's "WHAT I'VE ALREADY DONE (don't repeat any of this)", an
  // incident report's past run: work that is over, told with its values.
  // But "Printout of the last run on the old system" heads the method that
  // ran, which a port keeps or amends step by step.
  if (hasAnyWord(lower, {"already done", "done already", "done so far", "already been done",
                         "previous run", "previous runs", "past runs", "earlier runs",
                         "last run"}) &&
      !hasAnyWord(lower, {"printout", "print-out", "program", "programme", "method", "script",
                          "worklist"}))
    return UnitKind::Note;
  // A to-do list by its name alone: "what you need to do tomorrow" heads
  // the plan.
  static const std::set<std::string, std::less<>> todo = {"to do", "to-do", "todo", "to do list",
                                                          "to-do list", "todo list", "todos",
                                                          "to-dos"};
  if (todo.count(lower))
    return UnitKind::Note;
  // "Data analysis", "Results", "Statistics": the heading is the whole
  // topic, so "Reading and analysis" keeps its read.
  static const std::set<std::string, std::less<>> analysis = {
      "analysis", "data analysis", "analysis of data", "analysis of the data",
      "analysis of results", "analysis of the results", "results", "result", "statistics",
      "statistical analysis", "data processing", "data evaluation", "evaluation",
      "interpretation", "interpretation of results", "calculation of results", "data",
      "data handling", "data reduction", "quantification", "quantitation"};
  if (analysis.count(lower))
    return UnitKind::Analysis;
  // "4.3 Biological results", "Typical results": what came out, with the
  // values it had.
  if (lower.ends_with(" results") || lower.ends_with(" result"))
    return UnitKind::Analysis;
  return UnitKind::Procedure;
}

/// "Instruction Manual", "User's Manual": the name of a document, no
/// work by hand.
std::string withoutManualTitles(std::string lower) {
  for (const char *title : {"instruction manual", "instructions manual", "user manual",
                            "user's manual", "users manual", "product manual",
                            "operation manual", "operator's manual", "technical manual",
                            "reference manual", "kit manual"})
    for (size_t at; (at = lower.find(title)) != std::string::npos;)
      lower.replace(at, std::string_view(title).size(), " ");
  return lower;
}

Domain domainOfWords(const std::string &text) {
  std::string lower = withoutManualTitles(text);
  bool person = hasAnyWord(lower, {"manual", "manually", "by hand", "operator", "hand",
                                   "user", "technician", "person", "bench", "offline",
                                   "multichannel"}) ||
                std::any_of(kTeachingPeople.begin(), kTeachingPeople.end(),
                            [&](const std::string &who) { return hasAnyWord(lower, {who}); });
  bool robot = hasAnyWord(lower, {"robot", "robotic", "instrument", "bioforge", "bf1",
                                  "automated", "automatically", "liquid handler", "deck"});
  if (person && robot)
    return Domain::Both;
  return person ? Domain::Person : robot ? Domain::Robot : Domain::Unstated;
}

/// A heading's domain: "Manual part (the BioForge reader has absorbance
/// only)" gives its steps to a person although it names the robot.
Domain domainOfHeading(const std::string &heading) {
  // "Steps (robot unless marked HAND)": what follows "unless" or "except"
  // names the exceptions, which their own steps mark.
  std::string lower = withoutManualTitles(heading);
  for (const char *cut : {" unless ", " except "})
    if (size_t at = lower.find(cut); at != std::string::npos)
      lower.resize(at);
  if (hasAnyWord(lower, {"manual", "manually", "by hand", "hand", "operator", "bench"}))
    return Domain::Person;
  // "THE ROBOT RUN (demonstrator starts the method; class watches)": the
  // title names whose steps follow; a remark in brackets says who else is
  // about.
  if (Domain titled = domainOfWords(withoutBrackets(lower)); titled != Domain::Unstated)
    return titled;
  return domainOfWords(lower);
}

/// The hands a bracketed tag at the start of a unit names ("[HAND]",
/// "(robot)", "[BF]"), or Unstated.
Domain leadingTagDomain(std::string_view text) {
  text = trimView(text);
  if (text.empty() || (text.front() != '[' && text.front() != '('))
    return Domain::Unstated;
  char close = text.front() == '[' ? ']' : ')';
  size_t end = text.find(close);
  if (end == std::string_view::npos || end > 24)
    return Domain::Unstated;
  std::string tag = prose::lowerAscii(text.substr(1, end - 1));
  static const std::set<std::string, std::less<>> person = {
      "hand", "by hand", "manual", "bench", "operator", "op", "user", "you"};
  static const std::set<std::string, std::less<>> robot = {
      "robot", "bf", "bf1", "bf-1", "bioforge", "bioforge-1", "auto", "automated", "deck"};
  if (person.count(tag))
    return Domain::Person;
  if (robot.count(tag))
    return Domain::Robot;
  return Domain::Unstated;
}

//===--- The reader -------------------------------------------------------===//

bool allAdmittedBy(const std::vector<Value> &a, const std::vector<Value> &b);
bool valuesContradict(const std::vector<Value> &a, const std::vector<Value> &b);

/// The longest sentence read as one (longer ones are cut at a clause).
constexpr size_t kMaxSentenceBytes = 1500;

struct Sentence {
  unsigned unit = 0;
  std::string text;
  size_t offset = 0; ///< in the unit's text
  std::vector<Token> tokens;
  bool conditional = false;
  bool loose = false;
  bool firstInUnit = false;
};

/// An action being built from a clause.
struct Draft {
  Action action;
  bool explicitVerb = false;
  size_t firstToken = 0, lastToken = 0;
  bool washNoun = false;
  bool fromRackOrTube = false;
  bool shakerContext = false;
  bool curveWord = false;
  bool insertedBefore = false;
  std::string verb; ///< the verb that named it, lower case
  /// An order of the procedure without values: "Remove the medium." at the
  /// start of a step, or "after removing the medium" in a step's row.
  bool imperative = false;
  bool inParens = false; ///< its first value stands in parentheses
  /// "yes, 3 x 50 uL": a count before a volume and no verb, a repeat whose
  /// kind (mixing, rinsing, adding again) the text does not say.
  bool unstatedRepeat = false;
  bool countFirst = false; ///< a count came before its first value ("3 x 50 uL")
  std::vector<Value> counts; ///< counts not yet given a meaning
};

class Reader {
public:
  Reader(const SourceManager &sources, uint32_t fileId, DiagnosticEngine &diags,
         const Platform &platform)
      : sources_(sources), fileId_(fileId), diags_(diags), platform_(platform),
        text_(sources.contents(fileId)) {}

  std::optional<ProcedureText> run();

private:
  const SourceManager &sources_;
  uint32_t fileId_;
  DiagnosticEngine &diags_;
  const Platform &platform_;
  std::string_view text_;
  std::string revisedText_; ///< the text with tracked changes applied, when it has any
  std::vector<bool> csvRows_;    ///< per line: a row of a CSV table
  std::vector<bool> csvHeaders_; ///< per line: a CSV table's header row
  /// Per line: inside a notebook's code or output cell ("In [3]:" and the
  /// indented lines under it).
  std::vector<bool> codeLines_;
  /// A notebook's named constants (`WASH_VOL_UL = 300`), the last
  /// assignment of each: the steps refer to them by name.
  std::map<std::string, std::string, std::less<>> constants_;
  /// A procedure written as code (readCodeText): each call of a function the
  /// text defines, by line, as the function's body with the call's
  /// arguments in place of its parameters.
  std::map<uint32_t, std::string> callExpansions_;
  /// Per line: inside an `if`, `elif` or `else` block of a procedure
  /// written as code.
  std::vector<bool> branchLines_;
  bool codeText_ = false; ///< the whole procedure is written as code
  /// A thread of numbered posts ("1/10 ...", "2/10 ..."): the count N,
  /// whose "n/N" opens each post as its label; 0 for none.
  unsigned threadTotal_ = 0;
  std::vector<Line> lines_;
  /// The text was rebuilt from lines written elsewhere (a file's history
  /// replayed): where each of its lines is written. Locations are in the
  /// rebuilt text until run() maps them back, last.
  std::vector<RebuiltText::Origin> rebuiltOrigins_;
  void mapLocationsToSource();
  /// Actions that markSummaries took out of the procedure because their
  /// section restates another (indices into out_.actions).
  std::vector<size_t> restatingActions_;
  ProcedureText out_;
  /// Per unit: text offset -> (line, column) pieces.
  std::vector<std::vector<std::pair<size_t, SourceLoc>>> unitMaps_;
  /// Per unit, the offsets of the hyphens that end a line inside a word
  /// ("incu-" over "bated", a typeset column's hyphenation).
  std::map<unsigned, std::set<size_t>> lineEndHyphens_;
  /// A Gherkin feature: its scenarios are parts of one run in turn, never a
  /// summary of one another however alike their steps ("add 20 µL, shake"
  /// for the substrate and again for the stop solution).
  bool scenariosInTurn_ = false;
  std::vector<Sentence> sentences_;
  /// Every unit with each label, in text order: lists that restart their
  /// numbers per section ("3." of the reagent preparation, "3." of the
  /// procedure).
  std::map<std::string, std::vector<unsigned>> labelUnits_;
  /// The unit a reference from `unit` to `label` means: the nearest before
  /// it of the procedure, else the nearest before it.
  std::optional<unsigned> labelBefore(const std::string &label, unsigned unit) const;
  std::vector<char> unitStyle_;     ///< 'p' paragraph, 'l' list, 't' table
  /// List items that open with a sentence of prose, eight words or more
  /// and no verb first ("- The MTT incubation must stay in the CO2
  /// incubator, so that stays a hand step. 3 h for A549."): their later
  /// sentences are prose too. A terse item ("- det. Ab 100 µl, 1 h RT", "-
  /// Add 100 µL capture Ab. Overnight at 4 °C.") is steps as written.
  std::set<unsigned> proseItems_;
  /// The speakers of a dialogue ("SO: Let me say it back."), when the text
  /// is one: names that open two or more lines each, two or more names.
  std::set<std::string, std::less<>> speakers_;
  /// Comments under a post, each ending in "Like · Reply · 3d": their
  /// headers ("Priya Raman • Automation Engineer", "↳ Mariana (Author)")
  /// open turns.
  bool socialComments_ = false;
  bool opensTurn(std::string_view raw) const;
  bool opensPost(std::string_view raw) const;
  /// Whether unit `u`'s first line opens a turn of a conversation.
  bool unitOpensTurn(size_t u) const {
    uint32_t n = out_.units[u].loc.line;
    return n >= 1 && n - 1 < lines_.size() && opensTurn(lines_[n - 1].raw);
  }
  std::vector<bool> unitAfterBlank_;
  std::vector<size_t> unitIndent_;  ///< columns before the line's first character
  /// Whether line `i` (0-based) is a field of a form's header block.
  std::vector<bool> formHeader_;
  void findFormHeaders();
  std::vector<bool> unitBoxed_;     ///< the unit is inside a text box
  /// Per line: whose column of a "ROBOT | BENCH" layout it is in (Both
  /// when it has text in both), Unstated outside one.
  std::vector<Domain> lineColumnDomain_;
  /// Per unit: the same, over the unit's lines.
  std::vector<Domain> unitColumnDomain_;
  /// Per unit: text ranges of table cells that give loads, not steps.
  std::vector<std::vector<std::pair<size_t, size_t>>> unitLoads_;
  /// The lines of text boxes with their frame blanked (same length, so
  /// columns stay those of the file).
  std::deque<std::string> boxLines_;

  bool prescan();
  void splitLines();
  void buildUnits();
  void classifyUnits();
  void markHeaderComment();
  void markTranslations();
  void markForwarded();
  void readNotebookCells();
  void readCodeText();
  void findThreadNumbering();
  std::string codeLineText(uint32_t number, std::string_view text) const;
  void substituteConstants(Line &line) const;
  void markCodeCells();
  void markQuestionThread();
  void maskAmendments();
  void splitSentences();
  void joinHyphenatedWords(unsigned unit, Sentence &s) const;
  void readSentence(unsigned index);
  void resolveSentence(unsigned index, size_t begin);
  bool foldWashCycle(const Sentence &s, size_t begin, size_t repeatAt);
  /// Liquid work of sentence `s` that happens off the plate (in tubes, or
  /// finishing a preparation) becomes part of the preparation.
  void offPlate(const Sentence &s, std::vector<Action> &built) const;
  /// The text names an assay plate and a cell (culture) plate: two plates,
  /// and the robot's is the assay plate.
  bool twoPlates_ = false;
  /// `source` copied to the place of sentence `index` (a reference there
  /// names it), as a step of that sentence's unit.
  Action copyInto(size_t source, const std::string &from, const Sentence &s, unsigned index,
                  SourceLoc at) const {
    Action copy = out_.actions[source];
    copy.copyOf = copy.copyOf >= 0 ? copy.copyOf : static_cast<int>(source);
    if (!copy.copiedLoc.isValid())
      copy.copiedLoc = copy.loc;
    copy.copiedFrom = from;
    copy.loc = at;
    copy.text = s.text;
    copy.sentence = index;
    copy.unit = s.unit;
    copy.orderLoose = false;
    copy.conditional = s.conditional;
    copy.inProcedure = out_.units[s.unit].kind == UnitKind::Procedure ||
                       (out_.units[s.unit].kind == UnitKind::Analysis &&
                        copy.cls == ActionClass::Analyze);
    copy.label = out_.units[s.unit].label;
    return copy;
  }
  void mergeRestatements();
  void orderTableRows();
  void markSummaries();
  void finish();
  void markDeviations();
  void markReplies();
  void markThreadAmendments();
  void markOutlines();
  bool fieldLine(const Action &a) const;
  void markStepComments();
  void markNotApplicableRecords();
  void markWithdrawnClauses();
  void supersedeCopies();
  void markSpeakerNotes();
  void joinKeyValueRecords();
  void markPickUps();
  void markMarginNotes();
  void markCorrections();
  void markSpokenCorrections();
  void readCarriedVolumes();
  bool sectionHeading(const std::string &number) const;
  void markRereadSteps();
  void markMachineReadbacks();
  void markEchoedReads();
  void markFinishedWork();
  bool isTranscript() const;
  void markTranslatedItems();
  void markDisusedMethods();
  void markOlderVersionClauses();
  void markEquipmentCleaning();
  void markPictureDescriptions();
  void markTranscriptAsides();
  void markGameCommands();
  void markCorrectionEntries();
  void markOwnStatementCorrections();
  void markReadBacks();
  void markRecaps();
  void markAnecdotes();
  void markQuotedMistakes();
  void markDemonstrations();
  void markReferencedAnnexes();
  void markUnusedVariations();
  unsigned sectionEnd(unsigned heading) const;
  void orderByItemList();
  void markCoverCorrections();
  void markRunningTallies();
  void markCountRestatements();
  void markReplacedItems();
  /// The actions `rank` names (rank, index), lowest rank first, ties in
  /// the text's order; the others dropped.
  void keepActionsByRank(std::vector<std::pair<int, size_t>> rank);
  void markCommentSection();
  void markFootnotes();
  void markOtherSitesVersions();
  void markRunRecords();
  void markExceptions();
  void markCurrentProcedure();
  void markIntroduction();
  void orderReversedSchedule();
  void markOrderDisclaimer();
  void markStandingPractice();
  void resolveProgramReferences();
  void resolveDefinedTerms();
  void markTagLegends();
  void expandRowSeries();
  /// Actions made by reading (copies of a legend's row, of a series'
  /// first transfer) among the others, in the order of where they stand.
  void insertInTextOrder(std::vector<Action> made);
  SourceLoc locate(unsigned unit, size_t offset, size_t length) const;
  Domain domainAround(const Sentence &s, size_t first, size_t last,
                      const std::vector<std::pair<size_t, size_t>> &spans, size_t self) const;
};

bool Reader::prescan() {
  if (text_.size() > kMaxProtocolBytes) {
    diags_.report(DiagId::ProtocolTextTooLarge, SourceLoc{fileId_, 1, 1, 1}, text_.size(),
                  kMaxProtocolBytes);
    return false;
  }
  uint32_t line = 1;
  size_t lineStart = 0;
  unsigned control = 0;
  for (size_t i = 0; i < text_.size();) {
    unsigned char c = static_cast<unsigned char>(text_[i]);
    size_t n = 1;
    bool bad = false;
    if (c == 0) {
      bad = true;
    } else if (c >= 0x80) {
      n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
      if (n == 0 || i + n > text_.size()) {
        bad = true;
      } else {
        for (size_t k = 1; k < n; ++k)
          if ((static_cast<unsigned char>(text_[i + k]) & 0xC0) != 0x80)
            bad = true;
        if (!bad && ((n == 2 && c < 0xC2) || (n == 4 && c > 0xF4)))
          bad = true;
      }
    } else if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f') {
      ++control;
    }
    if (bad) {
      SourceLoc at{fileId_, line, static_cast<uint32_t>(i - lineStart + 1), 1};
      if (c == 0)
        diags_.report(DiagId::AlignNulByte, at);
      else
        diags_.report(DiagId::AlignNotUtf8, at, static_cast<unsigned>(c));
      return false;
    }
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    }
    i += n;
  }
  if (control > 16 && control * 50 > text_.size()) {
    diags_.report(DiagId::AlignControlCharacters, SourceLoc{fileId_, 1, 1, 1}, control);
    return false;
  }
  if (line > kMaxProtocolLines) {
    diags_.report(DiagId::ProtocolTextTooManyLines, SourceLoc{fileId_, 1, 1, 1}, line,
                  kMaxProtocolLines);
    return false;
  }
  return true;
}

/// The columns of a volumes table that hold what a run uses ("per run",
/// "per plate", "total", "reservoir") beside a column per well: the well's
/// column gives the step's volume, the others are loads of the reservoir.
std::vector<bool> loadColumnsOf(const Line &header) {
  std::vector<bool> load(header.cells.size(), false);
  bool perWell = false;
  for (size_t c = 0; c < header.cells.size(); ++c) {
    std::string lower = prose::lowerAscii(header.cells[c].text);
    bool well = lower.find("per well") != std::string::npos ||
                lower.find("/well") != std::string::npos ||
                lower.find("per-well") != std::string::npos ||
                lower.find("each well") != std::string::npos;
    perWell = perWell || well;
    // "master mix (n + 1 = 28)", "x2 for trough", "for 45 wells": a batch
    // made or loaded for many wells.
    load[c] = !well && (hasAnyWord(lower, {"total", "reservoir", "needed", "required", "load",
                                           "master", "mastermix", "trough", "batch", "wells"}) ||
                        lower.find("n + 1") != std::string::npos ||
                        lower.find("n+1") != std::string::npos ||
                        lower.find("per run") != std::string::npos ||
                        lower.find("per plate") != std::string::npos ||
                        lower.find("per assay") != std::string::npos ||
                        lower.find("per kit") != std::string::npos ||
                        lower.find("per batch") != std::string::npos);
  }
  if (!perWell)
    load.assign(load.size(), false);
  return load;
}

/// Per cell of a table's header, whether its name (lower case, trailing
/// dots and colons dropped) is one of `names`.
std::vector<bool> columnsNamed(const Line &header,
                               const std::set<std::string, std::less<>> &names) {
  std::vector<bool> named(header.cells.size(), false);
  for (size_t c = 0; c < header.cells.size(); ++c) {
    std::string lower = prose::lowerAscii(header.cells[c].text);
    while (!lower.empty() && (lower.back() == '.' || lower.back() == ':' || lower.back() == ' '))
      lower.pop_back();
    named[c] = names.count(lower) > 0;
  }
  return named;
}

/// A batch record's columns of what happened ("Actual", "Recorded",
/// "Performed by", "Checked", "Initials", "Date"): the values in them were
/// measured or signed during a run, not asked for.
std::vector<bool> recordColumnsOf(const Line &header) {
  std::vector<bool> record =
      columnsNamed(header, {"actual", "actual value", "actual values", "recorded",
                            "recorded value", "observed", "measured", "result", "found",
                            "perf", "performed", "performed by", "done by", "checked",
                            "checked by", "check", "verified", "verified by", "initials",
                            "init", "sign", "signature", "signed", "witness", "date",
                            "date/time", "operator"});
  // A method transfer's or a revision's side-by-side table, "Sending lab
  // (manual) | Receiving lab (BioForge-1)", "Old | New": the old side is
  // how it was done, the new side the procedure to run.
  std::vector<bool> oldSide(header.cells.size(), false);
  bool newSide = false;
  for (size_t c = 0; c < header.cells.size(); ++c) {
    std::string lower = prose::lowerAscii(header.cells[c].text);
    bool old = hasAnyWord(lower, {"sending", "sending lab", "originating", "old", "previous",
                                  "original", "before", "legacy", "former", "was"});
    bool fresh = hasAnyWord(lower, {"receiving", "receiving lab", "new", "revised", "after",
                                    "proposed", "updated", "now", "is"});
    oldSide[c] = old && !fresh;
    newSide |= fresh && !old;
  }
  if (newSide)
    for (size_t c = 0; c < record.size(); ++c)
      record[c] = record[c] || oldSide[c];
  return record;
}

/// A batch record's columns of what a step should give: "Expected",
/// "Target", "Specification".
std::vector<bool> expectedColumnsOf(const Line &header) {
  return columnsNamed(header, {"expected", "expected value", "target", "spec", "specification",
                               "setpoint", "set point", "nominal", "limits", "acceptance"});
}

/// What the columns of the table being read hold, from its header.
struct TableColumns {
  std::vector<bool> load, record, expected, who, remark;
  std::vector<std::string> units;
  void readHeader(const Line &header) {
    load = loadColumnsOf(header);
    record = recordColumnsOf(header);
    expected = expectedColumnsOf(header);
    who = columnsNamed(header, {"who", "by", "by whom", "executor", "hands"});
    remark = columnsNamed(header, {"notes", "note", "remarks", "remark", "comments", "comment"});
    units.assign(header.cells.size(), std::string());
    for (size_t c = 0; c < header.cells.size(); ++c)
      units[c] = unitOfName(header.cells[c].text);
  }
  void clear() { *this = TableColumns(); }
  bool empty() const { return load.empty() && record.empty() && expected.empty(); }
  void giveTo(Line &row) const {
    row.loadColumns = load;
    row.recordColumns = record;
    row.expectedColumns = expected;
    row.unitColumns = units;
    row.whoColumns = who;
    row.remarkColumns = remark;
  }
};

/// A protocol laid out in two columns for two pairs of hands ("ROBOT |
/// BENCH" over a rule, then rows of "robot work | bench work"): per line,
/// the pipe's offset in the raw line (npos outside such a layout; the
/// header and the rule get 0 and are blanked) and the two columns' domains.
struct SplitColumns {
  std::vector<size_t> pipe;
  std::vector<std::pair<Domain, Domain>> domains;
};

SplitColumns splitColumnsOf(const std::vector<std::string_view> &raws) {
  SplitColumns out{std::vector<size_t>(raws.size(), std::string_view::npos),
                   std::vector<std::pair<Domain, Domain>>(raws.size())};
  auto rule = [](std::string_view t) {
    return t.size() >= 3 && t.find_first_not_of("-+|=: ") == std::string_view::npos &&
           t.find('-') != std::string_view::npos;
  };
  for (size_t k = 0; k + 1 < raws.size(); ++k) {
    std::string_view raw = raws[k];
    size_t bar = raw.find('|');
    if (bar == std::string_view::npos || raw.find('|', bar + 1) != std::string_view::npos)
      continue;
    std::string left = prose::lowerAscii(trimView(raw.substr(0, bar)));
    std::string right = prose::lowerAscii(trimView(raw.substr(bar + 1)));
    if (left.empty() || right.empty() || left.size() > 40 || right.size() > 40)
      continue;
    Domain l = domainOfHeading(left), r = domainOfHeading(right);
    bool split = (l == Domain::Robot && r == Domain::Person) ||
                 (l == Domain::Person && r == Domain::Robot);
    if (!split || !rule(trimView(raws[k + 1])))
      continue;
    out.pipe[k] = out.pipe[k + 1] = 0;
    size_t j = k + 2;
    for (; j < raws.size(); ++j) {
      std::string_view row = raws[j];
      size_t at = row.find('|');
      // The layout ends at a blank line or a line whose pipe is elsewhere.
      if (trimView(row).empty() || at == std::string_view::npos || at + 2 < bar || at > bar + 2)
        break;
      out.pipe[j] = at;
      out.domains[j] = {l, r};
    }
    k = j - 1;
  }
  return out;
}

/// The text's lines, without their line breaks.

void Reader::splitLines() {
  std::vector<std::string_view> raws = prose::textLines(text_);
  std::vector<bool> innerTable = innerPipeTables(raws);
  for (size_t k = 0; k < innerTable.size() && k < csvRows_.size(); ++k)
    innerTable[k] = innerTable[k] || csvRows_[k];
  SplitColumns split = splitColumnsOf(raws);
  // An e-mail that quotes ("> " before each line of the message it answers,
  // ">> " before the one that message quoted) draws its quote marks in the
  // margin: blanked, the quoted text reads as the text it was, wrapped
  // lines, numbered steps and all. A line of quote marks alone (">", ">>")
  // or a second level tells e-mail quoting from a list bulleted with ">".
  auto quoteMarks = [](std::string_view raw) -> size_t {
    size_t k = 0;
    while (k < raw.size() && (raw[k] == ' ' || raw[k] == '\t'))
      ++k;
    size_t marks = 0, end = 0;
    while (k < raw.size() && raw[k] == '>') {
      ++marks;
      end = ++k;
      if (k < raw.size() && raw[k] == ' ' && k + 1 < raw.size() && raw[k + 1] == '>')
        ++k;
    }
    if (marks == 0 || (end < raw.size() && raw[end] != ' ' && raw[end] != '\t'))
      return 0;
    return end;
  };
  bool mailQuotes = std::any_of(raws.begin(), raws.end(), [&](std::string_view raw) {
    size_t end = quoteMarks(raw);
    std::string_view rest = end ? trimView(raw.substr(end)) : raw;
    return end > 0 && (rest.empty() || std::count(raw.begin(), raw.begin() + static_cast<long>(end), '>') > 1);
  });
  // So does a quoted line indented deeper than the quoted line above it
  // ('> "Wash 4 times,' over '>  300 microlitres of wash buffer each'):
  // a quotation wrapped in the margin, which no bullet does.
  auto textColumn = [&](std::string_view raw, size_t end) {
    size_t k = end;
    while (k < raw.size() && (raw[k] == ' ' || raw[k] == '\t'))
      ++k;
    return k - end;
  };
  for (size_t n = 1; n < raws.size() && !mailQuotes; ++n) {
    size_t end = quoteMarks(raws[n]), above = quoteMarks(raws[n - 1]);
    mailQuotes = end > 0 && above > 0 && end == above &&
                 !trimView(raws[n - 1].substr(above)).empty() &&
                 !trimView(raws[n].substr(end)).empty() &&
                 textColumn(raws[n], end) > textColumn(raws[n - 1], above);
  }
  // "Step                    Notes" over rows whose remarks stand in a
  // column of their own, spaced without pipes: a row's step wraps in the
  // left column while its notes wrap in the right ("Reads absorbance at
  // 450 nm, reference     Read straight after the stop" over "620 nm."),
  // so line by line the two interleave. The notes column is remarks: it is
  // blanked, and the steps read whole.
  std::vector<size_t> notesFrom(raws.size(), std::string_view::npos);
  {
    static const std::set<std::string, std::less<>> stepHeads = {
        "step", "steps", "action", "actions", "instruction", "instructions", "task", "procedure"};
    static const std::set<std::string, std::less<>> noteHeads = {
        "notes", "note", "comments", "comment", "remarks", "tips", "hints"};
    size_t gutter = std::string_view::npos;
    for (size_t n = 0; n < raws.size(); ++n) {
      std::string_view raw = raws[n];
      std::string_view trimmed = trimView(raw);
      size_t run = trimmed.find("   ");
      if (run != std::string_view::npos) {
        std::string left = prose::lowerAscii(trimView(trimmed.substr(0, run)));
        std::string right = prose::lowerAscii(trimView(trimmed.substr(run)));
        if (stepHeads.count(left) && noteHeads.count(right)) {
          gutter = raw.rfind(trimView(trimmed.substr(run)));
          continue;
        }
      }
      if (gutter == std::string_view::npos || trimmed.empty())
        continue;
      // Past the gutter only with spaces before it; a line of prose across
      // it ends the layout.
      if (raw.size() > gutter && !(raw[gutter - 1] == ' ' && raw[gutter - 2] == ' ')) {
        gutter = std::string_view::npos;
        continue;
      }
      if (raw.size() > gutter)
        notesFrom[n] = gutter;
    }
  }
  int tableHead = -1; ///< the table row a continuation line would join
  int columnsHead = -1; ///< the space-aligned row a wrapped cell would join
  TableColumns columns; ///< of the table the lines are in
  bool boxOpen = false;
  size_t start = 0;
  uint32_t number = 1;
  while (start <= text_.size()) {
    size_t end = text_.find('\n', start);
    if (end == std::string_view::npos)
      end = text_.size();
    Line line;
    line.number = number++;
    line.raw = text_.substr(start, end - start);
    if (!line.raw.empty() && line.raw.back() == '\r')
      line.raw.remove_suffix(1);
    line.offset = start;
    // Each column of a two-handed layout reads as its own text: the other
    // column and the pipe are blanked (offsets kept, so locations hold);
    // a line with text on both sides keeps both, a clause each.
    Domain columnDomain = Domain::Unstated;
    if (size_t k = line.number - 1; k < split.pipe.size() && split.pipe[k] != std::string_view::npos) {
      std::string &blanked = boxLines_.emplace_back(line.raw);
      size_t bar = split.pipe[k];
      if (split.domains[k].first == Domain::Unstated) {
        blanked.assign(blanked.size(), ' '); // the header or the rule
      } else if (bar < blanked.size()) {
        bool leftText = !trimView(std::string_view(blanked).substr(0, bar)).empty();
        bool rightText = !trimView(std::string_view(blanked).substr(bar + 1)).empty();
        blanked[bar] = leftText && rightText ? ';' : ' ';
        columnDomain = leftText && rightText ? Domain::Both
                       : leftText            ? split.domains[k].first
                       : rightText           ? split.domains[k].second
                                             : Domain::Unstated;
      }
      line.raw = blanked;
    }
    lineColumnDomain_.push_back(columnDomain);
    if (size_t k = line.number - 1; k < notesFrom.size() && notesFrom[k] != std::string_view::npos &&
                                    notesFrom[k] < line.raw.size()) {
      std::string &blanked = boxLines_.emplace_back(line.raw);
      for (size_t c = notesFrom[k]; c < blanked.size(); ++c)
        blanked[c] = ' ';
      line.raw = blanked;
    }
    if (size_t end = mailQuotes ? quoteMarks(line.raw) : 0; end > 0) {
      std::string &blanked = boxLines_.emplace_back(line.raw);
      for (size_t k = 0; k < end; ++k)
        blanked[k] = ' ';
      line.raw = blanked;
      line.quoted = true;
    }
    std::string_view trimmed = trimView(line.raw);
    line.blank = trimmed.empty();
    // A box drawn around a warning or a tip ("+---+" above and below, "|"
    // at both sides) is no table: its lines are wrapped prose, read once the
    // frame is blanked out.
    if (!line.blank && boxBorder(trimmed)) {
      line.separator = true;
      boxOpen = true;
      // A grid table ("+----+------+" between its rows): the row between
      // the top border and the next is its header.
      size_t n = lines_.size();
      if (n >= 2 && lines_[n - 1].table && !lines_[n - 1].separator && lines_[n - 2].separator &&
          (n < 3 || !lines_[n - 3].table) && columns.empty() &&
          trimmed.find('+', 1) < trimmed.size() - 1)
        columns.readHeader(lines_[n - 1]);
    } else if (!line.blank && tableRule(trimmed) && !lines_.empty() && lines_.back().table &&
               !lines_.back().separator) {
      // "-----+-----+----" under "Step | Instruction | Actual": the header's
      // rule, drawn without outer pipes.
      line.table = true;
      line.separator = true;
      boxOpen = false;
      columns.readHeader(lines_.back());
    } else if (!line.blank && horizontalRule(trimmed)) {
      // "=====" under a notebook's header, "-----" between sections: a
      // break, like a blank line, never the start of the next line's text.
      line.separator = true;
      boxOpen = false;
    } else if (!line.blank && boxOpen && boxSide(trimmed)) {
      std::string &framed = boxLines_.emplace_back(line.raw);
      framed[framed.find('|')] = ' ';
      framed[framed.rfind('|')] = ' ';
      line.raw = framed;
      line.boxed = true;
      trimmed = trimView(line.raw);
      line.blank = trimmed.empty();
    } else {
      boxOpen = false;
    }
    if (!line.blank && !line.separator) {
      // In a table without outer pipes a wrapped row's line starts with the
      // pipe after its empty first cell.
      parseTableRow(line, !(line.number - 1 < innerTable.size() && innerTable[line.number - 1]));
      // A CSV table's first row names its columns; no rule follows it.
      if (line.table && line.number - 1 < csvHeaders_.size() && csvHeaders_[line.number - 1]) {
        columns.readHeader(line);
        line.separator = true;
      }
      // The rule under a table's first row makes that row its header.
      if (line.table && line.separator && !lines_.empty() && lines_.back().table &&
          !lines_.back().separator)
        columns.readHeader(lines_.back());
      if (!line.table)
        columns.clear();
      if (line.table && !line.separator && !columns.empty()) {
        columns.giveTo(line);
        fillTableRow(line);
      }
      // A row wrapped over several lines ("| 3 | Coat | 100 µL | overnight" over
      // "|   |      |        | (16-18 h)"): each cell continues in the cell below.
      if (line.table && !line.separator && tableHead >= 0 &&
          continuesRow(lines_[static_cast<size_t>(tableHead)], line)) {
        Line &head = lines_[static_cast<size_t>(tableHead)];
        for (size_t c = 1; c < line.cells.size() && c < head.cells.size(); ++c) {
          if (line.cells[c].text.empty())
            continue;
          Line::Cell &cell = head.cells[c];
          if (!cell.text.empty())
            cell.text += ' ';
          for (const Line::Piece &piece : line.cells[c].pieces)
            cell.pieces.push_back({cell.text.size() + piece.text, piece.raw, line.number});
          cell.text += line.cells[c].text;
        }
        fillTableRow(head);
        line.merged = true;
      }
      if (!line.table || line.separator)
        tableHead = -1;
      else if (!line.merged)
        tableHead = static_cast<int>(lines_.size());
      if (!line.table) {
        parseStart(line);
        // "... which starts at roughly 0.9 to" over "1.0 absorbance units
        // at 595 nm": a sentence broken after a word that wants what comes
        // next goes on with a number, however much it looks like a
        // section's label.
        if (line.label.find('.') != std::string::npos && !lines_.empty() &&
            continuesMidPhrase(lines_.back(), line))
          line.label.clear();
        if (threadTotal_ > 0 && line.label.empty() && !line.bullet)
          if (auto post = threadPostNumber(line.raw); post && post->second == threadTotal_) {
            line.label = std::to_string(post->first);
            line.content = post->content;
          }
        if (!line.bullet && line.label.empty())
          line.content = static_cast<size_t>(trimmed.data() - line.raw.data());
        std::string_view content = trimView(line.raw.substr(std::min(line.content, line.raw.size())));
        std::string_view unmarked = withoutWikiHeadingMarks(content);
        line.marked = unmarked.size() != content.size();
        content = unmarked;
        line.content = static_cast<size_t>(content.data() - line.raw.data());
        line.text = withoutStruckText(content);
        line.pieces.push_back({0, line.content, 0});
        if (codeText_ && !(line.number - 1 < codeLines_.size() && codeLines_[line.number - 1])) {
          // The call reads as its body, its names as their values; every
          // piece of it is placed at the call.
          line.text = codeLineText(line.number, line.text);
          line.pieces = {{0, line.content, 0}};
        } else if (!constants_.empty() &&
                   !(line.number - 1 < codeLines_.size() && codeLines_[line.number - 1])) {
          substituteConstants(line);
        }
        // A notebook's key with the unit in its name, "step_06.volume_ul:
        // 100", "incubation_min: 60": the value takes that unit.
        if (std::string key = colonPrefix(line.text); !key.empty()) {
          std::string_view value = trimView(std::string_view(line.text).substr(key.size() + 1));
          size_t dot = key.rfind('.');
          std::string unit = unitOfName(dot == std::string::npos ? key : key.substr(dot + 1));
          if (!unit.empty() && bareNumbers(value) && key.find(' ') == std::string::npos)
            line.text += " " + unit;
        }
      }
      // Columns aligned with runs of spaces (a table without pipes) read
      // as cells: "Diluted serum   100 µL   60 min" is "..., 100 µL, 60 min".
      {
        unsigned runs = 0;
        auto run = [&](size_t k) {
          return k + 3 < line.text.size() && line.text[k] != ' ' && line.text[k + 1] == ' ' &&
                 line.text[k + 2] == ' ' && line.text[k + 3] == ' ';
        };
        for (size_t k = 0; k < line.text.size(); ++k)
          runs += run(k);
        // Tab-separated cells ("Sulfanilamide<TAB>50<TAB>5-10 min") too.
        unsigned tabs = static_cast<unsigned>(std::count(line.text.begin(), line.text.end(), '\t'));
        if (tabs >= 2 && runs < 2) {
          for (size_t k = 0; k + 1 < line.text.size(); ++k)
            if (line.text[k] == '\t' && k > 0 && line.text[k - 1] != ',' && line.text[k - 1] != '\t')
              line.text[k] = ',';
          for (char &c : line.text)
            if (c == '\t')
              c = ' ';
          line.columns = true;
        }
        if (runs >= 2) {
          line.columns = true;
          for (size_t k = 0; k < line.text.size(); ++k)
            if (run(k) && line.text[k] != ',')
              line.text[k + 1] = ',';
        }
      }
      // A cell of such a table wrapped onto a line of its own, indented to
      // its column ("13   450 nm only   450 nm with a reference" over
      // "                 wavelength of 620-650 nm"), continues the row: it
      // is no step of its own.
      if (!line.table && !line.columns && !line.bullet && columnsHead >= 0 &&
          wrapsColumnCell(lines_[static_cast<size_t>(columnsHead)].raw, line.raw)) {
        Line &head = lines_[static_cast<size_t>(columnsHead)];
        head.text += ' ';
        head.pieces.push_back({head.text.size(), line.content, line.number});
        head.text += line.text;
        line.merged = true;
      }
      if (line.columns)
        columnsHead = static_cast<int>(lines_.size());
      else if (!line.merged)
        columnsHead = -1;
      // Dotted leaders ("Sample volume ...... 5 µl") read as a colon.
      size_t dots;
      while ((dots = line.text.find("...")) != std::string::npos) {
        size_t end2 = dots;
        while (end2 < line.text.size() && line.text[end2] == '.')
          ++end2;
        if (end2 - dots < 3)
          break;
        // Keep offsets: replace the dots by ':' and spaces of equal length.
        bool leader = end2 - dots >= 4 || (end2 < line.text.size() && line.text[end2] == ' ');
        // "then B → C, ... down to row G": three dots after a comma leave
        // out the middle of a series, an ellipsis (as many bytes).
        size_t before = dots;
        while (before > 0 && line.text[before - 1] == ' ')
          --before;
        if (end2 - dots == 3 && before > 0 && line.text[before - 1] == ',') {
          line.text.replace(dots, 3, "…");
          continue;
        }
        if (!leader)
          break;
        line.text[dots] = ':';
        for (size_t k = dots + 1; k < end2; ++k)
          line.text[k] = ' ';
      }
    }
    if (line.blank || line.separator)
      tableHead = columnsHead = -1;
    if (line.blank)
      columns.clear();
    lines_.push_back(std::move(line));
    if (end == text_.size())
      break;
    start = end + 1;
  }
  // "6.2 30 s bei 1000 rpm schütteln." over "6.2 Shake for 30 s at 1000
  // rpm.": a step told twice, line by line (a bilingual SOP), whose text
  // opens with a quantity has the label its neighbour has.
  for (size_t i = 0; i < lines_.size(); ++i) {
    Line &line = lines_[i];
    if (!line.label.empty() || line.blank || line.table || line.bullet)
      continue;
    Line probe = line;
    parseStart(probe, /*quantityFirstOk=*/true);
    if (probe.label.empty())
      continue;
    bool neighbour = (i > 0 && lines_[i - 1].label == probe.label) ||
                     (i + 1 < lines_.size() && lines_[i + 1].label == probe.label);
    if (neighbour) {
      line.label = probe.label;
      line.content = probe.content;
    }
  }
  joinKeyValueRecords();
}

/// A notebook's export writes a step as a record of keys that share a
/// prefix, a line each ("step_14.action: wash", "step_14.cycles: 5",
/// "step_14.volume_ul: 300"): the record reads as one line, its values
/// joined with ", " as a table row's cells are.
void Reader::joinKeyValueRecords() {
  auto recordOfLine = [](const Line &line) -> std::string {
    if (line.blank || line.separator || line.table || line.merged)
      return "";
    return recordOf(line.text);
  };
  for (size_t i = 0; i < lines_.size(); ++i) {
    std::string record = recordOfLine(lines_[i]);
    if (record.empty())
      continue;
    Line &head = lines_[i];
    size_t j = i + 1;
    for (; j < lines_.size() && recordOfLine(lines_[j]) == record; ++j) {
      Line &next = lines_[j];
      size_t colon = next.text.find(':');
      size_t value = next.text.find_first_not_of(' ', colon + 1);
      if (value == std::string::npos)
        continue; // an empty key: nothing to add
      head.text += ", ";
      head.pieces.push_back({head.text.size(), next.content + value, next.number});
      head.text += next.text.substr(value);
      // "step_14.cycles: 5": a count named by its key.
      std::string name = prose::lowerAscii(next.text.substr(record.size(), colon - record.size()));
      if ((name == "cycles" || name == "times" || name == "repeats" || name == "repetitions" ||
           name == "washes" || name == "count") &&
          bareNumbers(next.text.substr(value)))
        head.text += " times";
      next.merged = true;
    }
    i = j - 1;
  }
}

/// Names of a curve or its model, which the verb table lists so that they
/// make an analysis, though they are nouns.
bool curveModelWord(std::string_view lower) {
  return lower == "curve" || lower == "regression" || lower == "logistic" || lower == "4-pl" ||
         lower == "4pl" || lower == "4-param" || lower == "four-parameter" ||
         lower == "4-parameter" || lower == "5-pl" || lower == "5pl";
}

/// "prepared", "coated": a past participle of the verb table's kind.
bool participle(const std::string &word) {
  return word.size() > 4 && word.compare(word.size() - 2, 2, "ed") == 0 && isAnyVerb(word);
}

/// "Coat: 100 uL/well capture Ab, o/n 4 C", "Add 50 µl of ...": an order
/// (a verb, not a participle that names a thing: "Coated microplate") with
/// a number in it.
bool opensWithOrderAndValue(std::string_view text) {
  std::string word = firstWordLower(text);
  // "Seed 5,000 cells/well" is an order whose verb ends as a participle does.
  bool participle = word.size() > 2 && word.compare(word.size() - 2, 2, "ed") == 0 &&
                    word != "seed" && word != "feed" && word != "embed";
  return !participle && isAnyVerb(word) &&
         std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// "bf-chitinase --samples=12 --dilution=1:5 --incubation-min=60 \\": a
/// command (a lower-case word) followed by two or more long options.
bool commandInvocation(std::string_view text) {
  text = trimView(text);
  size_t space = text.find(' ');
  if (space == std::string_view::npos || space == 0)
    return false;
  std::string_view command = text.substr(0, space);
  if (!std::all_of(command.begin(), command.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
               c == '-' || c == '_' || c == '.' || c == '/';
      }))
    return false;
  unsigned options = 0;
  for (size_t at = text.find(" --"); at != std::string_view::npos; at = text.find(" --", at + 3))
    options += at + 3 < text.size() && std::islower(static_cast<unsigned char>(text[at + 3]));
  return options >= 2;
}

/// A turn's time and speaker ("[08:47:45] Assistant: ", "Tom: ", "PRIYA
/// (off-panel): "): the length of that prefix, or 0.
size_t turnPrefix(std::string_view text) {
  std::string_view rest = text;
  while (!rest.empty() && rest.front() == ' ')
    rest.remove_prefix(1);
  if (!rest.empty() && rest.front() == '[') {
    size_t close = rest.find(']');
    if (close == std::string_view::npos || close > 30)
      return 0;
    rest.remove_prefix(close + 1);
    while (!rest.empty() && rest.front() == ' ')
      rest.remove_prefix(1);
  }
  size_t colon = rest.find(": ");
  // A name's letters may be accented ("TOMÁS:", "Zoë:"): UTF-8 bytes.
  auto letter = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80;
  };
  if (colon == std::string_view::npos || colon == 0 || colon > 24 || !letter(rest.front()) ||
      !std::all_of(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(colon), [&](char c) {
        return letter(c) || c == '.' || c == '_' || c == ' ' || c == '(' || c == ')' || c == '-';
      }))
    return 0;
  // "Step (robot): ...", "Note: ...": a field or a step's label, no speaker.
  static const std::set<std::string, std::less<>> notSpeakers = {
      "step", "steps", "day", "part", "stage", "phase", "note", "notes", "tip", "robot",
      "manual", "hand", "by", "caution", "warning", "important", "then", "next", "before",
      "after", "prep", "reagents", "materials", "plate", "wash", "read", "stop", "result"};
  std::string first = prose::lowerAscii(rest.substr(0, rest.find_first_of(" (:")));
  if (notSpeakers.count(first))
    return 0;
  return text.size() - rest.size() + colon + 2;
}

/// Who opens a dialogue's turn ("[00:04:02] Tomasz Wojcik: ..."), in lower
/// case with its colon; empty for a line that opens none.
std::string turnSpeaker(std::string_view text) {
  return prose::lowerAscii(trimView(text.substr(0, turnPrefix(text))));
}

bool startsWithVerb(std::string_view text) {
  std::string word = firstWordLower(text);
  if (word == "+" || word.rfind("+", 0) == 0)
    return true;
  if (!isAnyVerb(word))
    return word == "cover" || word == "seal" || word == "let" || word == "allow" ||
           word == "repeat" || word == "then" || word == "next";
  return true;
}

/// "[0064] In some embodiments the absorbance is measured at about 400 nm
/// to about 420 nm ... The amount of pNP is determined by reference to a
/// standard curve": a patent's paragraph of embodiments says what the
/// method may be, not what was done (that is the Example's); one of
/// definitions ("As used herein, ...") says what its words mean.
bool describesEmbodiments(std::string_view text) {
  std::string_view t = trimView(text);
  if (!t.empty() && t.front() == '[') {
    size_t close = t.find(']');
    if (close != std::string_view::npos && close <= 8)
      t = trimView(t.substr(close + 1));
  }
  std::string lower = prose::lowerAscii(t.substr(0, std::min<size_t>(t.size(), 48)));
  for (std::string_view start : {"in some embodiments", "in other embodiments",
                                 "in certain embodiments", "in one embodiment",
                                 "in another embodiment", "in further embodiments",
                                 "in alternative embodiments", "in various embodiments",
                                 "in yet other embodiments", "in some aspects",
                                 "in preferred embodiments", "in a preferred embodiment",
                                 // "[0052] As used herein, the term "about" ...
                                 // "about 100 µL" encompasses 90 µL to 110 µL":
                                 // what the patent's words mean.
                                 "as used herein"})
    if (lower.rfind(start, 0) == 0)
      return true;
  return false;
}

/// "Before step 5.1 the operator prepares, in RD:", "For each plate we
/// need:": a clause that ends in a colon, not a heading's name ("Reagents:",
/// "Day 2, on the robot:").
bool sentenceLeadIn(std::string_view text) {
  std::string_view t = trimView(text);
  if (t.empty() || t.back() != ':' || allCapsHeading(t))
    return false;
  std::vector<Token> toks = prose::tokenize(t);
  if (toks.size() < 5 || !toks.front().isWord())
    return false;
  static const std::set<std::string, std::less<>> opener = {"before", "after", "once", "when",
                                                            "while", "prior", "until"};
  static const std::set<std::string, std::less<>> subject = {"we", "you", "i", "operator",
                                                             "technician", "user", "analyst"};
  if (!opener.count(toks.front().lower))
    return false;
  return std::any_of(toks.begin() + 1, toks.end(),
                     [](const Token &w) { return subject.count(w.lower) > 0; });
}

/// A line ending in a colon that is a sentence of prose: a capital, then
/// at least four more words in lower case, no verb first ("Add the
/// following:" gives an order) and no word that announces a procedure
/// ("The assay is done as follows:").
bool leadsIntoExplanation(std::string_view text, const std::string &lower) {
  std::string_view t = trimView(text);
  if (t.size() < 2 || t.back() != ':' || !(t[0] >= 'A' && t[0] <= 'Z') || startsWithVerb(t))
    return false;
  size_t lowerWords = 0, words = 0;
  for (size_t k = 0; k < t.size();) {
    size_t end = t.find(' ', k);
    if (end == std::string_view::npos)
      end = t.size();
    if (end > k) {
      ++words;
      if (words > 1 && t[k] >= 'a' && t[k] <= 'z')
        ++lowerWords;
    }
    k = end + 1;
  }
  return lowerWords >= 4 && lowerWords + 1 >= words &&
         !hasAnyWord(lower, {"follows", "following", "procedure", "protocol", "method", "steps",
                             "step", "below", "performed", "carried out", "run", "robot"});
}

/// "Wash", "Shake plate", "Read": a step's title that is its verb, in a
/// notebook that gives the step's values as fields on the lines below.
bool verbTitle(std::string_view text) {
  std::string_view t = trimView(text);
  size_t words = static_cast<size_t>(std::count(t.begin(), t.end(), ' ')) + 1;
  return !t.empty() && words <= 3 && startsWithVerb(t) &&
         t.find_first_of("0123456789:,;.") == std::string_view::npos;
}

/// "Volume: 300 ul/well, 5 cycles", "Target: rows A-F", "Duration: 2 h": a
/// field that gives an action's parameters (a comment is read on its own).
bool parameterField(std::string_view text) {
  static const std::set<std::string, std::less<>> fields = {
      "volume", "vol", "volumes", "amount", "target", "wells", "cycles", "repeats",
      "speed", "wavelength", "filter", "reagent", "liquid", "dispense volume",
      "duration", "time", "temperature", "temp"};
  return fields.count(prose::lowerAscii(colonPrefix(trimView(text)))) > 0;
}

/// The keys of a field that a protocols.io export puts on a line of its own
/// under a step ("Amount 100 µL", "Duration 00:30:00", "Shaker 500 rpm").
const std::set<std::string, std::less<>> &stepFieldKeys() {
  static const std::set<std::string, std::less<>> keys = {
      "amount", "volume", "duration", "time", "temperature", "temp", "shaker", "shaking",
      "speed", "wavelength"};
  return keys;
}

/// A field whose value carries its own unit ("Volume: 300 ul",
/// "Speed: 600 rpm"); "Cycles: 5" needs its name to mean anything.
bool selfDescribingField(std::string_view text) {
  static const std::set<std::string, std::less<>> fields = {
      "volume", "vol", "volumes", "amount", "speed", "wavelength", "filter", "dispense volume",
      "duration", "time", "temperature", "temp"};
  return fields.count(prose::lowerAscii(colonPrefix(trimView(text)))) > 0;
}

/// The fields of a line: "Study no.: 24-1187     Test item: TI-0423" has
/// two, a field after a run of three spaces counting as a new one.
unsigned fieldsOnLine(std::string_view text) {
  if (colonPrefix(text).empty())
    return 0;
  unsigned fields = 1;
  for (size_t gap = text.find("   "); gap != std::string_view::npos;
       gap = text.find("   ", gap + 3)) {
    size_t next = text.find_first_not_of(' ', gap);
    if (next != std::string_view::npos && !colonPrefix(text.substr(next)).empty() &&
        colonPrefix(text.substr(next)).size() <= 24)
      ++fields;
  }
  return fields;
}

/// A form's header ("Study no.: ...   Test item: ...", "Extraction: 3
/// cm2/mL, 37 °C, 24 h", "Cells: L929     Plate: 96-well"): a block of at
/// least three lines of fields, one of which holds two side by side. It
/// records the study, not the steps. A quick card's "Coat: 100 µl, o/n"
/// lines hold one field each.
void Reader::findFormHeaders() {
  formHeader_.assign(lines_.size(), false);
  size_t i = 0;
  while (i < lines_.size()) {
    if (lines_[i].blank || lines_[i].separator) {
      ++i;
      continue;
    }
    size_t end = i;
    unsigned fieldLines = 0, doubled = 0;
    while (end < lines_.size() && !lines_[end].blank && !lines_[end].separator) {
      unsigned fields = lines_[end].table || !lines_[end].label.empty() || lines_[end].bullet
                            ? 0
                            : fieldsOnLine(lines_[end].text);
      fieldLines += fields > 0;
      doubled += fields > 1;
      ++end;
    }
    if (fieldLines >= 3 && doubled > 0)
      for (size_t k = i; k < end; ++k)
        formHeader_[k] = fieldsOnLine(lines_[k].text) > 0;
    i = end;
  }
}

/// "Fig. 2: ...", "Figure 3. ...", "Table 1 - ...", "Suppl. Fig. S2:": a
/// caption's opening, its number then a colon, a full stop or a dash.
bool figureCaption(std::string_view text) {
  std::string lower = prose::lowerAscii(trimView(text));
  // "[Fig. 3. ...]": a caption set apart in brackets.
  if (!lower.empty() && (lower.front() == '[' || lower.front() == '('))
    lower.erase(0, 1);
  for (std::string_view lead : {"suppl. ", "supplementary "})
    if (lower.rfind(lead, 0) == 0)
      lower.erase(0, lead.size());
  size_t k = 0;
  for (std::string_view word : {"figure", "fig.", "fig", "table"})
    if (lower.rfind(word, 0) == 0) {
      k = word.size();
      break;
    }
  if (k == 0)
    return false;
  while (k < lower.size() && lower[k] == ' ')
    ++k;
  if (k < lower.size() && lower[k] == 's') // "Fig. S2"
    ++k;
  size_t digits = k;
  while (k < lower.size() && (isDigitChar(lower[k]) || (k > digits && lower[k] >= 'a' && lower[k] <= 'h')))
    ++k;
  if (k == digits || k >= lower.size())
    return false;
  if (lower[k] == ':' || lower[k] == '.')
    return true;
  return lower.compare(k, 2, " -") == 0 || lower.compare(k, 4, " \u2013") == 0 ||
         lower.compare(k, 4, " \u2014") == 0;
}

/// Its first two words are in capitals, three letters or more each
/// ("IN-CELL VIABILITY CARD -- ...", "RUN SHEET - ...").
bool opensInCapitals(std::string_view text) {
  std::string_view t = trimView(text);
  unsigned words = 0;
  size_t i = 0;
  while (words < 2 && i < t.size()) {
    size_t end = t.find(' ', i);
    std::string_view word = t.substr(i, end == std::string_view::npos ? t.size() - i : end - i);
    unsigned letters = 0;
    for (char c : word) {
      if (std::islower(static_cast<unsigned char>(c)))
        return false;
      letters += std::isupper(static_cast<unsigned char>(c)) ? 1 : 0;
    }
    if (letters < 3)
      return false;
    ++words;
    if (end == std::string_view::npos)
      break;
    i = t.find_first_not_of(' ', end);
    if (i == std::string_view::npos)
      break;
  }
  return words == 2;
}

/// "[09:12] mara.k: my checklist then:", "09:12 dev.p: ...": a line of an
/// exported chat that opens a speaker's turn.
bool opensChatTurn(std::string_view line) {
  std::string_view raw = trimView(line);
  size_t k = raw.rfind('[', 0) == 0 ? 1 : 0, digits = 0;
  // An export that dates each message ("[12/03/2025 15:48] Daniel Okafor",
  // "[2025-03-12 15:48] ...") puts the name after the stamp and the
  // message on the lines below it.
  bool dated = false;
  {
    size_t d = k, fields = 0, run = 0;
    while (d < raw.size() && (std::isdigit(static_cast<unsigned char>(raw[d])) || raw[d] == '/' ||
                              raw[d] == '-' || raw[d] == '.')) {
      if (std::isdigit(static_cast<unsigned char>(raw[d])))
        ++run;
      else if (run > 0 && run <= 4)
        ++fields, run = 0;
      else
        break;
      ++d;
    }
    if (fields == 2 && run >= 2 && run <= 4 && d < raw.size() && (raw[d] == ' ' || raw[d] == ',')) {
      while (d < raw.size() && (raw[d] == ' ' || raw[d] == ','))
        ++d;
      k = d;
      dated = true;
    }
  }
  while (k < raw.size() && std::isdigit(static_cast<unsigned char>(raw[k])))
    ++k, ++digits;
  if (digits < 1 || digits > 2 || k + 3 > raw.size() || raw[k] != ':' ||
      !std::isdigit(static_cast<unsigned char>(raw[k + 1])) ||
      !std::isdigit(static_cast<unsigned char>(raw[k + 2])))
    return false;
  size_t colon = raw.find(':', k + 3);
  if (colon != std::string_view::npos && colon < k + 40)
    return true;
  if (!dated)
    return false;
  // The dated header's name alone after the closing bracket: a few words
  // without digits.
  size_t close = raw.find(']', k + 3);
  if (close == std::string_view::npos || close > k + 12)
    return false;
  std::string_view name = trimView(raw.substr(close + 1));
  return !name.empty() && name.size() <= 40 &&
         std::none_of(name.begin(), name.end(),
                      [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         std::count(name.begin(), name.end(), ' ') <= 3;
}

/// "SO: ...", "mara.k: ...": the speaker before a colon at a line's
/// start, or "" for none. Words of a form or a heading ("NB:", "Note:")
/// are no names.
std::string speakerOf(std::string_view line) {
  static const std::set<std::string, std::less<>> notNames = {
      "note", "notes", "nb", "tip", "tips", "step", "steps", "day", "buffer", "reagent",
      "reagents", "caution", "warning", "important", "result", "results", "time", "volume",
      "plate", "layout", "sample", "samples", "read", "wash", "stop", "substrate", "total",
      "temp", "temperature", "speed", "date", "operator", "robot", "manual", "hand",
      "procedure", "protocol", "summary", "materials", "equipment", "re", "subject", "from",
      "to", "cc", "sent", "ps", "edit", "update", "why", "how", "what", "where", "when"};
  std::string_view raw = trimView(line);
  size_t colon = raw.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 14 || colon + 1 >= raw.size() ||
      raw[colon + 1] != ' ')
    return "";
  // Initials ("SO", "LF") or a handle ("mara.k"): a form's fields
  // ("Duration:", "Comment:") alternate as a dialogue's names do.
  std::string_view name = raw.substr(0, colon);
  bool initials = name.size() <= 4 && std::all_of(name.begin(), name.end(), [](char c) {
                    return std::isupper(static_cast<unsigned char>(c)) || c == '.';
                  });
  bool handle = name.find('.') != std::string_view::npos && name.find(' ') == std::string_view::npos &&
                std::all_of(name.begin(), name.end(), [](char c) {
                  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_';
                });
  if (!(initials || handle) || !std::isalpha(static_cast<unsigned char>(name[0])) ||
      notNames.count(prose::lowerAscii(name)))
    return "";
  return std::string(name);
}

/// A reply's arrow at the start of a thread's line ("↳ @pete", "↪️ Pete
/// R."), taken off; `reply` says whether there was one.
std::string_view withoutReplyArrow(std::string_view line, bool &reply) {
  std::string_view raw = trimView(line);
  reply = false;
  for (std::string_view arrow : {"↳", "↪", "⤷", "└", "⮑"})
    if (raw.substr(0, arrow.size()) == arrow) {
      raw = trimView(raw.substr(arrow.size()));
      if (raw.substr(0, 3) == "\xEF\xB8\x8F") // U+FE0F, the arrow drawn as an emoji
        raw = trimView(raw.substr(3));
      reply = true;
      break;
    }
  return raw;
}

/// "@dr_kim_cellbio · Thread", "↳ @plateRdr_priya · replying to
/// @dr_kim_cellbio", "↳ @dr_kim_cellbio": the header of a post or a reply
/// in a social-media thread, a handle alone or before a separator.
bool opensPostHeader(std::string_view line) {
  bool reply = false;
  std::string_view raw = withoutReplyArrow(line, reply);
  // "🧵 Mina K. 🔬 @fe_lab · Mar 14", "↪️ Pete R. @pete · Mar 14": the
  // poster's display name before the handle, then the separator and the
  // date. A few words without digits or a colon, so a sentence that
  // mentions a handle ("thanks to @anna for ...") is no header.
  if (!raw.empty() && raw[0] != '@' && raw.substr(0, 2) != "**") {
    size_t at = raw.find(" @");
    if (at == std::string_view::npos || at > 60)
      return false;
    std::string_view name = raw.substr(0, at);
    if (std::count(name.begin(), name.end(), ' ') > 5 ||
        name.find_first_of("0123456789:,;()") != std::string_view::npos)
      return false;
    std::string_view handle = raw.substr(at + 1);
    size_t dot = handle.find("·");
    size_t space = handle.find(' ');
    if (dot == std::string_view::npos || space == std::string_view::npos ||
        trimView(handle.substr(space, dot - space)).size() != 0)
      return false;
    raw = handle;
  }
  // "**@mreyes-endo** commented": an issue tracker's comment, its author
  // in bold.
  bool bold = raw.substr(0, 2) == "**";
  if (bold)
    raw.remove_prefix(2);
  if (raw.size() < 3 || raw[0] != '@')
    return false;
  size_t k = 1;
  while (k < raw.size() && (std::isalnum(static_cast<unsigned char>(raw[k])) || raw[k] == '_' ||
                            raw[k] == '.' || (bold && raw[k] == '-')))
    ++k;
  if (k < 3)
    return false;
  std::string_view rest = raw.substr(k);
  if (bold) {
    if (rest.substr(0, 2) != "**")
      return false;
    rest = trimView(rest.substr(2));
    return rest.rfind("commented", 0) == 0 || rest.rfind("replied", 0) == 0 ||
           rest.rfind("wrote", 0) == 0;
  }
  rest = trimView(rest);
  return rest.empty() || rest.substr(0, 2) == "·" || rest.substr(0, 1) == "-" ||
         rest.substr(0, 1) == "|" || rest.rfind("replying", 0) == 0 ||
         rest.rfind("commented", 0) == 0;
}

/// "Like · Reply · 3d", "Like | Reply": the line under a comment on a
/// professional or social network.
bool socialFooter(std::string_view line) {
  std::string lower = prose::lowerAscii(trimView(line));
  if (lower.rfind("like", 0) != 0)
    return false;
  size_t reply = lower.find("reply");
  if (reply == std::string::npos || reply > 12)
    return false;
  std::string_view between = std::string_view(lower).substr(4, reply - 4);
  return between.find("·") != std::string_view::npos || between.find('|') != std::string_view::npos;
}

/// Under a post with "Like · Reply" footers: "Priya Raman • Automation
/// Engineer" (a name of two to four capitalised words, a bullet, a title)
/// or "↳ Mariana Costa-Reyes (Author)" (a reply's arrow and a name).
bool opensCommentHeader(std::string_view line) {
  bool reply = false;
  std::string_view raw = withoutReplyArrow(line, reply);
  size_t bullet = raw.find("•");
  std::string_view name = reply && bullet == std::string_view::npos
                              ? raw.substr(0, raw.find(" ("))
                              : raw.substr(0, bullet == std::string_view::npos ? 0 : bullet);
  name = trimView(name);
  if (name.empty() || name.size() > 40 ||
      name.find_first_of("0123456789:;,.!?") != std::string_view::npos)
    return false;
  std::vector<Token> words = prose::tokenize(name);
  size_t count = 0;
  for (const Token &w : words) {
    if (!w.isWord())
      continue;
    if (!std::isupper(static_cast<unsigned char>(w.text[0])))
      return false;
    ++count;
  }
  return count >= 1 && count <= 4 && (reply || count >= 2);
}

bool Reader::opensPost(std::string_view raw) const {
  return opensPostHeader(raw) || (socialComments_ && opensCommentHeader(raw));
}

bool Reader::opensTurn(std::string_view raw) const {
  if (opensChatTurn(raw) || opensPost(raw))
    return true;
  if (speakers_.empty())
    return false;
  std::string name = speakerOf(raw);
  return !name.empty() && speakers_.count(name) > 0;
}

void Reader::buildUnits() {
  findFormHeaders();
  socialComments_ = std::count_if(lines_.begin(), lines_.end(), [](const Line &line) {
                      return socialFooter(line.raw);
                    }) >= 2;
  {
    std::map<std::string, unsigned> count;
    for (const Line &line : lines_)
      if (std::string name = speakerOf(line.raw); !name.empty())
        ++count[name];
    std::set<std::string, std::less<>> names;
    unsigned turns = 0;
    for (const auto &[name, n] : count)
      if (n >= 2) {
        names.insert(name);
        turns += n;
      }
    if (names.size() >= 2 && turns >= 4)
      speakers_ = std::move(names);
  }
  int current = -1;
  bool recordTitle = false; ///< the current unit is a step titled by its verb
  size_t itemContent = 0; ///< content column of the current list item, 0 outside one
  for (size_t i = 0; i < lines_.size(); ++i) {
    const Line &line = lines_[i];
    if (line.merged)
      continue;
    if (line.blank || line.separator) {
      current = -1;
      itemContent = 0;
      continue;
    }
    // In a procedure written as code every line is a statement of its own;
    // a comment running over several lines is prose.
    auto comment = [](const Line &l) { return trimView(l.raw).substr(0, 1) == "#"; };
    bool statement = codeText_ && !(comment(line) && i > 0 && comment(lines_[i - 1]));
    // "2. Diazo working reagent: 5 mL sulfanilic acid (29 mmol/L in HCl)"
    // over "   + 125 uL sodium nitrite (72 mmol/L).": a plus indented under
    // an item's text, after a line left open, adds to that item's recipe;
    // it is no item of its own.
    bool plusGoesOn = false;
    if (line.bullet && current >= 0 && itemContent > 0 && i > 0 && !lines_[i - 1].blank &&
        line.content < line.raw.size() && line.raw[line.content] == '+' &&
        line.content + 1 >= itemContent && !endsTerminal(lines_[i - 1].text))
      plusGoesOn = true;
    bool starts = current < 0 || line.table || line.columns || (line.bullet && !plusGoesOn) ||
                  !line.label.empty() || opensTurn(line.raw) || statement;
    if (!starts) {
      const Line &prev = lines_[i - 1];
      const TextUnit &unit = out_.units[static_cast<size_t>(current)];
      std::string_view prevText = prev.text;
      bool prevHeader = unit.kind == UnitKind::Header;
      bool join = false;
      size_t indent = 0;
      while (indent < line.raw.size() && (line.raw[indent] == ' ' || line.raw[indent] == '\t'))
        ++indent;
      if (prev.table || prev.columns || line.columns || prevHeader) {
        join = false;
      } else if (recordTitle && parameterField(line.text)) {
        // "Step 11/14  Wash" over "  Volume: 300 ul/well, 5 cycles": a
        // notebook's field under a step named by its verb is that step's.
        join = true;
      } else if (itemContent > 0 && indent + 1 >= itemContent) {
        // A line indented under a numbered or bulleted item's text belongs
        // to that item, full stop or not.
        join = true;
      } else if (endsJoining(prevText)) {
        join = true;
      } else if (std::count(prevText.begin(), prevText.end(), '(') >
                     std::count(prevText.begin(), prevText.end(), ')') &&
                 !startsWithVerb(line.text) && colonPrefix(line.text).empty()) {
        // "two conditions (vehicle, 10 ng/mL" over "IL-1b, 24 h), ...": a
        // bracket left open goes on in the next line.
        join = true;
      } else if (current == 0 && opensInCapitals(prevText) && !opensInCapitals(line.text)) {
        // "IN-CELL VIABILITY CARD -- WST-8, ..., 24 h exposure" over "rev.
        // 2 -- JD": a first line that opens in capitals is the title, not
        // the start of a wrapped sentence.
        join = false;
      } else if (!endsTerminal(prevText)) {
        std::string first = firstWordLower(line.text);
        // A model's name ("... fit a five-parameter\nlogistic to ...") is a
        // noun that the reader counts with the analysis verbs; it starts no
        // instruction, so the wrapped line continues the sentence.
        bool verb = startsWithVerb(line.text) && !curveModelWord(first);
        // "robot:", "day 2 (by hand):" open a line of their own; "for ten
        // minutes, fifty microlitres again: the enzyme ..." is a wrapped
        // sentence whose clause happens to end in a colon; so is "times.
        // That was incorrect: our method uses ...", whose first sentence
        // ends before the colon.
        std::string key = colonPrefix(line.text);
        bool prefix = (!key.empty() && !(startsLower(line.text) &&
                                         (key.find(',') != std::string::npos ||
                                          key.find(". ") != std::string::npos))) ||
                      arrowEntry(line.text);
        // A long line without a full stop was wrapped; short lines without
        // one are bench notes, a line each.
        // "... takes the coating off - no\n washing first": a line that
        // ends on a word no sentence ends on continues on the next, verb
        // or not.
        std::string last = prose::lowerAscii(prevText.substr(prevText.find_last_of(' ') + 1));
        static const std::set<std::string, std::less<>> midPhrase = {
            "no", "not", "the", "a", "an", "of", "to", "with", "and", "or", "by", "from", "for"};
        bool unfinished = prevText.find(' ') != std::string_view::npos && midPhrase.count(last) > 0;
        if (prevText.size() >= 55 && !prefix && (!verb || unfinished))
          join = true;
        else if (startsLower(line.text) && (!verb || unfinished) && !prefix && prevText.size() >= 30)
          join = true;
      } else if (!endsTerminal(prevText.substr(0, prevText.size())) ) {
        join = false;
      }
      // A line after one ending in a full stop continues a paragraph when
      // it starts in lower case mid-sentence ("... in duplicate,\n").
      starts = !join;
    }
    SourceLoc loc{fileId_, line.number, static_cast<uint32_t>(line.content + 1), 1};
    if (starts)
      recordTitle = !line.label.empty() && !line.table && verbTitle(line.text);
    if (starts)
      itemContent = (line.bullet || !line.label.empty()) && !line.table ? line.content : 0;
    if (starts) {
      TextUnit unit;
      unit.label = line.label;
      unit.loc = loc;
      unit.text = line.text;
      unit.tableRow = line.table || line.columns;
      out_.units.push_back(std::move(unit));
      unitStyle_.push_back(line.table ? 't' : (line.bullet || !line.label.empty()) ? 'l' : 'p');
      unitAfterBlank_.push_back(i == 0 || lines_[i - 1].blank || lines_[i - 1].separator);
      unitBoxed_.push_back(line.boxed);
      unitColumnDomain_.push_back(lineColumnDomain_[i]);
      unitLoads_.push_back(line.loads);
      {
        size_t indent = 0;
        while (indent < line.raw.size() && (line.raw[indent] == ' ' || line.raw[indent] == '\t'))
          ++indent;
        unitIndent_.push_back(indent);
      }
      std::vector<std::pair<size_t, SourceLoc>> map;
      for (const Line::Piece &piece : line.pieces)
        map.emplace_back(piece.text, SourceLoc{fileId_, piece.line ? piece.line : line.number,
                                               static_cast<uint32_t>(piece.raw + 1), 1});
      unitMaps_.push_back(std::move(map));
      current = static_cast<int>(out_.units.size() - 1);
      // A heading stands alone.
      std::string lower = prose::lowerAscii(line.text);
      auto restatedBelow = [&](size_t at, const std::vector<ProseQuantity> &stated) {
        std::vector<ProseQuantity> below;
        for (size_t k = at + 1, seen = 0; k < lines_.size() && seen < 8; ++k) {
          if (lines_[k].blank || lines_[k].separator)
            continue;
          if (allCapsHeading(lines_[k].text))
            break;
          ++seen;
          for (ProseQuantity &q : proseQuantities(lines_[k].text, platform_))
            below.push_back(std::move(q));
        }
        return std::all_of(stated.begin(), stated.end(), [&](const ProseQuantity &q) {
          return q.dimension == Dimension::Ratio || q.dimension == Dimension::Count ||
                 std::any_of(below.begin(), below.end(), [&](const ProseQuantity &b) {
                   return b.dimension == q.dimension && b.value.low == q.value.low &&
                          b.value.high == q.value.high && b.value.symbolic == q.value.symbolic;
                 });
        });
      };
      bool heading = false;
      if (!line.table) {
        std::string_view t = trimView(withoutPageMarker(line.text));
        size_t paren = std::string_view(lower).find('(');
        size_t words = static_cast<size_t>(std::count(t.begin(), t.end(), ' ')) + 1;
        // "PREP (~15 min)": a duration in brackets belongs to the heading.
        std::vector<ProseQuantity> qs = proseQuantities(withoutBrackets(t), platform_);
        bool values = std::any_of(qs.begin(), qs.end(), [](const ProseQuantity &q) {
          return q.dimension != Dimension::Ratio && q.dimension != Dimension::Count;
        });
        // "DONE OVERNIGHT (don't repeat any of this):": a word for a time
        // without a number ("overnight") gives a heading no value.
        bool numbered = std::any_of(qs.begin(), qs.end(), [](const ProseQuantity &q) {
          return q.dimension != Dimension::Ratio && q.dimension != Dimension::Count &&
                 q.value.text.find_first_of("0123456789") != std::string::npos;
        });
        // A screenplay's character name ("OLD BEN", set far in, over the
        // lines the character says, set in less) names a speaker, no
        // section: the scene's heading still holds.
        auto indentOf = [](const Line &l) {
          return l.raw.find_first_not_of(" \t");
        };
        bool speakerCue = allCapsHeading(t) && words <= 4 && indentOf(line) >= 12 &&
                          i + 1 < lines_.size() && !lines_[i + 1].blank &&
                          indentOf(lines_[i + 1]) >= 4 &&
                          indentOf(lines_[i + 1]) + 4 <= indentOf(line);
        if (speakerCue)
          heading = false;
        else if (!t.empty() && t.back() == ':' && words <= 10 && !values)
          heading = true;
        else if (!t.empty() && t.back() == ':' && words <= 10 && !numbered && allCapsHeading(withoutBrackets(t)))
          heading = true;
        else if (allCapsHeading(t) && !values && words <= 10)
          heading = true;
        // "PRODUCER'S ESSAY - "Why two?"": a heading in capitals keeps a
        // quoted subtitle in any case.
        else if (std::string_view head = withoutQuotedSubtitle(t);
                 head.size() < t.size() && allCapsHeading(head) && wordCount(head) <= 6 &&
                 wordCount(t) <= 12 && !startsWithVerb(t))
          heading = true;
        // "STOP 36 -- THIRTY MINUTES IN THE DARK" over "The plate now
        // stands for 30 minutes at room temperature, lid on, in the dark":
        // a title in capitals whose values the lines under it state again
        // names their step; the step is theirs.
        else if (allCapsHeading(t) && values && words <= 10 && restatedBelow(i, qs))
          heading = true;
        // "*** what's already done ***": marks on both sides make a
        // heading of a line in any case.
        else if (line.marked && !values && words <= 8 && !startsWithVerb(t))
          heading = true;
        // "STEPS (all on robot, at RT)", "VOLUMES (per well)": a heading in
        // capitals keeps a remark in brackets in lower case. A step in
        // capitals ("SHAKE (30 s)") starts with its verb; one that starts
        // with a participle ("PREPARED BEFORE CLASS (technician, ...)")
        // names what was done, a heading.
        else if (capsHeadingWithRemark(t) && !values && wordCount(t) <= 12 &&
                 (!startsWithVerb(t) || participle(firstWordLower(t))))
          heading = true;
        // "AFFECTED SECTION AS PRINTED (IFU rev. C, section 9 "Test
        // procedure", page 6)": a short title in capitals keeps a long
        // remark in brackets.
        else if (capsHeadingWithRemark(t) && !values && wordCount(withoutBrackets(t)) <= 6 &&
                 wordCount(t) <= 30 && !startsWithVerb(t))
          heading = true;
        // "ATTACHMENT 1 — PLATE MAP (clear flat-bottom 96-well plate; 50
        // µL/well loaded by hand)": in capitals, naming a kind of section,
        // it heads that section however long its remark.
        else if (capsHeadingWithRemark(t) && !values && wordCount(t) <= 30 && paren > 0 &&
                 !startsWithVerb(t) &&
                 kindOfHeading(lower.substr(0, paren)) != UnitKind::Procedure)
          heading = true;
        // "WHAT THE ROBOT DOES  (you can leave; about 4 h ...)": in capitals,
        // naming whose hands, it heads their steps however long its remark.
        else if (capsHeadingWithRemark(t) && !values && wordCount(t) <= 30 && paren > 0 &&
                 !startsWithVerb(t) &&
                 domainOfHeading(lower.substr(0, paren)) != Domain::Unstated)
          heading = true;
        // "A. Preparation of the Working Reagent (WR)" is a heading; "A.
        // The plate went onto the BioForge. The robot added 16" over
        // "microliters of ...", a witness's answer, holds a full stop within
        // and goes on below in lower case: sentences.
        else if (line.label.size() == 1 && line.label[0] >= 'A' && line.label[0] <= 'H' &&
                 !values && !startsWithVerb(t) && t.find(". ") == std::string_view::npos &&
                 !(i + 1 < lines_.size() && !lines_[i + 1].blank && !endsTerminal(t) &&
                   startsLower(lines_[i + 1].text)))
          heading = true;
        else if (words <= 4 && t.size() <= 40 && !values && !startsWithVerb(t) &&
                 t.find_first_of(",;.") == std::string_view::npos && t[0] >= 'A' && t[0] <= 'Z' &&
                 (!line.label.empty() || (!line.bullet && i + 1 < lines_.size() &&
                                           !lines_[i + 1].blank && out_.units.size() > 1)))
          heading = true; // "1 Purpose", "4 Plate layout", "Notes" above a list
        // "Procedure", a blank line, then the list (a web page's heading over
        // its <ol>): a word that names the procedure heads it however it is
        // spaced.
        else if (words <= 3 && !values && t[0] >= 'A' && t[0] <= 'Z' &&
                 isProcedureHeadingWord(
                     trimView(std::string_view(lower).substr(0, lower.find_last_not_of(" :") + 1))))
          heading = true;
        // "Steps (robot unless marked HAND)", "Procedure (all at RT)": a
        // procedure heading with a remark in brackets, on a line of its own,
        // ends the preparation before it.
        else if (t.back() == ')' && paren != std::string::npos && !values &&
                 isProcedureHeadingWord(trimView(std::string_view(lower).substr(0, paren))) &&
                 i + 1 < lines_.size() && !lines_[i + 1].blank)
          heading = true;
        // "Plate map (96-well, strips 1-4)" over its rows: the map's heading
        // with the plate in brackets.
        else if (t.back() == ')' && paren != std::string::npos && paren > 0 && !values &&
                 words <= 10 && !startsWithVerb(t) &&
                 kindOfHeading(lower.substr(0, paren)) == UnitKind::Layout &&
                 hasAnyWord(lower.substr(0, paren), {"map", "layout", "plan"}) &&
                 i + 1 < lines_.size() && !lines_[i + 1].blank)
          heading = true;
        // "11. Summary of the test procedure", "8. Plate layout used in our
        // laboratory": a longer numbered title still heads its section when
        // it names a kind of section (summary, layout, materials, notes).
        else if (!line.label.empty() && words <= 8 && t.size() <= 60 && !values &&
                 !startsWithVerb(t) && t.find_first_of(",;.:") == std::string_view::npos &&
                 t[0] >= 'A' && t[0] <= 'Z' && i + 1 < lines_.size() && !lines_[i + 1].blank &&
                 kindOfHeading(lower) != UnitKind::Procedure)
          heading = true;
        else if (!values && (lower.rfind("day ", 0) == 0 || lower.rfind("part ", 0) == 0 ||
                             lower.rfind("stage ", 0) == 0 || lower.rfind("phase ", 0) == 0 ||
                             // "Example 2 (Comparative). Cuvette Kinetic Assay"
                             (lower.rfind("example ", 0) == 0 && lower.size() > 8 &&
                              isDigitChar(lower[8])) ||
                             (lower.rfind("slide ", 0) == 0 && withoutSlideNumber(lower) != lower)) &&
                 (words <= 12 || (t.back() == ')' && wordCount(withoutBrackets(t)) <= 8)) &&
                 !startsWithVerb(t))
          // "Day 1 - coating (by hand, in the cold room)", "Day 2 - BioForge-1
          // (place the coated plate, lidded, on Main deck position 1)".
          heading = true;
      }
      if (heading) {
        out_.units.back().kind = UnitKind::Header;
        current = -1;
      }
      (void)lower;
    } else {
      TextUnit &unit = out_.units[static_cast<size_t>(current)];
      Domain &column = unitColumnDomain_[static_cast<size_t>(current)];
      if (lineColumnDomain_[i] != Domain::Unstated && lineColumnDomain_[i] != column)
        column = column == Domain::Unstated ? lineColumnDomain_[i] : Domain::Both;
      // "den-" + "sity": a typeset column's hyphenation splits a word over
      // lines; a lower-case letter after it is the word's rest (a capital
      // or a digit makes it a compound or a range told over the break).
      if (unit.text.size() >= 3 && unit.text.back() == '-' &&
          std::isalpha(static_cast<unsigned char>(unit.text[unit.text.size() - 2])) &&
          std::isalpha(static_cast<unsigned char>(unit.text[unit.text.size() - 3])) &&
          !line.text.empty() && line.text[0] >= 'a' && line.text[0] <= 'z')
        lineEndHyphens_[static_cast<unsigned>(current)].insert(unit.text.size() - 1);
      unit.text += ' ';
      for (const Line::Piece &piece : line.pieces)
        unitMaps_.back().emplace_back(unit.text.size() + piece.text,
                                      SourceLoc{fileId_, piece.line ? piece.line : line.number,
                                                static_cast<uint32_t>(piece.raw + 1), 1});
      size_t appended = unit.text.size();
      unit.text += line.text;
      // "Wash" + "Volume: 300 ul/well": the field's name is no part of the
      // step ("wash volume" would read as a noun); its value names its
      // own unit. Blanked, so offsets still map to the source.
      if (recordTitle && selfDescribingField(line.text)) {
        size_t colon = unit.text.find(':', appended);
        std::fill(unit.text.begin() + static_cast<std::ptrdiff_t>(appended),
                  unit.text.begin() + static_cast<std::ptrdiff_t>(colon) + 1, ' ');
      }
    }
  }
}

SourceLoc Reader::locate(unsigned unit, size_t offset, size_t length) const {
  const auto &map = unitMaps_[unit];
  SourceLoc loc = out_.units[unit].loc;
  for (const auto &[start, where] : map) {
    if (start > offset)
      break;
    loc = where;
    loc.col = where.col + static_cast<uint32_t>(offset - start);
  }
  loc.length = static_cast<uint32_t>(std::max<size_t>(1, length));
  return loc;
}

bool layoutContent(const std::string &text) {
  std::vector<Token> toks = prose::tokenize(text);
  unsigned wells = 0, roles = 0;
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token &t = toks[i];
    if (t.isWord() && prose::isWellWord(t.text))
      ++wells;
    if ((t.is("row") || t.is("rows") || t.is("column") || t.is("columns") || t.is("col") ||
         t.is("cols")) &&
        i + 1 < toks.size())
      ++wells;
    if (kLayoutWords.count(t.lower))
      ++roles;
  }
  return wells >= 2 && roles >= 1;
}

void Reader::classifyUnits() {
  // The title: the first unit, when it is a single line that does not
  // start with a step and is followed by a break, a heading or a list.
  UnitKind section = UnitKind::Procedure;
  Domain sectionDomain = Domain::Unstated;
  // A heading that is itself a bullet ("• next morning on the robot:")
  // covers the items indented under it, not its next sibling.
  UnitKind outerSection = section;
  Domain outerDomain = sectionDomain;
  long scopeIndent = -1;
  /// How far the heading that opened the current section is indented: a
  /// list that starts again at 1 no further in is not the heading's own.
  long sectionHeadingIndent = 0;
  std::string scopeLabel; ///< the label of the heading that opened the scope
  /// "6.4 Assay Procedure" over "(1) Add ...", "(2) Add ...": a list that
  /// starts at 1 under a numbered heading is the heading's own; the number
  /// its next item would have.
  unsigned innerListNext = 1;
  bool first = true;
  bool titleBlock = false; // the unit before titles the document
  uint32_t lineUnderRule = 0; ///< a title may stand here, under a page header's rule
  // A plate map is one block: after its heading's content, a paragraph
  // that starts flush left after a blank line is prose again ("Plate map:"
  // then the map, then "Monday (by hand): seed ..."). Materials and notes
  // run over paragraphs, so only the layout's scope ends this way.
  UnitKind beforeLayout = section;
  Domain beforeLayoutDomain = sectionDomain;
  unsigned layoutUnits = 0;
  // "Before step 5.1 the operator prepares, in RD:" over its bullets: a
  // sentence that leads into a list speaks for that list only. A table or
  // a paragraph after a blank line is the text going on, not more of the
  // operator's preparation.
  bool inLeadIn = false;
  bool noteItemRunsOn = false; ///< the last numbered item opened with a note's heading
  /// The indent of a summary's label line that ends in a colon, whose
  /// deeper lines below it are the summary's; -1 when none is open.
  long summaryLeadIndent = -1;
  /// "Harbour (ashore, by hand, before the warning signal):" closing a
  /// unit: the hands its lead-in names, for the bullets right under it.
  Domain bulletLeadDomain = Domain::Unstated;
  UnitKind beforeLeadIn = section;
  Domain beforeLeadInDomain = sectionDomain;
  unsigned materialsUnits = 0; ///< lines of the materials section so far
  bool runInSection = false;
  bool replayOpen = false; ///< under a replay's heading, until its paragraph ends
  size_t replayHeading = 0;
  UnitKind beforeReplay = section;
  Domain beforeReplayDomain = sectionDomain;
  UnitKind beforeRunIn = section;
  Domain beforeRunInDomain = sectionDomain;
  // A text box is a scope of its own: a heading inside it ("CAUTION - ...")
  // ends with the box.
  bool inBox = false;
  // The label of the heading that opened the preparation section, if any.
  std::string preparationLabel;
  // A numbered unit of the procedure came before (bullets may be notes
  // told before a checklist that is the procedure).
  bool procedureStepsSeen = false;
  // The label of a numbered checklist heading after the procedure.
  std::string summaryLabel;
  UnitKind beforeBox = section;
  Domain beforeBoxDomain = sectionDomain;
  auto afterBlankLine = [&](const TextUnit &unit) {
    uint32_t line = unit.loc.line; // 1-based; lines_[line - 2] is the one before
    if (line < 2 || line - 2 >= lines_.size() || !lines_[line - 2].blank)
      return false;
    // A numbered step flush left ("Step 1/6  Samples") starts prose as a
    // paragraph does. In a box, flush left is against the frame: "|  1.
    // Robot: 100 uL ..." stands at the box's margin.
    const Line &own = lines_[line - 1];
    size_t indent = own.raw.find_first_not_of(" \t");
    return own.content == 0 ||
           (!own.label.empty() && !own.raw.empty() && own.raw[0] != ' ' && own.raw[0] != '\t') ||
           (own.boxed && !own.label.empty() && indent != std::string_view::npos && indent <= 3);
  };
  for (size_t u = 0; u < out_.units.size(); ++u) {
    TextUnit &unit = out_.units[u];
    std::string lower = prose::lowerAscii(withoutPageMarker(unit.text));
    bool listItem = unitStyle_[u] == 'l';
    bool underTitle = titleBlock;
    titleBlock = false;
    if (unitBoxed_[u] != inBox) {
      if (unitBoxed_[u]) {
        beforeBox = section;
        beforeBoxDomain = sectionDomain;
      } else {
        section = beforeBox;
        sectionDomain = beforeBoxDomain;
      }
      inBox = unitBoxed_[u];
    }
    // A table's first row may stand under its column names and rule: a
    // blank line anywhere since the unit before counts.
    auto blankSincePrevious = [&] {
      if (u == 0)
        return false;
      for (uint32_t line = out_.units[u - 1].loc.line + 1; line < unit.loc.line; ++line)
        if (line >= 1 && line - 1 < lines_.size() && lines_[line - 1].blank)
          return true;
      return false;
    };
    if (inLeadIn && unit.kind != UnitKind::Header && !listItem && blankSincePrevious()) {
      section = beforeLeadIn;
      sectionDomain = beforeLeadInDomain;
      inLeadIn = false;
    }
    // A heading there ends it too, so the sections its list returns to are
    // not the map ("Step 1/6 Samples" after the map's bullets).
    if (section == UnitKind::Layout && layoutUnits > 0 && scopeIndent < 0 &&
        afterBlankLine(unit)) {
      section = beforeLayout;
      sectionDomain = beforeLayoutDomain;
      layoutUnits = 0;
    }
    // "Before you start" and its bullets, a blank line, then "1. Robot: ...":
    // a list that starts again at 1 after a blank line is the procedure, not
    // more preparation.
    if ((section == UnitKind::Preparation ||
         (section == UnitKind::Layout && beforeLayout == UnitKind::Preparation)) &&
        unit.kind != UnitKind::Header && scopeIndent < 0 && unit.label == "1" &&
        static_cast<long>(unitIndent_[u]) <= sectionHeadingIndent && unit.loc.line >= 2 &&
        lines_[unit.loc.line - 2].blank) {
      section = UnitKind::Procedure;
      sectionDomain = Domain::Unstated;
      layoutUnits = 0;
    }
    // A notebook page: "Reagents (all to RT first):" and its bullets, a
    // plate map, a blank line, then "1. Coat: 100 uL/well capture Ab, o/n
    // 4 C". A list that starts at 1 flush left after a blank line, once the
    // materials have had their own lines, and whose first item gives an
    // order with a value, is the work the materials were for. A list of
    // what a kit holds ("1. Coated microplate, 12 x 8 wells") names things,
    // and one right under its heading is the heading's own.
    if ((section == UnitKind::Materials ||
         (section == UnitKind::Layout && beforeLayout == UnitKind::Materials)) &&
        materialsUnits > 0 && unit.kind != UnitKind::Header && scopeIndent < 0 &&
        unit.label == "1" && static_cast<long>(unitIndent_[u]) <= sectionHeadingIndent &&
        unit.loc.line >= 2 && lines_[unit.loc.line - 2].blank &&
        opensWithOrderAndValue(unit.text)) {
      section = UnitKind::Procedure;
      sectionDomain = Domain::Unstated;
      layoutUnits = 0;
    }
    // "4.1 Day 1", "4.2 Day 2 (before starting the robot)" under "4.
    // Reagent preparation": a subsection that names no kind of its own is
    // more of its section's preparation.
    bool preparationPart = unit.kind == UnitKind::Header && listItem &&
                           section == UnitKind::Preparation &&
                           subLabelOf(unit.label, preparationLabel) &&
                           kindOfHeading(lower) == UnitKind::Procedure &&
                           !hasAnyWord(lower, {"procedure", "protocol", "assay", "steps", "plate"});
    // "5.1", "5.2" under "5. REAGENT PREPARATION" stay in its scope: their
    // number continues the heading's; so do bullets under "6. TROUBLESHOOTING".
    // The next numbered item ends it.
    bool innerItem = false;
    if (scopeIndent >= 0 && listItem && !scopeLabel.empty() &&
        scopeLabel.find('.') != std::string::npos) {
      if (unit.label == std::to_string(innerListNext)) {
        innerItem = true;
        ++innerListNext;
      }
    }
    // "2.2", "2.3" under "7 Revision history": an outline runs forward, so
    // a dotted number below the heading's is no section of the outline but
    // the heading's own row (a version, a reference).
    bool rowOfHeading = unit.label.find('.') != std::string::npos &&
                        leadingNumber(unit.label) > 0 &&
                        leadingNumber(unit.label) < leadingNumber(scopeLabel);
    if (scopeIndent >= 0 && listItem && static_cast<long>(unitIndent_[u]) <= scopeIndent &&
        !innerItem && !rowOfHeading &&
        !(unit.label.empty() && !scopeLabel.empty()) && !subLabelOf(unit.label, scopeLabel)) {
      section = outerSection;
      sectionDomain = outerDomain;
      scopeIndent = -1;
    }
    // "ALP hydrolyses the colourless substrate p-nitrophenyl phosphate:"
    // above an equation in a handout's background: a sentence that leads
    // into what it explains, not a heading, so the background goes on.
    if (unit.kind == UnitKind::Header && section == UnitKind::Note &&
        leadsIntoExplanation(unit.text, lower) && !listItem &&
        (u + 1 >= out_.units.size() || unitStyle_[u + 1] != 'l')) {
      unit.kind = UnitKind::Note;
      continue;
    }
    // "-- INSTANT REPLAY --" in a commentary: the replay is the paragraph
    // under it; after the blank line the commentary goes on.
    if (replayOpen && unit.kind != UnitKind::Header && u > replayHeading + 1 &&
        unitAfterBlank_[u]) {
      section = beforeReplay;
      sectionDomain = beforeReplayDomain;
      replayOpen = false;
    }
    if (unit.kind == UnitKind::Header) {
      runInSection = false;
      replayOpen = false;
      if (!inLeadIn) {
        beforeLeadIn = section;
        beforeLeadInDomain = sectionDomain;
      }
      inLeadIn = !listItem && sentenceLeadIn(unit.text);
      if (listItem) {
        if (scopeIndent < 0) {
          outerSection = section;
          outerDomain = sectionDomain;
        }
        scopeIndent = static_cast<long>(unitIndent_[u]);
        scopeLabel = unit.label;
        innerListNext = 1;
      } else {
        scopeIndent = -1;
      }
      UnitKind heading = preparationPart ? UnitKind::Preparation : kindOfHeading(lower);
      // "4. CHECKLIST (print, tick, stick in ELN)" after the procedure ticks
      // its steps off again; a checklist that is the only procedure stays
      // one.
      if (heading == UnitKind::Procedure && procedureStepsSeen &&
          hasAnyWord(withoutBrackets(lower), {"checklist", "check list", "check-list"})) {
        heading = UnitKind::Summary;
        summaryLabel = unit.label;
      } else if (heading == UnitKind::Procedure && section == UnitKind::Summary &&
                 !summaryLabel.empty() && unit.label.empty() &&
                 !hasAnyWord(lower, {"procedure", "protocol", "assay", "steps", "method"})) {
        // "Day 1 (Tue 14 May)" under "4. CHECKLIST": a part of the list,
        // not a section of its own; the next numbered heading ends it.
        heading = UnitKind::Summary;
      } else {
        summaryLabel.clear();
      }
      if (!preparationPart)
        preparationLabel = heading == UnitKind::Preparation ? unit.label : std::string();
      if (heading == UnitKind::Layout && section != UnitKind::Layout) {
        beforeLayout = section;
        beforeLayoutDomain = sectionDomain;
      }
      layoutUnits = 0;
      if (heading == UnitKind::Materials)
        materialsUnits = 0;
      if (heading == UnitKind::Summary &&
          hasAnyWord(withoutBrackets(lower), {"replay", "recap"})) {
        replayOpen = true;
        replayHeading = u;
        beforeReplay = section;
        beforeReplayDomain = sectionDomain;
      }
      section = heading;
      sectionHeadingIndent = static_cast<long>(unitIndent_[u]);
      sectionDomain = domainOfHeading(lower);
      unit.domain = sectionDomain;
      first = false;
      continue;
    }
    // "Title:  MTT viability – KX-214 on HepG2, 48 h exposure": an export's
    // or a form's title field names the experiment; its values are no steps.
    if (unit.label.empty() && unit.kind != UnitKind::Header) {
      std::string field = prose::lowerAscii(colonPrefix(unit.text));
      if (field == "title" || field == "experiment title" || field == "study title" ||
          field == "protocol title") {
        unit.kind = UnitKind::Title;
        continue;
      }
    }
    // "bf-chitinase --fit=4pl --no-check --stop-vol=40 KIT-CMP" among a
    // manual page's examples: a command line with its options, which the
    // page's own description tells what they do; an invocation is no step.
    // "Scene: Ben at the touchscreen. The screen now reads "Incubate 10
    // min at 37 C".": a storyboard's or a screenplay's stage direction
    // tells what the picture shows; the steps are in what is said.
    if (unit.kind != UnitKind::Header &&
        (lower.rfind("scene:", 0) == 0 || lower.rfind("stage direction", 0) == 0)) {
      unit.kind = UnitKind::Note;
      continue;
    }
    // So is the line that introduces one ("Serum samples, 15 min
    // incubation:"): it says what the options set.
    bool introducesCommand = !unit.text.empty() && trimView(unit.text).back() == ':' &&
                             u + 1 < out_.units.size() &&
                             commandInvocation(out_.units[u + 1].text);
    if (unit.label.empty() && unit.kind != UnitKind::Header &&
        (commandInvocation(unit.text) || introducesCommand)) {
      unit.kind = UnitKind::Note;
      continue;
    }
    // "Fig. 3: Std curve 7.8-1000 ng/mL, 4-PL, R^2 = 0.998": a caption
    // tells what a figure or table shows, results and all.
    if (unit.label.empty() && unit.kind != UnitKind::Header && figureCaption(unit.text)) {
      unit.kind = UnitKind::Note;
      continue;
    }
    if (first && lineUnderRule && unit.loc.line != lineUnderRule)
      first = false;
    if (first) {
      first = false;
      // "[Transcription of a handwritten page. ...]": a transcriber's or
      // editor's note in brackets before the text is about the text; the
      // title may follow it.
      if (unit.label.empty() && unit.text.size() > 2 && unit.text.front() == '[' &&
          unit.text.back() == ']' && unit.text.find(']') == unit.text.size() - 1) {
        unit.kind = UnitKind::Note;
        first = true;
        continue;
      }
      const Line *line = nullptr;
      for (const Line &l : lines_)
        if (l.number == unit.loc.line)
          line = &l;
      bool singleLine = line && line->text.size() == unit.text.size();
      bool nextBreaks = true;
      if (line && line->number < lines_.size()) {
        const Line &next = lines_[line->number]; // 0-based index of the next line
        nextBreaks = next.blank || !next.label.empty() || next.bullet || next.table;
      }
      // Under a header's rule only a line set apart by a blank line titles
      // the page: "Before: samples 1:2 in diluent" between two rules is the
      // card's first instruction.
      bool underRuleApart = !lineUnderRule || (line && line->number < lines_.size() &&
                                               lines_[line->number].blank &&
                                               colonPrefix(unit.text).empty());
      // "step_01.executor: BF1, wash, ...": a notebook's record is a step.
      // "C.3.1 Approach: LDH release on the BioForge-1": a lettered
      // section's number heads the page as well.
      bool letteredSection = unit.label.size() > 2 && unit.label[0] >= 'A' && unit.label[0] <= 'Z' &&
                             unit.label[1] == '.';
      // "L-Glutamate Assay Kit (Colorimetric, WST-8), 96 Tests - Detection
      // Range 5-100 uM -" over two more lines: a shop's product title,
      // wrapped, says what the kit is, values and all. No sentence ends in
      // it, no clause of it instructs and no key opens it.
      bool wrappedTitle = false;
      if (!singleLine && line && unit.label.empty() && unit.text.size() <= 250 &&
          underRuleApart && lineUnderRule == 0) {
        std::string_view text = trimView(unit.text);
        bool sentence = text.empty() || text.find(". ") != std::string_view::npos ||
                        text.find_first_of(":;!?") != std::string_view::npos || text.back() == '.';
        bool instructs = false;
        for (size_t at = 0; at < text.size() && !instructs;) {
          size_t stop = std::min({text.find_first_of(",(", at), text.find(" - ", at), text.size()});
          instructs = startsWithVerb(trimView(text.substr(at, stop - at)));
          at = stop + 1;
        }
        wrappedTitle = !sentence && !instructs && recordOf(unit.text).empty();
      }
      if (wrappedTitle ||
          ((unit.label.empty() || letteredSection) && singleLine && !startsWithVerb(unit.text) &&
           underRuleApart && recordOf(unit.text).empty() &&
           (unit.text.size() <= 100 || nextBreaks) && (nextBreaks || unit.text.size() <= 150))) {
        unit.kind = UnitKind::Title;
        unit.domain = domainOfHeading(lower);
        // A title that gives the whole protocol to the robot or a person
        // ("Plate prep for the compound screen (robot)") acts as a heading.
        if (unit.domain != Domain::Unstated && sectionDomain == Domain::Unstated)
          sectionDomain = unit.domain;
        // A page's running header over a rule ("NB KM-07  p. 52   Mon
        // 13.05.2024" / "-----"): the line right under the rule, with a
        // break after it, titles the page as well.
        if (line && line->number < lines_.size() && lines_[line->number].separator) {
          first = true;
          lineUnderRule = line->number + 2;
        }
        titleBlock = true;
        continue;
      }
    }
    // "kowalski-lab/bench-protocols · Pull request #58" over "FOX H2O2
    // assay: port to BioForge-1, 570 nm read" and "mkowalski merged 2
    // commits": the lines under a title with no blank line between are
    // its block (subtitle, authors, status), no steps, unless one reads
    // as an instruction or a sentence.
    if (underTitle) {
      std::string_view text = trimView(unit.text);
      bool sentence = !text.empty() && (text.back() == '.' || text.back() == '!' ||
                                        text.back() == '?' || text.back() == ':');
      // "Prep: TMB A+B 1:1, mix <= 15 min before use": a card's line that
      // instructs after its label or a comma is no title.
      bool instructs = false;
      for (size_t at = 0; at < text.size() && !instructs;) {
        size_t stop = std::min(text.find_first_of(":,;", at), text.size());
        instructs = startsWithVerb(trimView(text.substr(at, stop - at)));
        at = stop + 1;
      }
      if (!unitAfterBlank_[u] && unitStyle_[u] == 'p' && unit.label.empty() &&
          unit.kind != UnitKind::Header && !sentence && text.size() <= 200 && !instructs &&
          recordOf(unit.text).empty()) {
        unit.kind = UnitKind::Title;
        titleBlock = true;
        continue;
      }
    }
    // "Data analysis. For each well ...": a heading run into its paragraph
    // opens a section as a heading line does, up to the next heading. One
    // about the procedure ("Coating. Plates were ...") ends a section that
    // a run-in heading opened and changes nothing else.
    if (unitStyle_[u] == 'p' && (unitAfterBlank_[u] || u == 0 ||
                                 out_.units[u - 1].kind == UnitKind::Header)) {
      std::string runIn = runInHeading(unit.text);
      if (!runIn.empty()) {
        UnitKind heading = kindOfHeading(runIn);
        if (heading != UnitKind::Procedure) {
          if (!runInSection) {
            beforeRunIn = section;
            beforeRunInDomain = sectionDomain;
          }
          runInSection = true;
          section = heading;
          sectionDomain = domainOfHeading(runIn);
          scopeIndent = -1;
          layoutUnits = 0;
        } else if (runInSection) {
          runInSection = false;
          section = beforeRunIn;
          sectionDomain = beforeRunInDomain;
        }
      }
    }
    // "1. Principle. Heparin accelerates ... determined at 405 nm": a
    // numbered paragraph that opens with a heading of another kind is that
    // kind, for its own text only (the next numbered item is a section of
    // its own).
    // Its lines may run on flush left as a paragraph of their own.
    UnitKind itemRunIn = UnitKind::Procedure;
    if (unitStyle_[u] == 'l' && !unit.label.empty() && unit.kind != UnitKind::Header) {
      if (std::string runIn = runInHeading(unit.text); !runIn.empty()) {
        itemRunIn = kindOfHeading(runIn);
        // "C.1.2 Assay procedure. Plates will be ...": a numbered section
        // of its own, so the "Rationale." paragraph before it no longer
        // speaks.
        if (runInSection) {
          runInSection = false;
          section = beforeRunIn;
          sectionDomain = beforeRunInDomain;
        }
      }
      noteItemRunsOn = itemRunIn == UnitKind::Note;
    } else if (unitStyle_[u] == 'p' && noteItemRunsOn && !unitAfterBlank_[u] &&
               unit.kind != UnitKind::Header) {
      itemRunIn = UnitKind::Note;
    } else {
      noteItemRunsOn = false;
    }
    // A layout for two pairs of hands ("ROBOT | BENCH" over a rule) is the
    // work itself, whatever list came before it ("Materials", a map).
    if (unitColumnDomain_[u] != Domain::Unstated && section != UnitKind::Procedure &&
        section != UnitKind::Header) {
      section = UnitKind::Procedure;
      sectionDomain = Domain::Unstated;
      scopeIndent = -1;
      layoutUnits = 0;
    }
    unit.kind = section == UnitKind::Header ? UnitKind::Procedure : section;
    if (itemRunIn == UnitKind::Note && unit.kind == UnitKind::Procedure)
      unit.kind = UnitKind::Note;
    procedureStepsSeen |= unit.kind == UnitKind::Procedure && !unit.label.empty();
    unit.domain = unitColumnDomain_[u] != Domain::Unstated ? unitColumnDomain_[u] : sectionDomain;
    // "[HAND] Rinse wells ... 2x with PBS, lyse in 200 ul ...": a tag in
    // brackets that opens a unit gives all of it, every clause, to its hands.
    Domain tagged = leadingTagDomain(unit.text);
    if (tagged != Domain::Unstated)
      unit.domain = tagged;
    bool bulletItem = unit.loc.line >= 1 && unit.loc.line <= lines_.size() &&
                      lines_[unit.loc.line - 1].bullet;
    if (bulletLeadDomain != Domain::Unstated && bulletItem && unit.label.empty() &&
        tagged == Domain::Unstated)
      unit.domain = bulletLeadDomain;
    else if (!bulletItem)
      bulletLeadDomain = Domain::Unstated;
    if (std::string_view closing = trimView(unit.text);
        !bulletItem && !closing.empty() && closing.back() == ':') {
      // The lead-in is the clause after the colon or full stop before it.
      closing.remove_suffix(1);
      size_t start = closing.find_last_of(":.");
      std::string leadIn = prose::lowerAscii(
          trimView(start == std::string_view::npos ? closing : closing.substr(start + 1)));
      if (leadIn.size() <= 80)
        bulletLeadDomain = domainOfHeading(leadIn);
    }
    if (section == UnitKind::Layout)
      ++layoutUnits;
    if (section == UnitKind::Materials)
      ++materialsUnits;
    // "plate summary for the robot folder: hand-load sups -> robot:" over
    // "  blank + stds -> rxn mix -> shake -> 30' RT dark -> 570": the
    // indented lines that the colon leads into run the summary on.
    if (summaryLeadIndent >= 0) {
      if (!unitAfterBlank_[u] && unit.label.empty() && unit.kind == UnitKind::Procedure &&
          static_cast<long>(unitIndent_[u]) > summaryLeadIndent)
        unit.kind = UnitKind::Summary;
      else
        summaryLeadIndent = -1;
    }
    std::string_view labelled = afterTranscriberRemark(unit.text);
    std::string prefix = prose::lowerAscii(colonPrefix(labelled));
    if (prefix.empty())
      prefix = prose::lowerAscii(labelWithRemark(labelled));
    if (!prefix.empty()) {
      // "3.4 Samples: 50 µL of serum ..." is a step that names its topic;
      // "Samples: X1-X8 in A3-H4" (no label) describes the plate.
      UnitKind kind = kindOfHeading(prefix);
      if (kind != UnitKind::Procedure && unit.label.empty())
        unit.kind = kind;
      if (unit.kind == UnitKind::Summary && kind == UnitKind::Summary &&
          prose::trimView(unit.text).back() == ':')
        summaryLeadIndent = static_cast<long>(unitIndent_[u]);
      // "7. WASTE: soak liquid waste in bleach for 1 h": safety and waste
      // are never the assay's steps, numbered or not ("5. Critical: add
      // the stop solution within 1 min" is one).
      if (std::count(prefix.begin(), prefix.end(), ' ') < 3 &&
          hasAnyWord(prefix, {"safety", "waste", "disposal", "decontamination", "hazard",
                              "hazards", "biosafety", "spills"}))
        unit.kind = UnitKind::Note;
      Domain d = domainOfHeading(prefix);
      if (d != Domain::Unstated)
        unit.domain = d;
    }
    if (unit.kind == UnitKind::Procedure && unit.label.empty() && unitStyle_[u] == 'p' &&
        unit.loc.line >= 1 && unit.loc.line - 1 < formHeader_.size() &&
        formHeader_[unit.loc.line - 1] && !startsWithVerb(unit.text))
      unit.kind = UnitKind::Note;
    if (unit.kind == UnitKind::Procedure && !startsWithVerb(unit.text) && layoutContent(unit.text)) {
      std::vector<ProseQuantity> qs = proseQuantities(unit.text, platform_);
      bool values = std::any_of(qs.begin(), qs.end(), [](const ProseQuantity &q) {
        return q.dimension == Dimension::Volume || q.dimension == Dimension::Time ||
               q.dimension == Dimension::Speed || q.dimension == Dimension::Wavelength;
      });
      if (!values)
        unit.kind = UnitKind::Layout;
    }
    // A table's header row (the separator line under it) names its
    // columns: "Dose, A490 mean, SD" is no step.
    if (unit.kind == UnitKind::Procedure && unitStyle_[u] == 't' && unit.loc.line < lines_.size() &&
        lines_[unit.loc.line].table && lines_[unit.loc.line].separator)
      unit.kind = UnitKind::Note;
    if (!unit.label.empty())
      labelUnits_[unit.label].push_back(static_cast<unsigned>(u));
  }
  // "10. Add 50 µl ORO working solution, 10 min at RT." over "- 50 µl covers
  // the monolayer; more only raises background", or "3. Wash once with 150
  // µl" over "- one wash only; every extra wash costs cells (... with 3
  // washes)": a bullet under a numbered step that starts with no verb and
  // states no kind of value the step does not state already is a remark on
  // it (the reason, a past run), not a step. One that adds a kind ("- 15
  // min in the dark" under "Add 100 µl TMB") or that the step needs for
  // its values at all ("- 300 µl per well" under "Wash 3 times") stays.
  auto valueKinds = [&](const std::string &text) {
    std::set<Dimension> kinds;
    for (const ProseQuantity &q : proseQuantities(text, platform_))
      if (q.dimension == Dimension::Volume || q.dimension == Dimension::Time ||
          q.dimension == Dimension::Temperature || q.dimension == Dimension::Speed ||
          q.dimension == Dimension::Wavelength)
        kinds.insert(q.dimension);
    return kinds;
  };
  for (size_t u = 1; u < out_.units.size(); ++u) {
    TextUnit &child = out_.units[u];
    if (unitStyle_[u] != 'l' || !child.label.empty() || child.kind != UnitKind::Procedure ||
        startsWithVerb(child.text))
      continue;
    size_t p = u;
    while (p-- > 0 && out_.units[p].label.empty() && unitIndent_[p] >= unitIndent_[u] &&
           unitStyle_[p] == 'l')
      ;
    if (p >= u || out_.units[p].label.empty() || unitIndent_[p] >= unitIndent_[u] ||
        out_.units[p].kind != UnitKind::Procedure)
      continue;
    std::set<Dimension> stepKinds = valueKinds(out_.units[p].text);
    std::set<Dimension> childKinds = valueKinds(child.text);
    if (!stepKinds.empty() &&
        std::includes(stepKinds.begin(), stepKinds.end(), childKinds.begin(), childKinds.end()))
      child.kind = UnitKind::Note;
  }
  // "| = substrate master mix | 50 uL |" under the rows of its components:
  // they say what the mix is made of, and the mix is what a step adds.
  auto lineOfUnit = [&](size_t u) -> const Line * {
    uint32_t n = out_.units[u].loc.line;
    return n >= 1 && n - 1 < lines_.size() && lines_[n - 1].number == n ? &lines_[n - 1] : nullptr;
  };
  for (size_t u = 0; u < out_.units.size(); ++u) {
    const Line *sum = lineOfUnit(u);
    if (!sum || !sum->table || sum->cells.empty() || sum->cells[0].text.rfind('=', 0) != 0)
      continue;
    for (size_t k = u; k-- > 0;) {
      const Line *row = lineOfUnit(k);
      if (!row || !row->table || row->separator || unitStyle_[k] != 't' ||
          out_.units[k].kind == UnitKind::Note || row->cells.empty() ||
          row->cells[0].text.rfind('=', 0) == 0)
        break;
      out_.units[k].kind = UnitKind::Note;
    }
  }
}

/// Whether the bracketed remark `remark` (brackets left out) records the
/// value a change replaced: "AMENDED 09:31, was 150 uL - typo", "was 37 C",
/// "edited: previously 5 min". One that states the new value ("changed to
/// 45 min", "now 45 min") is left to be read.
bool recordsOldValue(std::string_view remark) {
  static const std::set<std::string, std::less<>> opening = {
      "amended", "amendment", "edited", "edit", "corrected", "correction", "changed",
      "updated", "revised", "was", "previously", "formerly", "originally"};
  std::vector<Token> toks = prose::tokenize(remark);
  if (toks.empty() || !toks.front().isWord() || !opening.count(toks.front().lower))
    return false;
  bool old = false;
  for (const Token &t : toks) {
    if (t.is("to") || t.is("now") || t.is("new") || t.is("instead"))
      return false;
    old |= t.is("was") || t.is("previously") || t.is("formerly") || t.is("originally");
  }
  return old;
}

/// An electronic notebook records each change beside the value it replaced
/// ("100 uL per well [AMENDED 09:31, was 150 uL - typo]"). The old values
/// are history, not steps: the remark is blanked, byte for byte, so every
/// offset into the unit still maps to its place in the source.
void Reader::maskAmendments() {
  for (TextUnit &unit : out_.units) {
    std::string &t = unit.text;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '[' && t[i] != '(')
        continue;
      size_t end = t.find(t[i] == '[' ? ']' : ')', i + 1);
      if (end == std::string::npos)
        break;
      if (!recordsOldValue(std::string_view(t).substr(i + 1, end - i - 1)))
        continue;
      // Spaces for every byte keep the text valid UTF-8 and its length.
      std::fill(t.begin() + static_cast<std::ptrdiff_t>(i),
                t.begin() + static_cast<std::ptrdiff_t>(end) + 1, ' ');
      i = end;
    }
  }
}

/// "incu-" + "bated" told over a line break is the word "incubated": the
/// word before the hyphen takes the rest's letters and its end, so the verb
/// and the noun read as written before the column was typeset.
void Reader::joinHyphenatedWords(unsigned unit, Sentence &s) const {
  auto hyphens = lineEndHyphens_.find(unit);
  if (hyphens == lineEndHyphens_.end())
    return;
  std::vector<Token> &toks = s.tokens;
  for (size_t k = 0; k + 2 < toks.size(); ++k) {
    if (!toks[k].isWord() || !toks[k + 1].isPunct("-") || !toks[k + 2].isWord() ||
        !hyphens->second.count(s.offset + toks[k + 1].begin) || toks[k + 1].glued == false)
      continue;
    toks[k].text += toks[k + 2].text;
    toks[k].lower += toks[k + 2].lower;
    toks[k].end = toks[k + 2].end;
    toks.erase(toks.begin() + static_cast<std::ptrdiff_t>(k) + 1,
               toks.begin() + static_cast<std::ptrdiff_t>(k) + 3);
  }
}

void Reader::splitSentences() {
  static const std::set<std::string, std::less<>> abbreviations = {
      "e.g", "i.e", "approx", "ca", "vs", "etc", "incl", "resp", "no", "fig", "p", "cf", "al",
      "min", "max", "conc", "dil", "r.t", "st", "vol"};
  for (unsigned u = 0; u < out_.units.size(); ++u) {
    const TextUnit &unit = out_.units[u];
    if (unit.kind == UnitKind::Header)
      continue;
    const std::string &t = unit.text;
    size_t start = 0;
    bool firstInUnit = true;
    auto push = [&](size_t end) {
      std::string_view piece = std::string_view(t).substr(start, end - start);
      size_t lead = 0;
      while (lead < piece.size() && (piece[lead] == ' ' || piece[lead] == '\t'))
        ++lead;
      piece.remove_prefix(lead);
      while (!piece.empty() && (piece.back() == ' '))
        piece.remove_suffix(1);
      if (!piece.empty()) {
        Sentence s;
        s.unit = u;
        s.text = std::string(piece);
        s.offset = start + lead;
        s.tokens = prose::tokenize(s.text);
        joinHyphenatedWords(u, s);
        s.firstInUnit = firstInUnit;
        if (firstInUnit && !s.tokens.empty() &&
            !(s.tokens.front().isWord() && isAnyVerb(s.tokens.front().lower)) &&
            std::count_if(s.tokens.begin(), s.tokens.end(),
                          [](const Token &w) { return w.isWord(); }) >= 8)
          proseItems_.insert(u);
        firstInUnit = false;
        sentences_.push_back(std::move(s));
      }
      start = end;
    };
    // "We will run: (i) add 50 uL ...; (ii) add 5 uL ...; (iii) mix ...":
    // an enumeration inside one sentence numbers its steps, each a
    // sentence of its own.
    auto enumeratorAt = [&](size_t i) {
      if (t[i] != '(' || i < 2 || t[i - 1] != ' ' || (t[i - 2] != ';' && t[i - 2] != ':'))
        return false;
      size_t close = t.find(')', i);
      if (close == std::string::npos || close - i > 6 || close + 1 >= t.size() ||
          t[close + 1] != ' ')
        return false;
      std::string inner = prose::lowerAscii(std::string_view(t).substr(i + 1, close - i - 1));
      return romanNumeral(inner) ||
             (inner.size() == 1 && ((inner[0] >= 'a' && inner[0] <= 'h') || isDigitChar(inner[0])));
    };
    // A field under a step on a line of its own ("Amount 100 µL",
    // "Duration 00:30:00", "Temperature: 37 °C", as protocols.io exports
    // them) is a sentence of its own, with no full stop before or after.
    std::set<size_t> fieldBounds;
    // Only under a step told in words: a block of keys ("step: 1", "action:
    // dispense", "volume: 50 uL") is read as one.
    if (u < unitMaps_.size() && colonPrefix(trimView(t)).empty()) {
      const auto &map = unitMaps_[u];
      for (size_t k = 1; k < map.size(); ++k) {
        if (map[k].second.line == map[k - 1].second.line)
          continue;
        size_t at = map[k].first, w = at;
        while (w < t.size() && std::isalpha(static_cast<unsigned char>(t[w])))
          ++w;
        size_t v = w;
        if (v < t.size() && t[v] == ':')
          ++v;
        while (v < t.size() && t[v] == ' ')
          ++v;
        if (v == w || v >= t.size() || !isDigitChar(t[v]) ||
            !stepFieldKeys().count(prose::lowerAscii(std::string_view(t).substr(at, w - at))))
          continue;
        fieldBounds.insert(at);
        size_t end = t.size();
        for (size_t n = k + 1; n < map.size(); ++n)
          if (map[n].second.line != map[k].second.line) {
            end = map[n].first;
            break;
          }
        fieldBounds.insert(end);
      }
    }
    for (size_t i = 0; i < t.size(); ++i) {
      char c = t[i];
      if (fieldBounds.count(i) && i > start) {
        push(i);
        --i;
        continue;
      }
      if (enumeratorAt(i) && i > start) {
        push(i);
        continue;
      }
      if ((c == '.' || c == '!' || c == '?') && i + 1 < t.size() && t[i + 1] == ' ') {
        // Not after an abbreviation ("approx. 5", "e.g. the") or an initial
        // when the sentence goes on in lower case; "37 °C. Then" ends one.
        size_t w = i;
        while (w > 0 && (std::isalnum(static_cast<unsigned char>(t[w - 1])) || t[w - 1] == '.'))
          --w;
        std::string word = prose::lowerAscii(std::string_view(t).substr(w, i - w));
        size_t next = i + 1;
        while (next < t.size() && t[next] == ' ')
          ++next;
        bool lowerNext = next < t.size() && ((t[next] >= 'a' && t[next] <= 'z') || isDigitChar(t[next]));
        // A sentence does not start with a digit or in lower case after an
        // abbreviation or a single letter ("corr. 570 nm", "approx. 5").
        if (c == '.' && lowerNext && (abbreviations.count(word) || word.size() <= 5))
          continue;
        if (c == '.' && (word == "e.g" || word == "i.e" || word == "cf" || word == "vs"))
          continue;
        // "200 uL of L. Brandt's diluted saliva": a person's initial before
        // the possessive of a name. A row letter ends a sentence before
        // "Then" or "Add", never before a possessive.
        if (c == '.' && i - w == 1 && std::isupper(static_cast<unsigned char>(t[w])) &&
            (w == 0 || t[w - 1] == ' ' || t[w - 1] == '(') && next < t.size() &&
            std::isupper(static_cast<unsigned char>(t[next]))) {
          size_t end = next;
          while (end < t.size() && std::isalpha(static_cast<unsigned char>(t[end])))
            ++end;
          std::string_view rest = std::string_view(t).substr(end);
          if (rest.rfind("'s ", 0) == 0 || rest.rfind("\u2019s ", 0) == 0)
            continue;
        }
        push(i + 1);
        continue;
      }
      // Reading a sentence costs the square of its length (every clause
      // looks at its neighbours), so text with no full stop for pages is
      // cut into pieces at a clause boundary; no real step is this long.
      if (i - start >= kMaxSentenceBytes) {
        size_t cut = i;
        for (size_t k = i; k > start + kMaxSentenceBytes / 2; --k)
          if ((t[k - 1] == ';' || t[k - 1] == ',') && t[k] == ' ') {
            cut = k;
            break;
          }
        while (cut > start + 1 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80)
          --cut;
        push(cut);
      }
    }
    push(t.size());
  }
}


/// "the HEPES holds the pH", "keeps pH 7.4": what a buffer does to the pH is
/// a property of the liquid, no keeping of the plate.
bool buffersPh(const std::vector<Token> &toks, size_t i) {
  const Token &t = toks[i];
  if (!(t.is("holds") || t.is("hold") || t.is("keeps") || t.is("keep") || t.is("maintains") ||
        t.is("maintain") || t.is("buffers")))
    return false;
  for (size_t k = i + 1; k < toks.size() && k <= i + 2; ++k)
    if (toks[k].is("ph"))
      return true;
  return false;
}

/// Whether token `i` makes its clause a storage remark: "store", "storage",
/// "stable", or a keeping that is allowed rather than ordered ("can be
/// kept", "may be held"). "Keep the plate at 37 °C for 30 min" is a step.
bool storageWord(const std::vector<Token> &toks, size_t i) {
  const Token &t = toks[i];
  if (!t.isWord())
    return false;
  if (t.is("store") || t.is("stored") || t.is("storing") || t.is("storage") || t.is("stable") ||
      t.is("stability"))
    return true;
  if (buffersPh(toks, i))
    return true;
  // "The samples came in ... in half-litre bottles and stayed in here at
  // four degrees overnight": samples that stay somewhere before the plate
  // are kept, not incubated on it.
  if (t.is("stayed") || t.is("stay") || t.is("stays") || t.is("sat")) {
    bool samples = false, plate = false;
    for (size_t k = i; k-- > 0 && k + 16 >= i;) {
      samples = samples || toks[k].is("samples") || toks[k].is("bottles") || toks[k].is("tubes") ||
                toks[k].is("sera") || toks[k].is("aliquots") || toks[k].is("specimens");
      plate = plate || toks[k].is("plate") || toks[k].is("plates") || toks[k].is("wells");
    }
    return samples && !plate;
  }
  if (!(t.is("keep") || t.is("kept") || t.is("hold") || t.is("held")))
    return false;
  for (size_t k = i; k-- > 0 && k + 3 >= i;)
    if (toks[k].is("can") || toks[k].is("may") || toks[k].is("could") || toks[k].is("might") ||
        toks[k].is("should") || toks[k].is("must"))
      return true;
  return false;
}

/// Whether the value at tokens [first, last) is the wavelength of a filter:
/// "a 562 nm filter", "a filter between 540 and 590 nm", "filter: 450 nm".
bool namesFilter(const std::vector<Token> &toks, size_t first, size_t last) {
  auto filterWord = [](const Token &t) { return t.is("filter") || t.is("filters"); };
  if (last < toks.size() && filterWord(toks[last]))
    return true;
  // "only has 405, 450, 490, 540, 570, 595, 620 and 650 nm": the last of
  // a list of wavelengths that share its unit, what a reader offers.
  {
    unsigned listed = 0;
    for (size_t k = first; k >= 2 && (toks[k - 1].isPunct(",") || toks[k - 1].is("and") ||
                                      toks[k - 1].is("or"));
         k -= 2) {
      const Token &n = toks[k - 2];
      if (!n.isNumber() || n.number < 300 || n.number > 1000)
        break;
      ++listed;
    }
    if (listed >= 2)
      return true;
  }
  for (size_t k = first; k-- > 0 && k + 4 >= first;) {
    if (filterWord(toks[k]))
      return true;
    if (toks[k].isPunct(",") || toks[k].isPunct(";") || (toks[k].isWord() && isAnyVerb(toks[k].lower)))
      return false;
  }
  return false;
}

/// A kind of step named as a noun in the plural: "washes", "incubations".
bool stepKindNoun(const Token &t) {
  static const std::set<std::string, std::less<>> nouns = {
      "washes",    "incubations", "reads",     "readings", "shakes", "additions",
      "dispenses", "aspirations", "transfers", "mixes"};
  return t.isWord() && nouns.count(t.lower) > 0;
}

/// Whether the volume at tokens [first, last) is the size of a piece of
/// equipment: a tip, pipette, tube, trough or reservoir word right after it
/// ("4-channel head, 300 µL tips", "a 10 ml serological pipette", "50 ml
/// Falcon", "a 25 mL reservoir"), or a worklist's tip or trough name right
/// before it ("DiTi 50ul", "Trough 100ml").
bool capacityOfEquipment(const std::vector<Token> &toks, size_t first, size_t last) {
  static const std::set<std::string, std::less<>> after = {
      "tip",      "tips",    "filter",    "diti",     "ditis",        "tube",      "tubes",
      "falcon",   "falcons", "trough",    "troughs",  "reservoir",    "reservoirs", "eppendorf",
      "eppi",     "cryovial", "vial",     "vials",    "pipette",      "pipettes",  "pipettor",
      "syringe",  "deep-well", "deepwell", "conical", "serological",  "bottle",    "flask"};
  static const std::set<std::string, std::less<>> before = {"diti", "ditis", "trough",
                                                            "troughs"};
  // "100 µL pipette up and down" mixes.
  if (last + 1 < toks.size() && toks[last].is("pipette") && toks[last + 1].is("up"))
    return false;
  if (last < toks.size() && toks[last].isWord() && after.count(toks[last].lower))
    return true;
  return first >= 1 && toks[first - 1].isWord() && before.count(toks[first - 1].lower);
}

bool auxiliaryWord(const Token &t) {
  static const std::set<std::string, std::less<>> words = {
      "is",  "are", "was",  "were", "be",   "been",  "being",  "has",   "have", "had",
      "get", "got", "gets", "will", "would", "can",  "could",  "should", "may",  "might",
      "must", "shall", "does", "did"};
  return t.isWord() && words.count(t.lower) > 0;
}

/// "grown", "cultured", "boiled": how a material was made or treated
/// before the run, when no auxiliary makes it the verb of its clause
/// ("cells were grown for 24 h" is a step told in the past).
bool materialHistoryParticiple(const std::vector<Token> &toks, size_t i) {
  static const std::set<std::string, std::less<>> grown = {
      "grown", "cultured", "cultivated", "propagated", "pregrown", "pre-grown", "precultured",
      "pre-cultured", "subcultured"};
  // Done to a material in a tube or a bottle, never to a plate on the
  // deck (boiling is beyond any plate heater): "and in row B, 50 uL of
  // serum boiled for 5 min" names a control, "a dry cider, decanted ten
  // minutes before" a wine, whatever else the sentence says.
  static const std::set<std::string, std::less<>> treated = {
      "boiled", "autoclaved", "heat-inactivated", "heat-killed", "heat-treated", "decanted"};
  if (!toks[i].isWord() || !(grown.count(toks[i].lower) || treated.count(toks[i].lower)))
    return false;
  for (size_t k = i; k-- > 0 && k + 2 >= i;)
    if (auxiliaryWord(toks[k]))
      return false;
  if (treated.count(toks[i].lower))
    return true;
  // Another verb must act on the material ("... grown in LB were diluted",
  // "add cells grown overnight"); alone, "Cells grown 24 h at 37 °C" may be
  // a step written short.
  for (size_t k = 0; k < toks.size(); ++k)
    if (k != i && toks[k].isWord() && (isAnyVerb(toks[k].lower) || (k > i && auxiliaryWord(toks[k]))))
      return true;
  return false;
}

/// "BX-214 added Wed 13 Mar", "seeded on Monday", "coated yesterday": a step
/// dated in the past was done before this run; the times and temperatures
/// that follow in its clause ("..., so 48 h exposure at the times below")
/// tell how long ago, not what to do.
bool datedPastStep(const std::vector<Token> &toks, size_t i) {
  const Token &t = toks[i];
  if (!t.isWord() || !participle(t.lower))
    return false;
  static const std::set<std::string, std::less<>> weekdays = {
      "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
  static const std::set<std::string, std::less<>> shortWeekdays = {
      "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"};
  static const std::set<std::string, std::less<>> months = {
      "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun",
      "june", "jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october",
      "nov", "november", "dec", "december"};
  size_t k = i + 1;
  if (k < toks.size() && toks[k].is("on"))
    ++k;
  if (k >= toks.size() || !toks[k].isWord())
    return false;
  const std::string &w = toks[k].lower;
  bool numberNext = k + 1 < toks.size() && toks[k + 1].isNumber();
  if (weekdays.count(w) || w == "yesterday")
    return true;
  if (w == "last" && k + 1 < toks.size() &&
      (toks[k + 1].is("night") || toks[k + 1].is("week") || weekdays.count(toks[k + 1].lower)))
    return true;
  if (shortWeekdays.count(w) && numberNext)
    return true;
  // "added 13 Mar" reads as a number first.
  return months.count(w) && numberNext && w != "may";
}

/// "overnight cultures", "an 18 h starter": a time that gives a material's
/// age.
bool culturesAge(const std::vector<Token> &toks, size_t last) {
  static const std::set<std::string, std::less<>> words = {
      "culture", "cultures", "preculture", "precultures", "subculture", "subcultures",
      "starter", "starters", "inoculum", "inocula"};
  return last < toks.size() && toks[last].isWord() && words.count(toks[last].lower) > 0;
}

/// "Two hours is two hours.", "a minute means a minute": a time said to be
/// itself insists on the time of a step told beside it; it is no step.
bool saidToBeItself(const std::vector<Token> &toks, const prose::Quantity &q,
                    const Platform &platform, std::string_view source) {
  auto same = [&](const std::optional<prose::Quantity> &other) {
    return other && other->dimension == q.dimension && other->value.low == q.value.low &&
           other->value.high == q.value.high;
  };
  auto copula = [](const Token &t) { return t.is("is") || t.is("means") || t.is("are"); };
  if (q.last + 1 < toks.size() && copula(toks[q.last]))
    if (same(prose::quantityAt(toks, q.last + 1, platform, source)))
      return true;
  if (q.first >= 2 && copula(toks[q.first - 1]))
    for (size_t k = q.first - 1; k-- > 0 && k + 4 >= q.first;)
      if (auto other = prose::quantityAt(toks, k, platform, source);
          other && other->last + 1 == q.first && same(other))
        return true;
  return false;
}

/// "Five minutes later, fifteen minutes after the reagent.": in a sentence
/// with no verb, a time right before "after the ..." or "after adding"
/// says how long since that addition a moment falls (when the next step
/// happens), not how long anything waits.
/// A "Five minutes later" in that sentence tells the same moment.
bool elapsedSinceAddition(const std::vector<Token> &toks, size_t last) {
  auto sinceAddition = [&](size_t k) {
    return k + 1 < toks.size() && toks[k].is("after") &&
           (toks[k + 1].is("the") || toks[k + 1].is("adding") || toks[k + 1].is("addition") ||
            toks[k + 1].is("its"));
  };
  if (std::any_of(toks.begin(), toks.end(),
                  [](const Token &t) { return t.isWord() && isAnyVerb(t.lower); }))
    return false;
  if (sinceAddition(last))
    return true;
  if (last >= toks.size() || !toks[last].is("later"))
    return false;
  for (size_t k = last + 1; k + 1 < toks.size(); ++k)
    if (sinceAddition(k) && k > 0 && toks[k - 1].isWord() && !toks[k - 1].is("later"))
      return true;
  return false;
}

/// "the 30 min read", "a 24 h plate", "each 10-min reading": a time in a
/// noun phrase that names a moment, not how long anything waits. A noun of
/// waiting ("a 1 h incubation", "a 30 min period") or of another step ("a
/// 5 min wash") keeps its time.
bool labelsTimePoint(const std::vector<Token> &toks, size_t first, size_t last,
                     const Platform &platform, std::string_view source) {
  static const std::set<std::string, std::less<>> determiners = {
      "the", "a", "an", "each", "every", "this", "that", "our", "their", "its", "your"};
  static const std::set<std::string, std::less<>> waiting = {
      "incubation", "incubations", "preincubation", "pre-incubation", "period", "periods",
      "wait", "waiting", "hold", "holding", "pause", "rest", "resting", "soak", "soaking",
      "step", "steps", "stage", "treatment", "exposure", "development", "reaction", "delay",
      "equilibration", "timer", "interval", "intervals", "blocking", "staining", "coating",
      "run", "cycle", "phase", "window", "binding", "digestion", "stimulation", "kinetic",
      "kinetics", "total", "dark", "static", "room", "ambient", "cold", "warm", "heated",
      "covered", "sealed", "further", "additional", "more", "extra", "longer", "at", "in", "on",
      "for", "with", "without", "of", "to", "and", "or", "then", "before", "after", "until",
      "under", "while", "during", "per", "from", "by", "later", "less", "prior", "followed",
      "again", "only", "max", "maximum", "minimum", "approx", "approximately", "each", "every",
      "if", "when", "so", "is", "are", "was", "were", "will", "should", "must", "can", "it",
      "they", "this", "that", "the", "a", "an"};
  // "30-second look under the microscope": a time joined to its noun by a
  // hyphen is an adjective also where a sentence or clause opens.
  // The tokenizer splits "30-second" into "30" and "second".
  bool hyphenated = first + 1 < last && toks[first].end < source.size() &&
                    source[toks[first].end] == '-' && toks[first + 1].begin == toks[first].end + 1;
  bool opensClause = first == 0 || toks[first - 1].isPunct(",") || toks[first - 1].isPunct(";") ||
                     toks[first - 1].isPunct(".") ||
                     toks[first - 1].isPunct(":") || toks[first - 1].isPunct("(");
  bool determined = first > 0 && determiners.count(toks[first - 1].lower);
  if (!(determined || (hyphenated && opensClause)) || last >= toks.size() ||
      !toks[last].isWord() || waiting.count(toks[last].lower))
    return false;
  if (auto it = verbs().find(toks[last].lower); it != verbs().end() && it->second != ActionClass::Read)
    return false;
  return !prose::quantityAt(toks, last, platform, source);
}

/// "in our hands the transfer changed the A595 by less than 3 %", "A570 of
/// the blank should stay below 0.1": an absorbance named in a clause whose
/// verb is some other, in a sentence with no verb of reading, is a remark on
/// a reading. A quick card's "A450 within 30 min" has no verb and is a read.
bool remarkOnAbsorbance(const std::vector<Token> &toks, size_t at) {
  static const std::set<std::string, std::less<>> reading = {
      "determine", "determined", "obtain", "obtained", "monitor", "monitored", "follow",
      "followed", "take", "taken", "acquire", "acquired", "collect", "collected", "detect",
      "detected", "quantify", "quantified", "assess", "assessed", "estimate", "estimated",
      "reading", "readings", "read-out", "readout", "recording", "measurement", "measurements"};
  for (const Token &t : toks) {
    if (!t.isWord())
      continue;
    auto it = verbs().find(t.lower);
    if ((it != verbs().end() && it->second == ActionClass::Read) || reading.count(t.lower))
      return false;
  }
  size_t begin = at, end = at;
  while (begin > 0 && !toks[begin - 1].isPunct(";") && !toks[begin - 1].is("then"))
    --begin;
  while (end < toks.size() && !toks[end].isPunct(";") && !toks[end].is("then"))
    ++end;
  static const std::set<std::string, std::less<>> irregular = {
      "gave", "gives", "give", "shows", "showed", "rose", "rises", "fell", "falls", "made",
      "makes", "became", "becomes", "stays", "stayed", "remains", "exceeds", "exceed"};
  static const std::set<std::string, std::less<>> determiners = {
      "the", "a", "an", "its", "their", "our", "this", "that", "these", "those"};
  for (size_t k = begin; k < end; ++k) {
    const Token &t = toks[k];
    if (k == at || !t.isWord())
      continue;
    if (auxiliaryWord(t))
      return true;
    bool past = (t.lower.size() >= 5 && t.lower.compare(t.lower.size() - 2, 2, "ed") == 0 &&
                 t.lower.compare(t.lower.size() - 3, 3, "eed") != 0) ||
                irregular.count(t.lower);
    if (past && k + 1 < end && determiners.count(toks[k + 1].lower))
      return true;
  }
  return false;
}

/// The word after an absorbance ("A490 mean", "OD450 values", "A562
/// (corrected)") names a quantity computed from readings.
bool absorbanceAsData(const std::vector<Token> &toks, size_t after) {
  static const std::set<std::string, std::less<>> data = {
      "mean", "means", "average", "averages", "avg", "sd", "sem", "cv", "median", "value",
      "values", "corr", "corrected", "net", "delta", "ratio", "data", "result", "results",
      "range", "units"};
  if (after < toks.size() && toks[after].isPunct("(") && after + 1 < toks.size())
    ++after;
  return after < toks.size() && toks[after].isWord() && data.count(toks[after].lower) > 0;
}

/// "~", "about", "ca": a word that makes the number after it rough.
bool roughlyWord(const Token &t) {
  return t.isPunct("~") || t.isPunct("≈") || t.is("about") || t.is("approximately") ||
         t.is("approx") || t.is("around") || t.is("roughly") || t.is("ca");
}

/// "1.0 absorbance units at 595 nm", "0.8 OD at 450 nm", "an absorbance of
/// about 1.0 at 595 nm": the wavelength at `at` comes after the value that
/// a well reads there.
bool absorbanceValueBefore(const std::vector<Token> &toks, size_t at) {
  auto absorbanceWord = [](const Token &t) {
    return t.is("absorbance") || t.is("abs") || t.is("au") || t.is("od") || t.is("a.u");
  };
  if (at < 3 || !toks[at - 1].is("at"))
    return false;
  size_t k = at - 2;
  if (toks[k].is("units") || toks[k].is("unit"))
    --k;
  // "1.0 absorbance units", "0.8 OD".
  if (absorbanceWord(toks[k]) && k > 0 && toks[k - 1].isNumber())
    return true;
  // "an absorbance of (about) 1.0".
  if (!toks[k].isNumber() || k < 2)
    return false;
  --k;
  if (roughlyWord(toks[k]) && k > 1)
    --k;
  return toks[k].is("of") && absorbanceWord(toks[k - 1]);
}

/// Whether an action of `cls` takes a value of `p` while its clause is read.
bool benchVerb(std::string_view verb) {
  for (std::string_view stem :
       {"centrifug", "spin", "spun", "vortex", "sonicat", "lyse", "lysing", "harvest",
        "homogeni", "boil"})
    if (verb.rfind(stem, 0) == 0)
      return true;
  return false;
}

bool accepts(const Draft &d, Param p, const Value &v) {
  const Action &a = d.action;
  auto free = [&](Param q) { return !a.has(q); };
  bool bound = !v.exact();
  switch (a.cls) {
  case ActionClass::Dispense: return p == Param::Volume && free(Param::Volume);
  case ActionClass::Aspirate: return p == Param::Volume && free(Param::Volume);
  case ActionClass::Transfer: return p == Param::Volume && free(Param::Volume);
  case ActionClass::Wash:
    return (p == Param::Volume && free(Param::Volume)) ||
           (p == Param::Cycles && free(Param::Cycles)) || (p == Param::Time && free(Param::Time));
  case ActionClass::Mix:
    return (p == Param::Cycles && free(Param::Cycles)) ||
           (p == Param::Volume && free(Param::Volume)) || (p == Param::Time && free(Param::Time)) ||
           (p == Param::Speed && free(Param::Speed));
  case ActionClass::Incubate:
    return (p == Param::Time && (free(Param::Time) || bound)) ||
           (p == Param::Temperature && (free(Param::Temperature) || bound)) ||
           (p == Param::Speed && free(Param::Speed));
  case ActionClass::Shake:
    return (p == Param::Time && free(Param::Time)) || (p == Param::Speed && free(Param::Speed)) ||
           (p == Param::Temperature && free(Param::Temperature));
  case ActionClass::Read:
    return (p == Param::Wavelength) || (p == Param::Reference && free(Param::Reference));
  case ActionClass::ReadFluorescence: return p == Param::Wavelength;
  case ActionClass::Analyze: return p == Param::Wavelength && free(Param::Wavelength);
  case ActionClass::Wait: return p == Param::Time && free(Param::Time);
  case ActionClass::Magnet: return p == Param::Time && free(Param::Time);
  case ActionClass::Prepare:
    if (benchVerb(d.verb))
      return p == Param::Time || p == Param::Speed || p == Param::Temperature;
    // "Prepare 10 mL of working reagent"; a dilution takes only its ratio
    // ("diluted 1:100, 100 µL per well" adds 100 µL).
    return p == Param::Ratio ||
           (p == Param::Volume && free(Param::Volume) &&
            (d.verb == "prepare" || d.verb == "prepared" || d.verb == "make" ||
             d.verb == "reconstitute" || d.verb == "reconstituted"));
  case ActionClass::Equilibrate:
    return (p == Param::Temperature && free(Param::Temperature)) ||
           (p == Param::Time && free(Param::Time));
  case ActionClass::Note: return p != Param::Wavelength && p != Param::Volume;
  }
  return false;
}

Param paramOf(Dimension dimension) {
  switch (dimension) {
  case Dimension::Volume: return Param::Volume;
  case Dimension::Time: return Param::Time;
  case Dimension::Temperature: return Param::Temperature;
  case Dimension::Speed: return Param::Speed;
  case Dimension::Wavelength: return Param::Wavelength;
  case Dimension::Count: return Param::Cycles;
  case Dimension::Ratio: return Param::Ratio;
  case Dimension::Concentration: return Param::Ratio;
  }
  return Param::Ratio;
}

/// On a quick card "TMB 100 µl → 15 min RT, dark" and "stop 50 µl → A450"
/// chain steps: an arrow to a time or a wavelength leads to the next step
/// (an incubation, a read), while an arrow to a volume or an amount states
/// what the wells hold afterwards ("→ 200 µl").
/// "pre-incubation 10 -> 15 min" is a value changed, not a step.
bool arrowStartsStep(Param p, const std::vector<Token> &toks, size_t arrow) {
  if (p != Param::Time && p != Param::Wavelength)
    return false;
  size_t before = toks[arrow].isPunct(">") && arrow > 0 ? arrow - 1 : arrow;
  return !toks[arrow].isPunct("=") && !toks[before].isPunct("=") &&
         !(before > 0 && toks[before - 1].kind == Token::Kind::Number);
}

/// Whether the volume at tokens [first, last) is what a tube holds while it
/// is treated ("heat 100 uL of", "200 uL of X was boiled"), not an addition.
bool heldAmount(const std::vector<Token> &toks, size_t first, size_t last) {
  static const std::set<std::string, std::less<>> treatments = {
      "heat",  "heated", "boil",   "boiled", "freeze", "frozen", "thaw",
      "thawed", "chill", "chilled", "cool",  "cooled", "store",  "stored"};
  if (first > 0 && treatments.count(toks[first - 1].lower))
    return true;
  for (size_t k = last; k + 1 < toks.size() && k < last + 10; ++k) {
    // "of L. Brandt's saliva": an initial's period ends no clause.
    bool initial = toks[k].isPunct(".") && k > 0 && toks[k - 1].text.size() == 1 &&
                   std::isupper(static_cast<unsigned char>(toks[k - 1].text[0]));
    if (toks[k].isPunct(",") || toks[k].isPunct(";") || (toks[k].isPunct(".") && !initial) ||
        toks[k].isNumber())
      return false;
    if ((toks[k].is("was") || toks[k].is("were")) && treatments.count(toks[k + 1].lower))
      return true;
  }
  return false;
}

/// The class a lone value implies.
ActionClass impliedClass(Param p) {
  switch (p) {
  case Param::Volume: return ActionClass::Dispense;
  case Param::Time:
  case Param::Temperature: return ActionClass::Incubate;
  case Param::Speed: return ActionClass::Shake;
  case Param::Wavelength:
  case Param::Reference: return ActionClass::Read;
  default: return ActionClass::Note;
  }
}

/// "10 ul vs 20 ul": a value beside "vs" or "versus" is one of two
/// weighed against each other.
bool weighedAt(const std::vector<Token> &toks, size_t first, size_t last) {
  auto weighs = [&](size_t k) { return k < toks.size() && (toks[k].is("vs") || toks[k].is("versus")); };
  if (weighs(last) || (last + 1 < toks.size() && toks[last].isPunct(".") && weighs(last + 1)))
    return true;
  if (first >= 1 && weighs(first - 1))
    return true;
  return first >= 2 && toks[first - 1].isPunct(".") && weighs(first - 2);
}

/// "630 nm as reference was proposed, but ...", "72 h was discussed and
/// rejected": the clause of the value (up to a comma, a semicolon or a
/// colon) says it was put forward or turned down, not done.
bool proposedInClause(const std::vector<Token> &toks, size_t at) {
  auto boundary = [&](size_t k) {
    return toks[k].isPunct(",") || toks[k].isPunct(";") || toks[k].isPunct(":") ||
           toks[k].isPunct(".");
  };
  size_t begin = at, end = at;
  while (begin > 0 && !boundary(begin - 1))
    --begin;
  while (end < toks.size() && !boundary(end))
    ++end;
  for (size_t k = begin; k < end; ++k) {
    bool passive = k > 0 && (toks[k - 1].is("was") || toks[k - 1].is("were"));
    if (toks[k].is("rejected") ||
        (passive && (toks[k].is("proposed") || toks[k].is("suggested") ||
                     toks[k].is("discussed") || toks[k].is("considered") ||
                     toks[k].is("debated") || toks[k].is("tried"))))
      return true;
  }
  return false;
}

Domain combine(bool person, bool robot) {
  if (person && robot)
    return Domain::Both;
  return person ? Domain::Person : robot ? Domain::Robot : Domain::Unstated;
}

void markersIn(const std::vector<Token> &toks, size_t first, size_t last, bool &person,
               bool &robot) {
  for (size_t i = first; i < last && i < toks.size(); ++i) {
    const Token &t = toks[i];
    if (!t.isWord())
      continue;
    if (kPersonWords.count(t.lower) || t.lower.rfind("hand-", 0) == 0)
      person = true;
    if (t.is("hand") && i > 0 && toks[i - 1].is("by"))
      person = true;
    // "Seed cells [HAND]", "(hand)": a tag in brackets.
    if (t.is("hand") && i > 0 && i + 1 < toks.size() &&
        (toks[i - 1].isPunct("[") || toks[i - 1].isPunct("(")) &&
        (toks[i + 1].isPunct("]") || toks[i + 1].isPunct(")")))
      person = true;
    if ((t.is("water") && i + 1 < toks.size() && toks[i + 1].is("bath")) ||
        (t.is("heat") && i + 1 < toks.size() && toks[i + 1].is("block")) ||
        (t.is("cold") && i + 1 < toks.size() && toks[i + 1].is("room")) ||
        (t.is("on") && i + 1 < toks.size() && toks[i + 1].is("ice")))
      person = true;
    // "the run pauses here for you: take the plate off ...": what follows
    // the pause is the reader's work.
    if (t.is("you") && i >= 2 && toks[i - 1].is("for"))
      for (size_t k = i - 2; k + 5 >= i && k < toks.size(); --k) {
        if (toks[k].is("pauses") || toks[k].is("pause") || toks[k].is("paused") ||
            toks[k].is("stops") || toks[k].is("waits") || toks[k].is("halts"))
          person = true;
        if (k == 0)
          break;
      }
    if (kRobotWords.count(t.lower))
      robot = true;
    if (t.is("liquid") && i + 1 < toks.size() && toks[i + 1].is("handler"))
      robot = true;
  }
}

Domain Reader::domainAround(const Sentence &s, size_t first, size_t last,
                            const std::vector<std::pair<size_t, size_t>> &spans,
                            size_t self) const {
  bool person = false, robot = false;
  markersIn(s.tokens, first, last, person, robot);
  if (person || robot)
    return combine(person, robot);
  // A clause of its own (between `;`) with this action alone.
  size_t clauseStart = first, clauseEnd = last;
  while (clauseStart > 0 && !s.tokens[clauseStart - 1].isPunct(";"))
    --clauseStart;
  while (clauseEnd < s.tokens.size() && !s.tokens[clauseEnd].isPunct(";"))
    ++clauseEnd;
  unsigned inClause = 0;
  for (size_t k = 0; k < spans.size(); ++k)
    if (spans[k].first < clauseEnd && spans[k].second > clauseStart)
      ++inClause;
  if (inClause <= 1 || spans.size() == 1) {
    markersIn(s.tokens, inClause <= 1 ? clauseStart : 0, inClause <= 1 ? clauseEnd : s.tokens.size(),
              person, robot);
    if (person || robot)
      return combine(person, robot);
  }
  // "... dunk the plate four times ... then tap it out and let it air dry
  // on the bench like fifteen minutes": in a long sentence of many steps,
  // the words since the last "and", "then" or comma lead up to this step.
  // A person named there takes it; the robot named there is left to the
  // clause (a certain finding needs more than a place in a run-on
  // sentence).
  size_t leadStart = first;
  while (leadStart > 0 && first - leadStart < 8) {
    const Token &t = s.tokens[leadStart - 1];
    if (t.is("and") || t.is("then") || (!t.isWord() && !t.isNumber()))
      break;
    --leadStart;
  }
  bool leadPerson = false, leadRobot = false;
  markersIn(s.tokens, leadStart, first, leadPerson, leadRobot);
  if (leadPerson && !leadRobot)
    return Domain::Person;
  (void)self;
  return out_.units[s.unit].domain;
}

/// Words that make a sentence conditional or optional.
bool conditionalWords(const std::vector<Token> &toks, size_t lastActionToken) {
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token &t = toks[i];
    // "..., with a 570 nm reference if available": a value made optional,
    // not the step.
    if (t.is("if") && i > lastActionToken && i + 1 < toks.size() &&
        (toks[i + 1].is("available") || toks[i + 1].is("desired") || toks[i + 1].is("possible") ||
         toks[i + 1].is("needed") || toks[i + 1].is("necessary") || toks[i + 1].is("required")))
      continue;
    if (t.is("optional") && i > lastActionToken)
      continue;
    // "Background too high: discard, check the washes, repeat", "Signal too
    // low -> extend TMB": a judgement before a colon or an arrow is the
    // condition of what follows.
    if (t.is("too") && i + 2 < toks.size() && toks[i + 1].isWord() &&
        (toks[i + 2].isPunct(":") || toks[i + 2].isPunct("->") || toks[i + 2].isPunct("→") ||
         toks[i + 2].isPunct("=>")))
      return true;
    // How the step is done, not whether: "avoid direct light", "taking
    // care not to disturb the cells", "NOT on the heating plate", "(4
    // this time, not 3)", "the pre-immune row should stay pale".
    if (t.is("avoid") && i + 1 < toks.size() &&
        (toks[i + 1].is("light") || toks[i + 1].is("direct") || toks[i + 1].is("bubbles") ||
         toks[i + 1].is("drying") || toks[i + 1].is("evaporation") ||
         toks[i + 1].is("touching") || toks[i + 1].is("splashing")))
      continue;
    if (t.is("not") && i > 0 && (toks[i - 1].is("care") || toks[i - 1].isPunct(",")) &&
        i + 1 < toks.size() && (toks[i + 1].is("to") || toks[i + 1].isNumber()))
      continue;
    if (t.is("not") && i + 1 < toks.size() && (toks[i + 1].is("on") || toks[i + 1].is("in")) &&
        i > lastActionToken)
      continue;
    if (t.is("should") && i + 1 < toks.size() &&
        (toks[i + 1].is("stay") || toks[i + 1].is("look") || toks[i + 1].is("turn") ||
         toks[i + 1].is("remain") || toks[i + 1].is("appear") || toks[i + 1].is("become")))
      continue;
    if (t.is("if") || t.is("unless") || t.is("optional") || t.is("optionally") ||
        t.is("alternatively") || t.is("alternative") || t.is("may") || t.is("should") ||
        t.is("can") || t.is("could") || t.is("might") || t.is("avoid") || t.is("never") ||
        t.is("do") || t.is("don't") || t.is("not") || t.is("else") || t.is("otherwise"))
      if (!(t.is("not") && i > 0 && (toks[i - 1].is("do") || toks[i - 1].is("should"))) &&
          !(t.is("do") && i + 1 < toks.size() && !toks[i + 1].is("not")) &&
          !(t.is("not") && i + 1 < toks.size() && (toks[i + 1].is("more") || toks[i + 1].is("longer") || toks[i + 1].is("exceeding") || toks[i + 1].is("less"))))
        return true;
  }
  return false;
}

/// Whether the volume at `first..last` follows a removal that named what it
/// removes ("remove PBS, 100 uL 4% PFA") and starts an addition of another
/// liquid with its verb left out.
/// "during the 30 min," / "throughout the 2 h.": a time after "during the"
/// that ends its phrase names a period the text told before.
bool namesPeriodToldBefore(const std::vector<Token> &toks, size_t first, size_t last) {
  return first >= 2 && toks[first - 1].is("the") &&
         (toks[first - 2].is("during") || toks[first - 2].is("throughout")) &&
         (last >= toks.size() || toks[last].isPunct(",") || toks[last].isPunct(".") ||
          toks[last].isPunct(";"));
}

bool removalThenAddition(const std::vector<Draft> &drafts, int cur, const std::vector<Token> &toks,
                         size_t first, size_t last) {
  if (cur < 0)
    return false;
  const Draft &d = drafts[static_cast<size_t>(cur)];
  // Past a strength ("100 uL 4% PFA", "50 uL 0.1 M HCl").
  if (last + 1 < toks.size() && toks[last].isNumber() &&
      (toks[last + 1].isPunct("%") || (toks[last + 1].isWord() && toks[last + 1].text.size() <= 2 &&
                                       toks[last + 1].text.find_first_of("MNmn") == 0)))
    last += 2;
  if (d.action.cls != ActionClass::Aspirate || !d.explicitVerb || d.action.has(Param::Volume) ||
      first < 2 || !toks[first - 1].isPunct(",") || last >= toks.size() || !toks[last].isWord())
    return false;
  static const std::set<std::string, std::less<>> notALiquid = {
      "per", "each", "of", "from", "to", "into", "in", "out", "off", "remaining", "residual",
      "left", "more", "total", "and", "or", "at", "for", "with", "a", "the", "all", "well",
      "wells", "volume", "liquid", "supernatant", "x", "times", "then", "max", "maximum"};
  if (notALiquid.count(toks[last].lower) || proseUnit(toks[last].text))
    return false;
  // What the removal names, between its verb and the comma.
  std::vector<std::string_view> removed;
  for (size_t k = d.firstToken + 1; k + 1 < first; ++k) {
    if (!toks[k].isWord())
      return false;
    if (!toks[k].is("the") && !toks[k].is("all") && !toks[k].is("off") && !toks[k].is("old"))
      removed.push_back(toks[k].lower);
  }
  return !removed.empty() && removed.size() <= 3 &&
         std::find(removed.begin(), removed.end(), toks[last].lower) == removed.end();
}

/// "All incubations are ...", "Each incubation step is ...", "Every wash
/// is ...": a sentence whose subject is every step of a kind.
/// The numbers of a formula's right-hand side ("U/L = c * 0.100 / (0.050
/// * 30) * dilution"): the operands of a product or a quotient after an
/// "=", up to the end of its clause. A slash inside a word ("w/", "O/N")
/// is no operator.
std::vector<double> formulaTerms(std::string_view text) {
  std::vector<double> terms;
  std::vector<Token> toks = prose::tokenize(text);
  auto operatorAt = [&](size_t k) {
    const Token &t = toks[k];
    if (t.isPunct("*") || t.isPunct("×") || t.isPunct("÷"))
      return true;
    if (!t.isPunct("/"))
      return false;
    auto loose = [](char c) { return c == ' ' || c == '(' || c == ')' || isDigitChar(c); };
    return t.begin > 0 && t.end < text.size() && loose(text[t.begin - 1]) && loose(text[t.end]);
  };
  for (size_t k = 0; k < toks.size(); ++k) {
    if (!toks[k].isPunct("="))
      continue;
    size_t e = k + 1;
    while (e < toks.size() && !toks[e].isPunct(";") && !toks[e].isPunct("\"") &&
           !toks[e].isPunct("="))
      ++e;
    for (size_t n = k + 1; n < e; ++n) {
      if (!toks[n].isNumber())
        continue;
      auto beside = [&](size_t m) {
        return m > k && m < e &&
               (operatorAt(m) || toks[m].isPunct("(") || toks[m].isPunct(")"));
      };
      if (beside(n - 1) || beside(n + 1))
        terms.push_back(toks[n].number);
    }
    k = e - 1;
  }
  return terms;
}

bool blanketCondition(const std::vector<Token> &toks, bool *definition = nullptr) {
  size_t k = 0;
  while (k < toks.size() && !toks[k].isWord())
    ++k;
  if (k + 2 >= toks.size() || !(toks[k].is("all") || toks[k].is("each") || toks[k].is("every")))
    return false;
  size_t n = k + 1;
  if (toks[n].is("the") || toks[n].is("of"))
    ++n;
  if (n < toks.size() && toks[n].is("the"))
    ++n;
  static const std::set<std::string, std::less<>> kinds = {
      "incubation", "incubations", "wash", "washes", "washing", "steps", "step"};
  if (n >= toks.size() || !kinds.count(toks[n].lower))
    return false;
  ++n;
  if (n < toks.size() && (toks[n].is("step") || toks[n].is("steps")))
    ++n;
  if (n < toks.size() && definition)
    *definition = toks[n].isPunct(":") || toks[n].is("at");
  // "All washes: 3x 300 uL/well wash buffer", "All incubations at RT": a
  // heading's colon or a bare condition sets the kind's values for every
  // step of it, as "all incubations are at RT" does.
  return n < toks.size() && (toks[n].is("are") || toks[n].is("is") || toks[n].is("should") ||
                             toks[n].is("must") || toks[n].is("were") || toks[n].is("take") ||
                             toks[n].isPunct(":") || toks[n].is("at"));
}

/// "What A570 do you expect for it?", "Why do we subtract the blank?": a
/// question, by its mark and its first word. "read OD 510 nm (no 510
/// filter?" is an order with a doubt in brackets.
bool asksQuestion(const std::vector<Token> &toks) {
  static const std::set<std::string, std::less<>> asking = {
      "what", "why", "how", "which", "when", "where", "who", "whose", "is", "are",
      "do", "does", "did", "can", "could", "should", "would", "will", "shall", "may"};
  if (toks.empty() || !toks.back().isPunct("?"))
    return false;
  int depth = 0;
  for (const Token &t : toks)
    depth += t.isPunct("(") ? 1 : t.isPunct(")") && depth > 0 ? -1 : 0;
  if (depth > 0)
    return false;
  // "... = 3x, yes?", "30 min then, right?": a tag asks to confirm; "30 or
  // 60 min?" asks to choose.
  static const std::set<std::string, std::less<>> tags = {
      "yes", "right", "ok", "okay", "correct", "yeah", "agreed", "no", "true"};
  if (toks.size() >= 3 && toks[toks.size() - 2].isWord() && tags.count(toks[toks.size() - 2].lower) &&
      (toks[toks.size() - 3].isPunct(",") || toks[toks.size() - 3].isPunct("-")))
    return true;
  if (std::any_of(toks.begin(), toks.end(), [](const Token &t) { return t.is("or"); }))
    return true;
  for (const Token &t : toks)
    if (t.isWord())
      return asking.count(t.lower) > 0;
  return false;
}

/// "Shorter than 10 min underestimates slow binders", "More than 600 rpm
/// splashes", "Above 30 °C the blank rises": a sentence that opens with a
/// comparison tells what happens past a bound; the step itself is stated
/// elsewhere.
bool comparesAgainstBound(const std::vector<Token> &toks) {
  static const std::set<std::string, std::less<>> comparatives = {
      "shorter", "longer", "less", "more", "fewer", "higher", "lower", "faster", "slower",
      "warmer", "colder", "hotter", "cooler", "greater", "smaller", "larger"};
  if (toks.size() < 3 || !toks[0].isWord())
    return false;
  if (comparatives.count(toks[0].lower) && toks[1].is("than"))
    return toks[2].isNumber();
  return (toks[0].is("above") || toks[0].is("below")) && toks[1].isNumber();
}

/// A sentence that reports results already had ("Last run: ...", "On the
/// previous plate the top standard gave ...", "Typically ...", "Expected
/// values: ..."): its values are data, not steps to do.
bool reportsPastResults(const std::vector<Token> &toks) {
  // "Expected: 48 wells with 10 uL", "Expected result: about 2 min; wells
  // now hold 200 uL": a runbook's line under a step says what the step
  // should give, to check against, as a past run's results do.
  if (toks.size() >= 3 && (toks[0].is("expected") || toks[0].is("expect"))) {
    size_t k = 1;
    if (toks[k].is("result") || toks[k].is("results") || toks[k].is("output") ||
        toks[k].is("outcome") || toks[k].is("state"))
      ++k;
    if (k < toks.size() && toks[k].isPunct(":"))
      return true;
  }
  // "Runs 1 and 2: 30 min at 37 °C", "Runs 4-6: 1:10": earlier runs named
  // as the sentence's subject, reported beside the one planned.
  if (toks.size() >= 4 && (toks[0].is("run") || toks[0].is("runs"))) {
    size_t numbers = 0, k = 1;
    for (; k < toks.size() && k < 8; ++k) {
      if (toks[k].isNumber())
        ++numbers;
      else if (!(toks[k].is("and") || toks[k].isPunct(",") || toks[k].isPunct("-") ||
                 toks[k].isPunct("&") || toks[k].isPunct("–")))
        break;
    }
    if (numbers >= 2 && k < toks.size() && toks[k].isPunct(":"))
      return true;
  }
  // "The Trolox curve was linear from 0.025 to 0.25 mM (R^2 = 0.998, slope
  // ...)": a goodness of fit with its value reports a curve already made.
  for (size_t i = 0; i < toks.size(); ++i) {
    size_t next = i + 1;
    bool rSquared = toks[i].is("r2") || toks[i].lower == "r²";
    if (toks[i].is("r") && i + 2 < toks.size() && toks[i + 1].isPunct("^") && toks[i + 2].text == "2") {
      rSquared = true;
      next = i + 3;
    }
    if (!rSquared)
      continue;
    if (next < toks.size() && toks[next].isPunct("="))
      ++next;
    if (next < toks.size() && toks[next].isNumber())
      return true;
    // "R² of the 4PL fit ≥ 0.99", "Acceptance: R2 must be at least 0.98":
    // a sentence that opens with a criterion the fit is judged by, not a
    // second fit. Inside a methods sentence ("... a blank-subtracted
    // linear fit of the standards (R² ≥ 0.998; LOD 1.2 µM)") the criterion
    // is an aside of the steps around it.
    for (size_t k = next; i < 4 && k < toks.size() && k < next + 6; ++k) {
      bool bound = toks[k].isPunct("=") || toks[k].isPunct("≥") || toks[k].isPunct(">") ||
                   toks[k].isPunct("≤") || toks[k].isPunct("<") || toks[k].is("least") ||
                   toks[k].is("above") || toks[k].is("below") || toks[k].is("exceed") ||
                   toks[k].is("exceeds");
      if (!bound)
        continue;
      for (size_t m = k + 1; m < toks.size() && m <= k + 2; ++m)
        if (toks[m].isNumber())
          return true;
    }
  }
  // "A typical 100 µg/mL BSA well reads about 0.15 above the blank at 650
  // nm": what a well usually reads, a value to expect.
  if (toks.size() >= 4 &&
      (toks[0].is("typical") || ((toks[0].is("a") || toks[0].is("the")) && toks[1].is("typical")))) {
    for (size_t k = 1; k < toks.size() && k < 12; ++k) {
      if (!(toks[k].is("reads") || toks[k].is("gives") || toks[k].is("shows") ||
            toks[k].is("yields") || toks[k].is("gave") || toks[k].is("read")))
        continue;
      for (size_t m = k + 1; m < toks.size() && m <= k + 3; ++m)
        if (toks[m].isNumber())
          return true;
    }
  }
  static const std::set<std::string, std::less<>> occasions = {
      "run", "runs", "time", "plate", "plates", "batch", "assay", "experiment", "week", "day"};
  static const std::set<std::string, std::less<>> findings = {
      "values", "value", "results", "result", "readings", "reading", "data", "ods", "figures",
      "numbers"};
  for (size_t i = 0; i < toks.size() && i < 4; ++i) {
    const Token &t = toks[i];
    if (!t.isWord())
      continue;
    if ((t.is("last") || t.is("previous") || t.is("prior")) && i + 1 < toks.size() &&
        occasions.count(toks[i + 1].lower))
      return true;
    if (i == 0 && (t.is("typically") || t.is("usually")) && i + 1 < toks.size() &&
        !isAnyVerb(toks[i + 1].lower))
      return true;
    if ((t.is("typical") || t.is("expected") || t.is("example") || t.is("representative")) &&
        i + 1 < toks.size() && findings.count(toks[i + 1].lower))
      return true;
  }
  return false;
}

void Reader::readSentence(unsigned index) {
  Sentence &s = sentences_[index];
  const TextUnit &unit = out_.units[s.unit];
  const std::vector<Token> &toks = s.tokens;
  std::vector<Draft> drafts;
  int cur = -1;
  std::optional<bool> pendingDark, pendingLid;
  // A remark in square brackets may run over sentences and lines ("[rev B
  // said 45 min - WRONG. ISO 14184-1 is 30 min at 40 C. Rev C corrects
  // it.]"): a sentence between a bracket opened in one of the three before
  // it and its close in this one or the two after is inside it. A bracket
  // that never closes near by opens nothing.
  size_t squareOpen = 0;
  {
    int open = 0;
    for (unsigned j = index >= 3 ? index - 3 : 0; j < index; ++j)
      for (const Token &t : sentences_[j].tokens) {
        if (t.isPunct("["))
          ++open;
        else if (t.isPunct("]") && open > 0)
          --open;
      }
    int closes = 0;
    for (unsigned j = index; j < sentences_.size() && j <= index + 2 && closes < open; ++j)
      for (const Token &t : sentences_[j].tokens) {
        if (t.isPunct("]"))
          ++closes;
        else if (t.isPunct("[") && j > index)
          break;
      }
    if (open > 0 && closes >= open)
      squareOpen = static_cast<size_t>(open);
  }
  std::vector<int> depth(toks.size() + 1, 0);
  for (size_t k = 0, d = squareOpen; k < toks.size(); ++k) {
    if (toks[k].isPunct("(") || toks[k].isPunct("["))
      ++d;
    depth[k] = static_cast<int>(d);
    if ((toks[k].isPunct(")") || toks[k].isPunct("]")) && d > 0)
      --d;
  }
  bool washContext = false;
  bool sawInterval = false;
  std::vector<std::string> pendingWords;
  std::vector<Value> pendingCounts;
  bool negateShaking = false;
  // A storage remark ("stained plates can be kept at room temperature in the
  // dark for up to a week", "WR is stable for 2 days at RT", "stored at 4 °C")
  // says how long a thing may wait, not a step: its times and temperatures
  // up to the end of the clause are notes.
  bool storage = false;
  bool kindRemark = false;
  // "blanks were omitted since lysate colour at 405 nm was negligible": a
  // reason, up to the end of its clause, names a wavelength to explain,
  // not to read at.
  bool reason = false;
  // After a participle that tells how a material was made ("cultures grown
  // in LB at 37 °C were diluted"), up to the next verb: its values are the
  // material's history.
  bool history = false;
  // "the laminated card taped to the robot still says 60 min for the
  // conjugate": what a copy not yet updated says, up to the end of its
  // clause, is the value the text replaces.
  bool outdatedCopy = false;
  bool advisedPeriod = false; ///< "time the 10 minutes at 40 °C": its temperature too
  // "Reaction Mix per well: 44 µl Assay Buffer + 4 µl Substrate Mix + 2 µl
  // Developer", "WR = 50 parts A + 1 part B": after a colon or "=", volumes
  // joined by "+" say what a liquid is made of (no verb does it). Only the
  // joined volumes are the recipe ("100 µl per well (... 60 µl + 10,74 ml)"
  // keeps its 100 µl).
  //
  // The same after a copula ("Per well that is 2 µl enzyme + 18 µl
  // buffer"), and anywhere for volumes joined by "+" that a "=" sums
  // ("200 µl stock + 9.8 ml buffer = 10 ml"); a volume multiplied by a
  // count ("345 x 18 µl = 6.21 ml") is a calculation of a batch.
  const std::set<size_t> recipeTerms = [&] {
    std::set<size_t> terms;
    std::vector<size_t> volumes;
    for (size_t k = 0; k < toks.size(); ++k)
      if (auto q = prose::quantityAt(toks, k, platform_, s.text);
          q && q->dimension == Dimension::Volume)
        volumes.push_back(k);
    auto isVerb = [&](size_t k) {
      return toks[k].isWord() && verbs().count(toks[k].lower) &&
             !(toks[k].is("mix") && k > 0 && toks[k - 1].isWord());
    };
    auto times = [&](size_t k) { return toks[k].is("x") || toks[k].isPunct("×") || toks[k].is("×"); };
    // A "=" after `k` before any verb: what comes before it is summed up.
    auto summedAfter = [&](size_t k) {
      for (size_t j = k + 1; j < toks.size() && !isVerb(j); ++j)
        if (toks[j].isPunct("="))
          return true;
      return false;
    };
    // "wash 3 x 300 µl" is three washes; "345 x 18 µl = 6.21 ml" and "6
    // wells x 100 ul + the dead volume = 1.1 ml" are sums.
    // "6 wells x 100 ul" in a sum is the per-well volume the run uses, so
    // a step of its own may be told only there ("42 wells x 200 ul = 8.4
    // ml, so make 10 ml"); with a dead volume added it is the reservoir's
    // load.
    auto deadVolumeAfter = [&](size_t k) {
      for (size_t j = k + 1; j < toks.size() && !toks[j].isPunct("="); ++j)
        if (toks[j].is("dead") || toks[j].is("overage") || toks[j].is("spare"))
          return true;
      return false;
    };
    for (size_t k : volumes)
      if (k >= 2 && times(k - 1) &&
          (toks[k - 2].isNumber() ||
           // "1 mM x 20 uL = 20 nmol": a concentration times a volume is
           // an amount worked out.
           (k >= 3 && toks[k - 3].isNumber() && proseUnit(toks[k - 2].text)) ||
           (k >= 3 && toks[k - 3].isNumber() && deadVolumeAfter(k) &&
            (toks[k - 2].is("wells") || toks[k - 2].is("samples") || toks[k - 2].is("plates") ||
             toks[k - 2].is("strips") || toks[k - 2].is("columns") || toks[k - 2].is("rows")))) &&
          summedAfter(k))
        terms.insert(k);
    // "That makes 300 uL in each well.", "which gives 250 µL per well":
    // what the additions before come to, worked out; each was told as a
    // step of its own.
    for (size_t k : volumes) {
      if (k >= 2 && (toks[k - 1].is("makes") || toks[k - 1].is("gives") ||
                     toks[k - 1].is("giving") || toks[k - 1].is("making")) &&
          (toks[k - 2].is("that") || toks[k - 2].is("this") || toks[k - 2].is("which") ||
           toks[k - 2].is("it") || toks[k - 2].isPunct(",")))
        terms.insert(k);
      // "Spec: +/-5% at 20 uL, +/-2% at 200 uL": a pipette's tolerance at
      // a volume it was tested at.
      if (k >= 3 && toks[k - 1].is("at") &&
          (toks[k - 2].isPunct("%") || toks[k - 2].text == "%") && toks[k - 3].isNumber())
        terms.insert(k);
    }
    // "make 4.0 mL: 3.52 mL Assay Buffer and 160 uL of each of the other
    // three": after a verb of making and the volume made, a colon opens
    // what it is made of.
    for (size_t k = 0; k + 2 < toks.size(); ++k) {
      if (!isVerb(k) || verbs().at(toks[k].lower) != ActionClass::Prepare)
        continue;
      auto made = prose::quantityAt(toks, k + 1, platform_, s.text);
      if (!made || made->dimension != Dimension::Volume || made->last >= toks.size() ||
          !toks[made->last].isPunct(":"))
        continue;
      for (size_t v : volumes)
        if (v > made->last) {
          bool verbBefore = false;
          for (size_t j = made->last; j < v; ++j)
            verbBefore |= isVerb(j);
          if (verbBefore)
            break;
          terms.insert(v);
        }
    }
    // "Per well: 44 uL Assay Buffer, 2 uL Enzyme Mix, 2 uL NAD+ and 2 uL
    // WST-8 Developer (50 uL)": volumes listed with no verb between, then
    // one that is their sum, are what a mix is made of.
    for (size_t i = 0; i + 2 < volumes.size(); ++i) {
      double sum = 0;
      bool verb = false;
      for (size_t j = i; j < volumes.size(); ++j) {
        auto q = prose::quantityAt(toks, volumes[j], platform_, s.text);
        if (!q || q->value.low != q->value.high)
          break;
        for (size_t k = volumes[j]; j > i && k-- > volumes[j - 1];)
          verb |= isVerb(k);
        if (verb)
          break;
        // The sum is said to be one: in brackets, after "=" or "total" (a
        // table row's cells "25 µL | 25 µL | 50 µL" are three additions).
        size_t at = volumes[j];
        bool totalled = at > 0 && (toks[at - 1].isPunct("(") || toks[at - 1].isPunct("=") ||
                                   toks[at - 1].is("total") || toks[at - 1].is("makes") ||
                                   toks[at - 1].is("gives"));
        if (j >= i + 2 && sum > 0 && totalled && std::fabs(q->value.low - sum) <= 0.01 * sum) {
          for (size_t k = i; k <= j; ++k)
            terms.insert(volumes[k]);
          break;
        }
        sum += q->value.low;
      }
    }
    // "Sixty-two wells, two hundred microlitres each... about thirteen
    // millilitres": a count of wells, a volume each and, with no verb
    // between, about the total: how much of the liquid to make or load,
    // worked out; the step that dispenses it is told elsewhere.
    for (size_t i = 0; i + 1 < volumes.size(); ++i) {
      size_t k = volumes[i], k2 = volumes[i + 1];
      auto small = prose::quantityAt(toks, k, platform_, s.text);
      auto large = prose::quantityAt(toks, k2, platform_, s.text);
      if (!small || !large || large->value.low < 5 * small->value.high)
        continue;
      bool wellsBefore = false;
      for (size_t j = k; j-- > 0 && j + 5 >= k;)
        wellsBefore |= toks[j].is("wells") || toks[j].is("samples");
      bool each = false, about = false, verb = false;
      for (size_t j = small->last; j < std::max(k2 + 1, large->last); ++j) {
        each |= toks[j].is("each") || (toks[j].is("per") && j + 1 < k2 && toks[j + 1].is("well"));
        about |= toks[j].is("about") || toks[j].is("approx") || toks[j].is("approximately") ||
                 toks[j].is("roughly") || toks[j].isPunct("~") || toks[j].isPunct("≈") ||
                 toks[j].isPunct("=") || toks[j].is("total");
        verb |= isVerb(j);
      }
      if (wellsBefore && each && about && !verb) {
        terms.insert(k);
        terms.insert(k2);
      }
    }
    // "61 ul of the 720 ug/ml stock into 11 ml of A": a small volume into
    // a much larger one right after "into", with no verb between, makes a
    // solution ("10 ul into the plate, ... 200 ul" does not).
    for (size_t i = 0; i + 1 < volumes.size(); ++i) {
      size_t k = volumes[i], k2 = volumes[i + 1];
      bool into = toks[k2 - 1].is("into"), verb = false;
      for (size_t j = k + 1; j < k2; ++j)
        verb |= isVerb(j);
      auto small = prose::quantityAt(toks, k, platform_, s.text);
      auto large = prose::quantityAt(toks, k2, platform_, s.text);
      if (into && !verb && small && large && large->value.low >= 5 * small->value.high) {
        terms.insert(k);
        terms.insert(k2);
      }
    }
    // Runs of volumes joined by "+", also when a term is approximate
    // ("22 µl stock + ~4 mL PBS").
    auto joinedByPlus = [&](size_t k) {
      size_t p = k;
      while (p > 0 && (toks[p - 1].isPunct("~") || toks[p - 1].isPunct("≈") ||
                       toks[p - 1].is("ca") || toks[p - 1].is("approx") ||
                       toks[p - 1].is("about") || toks[p - 1].isPunct(".")))
        --p;
      return p > 0 && toks[p - 1].isPunct("+");
    };
    std::vector<std::vector<size_t>> runs;
    for (size_t i = 0; i < volumes.size(); ++i) {
      size_t k = volumes[i];
      if (!runs.empty() && k > 0 && joinedByPlus(k) && runs.back().back() == volumes[i - 1])
        runs.back().push_back(k);
      else
        runs.push_back({k});
    }
    size_t definedAt = toks.size();
    for (size_t k = 0; k < toks.size() && definedAt == toks.size(); ++k)
      if (toks[k].isPunct(":") || toks[k].isPunct("=") || toks[k].is("is") || toks[k].is("are"))
        definedAt = k;
    for (const std::vector<size_t> &run : runs) {
      if (run.size() < 2)
        continue;
      // A verb between the definition and the volumes does the adding
      // ("Wells: add 50 µl A + 50 µl B"); one after them acts on the made
      // liquid ("Buffer: 0.1 ml Triton + 9.9 ml PBS, stand 10 min").
      bool verbBetween = false;
      for (size_t k = definedAt; k < run.back() && k < toks.size(); ++k)
        verbBetween |= isVerb(k);
      // "For one plate make 12 mL A + 240 µL B": after a verb of making,
      // the joined volumes are what the liquid is made of.
      bool madeOf = false;
      for (size_t k = run.front(); k-- > 0;)
        if (isVerb(k)) {
          madeOf = verbs().at(toks[k].lower) == ActionClass::Prepare;
          break;
        }
      bool defined = run.front() > definedAt && !verbBetween;
      if (defined || madeOf || summedAfter(run.back()))
        terms.insert(run.begin(), run.end());
    }
    return terms;
  }();

  auto startAction = [&](ActionClass cls, size_t at, bool explicitVerb) {
    Draft d;
    d.action.cls = cls;
    d.explicitVerb = explicitVerb;
    if (explicitVerb && at < toks.size())
      d.verb = toks[at].lower;
    d.imperative = explicitVerb && ((at == 0 && s.firstInUnit) ||
                                    (at > 0 && (toks[at - 1].is("then") || toks[at - 1].isPunct(";"))));
    d.inParens = !explicitVerb && at < depth.size() && depth[at] > 0;
    d.firstToken = at;
    d.lastToken = at + 1;
    if (pendingDark && cls == ActionClass::Incubate) {
      d.action.dark = pendingDark;
      pendingDark.reset();
    }
    if (pendingLid && cls == ActionClass::Incubate) {
      d.action.lidOn = pendingLid;
      pendingLid.reset();
    }
    if (drafts.empty() && !pendingWords.empty()) {
      d.action.words = pendingWords;
      pendingWords.clear();
    }
    d.countFirst = !pendingCounts.empty();
    d.counts = std::move(pendingCounts);
    pendingCounts.clear();
    drafts.push_back(std::move(d));
    cur = static_cast<int>(drafts.size() - 1);
  };
  // A value that is no step: a note of its own, leaving the current action.
  auto pushNote = [&](Param p, const Value &v, size_t first, size_t last) {
    Draft note;
    note.action.cls = ActionClass::Note;
    note.firstToken = first;
    note.lastToken = last;
    note.action.values(p).push_back(v);
    drafts.push_back(std::move(note));
  };
  auto clauseBoundary = [&](size_t i) {
    const Token &t = toks[i];
    if (t.isPunct(";") || t.isPunct("->") || t.isPunct("→"))
      return true;
    if (t.is("then") || t.is("followed") || t.is("afterwards"))
      return true;
    if (t.is("next") && (i == 0 || toks[i - 1].kind == Token::Kind::Punct ||
                         (i + 1 < toks.size() && toks[i + 1].isPunct(","))))
      return true;
    if (t.isPunct(">") && i + 1 < toks.size() && toks[i + 1].isPunct(">"))
      return true;
    return false;
  };

  // "made fresh on the day, keep at RT", "kept on ice until use": a keeping
  // at a temperature that states no time says how a material waits between
  // uses, as a storage remark does. "Keep the plate at 37 °C for 30 min" is
  // a step, and "keep in the dark" only qualifies the step it follows.
  auto untimedKeeping = [&](size_t i) {
    const Token &t = toks[i];
    if (!(t.is("keep") || t.is("kept") || t.is("keeping") || t.is("hold") || t.is("held")))
      return false;
    bool temperature = false;
    for (size_t k = i + 1; k < toks.size() && !clauseBoundary(k); ++k) {
      // "keep the plate on the heater at 37 °C between reads": the plate's
      // place during the run is a step.
      if (toks[k].is("overnight") || toks[k].is("plate") || toks[k].is("plates") ||
          toks[k].is("wells") || toks[k].is("heater") || toks[k].is("deck") ||
          toks[k].is("between") || toks[k].is("during"))
        return false;
      if (toks[k].is("ice"))
        temperature = true;
      if (auto q = prose::quantityAt(toks, k, platform_, s.text)) {
        if (q->dimension == Dimension::Time)
          return false;
        temperature = temperature || q->dimension == Dimension::Temperature;
      }
    }
    return temperature;
  };

  // "They've had the TNF since about two this afternoon, so by nine
  // tomorrow that's nineteen hours", "seeded 24 h ago": with no verb of an
  // action, a sentence that counts from a past moment tells elapsed time.
  // A verb of reading anywhere in the sentence ("read", "measure"): with
  // one, a wavelength the sentence names is a read; without, several rules
  // below take it for a remark on an instrument, a colour or data.
  const bool readVerb = std::any_of(toks.begin(), toks.end(), [](const Token &w) {
    auto it = verbs().find(w.lower);
    return w.isWord() && it != verbs().end() && it->second == ActionClass::Read;
  });
  bool elapsed =
      std::any_of(toks.begin(), toks.end(),
                  [](const Token &w) { return w.is("since") || w.is("ago"); }) &&
      std::none_of(toks.begin(), toks.end(),
                   [](const Token &w) { return w.isWord() && isAnyVerb(w.lower); });

  // "but for an hour the HEPES holds the pH fine": the buffer's remark
  // covers its clause's time from the clause's start.
  auto clauseBuffersPh = [&](size_t from) {
    for (size_t k = from; k < toks.size() && (k == from || !clauseBoundary(k)); ++k)
      if (buffersPh(toks, k))
        return true;
    return false;
  };
  storage = clauseBuffersPh(0);
  for (size_t i = 0; i < toks.size();) {
    const Token &t = toks[i];
    if (clauseBoundary(i)) {
      cur = -1;
      storage = clauseBuffersPh(i + 1);
      kindRemark = false;
      history = false;
      outdatedCopy = false;
      advisedPeriod = false;
      reason = false;
      ++i;
      continue;
    }
    if (t.is("since") || t.is("because"))
      reason = true;
    if (t.is("still") && i + 1 < toks.size() &&
        (toks[i + 1].is("says") || toks[i + 1].is("reads") || toks[i + 1].is("shows") ||
         toks[i + 1].is("lists") || toks[i + 1].is("states")))
      outdatedCopy = true;
    if (materialHistoryParticiple(toks, i) || datedPastStep(toks, i)) {
      history = true;
      ++i;
      continue;
    }
    if (history && (auxiliaryWord(t) || (t.isWord() && isAnyVerb(t.lower))))
      history = false;
    // "Washes are 300 uL: the kit says 400 ...", "All incubations are at
    // RT": the sentence's subject is a kind of step the text tells
    // elsewhere, and its values are those steps' settings, not a step. So
    // of a source quoted on a kind of step ('Insert says incubations "30
    // +/- 5 min at 18-25 C"').
    bool subject = i <= 1 && (i == 0 || toks[0].is("the") || toks[0].is("all")) &&
                   i + 1 < toks.size() &&
                   (toks[i + 1].is("are") || toks[i + 1].is("were") ||
                    toks[i + 1].is("should") || toks[i + 1].is("must") || toks[i + 1].is("will"));
    bool quoted = i >= 1 && (toks[i - 1].is("says") || toks[i - 1].is("say") ||
                             toks[i - 1].is("states") || toks[i - 1].is("specifies") ||
                             toks[i - 1].is("recommends") || toks[i - 1].is("gives"));
    if ((subject || quoted) && stepKindNoun(t)) {
      kindRemark = true;
      cur = -1;
      ++i;
      continue;
    }
    if (storageWord(toks, i) || untimedKeeping(i)) {
      storage = true;
      cur = -1;
      ++i;
      continue;
    }
    if (t.isPunct("-") && i + 1 < toks.size() && toks[i + 1].isPunct(">")) {
      cur = -1;
      i += 2;
      continue;
    }
    if (std::optional<prose::Quantity> q = prose::quantityAt(toks, i, platform_, s.text)) {
      size_t next = std::max(q->last, i + 1);
      if (q->dimension == Dimension::Concentration ||
          (q->dimension == Dimension::Ratio && q->value.symbolic == Unit::Ratio)) {
        i = next;
        continue;
      }
      // "10 ul vs 20 ul per well was discussed; agreed 20 ul", "630 nm as
      // reference was proposed, but the reader has no 630 filter": values
      // weighed or put forward in a discussion are not the step's; the
      // one agreed is stated apart.
      if (q->dimension != Dimension::Wavelength && weighedAt(toks, q->first, q->last)) {
        i = next;
        continue;
      }
      if (proposedInClause(toks, q->first)) {
        i = next;
        continue;
      }
      // "the 37 C matters more than the 40 s of travel", "30 s of
      // transport": how long the plate's moves take, which the robot
      // times itself, not a step's time.
      if (q->dimension == Dimension::Time && q->last + 1 < toks.size() && toks[q->last].is("of")) {
        static const std::set<std::string, std::less<>> moves = {
            "travel", "travelling", "traveling", "transport", "transit", "transfer", "moving",
            "movement", "moves", "shuttling", "handling"};
        if (moves.count(toks[q->last + 1].lower)) {
          i = next;
          continue;
        }
      }
      // "one drop -- that's 0.05 mL -- per 100 mL of sample", "1 mL per
      // litre of buffer": a dose for a bulk volume of at least a
      // millilitre is a recipe's ratio, not an amount put into wells.
      if (q->dimension == Dimension::Volume) {
        size_t k = q->last;
        while (k < toks.size() && k < q->last + 3 &&
               (toks[k].isPunct("-") || toks[k].isPunct("\u2013") || toks[k].isPunct("\u2014") ||
                toks[k].isPunct(")") || toks[k].isPunct(",")))
          ++k;
        if (k + 1 < toks.size() && toks[k].is("per")) {
          std::optional<prose::Quantity> bulk = prose::quantityAt(toks, k + 1, platform_, s.text);
          bool perBulk =
              bulk && bulk->dimension == Dimension::Volume && bulk->value.low >= 1000;
          // "per litre", "per mL": a unit alone is one of it.
          if (toks[k + 1].isWord())
            if (std::optional<Unit> unit = proseUnit(toks[k + 1].text))
              perBulk = perBulk || (unitInfo(*unit).dimension == Dimension::Volume &&
                                    unitInfo(*unit).factor >= 1000);
          if (perBulk) {
            i = next;
            continue;
          }
        }
      }
      // "with our 200 ul", "their 100 µL": an amount that is there, not
      // one added.
      if (q->dimension == Dimension::Volume && q->first >= 1 &&
          (toks[q->first - 1].is("our") || toks[q->first - 1].is("their") ||
           toks[q->first - 1].is("its") || toks[q->first - 1].is("your") ||
           toks[q->first - 1].is("existing"))) {
        i = next;
        continue;
      }
      // "200 µL filter tips", "a 1.5 mL tube", "DiTi 50ul", "Trough 100ml":
      // what a tip, tube or trough holds, a size of equipment, not an amount
      // moved.
      if (q->dimension == Dimension::Volume && capacityOfEquipment(toks, q->first, q->last)) {
        i = next;
        continue;
      }
      // "(final volume 250 µL per well)", "a total volume of 200 µL": what
      // the wells hold after the additions, not one of them.
      if (q->dimension == Dimension::Volume) {
        bool result = false;
        for (size_t k = q->first; k-- > 0 && k + 4 >= q->first;)
          if ((toks[k].is("volume") || toks[k].is("volumes")) && k > 0 &&
              (toks[k - 1].is("final") || toks[k - 1].is("total") || toks[k - 1].is("end")))
            result = true;
        // "Everything halved, 100 uL final", "50 ul final, read at 405 nm",
        // "200 µl/well final": the word after the value (and its "/well"
        // or "per well") says the same.
        size_t after = q->last;
        if (after + 1 < toks.size() && (toks[after].isPunct("/") || toks[after].is("per")) &&
            (toks[after + 1].is("well") || toks[after + 1].is("wells")))
          after += 2;
        if (after < toks.size() && (toks[after].is("final") || toks[after].is("total")))
          result = true;
        // "20 uL: mean / CV", a gravimetric table's column: the statistics
        // of what was dispensed at that volume, no addition.
        size_t stat = q->last;
        if (stat < toks.size() && (toks[stat].isPunct(":") || toks[stat].isPunct("-")))
          ++stat;
        if (stat < toks.size() &&
            (toks[stat].is("mean") || toks[stat].is("cv") || toks[stat].is("sd") ||
             toks[stat].is("average") || toks[stat].is("median") || toks[stat].is("sem")))
          result = true;
        if (result) {
          i = next;
          continue;
        }
      }
      // "wild track 30 s during Sc 43", "Game clock 100 min. Briefing 10
      // min before clock.": the length of a recording or of an event of
      // the people around the run, which the plate does not wait out.
      if (q->dimension == Dimension::Time && q->first >= 1) {
        static const std::set<std::string, std::less<>> eventNouns = {
            "track", "clip", "footage", "recording", "video", "audio", "tone", "clock",
            "briefing", "debrief", "debriefing", "meeting", "lunch", "talk", "presentation",
            "interval", "intermission", "song", "trailer", "podcast", "episode", "speech"};
        size_t k = q->first - 1;
        if (k >= 1 && toks[k].isPunct(":"))
          --k;
        if (eventNouns.count(toks[k].lower)) {
          i = next;
          continue;
        }
      }
      // "Prep time: 15 min", "Hands-on: 15 min | Total: about 55 min": how
      // long the work takes, a card's summary field, not a step's time
      // ("Incubation time: 30 min" in a notebook is the step's).
      if (q->dimension == Dimension::Time && q->first >= 2) {
        size_t k = q->first - 1;
        while (k > 0 && (toks[k].is("about") || toks[k].is("approx") || toks[k].is("ca") ||
                         toks[k].isPunct("~") || toks[k].is("approximately")))
          --k;
        // "Robot: 30 min at RT" is a step: only a label that names a
        // duration of work ("Prep:", "Total:") or says "time" counts.
        static const std::set<std::string, std::less<>> durations = {
            "prep", "preparation", "total", "hands-on", "turnaround", "overall", "walk-away"};
        static const std::set<std::string, std::less<>> work = {
            "prep", "preparation", "total", "run", "assay", "hands-on", "turnaround",
            "overall", "working", "bench", "robot", "walk-away"};
        bool field = toks[k].isPunct(":") && k >= 1 &&
                     (durations.count(toks[k - 1].lower) ||
                      (toks[k - 1].is("time") && k >= 2 && work.count(toks[k - 2].lower)));
        // A log's "elapsed 18 min 45 s", "(ramp 120 s)", "robot time 1 h
        // 40 min", "the wash took 12 min": how long something did take, not
        // a step's wait.
        static const std::set<std::string, std::less<>> measured = {
            "elapsed", "ramp", "runtime", "took", "lasted"};
        size_t m = toks[k].isPunct(":") || toks[k].isPunct("=") ? k - 1 : k;
        // "Took me twelve minutes": whom it took.
        if (m >= 1 && (toks[m].is("me") || toks[m].is("us") || toks[m].is("him") ||
                       toks[m].is("her") || toks[m].is("them") || toks[m].is("you")) &&
            (toks[m - 1].is("took") || toks[m - 1].is("takes")))
          --m;
        bool tookTime = measured.count(toks[m].lower) ||
                        (toks[m].is("time") && m >= 1 && work.count(toks[m - 1].lower));
        // "The robot's part is nearly four hours", "the whole procedure is
        // about 3 h": how long a share of the work or all of it lasts.
        bool partLasts = false;
        {
          size_t v = q->first;
          while (v > 0 && (toks[v - 1].is("nearly") || toks[v - 1].is("almost") ||
                           toks[v - 1].is("about") || toks[v - 1].is("roughly") ||
                           toks[v - 1].is("around") || toks[v - 1].is("approximately") ||
                           toks[v - 1].is("just") || toks[v - 1].isPunct("~")))
            --v;
          static const std::set<std::string, std::less<>> wholes = {
              "part", "share", "whole", "thing", "day", "session", "job", "workflow",
              "protocol", "procedure", "assay", "method", "everything"};
          partLasts = v >= 2 && (toks[v - 1].is("is") || toks[v - 1].is("was")) &&
                      wholes.count(toks[v - 2].lower);
        }
        if (field || tookTime || partLasts) {
          i = next;
          continue;
        }
      }
      // "no earlier than 15 min before it goes on", "not later than 30 min
      // after the stop": when a thing is done, relative to another, not for
      // how long.
      if (q->dimension == Dimension::Time && q->first >= 2 && toks[q->first - 1].is("than") &&
          (toks[q->first - 2].is("earlier") || toks[q->first - 2].is("later") ||
           toks[q->first - 2].is("sooner"))) {
        i = next;
        continue;
      }
      // "30-60 min works, 45 min is what the March data are based on", "2 h
      // was sufficient for the vehicle wells to reach ...": a time that is
      // the subject of its clause is talked about, not waited for.
      if (q->dimension == Dimension::Time && q->last < toks.size() &&
          (toks[q->last].is("is") || toks[q->last].is("was") || toks[q->last].is("works") ||
           toks[q->last].is("worked"))) {
        i = next;
        continue;
      }
      // "yes (20 min total)", "3 x 10 min, 30 min total": a sum of times.
      if (q->dimension == Dimension::Time && q->last < toks.size() && toks[q->last].is("total")) {
        i = next;
        continue;
      }
      if ((history || elapsed) &&
          (q->dimension == Dimension::Time || q->dimension == Dimension::Temperature ||
           q->dimension == Dimension::Speed)) {
        i = next;
        continue;
      }
      if (outdatedCopy &&
          (q->dimension == Dimension::Time || q->dimension == Dimension::Temperature ||
           q->dimension == Dimension::Speed || q->dimension == Dimension::Volume)) {
        i = next;
        continue;
      }
      // "time the 10 minutes at 40 °C honestly": advice on a step told
      // elsewhere, named by its time.
      if (q->dimension == Dimension::Time && q->first >= 2 && toks[q->first - 1].is("the") &&
          (toks[q->first - 2].is("time") || toks[q->first - 2].is("watch") ||
           toks[q->first - 2].is("respect") || toks[q->first - 2].is("observe"))) {
        advisedPeriod = true;
        i = next;
        continue;
      }
      if (advisedPeriod && q->dimension == Dimension::Temperature) {
        i = next;
        continue;
      }
      // "every 5 min for 30-60 min": after an interval, the span of the
      // schedule is how long it runs, not a step's time.
      if (q->dimension == Dimension::Time) {
        bool interval = q->first >= 1 && (toks[q->first - 1].is("every") ||
                                          toks[q->first - 1].is("each"));
        if (interval)
          sawInterval = true;
        else if (sawInterval && q->first >= 1 &&
                 (toks[q->first - 1].is("for") || toks[q->first - 1].is("over"))) {
          i = next;
          continue;
        }
        if (culturesAge(toks, q->last) || elapsedSinceAddition(toks, q->last) ||
            saidToBeItself(toks, *q, platform_, s.text) ||
            labelsTimePoint(toks, q->first, q->last, platform_, s.text)) {
          i = next;
          continue;
        }
      }
      Value v = q->value;
      v.loc = locate(s.unit, s.offset + toks[q->first].begin,
                     toks[q->last - 1].end - toks[q->first].begin);
      // "Removing 210 of the 220 µl", "take 50 of 100 uL": the part taken,
      // in the whole's unit, is the step's amount; the whole is what the
      // wells hold.
      if (q->dimension == Dimension::Volume && toks[q->first].kind == Token::Kind::Number &&
          toks[q->first].number > 0 && v.low == v.high) {
        size_t of = q->first >= 2 && toks[q->first - 1].is("the") ? q->first - 2 : q->first - 1;
        if (of >= 1 && of < q->first && toks[of].is("of") &&
            toks[of - 1].kind == Token::Kind::Number && !toks[of - 1].glued) {
          double part = toks[of - 1].number * (v.low / toks[q->first].number);
          if (part > 0 && part < v.low) {
            v.low = v.high = part;
            v.text = toks[of - 1].text + " of " + v.text;
            v.loc = locate(s.unit, s.offset + toks[of - 1].begin,
                           toks[q->last - 1].end - toks[of - 1].begin);
          }
        }
      }
      Param p = paramOf(q->dimension);
      // "~2 mL" under "per run" beside "µL per well": what the reservoir
      // holds, read by no step.
      {
        size_t at = s.offset + toks[q->first].begin;
        const auto &loads = unitLoads_[s.unit];
        if (std::any_of(loads.begin(), loads.end(),
                        [&](const auto &r) { return at >= r.first && at < r.second; })) {
          i = next;
          continue;
        }
      }
      // A count is a wash's or a mix's cycles; elsewhere it waits for one
      // ("3 x wash") or means nothing here ("20X concentrate").
      if (p == Param::Cycles) {
        // "1× wash buffer", "10x wash solution": the liquid's strength, no
        // count. "3x wash buffer" in shorthand may still count washes, but a
        // strength is 1× or a concentrate's 10× and up.
        bool times = toks[q->last - 1].is("x") || toks[q->last - 1].text == "×";
        auto liquidNoun = [&](size_t k) {
          return k < toks.size() && (toks[k].is("buffer") || toks[k].is("solution") ||
                                     toks[k].is("reagent") || toks[k].is("concentrate"));
        };
        bool namesLiquid = liquidNoun(q->last) ||
                           (q->last < toks.size() && toks[q->last].isWord() && liquidNoun(q->last + 1));
        if (times && namesLiquid && (v.low == 1 || v.low >= 10)) {
          i = next;
          continue;
        }
        // "repeating the process three times for a total of four washes":
        // the total is the wash's cycles.
        bool total = (q->first >= 2 && toks[q->first - 1].is("of") && toks[q->first - 2].is("total")) ||
                     (q->last + 1 < toks.size() && toks[q->last].is("in") &&
                      (toks[q->last + 1].is("total") || toks[q->last + 1].is("all")));
        if (total) {
          for (auto it = drafts.rbegin(); it != drafts.rend(); ++it)
            if (it->action.cls == ActionClass::Wash || it->action.cls == ActionClass::Mix) {
              it->action.values(Param::Cycles) = {v};
              break;
            }
          if (std::any_of(drafts.begin(), drafts.end(), [](const Draft &d) {
                return d.action.cls == ActionClass::Wash || d.action.cls == ActionClass::Mix;
              })) {
            i = next;
            continue;
          }
        }
        // "five further washes", "3 rinses": a wash named by its count.
        const Token &unitWord = toks[q->last - 1];
        if ((unitWord.is("washes") || unitWord.is("rinses")) &&
            !(cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Wash)) {
          // "Wash buffer (PBS), 200 µL, 3 washes": the volume read before
          // belongs to the wash.
          if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Dispense &&
              !drafts[static_cast<size_t>(cur)].explicitVerb &&
              (drafts[static_cast<size_t>(cur)].washNoun || washContext)) {
            drafts[static_cast<size_t>(cur)].action.cls = ActionClass::Wash;
          } else {
            startAction(ActionClass::Wash, q->first, true);
          }
          drafts[static_cast<size_t>(cur)].verb = "wash";
          drafts[static_cast<size_t>(cur)].explicitVerb = true;
        }
        if (cur >= 0 && accepts(drafts[static_cast<size_t>(cur)], p, v)) {
          drafts[static_cast<size_t>(cur)].action.values(p).push_back(v);
        } else if (cur >= 0) {
          drafts[static_cast<size_t>(cur)].counts.push_back(v);
        } else {
          pendingCounts.push_back(v); // "3 x wash": for the next action
        }
        i = next;
        continue;
      }
      if (p == Param::Wavelength && cur >= 0) {
        Draft &d = drafts[static_cast<size_t>(cur)];
        // "405 or 410 nm", "540 nm or 570 nm as reference": an alternative
        // to the wavelength just read, which the script may pick.
        bool alternative = false;
        for (size_t k = (i >= 3 ? i - 3 : 0); k < i; ++k)
          alternative |= toks[k].is("or");
        if (alternative && d.action.cls == ActionClass::Read &&
            (d.action.has(Param::Reference) || d.action.has(Param::Wavelength))) {
          d.action.values(d.action.has(Param::Reference) ? Param::Reference : Param::Wavelength)
              .push_back(v);
          i = next;
          continue;
        }
        if (d.action.cls == ActionClass::Read && d.action.has(Param::Wavelength) &&
            !d.action.has(Param::Reference)) {
          // The second wavelength of a read is its reference ("450 nm
          // with correction at 570 nm", "450/620 nm"), unless it restates
          // the first ("OD450 (read 450 nm)").
          bool restated = d.action.values(Param::Wavelength).front().admits(v.low);
          // "490 nm (our 500 nm substitute) with 650 nm reference": a
          // wavelength in brackets remarks on the one before it when a
          // wavelength outside them follows.
          bool remark = false;
          if (i < depth.size() && depth[i] > 0)
            for (size_t k = next; k + 1 < toks.size() && !remark; ++k)
              remark = toks[k].isNumber() && k < depth.size() && depth[k] == 0 &&
                       toks[k + 1].is("nm");
          if (!restated && !remark)
            d.action.values(Param::Reference).push_back(v);
          i = next;
          continue;
        }
        if (d.action.cls == ActionClass::Read && d.action.has(Param::Reference)) {
          i = next;
          continue; // a restatement
        }
        if (d.action.cls == ActionClass::ReadFluorescence) {
          bool excitation = false, emission = false;
          for (size_t k = (i >= 3 ? i - 3 : 0); k < i; ++k) {
            excitation |= toks[k].lower.rfind("ex", 0) == 0;
            emission |= toks[k].lower.rfind("em", 0) == 0;
          }
          Param which = emission ? Param::Emission
                        : excitation ? Param::Excitation
                        : d.action.has(Param::Excitation) ? Param::Emission
                                                          : Param::Excitation;
          if (!d.action.has(which))
            d.action.values(which).push_back(v);
          i = next;
          continue;
        }
      }
      // "mix <= 15 min before use", "prepare within 30 min prior to use":
      // when a liquid is made, no wait on the plate.
      if (p == Param::Time && q->last + 1 < toks.size() &&
          (toks[q->last].is("before") || toks[q->last].is("prior")) &&
          (toks[q->last + 1].is("use") || toks[q->last + 1].is("using") ||
           (toks[q->last + 1].is("to") && q->last + 2 < toks.size() &&
            (toks[q->last + 2].is("use") || toks[q->last + 2].is("using"))))) {
        pushNote(p, v, q->first, q->last);
        i = next;
        continue;
      }
      // "heat 100 uL of the 1:50 dilution at 95 °C", "200 uL of the
      // diluted saliva was heated in the water bath": the amount a tube
      // holds while it is heated, cooled or kept, no addition (and no
      // value of the treatment's step).
      if (p == Param::Volume && heldAmount(toks, q->first, q->last)) {
        i = next;
        continue;
      }
      // "below the 110 µl capacity of the wells", "a 300 µl maximum": a
      // limit of the labware, whatever verb stands near, no step.
      if (p == Param::Volume && q->last < toks.size() &&
          (toks[q->last].is("capacity") || toks[q->last].is("maximum") ||
           toks[q->last].is("max") || toks[q->last].is("limit"))) {
        pushNote(p, v, q->first, q->last);
        i = next;
        continue;
      }
      // A volume above a millilitre is an amount to prepare ("about 20 mL
      // are needed"), never what goes into a well of a microplate.
      if (p == Param::Volume && v.low > 1000) {
        if (!(cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Prepare)) {
          startAction(ActionClass::Prepare, q->first, false);
        }
        Draft &d = drafts[static_cast<size_t>(cur)];
        if (!d.action.has(Param::Volume))
          d.action.values(Param::Volume).push_back(v);
        i = next;
        continue;
      }
      if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Incubate &&
          p == Param::Volume && !drafts[static_cast<size_t>(cur)].action.hasNumeric()) {
        // "Develop with 100 µL TMB for 20 min", "incubate with 100 µL of
        // X": the liquid is added first.
        Draft add;
        add.action.cls = ActionClass::Dispense;
        add.firstToken = q->first;
        add.lastToken = q->last;
        add.insertedBefore = true;
        add.action.values(Param::Volume).push_back(v);
        drafts.insert(drafts.begin() + cur, std::move(add));
        ++cur;
        i = next;
        continue;
      }
      if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Read &&
          p == Param::Time) {
        // "read within 10 minutes": a limit for the operator, a note.
        pushNote(p, v, q->first, q->last);
        i = next;
        continue;
      }
      if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Shake &&
          p == Param::Temperature) {
        drafts[static_cast<size_t>(cur)].action.cls = ActionClass::Incubate;
      }
      // "After five washes as above, 100 µl of substrate was added": a value
      // after a comma whose own verb comes later belongs to that verb.
      if (cur >= 0 && i > 0 && toks[i - 1].isPunct(",") &&
          drafts[static_cast<size_t>(cur)].explicitVerb) {
        std::optional<ActionClass> later;
        for (size_t k = q->last; k < toks.size() && k < q->last + 10; ++k) {
          if (toks[k].isPunct(",") || toks[k].isPunct(";") || clauseBoundary(k) ||
              toks[k].isNumber())
            break;
          if (auto it = verbs().find(toks[k].lower); it != verbs().end()) {
            later = it->second;
            break;
          }
        }
        Draft probe;
        if (later) {
          probe.action.cls = *later;
          probe.verb = "add";
        }
        if (later && *later != drafts[static_cast<size_t>(cur)].action.cls &&
            accepts(probe, p, v)) {
          startAction(*later, q->first, false);
          drafts[static_cast<size_t>(cur)].action.values(p).push_back(v);
          drafts[static_cast<size_t>(cur)].lastToken = q->last;
          i = next;
          continue;
        }
      }
      // "block needs 48 x 300 µL = 14.4 mL": a term of a sum or a recipe is
      // no volume of the step whose verb came before it, unless that step
      // makes the liquid.
      if (p == Param::Volume && recipeTerms.count(q->first) && cur >= 0 &&
          drafts[static_cast<size_t>(cur)].action.cls != ActionClass::Prepare)
        goto newImplicit;
      // "a wash as above, and 100 µL streptavidin-HRP for 20 min": after a
      // wash, ", and" and a volume that a liquid's name follows start the
      // next addition, not the wash's volume.
      if (p == Param::Volume && cur >= 0 &&
          drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Wash && q->first >= 2 &&
          toks[q->first - 1].is("and") && toks[q->first - 2].isPunct(",") &&
          q->last < toks.size() && toks[q->last].isWord() && !toks[q->last].is("per") &&
          !toks[q->last].is("each") && !toks[q->last].is("of") && !toks[q->last].is("wash") &&
          !toks[q->last].is("buffer"))
        goto newImplicit;
      // "Fix: remove PBS, 100 uL 4% PFA, 10 min": a removal that names what
      // it removes, then after a comma a volume of another liquid, is
      // shorthand for "remove the PBS, add 100 uL PFA"; the volume is the
      // addition's ("remove 100 uL", "remove the medium, 50 uL per well"
      // keep theirs).
      if (p == Param::Volume && removalThenAddition(drafts, cur, toks, q->first, q->last))
        goto newImplicit;
      // "keep the lid on during the 20 min": not this step's time.
      if (p == Param::Time && namesPeriodToldBefore(toks, q->first, q->last))
        goto newImplicit;
      if (cur >= 0 && accepts(drafts[static_cast<size_t>(cur)], p, v)) {
        Draft &d = drafts[static_cast<size_t>(cur)];
        if (p == Param::Time && d.action.cls == ActionClass::Incubate && d.action.has(Param::Time) &&
            v.exact() && d.action.values(Param::Time).front().exact() &&
            !(i > 0 && toks[i - 1].is("or")))
          goto newImplicit;
        d.action.values(p).push_back(v);
        d.lastToken = q->last;
      } else {
      newImplicit:
        // A value with no action to take it: the action it implies, after
        // the current one. A lone temperature or speed is a note ("All
        // incubations are at RT on the shaker at 700 rpm") unless a time
        // joins it.
        // A dilution in passing ("serum (1:100)") describes a liquid; only
        // a preparation takes it.
        if (p == Param::Ratio) {
          i = next;
          continue;
        }
        ActionClass cls = impliedClass(p);
        if (p == Param::Volume && recipeTerms.count(q->first))
          cls = ActionClass::Note;
        // "Take 50 µL out of row G and discard": a volume taken out of the
        // wells is a removal ("take 50 µl from row A into row B" moves it).
        if (p == Param::Volume && q->first > 0 &&
            (toks[q->first - 1].is("take") || toks[q->first - 1].is("taking") ||
             toks[q->first - 1].is("withdraw")) &&
            q->last < toks.size() && (toks[q->last].is("out") || toks[q->last].is("off")))
          cls = ActionClass::Aspirate;
        // "fit: linear, ΔA vs Trolox, 6 min": in an analysis, a time names
        // the read it fits, no incubation.
        if (p == Param::Time && cur >= 0 &&
            drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Analyze)
          cls = ActionClass::Note;
        // A table's row of sums ("total | 100 µL | 100 µL") states what the
        // wells hold, a cell apart from its word.
        if (unit.tableRow && !toks.empty() &&
            (toks[0].is("total") || toks[0].is("final") || toks[0].is("sum")))
          cls = ActionClass::Note;
        // "After the 30 min reaction, 50 µl of stop solution was added":
        // the step named again by its time, not a new one.
        // "they've had the compounds 24 h by tomorrow morning": a time in a
        // clause whose verb is "had" is how long something has lasted, a
        // history of the samples, not a step.
        if (p == Param::Time)
          for (size_t k = q->first; k-- > 0 && k + 6 >= q->first;) {
            if (toks[k].isPunct(",") || toks[k].isPunct(";") || toks[k].isPunct("."))
              break;
            if (toks[k].is("had"))
              cls = ActionClass::Note;
          }
        // "lid on during the 30 min, it's light sensitive": no step.
        if (p == Param::Time && namesPeriodToldBefore(toks, q->first, q->last))
          cls = ActionClass::Note;
        // "a 1 min spin at 1,000 x g", "five minutes of spinning, two
        // thousand g": a centrifugation's time.
        auto spinWord = [](const Token &t) {
          return t.is("spin") || t.is("spin-down") || t.is("spinning") ||
                 t.lower.rfind("centrifug", 0) == 0;
        };
        if (p == Param::Time && q->last < toks.size() &&
            (spinWord(toks[q->last]) ||
             (toks[q->last].is("of") && q->last + 1 < toks.size() && spinWord(toks[q->last + 1]))))
          cls = ActionClass::Note;
        // "extract for 20 min, vortexing every 5 min": how often the mixing
        // comes back, no step of its own.
        if (p == Param::Time && q->first >= 2 &&
            (toks[q->first - 1].is("every") || toks[q->first - 1].is("each"))) {
          const std::string &verb = toks[q->first - 2].lower;
          if (verb == "vortexing" || verb == "vortex" || verb == "vortexed" || verb == "mixing" ||
              verb == "inverting" || verb == "swirling" || verb == "stirring" ||
              verb == "resuspending" || verb == "tapping")
            cls = ActionClass::Note;
        }
        if (p == Param::Time && q->first >= 2 && toks[q->first - 1].is("the") &&
            (toks[q->first - 2].is("after") || toks[q->first - 2].is("following") ||
             toks[q->first - 2].is("during")) &&
            q->last < toks.size() &&
            (toks[q->last].is("reaction") || toks[q->last].is("incubation") ||
             toks[q->last].is("incubations") || toks[q->last].is("wait") ||
             toks[q->last].is("step") || toks[q->last].is("period") ||
             toks[q->last].is("treatment") || toks[q->last].is("exposure") ||
             toks[q->last].is("soak") || toks[q->last].is("shake") ||
             toks[q->last].is("development")))
          cls = ActionClass::Note;
        // "two conditions (vehicle, 10 ng/mL IL-1β, 24 h)", "treatments
        // (LPS, 6 h)": in brackets after the name of the groups, a time
        // describes how the samples were made, no step of this protocol.
        if (p == Param::Time) {
          for (size_t k = q->first; k-- > 0;) {
            if (toks[k].isPunct(")"))
              break;
            if (toks[k].isPunct("(")) {
              if (k > 0 && (toks[k - 1].is("conditions") || toks[k - 1].is("condition") ||
                            toks[k - 1].is("treatments") || toks[k - 1].is("treatment") ||
                            toks[k - 1].is("groups") || toks[k - 1].is("stimulations") ||
                            toks[k - 1].is("stimulation") || toks[k - 1].is("donors")))
                cls = ActionClass::Note;
              break;
            }
          }
          // "Check morphology under the microscope at 24 h": a moment
          // to look at the cells during a step, not a step's time.
          if (q->first >= 2 && toks[q->first - 1].is("at")) {
            static const std::set<std::string, std::less<>> looking = {
                "check", "inspect", "examine", "observe", "look", "verify", "monitor",
                "photograph", "image", "confirm", "assess", "score", "count"};
            for (size_t k = 0; k + 1 < q->first; ++k)
              if (looking.count(toks[k].lower))
                cls = ActionClass::Note;
          }
          // "M1-5 PBS, M6-10 LPS 2h (1:10), M11-15 LPS 6h" under a plate
          // map: a clause that opens with a range of sample codes and has
          // no verb names a group, and its time says how the group was
          // treated before this protocol.
          size_t clause = q->first;
          while (clause > 0 && !toks[clause - 1].isPunct(",") && !toks[clause - 1].isPunct(";") &&
                 !toks[clause - 1].isPunct(":") && !toks[clause - 1].isPunct("."))
            --clause;
          auto sampleCode = [](const Token &t) {
            size_t letters = 0;
            while (letters < t.text.size() && std::isalpha(static_cast<unsigned char>(t.text[letters])))
              ++letters;
            return t.isWord() && letters >= 1 && letters <= 3 && letters < t.text.size() &&
                   std::all_of(t.text.begin() + letters, t.text.end(),
                               [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
          };
          bool groupLabel = clause + 2 < q->first && sampleCode(toks[clause]) &&
                            (toks[clause + 1].isPunct("-") || toks[clause + 1].isPunct("–")) &&
                            (toks[clause + 2].isNumber() || sampleCode(toks[clause + 2]));
          for (size_t k = clause; k < q->first && groupLabel; ++k)
            groupLabel = !(toks[k].isWord() && isAnyVerb(toks[k].lower));
          if (groupLabel)
            cls = ActionClass::Note;
        }
        // "on top of the 100 µL already in the wells": what the wells
        // hold, not an addition.
        if (p == Param::Volume && q->last < toks.size() && toks[q->last].is("already"))
          cls = ActionClass::Note;
        // "positive control, 1 µl in 50 µl medium like the insert says": a
        // liquid's recipe, its parts in the tube, not additions to wells.
        if (p == Param::Volume) {
          auto volumeFrom = [&](size_t k) {
            auto other = prose::quantityAt(toks, k, platform_, s.text);
            return other && other->dimension == Dimension::Volume ? other : std::nullopt;
          };
          if (q->last + 1 < toks.size() && toks[q->last].is("in") && volumeFrom(q->last + 1))
            cls = ActionClass::Note;
          for (size_t k = q->first >= 5 ? q->first - 5 : 0; k + 1 < q->first; ++k)
            if (toks[q->first - 1].is("in"))
              if (auto part = volumeFrom(k); part && part->last + 1 == q->first)
                cls = ActionClass::Note;
        }
        // "so that all wells hold 100 µL", "final volume 200 µL": a state
        // the steps lead to, not a step.
        for (size_t k = q->first; k-- > 0 && k + 10 >= q->first;) {
          const Token &w = toks[k];
          if (w.isPunct(",") || w.isPunct(";"))
            break;
          // "The final volume in each well was thus about 200 µL": the
          // final volume's subject reaches further than the other words.
          if (w.is("final") && k + 1 < toks.size() && toks[k + 1].is("volume"))
            cls = ActionClass::Note;
          if (k + 6 < q->first)
            continue;
          if (w.is("final") || w.is("total") || w.is("leaving") || w.is("resulting") ||
              w.is("giving") || w.is("hold") || w.is("holds") || w.is("contain") ||
              w.is("contains") || w.is("ends") || (w.is("that") && k > 0 && toks[k - 1].is("so")) ||
              w.is("stays") || w.is("remains") || w.is("becomes") || w.is("reaches") ||
              w.is("bringing") || w.is("yields") || w.is("gives"))
            cls = ActionClass::Note;
          // "so everything is at 200 µL", "the wells go to 200 total": a
          // volume the wells are at, spoken. "Everyone is now at 150 uL",
          // "each well is then at 200 uL": with an adverb of time between.
          auto stateVerbBefore = [&](size_t at) {
            size_t v = at;
            while (v > 0 && at - v < 2 &&
                   (toks[v - 1].is("now") || toks[v - 1].is("then") || toks[v - 1].is("all") ||
                    toks[v - 1].is("both") || toks[v - 1].is("already") || toks[v - 1].is("thus")))
              --v;
            return v > 0 && (toks[v - 1].is("is") || toks[v - 1].is("are"));
          };
          if (p == Param::Volume && k > 0 && k + 1 == q->first &&
              ((w.is("at") && stateVerbBefore(k)) ||
               (w.is("to") && (toks[k - 1].is("go") || toks[k - 1].is("goes") ||
                               toks[k - 1].is("come") || toks[k - 1].is("comes")))))
            cls = ActionClass::Note;
          // "100 ul CPRG into every well -> 200 ul", "RM per well = 50 uL":
          // an arrow or an equals sign right before a value states what
          // there is afterwards, or defines a term.
          bool splitArrow = w.isPunct(">") && k > 0 &&
                            (toks[k - 1].isPunct("-") || toks[k - 1].isPunct("="));
          if (k + 1 == q->first && (w.isPunct("->") || w.isPunct("→") || w.isPunct("=") ||
                                    w.isPunct("=>") || splitArrow) &&
              !arrowStartsStep(p, toks, k))
            cls = ActionClass::Note;
          // "Assay time: 3.5 hours", "total duration", "takes about 4 h":
          // how long the protocol lasts, not a step.
          // Under a numbered step, though, "Duration 00:30:00" on a line
          // of its own is that step's time (a protocols.io export).
          bool stepField = w.is("duration") && k == 0 && !s.firstInUnit && !unit.label.empty() &&
                           (q->first == 1 || (q->first == 2 && toks[1].isPunct(":")));
          if ((w.is("duration") && !stepField) || w.is("takes") || w.is("lasts") ||
              (w.is("time") && k > 0 &&
               (toks[k - 1].is("assay") || toks[k - 1].is("total") || toks[k - 1].is("run") ||
                toks[k - 1].is("hands-on") || toks[k - 1].is("processing") ||
                toks[k - 1].is("turnaround") || toks[k - 1].is("working") ||
               toks[k - 1].is("active"))))
            cls = ActionClass::Note;
        }
        // "plate = cmpd 7, 48 h, A549, 5000 cells/well": a name, an equals
        // sign and a list with no verb anywhere is a label of what the
        // name is, not a step.
        {
          size_t first = 0;
          while (first < toks.size() && !toks[first].isWord())
            ++first;
          size_t eq = first + 1;
          if (eq < toks.size() && toks[eq].isWord() && !toks[eq].isNumber())
            ++eq;
          bool label = first < toks.size() && eq < toks.size() && toks[eq].isPunct("=") &&
                       eq < q->first &&
                       std::none_of(toks.begin(), toks.end(), [](const Token &t) {
                         return t.isWord() && isAnyVerb(t.lower);
                       });
          if (label)
            cls = ActionClass::Note;
        }
        // "Final conditions are ~98 µM hemin, 30 µM NP-40 and 12 % acetone
        // in 58 µL": a sentence whose subject is the final state describes
        // the wells after the additions, past its commas.
        {
          size_t start = q->first;
          while (start > 0 && !toks[start - 1].isPunct(".") && !toks[start - 1].isPunct(";"))
            --start;
          if (start < q->first && toks[start].is("the"))
            ++start;
          if (start + 2 < q->first && toks[start].is("final") &&
              (toks[start + 1].is("conditions") || toks[start + 1].is("concentrations") ||
               toks[start + 1].is("concentration") || toks[start + 1].is("composition")) &&
              (toks[start + 2].is("are") || toks[start + 2].is("were") || toks[start + 2].is("is") ||
               toks[start + 2].is("was") || toks[start + 2].isPunct(":")))
            cls = ActionClass::Note;
        }
        // "CX1 straight from the 10 mM stock is 0.9 uL": a volume that
        // completes "is" says how much something comes to, the result of a
        // sum, not an addition, unless a verb of its clause instructs.
        if (p == Param::Volume) {
          size_t v = q->first;
          while (v > 0 && (toks[v - 1].is("only") || toks[v - 1].is("just") ||
                           toks[v - 1].is("about") || toks[v - 1].is("approximately") ||
                           toks[v - 1].is("roughly") || toks[v - 1].isPunct("~")))
            --v;
          // "pNPP is 20 µl per well": a dose, which a step adds.
          auto after = [&](size_t k) { return k < toks.size() ? &toks[k] : nullptr; };
          bool dose = (after(q->last) && (after(q->last)->is("per") || after(q->last)->is("each") ||
                                          after(q->last)->is("into") || after(q->last)->is("to"))) ||
                      (after(q->last) && after(q->last)->isPunct("/") && after(q->last + 1) &&
                       after(q->last + 1)->is("well"));
          if (v >= 2 && !dose && (toks[v - 1].is("is") || toks[v - 1].is("was"))) {
            bool instructs = false;
            for (size_t k = v - 1; k-- > 0 && !instructs;) {
              if (toks[k].isPunct(".") || toks[k].isPunct(";") || toks[k].isPunct(":"))
                break;
              instructs = toks[k].isWord() && isAnyVerb(toks[k].lower);
            }
            if (!instructs)
              cls = ActionClass::Note;
          }
        }
        // "-> 0.45 mg/mL final, 220 uL": after an arrow, every value up to the
        // next verb states what there is afterwards, even past a comma.
        for (size_t k = q->first; k-- > 0;) {
          const Token &w = toks[k];
          if ((w.isWord() && isAnyVerb(w.lower)) || w.isPunct(";"))
            break;
          if (w.isPunct("->") || w.isPunct("→") || w.isPunct("=>") ||
              (w.isPunct(">") && k > 0 && toks[k - 1].isPunct("-"))) {
            // "180 ul DEA buf -> std wells, 180 ul pNPP -> ...": an arrow
            // that points at wells, no value, reaches no further than its
            // comma; a value right after the comma starts an addition of
            // its own ("-> std wells, so they're 100 ul" says a state).
            size_t comma = k + 1;
            while (comma < q->first && !toks[comma].isPunct(","))
              ++comma;
            bool destination = comma + 1 == q->first;
            for (size_t m = k + 1; m < comma && destination; ++m)
              destination = !toks[m].isNumber();
            if (!destination && !(k + 1 == q->first && arrowStartsStep(p, toks, k)))
              cls = ActionClass::Note;
            break;
          }
        }
        // "That leaves about 50 uL behind", "10 µl per well gives 0.5 mM
        // final": a value whose clause goes on to a result verb is the
        // premise of a calculation or a state, not a step.
        for (size_t k = q->last; k < toks.size() && k < q->last + 8; ++k) {
          const Token &w = toks[k];
          if (w.isPunct(",") || w.isPunct(";") || w.isPunct("."))
            break;
          if (w.is("gives") || w.is("give") || w.is("yields") || w.is("giving") ||
              w.is("yielding") || w.is("leaves") || w.is("leaving"))
            cls = ActionClass::Note;
        }
        for (size_t k = q->first; p == Param::Volume && k-- > 0 && k + 4 >= q->first;) {
          if (toks[k].isPunct(",") || toks[k].isPunct(";"))
            break;
          if (toks[k].is("leaves") || toks[k].is("left"))
            cls = ActionClass::Note;
        }
        // "Block: 200 uL, 1-2 h at RT. We use 1 h when ...", "40-50 uL
        // working reagent to every well. Use 50 uL.": the value chosen from
        // the range the step before gave, not a step of its own.
        if ((p == Param::Time || p == Param::Temperature || p == Param::Volume ||
             p == Param::Speed) &&
            drafts.empty() &&
            !out_.actions.empty()) {
          const Action &before = out_.actions.back();
          // A volume or a speed chooses from a range written out ("40-50
          // uL"); "-> ~100 ul. Blank wells get 100 ul" is another step.
          bool spanOnly = p == Param::Volume || p == Param::Speed;
          if (before.unit == s.unit && before.has(p) &&
              std::any_of(before.values(p).begin(), before.values(p).end(),
                          [&](const Value &range) {
                            return range.kind != Value::Kind::Exact && range.admits(v.low) &&
                                   (!spanOnly || range.kind == Value::Kind::Range);
                          }))
            cls = ActionClass::Note;
        }
        // "a reader with a 562 nm filter is needed", "filters between 540
        // and 590 nm will do": a wavelength that names a filter, in a
        // sentence with no verb of reading, describes the instrument.
        if (p == Param::Wavelength && namesFilter(toks, q->first, q->last) && !readVerb)
          cls = ActionClass::Note;
        if (p == Param::Wavelength && toks[q->first].isWord() && remarkOnAbsorbance(toks, q->first))
          cls = ActionClass::Note;
        // "Blank OD650 < 0.08", "B0 A450 >= 0.8": an absorbance held to a
        // limit is a run's criterion, no read.
        if (p == Param::Wavelength && toks[q->first].isWord() && !readVerb)
          for (size_t k = q->last; k < toks.size() && k < q->last + 3; ++k)
            if (toks[k].isPunct("<") || toks[k].isPunct(">") || toks[k].isPunct("≤") ||
                toks[k].isPunct("≥") || toks[k].isPunct("<=") || toks[k].isPunct(">="))
              cls = ActionClass::Note;
        // "The blue complex absorbs broadly between 580 and 660 nm", "SRB
        // max ~565 nm": what a coloured product does, in a sentence with
        // no verb of reading.
        if (p == Param::Wavelength &&
            std::any_of(toks.begin(), toks.end(), [](const Token &w) {
              return w.is("absorbs") || w.is("absorb") || w.is("peaks") || w.is("emits") ||
                     w.is("fluoresces") || w.is("max") || w.is("maximum") || w.is("λmax") ||
                     w.is("lambda");
            }) && !readVerb)
          cls = ActionClass::Note;
        // "report OD595 per strain as mean +/- SD", "express A450 as % of
        // control": an absorbance named in a sentence that reports or
        // calculates, with no verb of reading, is the data.
        if (p == Param::Wavelength && toks[q->first].isWord() &&
            std::any_of(toks.begin(), toks.end(), [](const Token &w) {
              return w.is("report") || w.is("express") || w.is("calculate") || w.is("plot") ||
                     w.is("present") || w.is("normalise") || w.is("normalize") ||
                     w.is("tabulate") || w.is("average");
            }) && !readVerb)
          cls = ActionClass::Note;
        // "the signal as A595 minus the blank", "OD450 divided by ...": an
        // absorbance that is a term of a calculation, not a read.
        if (p == Param::Wavelength && q->last < toks.size() &&
            (toks[q->last].is("minus") || toks[q->last].is("divided") ||
             toks[q->last].is("times") || toks[q->last].is("multiplied")))
          cls = ActionClass::Note;
        if (p == Param::Wavelength && reason)
          cls = ActionClass::Note;
        // "ΔA = A570 − A650", "net = OD450 - OD570": an absorbance that is a
        // term of a formula (after its "=", or one side of a difference of
        // two absorbances), in a sentence with no verb of reading, is data.
        if (p == Param::Wavelength && toks[q->first].isWord() && !readVerb) {
          auto absorbanceAt = [&](size_t k) {
            if (k >= toks.size() || !toks[k].isWord())
              return false;
            auto other = prose::quantityAt(toks, k, platform_, s.text);
            return other && other->dimension == Dimension::Wavelength;
          };
          auto sign = [](const Token &w) {
            return w.isPunct("-") || w.isPunct("−") || w.isPunct("–") || w.isPunct("+");
          };
          bool afterEquals = std::any_of(toks.begin(), toks.begin() + static_cast<long>(q->first),
                                         [](const Token &w) { return w.isPunct("="); });
          bool difference =
              (q->first >= 2 && sign(toks[q->first - 1]) && absorbanceAt(q->first - 2)) ||
              (q->last + 1 < toks.size() && sign(toks[q->last]) && absorbanceAt(q->last + 1));
          if (afterEquals || difference)
            cls = ActionClass::Note;
        }
        // "A490 0.12", "OD405 = 1.8": an absorbance with the number it had
        // is a result, not a read ("A450 10 min after" has a unit); with a
        // comparison ("VC mean A490 >= 1.0") it is a criterion of one.
        if (p == Param::Wavelength && toks[q->first].isWord() && q->last < toks.size()) {
          size_t n = q->last;
          auto relation = [&](const Token &w) {
            return w.isPunct("=") || w.isPunct(":") || w.isPunct(">") || w.isPunct("<") ||
                   w.isPunct(">=") || w.isPunct("<=") || w.isPunct("≥") || w.isPunct("≤");
          };
          for (unsigned skipped = 0; skipped < 2 && n + 1 < toks.size() && relation(toks[n]);
               ++skipped)
            ++n;
          if (n == q->last && n + 1 < toks.size() && toks[n].is("of"))
            ++n;
          // "A405 ~0.03 above blank", "A595 of about 1.2": what it read,
          // roughly.
          if (n + 1 < toks.size() && roughlyWord(toks[n]))
            ++n;
          if (toks[n].isNumber() && !prose::quantityAt(toks, n, platform_, s.text))
            cls = ActionClass::Note;
        }
        // "A490 mean", "OD450 values", "A562 (corrected)": an absorbance
        // named as a quantity of data, in a sentence with no verb of
        // reading, is a column or a result, not a read.
        if (p == Param::Wavelength && toks[q->first].isWord() && absorbanceAsData(toks, q->last) &&
            !readVerb)
          cls = ActionClass::Note;
        // "samples to RT, 30 min": warming to room temperature.
        if (p == Param::Temperature && q->first > 0 && toks[q->first - 1].is("to"))
          cls = ActionClass::Equilibrate;
        // "within 30 minutes", "up to 2 h" with no step: a limit, a note.
        // So is "working volume max 110 uL per well", "at least 50 µL": a
        // bound on a volume with no verb of its own is a well's limit.
        if ((p == Param::Time && !v.exact()) ||
            (p == Param::Volume &&
             (v.kind == Value::Kind::AtMost || v.kind == Value::Kind::AtLeast)))
          cls = ActionClass::Note;
        if (storage && (p == Param::Time || p == Param::Temperature))
          cls = ActionClass::Note;
        // "taking 0.58 cm for the light path of 200 µL": the volume that
        // makes a well's light path, a term of a calculation, not an
        // addition.
        if (p == Param::Volume && q->first >= 2 && toks[q->first - 1].is("of") &&
            (toks[q->first - 2].is("path") || toks[q->first - 2].is("pathlength")))
          cls = ActionClass::Note;
        // "255 uL in a 350 uL well": how full a well is, no addition.
        if (p == Param::Volume && q->last + 3 < toks.size() && toks[q->last].is("in")) {
          size_t k = q->last + 1;
          if (toks[k].is("a") || toks[k].is("an") || toks[k].is("the") || toks[k].is("each"))
            ++k;
          if (auto size = prose::quantityAt(toks, k, platform_, s.text);
              size && size->dimension == Dimension::Volume && size->last < toks.size() &&
              (toks[size->last].is("well") || toks[size->last].is("wells")))
            cls = ActionClass::Note;
        }
        // "Time allowed: 2 hours 30 minutes", "Time limit for the write-up:
        // 20 min", "time limit 45 min": how long someone may take, a limit,
        // no wait.
        if (p == Param::Time && q->first >= 2) {
          auto limitWord = [&](size_t k) {
            return toks[k].is("allowed") || toks[k].is("allowance") || toks[k].is("limit") ||
                   (toks[k].is("available") && k > 0 && toks[k - 1].is("time"));
          };
          size_t k = q->first - 1;
          if (limitWord(k))
            cls = ActionClass::Note;
          else if (toks[k].isPunct(":"))
            for (size_t back = 0; k-- > 0 && back < 6; ++back) {
              if (toks[k].isPunct(".") || toks[k].isPunct(";") || toks[k].isPunct(":"))
                break;
              if (limitWord(k)) {
                cls = ActionClass::Note;
                break;
              }
            }
        }
        // "starts at roughly 0.9 to 1.0 absorbance units at 595 nm", "an
        // absorbance of about 1.0 at 595 nm": what a well reads at a
        // wavelength, a value, not a read.
        if (p == Param::Wavelength && absorbanceValueBefore(toks, q->first))
          cls = ActionClass::Note;
        // "2325 LAB: 20 min up.": the time of a step told before has run
        // out, no wait of its own.
        if (p == Param::Time && q->last < toks.size() && toks[q->last].is("up") &&
            (q->last + 1 == toks.size() || toks[q->last + 1].isPunct(".") ||
             toks[q->last + 1].isPunct(",") || toks[q->last + 1].isPunct(";")))
          cls = ActionClass::Note;
        // "The area forecasts for the next three hours", "the outlook for
        // the following twenty-four hours": a span still to come, with no
        // verb of waiting, says how far something reaches, not a wait.
        if (p == Param::Time && q->first > 0 &&
            (toks[q->first - 1].is("next") || toks[q->first - 1].is("following") ||
             toks[q->first - 1].is("coming")))
          cls = ActionClass::Note;
        if (kindRemark)
          cls = ActionClass::Note;
        startAction(cls, q->first, false);
        Draft &d = drafts[static_cast<size_t>(cur)];
        d.action.values(p).push_back(v);
        d.lastToken = q->last;
        if (washContext && cls == ActionClass::Dispense)
          d.washNoun = true;
      }
      i = next;
      continue;
    }
    if (t.isWord() || t.isPunct("+")) {
      const std::string &w = t.lower;
      std::string_view next = i + 1 < toks.size() ? std::string_view(toks[i + 1].lower) : "";
      std::string_view prev = i > 0 ? std::string_view(toks[i - 1].lower) : "";
      // Flags.
      if (w == "dark" || ((w == "protect" || w == "protected") && next == "from") ||
          w == "light-protected" || w == "foil") {
        if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Incubate)
          drafts[static_cast<size_t>(cur)].action.dark = true;
        else
          pendingDark = true;
        ++i;
        continue;
      }
      if (w == "cover" || w == "covered" || w == "seal" || w == "sealed" || w == "lid") {
        bool off = next == "off" || prev == "without" || prev == "no";
        if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Incubate)
          drafts[static_cast<size_t>(cur)].action.lidOn = !off;
        else
          pendingLid = !off;
        ++i;
        continue;
      }
      if ((w == "shaking" || w == "shaken" || w == "shake" || w == "shaker" || w == "agitation") &&
          (prev == "no" || prev == "without" || prev == "not")) {
        if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Incubate)
          drafts[static_cast<size_t>(cur)].action.shaking = false;
        else
          negateShaking = true;
        ++i;
        continue;
      }
      if (w == "static" || w == "stationary") {
        if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Incubate)
          drafts[static_cast<size_t>(cur)].action.shaking = false;
        ++i;
        continue;
      }
      if (w == "shaker" || w == "orbital") {
        if (cur >= 0) {
          Draft &d = drafts[static_cast<size_t>(cur)];
          d.shakerContext = true;
          if (d.action.cls == ActionClass::Incubate)
            d.action.shaking = true;
        }
        ++i;
        continue;
      }
      if (w == "rack" || w == "tube" || w == "tubes" || w == "reservoir" || w == "trough") {
        if (cur >= 0)
          drafts[static_cast<size_t>(cur)].fromRackOrTube = true;
      }
      if (w == "linear" || w == "logistic" || w == "4-pl" || w == "4pl" || w == "4-param" ||
          w == "four-parameter" || w == "4-parameter" || w == "5-pl") {
        // Handled below as analysis words, and remember the model.
      }
      // Verbs, with the nouns that look like them.
      auto verbIt = verbs().find(w);
      // "+ 200ul dye", "+25ul tracer": an addition at the start of a clause;
      // "reagent + samples" joins two names.
      bool plus = (t.isPunct("+") || w == "+") &&
                  (i == 0 || toks[i - 1].kind == Token::Kind::Punct || clauseBoundary(i - 1));
      if ((t.isPunct("+") || w == "+") && !plus) {
        ++i;
        continue;
      }
      if (verbIt != verbs().end() || plus) {
        ActionClass cls = plus ? ActionClass::Dispense : verbIt->second;
        // "pipetting up and down 3 times", "pipette up/down": a mix in place.
        if (cls == ActionClass::Dispense && w.rfind("pipett", 0) == 0 && next == "up" &&
            i + 2 < toks.size() &&
            (toks[i + 2].is("and") || toks[i + 2].isPunct("/") || toks[i + 2].is("down")))
          cls = ActionClass::Mix;
        bool noun = kDeterminers.count(prev) > 0 && cls != ActionClass::Analyze &&
                    !(prev == "each" || prev == "every");
        if (kNounFollowers.count(next) && cls != ActionClass::Analyze &&
            !(cls == ActionClass::Dispense && next == "plate") &&
            !(cls == ActionClass::Wash && (next == "plate" || next == "step" || next == "steps")))
          noun = true;
        if (w == "wash" && (next == "buffer" || next == "solution" || next == "reagent"))
          washContext = true;
        if ((w == "left" || w == "leave") && !(next == "to" || next == "in" || next == "for" ||
                                                next == "at" || next == "on" || next == "undisturbed"))
          noun = true;
        if ((w == "warm" || w == "cool" || w == "thaw") &&
            !(next == "to" || next == "up" || next == "down" || next == "for" || next == "the" ||
              next == "plate" || prev == "let" || prev == "allow" || prev == "to" || i == 0 ||
              (cur < 0 && drafts.empty())))
          noun = true;
        if ((w == "stand" || w == "sit" || w == "settle") && !(prev == "let" || prev == "to" ||
                                                                next == "for" || i == 0))
          noun = true;
        if (w == "heat" && next == "block")
          noun = true;
        // "Robot: wash coated plate", "aspirate blocked wells": a participle
        // between the step's verb and its plate describes the plate.
        if (w.size() > 4 && w.compare(w.size() - 2, 2, "ed") == 0 && cur >= 0 &&
            drafts[static_cast<size_t>(cur)].explicitVerb &&
            !drafts[static_cast<size_t>(cur)].action.hasNumeric() &&
            (next == "plate" || next == "plates" || next == "wells" || next == "strips" ||
             next == "microplate"))
          noun = true;
        // "Reaction Mix", "Master Mix", "Substrate Mix": a kit's mix is a
        // liquid, not the step.
        if ((w == "mix" || w == "mixes") && i > 0 && toks[i - 1].isWord() &&
            (prev == "reaction" || prev == "master" || prev == "background" ||
             prev == "substrate" || prev == "enzyme" || prev == "detection" ||
             prev == "assay" || prev == "working" || prev == "reagent" ||
             prev == "developer" || prev == "probe" || prev == "colour" || prev == "color" ||
             prev == "dye" || prev == "premix" || prev == "standard" || prev == "lysis" ||
             prev == "conjugate" || prev == "antibody" || prev == "primer"))
          noun = true;
        // "diluted samples", "prepared plate": a participle before its noun.
        if (cls == ActionClass::Prepare && !benchVerb(w) && !next.empty() && i + 1 < toks.size() &&
            toks[i + 1].isWord() && !isAnyVerb(next) &&
            !(next == "the" || next == "a" || next == "an" || next == "in" || next == "with" ||
              next == "to" || next == "all" || next == "each" || next == "fresh" ||
              next == "up" || next == "it" || next == "them" || next == "by"))
          noun = true;
        if ((w == "store" || w == "stored" || w == "keep" || w == "kept" || w == "hold") &&
            cur >= 0)
          noun = true;
        // "... is 0.9 uL -> make 100 uL instead": "make" before the
        // volume made prepares it, wherever it stands in the sentence.
        if (w == "make" && next != "up" && !(i + 1 < toks.size() && toks[i + 1].isNumber()))
          noun = true;
        if (w == "put" && next != "into" && next != "in")
          noun = true;
        if ((w == "magnet" || w == "magnetic") && cur >= 0 &&
            drafts[static_cast<size_t>(cur)].action.cls != ActionClass::Incubate)
          noun = true;
        if (w == "mixing" && (prev == "check" || prev == "for" || prev == "ensure"))
          noun = true;
        // "mixed by pipetting five times (50 µL)", "resuspend by gentle
        // pipetting": how the step before is done, no addition of its own.
        if ((w == "pipetting" || w == "pipette") && cur >= 0 &&
            (prev == "by" || (i >= 2 && toks[i - 2].is("by") &&
                              (prev == "gentle" || prev == "repeated" || prev == "gently"))))
          noun = true;
        // "mix by aspirating and dispensing 3 times with 100 µL": the two
        // strokes of a pipette mix, told as the mix's manner.
        auto startsWith = [](const std::string &word, std::string_view stem) {
          return word.rfind(stem, 0) == 0;
        };
        auto dispenseStroke = [&](const std::string &word) {
          return startsWith(word, "dispens") || startsWith(word, "expel") ||
                 startsWith(word, "eject");
        };
        bool mixDraft =
            cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Mix;
        if (startsWith(w, "aspirat") && (prev == "by" || mixDraft) && next == "and" &&
            i + 2 < toks.size() && dispenseStroke(toks[i + 2].lower))
          noun = true;
        if (dispenseStroke(w) && prev == "and" && i >= 2 && startsWith(toks[i - 2].lower, "aspirat") &&
            ((i >= 3 && toks[i - 3].is("by")) || mixDraft))
          noun = true;
        // "shake 30 s to mix, ~1000 rpm", "add 150 µL DMSO to dissolve the
        // crystals": the purpose of the step being told, not another step.
        if (prev == "to" && cur >= 0 && drafts[static_cast<size_t>(cur)].explicitVerb &&
            (w == "mix" || w == "dissolve" || w == "resuspend" || w == "homogenise" ||
             w == "homogenize" || w == "solubilise" || w == "solubilize" || w == "distribute"))
          noun = true;
        if (w == "measuring" || w == "recorded" || w == "record")
          noun = noun || (prev == "the");
        if ((w == "stop" || w == "stops" || w == "stopped" || w == "stopping") &&
            (next == "solution" || next == "reagent" || next == "buffer"))
          noun = true;
        // "incubate 10-15 min. We stop at 10 min": when the incubation
        // ends, a time point and not the stop solution's addition.
        if ((w == "stop" || w == "stops" || w == "stopped" || w == "stopping") &&
            (next == "at" || next == "after") && i + 2 < toks.size() && toks[i + 2].isNumber())
          noun = true;
        if (w == "read" && (next == "the" && i + 2 < toks.size() && toks[i + 2].is("results")))
          noun = false;
        // "Remove the liquid out of each well, do not wash": a step that
        // is not done starts none.
        if (prev == "not" || prev == "don't" || prev == "dont" || prev == "never" ||
            (prev == "t" && i >= 3 && toks[i - 3].is("don")))
          noun = true;
        // "- no washing first, just off -": none; "lets each wash soak for
        // 30 seconds": the washes told, by a determiner, not another wash.
        if ((prev == "no" && (w == "washing" || w == "mixing" || w == "shaking")) ||
            ((prev == "each" || prev == "every") &&
             (w == "wash" || w == "rinse" || w == "read" || w == "addition")))
          noun = true;
        if (noun) {
          if (cur >= 0)
            drafts[static_cast<size_t>(cur)].action.words.push_back(w);
          else
            pendingWords.push_back(w);
          ++i;
          continue;
        }
        if (cls == ActionClass::Analyze && (curveModelWord(w) || w == "fit" || w == "fitted" ||
                                            w == "interpolate" || w == "interpolated")) {
          // Analysis words join the analysis of the clause.
          if (cur >= 0 && drafts[static_cast<size_t>(cur)].action.cls == ActionClass::Analyze) {
            drafts[static_cast<size_t>(cur)].curveWord = true;
          } else {
            startAction(ActionClass::Analyze, i, true);
            drafts[static_cast<size_t>(cur)].curveWord = true;
          }
          Draft &d = drafts[static_cast<size_t>(cur)];
          if (curveModelWord(w) && w != "curve" && w != "regression")
            d.action.fourPL = true;
          if (w == "regression" && !d.action.fourPL)
            d.action.fourPL = false;
          ++i;
          continue;
        }
        if (w == "four" && next == "parameter") {
          ++i;
          continue;
        }
        // Parts of one wash: "Wash: fill ..., then aspirate", "wash ... and
        // discard".
        if (!drafts.empty() && drafts.back().action.cls == ActionClass::Wash &&
            (cls == ActionClass::Aspirate ||
             (cls == ActionClass::Dispense && (w == "fill" || w == "fills" || w == "filled")))) {
          ++i;
          continue;
        }
        if (cur >= 0) {
          Draft &d = drafts[static_cast<size_t>(cur)];
          if (cls == ActionClass::Wash && d.action.cls == ActionClass::Aspirate &&
              !d.action.hasNumeric()) {
            d.action.cls = ActionClass::Wash;
            d.explicitVerb = true;
            ++i;
            continue;
          }
          // Shaking during an incubation is its parameter.
          if (cls == ActionClass::Shake && d.action.cls == ActionClass::Incubate) {
            d.action.shaking = true;
            d.shakerContext = true;
            ++i;
            continue;
          }
          if (cls == ActionClass::Shake && d.action.cls == ActionClass::Mix) {
            d.action.cls = ActionClass::Shake;
            ++i;
            continue;
          }
          // The same verb again, or a second verb for an action that has no
          // values yet ("are pipetted by the operator: add 100 µL"): one
          // action.
          if (cls == d.action.cls && (!d.action.hasNumeric() || !d.explicitVerb)) {
            d.explicitVerb = true;
            ++i;
            continue;
          }
          // A value read before its verb ("100 µL of TMB is added", "50 µL
          // ... are transferred"): the verb names the action.
          bool participle = (w.size() > 3 && (w.compare(w.size() - 2, 2, "ed") == 0 ||
                                              w.compare(w.size() - 2, 2, "en") == 0)) ||
                            prev == "is" || prev == "are" || prev == "was" || prev == "were" ||
                            prev == "be" || prev == "been";
          if (!d.explicitVerb && cls != d.action.cls && participle &&
              (d.action.cls == ActionClass::Dispense || d.action.cls == ActionClass::Incubate ||
               d.action.cls == ActionClass::Shake || d.action.cls == ActionClass::Read)) {
            bool fits = true;
            Draft probe;
            probe.action.cls = cls;
            for (size_t p = 0; p < kParamCount && fits; ++p)
              for (const Value &v : d.action.params[p])
                if (!accepts(probe, static_cast<Param>(p), v))
                  fits = false;
                else
                  probe.action.params[p].push_back(v);
            if (fits && cls != ActionClass::Prepare && cls != ActionClass::Analyze) {
              d.action.cls = cls;
              d.explicitVerb = true;
              ++i;
              continue;
            }
          }
          if (cls == ActionClass::Prepare && d.action.hasNumeric() && !(next == "1" || next == "in" || next == "with") && d.action.cls != ActionClass::Prepare) {
            d.action.words.push_back(w);
            ++i;
            continue;
          }
        }
        startAction(cls, i, true);
        Draft &d = drafts[static_cast<size_t>(cur)];
        if (cls == ActionClass::Incubate && negateShaking) {
          d.action.shaking = false;
          negateShaking = false;
        }
        ++i;
        continue;
      }
      // Reference words are read in resolveReferences; other words name
      // the liquid.
      if (t.isWord() && !isWellWordLike(w)) {
        if (cur >= 0)
          drafts[static_cast<size_t>(cur)].action.words.push_back(w);
        else
          pendingWords.push_back(w);
      }
      if (w == "wash" || w == "washing")
        washContext = true;
      ++i;
      continue;
    }
    ++i;
  }
  if (pendingDark)
    for (auto it = drafts.rbegin(); it != drafts.rend(); ++it)
      if (it->action.cls == ActionClass::Incubate) {
        it->action.dark = true;
        break;
      }
  if (negateShaking)
    for (auto it = drafts.rbegin(); it != drafts.rend(); ++it)
      if (it->action.cls == ActionClass::Incubate) {
        it->action.shaking = false;
        break;
      }

  // Finish the drafts: counts, implied classes, splits.
  std::vector<Draft> done;
  for (size_t k = 0; k < drafts.size(); ++k) {
    Draft d = std::move(drafts[k]);
    Action &a = d.action;
    if (a.cls == ActionClass::Dispense && (d.washNoun || washContext) && !d.counts.empty() &&
        !a.has(Param::Cycles)) {
      a.cls = ActionClass::Wash; // "Wash buffer, 5x, 200 µL"
    }
    // "WB ... 3 x 200 uL wash": the kind named right after the volume.
    if (a.cls == ActionClass::Dispense && !d.explicitVerb && d.countFirst &&
        d.lastToken < toks.size() &&
        (toks[d.lastToken].is("wash") || toks[d.lastToken].is("washes") ||
         toks[d.lastToken].is("rinse") || toks[d.lastToken].is("rinses")))
      a.cls = ActionClass::Wash;
    if (a.cls == ActionClass::Dispense && !d.explicitVerb && d.countFirst)
      d.unstatedRepeat = true;
    if ((a.cls == ActionClass::Wash || a.cls == ActionClass::Mix) && !a.has(Param::Cycles) &&
        !d.counts.empty())
      a.values(Param::Cycles).push_back(d.counts.front());
    if (a.cls == ActionClass::Mix && (a.has(Param::Speed) || d.shakerContext ||
                                      (a.has(Param::Time) && !a.has(Param::Cycles) && !a.has(Param::Volume)))) {
      a.cls = ActionClass::Shake; // "mix on a plate shaker for 30 s at 600 rpm"
      a.values(Param::Volume).clear();
      a.values(Param::Cycles).clear();
    }
    if (a.cls == ActionClass::Transfer && d.fromRackOrTube)
      a.cls = ActionClass::Dispense; // from the sample rack into the plate
    if (a.cls == ActionClass::Incubate && !a.has(Param::Time) && !d.explicitVerb &&
        (a.has(Param::Temperature) || a.has(Param::Speed)))
      a.cls = ActionClass::Note; // a temperature alone: a remark, not a step
    if (a.cls == ActionClass::Shake && !a.has(Param::Time) && !d.explicitVerb)
      a.cls = ActionClass::Note;
    if (a.cls == ActionClass::Read) {
      std::string lower = prose::lowerAscii(s.text);
      if (hasAnyWord(lower, {"fluorescence", "fluorescent", "excitation", "emission", "ex", "em"})) {
        a.cls = ActionClass::ReadFluorescence;
        std::vector<Value> w = a.values(Param::Wavelength);
        a.values(Param::Wavelength).clear();
        if (!w.empty())
          a.values(Param::Excitation).push_back(w[0]);
        if (w.size() > 1)
          a.values(Param::Emission).push_back(w[1]);
        if (a.has(Param::Reference)) {
          a.values(Param::Emission).push_back(a.values(Param::Reference).front());
          a.values(Param::Reference).clear();
        }
      }
    }
    if (a.cls == ActionClass::Analyze) {
      std::string lower = prose::lowerAscii(s.text);
      if (hasAnyWord(lower, {"blank", "blanks", "zero"}) &&
          hasAnyWord(lower, {"subtract", "subtracted", "subtracting", "subtraction", "minus",
                             "corrected", "correct"}))
        a.subtractBlank = true;
      if (!a.fourPL) {
        if (hasAnyWord(lower, {"logistic", "4-pl", "4pl", "four-parameter", "4-parameter",
                               "4-param", "5-pl", "four parameter"}) ||
            lower.find("4-param") != std::string::npos)
          a.fourPL = true;
        else if (hasAnyWord(lower, {"linear", "regression", "straight"}))
          a.fourPL = false;
      }
      if (!d.curveWord && hasAnyWord(lower, {"curve", "fit", "regression", "logistic",
                                             "interpolate", "interpolated", "4-pl", "4pl"}))
        d.curveWord = true;
    }
    if (a.cls == ActionClass::Equilibrate && !a.has(Param::Temperature)) {
      // "Bring ... to room temperature": without a temperature it is a
      // warming of reagents nobody scripts; keep it weak.
    }
    // A dispense with a time is an addition and an incubation ("Block
    // with 200 µL for 1 h").
    if (a.cls == ActionClass::Dispense && (a.has(Param::Time) || a.has(Param::Temperature))) {
      Draft inc;
      inc.action.cls = ActionClass::Incubate;
      inc.action.values(Param::Time) = a.values(Param::Time);
      inc.action.values(Param::Temperature) = a.values(Param::Temperature);
      a.values(Param::Time).clear();
      a.values(Param::Temperature).clear();
      inc.firstToken = d.lastToken;
      inc.lastToken = d.lastToken;
      done.push_back(std::move(d));
      done.push_back(std::move(inc));
      continue;
    }
    done.push_back(std::move(d));
  }

  // Shaking given without a time of its own belongs to the incubation
  // next to it ("develop 90 min in the dark, shake 500rpm").
  for (size_t k = 0; k < done.size(); ++k) {
    Action &a = done[k].action;
    if (a.cls != ActionClass::Shake || a.has(Param::Time) || !a.has(Param::Speed))
      continue;
    for (size_t m : {k > 0 ? k - 1 : k, k + 1}) {
      if (m == k || m >= done.size() || done[m].action.cls != ActionClass::Incubate ||
          done[m].action.has(Param::Speed))
        continue;
      done[m].action.values(Param::Speed) = a.values(Param::Speed);
      done[m].action.shaking = true;
      a.cls = ActionClass::Note;
      a.values(Param::Speed).clear();
      break;
    }
  }

  // One step named twice in a clause ("is added next (100 µL per well)",
  // "fit a curve ...; subtract the blank"): a mention next to the step of
  // its kind, or two analyses of one sentence, are one.
  // The partner may stand a preparation or a mention away ("IgG (100 µl,
  // diluted 1:8000) was added").
  bool tableRow = out_.units[s.unit].tableRow;
  auto skippable = [](const Draft &d) {
    return !robotClass(d.action.cls) || (!d.action.hasNumeric() && d.action.cls != ActionClass::Analyze);
  };
  for (size_t m = 1; m < done.size();) {
    size_t k = m;
    bool merged = false;
    while (k-- > 0) {
      Action &x = done[k].action;
      Action &y = done[m].action;
      bool xWeak = !x.hasNumeric() && !(x.cls == ActionClass::Analyze);
      bool yWeak = !y.hasNumeric() && !(y.cls == ActionClass::Analyze);
      // Two analyses of one sentence are one however far apart ("subtract
      // the blank, fit a 4PL ..., read the samples from the curve").
      // A table row's value column and its notes name one step twice ("1 h"
      // under Time, "incubate at 37 °C" under Notes): a step of no verb and
      // one of the same class with a verb, stating different parameters.
      bool rowHalves = tableRow && x.cls == y.cls && robotClass(x.cls) &&
                       done[k].explicitVerb != done[m].explicitVerb &&
                       [&] {
                         for (size_t p = 0; p < kParamCount; ++p)
                           if (!x.params[p].empty() && !y.params[p].empty())
                             return false;
                         return true;
                       }();
      if (x.cls == y.cls && (xWeak || yWeak || x.cls == ActionClass::Analyze || rowHalves) &&
          !(k + 1 < m && !xWeak && !yWeak && x.cls != ActionClass::Analyze && !rowHalves)) {
        Action &keep = yWeak && !xWeak ? x : y;
        Action &drop = yWeak && !xWeak ? y : x;
        for (const std::string &w : drop.words)
          keep.words.push_back(w);
        if (!keep.dark)
          keep.dark = drop.dark;
        if (!keep.fourPL)
          keep.fourPL = drop.fourPL;
        if (!keep.lidOn)
          keep.lidOn = drop.lidOn;
        for (size_t p = 0; p < kParamCount; ++p)
          if (keep.params[p].empty())
            keep.params[p] = drop.params[p];
        bool curve = done[k].curveWord || done[m].curveWord;
        bool verb = done[k].explicitVerb || done[m].explicitVerb;
        bool parens = done[k].inParens && done[m].inParens;
        bool imperative = done[k].imperative || done[m].imperative;
        size_t first = std::min(done[k].firstToken, done[m].firstToken);
        size_t last = std::max(done[k].lastToken, done[m].lastToken);
        Draft kept = std::move(&keep == &x ? done[k] : done[m]);
        kept.curveWord = curve;
        kept.explicitVerb = verb;
        kept.inParens = parens;
        kept.imperative = imperative;
        kept.firstToken = first;
        kept.lastToken = last;
        done[k] = std::move(kept);
        done.erase(done.begin() + static_cast<long>(m));
        merged = true;
        break;
      }
      if (!skippable(done[k]))
        break;
    }
    if (!merged)
      ++m;
  }

  // Order words: "200 µL FixDenat after removing the medium", "before
  // reading, add the stop solution" put in the text second what happens
  // first. A step named by a gerund right after the word is put back in
  // time order; other such words leave the sentence's order loose.
  std::vector<size_t> order(done.size());
  for (size_t k = 0; k < done.size(); ++k)
    order[k] = k;
  std::set<size_t> resolved;
  auto gerundAfter = [&](size_t k, std::initializer_list<const char *> words) -> long {
    const std::string &verb = done[k].verb;
    if (verb.size() < 5 || verb.compare(verb.size() - 3, 3, "ing") != 0)
      return -1;
    size_t at = done[k].firstToken;
    for (size_t back = 1; back <= 2 && back <= at; ++back)
      for (const char *w : words)
        if (toks[at - back].is(w))
          return static_cast<long>(at - back);
    return -1;
  };
  for (size_t k = 1; k < done.size(); ++k) {
    long word = gerundAfter(k, {"after", "following"});
    if (word >= 0 && static_cast<size_t>(word) > done[k - 1].firstToken) {
      std::swap(order[k - 1], order[k]);
      resolved.insert(static_cast<size_t>(word));
      done[k].imperative = true;
    }
  }
  if (done.size() >= 2) {
    long word = gerundAfter(0, {"before", "prior"});
    if (word >= 0) {
      std::swap(order[0], order[1]);
      resolved.insert(static_cast<size_t>(word));
    }
  }
  bool loose = false;
  size_t firstActionToken = done.empty() ? toks.size() : done.front().firstToken;
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token &t = toks[i];
    bool early = i < firstActionToken;
    if (resolved.count(i))
      continue;
    // "... after subtraction of the blank" names no step of its own: only
    // a step that begins after the word (before the next comma) is out of
    // the time order.
    if ((t.is("after") || t.is("following") || t.is("once") || t.is("having")) && !early &&
        !(i + 1 < toks.size() && toks[i + 1].is("which"))) {
      size_t end = i + 1;
      while (end < toks.size() && !toks[end].isPunct(",") && !toks[end].isPunct(";"))
        ++end;
      bool stepAfter = std::any_of(done.begin(), done.end(), [&](const Draft &d) {
        return d.firstToken > i && d.firstToken < end;
      });
      if (stepAfter)
        loose = true;
    }
    if ((t.is("before") || t.is("prior")) && early)
      loose = true;
    // "Meanwhile prepare ...", "in parallel": two things at once. ("during
    // which the antibody binds" describes the step, it is no second one.)
    if (t.is("meanwhile") || t.is("simultaneously") || t.is("concurrently") ||
        (t.is("parallel") && i > 0 && toks[i - 1].is("in")) ||
        (t.is("same") && i > 1 && toks[i - 1].is("the") && toks[i - 2].is("at") &&
         i + 1 < toks.size() && toks[i + 1].is("time")))
      loose = true;
  }
  // "after step 2 shake 30 s at 500 rpm": a step placed by a step's
  // number, where the text tells it, is out of the text's order.
  bool placedByNumber = false;
  for (size_t i = 0; i + 2 < toks.size(); ++i)
    if ((toks[i].is("after") || toks[i].is("before")) && toks[i + 1].is("step") &&
        toks[i + 2].isNumber() && std::any_of(done.begin(), done.end(), [&](const Draft &d) {
          return d.firstToken > i + 2;
        }))
      placedByNumber = true;
  if (done.size() < 2 && !placedByNumber &&
      !(firstActionToken < toks.size() && !toks.empty() &&
        (toks.front().is("before") || toks.front().is("prior"))))
    loose = false;
  loose |= placedByNumber;
  // "Oh, and the robot does the wash first: wash 3 x 200 µl before the
  // enzyme goes in": a step said to come first after the steps it
  // precedes (an afterthought in a chat or an e-mail) is out of the text's
  // order. ("Add the sample first, then ..." keeps it.)
  auto saysFirst = [](const std::vector<Token> &t, size_t from) {
    for (size_t i = from; i < t.size(); ++i)
      if (t[i].is("first") && (i + 1 == t.size() || t[i + 1].isPunct(":") || t[i + 1].isPunct(".")))
        return true;
    return false;
  };
  if (!done.empty() && (saysFirst(toks, done.front().firstToken + 1) ||
                        (index > 0 && !sentences_[index - 1].tokens.empty() &&
                         sentences_[index - 1].tokens.back().isPunct(":") &&
                         saysFirst(sentences_[index - 1].tokens, 0))))
    loose = true;
  s.loose = loose;
  if (!toks.empty() && (toks.front().is("before") || toks.front().is("prior")) && index > 0) {
    // "Before that, add ...": the previous sentence's steps come later.
    for (Action &a : out_.actions)
      if (a.sentence == index - 1)
        a.orderLoose = true;
    s.loose = true;
  }
  bool pastResults = reportsPastResults(toks);
  // "What A570 do you expect for the blank?": a question asks about a step;
  // it orders none.
  bool question = asksQuestion(toks);
  bool inBranch = unit.loc.line >= 1 && unit.loc.line - 1 < branchLines_.size() &&
                  branchLines_[unit.loc.line - 1];
  s.conditional = conditionalWords(toks, done.empty() ? 0 : done.back().firstToken) ||
                  pastResults || question || comparesAgainstBound(toks) || inBranch;

  std::vector<std::pair<size_t, size_t>> spans;
  for (size_t k = 0; k < done.size(); ++k) {
    size_t begin = k == 0 ? 0 : done[k].firstToken;
    size_t end = k + 1 < done.size() ? done[k + 1].firstToken : toks.size();
    if (done[k].insertedBefore && k + 1 < done.size())
      end = std::max(end, done[k + 1].lastToken);
    spans.emplace_back(begin, std::max(begin, end));
  }
  bool person = false, robot = false;
  markersIn(toks, 0, toks.size(), person, robot);
  std::string unitPrefix = prose::lowerAscii(colonPrefix(unit.text));
  Domain prefixDomain = domainOfHeading(unitPrefix);
  // "... seeded at 5 × 10^4 cells/well ... 24 h, 37 °C, 5% CO2": a
  // sentence that states a gassed atmosphere tells cell culture ("no CO2
  // needed" states none). A card's "37 C / CO2" and "the CO2 incubator"
  // state it in short.
  bool gassed = false;
  for (size_t k = 1; k < toks.size(); ++k)
    gassed |= (toks[k].is("co2") || toks[k].lower == "co₂") &&
              (toks[k - 1].isPunct("%") || toks[k - 1].isPunct("/") ||
               (k + 1 < toks.size() && toks[k + 1].is("incubator")));
  bool seeding = std::any_of(toks.begin(), toks.end(), [](const Token &t) {
    return t.is("seed") || t.is("seeded") || t.is("seeding") || t.is("plated");
  });
  std::vector<Action> built(done.size());
  // The unit's formula terms, read once for all of the sentence's actions.
  std::optional<std::vector<double>> unitFormulaTerms;
  for (size_t k = 0; k < done.size(); ++k) {
    Draft &d = done[k];
    Action &a = built[k];
    a = std::move(d.action);
    size_t first = std::min(d.firstToken, toks.empty() ? 0 : toks.size() - 1);
    size_t lastTok = std::min(std::max(d.lastToken, first + 1), toks.size());
    size_t beginOffset = toks.empty() ? 0 : toks[first].begin;
    size_t endOffset = toks.empty() ? s.text.size() : toks[lastTok - 1].end;
    a.loc = locate(s.unit, s.offset + beginOffset, endOffset - beginOffset);
    size_t spanBegin = spans[k].first < toks.size() ? toks[spans[k].first].begin : 0;
    size_t spanEnd = spans[k].second > 0 && spans[k].second <= toks.size()
                         ? toks[spans[k].second - 1].end
                         : s.text.size();
    a.text = s.text.substr(spanBegin, spanEnd > spanBegin ? spanEnd - spanBegin : 0);
    a.unit = s.unit;
    a.sentence = index;
    a.label = unit.label;
    a.domain = domainAround(s, spans[k].first, spans[k].second, spans, k);
    // "added by the operator together with 50 µL diluent": a second value
    // of the same kind, with no verb or words of its own, shares the
    // first's hands.
    if (a.domain == out_.units[s.unit].domain && k > 0 && !d.explicitVerb &&
        done[k - 1].action.cls == a.cls) {
      bool person = false, robot = false;
      markersIn(toks, spans[k].first, spans[k].second, person, robot);
      if (!person && !robot && !out_.actions.empty() && out_.actions.back().sentence == index)
        a.domain = out_.actions.back().domain;
    }
    if (a.domain == Domain::Unstated && prefixDomain != Domain::Unstated)
      a.domain = prefixDomain;
    // "Reconstitute with 0.5 mL diluent, 15 min at RT, aliquot": a time
    // with no verb of its own after a preparation is how long the reagent
    // stands, part of making it, not a step on the plate.
    if (!d.explicitVerb && a.cls == ActionClass::Incubate && k > 0 &&
        done[k - 1].action.cls == ActionClass::Prepare) {
      // Right after it: no value of another step ("25 ul per well") and
      // no full stop between them.
      bool adjacent = done[k - 1].lastToken <= d.firstToken;
      for (size_t t = done[k - 1].lastToken; adjacent && t < d.firstToken && t < toks.size(); ++t)
        adjacent = !toks[t].isNumber() && !toks[t].isPunct(".");
      if (adjacent)
        a.cls = ActionClass::Prepare;
    }
    // Flicking a plate out over the sink and blotting it on towels are
    // done by hand; a robot empties wells by aspirating.
    static const std::set<std::string, std::less<>> handTechnique = {
        "flick", "flicked", "blot", "blotted"};
    a.personNearby = person || handTechnique.count(d.verb) > 0 ||
                     prefixDomain == Domain::Person || prefixDomain == Domain::Both ||
                     unit.domain == Domain::Person || unit.domain == Domain::Both ||
                     a.domain == Domain::Person || a.domain == Domain::Both;
    a.robotNearby = robot || a.domain == Domain::Robot;
    a.conditional = s.conditional;
    // "incubate for 2.5 hours at room temperature, or overnight at 4 °C":
    // two incubations joined by "or" are alternatives; the script takes one.
    if (a.cls == ActionClass::Incubate) {
      auto orBefore = [&](size_t at) {
        size_t b = at;
        while (b > 0 && (toks[b - 1].isPunct(",") || toks[b - 1].is("alternatively")))
          --b;
        return b > 0 && toks[b - 1].is("or");
      };
      bool laterAlternative = k > 0 && done[k - 1].action.cls == ActionClass::Incubate &&
                              orBefore(done[k].firstToken);
      bool earlierAlternative = k + 1 < done.size() &&
                                done[k + 1].action.cls == ActionClass::Incubate &&
                                orBefore(done[k + 1].firstToken);
      if (laterAlternative || earlierAlternative)
        a.conditional = true;
    }
    // "calc = c * 0.100 / (0.050 * 30); 0.100 mL reaction, 0.050 mL sample,
    // 30 min": values with no verb whose numbers are all terms of a
    // formula in the same unit say what the terms are, not steps.
    if (!d.explicitVerb && a.cls != ActionClass::Note && a.cls != ActionClass::Analyze) {
      if (!unitFormulaTerms)
        unitFormulaTerms = formulaTerms(unit.text);
      const std::vector<double> &terms = *unitFormulaTerms;
      std::vector<Token> own = prose::tokenize(a.text);
      bool any = false, allTerms = !terms.empty();
      for (const Token &t : own)
        if (t.isNumber()) {
          any = true;
          allTerms = allTerms && std::any_of(terms.begin(), terms.end(), [&](double x) {
                       return std::abs(x - t.number) < 1e-9;
                     });
        }
      if (any && allTerms)
        a.cls = ActionClass::Note;
    }
    // "So the well ends up at 40 plus 15 plus 15 plus 25, that's 95
    // microlitres": a sum said aloud, what a well holds, no addition.
    if (!d.explicitVerb && a.cls == ActionClass::Dispense) {
      unsigned pluses = 0;
      bool endsUp = false;
      for (size_t t = 0; t < toks.size(); ++t) {
        pluses += toks[t].is("plus");
        endsUp |= toks[t].is("ends") && t + 1 < toks.size() && toks[t + 1].is("up");
      }
      if (pluses >= 2 || (endsUp && pluses >= 1))
        a.cls = ActionClass::Note;
    }
    // "All incubations are performed with gentle shaking (approx. 300 rpm)",
    // "Each incubation is done with the plate covered": a condition of the
    // steps the procedure gives one by one, no step of its own.
    // "All washes: 3x 300 uL wash buffer" defines the wash that the steps
    // then name ("14:30 Wash."): a step of the kind to copy from, none of
    // the procedure's own.
    // "pNP, which turns yellow when the carbonate stop raises the pH and is
    // read at 405 nm": the chemistry told in the present tense, with the
    // wavelength its product is read at, is the assay's principle; the read
    // is told as a step elsewhere.
    if (a.cls == ActionClass::Read && d.explicitVerb && d.firstToken > 0 &&
        d.firstToken < toks.size() &&
        (toks[d.firstToken - 1].is("is") || toks[d.firstToken - 1].is("are"))) {
      static const std::set<std::string, std::less<>> chemistry = {
          "cleaves", "cleaved", "turns", "forms", "oxidises", "oxidizes", "reduces",
          "binds", "releases", "converts", "converted", "hydrolyses", "hydrolyzes",
          "catalyses", "catalyzes", "absorbs", "liberates", "yields"};
      bool principle = false;
      for (const Token &t : toks)
        principle = principle || chemistry.count(t.lower) > 0;
      if (principle)
        a.cls = ActionClass::Note;
    }
    // "each reading is divided by the mean of the cut-off wells", "the
    // first reading": a reading as a noun is a value, no read.
    if (a.cls == ActionClass::Read && d.explicitVerb && d.firstToken > 0 &&
        d.firstToken < toks.size() &&
        (toks[d.firstToken].is("reading") || toks[d.firstToken].is("readings"))) {
      static const std::set<std::string, std::less<>> determiners = {
          "each", "every", "the", "a", "all", "mean", "this", "that", "these", "those",
          "first", "last", "second", "final", "duplicate", "single", "individual", "its"};
      if (determiners.count(toks[d.firstToken - 1].lower))
        a.cls = ActionClass::Note;
    }
    // "We can read the screen", "the screen now reads ...", "read the
    // label": reading words off a display or a paper, no plate read.
    if (a.cls == ActionClass::Read && !a.hasNumeric() && d.firstToken < toks.size()) {
      static const std::set<std::string, std::less<>> displays = {
          "screen", "display", "touchscreen", "label", "labels", "sign", "message", "insert",
          "manual", "sop", "instructions", "leaflet", "coa", "certificate", "email", "note",
          "notes", "book", "logbook", "lot"};
      bool offDisplay = false;
      size_t verb = d.firstToken;
      for (size_t k = verb + 1; k < toks.size() && k <= verb + 3 && !offDisplay; ++k)
        offDisplay = displays.count(toks[k].lower) > 0;
      for (size_t k = verb; k-- > 0 && k + 3 >= verb && !offDisplay;)
        offDisplay = displays.count(toks[k].lower) > 0 && toks[verb].lower == "reads";
      if (offDisplay)
        a.cls = ActionClass::Note;
    }
    // "export the 650 nm plate to the shared drive", "save the 450 nm data":
    // a wavelength that names the data a verb of files handles is no read.
    if (a.cls == ActionClass::Read && !d.explicitVerb && d.firstToken < toks.size()) {
      static const std::set<std::string, std::less<>> fileVerbs = {
          "export", "exports", "exported", "save", "saves", "saved", "upload", "uploads",
          "uploaded", "email", "emails", "emailed", "e-mail", "send", "sends", "sent",
          "attach", "attached", "archive", "archived", "print", "printed"};
      bool filed = false;
      for (size_t k = d.firstToken; k-- > 0 && k + 4 >= d.firstToken && !filed;) {
        if (toks[k].kind == Token::Kind::Punct)
          break;
        filed = fileVerbs.count(toks[k].lower) > 0;
      }
      if (filed)
        a.cls = ActionClass::Note;
    }
    // "pipette P200 LOCKED at 50 uL (tape on the dial), 1 box of tips": a
    // pipette's setting, laid out for someone to use; no addition. One that
    // names wells ("set the multichannel to 50 uL, add to each well") is.
    if (a.cls == ActionClass::Dispense && a.values(Param::Volume).size() == 1 &&
        d.firstToken < toks.size()) {
      static const std::set<std::string, std::less<>> settings = {
          "locked", "fixed", "set", "dialled", "dialed", "preset"};
      static const std::set<std::string, std::less<>> pipettes = {
          "pipette", "pipettes", "pipettor", "pipetter", "multichannel", "repeater",
          "p2", "p10", "p20", "p100", "p200", "p300", "p1000"};
      static const std::set<std::string, std::less<>> destinations = {
          "well", "wells", "into", "plate", "column", "columns", "row", "rows"};
      size_t at = toks.size();
      for (size_t k = d.firstToken; k <= d.lastToken && k < toks.size(); ++k)
        if (toks[k].isNumber()) {
          at = k;
          break;
        }
      bool setting = at >= 2 && at < toks.size() && settings.count(toks[at - 2].lower) &&
                     (toks[at - 1].is("at") || toks[at - 1].is("to"));
      bool pipette = false;
      for (size_t k = at >= 2 ? at - 2 : 0; setting && k-- > 0 && k + 7 >= at && !pipette;)
        pipette = pipettes.count(toks[k].lower) > 0;
      bool destination = std::any_of(toks.begin(), toks.end(), [](const Token &t) {
        return t.isWord() && destinations.count(t.lower) > 0;
      });
      if (setting && pipette && !destination)
        a.cls = ActionClass::Note;
    }
    // "Reader lamp at 1962 h (limit 2000 h)": hours of that length count an
    // instrument's use, no wait of an assay (two weeks is longer than any
    // incubation of a plate).
    if ((a.cls == ActionClass::Incubate || a.cls == ActionClass::Wait) && a.has(Param::Time) &&
        std::all_of(a.values(Param::Time).begin(), a.values(Param::Time).end(),
                    [](const Value &v) { return v.low > 14 * 24 * 3600.0; }))
      a.cls = ActionClass::Note;
    bool definition = false;
    if (blanketCondition(toks, &definition) && a.cls != ActionClass::Note &&
        a.cls != ActionClass::Analyze) {
      if (!definition)
        a.cls = ActionClass::Note;
    } else {
      definition = false;
    }
    // "IC50 values were obtained by four-parameter logistic regression in
    // GraphPad Prism": an analysis a person does in other software. The
    // software may stand in a bracket that opens the next sentence
    // ("IC50: 4PL, log[DOX] vs % viab. (GraphPad Prism 10)", where an
    // abbreviation's period ends the first); not in another sentence of a
    // paragraph, which may name the software of another analysis.
    auto namesSoftware = [](const Token &w) {
      return w.is("graphpad") || w.is("prism") || w.is("excel") || w.is("originpro") ||
             w.is("spss") || w.is("sigmaplot") || w.is("matlab") || w.is("softmax") ||
             w.is("gen5") || w.is("magellan") || w.is("skanit") || w.is("jmp") ||
             w.is("minitab") || w.is("stata") || w.is("myassays");
    };
    auto bracketAfter = [&] {
      if (index + 1 >= sentences_.size() || sentences_[index + 1].unit != s.unit)
        return false;
      const std::vector<Token> &next = sentences_[index + 1].tokens;
      if (next.empty() || !next.front().isPunct("("))
        return false;
      for (const Token &w : next) {
        if (w.isPunct(")"))
          break;
        if (namesSoftware(w))
          return true;
      }
      return false;
    };
    if (a.cls == ActionClass::Analyze &&
        (std::any_of(toks.begin(), toks.end(), namesSoftware) || bracketAfter()))
      a.domain = Domain::Person;
    // A read reported ("last time we read it at 595 nm") is data.
    if (pastResults && (a.cls == ActionClass::Read || a.cls == ActionClass::ReadFluorescence))
      a.cls = ActionClass::Note;
    a.aside = (d.inParens || d.unstatedRepeat) && !d.explicitVerb;
    a.named = d.explicitVerb;
    a.imperative = d.imperative;
    // "Start it only after panel 6 is finished, so that each side gets
    // exactly its own 10 minutes": a time in a clause of purpose says why;
    // the step that takes it is told elsewhere.
    if (a.cls == ActionClass::Incubate && a.values(Param::Temperature).empty())
      for (size_t j = 0; j + 1 < first && j + 1 < toks.size(); ++j)
        if ((toks[j].is("so") && toks[j + 1].is("that")) ||
            (toks[j].is("in") && toks[j + 1].is("order") && j + 2 < first &&
             toks[j + 2].is("that")))
          a.aside = true;
    // "Shake 30 seconds so the 5 uL actually meets the 200 uL": volumes in a
    // clause of result, with no verb of their own, say what the step does.
    if (!d.explicitVerb)
      for (size_t j = std::min(first, toks.size()); j-- > 1;) {
        if (toks[j].isPunct(",") || toks[j].isPunct(";") || toks[j].is("then"))
          break;
        if (toks[j - 1].is("so") && (toks[j].is("the") || toks[j].is("that") ||
                                     toks[j].is("it") || toks[j].is("they"))) {
          a.aside = true;
          break;
        }
        // "Several of you asked whether 620 nm works": a question about a
        // value, whatever its answer, asks for no step.
        if ((toks[j].is("whether") || toks[j].is("if")) &&
            (toks[j - 1].is("asked") || toks[j - 1].is("ask") || toks[j - 1].is("asks") ||
             toks[j - 1].is("wondered") || toks[j - 1].is("wonder") ||
             toks[j - 1].is("wonders"))) {
          a.aside = true;
          break;
        }
      }
    // "Discard C after 4 h", "throw the working solution away after 1 week":
    // how long a reagent keeps, no time the plate spends.
    if (a.cls == ActionClass::Incubate && first > 0 && first <= toks.size() &&
        toks[first - 1].is("after") &&
        std::any_of(toks.begin(), toks.begin() + static_cast<long>(first - 1), [](const Token &t) {
          return t.is("discard") || t.is("dispose") || t.is("throw");
        }))
      a.aside = true;
    // "the colour reagents A and B mixed one to one just before you load
    // it": liquids mixed in a ratio make a reagent; no mixing in the wells.
    size_t mixedAt = toks.size();
    for (size_t j = first; a.cls == ActionClass::Mix && j < toks.size(); ++j)
      if (toks[j].is("mixed")) {
        mixedAt = j;
        break;
      }
    if (mixedAt < toks.size()) {
      size_t at = mixedAt;
      for (size_t j = at + 1; j < toks.size() && j <= at + 4; ++j)
        if ((toks[j].is("one") && j + 2 < toks.size() && toks[j + 1].is("to") &&
             toks[j + 2].is("one")) ||
            (toks[j].isNumber() && j + 2 < toks.size() && toks[j + 1].isPunct(":") &&
             toks[j + 2].isNumber()) ||
            toks[j].is("equal")) {
          a.cls = ActionClass::Prepare;
          break;
        }
    }
    // "Method basis: ISO 14184-1, scaled to 200 uL wells": a volume that
    // names a kind of well is what the well holds, no addition.
    if (a.cls == ActionClass::Dispense && a.has(Param::Volume)) {
      std::vector<Token> own = prose::tokenize(a.text);
      unsigned capacities = 0, amounts = 0;
      // Numbers with a unit after them: a standard's number ("ISO
      // 14184-1") is neither.
      for (size_t j = 0; j + 1 < own.size(); ++j)
        if (own[j].isNumber() && own[j + 1].isWord()) {
          bool wellKind = j + 2 < own.size() && (own[j + 2].is("wells") || own[j + 2].is("well"));
          ++(wellKind ? capacities : amounts);
        }
      if (capacities > 0 && amounts == 0)
        a.aside = true;
    }
    // "REAGENT ON SKIN / IN EYES ..... RINSE 15 MIN, EYEWASH": first aid,
    // a person's body and no plate.
    if (std::any_of(toks.begin(), toks.end(), [](const Token &w) {
          return w.is("skin") || w.is("eyes") || w.is("eyewash");
        }))
      a.aside = true;
    a.inParagraph = s.unit < unitStyle_.size() && unitStyle_[s.unit] == 'p';
    // Not a sentence that names its step ("Incubation 2 h RT.") or the
    // robot, nor a step's field line ("Duration 00:20:00").
    a.afterItemsFirstSentence = s.unit < unitStyle_.size() && unitStyle_[s.unit] == 'l' &&
                                !s.firstInUnit && proseItems_.count(s.unit) &&
                                !(!toks.empty() && stepFieldKeys().count(toks[0].lower)) &&
                                std::none_of(toks.begin(), toks.end(), [](const Token &w) {
                                  return w.is("robot") || w.is("bioforge") || w.is("bioforge-1") ||
                                         w.is("incubation") || w.is("incubations") ||
                                         (w.isWord() && isAnyVerb(w.lower));
                                });
    a.orderLoose = s.loose;
    a.inProcedure = (unit.kind == UnitKind::Procedure ||
                     (unit.kind == UnitKind::Analysis && a.cls == ActionClass::Analyze)) &&
                    !describesEmbodiments(unit.text) && !describesEmbodiments(s.text) &&
                    !definition;
    // "Pipette by hand into the plate, per Plate Map, each well in
    // triplicate" under a batch record's "Preparation (manual)": liquid
    // put into the plate's wells is the plate's first step, not a liquid
    // made ready for it.
    bool intoPlate = false;
    if (a.cls == ActionClass::Dispense || a.cls == ActionClass::Transfer) {
      const Token *verb = nullptr;
      for (const Token &t : s.tokens)
        if (t.isWord()) {
          verb = &t;
          break;
        }
      bool pipetting = verb && (verb->is("pipette") || verb->is("dispense") || verb->is("add") ||
                                verb->is("transfer") || verb->is("fill"));
      for (const Token &t : s.tokens)
        intoPlate |= pipetting && (t.is("plate") || t.is("well") || t.is("wells") ||
                                   t.is("microplate"));
    }
    if (unit.kind == UnitKind::Preparation && robotClass(a.cls) && a.cls != ActionClass::Analyze &&
        !intoPlate)
      a.cls = ActionClass::Prepare;
    // The liquid's words: its own span's content words.
    std::vector<std::string> words;
    bool layout = false;
    // "B–D blanks get 100 µL plain medium", "the standards receive ...":
    // the wells named by their role get the liquid; a script may add it
    // as the role's layout liquid or as a reagent to those wells.
    std::set<std::string, std::less<>> destinations;
    for (size_t k = 0; k < s.tokens.size(); ++k)
      if (kLiquidLayoutWords.count(s.tokens[k].lower))
        for (size_t n = k + 1; n < s.tokens.size() && n <= k + 2; ++n)
          if (s.tokens[n].is("get") || s.tokens[n].is("gets") || s.tokens[n].is("receive") ||
              s.tokens[n].is("receives"))
            destinations.insert(s.tokens[k].lower);
    for (const std::string &w : a.words) {
      if (kLiquidLayoutWords.count(w))
        layout = true;
      if (destinations.count(w))
        a.roleReceives = true;
      if (isAnyVerb(w) || kPersonWords.count(w) || kRobotWords.count(w))
        continue;
      words.push_back(w);
    }
    a.layoutLiquid = layout && (a.cls == ActionClass::Dispense || a.cls == ActionClass::Transfer);
    std::string joined;
    for (const std::string &w : words)
      joined += (joined.empty() ? "" : " ") + w;
    a.words = nameWords(joined);
    a.liquid.clear();
    if (a.cls == ActionClass::Dispense || a.cls == ActionClass::Wash || a.cls == ActionClass::Prepare) {
      size_t count = 0;
      for (const std::string &w : nameWords(joined)) {
        if (count++ >= 4)
          break;
        a.liquid += (a.liquid.empty() ? "" : " ") + w;
      }
    }
    bool curve = d.curveWord;
    bool order = d.imperative && (a.cls == ActionClass::Aspirate || a.cls == ActionClass::Wash);
    a.weak = !a.hasNumeric() && !(a.cls == ActionClass::Analyze && curve) && !order;
    auto beyond = [&a](std::initializer_list<Param> params) {
      for (Param p : params)
        a.beyondPlatform |= 1u << static_cast<unsigned>(p);
    };
    if (a.cls == ActionClass::Incubate || a.cls == ActionClass::Equilibrate) {
      for (const Value &v : a.values(Param::Temperature)) {
        if (v.symbolic == Unit::Ambient)
          continue;
        if (v.high < platform_.roomTempMinCelsius || v.low > platform_.heaterMaxCelsius)
          beyond({Param::Temperature});
        // Shaking while heated on a platform that cannot: the script splits
        // the step, so its time may go to either part.
        if (a.has(Param::Speed) && v.low > platform_.roomTempMaxCelsius && !platform_.shakerHeated)
          beyond({Param::Temperature, Param::Speed, Param::Time});
      }
    }
    if (a.cls == ActionClass::Read)
      for (const Value &v : a.values(Param::Wavelength))
        if (std::none_of(platform_.readerFiltersNm.begin(), platform_.readerFiltersNm.end(),
                         [&](double f) { return v.admits(f); }))
          beyond({Param::Wavelength, Param::Reference});
    if (a.cls == ActionClass::ReadFluorescence && !platform_.readerFluorescence)
      beyond({Param::Wavelength, Param::Reference, Param::Excitation, Param::Emission});
    // "wash once in 1 ml of PBS", "Phosphate Standard, 1 ml": more than any
    // well holds is work on tubes or a bottle's size, not a plate step.
    if (a.cls == ActionClass::Dispense || a.cls == ActionClass::Wash ||
        a.cls == ActionClass::Aspirate || a.cls == ActionClass::Transfer) {
      double largestWellUl = 0;
      for (const auto &[name, labware] : platform_.labware)
        largestWellUl = std::max(largestWellUl, labware.wellCapacityUl);
      for (const Value &v : a.values(Param::Volume))
        if (largestWellUl > 0 && v.low > largestWellUl)
          beyond({Param::Volume});
    }
    if (a.cls == ActionClass::Shake)
      for (const Value &v : a.values(Param::Speed))
        if (v.high < platform_.shakerMinRpm || v.low > platform_.shakerMaxRpm)
          beyond({Param::Speed});
    a.cellCulture = gassed && (a.cls == ActionClass::Incubate ||
                               (a.cls == ActionClass::Dispense && seeding));
  }
  offPlate(s, built);
  for (size_t k : order) {
    out_.units[s.unit].actions.push_back(static_cast<unsigned>(out_.actions.size()));
    out_.actions.push_back(std::move(built[k]));
  }
}

void Reader::offPlate(const Sentence &s, std::vector<Action> &built) const {
  // Work in tubes, vials or bottles ("standard series in tubes: 250 µL
  // diluent, transfer 250 µL ...") and the mixing that finishes a
  // reconstitution ("reconstitute with 1 mL, mix gently 10 min") prepare
  // liquids before they reach the plate: no step of the robot, unless the
  // sentence names the plate or its wells.
  static const std::set<std::string, std::less<>> vessels = {
      "tube",  "tubes",  "vial",   "vials",    "bottle",    "bottles",   "flask",
      "flasks", "falcon", "eppendorf", "microtube", "microtubes", "cryovial", "beaker",
      "cylinder", "dish", "dishes"};
  // "seeded at 2 x 10^5 cells per well of 6-well plates, grown for 24 h":
  // a culture plate's wells are no wells of the assay plate.
  static const std::set<std::string, std::less<>> culturePlates = {"6-well", "12-well", "24-well",
                                                                   "48-well"};
  static const std::set<std::string, std::less<>> assayPlates = {"96-well", "384-well",
                                                                 "microplate", "assay"};
  static const std::set<std::string, std::less<>> plateWords = {
      "well", "wells", "plate", "plates", "microplate", "row", "rows", "column", "columns",
      "col", "cols", "deck"};
  bool vessel = false, plate = false, bench = false, culture = false, assayPlate = false;
  auto scan = [&](const std::vector<Token> &toks) {
    for (const Token &t : toks) {
      vessel |= t.isWord() && vessels.count(t.lower) > 0;
      plate |= t.isWord() && plateWords.count(t.lower) > 0;
      bench |= t.isWord() && isAnyVerb(t.lower) && benchVerb(t.lower);
      culture |= t.isWord() && culturePlates.count(t.lower) > 0;
      assayPlate |= t.isWord() && assayPlates.count(t.lower) > 0;
    }
  };
  scan(s.tokens);
  scan(prose::tokenize(colonPrefix(out_.units[s.unit].text)));
  // "Growth ...: overnight in 384 deep-well blocks, LB plus kan": cultures
  // grow in deep-well blocks, not in the assay plate (samples drawn from a
  // deep-well block still go to it).
  {
    std::string lower = prose::lowerAscii(s.text);
    bool deepWell = lower.find("deep-well") != std::string::npos ||
                    lower.find("deep well") != std::string::npos ||
                    lower.find("deepwell") != std::string::npos;
    bool growing = std::any_of(s.tokens.begin(), s.tokens.end(), [](const Token &t) {
      return t.is("growth") || t.is("grow") || t.is("grown") || t.is("grew") || t.is("broth") ||
             t.text == "LB" || t.text == "TB" || t.text == "2xYT";
    });
    if (deepWell && growing)
      culture = true;
  }
  // "add 10 µl of lysis buffer to the MAX wells of the cell plate" in a
  // text with an assay plate too: work on the cells' plate, before its
  // supernatants reach the robot's; "the spontaneous ones get 10 µl of
  // water instead" goes on with the plate of the sentence before.
  if (twoPlates_) {
    auto cellPlate = [](const std::vector<Token> &toks) {
      for (size_t k = 1; k < toks.size(); ++k)
        if (toks[k].is("plate") &&
            (toks[k - 1].is("cell") || toks[k - 1].is("cells") || toks[k - 1].is("culture")))
          return true;
      return false;
    };
    auto assayPlateNamed = [](const std::vector<Token> &toks) {
      for (size_t k = 1; k < toks.size(); ++k)
        if (toks[k].is("plate") && toks[k - 1].is("assay"))
          return true;
      return false;
    };
    bool onCells = cellPlate(s.tokens) && !assayPlateNamed(s.tokens);
    bool instead = false;
    for (size_t k = 0; k < s.tokens.size(); ++k)
      instead |= s.tokens[k].is("instead") &&
                 !(k + 1 < s.tokens.size() && s.tokens[k + 1].is("of"));
    size_t index = static_cast<size_t>(&s - sentences_.data());
    if (!onCells && instead && index > 0 && index < sentences_.size())
      onCells = cellPlate(sentences_[index - 1].tokens) &&
                !assayPlateNamed(sentences_[index - 1].tokens);
    if (onCells) {
      culture = true;
      assayPlate = false;
    }
  }
  // A spin: a verb of centrifugation or a relative centrifugal force
  // ("10,000 x g"). A lysis alone may be the plate's ("Lyse 25 µL, 5 min,
  // shake 800 rpm").
  bool spin = false;
  for (size_t k = 0; k < s.tokens.size(); ++k) {
    const Token &t = s.tokens[k];
    spin |= t.isWord() && (t.lower.rfind("centrifug", 0) == 0 || t.lower.rfind("spin", 0) == 0 ||
                           t.is("spun") || t.lower.rfind("pellet", 0) == 0);
    spin |= k >= 1 && k + 1 < s.tokens.size() && (t.is("x") || t.text == "\u00d7") &&
            s.tokens[k + 1].is("g") && std::isdigit(static_cast<unsigned char>(s.tokens[k - 1].text[0]));
  }
  if (culture && !assayPlate) {
    plate = false;
    vessel = true;
  }
  // "Isolates were grown overnight (16-18 h) in tryptic soy broth at 37 °C
  // with shaking at 200 rpm": a liquid culture grown in broth is made in a
  // tube or flask before it reaches the plate.
  bool grown = false, broth = false;
  for (const Token &t : s.tokens) {
    grown |= t.is("grown") || t.is("cultured") || t.is("cultivated") || t.is("propagated") ||
             t.is("pregrown") || t.is("pre-grown") || t.is("precultured") || t.is("growth") ||
             t.is("grow") || t.is("grew");
    // "LB plus kan", "2xYT", "TB": a bacterial growth medium is a broth.
    broth |= t.is("broth") || t.text == "LB" || t.text == "2xYT" || t.text == "TB" ||
             t.is("lysogeny");
  }
  bool brothCulture = grown && broth;
  vessel |= brothCulture;
  if (plate)
    return;
  // A sentence that opens with a verb of preparation is one.
  bool preparing = false;
  for (const Token &t : s.tokens)
    if (t.isWord()) {
      static const std::set<std::string, std::less<>> prepVerbs = {
          "prepare", "reconstitute", "dilute", "dissolve", "make", "premix", "thaw"};
      preparing = prepVerbs.count(t.lower) > 0;
      break;
    }
  // "6 ml ORO stock + 4 ml water, stand 20 min, filter": more than any well
  // holds is made in a tube or a bottle, and the standing is the solution's.
  double largestWellUl = 0;
  for (const auto &[name, labware] : platform_.labware)
    largestWellUl = std::max(largestWellUl, labware.wellCapacityUl);
  bool bottle = largestWellUl > 0 && std::any_of(built.begin(), built.end(), [&](const Action &a) {
                  return std::any_of(a.values(Param::Volume).begin(), a.values(Param::Volume).end(),
                                     [&](const Value &v) { return v.low > largestWellUl; });
                });
  // Only a solution stands or settles; "incubate 2 h shaking" in a sentence
  // that also names a bottle's volume is the plate's.
  bool standing = std::any_of(s.tokens.begin(), s.tokens.end(), [](const Token &t) {
    return t.is("stand") || t.is("stands") || t.is("standing") || t.is("settle") || t.is("sit");
  });
  for (Action &a : built) {
    if (a.cls == ActionClass::Prepare)
      preparing = true;
    if (((bottle && standing) || (brothCulture && !plate)) && a.cls == ActionClass::Incubate) {
      a.cls = ActionClass::Prepare;
      a.values(Param::Time).clear();
      a.values(Param::Temperature).clear();
      continue;
    }
    // Washing cells or a pellet before they are lysed or spun is part of
    // making the sample; a wash of the plate names the plate or its wells.
    bool liquidWork = a.cls == ActionClass::Dispense || a.cls == ActionClass::Transfer ||
                      a.cls == ActionClass::Mix || a.cls == ActionClass::Shake ||
                      a.cls == ActionClass::Aspirate ||
                      (a.cls == ActionClass::Wash && (vessel || bench));
    if (liquidWork && (vessel || preparing || bench)) {
      a.cls = ActionClass::Prepare;
      a.values(Param::Speed).clear();
      a.values(Param::Cycles).clear();
      a.values(Param::Time).clear();
    }
    // The times of cells grown in a culture plate and of a sentence with a
    // spin ("pelleted (600 x g, 5 min), lysed ... for 10 min on ice and
    // cleared at 10,000 x g for 1 min") are the sample's, not the assay
    // plate's.
    if ((a.cls == ActionClass::Incubate || a.cls == ActionClass::Wait) && (culture || spin)) {
      a.cls = ActionClass::Prepare;
      a.values(Param::Time).clear();
      a.values(Param::Temperature).clear();
    }
  }
}



bool allAdmittedBy(const std::vector<Value> &a, const std::vector<Value> &b) {
  for (const Value &v : a)
    if (std::none_of(b.begin(), b.end(), [&](const Value &w) {
          return w.admits(v.low) && w.admits(v.high) && v.symbolic == w.symbolic;
        }))
      return false;
  return true;
}

/// Both state values and neither's admit the other's: "5 min" against
/// "10 min", not "5 min" against "5-10 min".
bool valuesContradict(const std::vector<Value> &a, const std::vector<Value> &b) {
  return !a.empty() && !b.empty() && !allAdmittedBy(a, b) && !allAdmittedBy(b, a);
}

/// `a` states nothing `b` does not: a restatement of it.
bool restates(const Action &a, const Action &b) {
  for (size_t p = 0; p < kParamCount; ++p)
    if (!a.params[p].empty() && (b.params[p].empty() || !allAdmittedBy(a.params[p], b.params[p])))
      return false;
  if (!a.words.empty() && !b.words.empty() && liquidSimilarity(b.words, a.words) < 0.5)
    return false;
  return true;
}

/// `a` states only ranges around what `b` states ("5-7 min is OK" of a
/// 6 min step), and states something: a tolerance of `b`.
bool tolerates(const Action &a, const Action &b) {
  bool any = false;
  for (size_t p = 0; p < kParamCount; ++p) {
    if (a.params[p].empty())
      continue;
    if (b.params[p].empty() || !allAdmittedBy(b.params[p], a.params[p]))
      return false;
    any = true;
  }
  return any;
}

void fillFrom(Action &a, const Action &src, std::string from, bool inexact) {
  bool filled = false;
  bool own = a.hasNumeric();
  for (size_t p = 0; p < kParamCount; ++p)
    if (a.params[p].empty() && !src.params[p].empty()) {
      a.params[p] = src.params[p];
      for (Value &v : a.params[p])
        v.inferred = v.inferred || inexact;
      filled = true;
    }
  if (!a.dark)
    a.dark = src.dark;
  if (!a.shaking)
    a.shaking = src.shaking;
  if (a.words.empty()) {
    a.words = src.words;
    a.liquid = src.liquid;
  }
  if (filled) {
    a.filledFrom = src.copiedLoc.isValid() ? src.copiedLoc : src.loc;
    a.copiedFrom = std::move(from);
    a.inexactCopy = inexact && !own;
    a.weak = false;
  }
}

std::string labelOf(const std::vector<TextUnit> &units, const Action &a) {
  const std::string &label = units[a.unit].label;
  return label.empty() ? fmt::format("line {}", a.loc.line) : "step " + label;
}

bool numericLabel(const std::string &label, double &value) {
  if (label.empty() || !std::all_of(label.begin(), label.end(),
                                    [](char c) { return isDigitChar(c) || c == '.'; }))
    return false;
  value = std::atof(label.c_str());
  return true;
}


/// A step table's row tells one step in columns: the Time column is how
/// long the row's step lasts, after its additions, wherever the Notes
/// column names another addition ("5 µL | 30 min | rows A & H get 5 µL
/// TB"). So a row's incubations follow its dispenses.
void Reader::orderTableRows() {
  std::vector<Action> &actions = out_.actions;
  for (size_t first = 0; first < actions.size();) {
    size_t last = first + 1;
    while (last < actions.size() && actions[last].unit == actions[first].unit)
      ++last;
    if (out_.units[actions[first].unit].tableRow) {
      auto isAddition = [](const Action &a) {
        return a.cls == ActionClass::Dispense && a.copiedFrom.empty();
      };
      auto lastAddition = std::find_if(std::make_reverse_iterator(actions.begin() + last),
                                       std::make_reverse_iterator(actions.begin() + first),
                                       isAddition);
      if (lastAddition != std::make_reverse_iterator(actions.begin() + first)) {
        auto end = lastAddition.base();
        std::stable_partition(actions.begin() + first, end, [](const Action &a) {
          return a.cls != ActionClass::Incubate || !a.copiedFrom.empty();
        });
      }
    }
    first = last;
  }
}

/// "Amount 100 µL", "Duration 00:30:00", "Temperature: 37 °C": a sentence
/// of a field's key and one value, with no verb.
bool Reader::fieldLine(const Action &a) const {
  if (a.named || a.sentence >= sentences_.size())
    return false;
  const std::vector<Token> &toks = sentences_[a.sentence].tokens;
  size_t value = toks.size() > 1 && toks[1].isPunct(":") ? 2 : 1;
  if (toks.size() <= value || !stepFieldKeys().count(toks[0].lower) || !toks[value].isNumber())
    return false;
  // Nothing but the value ("Volume: 100 uL E to rows A-C, 100 uL E+Pi to
  // rows D-F" is a step written as a field).
  const std::string &text = sentences_[a.sentence].text;
  std::vector<ProseQuantity> qs = proseQuantities(text, platform_);
  if (qs.size() != 1 || qs.front().begin != toks[value].begin)
    return false;
  for (const Token &t : toks)
    if (t.begin >= qs.front().end && t.isWord() && !t.is("per") && !t.is("well") && !t.is("each"))
      return false;
  size_t params = 0;
  for (const auto &values : a.params)
    params += values.empty() ? 0 : values.size() == 1 ? 1 : 2;
  return params == 1;
}

void Reader::mergeRestatements() {
  std::vector<Action> kept;
  /// Per kept action, the last sentence merged into it.
  std::vector<unsigned> lastSentenceOf;
  for (Action &a : out_.actions) {
    // "Wavelength correction at 570 nm is recommended." after the read, also
    // past a time limit noted in the read's own sentence ("... read at 450
    // nm within 10-15 min. A reference wavelength of 600-650 nm is
    // recommended."): the read's reference.
    if (a.cls == ActionClass::Read && a.copiedFrom.empty() &&
        a.values(Param::Wavelength).size() == 1 && !a.has(Param::Reference) && !kept.empty()) {
      size_t k = kept.size() - 1;
      // "... read at 450 nm within 10 minutes of adding Stop Solution.":
      // the limit's note and the mention of the addition come after it.
      while (k > 0 && (kept[k].cls == ActionClass::Note || kept[k].weak) &&
             (kept[k].sentence + 1 == a.sentence || kept[k].sentence == a.sentence))
        --k;
      Action &read = kept[k];
      std::string lower = prose::lowerAscii(a.text);
      // "...; a reference wavelength of 620-690 nm is recommended": the
      // words that lead up to the value in its clause say what it is.
      if (a.sentence < sentences_.size()) {
        const std::string &sentence = sentences_[a.sentence].text;
        if (size_t at = sentence.find(a.text); at != std::string::npos && at > 0) {
          size_t from = sentence.find_last_of(";:", at - 1);
          from = from == std::string::npos ? 0 : from + 1;
          lower = prose::lowerAscii(sentence.substr(from, at - from)) + " " + lower;
        }
      }
      // So does the paragraph right after the table row or item that reads
      // ("... | Read absorbance at 540 nm |" then "Correction at 620 nm is
      // recommended.").
      bool nextUnitOpens = read.unit + 1 == a.unit && a.sentence < sentences_.size() &&
                           sentences_[a.sentence].firstInUnit;
      if (read.cls == ActionClass::Read && read.copiedFrom.empty() &&
          (read.unit == a.unit || nextUnitOpens) &&
          (read.sentence + 1 == a.sentence || lastSentenceOf[k] + 1 == a.sentence ||
           read.sentence == a.sentence) &&
          !read.has(Param::Reference) &&
          hasAnyWord(lower, {"correction", "reference", "ref", "against", "corrected",
                             "background", "subtract"})) {
        read.values(Param::Reference) = a.values(Param::Wavelength);
        continue;
      }
      // "Please use 650 nm as the reference wavelength" with no read
      // before it in its paragraph to take it: how a read is to be
      // corrected (the words right after the value or right before it say
      // so), told apart from the read, which the text asks for elsewhere.
      std::string own = prose::lowerAscii(a.text);
      std::string value = prose::lowerAscii(a.values(Param::Wavelength).front().text);
      size_t at = value.empty() ? std::string::npos : own.find(value);
      bool readInUnit = false;
      for (size_t x = kept.size(); x-- > 0 && kept[x].unit == a.unit;)
        readInUnit = readInUnit || kept[x].cls == ActionClass::Read;
      if (at != std::string::npos && !readInUnit) {
        std::string after = own.substr(at + value.size(), 24);
        std::string before = own.substr(at >= 24 ? at - 24 : 0, std::min<size_t>(at, 24));
        if (after.rfind(" as the reference", 0) == 0 || after.rfind(" as reference", 0) == 0 ||
            after.rfind(" as a reference", 0) == 0 ||
            before.find("reference wavelength") != std::string::npos)
          a.weak = true;
      }
    }
    // protocols.io's fields under a step ("Amount 100 µL", "Duration
    // 00:30:00", "Temperature 37 °C"): a line of a key and one value states
    // that value of the step above it, again or for the first time.
    if (!kept.empty() && a.copiedFrom.empty() && fieldLine(a)) {
      size_t stepAt = kept.size() - 1;
      while (stepAt > 0 && kept[stepAt].cls == ActionClass::Note && kept[stepAt].unit + 1 >= a.unit)
        --stepAt;
      Action &step = kept[stepAt];
      size_t p = 0;
      while (a.params[p].empty())
        ++p;
      Draft draft;
      draft.action = step;
      bool near = step.unit + 1 >= a.unit && robotClass(step.cls) && step.copiedFrom.empty();
      if (near && !step.params[p].empty() &&
          (allAdmittedBy(a.params[p], step.params[p]) || allAdmittedBy(step.params[p], a.params[p]))) {
        lastSentenceOf[stepAt] = a.sentence;
        continue;
      }
      if (near && step.params[p].empty() &&
          std::all_of(a.params[p].begin(), a.params[p].end(),
                      [&](const Value &v) { return accepts(draft, static_cast<Param>(p), v); })) {
        step.params[p] = a.params[p];
        step.weak = false;
        lastSentenceOf[stepAt] = a.sentence;
        continue;
      }
      // "Amount 100 µL" under the step's first sentence ("Harvest the
      // cells ...") when a later sentence of the step adds the 100 µL.
      bool statedLater = false;
      for (const Action *b = &a + 1; b < out_.actions.data() + out_.actions.size() &&
                                     b->unit == a.unit && !statedLater;
           ++b)
        statedLater = robotClass(b->cls) && b->cls == a.cls && !b->params[p].empty() &&
                      allAdmittedBy(a.params[p], b->params[p]) && allAdmittedBy(b->params[p], a.params[p]);
      if (statedLater)
        continue;
    }
    if (!kept.empty() && a.copiedFrom.empty()) {
      Action &b = kept.back();
      bool sameSentence = a.sentence == b.sentence;
      bool nextSentence = a.unit == b.unit && a.sentence == b.sentence + 1;
      // "... then 6 min at 37 C. The kit says 6 min; 5-7 min is OK as long
      // as ...", "Incubate 5 - 10 min. Take 5 min: ... raise the result
      // after 10 min.": sentences of no verb that state the incubation's
      // time again, or a range around it, remark on the step before (past
      // the notes the remarks themselves made).
      size_t stepAt = kept.size() - 1;
      while (stepAt > 0 && kept[stepAt].cls == ActionClass::Note &&
             kept[stepAt].unit == a.unit)
        --stepAt;
      const Action &step = kept[stepAt];
      bool remarkSentence = a.unit == step.unit && a.sentence > step.sentence &&
                            a.sentence <= lastSentenceOf[stepAt] + 2 &&
                            (stepAt + 1 == kept.size() || a.sentence <= lastSentenceOf.back() + 1);
      if (remarkSentence && (!a.named || !a.imperative) && step.copiedFrom.empty() &&
          (a.cls == ActionClass::Incubate || a.cls == ActionClass::Shake) && a.cls == step.cls &&
          (restates(a, step) || tolerates(a, step))) {
        lastSentenceOf[stepAt] = a.sentence;
        continue;
      }
      // "... at 450 nm with reference 620 nm. The reader has no 690 nm
      // filter; use 620 nm.": a later sentence naming one of the read's
      // wavelengths again remarks on it.
      if (remarkSentence && step.copiedFrom.empty() && a.cls == ActionClass::Read &&
          step.cls == ActionClass::Read && a.values(Param::Wavelength).size() == 1 &&
          !a.has(Param::Reference)) {
        double nm = a.values(Param::Wavelength).front().low;
        auto names = [&](Param p) {
          return std::any_of(step.values(p).begin(), step.values(p).end(),
                             [&](const Value &v) { return v.admits(nm); });
        };
        if (names(Param::Wavelength) || names(Param::Reference)) {
          lastSentenceOf[stepAt] = a.sentence;
          continue;
        }
      }
      if (a.cls == b.cls && b.copiedFrom.empty() && (sameSentence || nextSentence)) {
        if (a.weak && sameSentence) {
          if (!b.dark)
            b.dark = a.dark;
          continue;
        }
        if (b.weak && sameSentence) {
          if (a.words.empty())
            a.words = b.words, a.liquid = b.liquid;
          b = std::move(a);
          continue;
        }
        bool mergeable = sameSentence ? (a.cls == ActionClass::Incubate || a.cls == ActionClass::Shake ||
                                         a.cls == ActionClass::Equilibrate || a.cls == ActionClass::Read ||
                                         a.cls == ActionClass::ReadFluorescence || a.cls == ActionClass::Analyze)
                                      : (a.cls == ActionClass::Read || a.cls == ActionClass::ReadFluorescence ||
                                         a.cls == ActionClass::Analyze);
        if (mergeable && restates(a, b)) {
          if (!b.dark)
            b.dark = a.dark;
          if (!b.fourPL)
            b.fourPL = a.fourPL;
          if (!b.subtractBlank)
            b.subtractBlank = a.subtractBlank;
          continue;
        }
      }
    }
    lastSentenceOf.push_back(a.sentence);
    kept.push_back(std::move(a));
  }
  out_.actions = std::move(kept);

  // Consecutive washes with the same volume and liquid are one wash of
  // their cycles together ("Wash with 300 µL. Repeat twice more." is
  // `wash 3 times with 300 uL`); the script side merges the same way.
  std::vector<Action> merged;
  for (Action &a : out_.actions) {
    if (a.cls == ActionClass::Wash && !a.weak) {
      // The last wash, skipping mentions and notes between.
      Action *prev = nullptr;
      for (auto it = merged.rbegin(); it != merged.rend(); ++it) {
        if (it->cls == ActionClass::Wash && !it->weak) {
          prev = &*it;
          break;
        }
        if (!it->weak && it->cls != ActionClass::Note)
          break;
      }
      // Only what "repeat" made: two washes the text writes as two steps
      // stay two (the script side keeps two statements apart too).
      if (prev && a.repeatCopy && prev->inProcedure == a.inProcedure &&
          (!a.has(Param::Volume) || !prev->has(Param::Volume) ||
           allAdmittedBy(a.values(Param::Volume), prev->values(Param::Volume))) &&
          (a.words.empty() || prev->words.empty() || liquidSimilarity(prev->words, a.words) > 0 ||
           liquidSimilarity(a.words, prev->words) > 0)) {
        auto cycles = [](const Action &w) {
          std::pair<double, double> c{1, 1};
          if (w.has(Param::Cycles)) {
            const Value &v = w.values(Param::Cycles).front();
            c = {v.low, v.high};
          }
          if (w.ambiguousCopy)
            c.first = 0;
          return c;
        };
        auto [l1, h1] = cycles(*prev);
        auto [l2, h2] = cycles(a);
        Value v;
        v.low = l1 + l2;
        v.high = h1 + h2;
        v.kind = v.low == v.high ? Value::Kind::Exact : Value::Kind::Range;
        v.text = fmt::format("{} wash cycle(s) in all", formatNumber(v.high));
        v.loc = a.loc;
        prev->values(Param::Cycles) = {v};
        if (!prev->has(Param::Volume))
          prev->values(Param::Volume) = a.values(Param::Volume);
        prev->ambiguousCopy = false;
        prev->text += " / " + a.text;
        if (prev->copiedFrom.empty() && !a.copiedFrom.empty())
          prev->copiedFrom = a.copiedFrom;
        continue;
      }
    }
    merged.push_back(std::move(a));
  }
  out_.actions = std::move(merged);
}

/// A method file's header comment ("# ptp1b_pnpp_384.yaml -- BioForge-1
/// method file" / "# ... Reaction volume 50 uL, stopped with 20 uL NaOH")
/// over a body of "key: value" lines describes the method; the body's keys
/// say what runs. Three comment lines or more at the top, and five keyed
/// lines or more below them, make the comment a note (its values are no
/// steps; the keys' are).
/// "6. The robot adds 40 µL substrate ..." followed by "6. Der Roboter gibt
/// 40 µl Substrat ...": a bilingual text tells each step twice under one
/// label. The second telling, whose numbers the first has (a decimal comma
/// read as a point; none when neither states any), restates it: a
/// summary's row, no step of its own.
void Reader::markTranslations() {
  auto numbers = [](const std::string &text) {
    std::multiset<std::string> out;
    for (size_t i = 0; i < text.size();) {
      if (!std::isdigit(static_cast<unsigned char>(text[i])) ||
          (i > 0 && std::isalpha(static_cast<unsigned char>(text[i - 1])))) {
        ++i;
        continue;
      }
      std::string n;
      while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) ||
                                 ((text[i] == '.' || text[i] == ',') && i + 1 < text.size() &&
                                  std::isdigit(static_cast<unsigned char>(text[i + 1]))))) {
        n += text[i] == ',' ? '.' : text[i];
        ++i;
      }
      out.insert(n);
    }
    return out;
  };
  for (size_t i = 1; i < out_.units.size(); ++i) {
    TextUnit &unit = out_.units[i];
    const TextUnit &before = out_.units[i - 1];
    if (unit.label.empty() || unit.label != before.label || unit.kind != before.kind ||
        unit.tableRow || before.tableRow)
      continue;
    std::multiset<std::string> mine = numbers(unit.text), theirs = numbers(before.text);
    // "Step 3a:" and "Step 3b:" read as label 3 twice: a step without
    // numbers after one with them is the next step, not its translation.
    if (mine.empty() != theirs.empty())
      continue;
    if (std::includes(theirs.begin(), theirs.end(), mine.begin(), mine.end()))
      unit.kind = UnitKind::Summary;
  }
}

void Reader::markHeaderComment() {
  size_t n = 0;
  while (n < lines_.size() && lines_[n].blank)
    ++n;
  size_t first = n;
  while (n < lines_.size() && !trimView(lines_[n].raw).empty() &&
         trimView(lines_[n].raw).front() == '#')
    ++n;
  if (n - first < 3)
    return;
  uint32_t lastCommentLine = lines_[n - 1].number;
  unsigned keyed = 0;
  for (size_t k = n; k < lines_.size(); ++k) {
    std::string_view t = trimView(lines_[k].raw);
    size_t colon = t.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 30)
      continue;
    std::string_view key = t.substr(0, colon);
    if (key.front() == '-')
      key = trimView(key.substr(1));
    // A configuration's key: one word in lower case, indented under its
    // parent or joined with underscores ("volume_ul", "  action:").
    bool indented = !lines_[k].raw.empty() && (lines_[k].raw[0] == ' ' || lines_[k].raw[0] == '\t');
    if (!key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
          return std::islower(static_cast<unsigned char>(c)) ||
                 std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        }) && (indented || key.find('_') != std::string_view::npos))
      ++keyed;
  }
  if (keyed < 5)
    return;
  for (TextUnit &unit : out_.units)
    if (unit.loc.line <= lastCommentLine && unit.kind == UnitKind::Procedure)
      unit.kind = UnitKind::Note;
}

void Reader::markForwarded() {
  // "-------- Forwarded Message --------" or "-----Original Message-----"
  // under a message that tells its own procedure: mail is written on top,
  // so what is forwarded or quoted below is older, there for reference.
  uint32_t separator = 0;
  for (const Line &line : lines_) {
    std::string lower = prose::lowerAscii(trimView(line.raw));
    std::string bare;
    for (char c : lower)
      if (c != '-' && c != '=' && c != '_')
        bare += c;
    std::string_view words = trimView(bare);
    if (words == "forwarded message" || words == "original message" ||
        words.rfind("begin forwarded message", 0) == 0) {
      separator = line.number;
      break;
    }
  }
  if (separator == 0)
    return;
  // Its own procedure: three list items with numbers or more ("* 100 ul
  // pNAG to all wells"). A message that only introduces what it forwards
  // ("below is Jon's SOP with his answers inline") has none, and the
  // forwarded text is the procedure.
  unsigned ownSteps = 0;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    const TextUnit &unit = out_.units[u];
    if (unit.loc.line < separator && unit.kind == UnitKind::Procedure &&
        u < unitStyle_.size() && unitStyle_[u] == 'l' &&
        std::any_of(unit.text.begin(), unit.text.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      ++ownSteps;
  }
  if (ownSteps < 3)
    return;
  for (TextUnit &unit : out_.units)
    if (unit.loc.line > separator && unit.kind == UnitKind::Procedure)
      unit.kind = UnitKind::Note;
}

namespace {

/// "In [3]:", "In [ ]:", "Out[3]:": a notebook cell's prompt.
bool notebookCellPrompt(std::string_view line) {
  std::string_view t = trimView(line);
  size_t at = t.rfind("In", 0) == 0 ? 2 : t.rfind("Out", 0) == 0 ? 3 : 0;
  if (at == 0)
    return false;
  while (at < t.size() && t[at] == ' ')
    ++at;
  if (at >= t.size() || t[at] != '[')
    return false;
  size_t close = t.find(']', at);
  if (close == std::string_view::npos || close + 2 != t.size() || t[close + 1] != ':')
    return false;
  return std::all_of(t.begin() + static_cast<long>(at) + 1, t.begin() + static_cast<long>(close),
                     [](char c) { return c == ' ' || std::isdigit(static_cast<unsigned char>(c)); });
}

/// A text export's marker of a notebook's Markdown or raw cell:
/// "[markdown]", "[raw]".
bool markdownCellMarker(std::string_view line) {
  std::string_view t = trimView(line);
  return t == "[markdown]" || t == "[raw]" || t == "[md]";
}

/// Whether an unindented line reads as a Python statement: an assignment
/// (`t = np.array([0, 5])`, `rows += 1`), a comment, or a line opened by a
/// keyword of the language ("for i in ...:", "import numpy as np",
/// "print(...)"). Prose rarely opens so or puts " = " after one word.
bool pythonStatement(std::string_view line) {
  std::string_view t = trimView(line);
  if (t.empty())
    return false;
  if (t.front() == '#')
    return true;
  static const std::set<std::string, std::less<>> openers = {
      "import", "from", "for", "def", "class", "return", "while", "with",
      "elif", "else:", "try:", "except", "print(", "assert", "lambda", "yield"};
  for (const std::string &opener : openers)
    if (t.rfind(opener, 0) == 0 &&
        (opener.back() == ':' || opener.back() == '(' ||
         (t.size() > opener.size() && t[opener.size()] == ' ')))
      return true;
  // An identifier (with attributes or an index) and then `=` or `+=`.
  size_t k = 0;
  if (!(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_'))
    return false;
  while (k < t.size() && (std::isalnum(static_cast<unsigned char>(t[k])) || t[k] == '_' ||
                          t[k] == '.' || t[k] == '[' || t[k] == ']' || t[k] == '"' ||
                          t[k] == '\'' || t[k] == ','))
    ++k;
  while (k < t.size() && t[k] == ' ')
    ++k;
  if (k < t.size() && std::string_view("+-*/").find(t[k]) != std::string_view::npos)
    ++k;
  return k + 1 < t.size() && t[k] == '=' && t[k + 1] != '=';
}

/// `NAME = 300` (an upper-case name, a number, maybe a `#` comment): the
/// name and the number's text.
std::optional<std::pair<std::string, std::string>> constantAssignment(std::string_view line) {
  std::string_view t = trimView(line);
  size_t k = 0;
  if (t.empty() || !(std::isupper(static_cast<unsigned char>(t[0])) || t[0] == '_'))
    return std::nullopt;
  while (k < t.size() && (std::isupper(static_cast<unsigned char>(t[k])) ||
                          std::isdigit(static_cast<unsigned char>(t[k])) || t[k] == '_'))
    ++k;
  std::string name(t.substr(0, k));
  while (k < t.size() && t[k] == ' ')
    ++k;
  if (k >= t.size() || t[k] != '=' || (k + 1 < t.size() && t[k + 1] == '='))
    return std::nullopt;
  ++k;
  while (k < t.size() && t[k] == ' ')
    ++k;
  size_t start = k;
  if (k < t.size() && t[k] == '-')
    ++k;
  while (k < t.size() && (std::isdigit(static_cast<unsigned char>(t[k])) || t[k] == '.'))
    ++k;
  std::string number(t.substr(start, k - start));
  std::string_view rest = trimView(t.substr(k));
  if (number.empty() || number == "-" || (!rest.empty() && rest.front() != '#'))
    return std::nullopt;
  return std::pair{name, number};
}

} // namespace

namespace {

/// "```python", "~~~": a line that opens or closes a fenced block.
bool fenceLine(std::string_view trimmed) {
  return trimmed.rfind("```", 0) == 0 || trimmed.rfind("~~~", 0) == 0;
}

/// The fenced block that opens at line `open` is code, not text set apart:
/// its info string names a programming language, or, with none, every
/// line of it reads as code ("```" around a pasted protocol is text).
bool fenceHoldsCode(const std::vector<std::string_view> &raws, size_t open) {
  std::string info = prose::lowerAscii(trimView(trimView(raws[open]).substr(3)));
  static const std::set<std::string, std::less<>> languages = {
      "python", "py", "python3", "ipython", "ipython3", "r", "julia", "bash", "sh", "shell",
      "console", "js", "javascript", "matlab", "octave", "perl", "sql", "ruby", "c", "cpp"};
  if (!info.empty())
    return languages.count(info) > 0;
  bool any = false;
  for (size_t n = open + 1; n < raws.size(); ++n) {
    std::string_view t = trimView(raws[n]);
    if (fenceLine(t))
      return any;
    if (t.empty())
      continue;
    if (!pythonStatement(t))
      return false;
    any = true;
  }
  return false;
}

} // namespace

void Reader::readNotebookCells() {
  // A notebook exported as text: the protocol in markdown cells, its
  // parameters in code cells (`CV_VOL_UL = 125`) that the steps name
  // ("Add `CV_VOL_UL` µL"). Code and its output state values but ask for
  // no step; a later assignment overrides an earlier one, as when the
  // notebook runs.
  std::vector<std::string_view> raws = prose::textLines(text_);
  codeLines_.assign(raws.size(), false);
  // An export that marks its text cells ("[markdown]") ends a code or
  // output cell only at the next marker or prompt; without markers, a cell
  // is its indented lines and unindented lines that read as code.
  bool markedCells = std::any_of(raws.begin(), raws.end(), markdownCellMarker);
  bool inCell = false;
  // A notebook exported as Markdown: code in fenced blocks ("```python"),
  // its printed output indented under the closing fence.
  bool inFence = false, codeFence = false, afterCodeFence = false;
  auto readCodeLine = [&](size_t n) {
    codeLines_[n] = true;
    if (auto constant = constantAssignment(raws[n]))
      constants_[constant->first] = constant->second;
  };
  for (size_t n = 0; n < raws.size(); ++n) {
    std::string_view raw = raws[n];
    std::string_view trimmed = trimView(raw);
    if (fenceLine(trimmed)) {
      if (!inFence) {
        inFence = true;
        codeFence = fenceHoldsCode(raws, n);
        afterCodeFence = false;
      } else {
        inFence = false;
        afterCodeFence = codeFence;
      }
      codeLines_[n] = codeFence;
      continue;
    }
    if (inFence) {
      if (codeFence)
        readCodeLine(n);
      continue;
    }
    if (afterCodeFence) {
      if (trimmed.empty())
        continue;
      if (raw.front() == ' ' || raw.front() == '\t') {
        codeLines_[n] = true;
        continue;
      }
      afterCodeFence = false;
    }
    if (notebookCellPrompt(raw)) {
      inCell = true;
      codeLines_[n] = true;
      continue;
    }
    if (markdownCellMarker(raw))
      inCell = false;
    if (!inCell)
      continue;
    if (markedCells || trimmed.empty() || raw.front() == ' ' || raw.front() == '\t' ||
        pythonStatement(raw)) {
      readCodeLine(n);
      continue;
    }
    inCell = false;
  }
}

namespace {

size_t indentOf(std::string_view raw) {
  size_t k = 0;
  while (k < raw.size() && (raw[k] == ' ' || raw[k] == '\t'))
    ++k;
  return k;
}

/// The code before a `#` comment.
std::string_view withoutComment(std::string_view t) {
  size_t hash = t.find('#');
  return trimView(hash == std::string_view::npos ? t : t.substr(0, hash));
}

/// `name(...)`: a call as a statement of its own.
std::optional<std::string> calledName(std::string_view code) {
  size_t k = 0;
  while (k < code.size() && (identifierChar(code[k]) || code[k] == '.'))
    ++k;
  if (k == 0 || k >= code.size() || code[k] != '(' || code.back() != ')' ||
      !(std::isalpha(static_cast<unsigned char>(code[0])) || code[0] == '_'))
    return std::nullopt;
  return std::string(code.substr(0, k));
}

/// The arguments of a call or the parameters of a definition, split at the
/// commas outside brackets.
std::vector<std::string> argumentsOf(std::string_view code) {
  std::vector<std::string> out;
  size_t open = code.find('('), close = code.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close <= open)
    return out;
  std::string current;
  int depth = 0;
  for (char c : code.substr(open + 1, close - open - 1)) {
    if (c == '(' || c == '[')
      ++depth;
    if (c == ')' || c == ']')
      --depth;
    if (c == ',' && depth == 0) {
      out.emplace_back(trimView(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!trimView(current).empty())
    out.emplace_back(trimView(current));
  return out;
}

/// `text` with each whole identifier that `names` has replaced by its value;
/// the identifiers replaced, in order, go to `replaced`.
std::string replaceNames(std::string_view text,
                         const std::map<std::string, std::string, std::less<>> &names,
                         std::vector<std::string_view> *replaced = nullptr) {
  std::string out;
  for (size_t k = 0; k < text.size();) {
    if (!identifierChar(text[k]) || (k > 0 && identifierChar(text[k - 1]))) {
      out += text[k++];
      continue;
    }
    size_t e = k;
    while (e < text.size() && identifierChar(text[e]))
      ++e;
    std::string_view name = text.substr(k, e - k);
    auto it = names.find(name);
    out += it != names.end() ? std::string_view(it->second) : name;
    if (it != names.end() && replaced)
      replaced->push_back(name);
    k = e;
  }
  return out;
}

} // namespace

void Reader::findThreadNumbering() {
  // "1/10 🧵 By popular demand ...", "2/10 Day 0: seed ...": three or more
  // posts counted against one total, in order, number a thread.
  std::map<unsigned, std::vector<unsigned>> byTotal;
  for (std::string_view raw : prose::textLines(text_))
    if (auto post = threadPostNumber(raw))
      byTotal[post->second].push_back(post->first);
  for (const auto &[total, posts] : byTotal)
    if (posts.size() >= 3 && std::is_sorted(posts.begin(), posts.end()) &&
        std::adjacent_find(posts.begin(), posts.end()) == posts.end() && posts.back() <= total)
      threadTotal_ = total;
}

void Reader::readCodeText() {
  // "V_STOP = 25 uL", "def start(reagent, vol, wells):", "dispense(pnpp,
  // V_SUB, to=RXN)": a procedure written as code (pseudo-code, a script
  // of a lab's own). Its constants and definitions ask for no step; its
  // calls do, with the names read as their values; a function's body is
  // what each call of it does; the branches of an `if` are conditional.
  if (std::any_of(codeLines_.begin(), codeLines_.end(), [](bool code) { return code; }))
    return; // a notebook, read by its cells
  std::vector<std::string_view> raws = prose::textLines(text_);
  unsigned code = 0, prose = 0, calls = 0;
  for (std::string_view raw : raws) {
    std::string_view t = withoutComment(raw);
    if (t.empty())
      continue;
    bool call = calledName(t).has_value();
    calls += call;
    if (call || pythonStatement(t) || (t.back() == ':' && pythonStatement(t.substr(0, t.size() - 1))) ||
        (t.back() == ':' && (t.rfind("if ", 0) == 0 || t.rfind("elif ", 0) == 0 || t == "else:")))
      ++code;
    else
      ++prose;
  }
  if (calls < 3 || code < 8 || code < 3 * prose)
    return;
  codeText_ = true;
  codeLines_.assign(raws.size(), false);
  branchLines_.assign(raws.size(), false);
  struct Function {
    std::vector<std::string> parameters;
    std::vector<std::string> body;
  };
  std::map<std::string, Function, std::less<>> functions;
  // Open blocks: (indent of the opener, is a branch).
  std::vector<std::pair<size_t, bool>> blocks;
  for (size_t n = 0; n < raws.size(); ++n) {
    std::string_view raw = raws[n];
    std::string_view t = withoutComment(raw);
    if (t.empty())
      continue;
    size_t indent = indentOf(raw);
    while (!blocks.empty() && indent <= blocks.back().first)
      blocks.pop_back();
    branchLines_[n] = std::any_of(blocks.begin(), blocks.end(),
                                  [](const std::pair<size_t, bool> &b) { return b.second; });
    if (t.back() == ':') {
      codeLines_[n] = true;
      bool branch = t.rfind("if ", 0) == 0 || t.rfind("elif ", 0) == 0 || t == "else:";
      blocks.push_back({indent, branch});
      if (t.rfind("def ", 0) == 0) {
        Function f;
        f.parameters = argumentsOf(t);
        for (std::string &p : f.parameters)
          p = std::string(trimView(std::string_view(p).substr(0, p.find_first_of("=:"))));
        size_t m = n + 1;
        for (; m < raws.size(); ++m) {
          std::string_view body = withoutComment(raws[m]);
          if (body.empty())
            continue;
          if (indentOf(raws[m]) <= indent)
            break;
          f.body.emplace_back(body);
          codeLines_[m] = true;
        }
        std::string_view name = trimView(t.substr(4, t.find('(') == std::string_view::npos
                                                         ? std::string_view::npos
                                                         : t.find('(') - 4));
        functions[std::string(name)] = std::move(f);
        n = m - 1;
        blocks.pop_back();
      }
      continue;
    }
    if (calledName(t))
      continue;
    // An assignment defines a name: a value ("V_STOP = 25 uL", "SHAKE =
    // (30 s, 600 rpm)") or a group of wells; it asks for nothing.
    if (pythonStatement(t)) {
      codeLines_[n] = true;
      size_t eq = t.find('=');
      std::string_view name = trimView(t.substr(0, eq));
      std::string_view value = trimView(t.substr(eq + 1));
      if (value.size() >= 2 && value.front() == '(' && value.back() == ')')
        value = value.substr(1, value.size() - 2);
      bool simpleName = std::all_of(name.begin(), name.end(), identifierChar);
      // Only values: a group of wells ("STANDARDS = [BLANK] + [S1..S7]")
      // keeps its name, which says more than its wells.
      if (simpleName && !value.empty() && (isDigitChar(value.front()) || value.front() == '.'))
        constants_[std::string(name)] = std::string(value);
    }
  }
  for (size_t n = 0; n < raws.size(); ++n) {
    if (codeLines_[n])
      continue;
    std::string_view t = withoutComment(raws[n]);
    std::optional<std::string> name = calledName(t);
    if (!name)
      continue;
    auto f = functions.find(*name);
    if (f == functions.end())
      continue;
    std::vector<std::string> args = argumentsOf(t);
    std::map<std::string, std::string, std::less<>> bound;
    for (size_t k = 0; k < f->second.parameters.size() && k < args.size(); ++k)
      bound[f->second.parameters[k]] = replaceNames(args[k], constants_);
    std::string expansion;
    for (const std::string &line : f->second.body)
      expansion += (expansion.empty() ? "" : "; ") + replaceNames(line, bound);
    callExpansions_[static_cast<uint32_t>(n + 1)] = expansion;
  }
}

std::string Reader::codeLineText(uint32_t number, std::string_view text) const {
  std::string out;
  if (auto it = callExpansions_.find(number); it != callExpansions_.end()) {
    // The call's comment stays: it may say who does the step.
    size_t hash = text.find('#');
    out = it->second;
    if (hash != std::string_view::npos)
      out += "  " + std::string(text.substr(hash));
  } else {
    out = std::string(text);
  }
  out = replaceNames(out, constants_);
  // "incubate(t, at=37 C)", "shake(*SHAKE)": keyword arguments and
  // unpacking read as words.
  std::string plain;
  for (size_t k = 0; k < out.size(); ++k) {
    char c = out[k];
    if (c == '=' && k > 0 && identifierChar(out[k - 1]) && k + 1 < out.size() && out[k + 1] != '=')
      c = ' ';
    if (c == '*' && k + 1 < out.size() && (out[k + 1] == '(' || identifierChar(out[k + 1])))
      continue;
    // "nadh_mix" is one name: "nadh mix" would read "mix" as a verb.
    if (c == '_' && k > 0 && identifierChar(out[k - 1]) && k + 1 < out.size() &&
        identifierChar(out[k + 1]))
      c = '-';
    plain += c;
  }
  return plain;
}

void Reader::substituteConstants(Line &line) const {
  // "Add `CV_VOL_UL` µL" -> "Add 125 µL"; "Pipette `CULTURE_VOL_UL` of
  // each" -> "Pipette 100 µL of each" (the unit from the name's suffix when
  // no unit follows); "`1:INOCULUM_DILUTION`" -> "1:100".
  const std::string &t = line.text;
  std::string out;
  std::vector<Line::Piece> pieces{{0, line.content, 0}};
  size_t k = 0;
  bool changed = false;
  while (k < t.size()) {
    size_t open = t.find('`', k);
    size_t close = open == std::string::npos ? open : t.find('`', open + 1);
    if (close == std::string::npos)
      break;
    std::string_view inner(t.data() + open + 1, close - open - 1);
    std::vector<std::string_view> names;
    std::string replaced = replaceNames(inner, constants_, &names);
    bool any = !names.empty();
    std::string unit;
    for (std::string_view name : names)
      if (unit.empty())
        unit = unitOfName(name);
    if (!any) {
      out.append(t, k, close + 1 - k);
      k = close + 1;
      continue;
    }
    out.append(t, k, open - k);
    pieces.push_back({out.size(), line.content + open, 0});
    out += replaced;
    std::string_view after = trimView(std::string_view(t).substr(close + 1));
    size_t wordEnd = 0;
    while (wordEnd < after.size() && after[wordEnd] != ' ' && after[wordEnd] != ',' &&
           after[wordEnd] != '.' && after[wordEnd] != ')')
      ++wordEnd;
    if (!unit.empty() && !proseUnit(after.substr(0, wordEnd)))
      out += " " + unit;
    pieces.push_back({out.size(), line.content + close + 1, 0});
    k = close + 1;
    changed = true;
  }
  if (!changed)
    return;
  out.append(t, k, std::string::npos);
  line.text = std::move(out);
  line.pieces = std::move(pieces);
}

void Reader::markQuestionThread() {
  // "Edit: FixDenat time corrected from 20 to 30 min (thanks @JonasW)": a
  // post's record of an edit already made to the text above it.
  for (TextUnit &unit : out_.units) {
    std::string lower = prose::lowerAscii(trimView(unit.text));
    if ((lower.rfind("edit:", 0) == 0 || lower.rfind("edited:", 0) == 0) &&
        unit.kind == UnitKind::Procedure)
      unit.kind = UnitKind::Note;
  }
  // A question-and-answer site's thread: the question ("What I did: ...")
  // is the attempt that failed, the other answers are other methods; the
  // accepted answer, from its marker to the rule after it (its comments
  // included), is the protocol.
  size_t marker = lines_.size();
  for (size_t n = 0; n < lines_.size() && marker == lines_.size(); ++n) {
    std::string lower = prose::lowerAscii(lines_[n].raw);
    if (lower.find("accepted answer") != std::string::npos ||
        lower.find("best answer") != std::string::npos ||
        lower.find("accepted solution") != std::string::npos)
      marker = n;
  }
  if (marker == lines_.size())
    return;
  size_t end = lines_.size();
  for (size_t n = marker + 1; n < lines_.size() && end == lines_.size(); ++n)
    if (lines_[n].separator)
      end = n;
  // "answered Mar 4 by lab_gremlin": the answer's body ends there; the
  // comments under it discuss it.
  size_t bodyEnd = end;
  for (size_t n = marker + 1; n < end && bodyEnd == end; ++n) {
    std::string lower = prose::lowerAscii(trimView(lines_[n].raw));
    if ((lower.rfind("answered ", 0) == 0 || lower.rfind("edited ", 0) == 0) &&
        lower.find(" by ") != std::string::npos)
      bodyEnd = n;
  }
  auto lineOf = [](const TextUnit &unit) { return static_cast<size_t>(unit.loc.line) - 1; };
  bool answerHasSteps = std::any_of(out_.units.begin(), out_.units.end(), [&](const TextUnit &unit) {
    return unit.loc.line >= 1 && lineOf(unit) > marker && lineOf(unit) < end &&
           unit.kind == UnitKind::Procedure;
  });
  if (!answerHasSteps)
    return;
  for (TextUnit &unit : out_.units)
    if (unit.loc.line >= 1 && (lineOf(unit) < marker || lineOf(unit) > bodyEnd) &&
        unit.kind == UnitKind::Procedure)
      unit.kind = UnitKind::Note;
}

void Reader::markCodeCells() {
  for (TextUnit &unit : out_.units)
    if (unit.loc.line >= 1 && unit.loc.line - 1 < codeLines_.size() &&
        codeLines_[unit.loc.line - 1] && unit.kind == UnitKind::Procedure)
      unit.kind = UnitKind::Note;
}

void Reader::markSummaries() {
  // Sections: runs of units between headings, and between blocks of a
  // different style (a table after a list) separated by a blank line. In
  // an exported chat each timestamped turn ("[09:12] mara.k: my checklist
  // then:") is one: a plan posted early and a checklist posted later tell
  // one procedure twice.
  std::vector<unsigned> sectionOf(out_.units.size(), 0);
  std::vector<bool> turnSection(1, false);
  unsigned section = 0;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    bool turn = u > 0 && unitOpensTurn(u);
    if (out_.units[u].kind == UnitKind::Header ||
        (u > 0 && unitAfterBlank_[u] && unitStyle_[u] != unitStyle_[u - 1]) || turn) {
      ++section;
      turnSection.push_back(turn);
    }
    sectionOf[u] = section;
  }
  if (section == 0 || section > 100 || scenariosInTurn_)
    return;
  std::vector<std::vector<const Action *>> strong(section + 1);
  for (const Action &a : out_.actions)
    if (!a.weak && a.inProcedure && robotClass(a.cls) && a.copiedFrom.empty())
      strong[sectionOf[a.unit]].push_back(&a);
  auto same = [](const Action *x, const Action *y) {
    if (x->cls != y->cls)
      return false;
    for (size_t p = 0; p < kParamCount; ++p)
      if (valuesContradict(x->params[p], y->params[p]))
        return false;
    return true;
  };
  // Whether two runs of steps tell one procedure: most of the shorter run's
  // steps, in order, in the other.
  auto restate = [&](const std::vector<const Action *> &A, const std::vector<const Action *> &B) {
    if (A.size() < 2 || B.size() < 2 || A.size() > 400 || B.size() > 400)
      return false;
    std::vector<std::vector<unsigned>> lcs(A.size() + 1, std::vector<unsigned>(B.size() + 1, 0));
    for (size_t x = 1; x <= A.size(); ++x)
      for (size_t y = 1; y <= B.size(); ++y)
        lcs[x][y] = same(A[x - 1], B[y - 1]) ? lcs[x - 1][y - 1] + 1
                                              : std::max(lcs[x - 1][y], lcs[x][y - 1]);
    unsigned common = lcs[A.size()][B.size()];
    size_t smaller = std::min(A.size(), B.size());
    return common >= 2 && common * 10 >= smaller * 6;
  };
  std::set<unsigned> summaries;
  // Minutes of a meeting: the protocol comes out of many turns ("TK: I'd do
  // 3 washes" ... "TK: Then 4"), proposals and changes of mind among them,
  // and a section after the talk restates it ("AGREED PROTOCOL: ... Wash
  // 4×."), shorter, with what was decided. The talk keeps the values the
  // short list leaves out (volumes, speeds), so it stays the procedure
  // and the list is its summary; but a value of the talk that the list
  // decides otherwise was a proposal, superseded by the decision.
  std::vector<const Action *> talk;
  unsigned turns = 0, lastTurn = 0;
  for (unsigned i = 0; i <= section; ++i)
    if (turnSection[i]) {
      ++turns;
      lastTurn = i;
      talk.insert(talk.end(), strong[i].begin(), strong[i].end());
    }
  std::optional<unsigned> decided;
  if (turns >= 4)
    for (unsigned j = lastTurn + 1; j <= section && !decided; ++j)
      if (!turnSection[j] && strong[j].size() < talk.size() && restate(talk, strong[j])) {
        summaries.insert(j);
        decided = j;
      }
  // An interview's read-back: the listener says back in one turn what the
  // other speaker told over many ("Q: Can I read it back to you? ... Day
  // before: coat ..., 100 µL ...; Robot: ..."), and the next turn corrects
  // it ("A: Fifty microlitres of acid, not a hundred. The rest is right.").
  // The telling stays the procedure; the read-back and a reply that only
  // says again what was told are its summary.
  std::set<unsigned> readBacks;
  if (!decided && speakers_.size() == 2) {
    std::vector<std::string> speakerOfSection(section + 1);
    for (size_t u = 0; u < out_.units.size(); ++u)
      if (turnSection[sectionOf[u]] && speakerOfSection[sectionOf[u]].empty() && unitOpensTurn(u))
        speakerOfSection[sectionOf[u]] = speakerOf(lines_[out_.units[u].loc.line - 1].raw);
    for (unsigned j = 1; j <= section; ++j) {
      if (!turnSection[j] || speakerOfSection[j].empty() || strong[j].size() < 3)
        continue;
      std::vector<const Action *> told;
      size_t largestTurn = 0;
      for (unsigned i = 0; i < j; ++i)
        if (turnSection[i] && !speakerOfSection[i].empty() &&
            speakerOfSection[i] != speakerOfSection[j]) {
          told.insert(told.end(), strong[i].begin(), strong[i].end());
          largestTurn = std::max(largestTurn, strong[i].size());
        }
      if (strong[j].size() <= largestTurn || !restate(told, strong[j]))
        continue;
      readBacks.insert(j);
      // The reply: only steps already told, by the speaker who told them.
      for (unsigned k = j + 1; k <= section; ++k) {
        if (!turnSection[k] || strong[k].empty())
          continue;
        bool confirms = speakerOfSection[k] != speakerOfSection[j] &&
                        std::all_of(strong[k].begin(), strong[k].end(), [&](const Action *a) {
                          return std::any_of(told.begin(), told.end(),
                                             [&](const Action *b) { return same(a, b); });
                        });
        if (confirms)
          readBacks.insert(k);
        break;
      }
    }
    summaries.insert(readBacks.begin(), readBacks.end());
    // An interview: one speaker asks ("Q: And then...?", "Q: Four
    // degrees."), the other tells. The asker's turns say back or ask about
    // what the other tells; the procedure is the teller's.
    std::map<std::string, std::pair<unsigned, unsigned>> asks; // turns, turns with '?'
    std::vector<bool> questionInSection(section + 1, false);
    for (size_t u = 0; u < out_.units.size(); ++u)
      if (out_.units[u].text.find('?') != std::string::npos)
        questionInSection[sectionOf[u]] = true;
    for (unsigned j = 0; j <= section; ++j)
      if (turnSection[j] && !speakerOfSection[j].empty()) {
        auto &[turnCount, questions] = asks[speakerOfSection[j]];
        ++turnCount;
        questions += questionInSection[j] ? 1 : 0;
      }
    std::string asker;
    if (asks.size() == 2) {
      auto first = asks.begin(), second = std::next(first);
      auto asking = [](const std::pair<unsigned, unsigned> &a) {
        return a.first >= 3 && a.second * 2 >= a.first;
      };
      auto telling = [](const std::pair<unsigned, unsigned> &a) {
        return a.first >= 3 && a.second * 4 < a.first;
      };
      if (asking(first->second) && telling(second->second))
        asker = first->first;
      else if (asking(second->second) && telling(first->second))
        asker = second->first;
    }
    if (!asker.empty())
      for (unsigned j = 0; j <= section; ++j)
        if (turnSection[j] && speakerOfSection[j] == asker)
          summaries.insert(j);
  }
  // Told once in running prose and once as a list, the prose
  // is the account ("current bench numbers: ... then 50 ul
  // supernatant + 50 ul mix, 30 min RT ...") and the list the
  // procedure, even where the prose tells more (the culture before the
  // assay): a list is what a lab writes to be followed.
  auto prose = [](const std::vector<const Action *> &steps) {
    return std::all_of(steps.begin(), steps.end(),
                       [](const Action *a) { return a->inParagraph; });
  };
  // A list: numbered items, or bullets ("  - The robot will add 200 uL
  // of your working reagent ..." in a core facility's reply to the
  // protocol its user pasted as one paragraph).
  auto listed = [&](const std::vector<const Action *> &steps) {
    return std::all_of(steps.begin(), steps.end(), [&](const Action *a) {
      return !a->inParagraph && a->unit < unitStyle_.size() && unitStyle_[a->unit] == 'l';
    });
  };
  for (unsigned i = 0; i <= section; ++i)
    for (unsigned j = i + 1; j <= section; ++j) {
      const auto &A = strong[i];
      const auto &B = strong[j];
      if (decided || readBacks.count(i) || readBacks.count(j) || !restate(A, B))
        continue;
      if (prose(A) && listed(B))
        summaries.insert(i);
      else if (prose(B) && listed(A))
        summaries.insert(j);
      else
        summaries.insert(A.size() <= B.size() ? i : j);
    }
  for (size_t u = 0; u < out_.units.size(); ++u)
    if (summaries.count(sectionOf[u]) && out_.units[u].kind == UnitKind::Procedure)
      out_.units[u].kind = UnitKind::Summary;
  for (size_t k = 0; k < out_.actions.size(); ++k) {
    Action &a = out_.actions[k];
    if (out_.units[a.unit].kind != UnitKind::Summary)
      continue;
    if (a.inProcedure && summaries.count(sectionOf[a.unit]))
      restatingActions_.push_back(k);
    a.inProcedure = false;
  }
  if (!decided)
    return;
  // The decision's own steps, those that copy an earlier one's details
  // ("Wash 4×." taking the volume of the washes discussed) included.
  std::vector<const Action *> decision;
  for (const Action &b : out_.actions)
    if (sectionOf[b.unit] == *decided && !b.weak && robotClass(b.cls))
      decision.push_back(&b);
  for (Action &a : out_.actions) {
    if (!turnSection[sectionOf[a.unit]] || a.weak || !robotClass(a.cls))
      continue;
    for (size_t p = 0; p < kParamCount && !a.superseded; ++p) {
      if (a.params[p].empty())
        continue;
      bool stated = false, agrees = false;
      for (const Action *b : decision) {
        if (b->cls != a.cls || b->params[p].empty())
          continue;
        stated = true;
        agrees |= allAdmittedBy(a.params[p], b->params[p]) || allAdmittedBy(b->params[p], a.params[p]);
      }
      a.superseded = stated && !agrees;
    }
  }
}

/// A protocol quoted in a reply ("> 2. Coat 25 ul/well, seal, overnight"
/// under "-- 20 ul is plenty in 384, changed in 2023."): an unquoted line
/// with values right after a quoted step answers that step, so the step's
/// values may not be the ones the lab runs (superseded), and the answer is
/// no step of its own in the order, though its values are stated.
void Reader::markReplies() {
  auto quoted = [&](size_t u) {
    uint32_t n = out_.units[u].loc.line;
    if (n < 1 || n - 1 >= lines_.size())
      return false;
    std::string_view raw = trimView(lines_[n - 1].raw);
    return lines_[n - 1].quoted || (!raw.empty() && raw.front() == '>');
  };
  unsigned quotedUnits = 0;
  for (size_t u = 0; u < out_.units.size(); ++u)
    quotedUnits += quoted(u);
  if (quotedUnits < 3)
    return;
  std::optional<size_t> lastQuotedStep;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    bool hasActions = std::any_of(out_.actions.begin(), out_.actions.end(),
                                  [&](const Action &a) { return a.unit == u && robotClass(a.cls); });
    if (quoted(u)) {
      if (hasActions)
        lastQuotedStep = u;
      continue;
    }
    if (!lastQuotedStep || proseQuantities(out_.units[u].text, platform_).empty())
      continue;
    for (Action &a : out_.actions) {
      if (a.unit == *lastQuotedStep)
        a.superseded = true;
      if (a.unit == u)
        a.inProcedure = false;
    }
  }
}

/// "3. Wash 3x with 100 ul" answered "-- 4x, and 80 ul, not 100", then "5.
/// Wash as in step 3.": a copy of a step that an amendment changes is
/// changed with it, whichever rule found the amendment.
void Reader::supersedeCopies() {
  std::vector<SourceLoc> superseded;
  for (const Action &a : out_.actions)
    if (a.superseded && !a.copiedLoc.isValid())
      superseded.push_back(a.loc);
  auto amended = [&](const SourceLoc &from) {
    return from.isValid() && std::find(superseded.begin(), superseded.end(), from) != superseded.end();
  };
  for (Action &a : out_.actions)
    if (amended(a.copiedLoc) || amended(a.filledFrom))
      a.superseded = true;
}

/// A plan pasted into a chat ("right, pasting the plan, check pls:" and
/// its numbered steps), then the talk about it: "can we do 10 min after
/// the sulfanilamide too, not 5?", "yes to both. so 10 min / 10 min, read
/// at 540". A later message's step of a kind the plan has amends the plan,
/// it is no step of its own in the order (its values are stated), and the
/// plan's steps of that kind whose values it contradicts may not be the
/// ones the lab runs (superseded). A later message that lists most of the
/// plan's steps again is a new version of it, left to the summary rule.
void Reader::markThreadAmendments() {
  std::vector<unsigned> turnOf(out_.units.size(), 0);
  unsigned turns = 0;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    turns += unitOpensTurn(u);
    turnOf[u] = turns;
  }
  if (turns < 3)
    return;
  auto step = [&](const Action &a) {
    return !a.weak && a.inProcedure && robotClass(a.cls) && a.copiedFrom.empty();
  };
  std::vector<unsigned> listedSteps(turns + 1, 0);
  for (const Action &a : out_.actions)
    if (step(a) && a.unit < unitStyle_.size() && unitStyle_[a.unit] == 'l')
      ++listedSteps[turnOf[a.unit]];
  // The plan may come before the first turn when the turns are comments
  // (`**@name** commented`): an issue's description above its comments. A
  // run log's timestamped records under a cover note are turns of another
  // kind.
  bool comments = false;
  for (size_t u = 0; u < out_.units.size() && !comments; ++u)
    if (unitOpensTurn(u)) {
      uint32_t n = out_.units[u].loc.line;
      comments = opensPost(lines_[n - 1].raw);
      break;
    }
  std::optional<unsigned> firstPlan;
  for (unsigned t = comments ? 0 : 1; t <= turns && !firstPlan; ++t)
    if (listedSteps[t] >= 3)
      firstPlan = t;
  if (!firstPlan)
    return;
  unsigned plan = *firstPlan;
  // A numbered reply ("two things: 1) ... 2) ...") is talk; a message
  // listing most of the plan's steps again posts a new version.
  auto reposts = [&](unsigned t) {
    return listedSteps[t] >= 3 && listedSteps[t] * 10 >= listedSteps[plan] * 6;
  };
  unsigned end = plan + 1;
  while (end <= turns && !reposts(end))
    ++end;
  // "re 5/10: 10 µL ... is only 0.24 mg/mL final": a reply that names the
  // post it answers, or answers a reply that does, amends that post.
  std::vector<std::string> answers(turns + 1);
  for (size_t u = 0; u < out_.units.size(); ++u) {
    unsigned t = turnOf[u];
    if (t == 0 || !answers[t].empty())
      continue;
    std::string lower = prose::lowerAscii(out_.units[u].text);
    for (size_t at = lower.find("re "); at != std::string::npos; at = lower.find("re ", at + 1)) {
      if (at > 0 && std::isalpha(static_cast<unsigned char>(lower[at - 1])))
        continue;
      size_t k = at + 3, from = k;
      while (k < lower.size() && isDigitChar(lower[k]))
        ++k;
      if (k > from && k < lower.size() && (lower[k] == '/' || lower[k] == ':' || lower[k] == ' '))
        answers[t] = lower.substr(from, k - from);
      if (!answers[t].empty())
        break;
    }
    // "typo in 5/9!": a thread's post named by its number anywhere.
    if (answers[t].empty() && threadTotal_ > 0)
      for (size_t at = lower.find('/'); at != std::string::npos && answers[t].empty();
           at = lower.find('/', at + 1)) {
        size_t from = at;
        while (from > 0 && isDigitChar(lower[from - 1]))
          --from;
        if (from == at || (from > 0 && std::isalnum(static_cast<unsigned char>(lower[from - 1]))))
          continue;
        if (std::optional<ThreadPost> named = threadPostNumber(std::string_view(lower).substr(from));
            named && named->second == threadTotal_)
          answers[t] = std::to_string(named->first);
      }
  }
  for (unsigned t = plan + 2; t <= turns; ++t)
    if (answers[t].empty())
      answers[t] = answers[t - 1];
  // The post a unit is in: its own label, or in a thread whose "5/9"
  // stands alone over the post's bullets, the last post number above it.
  std::vector<std::string> postOf(out_.units.size());
  std::string currentPost;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    uint32_t n = out_.units[u].loc.line;
    if (threadTotal_ > 0 && n >= 1 && n - 1 < lines_.size())
      if (std::optional<ThreadPost> opened = threadPostNumber(lines_[n - 1].raw);
          opened && opened->second == threadTotal_)
        currentPost = std::to_string(opened->first);
    postOf[u] = out_.units[u].label.empty() && threadTotal_ > 0 ? currentPost
                                                                 : out_.units[u].label;
  }
  // The turn a line is in: a copy made in the talk ("let's do 5 washes"
  // taking the volume of the washes a comment proposed) amends the plan as
  // the talk does; a copy of the plan's own step does not.
  auto turnOfLine = [&](uint32_t line) {
    unsigned turn = 0;
    for (size_t u = 0; u < out_.units.size() && out_.units[u].loc.line <= line; ++u)
      turn = turnOf[u];
    return turn;
  };
  for (Action &later : out_.actions) {
    unsigned t = turnOf[later.unit];
    // A reply already out of the procedure by another rule ("we went to
    // 50 µL last year", told as the past) still amends the plan.
    // A step that took its details from another ("5 washes" the volume of
    // the washes a comment proposed) names it "line N".
    uint32_t sourceLine = later.copiedLoc.isValid() ? later.copiedLoc.line : 0;
    if (sourceLine == 0 && later.copiedFrom.rfind("line ", 0) == 0)
      sourceLine = static_cast<uint32_t>(std::strtoul(later.copiedFrom.c_str() + 5, nullptr, 10));
    bool copiesTalk = !later.copiedFrom.empty() && sourceLine > 0 && turnOfLine(sourceLine) > plan;
    bool amendment = !later.weak && robotClass(later.cls) &&
                     (later.copiedFrom.empty() || copiesTalk);
    if (t <= plan || t >= end || !amendment)
      continue;
    const std::string &post = answers[t];
    // A question ("20 or 40 min?", "can we do 4 h, not 3?") proposes; the
    // answer that takes it up ("ok, 4 h then") decides.
    bool asks = false;
    if (later.sentence < sentences_.size()) {
      const std::vector<Token> &toks = sentences_[later.sentence].tokens;
      asks = !toks.empty() && toks.back().isPunct("?");
    }
    // Which step it amends: the plan's one step of its kind that its
    // values contradict. "last time someone used 50 uL instead of 100"
    // contradicts every dispense of a plan of three and amends none.
    bool amends = false;
    std::vector<Action *> contradicted;
    for (Action &planned : out_.actions) {
      if (turnOf[planned.unit] != plan || planned.cls != later.cls || !step(planned))
        continue;
      amends = true;
      if (!post.empty() && postOf[planned.unit] != post)
        continue;
      for (size_t p = 0; p < kParamCount; ++p)
        if (valuesContradict(planned.params[p], later.params[p])) {
          contradicted.push_back(&planned);
          break;
        }
    }
    // "Good point, let's do 5 washes" against a plan of two 3-wash steps:
    // a decision takes back each step it contradicts, a story ("last time
    // someone used 50 uL") none of several.
    bool decides = false;
    if (later.sentence < sentences_.size())
      for (const Token &w : sentences_[later.sentence].tokens)
        decides = decides || w.is("let's") || w.is("lets") || w.is("let");
    if (!asks && (contradicted.size() == 1 || decides))
      for (Action *step : contradicted)
        step->superseded = true;
    if (amends)
      later.inProcedure = false;
  }
}

/// "washes + block. then it pauses, u load stds & samples by hand (100
/// ul), robot does the rest" above "wash 3x 300 ul before block, block w
/// 200 ul assay diluent 2h RT, 3x wash again": a line that opens by
/// naming steps without their values, which the next line then details in
/// the same order, from the first, outlines the plan. What else it tells
/// comes somewhere after the detailed steps, not before them: its order is
/// loose.
void Reader::markOutlines() {
  auto step = [](const Action &a) { return robotClass(a.cls) && a.inProcedure; };
  std::map<uint32_t, std::vector<Action *>> byLine;
  for (Action &a : out_.actions)
    if (step(a))
      byLine[a.loc.line].push_back(&a);
  for (auto &[line, outline] : byLine) {
    auto next = byLine.find(line + 1);
    if (next == byLine.end() || outline.front()->hasNumeric())
      continue;
    std::vector<ActionClass> named, detailed;
    for (const Action *a : outline)
      if (!a->hasNumeric())
        named.push_back(a->cls);
    for (const Action *a : next->second)
      if (a->hasNumeric())
        detailed.push_back(a->cls);
    // The detail starts where the outline does.
    if (detailed.empty() || detailed.front() != named.front())
      continue;
    size_t found = 0;
    for (ActionClass cls : detailed)
      if (found < named.size() && cls == named[found])
        ++found;
    if (found < named.size())
      continue;
    for (Action *a : outline)
      if (a->hasNumeric())
        a->orderLoose = true;
  }
}

/// A liquid handler's printout moves liquid in two lines: "Aspirate 50 ul
/// from Trough 2 (STOP)" then "Dispense 50 ul to all 24 used wells", or
/// "Aspirate, tips 1-8, 170 ul, Grid 20 site 2" then "Dispense, tips 1-8,
/// 40 ul x4". The aspirate from a source (a trough, a tube, a reservoir, a
/// grid position) is the pick-up of the dispense after it, not
/// liquid taken out of the plate's wells: a mention of that dispense. An
/// aspirate from the plate ("from ASSAY A7, B7", then "Dispense 25 ul to
/// Waste") is a step of its own, and so is one into the waste.
void Reader::markPickUps() {
  static const std::set<std::string, std::less<>> sources = {
      "trough", "troughs", "reservoir", "tube", "tubes", "bottle", "vial", "vials", "boat",
      "source", "stock", "rack"};
  // Words only a liquid handler's printout uses for its tips or its source
  // positions; the printout's line ("Aspirate tip 1 85 ul "Protein Free"
  // Grid 13 pos 2") may be read as more than one sentence.
  static const std::set<std::string, std::less<>> handlerWords = {
      "diti", "ditis", "liha", "src", "grid", "carrier", "trough", "troughs"};
  static const std::set<std::string, std::less<>> plateParts = {
      "well", "wells", "plate", "column", "columns", "row", "rows", "all"};
  for (size_t i = 0; i + 1 < out_.actions.size(); ++i) {
    Action &pickUp = out_.actions[i];
    // The next step that is more than a mention ("Protein Free Single
    // Cooled" read as a warming between the two lines).
    size_t n = i + 1;
    while (n + 1 < out_.actions.size() && n < i + 3 && out_.actions[n].weak)
      ++n;
    const Action &next = out_.actions[n];
    if (pickUp.cls != ActionClass::Aspirate || pickUp.weak ||
        (next.cls != ActionClass::Dispense && next.cls != ActionClass::Transfer) ||
        next.unit > pickUp.unit + 1 || pickUp.sentence >= sentences_.size())
      continue;
    const std::vector<Token> &toks = sentences_[pickUp.sentence].tokens;
    bool fromSource = false, fromPlate = false;
    for (size_t k = 0; k < toks.size(); ++k) {
      fromSource = fromSource ||
                   (k + 1 < toks.size() && toks[k].is("from") && sources.count(toks[k + 1].lower));
      // "into the waste", "from every cell well": the plate's own liquid.
      fromPlate = fromPlate || toks[k].is("waste") || toks[k].is("discard");
      for (size_t m = k + 1; toks[k].is("from") && m < toks.size() && m <= k + 4; ++m)
        fromPlate = fromPlate || plateParts.count(toks[m].lower) > 0;
    }
    if (!fromSource && pickUp.unit < out_.units.size())
      for (const Token &w : prose::tokenize(out_.units[pickUp.unit].text))
        fromSource = fromSource || handlerWords.count(w.lower) > 0;
    if (!fromSource || fromPlate)
      continue;
    const auto &taken = pickUp.params[static_cast<size_t>(Param::Volume)];
    const auto &given = next.params[static_cast<size_t>(Param::Volume)];
    if (!taken.empty() && !given.empty() && taken.front().high < given.front().low)
      continue;
    pickUp.weak = true;
  }
}

/// A method printed by another system and commented step by step below it
/// ("Step 3 (buffer): KEEP. 25 ul of assay buffer into A2..A8",
/// "Steps 15-17 (RoMa moves): DROP", "Step 21 (read): CHANGE 420 nm to
/// 405 nm"): a unit that opens by citing earlier labelled steps and gives
/// its verdict on them amends them. The cited steps' values may not be the
/// ones the lab runs (superseded), the steps it drops are no steps of the
/// procedure, and the comment's own steps are no steps in the order (their
/// values are stated). Only a verdict right after the citation counts: a
/// detailed procedure after a summary table ("Step 3: Add 100 µL ...")
/// cites nothing.
void Reader::markStepComments() {
  static const std::set<std::string, std::less<>> keeps = {
      "keep", "kept", "change", "changed", "unchanged", "modify", "modified", "replace",
      "replaced", "same", "retain", "retained", "adapt", "adapted"};
  static const std::set<std::string, std::less<>> drops = {
      "drop", "dropped", "omit", "omitted", "skip", "skipped", "remove", "removed", "delete",
      "deleted"};
  std::map<std::string, std::vector<size_t>, std::less<>> labelled, allLabelled;
  for (size_t u = 0; u < out_.units.size(); ++u)
    if (!out_.units[u].label.empty())
      allLabelled[out_.units[u].label].push_back(u);
  for (size_t u = 0; u < out_.units.size(); ++u) {
    uint32_t n = out_.units[u].loc.line;
    if (n < 1 || n - 1 >= lines_.size())
      continue;
    std::vector<Token> toks = prose::tokenize(lines_[n - 1].raw);
    size_t k = 0;
    std::vector<unsigned> cited;
    // "Line 15 (the mix after ATP): ...", "Script lines 4-7": a printout's
    // line numbers, which a cover note (often a bulleted one) may cite
    // before the printout.
    bool bulleted = false;
    while (k < toks.size() && (toks[k].isPunct("-") || toks[k].isPunct("*") || toks[k].isPunct("•"))) {
      bulleted = true;
      ++k;
    }
    if (k + 1 < toks.size() && toks[k].is("script") &&
        (toks[k + 1].is("line") || toks[k + 1].is("lines")))
      ++k;
    bool citesLines = k < toks.size() && (toks[k].is("line") || toks[k].is("lines"));
    if (k < toks.size() && ((!bulleted && (toks[k].is("step") || toks[k].is("steps"))) || citesLines)) {
      ++k;
      unsigned rangeFrom = 0; // lines count from 1: 0 is no open range
      while (k < toks.size()) {
        if (toks[k].isNumber() && toks[k].number >= 1 && toks[k].number <= 200 &&
            toks[k].number == std::floor(toks[k].number)) {
          auto value = static_cast<unsigned>(toks[k].number);
          if (rangeFrom > 0 && value > rangeFrom && value - rangeFrom <= 50)
            for (unsigned v = rangeFrom + 1; v <= value; ++v)
              cited.push_back(v);
          else
            cited.push_back(value);
          rangeFrom = 0;
          ++k;
        } else if ((toks[k].isPunct("-") || toks[k].isPunct("–")) && !cited.empty()) {
          rangeFrom = cited.back();
          ++k;
        } else if (toks[k].isPunct(",") || toks[k].is("and") || toks[k].isPunct("&")) {
          ++k;
        } else {
          break;
        }
      }
    }
    bool verdict = false, dropped = false;
    if (!cited.empty()) {
      // "(buffer)" names the step; a colon or a dash leads to the verdict.
      if (k < toks.size() && toks[k].isPunct("(")) {
        while (k < toks.size() && !toks[k].isPunct(")"))
          ++k;
        ++k;
      }
      while (k < toks.size() && (toks[k].isPunct(":") || toks[k].isPunct("-") || toks[k].isPunct("–")))
        ++k;
      if (k < toks.size() && toks[k].isWord()) {
        dropped = drops.count(toks[k].lower) > 0;
        verdict = dropped || keeps.count(toks[k].lower) > 0;
      }
      // "Line 15 (the mix after ATP): that was only there because the
      // shaker was broken. Drop it and shake instead.": a drop of the cited
      // line, later in the comment.
      std::vector<Token> whole = prose::tokenize(out_.units[u].text);
      for (size_t m = 0; !verdict && m + 1 < whole.size(); ++m)
        if (whole[m].isWord() && drops.count(whole[m].lower) &&
            (whole[m + 1].is("it") || whole[m + 1].is("this") || whole[m + 1].is("them") ||
             whole[m + 1].is("that")))
          verdict = dropped = true;
    }
    // A step is cited once it has been told; a printout's line may be cited
    // before the printout.
    const auto &known = citesLines ? allLabelled : labelled;
    bool resolved = verdict && std::all_of(cited.begin(), cited.end(), [&](unsigned v) {
      auto it = known.find(std::to_string(v));
      return it != known.end() &&
             std::none_of(it->second.begin(), it->second.end(), [&](size_t t) { return t == u; });
    });
    if (resolved && known.size() >= 3) {
      for (unsigned v : cited)
        for (size_t target : known.find(std::to_string(v))->second)
          for (Action &a : out_.actions)
            if (a.unit == target && robotClass(a.cls)) {
              a.superseded = true;
              if (dropped)
                a.inProcedure = false;
            }
      for (Action &a : out_.actions)
        if (a.unit == u)
          a.inProcedure = false;
      continue;
    }
    if (!out_.units[u].label.empty())
      labelled[out_.units[u].label].push_back(u);
  }
}

/// "7.4.9 [SUPERSEDED by CC-2023-0412, see 7.4.9a] The plate shall be
/// incubated for 30 min", "5. [DELETED] Shake 1 min": a clause that opens
/// by saying it is no longer in force asks for nothing; the text keeps it
/// for the record, and its replacement says what is done.
void Reader::markWithdrawnClauses() {
  static const std::vector<std::string_view> withdrawn = {
      "superseded", "deleted", "void", "withdrawn", "obsolete", "retired", "cancelled",
      "canceled", "removed", "struck", "no longer used", "not in force", "replaced"};
  // A checklist's status anywhere in its item, in capitals: "refresh
  // ascorbate at 24 h   [SKIPPED - ascorbate-2-phosphate is stable]".
  static const std::vector<std::string_view> statuses = {
      "[SKIPPED", "[N/A", "[NOT DONE", "[CANCELLED", "[CANCELED", "[OMITTED", "[DROPPED",
      "[WITHDRAWN", "[SUPERSEDED", "[DELETED", "[VOID", "[OBSOLETE"};
  auto statusOff = [&](std::string_view text) {
    for (std::string_view status : statuses)
      for (size_t at = text.find(status); at != std::string_view::npos;
           at = text.find(status, at + 1)) {
        size_t after = at + status.size();
        if (after >= text.size() || !std::isalpha(static_cast<unsigned char>(text[after])))
          return true;
      }
    return false;
  };
  // A chart's legend ("CODES: G given, H held, R refused, D/C
  // discontinued"): the codes that say an entry was not done.
  static const std::vector<std::string_view> notDone = {
      "held", "withheld", "refused", "declined", "discontinued", "not given", "not done",
      "omitted", "skipped", "cancelled", "canceled", "not available", "not performed"};
  std::set<std::string, std::less<>> offCodes;
  for (const TextUnit &unit : out_.units) {
    std::string field = prose::lowerAscii(colonPrefix(unit.text));
    if (field != "codes" && field != "code" && field != "key" && field != "legend" &&
        field != "status codes")
      continue;
    std::string_view entries = std::string_view(unit.text).substr(field.size() + 1);
    for (size_t start = 0; start < entries.size();) {
      size_t stop = entries.find_first_of(",;", start);
      if (stop == std::string_view::npos)
        stop = entries.size();
      std::string_view entry = trimView(entries.substr(start, stop - start));
      start = stop + 1;
      size_t space = entry.find(' ');
      if (space == std::string_view::npos || space > 4)
        continue;
      std::string_view code = entry.substr(0, space);
      bool codeLike = std::all_of(code.begin(), code.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || c == '/';
      });
      std::string meaning = prose::lowerAscii(trimView(entry.substr(space)));
      if (codeLike && std::any_of(notDone.begin(), notDone.end(), [&](std::string_view w) {
            return meaning.rfind(w, 0) == 0;
          }))
        offCodes.insert(std::string(code));
    }
  }
  // "Protease inhibitor cocktail 10 uL/mL | 07:10 | H 07:12 TL": a row
  // whose status cell opens with such a code.
  auto codedOff = [&](std::string_view text) {
    if (offCodes.empty())
      return false;
    for (size_t bar = text.find('|'); bar != std::string_view::npos; bar = text.find('|', bar + 1)) {
      std::string_view cell = text.substr(bar + 1);
      size_t first = cell.find_first_not_of(" ,");
      if (first == std::string_view::npos)
        continue;
      cell = cell.substr(first);
      for (const std::string &code : offCodes)
        if (cell.rfind(code, 0) == 0 &&
            (cell.size() == code.size() || cell[code.size()] == ' ' || cell[code.size()] == ','))
          return true;
    }
    return false;
  };
  for (size_t u = 0; u < out_.units.size(); ++u) {
    std::string_view text = trimView(out_.units[u].text);
    if (statusOff(text) || codedOff(text)) {
      for (Action &a : out_.actions)
        if (a.unit == u)
          a.inProcedure = false;
      continue;
    }
    if (text.size() < 3 || (text.front() != '[' && text.front() != '('))
      continue;
    char close = text.front() == '[' ? ']' : ')';
    size_t end = text.find(close);
    if (end == std::string_view::npos)
      continue;
    std::string tag = prose::lowerAscii(trimView(text.substr(1, end - 1)));
    bool off = std::any_of(withdrawn.begin(), withdrawn.end(), [&](std::string_view word) {
      return tag.rfind(word, 0) == 0 &&
             (tag.size() == word.size() || !std::isalnum(static_cast<unsigned char>(tag[word.size()])));
    });
    if (!off)
      continue;
    for (Action &a : out_.actions)
      if (a.unit == u)
        a.inProcedure = false;
  }
}

/// A notebook's key-value export, one record per step ("step_20.action:
/// TA wells (kit step "add 5 ul tracer to TA wells")", "step_20.status:
/// N/A - not on this template"): a record whose status says it does not
/// apply, was skipped or not done asks for nothing, so its keys' steps
/// are no steps. The record is the keys that share the status key's
/// prefix.
void Reader::markNotApplicableRecords() {
  static const std::vector<std::string_view> notApplicable = {
      "n/a", "na", "not applicable", "not done", "not performed", "not used", "skipped",
      "skip", "omitted", "cancelled", "canceled", "void", "deleted", "dropped"};
  std::vector<std::string> keys(out_.units.size());
  for (size_t u = 0; u < out_.units.size(); ++u)
    keys[u] = prose::lowerAscii(colonPrefix(out_.units[u].text));
  // The status keys are read from the lines: a record's keys were joined
  // into its first line's unit.
  for (const Line &line : lines_) {
    if (line.blank || line.table)
      continue;
    std::string_view raw = trimView(line.raw);
    std::string key = prose::lowerAscii(colonPrefix(raw));
    std::string record = prose::lowerAscii(recordOf(raw));
    if (record.empty() || key.substr(record.size()) != "status")
      continue;
    std::string value = prose::lowerAscii(trimView(raw.substr(key.size() + 1)));
    bool off = std::any_of(notApplicable.begin(), notApplicable.end(), [&](std::string_view word) {
      return value.rfind(word, 0) == 0 &&
             (value.size() == word.size() || !std::isalnum(static_cast<unsigned char>(value[word.size()])));
    });
    if (!off)
      continue;
    for (size_t v = 0; v < out_.units.size(); ++v)
      if (keys[v].rfind(record, 0) == 0)
        for (Action &a : out_.actions)
          if (a.unit == v)
            a.inProcedure = false;
  }
}

/// A slide deck exported to text, "Slide 7 of 11", bullets, then "Notes:
/// Corrections here too ... MTT is 20 µL per well, not 10": the speaker's
/// notes correct the slide they follow. The slide's steps of a kind the
/// notes state a value of may not be the ones the lab runs (superseded),
/// and the notes' own steps are no steps in the order.
void Reader::markSpeakerNotes() {
  auto lowerStart = [&](size_t u, size_t n) {
    return prose::lowerAscii(std::string_view(out_.units[u].text).substr(0, n));
  };
  auto opensNotes = [&](size_t u) {
    std::string start = lowerStart(u, 24);
    return start.rfind("notes:", 0) == 0 || start.rfind("speaker notes", 0) == 0 ||
           start.rfind("presenter notes", 0) == 0 || start.rfind("speaker's notes", 0) == 0;
  };
  auto opensSlide = [&](size_t u) {
    std::string start = lowerStart(u, 12);
    return start.rfind("slide ", 0) == 0 && start.size() > 6 && isDigitChar(start[6]);
  };
  size_t slides = 0;
  for (size_t u = 0; u < out_.units.size(); ++u)
    slides += opensSlide(u);
  if (slides < 2)
    return;
  size_t slideStart = 0;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    if (opensSlide(u)) {
      slideStart = u;
      continue;
    }
    if (!opensNotes(u))
      continue;
    // The notes run to the next slide.
    size_t notesEnd = u + 1;
    while (notesEnd < out_.units.size() && !opensSlide(notesEnd))
      ++notesEnd;
    auto inNotes = [&](unsigned unit) { return unit >= u && unit < notesEnd; };
    // "we incubate 2 h now, not 1 h": what follows "not" is what the notes
    // take back.
    auto negated = [&](const Action &a) {
      if (a.loc.line < 1 || a.loc.line - 1 >= lines_.size() || a.loc.col < 1)
        return false;
      std::string_view raw = lines_[a.loc.line - 1].raw;
      std::string before =
          prose::lowerAscii(trimView(raw.substr(0, std::min<size_t>(a.loc.col - 1, raw.size()))));
      // "not above 600 rpm", "up to 10 min" set a limit, no value.
      for (std::string_view end : {"not", "instead of", "rather than", "was", "from", "above",
                                   "below", "over", "under", "than", "max", "maximum", "up to",
                                   "at most", "at least", "exceed", "exceeding"})
        if (before.ends_with(end) &&
            (before.size() == end.size() || !std::isalpha(static_cast<unsigned char>(
                                                 before[before.size() - end.size() - 1]))))
          return true;
      return false;
    };
    // What the notes state, per kind of value.
    std::array<std::vector<Value>, kParamCount> stated;
    for (const Action &a : out_.actions)
      if (inNotes(a.unit) && !negated(a))
        for (size_t p = 0; p < kParamCount; ++p)
          for (const Value &v : a.params[p])
            if (v.kind != Value::Kind::AtLeast && v.kind != Value::Kind::AtMost)
              stated[p].push_back(v);
    for (Action &a : out_.actions) {
      if (inNotes(a.unit)) {
        a.inProcedure = false;
        continue;
      }
      if (a.unit < slideStart || a.unit >= u || !robotClass(a.cls))
        continue;
      // Only a value the notes contradict is corrected: notes that say a
      // slide's "2-4 h" is 3 h leave the step as the slide has it.
      bool corrected = false;
      for (size_t p = 0; p < kParamCount && !corrected; ++p)
        corrected = !a.params[p].empty() && !stated[p].empty() &&
                    valuesContradict(a.params[p], stated[p]);
      if (corrected)
        a.superseded = true;
    }
    slideStart = notesEnd;
    u = notesEnd - 1;
  }
}

/// A kit's steps annotated by the lab in square brackets on lines of their
/// own ("Incubate for 1 hour at room temperature." then "[we do 2 h, not
/// 1 h]", "[robot: 300 µl per wash - 400 doesn't fit its wells]"): a
/// margin note amends the step above it, so that step's values of the
/// kinds the note states, and its steps of the note's kinds, may not be
/// the ones the lab runs (superseded). The note's own steps are no steps
/// in the procedure's order, though their values are stated. A checkbox
/// ("[ ] 09:45 ...") or a timestamp ("[09:07] dev.p: ...") is no note: a
/// note's bracket closes at the end of a line.
void Reader::markMarginNotes() {
  struct Span {
    SourceLoc begin, end; // end: just past the closing bracket
  };
  auto before = [](const SourceLoc &a, const SourceLoc &b) {
    return a.line < b.line || (a.line == b.line && a.col < b.col);
  };
  std::vector<Span> spans;
  std::vector<std::string> texts;
  for (size_t n = 0; n < lines_.size(); ++n) {
    std::string_view raw = lines_[n].raw;
    size_t open = raw.find_first_not_of(" \t");
    if (open == std::string_view::npos || raw[open] != '[' || open + 1 >= raw.size() ||
        std::isspace(static_cast<unsigned char>(raw[open + 1])))
      continue;
    std::string text;
    for (size_t k = n; k < lines_.size() && k < n + 6; ++k) {
      std::string_view line = trimView(k == n ? lines_[k].raw.substr(open + 1) : lines_[k].raw);
      if (line.empty())
        break;
      if (line.back() == ']' && line.find(']') == line.size() - 1) {
        text += std::string(line.substr(0, line.size() - 1));
        if (std::none_of(text.begin(), text.end(),
                         [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
          break;
        Span span;
        span.begin = SourceLoc{fileId_, lines_[n].number, static_cast<uint32_t>(open + 1), 1};
        size_t close = lines_[k].raw.rfind(']');
        span.end = SourceLoc{fileId_, lines_[k].number, static_cast<uint32_t>(close + 2), 1};
        spans.push_back(span);
        texts.push_back(std::move(text));
        n = k;
        break;
      }
      // A bracket closed inside the line is some other bracket.
      if (line.find(']') != std::string_view::npos)
        break;
      text += std::string(line) + " ";
    }
  }
  // An e-mail's inline replies, "> [JB] use 150 ul DMSO, 100 ul doesn't
  // cover ..." below a quoted step: a reviewer's initials in brackets
  // open the note, which runs to the end of its paragraph.
  for (size_t n = 0; n < lines_.size(); ++n) {
    std::string_view raw = lines_[n].raw;
    size_t open = raw.find_first_not_of(" \t>");
    if (open == std::string_view::npos || raw[open] != '[')
      continue;
    size_t close = raw.find(']', open);
    if (close == std::string_view::npos || close - open < 2 || close - open > 5 ||
        close + 1 >= raw.size() || raw[close + 1] != ' ')
      continue;
    std::string_view tag = raw.substr(open + 1, close - open - 1);
    if (!std::all_of(tag.begin(), tag.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
      continue;
    // "[HAND] Rinse wells ...", "[NEW] add ...": a tag that gives the step
    // to hands or marks it is the step's own, no one's reply.
    static const std::set<std::string, std::less<>> markers = {
        "NEW", "CHANGED", "CHANGE", "EDIT", "EDITED", "UPDATE", "UPDATED", "TODO", "DONE",
        "OK", "NOTE", "NB", "OPT", "AUTO", "RT", "FYI", "WIP", "TBD"};
    if (markers.count(tag) ||
        leadingTagDomain(raw.substr(open, close - open + 1)) != Domain::Unstated)
      continue;
    std::string text(trimView(raw.substr(close + 1)));
    size_t k = n;
    while (k + 1 < lines_.size()) {
      std::string_view next = lines_[k + 1].raw;
      size_t body = next.find_first_not_of(" \t>");
      if (body == std::string_view::npos || next[body] == '[' || isDigitChar(next[body]))
        break;
      text += " " + std::string(trimView(next.substr(body)));
      ++k;
    }
    Span span;
    span.begin = SourceLoc{fileId_, lines_[n].number, static_cast<uint32_t>(open + 1), 1};
    span.end = SourceLoc{fileId_, lines_[k].number,
                         static_cast<uint32_t>(lines_[k].raw.size() + 2), 1};
    spans.push_back(span);
    texts.push_back(std::move(text));
    n = k;
  }
  // "mix 3x, then 2->3 and so on. [MW: mix 5x with 100 uL, fresh tips
  // every column] Throw away ...": a reviewer's correction inline, her
  // initials and a colon in the bracket, anywhere in the step's text and
  // over its lines.
  std::vector<Domain> hands(spans.size(), Domain::Unstated);
  for (size_t n = 0; n < lines_.size(); ++n) {
    std::string_view raw = lines_[n].raw;
    for (size_t open = raw.find('['); open != std::string_view::npos;
         open = raw.find('[', open + 1)) {
      size_t colon = raw.find(':', open);
      if (colon == std::string_view::npos || colon - open < 3 || colon - open > 5)
        continue;
      std::string_view initials = raw.substr(open + 1, colon - open - 1);
      if (!std::all_of(initials.begin(), initials.end(),
                       [](char c) { return c >= 'A' && c <= 'Z'; }))
        continue;
      std::string text;
      for (size_t k = n; k < lines_.size() && k < n + 6; ++k) {
        std::string_view line = lines_[k].raw;
        size_t from = k == n ? colon + 1 : line.find_first_not_of(" \t>");
        if (from == std::string_view::npos)
          break;
        size_t close = line.find(']', from);
        text += std::string(line.substr(from, close == std::string_view::npos
                                                  ? std::string_view::npos
                                                  : close - from)) + " ";
        if (close == std::string_view::npos)
          continue;
        Span span;
        span.begin = SourceLoc{fileId_, lines_[n].number, static_cast<uint32_t>(open + 1), 1};
        span.end = SourceLoc{fileId_, lines_[k].number, static_cast<uint32_t>(close + 2), 1};
        spans.push_back(span);
        // Only a person's hands move a step: "on the BioForge reader" in
        // a correction of a value names where, not who.
        std::vector<Token> toks = prose::tokenize(text);
        bool person = false, robot = false;
        markersIn(toks, 0, toks.size(), person, robot);
        std::string lower = prose::lowerAscii(text);
        bool notRobot = false;
        for (const char *no : {"not with the robot", "not on the robot", "not by the robot",
                               "not the robot", "no robot"})
          notRobot |= lower.find(no) != std::string::npos;
        hands.push_back(!person ? Domain::Unstated : robot && !notRobot ? Domain::Both
                                                                        : Domain::Person);
        texts.push_back(std::move(text));
        break;
      }
    }
  }
  hands.resize(spans.size(), Domain::Unstated);
  if (spans.size() < 2)
    return;
  // A copy ("Repeat the aspiration/wash as in step 5") is where the step
  // it copies is written.
  auto spanOf = [&](const Action &a) -> int {
    const SourceLoc &at = a.copiedLoc.isValid() ? a.copiedLoc : a.loc;
    for (size_t k = 0; k < spans.size(); ++k)
      if (!before(at, spans[k].begin) && before(at, spans[k].end))
        return static_cast<int>(k);
    return -1;
  };
  for (size_t k = 0; k < spans.size(); ++k) {
    std::set<Param> stated;
    for (const ProseQuantity &q : proseQuantities(texts[k], platform_))
      stated.insert(paramOf(q.dimension));
    std::set<ActionClass> classes;
    int annotated = -1;
    for (size_t a = 0; a < out_.actions.size(); ++a) {
      const Action &act = out_.actions[a];
      int in = spanOf(act);
      if (in == static_cast<int>(k) && robotClass(act.cls) && !act.weak)
        classes.insert(act.cls);
      if (in < 0 && before(act.loc, spans[k].begin) && act.copiedFrom.empty())
        annotated = static_cast<int>(act.unit);
    }
    if (annotated < 0)
      continue;
    for (Action &act : out_.actions) {
      if (act.unit != static_cast<unsigned>(annotated) || spanOf(act) >= 0 || !act.inProcedure)
        continue;
      bool kind = classes.count(act.cls) > 0;
      for (size_t p = 0; p < kParamCount && !kind; ++p)
        kind = !act.params[p].empty() && stated.count(static_cast<Param>(p));
      if (kind)
        act.superseded = true;
      // "[MW: NOT with the robot - ... by hand]": the note says whose hands.
      if (hands[k] != Domain::Unstated && robotClass(act.cls))
        act.domain = hands[k];
    }
  }
  std::vector<SourceLoc> superseded;
  for (const Action &act : out_.actions)
    if (act.superseded && !act.copiedLoc.isValid())
      superseded.push_back(act.loc);
  for (Action &act : out_.actions) {
    if (spanOf(act) >= 0)
      act.inProcedure = false;
    else if (act.copiedLoc.isValid() &&
             std::find(superseded.begin(), superseded.end(), act.copiedLoc) != superseded.end())
      act.superseded = true;
  }
}

/// "DEVIATIONS FROM THE KIT INSERT ... These override the insert where
/// they differ", then "D1 (7.2) we use 10 µl of sample, not 50 µl": a
/// lab's amendments to a kit's procedure. The steps they name ("(7.2)"),
/// or without a name the steps of the same kinds, are superseded: their
/// values may not be the ones the lab runs, so a script that follows the
/// amendment draws no certain finding. The amendments themselves are no
/// steps in the procedure's order, but their values are stated.
void Reader::markDeviations() {
  auto opensDeviations = [](const std::string &lower) {
    for (const char *start : {"deviation", "departure", "modification", "amendment", "lab changes",
                              "changes to the", "changes from the", "our changes", "erratum",
                              // "OUR ADAPTATION FOR THE BIOFORGE" after the
                              // original lab's method, quoted whole.
                              "our adaptation", "adaptation for", "adaptations",
                              "errata", "corrigendum", "corrigenda",
                              // A method-transfer memo: "DIFFERENCES AT SITE
                              // B" after the sending site's method.
                              "differences at", "differences from", "differences to",
                              "changes at", "local changes", "site-specific changes",
                              // An audit report: "DEPARTURES FROM THE WRITTEN
                              // SOP", then "CORRECTIVE ACTIONS ... repeat the
                              // run with the SOP values restored".
                              "corrective action"})
      if (lower.rfind(start, 0) == 0)
        return true;
    // "Re: dr_plateguy >> Tue 11 Mar, 18:20", "mkowal >> Fri ... [EDIT,
    // final]": a reply in a thread under the protocol that its poster
    // pasted, or the poster's edit, says what to change in it.
    if (lower.rfind("re: ", 0) == 0 || lower.find("[edit") != std::string::npos)
      return true;
    for (const char *phrase : {"override the insert", "overrides the insert", "override the kit",
                               "overrides the kit", "override the protocol",
                               "overrides the protocol", "deviations from the"})
      if (lower.find(phrase) != std::string::npos)
        return true;
    return false;
  };
  size_t begin = out_.units.size();
  for (size_t u = 0; u < out_.units.size() && begin == out_.units.size(); ++u) {
    std::string lower = prose::lowerAscii(trimView(out_.units[u].text));
    while (!lower.empty() && !std::isalpha(static_cast<unsigned char>(lower[0])))
      lower.erase(0, 1);
    // A training exercise's key to the mistakes planted in the protocol
    // above it ("ANSWER KEY (trainers only)" over "Error 1 - step 4, wrong
    // volume"), under a heading of its own: a bullet of a demonstrator's
    // notes ("- Answer key pre-lab: 5/495 ...") answers a calculation.
    bool answerKey = out_.units[u].kind == UnitKind::Header &&
                     (lower.rfind("answer key", 0) == 0 || lower.rfind("answer sheet", 0) == 0 ||
                      lower.rfind("model answers", 0) == 0);
    if (opensDeviations(lower) || answerKey)
      begin = u;
  }
  if (begin == out_.units.size())
    return;
  // "DEVIATIONS AND CHANGES FROM THE PREVIOUS VERSION", "Revision history":
  // what this version changed in the one before it, which the procedure
  // above already is ("wash volume reduced from 400 µL to 300 µL" over
  // steps that wash with 300 µL), amends nothing of it.
  // Its entries are still no steps of the procedure.
  bool history = false;
  {
    std::string lower = prose::lowerAscii(out_.units[begin].text);
    for (const char *earlier : {"previous version", "prior version", "previous revision",
                                "prior revision", "earlier version", "last version",
                                "previous edition", "revision history", "version history",
                                "change history"})
      history |= lower.find(earlier) != std::string::npos;
  }
  // "Deviations: none. Step 4 and 7 times within the allowed window": a
  // record that there are none amends nothing.
  {
    std::string lower = prose::lowerAscii(out_.units[begin].text);
    size_t colon = lower.find(':');
    if (colon != std::string::npos) {
      std::string_view after = trimView(std::string_view(lower).substr(colon + 1));
      for (const char *none : {"none", "nil", "n/a", "no ", "no."})
        if (after.rfind(none, 0) == 0 || after == "no")
          return;
    }
  }
  // Amendments to nothing (the text's only steps are in them) are the
  // procedure.
  if (std::none_of(out_.actions.begin(), out_.actions.end(), [&](const Action &a) {
        return a.unit < begin && a.inProcedure && !a.weak && robotClass(a.cls);
      }))
    return;
  std::set<std::string> named;
  std::set<ActionClass> kindsUnnamed;
  // What an amendment changes: only values ("block 1 h", "300 µL, not 400
  // µL"), or the step itself (by hand, left out, replaced, moved). Per
  // named step and per kind, whether every amendment of it changes values
  // only.
  std::map<std::string, bool> namedValuesOnly;
  std::map<ActionClass, bool> kindValuesOnly;
  // What the amendments of a named step are about: the kinds of their
  // actions ("'Mix' in steps 2 and 4 = 30 s at 700 rpm" is about the
  // shake of step 2, not its addition). A step named by an amendment
  // without actions of its own is amended whole.
  std::map<std::string, std::set<ActionClass>> namedKinds;
  std::set<std::string> namedWhole;
  // "b) Order / who does what. The compounds are stamped in by hand first":
  // amendments that change the order leave the steps they amend no place
  // in the time order.
  bool reorders = false;
  // "Deviations from the handout. The handout asked for triplicates ...":
  // amendments opened by a run-in heading in a paragraph of prose are that
  // paragraph; the next paragraph of prose ("The plate was set up by the
  // robot as follows.") is the report going on. A heading of their own or
  // a lead-in ("... where they differ:") opens a section of them.
  std::string_view opener = trimView(out_.units[begin].text);
  bool runIn = out_.units[begin].kind != UnitKind::Header && unitStyle_[begin] == 'p' &&
               !opener.empty() && opener.back() != ':' && !runInHeading(opener).empty();
  for (size_t u = begin; u < out_.units.size(); ++u) {
    if (runIn && u > begin && unitAfterBlank_[u] && unitStyle_[u] == 'p' &&
        !opensDeviations(prose::lowerAscii(trimView(out_.units[u].text))))
      break;
    // A heading of another kind ends the amendments; the end of a wrapped
    // sentence ("With immediate\neffect:") starts in lower case and is none.
    // A lead-in right under the opening heading ("OUR ADAPTATION FOR THE
    // BIOFORGE" over "Same reagents, made exactly as above. What changes:")
    // introduces the amendments.
    std::string_view text = trimView(out_.units[u].text);
    bool leadIn = u == begin + 1 && !text.empty() && text.back() == ':';
    if (u > begin && out_.units[u].kind == UnitKind::Header && !startsLower(out_.units[u].text) &&
        !leadIn && !opensDeviations(prose::lowerAscii(out_.units[u].text)))
      break;
    std::vector<Token> toks = prose::tokenize(out_.units[u].text);
    reorders |= std::any_of(toks.begin(), toks.end(), [](const Token &t) {
      return t.is("order") || t.is("sequence") || t.is("reordered") || t.is("swapped");
    });
    // Words of an amendment that changes the step itself, not its values.
    // "300 µL, not 400 µL" sets a value against the one it replaces: a
    // "not" before a number changes no step.
    static const std::set<std::string, std::less<>> stepChanges = {
        "hand", "manual", "manually", "bench", "omit", "omitted", "skip", "skipped", "no",
        "not", "instead", "replace", "replaced", "remove", "removed", "drop", "dropped",
        "delete", "deleted", "order", "sequence", "before", "after", "moved", "swapped",
        "reordered", "extra", "additional", "add", "added", "twice", "once", "repeat",
        "robot", "deck", "only", "except"};
    bool structural = false;
    for (size_t k = 0; k < toks.size() && !structural; ++k)
      structural = stepChanges.count(toks[k].lower) > 0 &&
                   !(toks[k].is("not") && k + 1 < toks.size() && toks[k + 1].isNumber());
    bool namesStep = false;
    for (size_t k = 0; k + 1 < toks.size(); ++k) {
      bool bracketed = k + 2 < toks.size() && toks[k].isPunct("(") && toks[k + 2].isPunct(")") &&
                       toks[k + 1].isNumber();
      // "Step 7 should read 90 minutes": an erratum names its step.
      bool stepWord = toks[k].is("step") && toks[k + 1].isNumber();
      auto name = [&](const std::string &label) {
        named.insert(label);
        bool acts = false;
        for (const Action &a : out_.actions)
          if (a.unit == u && robotClass(a.cls)) {
            namedKinds[label].insert(a.cls);
            acts = true;
          }
        if (!acts)
          namedWhole.insert(label);
        auto [it, fresh] = namedValuesOnly.emplace(label, !structural);
        if (!fresh)
          it->second = it->second && !structural;
        namesStep = true;
      };
      if (bracketed || stepWord)
        name(toks[k + 1].text);
      // "Steps 2-4 are done by hand", "steps 7 and 8", "steps 2, 5": each
      // step of the list or range.
      if (toks[k].is("steps") && toks[k + 1].isNumber()) {
        size_t j = k + 1;
        std::string previous;
        while (j < toks.size() && toks[j].isNumber()) {
          const std::string &label = toks[j].text;
          bool range = !previous.empty() && j > 0 &&
                       (toks[j - 1].isPunct("-") || toks[j - 1].isPunct("–") || toks[j - 1].is("to"));
          int from = std::atoi(previous.c_str()), to = std::atoi(label.c_str());
          if (range && to > from && to - from <= 20 &&
              std::all_of(previous.begin(), previous.end(), isDigitChar) &&
              std::all_of(label.begin(), label.end(), isDigitChar))
            for (int n = from + 1; n < to; ++n)
              name(std::to_string(n));
          name(label);
          previous = label;
          if (j + 2 < toks.size() &&
              (toks[j + 1].isPunct("-") || toks[j + 1].isPunct("–") || toks[j + 1].isPunct(",") ||
               toks[j + 1].is("and") || toks[j + 1].is("to")) &&
              toks[j + 2].isNumber())
            j += 2;
          else
            break;
        }
      }
    }
    for (Action &a : out_.actions) {
      if (a.unit != u)
        continue;
      if (!namesStep && robotClass(a.cls)) {
        kindsUnnamed.insert(a.cls);
        auto [it, fresh] = kindValuesOnly.emplace(a.cls, !structural);
        if (!fresh)
          it->second = it->second && !structural;
      }
      a.inProcedure = false;
    }
  }
  for (Action &a : out_.actions) {
    if (history || a.unit >= begin || !a.inProcedure)
      continue;
    const std::string &label = out_.units[a.unit].label;
    bool byName = !label.empty() && named.count(label) &&
                  (namedWhole.count(label) || namedKinds[label].count(a.cls));
    bool byKind = kindsUnnamed.count(a.cls) > 0;
    if (byName || byKind) {
      a.superseded = true;
      a.orderLoose |= reorders;
      a.supersededValuesOnly = !reorders && (!byName || namedValuesOnly[label]) &&
                               (!byKind || kindValuesOnly[a.cls]);
    }
  }
}

/// "I told you 20, make it 30 minutes": the text takes back a value it
/// gave. Which of the earlier steps of that kind the new value replaces
/// (the first statement, a restatement, or both) is for the reader to
/// judge, so they are superseded: a script that follows either draws no
/// certain finding. The correction itself is no step of its own in the
/// order, though its values are stated, and nor are its reasons beside it
/// ("at 2 hours the signal is too low"). Only a phrase that puts a number
/// right after the taking back counts ("make it 30", "change that to
/// 30", "I meant 30"), so "make it up to 10 mL" is no correction; so does a
/// value set against the one it replaces ("block is 1h not 2h", "it's 7
/// washes not 5"), which takes back only the steps that stated the old one.
/// Whether a line of the document opens "SECTION <number>" ("Section 4:",
/// "SECTION 4  WHAT WENT WRONG"): the document's own parts are numbered.
bool Reader::sectionHeading(const std::string &number) const {
  for (const Line &line : lines_) {
    std::string lower = prose::lowerAscii(std::string(trimView(line.raw)));
    if (lower.rfind("section ", 0) != 0)
      continue;
    std::string_view rest = std::string_view(lower).substr(8);
    while (!rest.empty() && rest.front() == ' ')
      rest.remove_prefix(1);
    if (rest.rfind(number, 0) == 0 &&
        (rest.size() == number.size() || !std::isdigit(static_cast<unsigned char>(rest[number.size()]))))
      return true;
  }
  return false;
}

/// "Fifty microlitres of the blue conjugate into every well ... Then fifty
/// of the yellow antibody into every well except the blanks", "The
/// BioForge gives each well a hundred of mix": a bare number, "of" and a
/// liquid, for every or each well, right after an addition that gave its
/// volume a unit, is the next addition in that unit. Only in a sentence
/// that makes no addition with a volume of its own, within five
/// sentences of the one that gave the unit.
void Reader::readCarriedVolumes() {
  std::vector<Action> made;
  for (unsigned s = 1; s < sentences_.size(); ++s) {
    const std::vector<Token> &toks = sentences_[s].tokens;
    bool adds = std::any_of(out_.actions.begin(), out_.actions.end(), [&](const Action &a) {
      return a.sentence == s && a.cls == ActionClass::Dispense && !a.weak &&
             !a.values(Param::Volume).empty();
    });
    if (adds)
      continue;
    // Every well: "into every well", "gives each well", "to all wells".
    bool everyWell = false;
    for (size_t k = 0; k + 1 < toks.size(); ++k)
      everyWell = everyWell || ((toks[k].is("every") || toks[k].is("each") || toks[k].is("all")) &&
                                (toks[k + 1].is("well") || toks[k + 1].is("wells")));
    if (!everyWell)
      continue;
    // A bare number, "of", the liquid's words.
    size_t n = toks.size();
    for (size_t k = 0; k + 2 < toks.size() && n == toks.size(); ++k)
      if (toks[k].isNumber() && toks[k].number > 0 && toks[k + 1].is("of") &&
          toks[k + 2].isWord() && !prose::quantityAt(toks, k, platform_, sentences_[s].text))
        n = k;
    if (n == toks.size())
      continue;
    size_t into = n + 2;
    std::vector<std::string> words;
    while (into < toks.size() && toks[into].isWord() && !toks[into].is("into") &&
           !toks[into].is("to") && !toks[into].is("then") && !toks[into].is("and") &&
           words.size() < 5) {
      if (!toks[into].is("the"))
        words.push_back(toks[into].lower);
      ++into;
    }
    if (words.empty())
      continue;
    // The addition before, with a volume in a unit.
    const Action *before = nullptr;
    for (const Action &a : out_.actions)
      if (a.sentence < s && a.sentence + 5 >= s && a.cls == ActionClass::Dispense && !a.weak &&
          a.values(Param::Volume).size() == 1)
        before = &a;
    if (!before)
      continue;
    const Value &given = before->values(Param::Volume).front();
    std::vector<Token> givenToks = prose::tokenize(given.text);
    if (!given.exact() || given.low != given.high || givenToks.empty() ||
        !givenToks.front().isNumber() || givenToks.front().number <= 0 || givenToks.size() < 2)
      continue;
    Action addition = *before;
    addition.sentence = s;
    addition.unit = sentences_[s].unit;
    addition.loc = locate(addition.unit, sentences_[s].offset + toks[n].begin,
                          toks[n].end - toks[n].begin);
    addition.text = sentences_[s].text;
    addition.words = words;
    addition.liquid = fmt::format("{}", fmt::join(words, " "));
    addition.copiedFrom.clear();
    // Its own sentence says whose hands: "The BioForge gives each well ...".
    addition.domain = domainOfWords(prose::lowerAscii(sentences_[s].text));
    addition.personNearby = addition.domain == Domain::Person || addition.domain == Domain::Both;
    addition.robotNearby = addition.domain == Domain::Robot || addition.domain == Domain::Both;
    Value volume = given;
    volume.low = volume.high = given.low * toks[n].number / givenToks.front().number;
    volume.text = toks[n].text + " (" + std::string(given.text.substr(givenToks[1].begin)) + ")";
    volume.loc = addition.loc;
    addition.values(Param::Volume) = {volume};
    made.push_back(std::move(addition));
  }
  insertInTextOrder(std::move(made));
}

/// "Conjugate Sound. One hundred, every well in use. Forty-five minutes,
/// room temperature. Correction, correction: Conjugate Sound, thirty
/// minutes, room temperature.": a sentence that opens with "Correction"
/// ("Sorry, correction:") says a step again with the value it should have
/// had. The nearest step of its kind in the three sentences before, whose
/// value it contradicts, was said wrong: no step of the procedure. Only
/// that one, not every earlier step of the kind ("make it 30" is another
/// matter).
void Reader::markSpokenCorrections() {
  for (size_t c = 0; c < out_.actions.size(); ++c) {
    const Action &correction = out_.actions[c];
    if (!robotClass(correction.cls) || correction.weak || !correction.inProcedure ||
        correction.sentence >= sentences_.size() || !correction.copiedFrom.empty())
      continue;
    const std::vector<Token> &toks = sentences_[correction.sentence].tokens;
    size_t k = 0;
    if (k < toks.size() && (toks[k].is("sorry") || toks[k].is("oops")))
      ++k;
    while (k < toks.size() && toks[k].isPunct(","))
      ++k;
    // A sat-nav's "Recalculating..." then "Route updated for lot 24B: the
    // insert now says four washes.": the word that announces a new route,
    // at the head of the sentence or ending one of the two before,
    // corrects too. ("AMENDED 3 Oct: the first version said 200 uL" tells
    // the old value: an amendment's heading is no such word.)
    auto announces = [](const Token &t) { return t.is("recalculating") || t.is("recalculated"); };
    auto headAnnounces = [&](const std::vector<Token> &t, size_t from) {
      return (from < t.size() && announces(t[from])) ||
             (from + 1 < t.size() && t[from].isWord() && announces(t[from + 1]));
    };
    bool announced = headAnnounces(toks, k);
    for (size_t back = 1; back <= 2 && back <= correction.sentence && !announced; ++back) {
      const std::vector<Token> &before = sentences_[correction.sentence - back].tokens;
      announced = back == 1 && headAnnounces(before, 0);
      for (size_t b = before.size(); b-- > 0 && !announced;)
        if (before[b].isWord()) {
          announced = announces(before[b]) || before[b].is("correction");
          break;
        }
    }
    if (!announced && (k >= toks.size() || !toks[k].is("correction")))
      continue;
    for (size_t a = c; a-- > 0;) {
      Action &earlier = out_.actions[a];
      if (earlier.sentence + 3 < correction.sentence)
        break;
      if (earlier.sentence == correction.sentence || earlier.cls != correction.cls ||
          !earlier.inProcedure || earlier.weak)
        continue;
      bool contradicts = false, agrees = true;
      for (size_t p = 0; p < kParamCount; ++p) {
        contradicts = contradicts || valuesContradict(earlier.params[p], correction.params[p]);
        agrees = agrees && (correction.params[p].empty() ||
                            allAdmittedBy(correction.params[p], earlier.params[p]));
      }
      if (contradicts)
        earlier.inProcedure = false;
      // "the insert now says four washes. Wash 4 times, ...": the new value
      // said first in passing; the step it replaces lies before.
      if (!contradicts && agrees && announced)
        continue;
      break;
    }
  }
}

/// Marks `a` superseded in its values when it states one that a later
/// correction takes back.
void supersedeWithdrawnValues(Action &a, const std::vector<std::pair<Param, double>> &withdrawn) {
  for (const auto &[param, value] : withdrawn)
    for (const Value &v : a.params[static_cast<size_t>(param)])
      if (v.exact() && std::abs(v.low - value) <= 1e-9 * std::max(1.0, std::abs(value))) {
        a.superseded = true;
        a.supersededValuesOnly = true;
      }
}

/// "2240 CORRECTION to 2230 entry, at Dr Ruiz's request: wash volume was
/// 250 µL per well per wash, not 300 µL. Robot programmed at 250 µL. 300 µL
/// written in error.": an entry that opens "CORRECTION" and takes a value
/// back ("not 300 µL", "written in error") amends an earlier entry. Its
/// sentences are no steps; earlier steps that state the value taken back
/// are superseded in their values.
void Reader::markCorrectionEntries() {
  for (unsigned s = 0; s < sentences_.size(); ++s) {
    const std::vector<Token> &toks = sentences_[s].tokens;
    size_t k = 0;
    while (k < toks.size() && (toks[k].isNumber() || toks[k].isPunct(":")))
      ++k; // a log's time stamp
    if (k >= toks.size() || !toks[k].is("correction"))
      continue;
    unsigned last = s;
    while (last + 1 < sentences_.size() && sentences_[last + 1].unit == sentences_[s].unit)
      ++last;
    std::vector<std::pair<Param, double>> withdrawn;
    for (unsigned j = s; j <= last; ++j) {
      const std::vector<Token> &t = sentences_[j].tokens;
      for (size_t i = 0; i < t.size(); ++i) {
        auto q = prose::quantityAt(t, i, platform_, sentences_[j].text);
        if (!q)
          continue;
        bool notBefore = i > 0 && t[i - 1].is("not");
        bool inError = q->last + 1 < t.size() &&
                       ((t[q->last].is("in") && t[q->last + 1].is("error")) ||
                        (q->last + 2 < t.size() && t[q->last].is("written") &&
                         t[q->last + 1].is("in") && t[q->last + 2].is("error")));
        if (notBefore || inError)
          withdrawn.emplace_back(paramOf(q->dimension), q->value.low);
      }
    }
    if (withdrawn.empty())
      continue;
    for (Action &a : out_.actions) {
      if (a.sentence >= s && a.sentence <= last) {
        a.inProcedure = false;
        continue;
      }
      if (a.sentence >= s || !a.inProcedure || !robotClass(a.cls))
        continue;
      supersedeWithdrawnValues(a, withdrawn);
    }
    s = last;
  }
}

/// "In my answer to Q48 I told the Committee that the plate is washed three
/// times. That was incorrect: our validated method uses four washes of 300
/// microlitres per well.": a writer's correction of what they said before.
/// The values of the sentence that reports the earlier statement ("I
/// told", "we said") are taken back, once it or one of the next two
/// sentences of its paragraph calls something wrong: earlier steps of the
/// same kind that state them are superseded in their values, and the
/// paragraph from there on, which tells the right values, is no step.
void Reader::markOwnStatementCorrections() {
  static const std::set<std::string, std::less<>> reportVerbs = {
      "told", "said", "stated", "wrote", "gave", "answered", "reported", "claimed"};
  static const std::set<std::string, std::less<>> wrongWords = {
      "wrong", "incorrect", "mistake", "mistaken", "error", "errors", "erroneous",
      "inaccurate", "misspoke", "misstated"};
  for (unsigned s = 0; s < sentences_.size(); ++s) {
    const std::vector<Token> &toks = sentences_[s].tokens;
    // The report opens its sentence ("In my answer to Q48 I told"): one in
    // brackets after a step's values ("60 min at 37 C (I first wrote 45")
    // amends that step, which stays.
    size_t verb = toks.size();
    for (size_t k = 0; k + 1 < toks.size() && verb == toks.size(); ++k) {
      if (toks[k].isNumber() || toks[k].isPunct("(") || toks[k].isPunct("["))
        break;
      if (toks[k].is("i") || toks[k].is("we"))
        for (size_t j = k + 1; j <= k + 2 && j < toks.size(); ++j)
          if (toks[j].isWord() && reportVerbs.count(toks[j].lower)) {
            verb = j;
            break;
          }
    }
    if (verb == toks.size())
      continue;
    bool called = false;
    for (unsigned t = s; t < sentences_.size() && t <= s + 2 && !called; ++t) {
      if (sentences_[t].unit != sentences_[s].unit)
        break;
      for (const Token &token : sentences_[t].tokens)
        called = called || (token.isWord() && wrongWords.count(token.lower));
    }
    if (!called)
      continue;
    std::vector<std::pair<Param, double>> withdrawn;
    for (size_t i = verb + 1; i < toks.size(); ++i)
      if (auto q = prose::quantityAt(toks, i, platform_, sentences_[s].text);
          q && q->dimension != Dimension::Concentration) {
        withdrawn.emplace_back(paramOf(q->dimension), q->value.low);
        i = q->last;
      }
    if (withdrawn.empty())
      continue;
    std::set<ActionClass> kinds;
    for (const Action &a : out_.actions)
      if (a.sentence == s && robotClass(a.cls))
        kinds.insert(a.cls);
    for (Action &a : out_.actions) {
      if (a.sentence >= s && a.sentence < sentences_.size() &&
          sentences_[a.sentence].unit == sentences_[s].unit) {
        a.inProcedure = false;
        continue;
      }
      if (a.sentence >= s || !a.inProcedure || !robotClass(a.cls) ||
          (!kinds.empty() && !kinds.count(a.cls)))
        continue;
      supersedeWithdrawnValues(a, withdrawn);
    }
  }
}

/// "[00:03:53] Dana Okafor: ... a hundred fifty microlitres of the
/// substrate. Twenty minutes at room temperature, and keep it out of the
/// light." then "[00:04:02] Tomasz Wojcik: Dark, lid on, twenty minutes.":
/// in a conversation, a turn that says back the values of a step of the
/// turn right before it, another speaker's, confirms that step; it is no
/// second one. A turn that goes on ("again", "then", "another") is.
void Reader::markReadBacks() {
  // The speaker who opens a line: "[00:04:02] Tomasz Wojcik:", "Dana:".
  auto speaker = [&](uint32_t lineNumber) -> std::string {
    return lineNumber >= 1 && lineNumber <= lines_.size() ? turnSpeaker(lines_[lineNumber - 1].raw)
                                                          : std::string();
  };
  std::map<std::string, unsigned> turns;
  for (const TextUnit &unit : out_.units)
    if (std::string name = speaker(unit.loc.line); !name.empty())
      ++turns[name];
  unsigned speakers = 0;
  for (const auto &[name, n] : turns)
    speakers += n >= 2 ? 1 : 0;
  if (speakers < 2)
    return;
  for (Action &a : out_.actions) {
    if (!a.inProcedure || !robotClass(a.cls) || a.unit == 0 || !a.hasNumeric() ||
        a.sentence >= sentences_.size())
      continue;
    std::string mine = speaker(out_.units[a.unit].loc.line);
    std::string theirs = speaker(out_.units[a.unit - 1].loc.line);
    if (mine.empty() || theirs.empty() || mine == theirs)
      continue;
    std::string lower = prose::lowerAscii(out_.units[a.unit].text);
    if (hasAnyWord(lower, {"again", "then", "another", "next", "repeat", "more", "after"}))
      continue;
    for (const Action &b : out_.actions) {
      if (b.unit != a.unit - 1 || b.cls != a.cls || !b.inProcedure)
        continue;
      bool same = true;
      for (size_t p = 0; p < kParamCount && same; ++p)
        same = a.params[p].empty() || allAdmittedBy(a.params[p], b.params[p]);
      if (same) {
        a.inProcedure = false;
        break;
      }
    }
  }
}

/// "DA-2 finished and read; for the record, the sequence was samples by
/// hand 50 µL, antibody 50 µL, shake, 60 min, wash 3x, ..., read 450.": a
/// sentence that says it tells the sequence again ("for the record", "to
/// recap", "in summary") and names three steps or more, after at least as
/// many steps told before it, is a recap of that work, no steps of its
/// own; so is the rest of a paragraph that a sentence announces as the
/// method said again ("Let me say the whole of it once more, briefly").
void Reader::markRecaps() {
  for (unsigned s = 0; s < sentences_.size(); ++s) {
    std::string lower = prose::lowerAscii(sentences_[s].text);
    // "Let me say the whole of it once more, briefly": the recap is the
    // rest of the paragraph.
    bool announces = hasAnyWord(lower, {"once more", "again"}) &&
                     hasAnyWord(lower, {"say", "tell", "go over", "go through", "run through"});
    if (!announces &&
        !hasAnyWord(lower, {"for the record", "to recap", "in summary", "recap", "summing up"}))
      continue;
    unsigned last = s;
    while (announces && last + 1 < sentences_.size() &&
           sentences_[last + 1].unit == sentences_[s].unit)
      ++last;
    // Told before: as many steps of the procedure in earlier sentences.
    size_t steps = 0, before = 0;
    for (const Action &a : out_.actions) {
      steps += a.sentence >= s && a.sentence <= last && robotClass(a.cls) ? 1 : 0;
      before += a.sentence < s && a.inProcedure && !a.weak && robotClass(a.cls) ? 1 : 0;
    }
    if (steps < 3 || before < steps)
      continue;
    for (Action &a : out_.actions)
      if (a.sentence >= s && a.sentence <= last)
        a.inProcedure = false;
    s = last;
  }
}

/// A text-adventure session ("> TELL ROBOT TO ADD 100 UL CARBONATE TO ALL
/// WELLS", the game's reply under each command): five command lines or
/// more, each opening ">". A command the game refuses ("The robot politely
/// declines.", "Nothing happens.") was not done; what was done between a
/// "> SAVE" and a later "> RESTORE" was undone by the restore. Neither is a
/// step of the procedure.
void Reader::markGameCommands() {
  auto command = [](std::string_view raw) {
    std::string_view t = trimView(raw);
    return t.size() > 2 && t[0] == '>' && t[1] == ' ';
  };
  size_t commands = 0;
  for (const Line &line : lines_)
    commands += command(line.raw) ? 1 : 0;
  if (commands < 5)
    return;
  auto word = [](std::string_view raw) {
    std::string lower = prose::lowerAscii(std::string(trimView(raw).substr(1)));
    std::vector<Token> toks = prose::tokenize(lower);
    return toks.empty() ? std::string() : toks.front().lower;
  };
  std::vector<std::pair<uint32_t, uint32_t>> undone; // line ranges, inclusive
  uint32_t saved = 0;
  for (size_t l = 0; l < lines_.size(); ++l) {
    const Line &line = lines_[l];
    if (!command(line.raw))
      continue;
    std::string verb = word(line.raw);
    if (verb == "save")
      saved = line.number;
    if ((verb == "restore" || verb == "load") && saved)
      undone.emplace_back(saved, line.number);
    // The reply: the lines up to the next command.
    std::string reply;
    for (size_t r = l + 1; r < lines_.size() && !command(lines_[r].raw); ++r)
      reply += " " + std::string(lines_[r].raw);
    std::string lower = prose::lowerAscii(reply);
    if (hasAnyWord(lower, {"declines", "refuses", "nothing happens", "will not", "won't",
                           "you can't", "you cannot", "is not possible"}))
      undone.emplace_back(line.number, line.number);
  }
  for (Action &a : out_.actions)
    for (const auto &[from, to] : undone)
      if (a.loc.line >= from && a.loc.line <= to)
        a.inProcedure = false;
}

void Reader::markCorrections() {
  std::vector<size_t> corrections; // of something earlier
  auto correctsAt = [](const std::vector<Token> &toks, size_t k) {
    auto word = [&](size_t i, std::string_view w) { return i < toks.size() && toks[i].is(w); };
    auto numberAt = [&](size_t i) { return i < toks.size() && toks[i].isNumber(); };
    bool pronoun = word(k + 1, "it") || word(k + 1, "that") || word(k + 1, "them");
    if (word(k, "make") && pronoun)
      return numberAt(k + 2);
    // "Make the pre-incubation (step 9) 15 min this time": a step named by
    // its noun (or its number) and its new value. "Make the substrate 0.4
    // mM" names a liquid, no step.
    if (word(k, "make") && word(k + 1, "the")) {
      static const std::set<std::string, std::less<>> stepNouns = {
          "incubation", "incubations", "preincubation", "pre-incubation", "wash", "washes",
          "soak", "shake", "shaking", "read", "reads", "development", "step", "blocking"};
      bool namesStep = false;
      for (size_t j = k + 2; j < toks.size() && j < k + 8; ++j) {
        if (toks[j].isNumber() && toks[j - 1].is("step"))
          continue;
        if (toks[j].isNumber())
          return namesStep;
        if (toks[j].isWord())
          namesStep = namesStep || stepNouns.count(toks[j].lower) > 0 ||
                      toks[j].lower.ends_with("incubation");
        else if (!toks[j].isPunct("(") && !toks[j].isPunct(")") && !toks[j].isPunct("-"))
          return false;
      }
    }
    if ((word(k, "change") || word(k, "changed")) && pronoun && word(k + 2, "to"))
      return numberAt(k + 3);
    if (word(k, "i") && word(k + 1, "meant"))
      return numberAt(k + 2);
    return false;
  };
  // "block is 1h not 2h", "it's 7 washes not 5", "20 µl, not 10": a value
  // and, right after it, the one it replaces. Returns the value taken back
  // in the correction's canonical unit, read with the unit of the value
  // before it when it has none of its own.
  // Each reading of the replaced value, the nearest number first: "15 min
  // at 37 C, not 10" may take back 10 °C or 10 min, and the steps before
  // decide (no earlier step states 10 °C).
  auto withdrawnBy = [&](const Action &correction) -> std::vector<std::pair<size_t, double>> {
    std::vector<std::pair<size_t, double>> readings;
    const Sentence &sentence = sentences_[correction.sentence];
    const std::vector<Token> &toks = sentence.tokens;
    // "as in step 5, but 4 times instead of 3" varies a step it copies,
    // and takes nothing back.
    bool copies = false;
    for (size_t k = 0; k + 1 < toks.size(); ++k)
      copies = copies || (toks[k].is("as") && (toks[k + 1].is("in") || toks[k + 1].is("above") ||
                                               toks[k + 1].is("before") || toks[k + 1].is("for")));
    // "instead of" replaces a value only in a decision for the runs to
    // come ("Let's do 4 washes after the Strep-HRP instead of 3", "from now
    // on"), not in a question or a story ("What would happen if you
    // incubated for 60 min instead of 30 min?", "A student added 10 uL
    // instead of 20 uL").
    bool decides = false, wonders = false;
    for (size_t k = 0; k < toks.size(); ++k) {
      decides = decides || toks[k].is("let's") || toks[k].is("lets") || toks[k].is("please") ||
                (toks[k].is("let") && k + 1 < toks.size() && toks[k + 1].is("us")) ||
                (toks[k].is("from") && k + 2 < toks.size() && toks[k + 1].is("now") &&
                 toks[k + 2].is("on")) ||
                (toks[k].is("going") && k + 1 < toks.size() && toks[k + 1].is("forward"));
      wonders = wonders || toks[k].isPunct("?") || toks[k].is("if") || toks[k].is("would");
    }
    for (size_t k = 1; k + 1 < toks.size(); ++k) {
      // "4 washes after the Strep-HRP instead of 3" in a later comment
      // replaces a value as "not" does.
      bool insteadOf = !copies && decides && !wonders && toks[k].is("instead") &&
                       toks[k + 1].is("of");
      size_t withdrawn = insteadOf ? k + 2 : k + 1;
      if (!(toks[k].is("not") || insteadOf) || withdrawn >= toks.size() ||
          !toks[withdrawn].isNumber())
        continue;
      // The value it replaces: a number at most four words (its unit, the
      // step's noun of one or two words, a comma: "*50 µl reaction mix,
      // not 5") before, or up to seven before "instead of" ("4 washes
      // after the Strep-HRP"); past a nearer number of another kind ("15
      // min at 37 C, not 10").
      size_t reach = insteadOf ? 8 : 5;
      std::vector<size_t> given;
      for (size_t j = k, words = 0; j-- > 0 && words < reach;) {
        if (toks[j].isNumber()) {
          given.push_back(j);
          continue;
        }
        if (!toks[j].isWord() && !toks[j].isPunct(",") && !(insteadOf && toks[j].isPunct("-")))
          break;
        ++words;
      }
      for (size_t at : given) {
        if (toks[at].number == 0)
          continue;
        for (size_t p = 0; p < kParamCount; ++p)
          for (const Value &v : correction.params[p]) {
            if (v.kind != Value::Kind::Exact || v.low != v.high ||
                v.text.rfind(toks[at].text, 0) != 0)
              continue;
            double value = toks[withdrawn].number * (v.low / toks[at].number);
            for (const ProseQuantity &q : proseQuantities(sentence.text, platform_))
              if (q.begin == toks[withdrawn].begin &&
                  q.dimension == paramDimension(static_cast<Param>(p)))
                value = q.value.low;
            readings.emplace_back(p, value);
          }
      }
      if (!readings.empty())
        return readings;
    }
    return readings;
  };
  for (size_t c = 0; c < out_.actions.size(); ++c) {
    Action &correction = out_.actions[c];
    if (!robotClass(correction.cls) || correction.weak || correction.sentence >= sentences_.size())
      continue;
    const std::vector<Token> &toks = sentences_[correction.sentence].tokens;
    bool corrects = false;
    for (size_t k = 0; k < toks.size() && !corrects; ++k)
      corrects = correctsAt(toks, k);
    // "make it 30" takes back every earlier step of its kind; a value set
    // against the one it replaces ("1h not 2h") only the earlier steps of
    // its kind that state the replaced value.
    std::vector<std::pair<size_t, double>> withdrawn;
    if (!corrects && (withdrawn = withdrawnBy(correction)).empty())
      continue;
    auto takesBack = [&](const Action &earlier) {
      if (corrects)
        return true;
      return std::any_of(withdrawn.begin(), withdrawn.end(), [&](const auto &reading) {
        // Named copies, not structured bindings: clang 14 (the sanitizer
        // build) cannot capture a binding in the lambda below.
        size_t param = reading.first;
        double value = reading.second;
        return std::any_of(earlier.params[param].begin(), earlier.params[param].end(),
                           [&](const Value &v) {
                             return v.exact() && v.low == v.high &&
                                    std::abs(v.low - value) <= 1e-9 * std::max(1.0, std::abs(value));
                           });
      });
    };
    bool replaces = false;
    for (size_t a = 0; a < c; ++a) {
      Action &earlier = out_.actions[a];
      if (earlier.cls != correction.cls || earlier.sentence == correction.sentence ||
          !earlier.inProcedure || !takesBack(earlier))
        continue;
      earlier.superseded = true;
      replaces = true;
    }
    // A correction of nothing earlier ("Incubate; make it 30 min") is the
    // step itself.
    if (!replaces)
      continue;
    correction.inProcedure = false;
    corrections.push_back(c);
    // Its reasons ("at 2 hours the signal is too low") are no steps either.
    for (size_t a = c + 1; a < out_.actions.size(); ++a)
      if (out_.actions[a].unit == correction.unit && out_.actions[a].cls == correction.cls)
        out_.actions[a].inProcedure = false;
  }
  // "haha ok, 50 µl mix, 30 min": a reply that acknowledges corrections
  // says their values back; it is no step of its own. Only a turn that
  // opens with its acknowledgement, and only steps whose every value a
  // correction before it stated.
  // What a turn opens with, after its speaker ("[21:04] Tomás: haha ok").
  auto opensWith = [&](size_t u, std::initializer_list<std::string_view> words) {
    uint32_t n = out_.units[u].loc.line;
    if (n < 1 || n - 1 >= lines_.size() || !unitOpensTurn(u))
      return false;
    std::string_view raw = lines_[n - 1].raw;
    size_t colon = raw.find(": ");
    std::string rest = prose::lowerAscii(trimView(colon == std::string_view::npos || colon > 40
                                                      ? raw
                                                      : raw.substr(colon + 2)));
    for (std::string_view filler : {"haha ", "haha, ", "lol ", "lol, ", "ah ", "ah, ", "oh ", "oh, "})
      if (rest.rfind(filler, 0) == 0)
        rest.erase(0, filler.size());
    for (std::string_view word : words)
      if (rest.rfind(word, 0) == 0 &&
          (rest.size() == word.size() || !std::isalpha(static_cast<unsigned char>(rest[word.size()]))))
        return true;
    return false;
  };
  auto acknowledges = [&](size_t u) {
    return opensWith(u, {"ok", "okay", "kk", "got it", "sure", "noted", "understood", "right",
                         "yes", "yep", "will do", "perfect", "great"});
  };
  // "do I dilute the supernatants?" - "no, neat, 50 µl straight": an
  // answer that declines a change says back a step told before (of its
  // kind, with its values). "Yes, the robot adds the 30 µl lipase after
  // the wash" may tell the step for the first time.
  auto declinesQuestion = [&](size_t u) {
    if (u == 0 || !opensWith(u, {"no", "nope"}))
      return false;
    std::string_view before = trimView(out_.units[u - 1].text);
    return !before.empty() && before.back() == '?';
  };
  for (size_t u = 0; u < out_.units.size(); ++u) {
    bool declines = declinesQuestion(u);
    if (!acknowledges(u) && !declines)
      continue;
    for (Action &a : out_.actions) {
      if (a.unit != u || !robotClass(a.cls) || !a.inProcedure)
        continue;
      bool any = false, restated = true;
      for (size_t p = 0; p < kParamCount && restated; ++p)
        for (const Value &v : a.params[p]) {
          any = true;
          auto states = [&](const Action &earlier) {
            return earlier.unit < u &&
                   std::any_of(earlier.params[p].begin(), earlier.params[p].end(),
                               [&](const Value &w) { return w.admits(v.low) && v.admits(w.low); });
          };
          restated = std::any_of(corrections.begin(), corrections.end(),
                                 [&](size_t c) { return states(out_.actions[c]); });
          if (!restated && declines)
            restated = std::any_of(out_.actions.begin(), out_.actions.end(), [&](const Action &b) {
              return b.cls == a.cls && &b != &a && !b.weak && states(b);
            });
          if (!restated)
            break;
        }
      if (any && restated)
        a.inProcedure = false;
    }
  }
}

/// Four turns or more of speakers ("Tom: ...", "PRIYA (off-panel): ..."):
/// a transcript, whose readings of steps and read-backs are told apart.
bool Reader::isTranscript() const {
  unsigned turns = 0;
  for (const TextUnit &unit : out_.units)
    turns += turnPrefix(unit.text) > 0;
  return turns >= 4;
}

/// "Read A at 570 nm." and, in another paragraph, "Until then, 570 nm it
/// is.": a wavelength with no verb of reading, which a read named by its
/// verb elsewhere states too, speaks of that read (a filter, a choice, a
/// reminder); alone it would ask for a second read the script lacks. Said
/// "again", "a second time" or "then", it is one.
void Reader::markEchoedReads() {
  auto isRead = [](const Action &a) {
    return a.cls == ActionClass::Read || a.cls == ActionClass::ReadFluorescence;
  };
  auto plainStep = [](const Action &a) {
    return a.inProcedure && !a.weak && a.copiedFrom.empty() && !a.aside;
  };
  for (Action &a : out_.actions) {
    // A list item or a table row is a step of its own ("5. First read at
    // 405 nm right away."); running prose remarks.
    if (!isRead(a) || a.named || !plainStep(a) || !a.inParagraph ||
        a.sentence >= sentences_.size())
      continue;
    // "..., then 450 nm" goes on to a step; "until then" does not.
    const std::vector<Token> &toks = sentences_[a.sentence].tokens;
    bool another = false;
    for (size_t k = 0; k < toks.size(); ++k)
      another |= toks[k].is("again") || toks[k].is("second") || toks[k].is("twice") ||
                 toks[k].is("repeat") || toks[k].is("reread") || toks[k].is("re-read") ||
                 toks[k].is("another") || toks[k].is("first") || toks[k].is("final") ||
                 toks[k].is("last") || toks[k].is("initial") || toks[k].is("next") ||
                 (toks[k].is("then") &&
                  !(k > 0 && (toks[k - 1].is("until") || toks[k - 1].is("till") ||
                              toks[k - 1].is("since") || toks[k - 1].is("by"))));
    if (another)
      continue;
    bool echoes = std::any_of(out_.actions.begin(), out_.actions.end(), [&](const Action &b) {
      return &b != &a && b.cls == a.cls && b.named && plainStep(b) && b.unit != a.unit &&
             restates(a, b);
    });
    if (echoes)
      a.aside = true;
  }
}

/// "BIOFORGE-1: WASH, THREE CYCLES, 300 MICROLITRES. BLOCK, 300
/// MICROLITRES, ONE HOUR. CONFIRM.": in a transcript, a turn all in capitals
/// from a speaker whose name carries a digit or names a machine is the
/// instrument's display or voice reading back what the people told it; the
/// steps are in what they say, so its actions are mentions.
void Reader::markMachineReadbacks() {
  if (!isTranscript())
    return;
  std::vector<bool> readback(out_.units.size(), false);
  bool any = false;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    std::string_view text = trimView(out_.units[u].text);
    size_t colon = text.find(": ");
    if (colon == std::string_view::npos || colon == 0 || colon > 24)
      continue;
    std::string_view name = text.substr(0, colon);
    bool digit = std::any_of(name.begin(), name.end(), isDigitChar);
    std::string lowerName = prose::lowerAscii(name);
    bool machine = digit;
    for (const char *w : {"robot", "machine", "instrument", "system", "computer", "display",
                          "screen", "reader", "console"})
      machine = machine || lowerName.find(w) != std::string::npos;
    if (!machine || !std::all_of(name.begin(), name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ' ' ||
                 c == '_';
        }))
      continue;
    std::string_view said = text.substr(colon + 2);
    unsigned upper = 0, lower = 0;
    for (char c : said) {
      upper += std::isupper(static_cast<unsigned char>(c)) != 0;
      lower += std::islower(static_cast<unsigned char>(c)) != 0;
    }
    if (upper >= 10 && lower == 0)
      readback[u] = any = true;
  }
  if (!any)
    return;
  for (Action &a : out_.actions)
    if (a.unit < readback.size() && readback[a.unit])
      a.weak = true;
}

/// "We ground all sixteen samples, 5 g each into 25 mL of methanol, three
/// minutes on the shaker, filtered ... That's done, it's in the rack": what
/// the speakers did, told just before a sentence that says it is done, is
/// work finished before the procedure, no step of it.
void Reader::markFinishedWork() {
  for (size_t i = 0; i + 1 < sentences_.size(); ++i) {
    const Sentence &told = sentences_[i], &next = sentences_[i + 1];
    const std::vector<Token> &n = next.tokens;
    auto opens = [&](std::initializer_list<const char *> words) {
      size_t k = 0;
      for (const char *w : words) {
        if (k >= n.size() || !n[k].is(w))
          return false;
        ++k;
      }
      return true;
    };
    bool saysDone = opens({"that", "'s", "done"}) || opens({"that's", "done"}) ||
                    opens({"that", "is", "done"}) || opens({"all", "done"}) ||
                    opens({"already", "done"});
    bool ourWork = std::any_of(told.tokens.begin(), told.tokens.end(),
                               [](const Token &t) { return t.is("we") || t.is("i"); });
    if (!saysDone || !ourWork || next.unit != told.unit)
      continue;
    for (Action &a : out_.actions)
      if (a.sentence == i)
        a.inProcedure = false;
  }
}

/// "Go back one." - "Step 6. Robot: add 200 microliters ...": a speaker
/// who reads a protocol aloud (a voice assistant, a colleague on the
/// phone) reads a step again when asked ("repeat that", "step 7 again").
/// In a transcript, a turn that opens a step by the number an earlier turn
/// opened reads that step again: its actions that the first reading has
/// (same kind, no value against it) are no steps of their own.
void Reader::markRereadSteps() {
  if (!isTranscript())
    return;
  // "PRIYA (off-panel): STOP.": a speaker's one-word shout stops a person,
  // it adds no stop solution.
  for (Action &a : out_.actions) {
    if (a.sentence >= sentences_.size() || a.hasNumeric())
      continue;
    std::string_view text = sentences_[a.sentence].text;
    // A turn may start inside a sentence whose lines were joined ("Aaand -
    // PRIYA (off-panel): STOP."): the speaker after the last dash.
    size_t colon = text.rfind(": ");
    if (colon != std::string_view::npos) {
      std::string_view head = text.substr(0, colon);
      size_t dash = head.rfind("- ");
      std::string name(trimView(dash == std::string_view::npos ? head : head.substr(dash + 2)));
      if (turnPrefix(name + ": x") > 0)
        text = text.substr(colon + 2);
    }
    text = trimView(text.substr(turnPrefix(text)));
    while (!text.empty() && (text.back() == '.' || text.back() == '!'))
      text.remove_suffix(1);
    if (prose::lowerAscii(text) == "stop")
      a.cls = ActionClass::Note;
  }
  // The step number a sentence opens after its turn's prefix ("Step 6.",
  // "Step 7 again."), or empty.
  auto opensStep = [&](std::string_view text) -> std::string {
    text = text.substr(turnPrefix(text));
    std::vector<Token> toks = prose::tokenize(text.substr(0, std::min<size_t>(text.size(), 24)));
    if (toks.size() >= 2 && toks[0].is("step") && toks[1].isNumber())
      return toks[1].text;
    return "";
  };
  std::vector<std::string> stepOf(sentences_.size());
  std::vector<unsigned> firstUnit(sentences_.size(), 0);
  std::map<std::string, unsigned> firstReading; // step number -> unit
  std::string current;
  for (size_t i = 0; i < sentences_.size(); ++i) {
    const Sentence &sentence = sentences_[i];
    std::string opened = opensStep(sentence.text);
    if (!opened.empty())
      current = opened;
    else if (sentence.firstInUnit)
      current.clear();
    stepOf[i] = current;
    if (!current.empty())
      firstUnit[i] = firstReading.emplace(current, sentence.unit).first->second;
  }
  auto agree = [](const Action &x, const Action &y) {
    if (x.cls != y.cls)
      return false;
    for (size_t p = 0; p < kParamCount; ++p)
      for (const Value &v : x.params[p])
        for (const Value &w : y.params[p])
          if (!(w.admits(v.low) && v.admits(w.low)))
            return false;
    return true;
  };
  for (Action &a : out_.actions) {
    if (a.sentence >= sentences_.size() || stepOf[a.sentence].empty() || !robotClass(a.cls))
      continue;
    unsigned first = firstUnit[a.sentence];
    if (first == sentences_[a.sentence].unit)
      continue;
    bool toldBefore = std::any_of(out_.actions.begin(), out_.actions.end(), [&](const Action &b) {
      return b.unit == first && b.sentence < sentences_.size() &&
             stepOf[b.sentence] == stepOf[a.sentence] && agree(a, b);
    });
    if (toldBefore)
      a.inProcedure = false;
  }
}

/// "6.2 30 s bei 1000 rpm schütteln." over "6.2 Shake for 30 s at 1000
/// rpm.": a bilingual SOP tells each numbered step twice, in two languages,
/// one after the other. Of two neighbouring items with the same label, one
/// whose every value the other states too is the other told again, and no
/// step of its own: the one that opens with a verb the reader knows is
/// kept, else the first.
void Reader::markTranslatedItems() {
  auto valued = [&](unsigned u) {
    std::vector<Action *> out;
    for (Action &a : out_.actions)
      if (a.unit == u && a.hasNumeric())
        out.push_back(&a);
    return out;
  };
  // Whether every value of every action in `x` is stated by some action
  // in `y` (of any kind: a verb one language names and the other does not
  // changes the kind the reader gives it).
  auto within = [](const std::vector<const Action *> &x, const std::vector<const Action *> &y) {
    return std::all_of(x.begin(), x.end(), [&](const Action *a) {
      return std::any_of(y.begin(), y.end(), [&](const Action *b) {
        for (size_t p = 0; p < kParamCount; ++p)
          for (const Value &v : a->params[p])
            if (std::none_of(b->params[p].begin(), b->params[p].end(), [&](const Value &w) {
                  return w.admits(v.low) && v.admits(w.low);
                }))
              return false;
        return true;
      });
    });
  };
  for (unsigned u = 0; u + 1 < out_.units.size(); ++u) {
    const TextUnit &first = out_.units[u], &second = out_.units[u + 1];
    // The reader may have taken the second for a summary of the first (a
    // list told twice); told line by line, they are one step.
    auto toldTwice = [](UnitKind x, UnitKind y) {
      return x == y || (x == UnitKind::Procedure && y == UnitKind::Summary) ||
             (x == UnitKind::Summary && y == UnitKind::Procedure);
    };
    // Each on a line of its own that opens with the label (not the wrapped
    // rest of one item).
    auto ownLine = [&](const TextUnit &unit) {
      uint32_t n = unit.loc.line;
      return n >= 1 && n - 1 < lines_.size() && lines_[n - 1].label == unit.label;
    };
    if (first.label.empty() || first.label != second.label || !toldTwice(first.kind, second.kind) ||
        first.loc.line == second.loc.line || !ownLine(first) || !ownLine(second))
      continue;
    std::vector<Action *> a = valued(u), b = valued(u + 1);
    if (a.empty() || b.empty())
      continue;
    std::vector<const Action *> readA(a.begin(), a.end()), readB(b.begin(), b.end());
    bool firstTold = within(readA, readB), secondTold = within(readB, readA);
    if (!firstTold && !secondTold)
      continue;
    // The reading that opens with a verb the reader knows is the one it
    // understood; else the one that states more.
    bool firstVerb = startsWithVerb(first.text), secondVerb = startsWithVerb(second.text);
    unsigned restated = u + 1;
    if (firstVerb != secondVerb)
      restated = firstVerb ? u + 1 : u;
    else if (firstTold && !secondTold)
      restated = u;
    unsigned kept = restated == u ? u + 1 : u;
    bool procedure = false;
    for (Action &x : out_.actions)
      if (x.unit == u || x.unit == u + 1)
        procedure = procedure || x.inProcedure;
    for (Action &x : out_.actions) {
      if (x.unit == restated)
        x.inProcedure = false;
      else if (x.unit == kept && procedure && !x.weak)
        x.inProcedure = true;
    }
    // "Die Farbe ist danach 60 min stabil." over "The colour is then stable
    // for 60 min.": where the other language's reading found a remark with
    // the same values, the kept one's step is that remark.
    for (Action *x : restated == u ? b : a)
      for (const Action *y : restated == u ? a : b)
        if (y->cls == ActionClass::Note && x->cls != ActionClass::Note &&
            within({x}, {y}) && within({y}, {x}))
          x->cls = ActionClass::Note;
    ++u;
  }
}

/// "Older staff remember the method the ELISA replaced in the 1990s: ... a
/// technician boiled serum with EDTA ... rocked it by hand for 5 minutes
/// ... The cards have not been used in the lab since 1998.": a paragraph
/// about a method no longer used tells its history, no steps.
namespace {

/// Whether a paragraph tells an earlier version of a method: "version"
/// after first, old, earlier, original or previous (or a year before it,
/// "the 2009 version"), and a verb in the past ("was", "were", "pipetted").
bool olderVersion(std::string_view text) {
  std::vector<Token> toks = prose::tokenize(text);
  bool older = false, past = false;
  for (size_t k = 0; k < toks.size(); ++k) {
    if (toks[k].is("version") || toks[k].is("versions"))
      for (size_t j = k; j-- > 0 && j + 4 > k;) {
        const Token &w = toks[j];
        if (w.is("first") || w.is("old") || w.is("older") || w.is("earlier") ||
            w.is("original") || w.is("previous") ||
            (w.isNumber() && w.text.size() == 4 && w.number >= 1900 && w.number <= 2099))
          older = true;
        if (!w.isWord() && !w.isNumber() && !w.isPunct(","))
          break;
      }
    past = past || toks[k].is("was") || toks[k].is("were") ||
           (toks[k].isWord() && toks[k].lower.size() > 4 && toks[k].lower.ends_with("ed") &&
            isAnyVerb(toks[k].lower.substr(0, toks[k].lower.size() - 2)));
  }
  return older && past;
}

} // namespace

void Reader::markDisusedMethods() {
  for (unsigned u = 0; u < out_.units.size(); ++u) {
    if (unitStyle_[u] != 'p')
      continue;
    std::string lower = prose::lowerAscii(out_.units[u].text);
    bool disused = false;
    for (const char *phrase :
         {"no longer used", "not been used", "no longer in use", "is no longer used",
          "are no longer used", "method the", "was replaced by", "were replaced by",
          "has been replaced", "have been replaced", "stopped using", "was abandoned",
          "were abandoned", "would go back to it",
          // "Last assembly (rev. B) used 20 min at 37 C ... - rev. C
          // replaces it."
          "replaces it", "supersedes it", "was superseded", "is superseded",
          // "... read at 540 on the old Unicam. We are not keeping that one."
          "not keeping that", "not keeping this", "not keeping it"})
      disused = disused || lower.find(phrase) != std::string::npos;
    // "the method the ELISA replaced" names an older method; "the method
    // the kit describes" does not.
    if (disused && lower.find("method the") != std::string::npos &&
        lower.find("replaced") == std::string::npos && lower.find("no longer") == std::string::npos &&
        lower.find("not been used") == std::string::npos)
      disused = false;
    // "The first version, 1986, was Malloy-Evelyn: ..., read at 540 on
    // the old Unicam.", "Then 2009 -- the first plate version on the new
    // robot ... the robot pipetted the sera too": a paragraph that tells
    // an earlier version of the method, in the past, before a list that
    // gives the method, is its history.
    // The paragraph's text: its units from the blank line before to the
    // next ("... that was my" / "idea: the robot pipetted ..." is two).
    std::string paragraph;
    {
      unsigned first = u, last = u;
      while (first > 0 && !unitAfterBlank_[first] && unitStyle_[first - 1] == 'p')
        --first;
      while (last + 1 < out_.units.size() && !unitAfterBlank_[last + 1] &&
             unitStyle_[last + 1] == 'p')
        ++last;
      for (unsigned k = first; k <= last; ++k)
        paragraph += out_.units[k].text + " ";
    }
    if (!disused && olderVersion(paragraph)) {
      bool listAfter = false;
      for (const Action &a : out_.actions)
        listAfter = listAfter || (a.unit > u && unitStyle_[a.unit] == 'l' && robotClass(a.cls) &&
                                  !a.weak && a.inProcedure);
      disused = listAfter;
    }
    if (!disused)
      continue;
    for (Action &a : out_.actions)
      if (a.unit == u)
        a.inProcedure = false;
  }
}

/// "v3 incubated 30 min and stopped with 1 M carbonate. v4 is 20 min",
/// "Supersedes rev B (March 2024), which incubated 60 min without
/// shaking", "Last season's run (protocol v1) used 10 uL of neat serum": a
/// clause whose subject is an older version of the method or an earlier
/// run, with its verb in the past, tells what that version did. The
/// values it reports are no steps of this one, whatever the current
/// version's values are.
void Reader::markOlderVersionClauses() {
  static const std::set<std::string, std::less<>> irregularPast = {
      "used", "had", "gave", "ran", "took", "did", "made", "kept", "left", "shook", "put"};
  static const std::set<std::string, std::less<>> versionWords = {
      "rev", "revision", "version", "issue", "edition"};
  static const std::set<std::string, std::less<>> olderWords = {
      "old", "older", "previous", "earlier", "former", "original", "superseded", "outdated"};
  static const std::set<std::string, std::less<>> methodNouns = {
      "method", "methods", "protocol", "procedure", "sop", "version", "kit", "insert",
      "card", "program", "programme", "assay", "run", "runs", "recipe", "edition"};
  static const std::set<std::string, std::less<>> periods = {
      "year", "season", "week", "month", "time", "run", "batch", "lot"};
  auto versionToken = [](const Token &t) {
    return t.isWord() && t.lower.size() >= 2 && t.lower[0] == 'v' &&
           std::all_of(t.lower.begin() + 1, t.lower.end(),
                       [](char c) { return isDigitChar(c) || c == '.'; }) &&
           isDigitChar(t.lower[1]);
  };
  auto pastVerb = [](const Token &t) {
    if (!t.isWord())
      return false;
    if (irregularPast.count(t.lower))
      return true;
    const std::string &w = t.lower;
    if (w.size() < 5 || !w.ends_with("ed"))
      return false;
    // "incubated" from "incubate", "washed" from "wash", "stopped".
    std::string stem = w.substr(0, w.size() - 1);
    std::string bare = w.substr(0, w.size() - 2);
    bool doubled = bare.size() >= 3 && bare[bare.size() - 1] == bare[bare.size() - 2];
    return isAnyVerb(stem) || isAnyVerb(bare) ||
           (doubled && isAnyVerb(bare.substr(0, bare.size() - 1)));
  };
  for (Action &a : out_.actions) {
    if (!a.inProcedure || a.text.empty())
      continue;
    std::vector<Token> toks = prose::tokenize(a.text);
    bool older = false;
    for (size_t k = 0; k < toks.size(); ++k) {
      const Token &t = toks[k];
      if (older && pastVerb(t)) {
        a.inProcedure = false;
        break;
      }
      // A verb of another tense between: the older version is no subject.
      if (older && t.isWord() && isAnyVerb(t.lower))
        older = false;
      bool named = versionToken(t) ||
                   // "rev B", "version 2": a letter or a number names it
                   // ("version of this run" does not).
                   (versionWords.count(t.lower) && k + 1 < toks.size() &&
                    (toks[k + 1].isNumber() ||
                     (toks[k + 1].isWord() && toks[k + 1].text.size() == 1 &&
                      std::isupper(static_cast<unsigned char>(toks[k + 1].text[0]))))) ||
                   (olderWords.count(t.lower) && k + 1 < toks.size() &&
                    methodNouns.count(toks[k + 1].lower)) ||
                   (t.is("last") && k + 1 < toks.size() && periods.count(toks[k + 1].lower));
      older = older || named;
    }
  }
}

/// "Reservoir trough rinsed x3 DI water.", "flush the probe twice with
/// water": a wash of the robot's parts, not of the plate. A part the
/// liquid comes from ("wash 3x with buffer from the trough") or a clause
/// that names the plate, its wells or the cells keeps the wash.
void Reader::markEquipmentCleaning() {
  static const std::set<std::string, std::less<>> parts = {
      "reservoir", "reservoirs", "trough", "troughs", "tubing", "probe", "probes", "needle",
      "needles", "channel", "channels", "manifold", "deck", "tray", "bottle", "bottles",
      "carboy", "nozzle", "nozzles", "syringe", "syringes"};
  static const std::set<std::string, std::less<>> plateWords = {
      "plate", "plates", "well", "wells", "strip", "strips", "cells", "monolayer", "column",
      "columns", "row", "rows"};
  for (Action &a : out_.actions) {
    if (a.cls != ActionClass::Wash || !a.inProcedure || a.text.empty())
      continue;
    std::vector<Token> toks = prose::tokenize(a.text);
    bool plate = std::any_of(toks.begin(), toks.end(),
                             [](const Token &t) { return plateWords.count(t.lower) > 0; });
    // The part is what the verb washes: its object ("flush the probe") or,
    // the verb in the passive, its subject ("Reservoir trough rinsed");
    // "wash 3x on deck" and "on the Forge deck: ... rinse" wash the plate.
    bool part = false;
    for (size_t k = 0; k < toks.size() && !part; ++k) {
      auto verb = verbs().find(toks[k].lower);
      if (verb == verbs().end() || verb->second != ActionClass::Wash)
        continue;
      size_t object = k + 1;
      while (object < toks.size() && object <= k + 3 &&
             (toks[object].is("the") || toks[object].is("each") || toks[object].is("all") ||
              toks[object].is("both") || toks[object].is("its") || toks[object].is("reagent") ||
              toks[object].is("sample") || toks[object].is("wash")))
        ++object;
      part = (object < toks.size() && parts.count(toks[object].lower)) ||
             (k >= 1 && parts.count(toks[k - 1].lower));
    }
    if (part && !plate)
      a.inProcedure = false;
  }
}

/// "[Image description: hand-drawn plate map. Rows A-F labelled "0 / 2 /
/// 5 / 10 / 30 min EGF"]": a post's or page's description of a picture
/// tells what the picture shows (its labels, times and volumes), which
/// the text around it asks for, if anything.
void Reader::markPictureDescriptions() {
  static const std::vector<std::string_view> kinds = {
      "image", "alt text", "alt-text", "photo", "picture", "screenshot", "gif", "video",
      "diagram", "illustration", "drawing", "figure description", "pictogram"};
  struct Span {
    uint32_t line, col, endLine, endCol;
  };
  std::vector<Span> spans;
  // "4   [pictogram: robot arm, drop, "20 uL B"]": after a step's label too.
  for (size_t l = 0; l < lines_.size(); ++l) {
    std::string_view raw = lines_[l].raw;
    for (size_t open = raw.find('['); open != std::string_view::npos;
         open = raw.find('[', open + 1)) {
      std::string head = prose::lowerAscii(raw.substr(open + 1, 40));
      size_t colon = head.find(':');
      bool described = colon != std::string::npos &&
                       std::any_of(kinds.begin(), kinds.end(), [&](std::string_view kind) {
                         return head.rfind(kind, 0) == 0 && colon <= kind.size() + 14;
                       });
      if (!described)
        continue;
      Span span{lines_[l].number, static_cast<uint32_t>(open + 1), 0, 0};
      for (size_t e = l; e < lines_.size() && e < l + 12 && !span.endLine; ++e) {
        std::string_view text = lines_[e].raw;
        size_t close = text.find(']', e == l ? open + 1 : 0);
        if (close != std::string_view::npos)
          span = {span.line, span.col, lines_[e].number, static_cast<uint32_t>(close + 1)};
      }
      if (span.endLine)
        spans.push_back(span);
    }
  }
  auto within = [](const SourceLoc &loc, const Span &span) {
    auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
      return l1 < l2 || (l1 == l2 && c1 <= c2);
    };
    return before(span.line, span.col, loc.line, loc.col) &&
           before(loc.line, loc.col, span.endLine, span.endCol);
  };
  // A copy of a described picture ("Repeat panels 2-3" over a panel
  // whose pictogram says "100 uL B") copies no step either.
  for (Action &a : out_.actions)
    for (const Span &span : spans)
      if (within(a.loc, span) || (a.copiedLoc.isValid() && within(a.copiedLoc, span)))
        a.inProcedure = false;
}

/// Two asides of a show's transcript. "--- AD BREAK --- ... --- END AD
/// BREAK ---" (or up to the next blank line) is a sponsor's read: "refill
/// your tips in thirty seconds, not three minutes" sells tip racks. And a
/// listener's read-back that the speaker cuts off to correct ("RAJ: So a
/// hundred microlitres of enzyme per well --" / "AMA: Ten. Ten
/// microlitres."): the value is the speaker's, the read-back no step.
void Reader::markTranscriptAsides() {
  auto markerWords = [](std::string_view raw) {
    std::string lower = prose::lowerAscii(raw);
    std::string words;
    for (size_t k = 0; k < lower.size(); ++k) {
      char c = lower[k];
      // A timestamp in brackets before the marker.
      if (c == '[' && words.empty()) {
        size_t close = lower.find(']', k);
        if (close != std::string::npos && close - k <= 14 &&
            std::isdigit(static_cast<unsigned char>(lower[k + 1]))) {
          k = close;
          continue;
        }
      }
      if (std::isalpha(static_cast<unsigned char>(c)))
        words += c;
      else if (!words.empty() && words.back() != ' ')
        words += ' ';
    }
    while (!words.empty() && words.back() == ' ')
      words.pop_back();
    return words;
  };
  static const std::set<std::string, std::less<>> breaks = {
      "ad break", "advert break", "advert", "advertisement", "commercial break",
      "sponsor break", "sponsor message", "sponsored segment", "ad read", "ads"};
  std::vector<std::pair<uint32_t, uint32_t>> spans; // lines, inclusive
  for (size_t l = 0; l < lines_.size(); ++l) {
    if (!breaks.count(markerWords(lines_[l].raw)))
      continue;
    size_t end = l + 1;
    bool closed = false;
    for (size_t e = l + 1; e < lines_.size() && e <= l + 15; ++e) {
      std::string words = markerWords(lines_[e].raw);
      if ((words.rfind("end ", 0) == 0 || words.rfind("back from", 0) == 0) &&
          std::any_of(breaks.begin(), breaks.end(),
                      [&](const std::string &b) { return words.find(b) != std::string::npos; })) {
        end = e;
        closed = true;
        break;
      }
    }
    if (!closed) {
      end = l + 1;
      while (end < lines_.size() && lines_[end].blank)
        ++end;
      while (end + 1 < lines_.size() && !lines_[end + 1].blank)
        ++end;
    }
    spans.emplace_back(lines_[l].number, end < lines_.size() ? lines_[end].number : lines_.back().number);
  }
  for (Action &a : out_.actions)
    for (const auto &[first, last] : spans)
      if (a.loc.line >= first && a.loc.line <= last)
        a.inProcedure = false;

  // An untimed dialogue keeps its speakers in the text (a timed one's
  // read-backs went with its timestamps, withTranscriptAsSpeech).
  auto speaker = [](std::string_view text) { return turnSpeaker(text); };
  auto lineOf = [&](unsigned u) -> std::string_view {
    uint32_t line = out_.units[u].loc.line;
    return line >= 1 && line <= lines_.size() ? lines_[line - 1].raw : std::string_view();
  };
  for (unsigned u = 0; u + 1 < out_.units.size(); ++u) {
    std::string_view text = lineOf(u), next = lineOf(u + 1);
    if (out_.units[u].loc.line == out_.units[u + 1].loc.line || turnPrefix(text) == 0 ||
        turnPrefix(next) == 0 || speaker(text) == speaker(next) ||
        !readBackCorrected(text.substr(turnPrefix(text)), next.substr(turnPrefix(next))))
      continue;
    for (Action &a : out_.actions)
      if (a.unit == u)
        a.inProcedure = false;
  }
}

/// "We tried overnight starvation and the cells started lifting off",
/// "We once starved overnight": what was tried once and given up is a
/// story of the lab, not a step of the procedure.
void Reader::markAnecdotes() {
  for (Action &a : out_.actions) {
    if (a.sentence >= sentences_.size())
      continue;
    std::string lower = " " + prose::lowerAscii(sentences_[a.sentence].text) + " ";
    for (char &c : lower)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '\'')
        c = ' ';
    for (const char *story : {" we tried ", " i tried ", " we once ", " i once ", " we used to ",
                              " i used to ", " we ve tried ", " we have tried ", " we've tried "})
      if (lower.find(story) != std::string::npos)
        a.inProcedure = false;
  }
}

/// The unit after a heading's section: the next heading, or the end.
unsigned Reader::sectionEnd(unsigned heading) const {
  unsigned end = heading + 1;
  while (end < out_.units.size() && out_.units[end].kind != UnitKind::Header)
    ++end;
  return end;
}

/// "VARIATION -- "THE DRY ONE" (we don't serve it)" over "Alcohol oxidase
/// + peroxidase + ABTS, 20 min at 37 C, read 405 nm.": a variation or
/// alternative whose heading says it is not used is kept for the record;
/// its section holds no steps.
void Reader::markUnusedVariations() {
  for (unsigned h = 0; h < out_.units.size(); ++h) {
    if (out_.units[h].kind != UnitKind::Header)
      continue;
    std::string lower = prose::lowerAscii(out_.units[h].text);
    if (!hasAnyWord(lower, {"variation", "variant", "alternative", "alternate"}))
      continue;
    bool unused = false;
    for (const char *phrase : {"don't", "do not", "don\xE2\x80\x99t", "not served", "not used",
                               "not in use", "never used", "unused", "not validated"})
      unused = unused || lower.find(phrase) != std::string::npos;
    if (!unused)
      continue;
    unsigned end = sectionEnd(h);
    for (Action &a : out_.actions)
      if (a.unit > h && a.unit < end)
        a.inProcedure = false;
  }
}

/// "ANNEX B (BATTLE DRILL 1 -- WASH AND ADD):" over its items, and
/// "Execute BATTLE DRILL 1 (Annex B) with conjugate." among the orders: an
/// annex, appendix, drill or routine that the text runs by name elsewhere
/// holds steps done where it is named. Each run copies them there (the
/// reagent it names, "with conjugate", into the annex's "named reagent"),
/// and the annex itself, a definition, is no step.
void Reader::markReferencedAnnexes() {
  std::vector<Action> made;
  for (unsigned h = 0; h < out_.units.size(); ++h) {
    if (out_.units[h].kind != UnitKind::Header)
      continue;
    std::string lower = prose::lowerAscii(out_.units[h].text);
    if (!hasAnyWord(lower, {"annex", "appendix", "drill", "routine", "subroutine"}))
      continue;
    // Its names: each part of the heading in brackets or between dashes
    // that has a number ("battle drill 1") or ends in a letter ("annex b").
    std::vector<std::string> names;
    std::string part;
    for (size_t k = 0; k <= lower.size(); ++k) {
      char c = k < lower.size() ? lower[k] : '(';
      bool dash = c == '-' && k + 1 < lower.size() && lower[k + 1] == '-';
      if (c == '(' || c == ')' || c == ':' || dash) {
        std::string name(trimView(part));
        bool numbered = name.find(' ') != std::string::npos &&
                        std::any_of(name.begin(), name.end(), [](char ch) {
                          return std::isdigit(static_cast<unsigned char>(ch));
                        });
        bool lettered = name.size() >= 7 && name.size() <= 12 && name[name.size() - 2] == ' ' &&
                        std::isalpha(static_cast<unsigned char>(name.back()));
        if (numbered || lettered)
          names.push_back(name);
        part.clear();
        if (dash)
          ++k;
        continue;
      }
      part += c;
    }
    if (names.empty())
      continue;
    unsigned end = sectionEnd(h);
    std::vector<size_t> body;
    for (size_t a = 0; a < out_.actions.size(); ++a)
      if (out_.actions[a].unit > h && out_.actions[a].unit < end && !out_.actions[a].weak &&
          robotClass(out_.actions[a].cls))
        body.push_back(a);
    if (body.empty())
      continue;
    bool run = false;
    for (unsigned u = 0; u < out_.units.size(); ++u) {
      if ((u >= h && u < end) || out_.units[u].kind == UnitKind::Header)
        continue;
      std::string text = prose::lowerAscii(out_.units[u].text);
      size_t at = std::string::npos, length = 0;
      for (const std::string &name : names)
        if (size_t found = wordAt(text, name); found < at)
          at = found, length = name.size();
      if (at == std::string::npos)
        continue;
      // "... with conjugate.": the reagent the run names.
      std::vector<std::string> reagent;
      if (size_t with = text.find(" with ", at); with != std::string::npos) {
        for (const Token &t : prose::tokenize(std::string_view(text).substr(with + 6))) {
          if (!t.isWord())
            break;
          reagent.push_back(t.lower);
        }
      }
      unsigned sentence = 0;
      for (unsigned k = 0; k < sentences_.size(); ++k)
        if (sentences_[k].unit == u && sentences_[k].offset <= at)
          sentence = k;
      SourceLoc where = locate(u, at, length);
      for (size_t a : body) {
        Action copy = out_.actions[a];
        copy.copyOf = static_cast<int>(a);
        copy.copiedLoc = copy.loc;
        copy.copiedFrom = names.front();
        copy.loc = where;
        copy.unit = u;
        copy.sentence = sentence;
        copy.text = out_.units[u].text;
        copy.inProcedure = out_.units[u].kind == UnitKind::Procedure;
        copy.orderLoose = false;
        if (!reagent.empty() && (copy.cls == ActionClass::Dispense) &&
            hasAnyWord(prose::lowerAscii(out_.actions[a].text), {"named", "reagent"})) {
          copy.words = reagent;
          copy.liquid = fmt::format("{}", fmt::join(reagent, " "));
        }
        made.push_back(std::move(copy));
        run = true;
      }
    }
    if (run)
      for (size_t a : body)
        out_.actions[a].inProcedure = false;
  }
  insertInTextOrder(std::move(made));
}

/// "10:00-10:30  DEMO ONLY -- extraction of peanut protein ... 15 min on
/// the rotator at 60 °C ... Participants watch": what an agenda or a
/// course shows as a demonstration is done by someone else, before the
/// run, and is no step of it.
void Reader::markDemonstrations() {
  for (unsigned u = 0; u < out_.units.size(); ++u) {
    std::string lower = prose::lowerAscii(out_.units[u].text);
    bool demo = false;
    for (const char *phrase : {"demo only", "demo-only", "demonstration only", "for demonstration",
                               "participants watch", "the audience watches", "(demo)"})
      demo = demo || lower.find(phrase) != std::string::npos;
    if (!demo)
      continue;
    // The slot's lines indented under it ("09:30-10:00  DEMO ONLY - ..."
    // over "             Swabs 2 min in the mouth, ...") are its own.
    unsigned last = u;
    while (last + 1 < out_.units.size() && !unitAfterBlank_[last + 1] &&
           unitIndent_[last + 1] > unitIndent_[u])
      ++last;
    for (Action &a : out_.actions)
      if (a.unit >= u && a.unit <= last)
        a.inProcedure = false;
  }
}

/// "The notebook says "8 uL" -- I dropped the zero. It was 80.", "My
/// worksheet says "20 uL" for the standards, which is wrong.": a value
/// quoted from a record and called wrong beside it is the record's
/// mistake, not a step; the value that was used is told apart. Both are
/// needed: a record quoted without a word against it ("the insert says
/// "30 min"") may be what the reader is to follow.
void Reader::markQuotedMistakes() {
  static const std::set<std::string, std::less<>> recordVerbs = {
      "says", "said", "reads", "shows", "showed", "wrote", "written", "records", "recorded",
      "lists", "listed", "gives", "gave", "states", "stated", "has", "had", "printed"};
  // A record's verb among the last three words before a quotation opens.
  auto recordVerbBefore = [&](std::string_view text) {
    std::vector<Token> before = prose::tokenize(text);
    for (size_t k = before.size(), words = 0; k-- > 0 && words < 3; ++words)
      if (before[k].isWord() && recordVerbs.count(before[k].lower))
        return true;
    return false;
  };
  // Where the value at `loc` stands inside quotation marks that a record
  // verb opens ("says "8 uL"").
  auto quotedFromRecord = [&](const SourceLoc &loc) {
    if (loc.line < 1 || loc.line > lines_.size() || loc.col < 1)
      return false;
    std::string_view raw = lines_[loc.line - 1].raw;
    size_t at = std::min<size_t>(loc.col - 1, raw.size());
    auto quoteBefore = [&](size_t from) -> std::pair<size_t, size_t> { // position, length
      size_t ascii = raw.rfind('"', from);
      size_t curly = raw.rfind("\xE2\x80\x9C", from);
      if (ascii == std::string_view::npos && curly == std::string_view::npos)
        return {std::string_view::npos, 0};
      if (curly == std::string_view::npos || (ascii != std::string_view::npos && ascii > curly))
        return {ascii, 1};
      return {curly, 3};
    };
    auto [open, openLength] = quoteBefore(at);
    if (open == std::string_view::npos) {
      // A quotation opened on the line before ("we printed "read at" /
      // "570 nm". That should have been 575 nm").
      if (loc.line < 2 || raw.find('"') == std::string_view::npos || raw.find('"') < at)
        return false;
      std::string_view previous = lines_[loc.line - 2].raw;
      if (std::count(previous.begin(), previous.end(), '"') % 2 == 0)
        return false;
      return recordVerbBefore(previous.substr(0, previous.rfind('"')));
    }
    std::string_view closing = openLength == 1 ? "\"" : "\xE2\x80\x9D";
    size_t close = raw.find(closing, open + openLength);
    // An ASCII quote before the value must open a span, not close one.
    if (close == std::string_view::npos || close < at ||
        (openLength == 1 &&
         std::count(raw.begin(), raw.begin() + static_cast<long>(open), '"') % 2))
      return false;
    return recordVerbBefore(raw.substr(0, open));
  };
  // "[rev B said 45 min at 40 C - WRONG, ...]": a record's value told
  // without quotation marks, right after the verb that reports it.
  static const std::set<std::string, std::less<>> pastRecordVerbs = {
      "said", "wrote", "printed", "stated", "gave", "had", "listed", "showed"};
  // The words of a value's line before it.
  auto tokensBefore = [&](const SourceLoc &loc) {
    if (loc.line < 1 || loc.line > lines_.size() || loc.col < 1)
      return std::vector<Token>();
    std::string_view raw = lines_[loc.line - 1].raw;
    return prose::tokenize(raw.substr(0, std::min<size_t>(loc.col - 1, raw.size())));
  };
  auto recordVerb = [&](const Token &t) { return t.isWord() && pastRecordVerbs.count(t.lower) > 0; };
  auto toldByRecord = [&](const SourceLoc &loc) {
    std::vector<Token> before = tokensBefore(loc);
    return !before.empty() && recordVerb(before.back());
  };
  // "Old v5 method had 30 min shaking at 700 rpm": a value further on in
  // the clause that the record verb reports.
  auto reportedEarlierOnLine = [&](const SourceLoc &loc) {
    std::vector<Token> before = tokensBefore(loc);
    return std::any_of(before.begin(), before.end(), recordVerb);
  };
  auto callsWrong = [&](const Sentence &sentence) {
    const std::vector<Token> &toks = sentence.tokens;
    for (size_t k = 0; k < toks.size(); ++k) {
      static const std::set<std::string, std::less<>> wrongWords = {
          "wrong", "mistake", "mistaken", "typo", "misprint", "slip", "error", "erroneous",
          "incorrect"};
      if (toks[k].isWord() && wrongWords.count(toks[k].lower))
        return true;
      // "It was 80.", "should be 25", "should read 25": the value that was.
      bool was = (toks[k].is("it") && k + 2 < toks.size() && toks[k + 1].is("was")) ||
                 (toks[k].is("should") && k + 2 < toks.size() &&
                  (toks[k + 1].is("be") || toks[k + 1].is("read")));
      if (was && toks[k + 2].isNumber())
        return true;
      // "That should have been 575 nm".
      if (toks[k].is("should") && k + 3 < toks.size() && toks[k + 1].is("have") &&
          toks[k + 2].is("been") && toks[k + 3].isNumber())
        return true;
    }
    return false;
  };
  auto olderSourceSays = [&](const Action &a, const Value &said) {
    const std::vector<Token> &toks = sentences_[a.sentence].tokens;
    bool older = false;
    for (const Token &t : toks) {
      if (t.isWord() && pastRecordVerbs.count(t.lower))
        break;
      bool version = t.lower.size() >= 2 && (t.lower[0] == 'v') &&
                     std::all_of(t.lower.begin() + 1, t.lower.end(), [](char c) { return isDigitChar(c); });
      older = older || version || t.is("old") || t.is("older") || t.is("previous") ||
              t.is("earlier") || t.is("outdated") || t.is("superseded") || t.is("former");
    }
    if (!older)
      return false;
    Param param = Param::Volume;
    bool found = false;
    for (size_t p = 0; p < kParamCount && !found; ++p)
      for (const Value &v : a.params[p])
        if (&v == &said) {
          param = static_cast<Param>(p);
          found = true;
        }
    // The replacing value: later in the sentence or in the next two.
    for (size_t s = a.sentence; found && s < sentences_.size() && s <= a.sentence + 2; ++s) {
      if (sentences_[s].unit != sentences_[a.sentence].unit)
        break;
      const std::vector<Token> &next = sentences_[s].tokens;
      size_t from = 0;
      if (s == a.sentence) {
        // Past the record verb and the value it reports.
        while (from < next.size() && !(next[from].isWord() && pastRecordVerbs.count(next[from].lower)))
          ++from;
        while (from < next.size() && !next[from].isNumber())
          ++from;
        ++from;
      }
      for (size_t i = from; i < next.size(); ++i)
        if (auto q = prose::quantityAt(next, i, platform_, sentences_[s].text);
            q && paramOf(q->dimension) == param && !said.admits(q->value.low))
          return true;
    }
    return false;
  };
  // The value written first in the text: where a record verb reports it.
  auto earliestValue = [](const Action &action) {
    const Value *first = nullptr;
    for (const auto &values : action.params)
      for (const Value &v : values)
        if (!first || std::make_pair(v.loc.line, v.loc.col) <
                          std::make_pair(first->loc.line, first->loc.col))
          first = &v;
    return first;
  };
  for (Action &a : out_.actions) {
    if (!a.inProcedure || a.sentence >= sentences_.size())
      continue;
    const Value *first = earliestValue(a);
    if (!first)
      continue;
    bool allQuoted = true;
    for (const auto &values : a.params)
      for (const Value &v : values)
        allQuoted = allQuoted && quotedFromRecord(v.loc);
    bool told = allQuoted || toldByRecord(first->loc);
    if (!told && !reportedEarlierOnLine(first->loc))
      continue;
    bool called = false;
    for (size_t s = a.sentence; told && s < sentences_.size() && s <= a.sentence + 2 && !called; ++s)
      called = sentences_[s].unit == sentences_[a.sentence].unit && callsWrong(sentences_[s]);
    // "the v3 printout said 25 uL Nessler here. v4 is 20 uL.": an older
    // version's value, which the next sentence replaces with another.
    if (!called && olderSourceSays(a, *first))
      called = true;
    if (!called)
      continue;
    a.inProcedure = false;
    // "v4 said 50 uL here. WRONG. The kit insert says 100 uL and that is
    // what the program does.": the source quoted next gives the step its
    // right value; the step itself is told where the note stands.
    for (Action &b : out_.actions) {
      if (&b == &a || b.sentence <= a.sentence || b.sentence > a.sentence + 2 ||
          b.unit != a.unit || b.cls != a.cls || !b.inProcedure)
        continue;
      const Value *told = earliestValue(b);
      if (!told)
        continue;
      std::vector<Token> before = tokensBefore(told->loc);
      if (std::any_of(before.begin(), before.end(), [&](const Token &t) {
            return t.isWord() && recordVerbs.count(t.lower) > 0;
          }))
        b.inProcedure = false;
    }
  }
}

/// A deck of numbered items in another order than the work's, with an item
/// that gives the order by their numbers ("[21] Q: In what order do the
/// steps go? A: 6 -> 2 -> 17 -> 10 -> 23 -> 14 -> 3 -> 19"): the steps are
/// the listed items' in that order; the items the list leaves out (theory,
/// safety, an outdated card) and the list itself are no steps.
void Reader::orderByItemList() {
  // Items: lines that open with "[N]", "N." or "N)" at the margin.
  std::map<unsigned, uint32_t> itemLine; // number -> first line
  std::vector<std::pair<uint32_t, unsigned>> starts; // line -> number
  for (const Line &l : lines_) {
    std::string_view raw = l.raw;
    if (raw.empty() || raw.front() == ' ' || raw.front() == '\t')
      continue;
    size_t k = raw.front() == '[' ? 1 : 0;
    size_t digits = k;
    while (k < raw.size() && isDigitChar(raw[k]) && k - digits < 2)
      ++k;
    if (k == digits || k >= raw.size())
      continue;
    bool bracket = digits == 1 && raw[k] == ']';
    bool dotted = digits == 0 && (raw[k] == '.' || raw[k] == ')');
    if (!bracket && !dotted)
      continue;
    unsigned n = static_cast<unsigned>(std::atoi(std::string(raw.substr(digits, k - digits)).c_str()));
    if (itemLine.count(n))
      return; // numbers used twice: no deck
    itemLine[n] = l.number;
    starts.emplace_back(l.number, n);
  }
  if (itemLine.size() < 6)
    return;
  // The order: four or more item numbers joined by arrows, none twice.
  std::vector<unsigned> order;
  uint32_t orderLine = 0;
  for (const Line &l : lines_) {
    std::vector<Token> toks = prose::tokenize(l.raw);
    std::vector<unsigned> run;
    bool arrow = false;
    for (size_t i = 0; i < toks.size(); ++i) {
      if (toks[i].isNumber() && !toks[i].spelled && toks[i].number >= 1 && toks[i].number < 100 &&
          toks[i].number == static_cast<unsigned>(toks[i].number)) {
        unsigned n = static_cast<unsigned>(toks[i].number);
        bool joined = run.empty() || arrow;
        if (!joined || !itemLine.count(n) || std::count(run.begin(), run.end(), n)) {
          if (run.size() > order.size())
            order = run, orderLine = l.number;
          run.clear();
          if (!itemLine.count(n))
            continue;
        }
        run.push_back(n);
        arrow = false;
        continue;
      }
      bool isArrow = toks[i].isPunct("->") || toks[i].text == "\u2192" || toks[i].isPunct("=>") ||
                     (toks[i].isPunct("-") && i + 1 < toks.size() && toks[i + 1].isPunct(">"));
      if (isArrow) {
        arrow = true;
        if (toks[i].isPunct("-"))
          ++i;
        continue;
      }
      if (run.size() > order.size())
        order = run, orderLine = l.number;
      run.clear();
      arrow = false;
    }
    if (run.size() > order.size())
      order = run, orderLine = l.number;
  }
  // A list in the numbers' own order ("columns 1 -> 2 -> 3 -> 4" of a
  // dilution) reorders nothing and is no such list.
  if (order.size() < 4 || std::is_sorted(order.begin(), order.end()))
    return;
  std::sort(starts.begin(), starts.end());
  auto itemOf = [&](uint32_t line) -> std::optional<unsigned> {
    auto after = std::upper_bound(starts.begin(), starts.end(), std::make_pair(line, ~0u));
    if (after == starts.begin())
      return std::nullopt;
    return std::prev(after)->second;
  };
  std::optional<unsigned> listItem = itemOf(orderLine);
  // The list's item says it gives the order ("In what order do the steps
  // go?", "Sequence:").
  if (!listItem)
    return;
  bool saysOrder = false;
  for (const Line &l : lines_)
    if (l.number >= itemLine[*listItem] && l.number <= orderLine) {
      std::string lower = prose::lowerAscii(l.raw);
      saysOrder = saysOrder || lower.find("order") != std::string::npos ||
                  lower.find("sequence") != std::string::npos;
    }
  if (!saysOrder)
    return;
  // The items the list leaves out go, with the list: an outdated card's
  // "3 minutes" left in place would still pair with the stand it gave up.
  std::vector<std::pair<int, size_t>> rank;
  for (size_t k = 0; k < out_.actions.size(); ++k) {
    std::optional<unsigned> item = itemOf(out_.actions[k].loc.line);
    int r = 0;
    if (item) {
      auto at = std::find(order.begin(), order.end(), *item);
      if (at == order.end() || item == listItem)
        continue;
      r = static_cast<int>(at - order.begin()) + 1;
    }
    rank.emplace_back(r, k);
  }
  keepActionsByRank(std::move(rank));
}

/// "3. CORRECTED TEXT (replaces 9.7 and 9.8; all other steps of section 9
/// are unchanged)" over "9.7 Add 100 uL ... 9.8 Wash 5 times as in 9.6": the
/// items under a heading that corrects, labelled as items of the procedure
/// above it, take those items' places; the items as first printed are
/// history (a field safety notice, an erratum, an amended SOP).
void Reader::markReplacedItems() {
  for (size_t h = 0; h < out_.units.size(); ++h) {
    if (out_.units[h].kind != UnitKind::Header ||
        !hasAnyWord(prose::lowerAscii(out_.units[h].text),
                    {"corrected", "correction", "corrections", "replaces", "replace",
                     "replacement", "amended", "amendment", "revised", "erratum", "errata",
                     "corrigendum", "corrigenda"}))
      continue;
    size_t end = h + 1;
    while (end < out_.units.size() && out_.units[end].kind != UnitKind::Header)
      ++end;
    std::map<unsigned, unsigned> replacing; // printed unit -> its replacement
    for (size_t u = h + 1; u < end; ++u) {
      const std::string &label = out_.units[u].label;
      if (label.empty())
        continue;
      for (size_t o = h; o-- > 0;)
        if (out_.units[o].label == label && out_.units[o].kind == UnitKind::Procedure) {
          replacing.emplace(static_cast<unsigned>(o), static_cast<unsigned>(u));
          break;
        }
    }
    if (replacing.empty())
      continue;
    std::set<unsigned> replacements;
    for (const auto &[printed, replacement] : replacing)
      replacements.insert(replacement);
    // Each replacement's actions stand where the printed item's stood.
    std::vector<std::pair<int, size_t>> rank;
    int next = 0;
    std::set<unsigned> placed;
    for (size_t k = 0; k < out_.actions.size(); ++k) {
      Action &a = out_.actions[k];
      if (replacements.count(a.unit))
        continue;
      auto printed = replacing.find(a.unit);
      if (printed != replacing.end() && placed.insert(printed->second).second)
        for (size_t r = 0; r < out_.actions.size(); ++r)
          if (out_.actions[r].unit == printed->second)
            rank.emplace_back(next++, r);
      if (printed != replacing.end()) {
        a.inProcedure = false;
        a.superseded = true;
      }
      rank.emplace_back(next++, k);
    }
    // A replacement of an item with no action of its own stays where it is.
    for (size_t r = 0; r < out_.actions.size(); ++r)
      if (replacements.count(out_.actions[r].unit) &&
          !placed.count(out_.actions[r].unit)) {
        auto at = std::find_if(rank.begin(), rank.end(), [&](const auto &x) {
          return x.second > r;
        });
        rank.insert(at, {0, r});
      }
    for (size_t i = 0; i < rank.size(); ++i)
      rank[i].first = static_cast<int>(i);
    keepActionsByRank(std::move(rank));
  }
}

/// A cover note before the procedure that corrects it ahead ("Corrections
/// to what you'll see: - step 4: it's 37 C, not 31 C - step 5: substrate
/// time is 3 min (looks like an 8 on our copy)", a fax's garbled page):
/// its items are no steps, and the steps they name by number, later in the
/// text, may not keep the values the page shows.
void Reader::markCoverCorrections() {
  // "* Slip inserted 12 June: menus printed before this date said 100 uL
  // for course V ... it is 50 uL", "ERRATUM: step 7 should read 90 min":
  // an erratum ahead of the procedure states a step's value, the step
  // itself is told below.
  // The slip's heading ("CORRECTION SLIP (inserted after printing)")
  // covers the lines under it up to a blank line.
  bool underSlip = false;
  // "please read ONE HUNDRED microlitres of sodium carbonate, not fifty":
  // the printed value that the slip takes back, for a step of its kind.
  struct TakenBack {
    ActionClass cls;
    Param param;
    double printed; ///< canonical units
  };
  std::vector<TakenBack> takenBack;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    if (std::any_of(out_.actions.begin(), out_.actions.end(), [&](const Action &a) {
          return a.unit < u && a.inProcedure && !a.weak && robotClass(a.cls);
        }))
      break;
    std::string lower = prose::lowerAscii(out_.units[u].text);
    bool erratum = false;
    for (const char *word : {"erratum", "errata", "corrigendum", "misprint", "correction slip",
                             "slip inserted", "inserted slip", "slip enclosed"})
      erratum |= lower.find(word) != std::string::npos;
    if (unitAfterBlank_[u])
      underSlip = false;
    underSlip = underSlip || erratum;
    if (!underSlip || !out_.units[u].label.empty())
      continue;
    for (Action &a : out_.actions) {
      if (a.unit != u)
        continue;
      a.inProcedure = false;
      if (!robotClass(a.cls) || a.sentence >= sentences_.size())
        continue;
      const std::vector<Token> &toks = sentences_[a.sentence].tokens;
      for (size_t p = 0; p < kParamCount; ++p) {
        if (a.params[p].size() != 1 || !a.params[p][0].exact())
          continue;
        const Value &stated = a.params[p][0];
        std::vector<Token> written = prose::tokenize(stated.text);
        if (written.empty() || !written[0].isNumber() || written[0].number <= 0)
          continue;
        double scale = stated.low / written[0].number;
        for (size_t k = 0; k + 1 < toks.size(); ++k)
          if (toks[k].is("not") && toks[k + 1].isNumber() &&
              std::fabs(toks[k + 1].number - written[0].number) > 1e-9)
            takenBack.push_back({a.cls, static_cast<Param>(p), toks[k + 1].number * scale});
      }
    }
  }
  for (const TakenBack &back : takenBack)
    for (Action &a : out_.actions) {
      if (a.cls != back.cls || !a.inProcedure)
        continue;
      const std::vector<Value> &values = a.params[static_cast<size_t>(back.param)];
      if (std::any_of(values.begin(), values.end(), [&](const Value &v) {
            return v.exact() && v.admits(back.printed);
          })) {
        a.superseded = true;
        a.supersededValuesOnly = true;
      }
    }
  for (size_t u = 0; u < out_.units.size(); ++u) {
    std::string lower = prose::lowerAscii(trimView(out_.units[u].text));
    if (lower.empty() || lower.back() != ':' ||
        (lower.find("corrections") == std::string::npos &&
         lower.find("correction to") == std::string::npos))
      continue;
    // Ahead of the procedure: no step above it.
    if (std::any_of(out_.actions.begin(), out_.actions.end(), [&](const Action &a) {
          return a.unit <= u && a.inProcedure && !a.weak && robotClass(a.cls);
        }))
      return;
    std::set<std::string> named;
    size_t end = u + 1;
    for (; end < out_.units.size() && !unitAfterBlank_[end]; ++end) {
      std::vector<Token> toks = prose::tokenize(out_.units[end].text);
      for (size_t k = 0; k + 1 < toks.size(); ++k)
        if (toks[k].is("step") && toks[k + 1].isNumber())
          named.insert(toks[k + 1].text);
      for (Action &a : out_.actions)
        if (a.unit == end)
          a.inProcedure = false;
    }
    for (Action &a : out_.actions)
      if (a.unit >= end && a.unit < out_.units.size() && named.count(out_.units[a.unit].label) &&
          robotClass(a.cls)) {
        a.superseded = true;
        a.supersededValuesOnly = true;
      }
    return;
  }
}

/// "k50 CC into sts 1-10.  [40 sts, 100 uL each]": a pattern's count in
/// brackets at the end of its row tells what the row leaves (40 stitches,
/// 100 uL in each), not another addition. A bracket that opens with a
/// count of things (a number and a word that is no unit) is one.
void Reader::markRunningTallies() {
  for (Action &a : out_.actions) {
    if (a.loc.line < 1 || a.loc.line > lines_.size())
      continue;
    std::string_view raw = lines_[a.loc.line - 1].raw;
    size_t at = std::min<size_t>(a.loc.col ? a.loc.col - 1 : 0, raw.size());
    size_t open = raw.rfind('[', at);
    size_t close = raw.find(']', at);
    if (open == std::string_view::npos || close == std::string_view::npos ||
        raw.find_first_not_of(" \t\r", close + 1) != std::string_view::npos ||
        raw.find(']', open) != close)
      continue;
    std::vector<Token> toks = prose::tokenize(raw.substr(open + 1, close - open - 1));
    if (toks.size() < 2 || !toks[0].isNumber() || !toks[1].isWord() || toks[1].is("x") ||
        toks[1].is("times") || proseUnit(toks[1].text) || isAnyVerb(toks[1].lower))
      continue;
    a.inProcedure = false;
  }
}

/// "... goes three times with 250 microlitres of wash buffer." then
/// "Three washes, the wells are empty.": a count with no verb that
/// follows a step of its kind with the same count, nothing done between
/// and no word that asks for more ("three more washes", "again"), says
/// what was just done.
void Reader::markCountRestatements() {
  auto asksForMore = [](const std::string &text) {
    return hasAnyWord(prose::lowerAscii(text), {"more", "again", "another", "further",
                                                "additional", "repeat", "second", "third",
                                                "final", "last", "then", "next"});
  };
  for (size_t i = 1; i < out_.actions.size(); ++i) {
    Action &a = out_.actions[i];
    // Only the count is its own: the rest came from the wash before.
    if (a.cls != ActionClass::Wash || a.imperative || a.weak || !a.has(Param::Cycles) ||
        !a.filledFrom.isValid() || a.copyOf >= 0 || asksForMore(a.text))
      continue;
    for (size_t k = i; k-- > 0;) {
      const Action &before = out_.actions[k];
      if (before.sentence + 3 < a.sentence)
        break;
      if (before.cls == ActionClass::Wash && !before.weak && before.inProcedure &&
          allAdmittedBy(a.values(Param::Cycles), before.values(Param::Cycles)) &&
          allAdmittedBy(before.values(Param::Cycles), a.values(Param::Cycles))) {
        a.weak = true;
        break;
      }
      // Work done between: the count is another round of it.
      if (robotClass(before.cls) && before.cls != ActionClass::Wash && !before.weak &&
          before.cls != ActionClass::Note)
        break;
    }
  }
}

std::optional<unsigned> Reader::labelBefore(const std::string &label, unsigned unit) const {
  auto it = labelUnits_.find(label);
  if (it == labelUnits_.end())
    return std::nullopt;
  std::vector<unsigned> defs;
  for (unsigned u : it->second)
    if (u < unit)
      defs.push_back(u);
  if (defs.empty())
    return std::nullopt;
  auto procedure = [&](unsigned u) { return out_.units[u].kind == UnitKind::Procedure; };
  // The first of the procedure: "as in 5.5" means the procedure's 5.5, not
  // a row "5.5" of a revision history or a table of contents before it.
  unsigned chosen = defs.front();
  for (unsigned u : defs)
    if (procedure(u)) {
      chosen = u;
      break;
    }
  // A later list that numbers again from its start ("3." of the reagent
  // preparation, then "1.", "2.", "3." of the procedure) is the one meant
  // below it. Its start must lie between the two ("(i)" at the start of a
  // wrapped line is no new list), or, for a reference to a list's first
  // step, its second step must follow.
  bool numeric = std::all_of(label.begin(), label.end(),
                             [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  bool letter = label.size() == 1 && std::islower(static_cast<unsigned char>(label[0]));
  bool roman = !numeric && !letter && romanNumeral(label);
  if (!numeric && !letter && !roman)
    return chosen;
  std::string firstLabel = numeric ? "1" : letter ? "a" : "i";
  std::string secondLabel = numeric ? "2" : letter ? "b" : "ii";
  auto labelledBetween = [&](const std::string &wanted, unsigned from, unsigned to) {
    auto found = labelUnits_.find(wanted);
    return found != labelUnits_.end() &&
           std::any_of(found->second.begin(), found->second.end(),
                       [&](unsigned u) { return u > from && u < to; });
  };
  for (unsigned d : defs) {
    if (d <= chosen || (!procedure(d) && procedure(chosen)))
      continue;
    bool restarted = label != firstLabel ? labelledBetween(firstLabel, chosen, d)
                                         : labelledBetween(secondLabel, d, unit);
    if (restarted)
      chosen = d;
  }
  return chosen;
}

/// A blog post's or a wiki page's comments ("27 COMMENTS", "Comments (4)",
/// "Leave a reply"): readers' variants and the author's answers, no steps
/// of the procedure (their values are still stated). A comment that cites
/// a step by its label ("step 11 is a leftover from the old version ...
/// 150 uL of DMSO") with a value of a dimension the step states, and a
/// different value, amends the step: its values may not be the ones run.
void Reader::markCommentSection() {
  auto opensComments = [](std::string_view raw) {
    std::string words;
    for (char c : prose::lowerAscii(trimView(raw)))
      if (std::isalnum(static_cast<unsigned char>(c)) || c == ' ')
        words += c;
    std::string_view w = trimView(words);
    while (!w.empty() && (std::isdigit(static_cast<unsigned char>(w.front())) || w.front() == ' '))
      w.remove_prefix(1);
    while (!w.empty() && (std::isdigit(static_cast<unsigned char>(w.back())) || w.back() == ' '))
      w.remove_suffix(1);
    if (w == "comments" || w == "comment" || w == "reader comments" || w == "responses" ||
        w == "replies" || w == "leave a reply" || w == "leave a comment")
      return true;
    // A post's tally of reactions: "👍❤️ 412 • 37 comments • 9 reposts".
    static const std::set<std::string, std::less<>> tally = {
        "comments", "comment", "reposts", "repost", "shares", "share", "likes",
        "reactions", "views", "retweets", "replies"};
    std::vector<Token> toks = prose::tokenize(w);
    bool comments = false;
    for (const Token &t : toks) {
      if (t.isNumber())
        continue;
      if (!t.isWord() || !tally.count(t.lower))
        return false;
      comments |= t.is("comments") || t.is("comment");
    }
    return comments;
  };
  uint32_t from = 0;
  for (const Line &line : lines_)
    if (opensComments(line.raw)) {
      from = line.number;
      break;
    }
  // Readers comment on what is above: a "Comments:" field of a fax's or a
  // form's cover, before any step, opens no comments.
  auto stepsAbove = [&](uint32_t line) {
    return std::count_if(out_.actions.begin(), out_.actions.end(), [&](const Action &a) {
      return a.loc.line < line && robotClass(a.cls) && a.inProcedure && !a.weak;
    });
  };
  // Comments under a post, each with its "Like · Reply" line: from the
  // first comment's header below the post's steps.
  if (from == 0 && socialComments_)
    for (const Line &line : lines_)
      if (opensCommentHeader(line.raw) && stepsAbove(line.number) >= 2) {
        from = line.number;
        break;
      }
  if (from == 0 || stepsAbove(from) < 2)
    return;
  // The steps before it, by label.
  std::map<std::string, std::vector<size_t>, std::less<>> labelled;
  for (size_t u = 0; u < out_.units.size(); ++u)
    if (out_.units[u].loc.line < from && !out_.units[u].label.empty())
      labelled[out_.units[u].label].push_back(u);
  for (size_t u = 0; u < out_.units.size(); ++u) {
    if (out_.units[u].loc.line <= from)
      continue;
    for (Action &a : out_.actions)
      if (a.unit == u)
        a.inProcedure = false;
    std::vector<Token> toks = prose::tokenize(out_.units[u].text);
    // The comment's paragraph from this unit on: a quoted reply ("> ...")
    // is a unit per line.
    std::string paragraph;
    for (uint32_t n = out_.units[u].loc.line; n >= 1 && n - 1 < lines_.size(); ++n) {
      std::string_view raw = trimView(lines_[n - 1].raw);
      while (!raw.empty() && raw.front() == '>')
        raw = trimView(raw.substr(1));
      if (raw.empty())
        break;
      paragraph += std::string(raw) + " ";
    }
    std::vector<ProseQuantity> stated = proseQuantities(paragraph, platform_);
    for (size_t k = 0; k + 1 < toks.size(); ++k) {
      if (!(toks[k].is("step") && toks[k + 1].isNumber()))
        continue;
      auto it = labelled.find(toks[k + 1].text);
      if (it == labelled.end())
        continue;
      for (size_t target : it->second)
        for (Action &a : out_.actions) {
          if (a.unit != target || !robotClass(a.cls))
            continue;
          for (const ProseQuantity &q : stated)
            for (size_t p = 0; p < kParamCount; ++p)
              for (const Value &v : a.params[p])
                if (paramDimension(static_cast<Param>(p)) == q.dimension && !v.admits(q.value.low))
                  a.superseded = true;
        }
    }
  }
}

/// A run's log pasted as the protocol ("2025-02-11 08:58:03 | system |
/// STEP_START | step 7 "shake 30 s at 600 rpm"", then "SHK.Shake |
/// rpm=600 seconds=30", "PROMPT_CONFIRM | elapsed 18 min 45 s", "STEP_END
/// | step 10; delay 5 min 54 s on wells 113-126"): where some of its
/// timestamped records quote the steps the run was given, those are the
/// steps. The other records tell how the machine did them (device
/// commands, confirmations, waits, errors), and what they seem to ask is
/// no step of its own; their values are still stated. A log that quotes
/// no step is read as before.
void Reader::markRunRecords() {
  auto timestamped = [](std::string_view raw) {
    raw = trimView(raw);
    for (size_t k = 0; k + 8 <= raw.size() && k <= 24; ++k) {
      auto digit = [&](size_t at) { return isDigitChar(raw[at]); };
      if (digit(k) && digit(k + 1) && raw[k + 2] == ':' && digit(k + 3) && digit(k + 4) &&
          raw[k + 5] == ':' && digit(k + 6) && digit(k + 7))
        return true;
      // Only a date, a "T", a bracket or a table's pipe may stand before
      // the time.
      if (!isDigitChar(raw[k]) && std::string_view("-/. T|[").find(raw[k]) == std::string_view::npos)
        return false;
    }
    return false;
  };
  auto quotes = [](std::string_view text) {
    size_t open = text.find('"');
    if (open != std::string_view::npos && text.find('"', open + 1) != std::string_view::npos)
      return true;
    return text.find("\u201c") != std::string_view::npos;
  };
  std::vector<size_t> records;
  unsigned quoting = 0;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    uint32_t line = out_.units[u].loc.line;
    if (line == 0 || line > lines_.size() || !timestamped(lines_[line - 1].raw))
      continue;
    if (quotes(out_.units[u].text))
      ++quoting;
    else
      records.push_back(u);
  }
  if (quoting < 2 || records.size() + quoting < 5)
    return;
  for (size_t u : records)
    for (Action &a : out_.actions)
      if (a.unit == u)
        a.inProcedure = false;
}

/// "Can you set this up as a method, same as this run except:" over a
/// numbered list ("1. 37 C incubation 20 min instead of 30 min", "2. Leave
/// out the pre-read"), with the run's steps below or above it: the items
/// amend the steps told elsewhere, as a section of deviations does. They
/// are no steps in the procedure's order (their values are stated), and
/// the steps of the kinds they change may not be run with the values the
/// text gives them, so those draw no certain finding. Only a lead-in that
/// says the rest stays the same ("same as", "as before", "as in",
/// "identical to") counts: "All incubations at RT except:" lists steps.
void Reader::markExceptions() {
  for (size_t lead = 0; lead + 1 < out_.units.size(); ++lead) {
    std::string lower = prose::lowerAscii(trimView(out_.units[lead].text));
    if (lower.empty() || lower.back() != ':')
      continue;
    size_t except = lower.rfind("except");
    if (except == std::string::npos || lower.find_first_not_of(" ,", except + 6) != lower.size() - 1)
      continue;
    std::string before = lower.substr(0, except);
    if (!hasAnyWord(before, {"same as", "as before", "as in", "as last", "identical to",
                             "identical with", "the same"}))
      continue;
    std::set<ActionClass> kinds;
    size_t end = lead + 1;
    while (end < out_.units.size() && !out_.units[end].label.empty() &&
           out_.units[end].kind != UnitKind::Header)
      ++end;
    if (end == lead + 1)
      continue;
    auto inItems = [&](const Action &a) { return a.unit > lead && a.unit < end; };
    // Amendments to nothing (the text's only steps are in them) are the
    // procedure.
    if (std::none_of(out_.actions.begin(), out_.actions.end(), [&](const Action &a) {
          return !inItems(a) && a.unit != lead && a.inProcedure && !a.weak && robotClass(a.cls);
        }))
      continue;
    for (Action &a : out_.actions) {
      if (!inItems(a))
        continue;
      if (robotClass(a.cls))
        kinds.insert(a.cls);
      a.inProcedure = false;
    }
    for (Action &a : out_.actions)
      if (!inItems(a) && a.unit != lead && kinds.count(a.cls))
        a.superseded = true;
    return;
  }
}

/// A method transfer or a comparison written as tagged paragraphs, step by
/// step: "Site A: Wash 3x with 300 µL on the BioTek washer ..." then "Site
/// B (BioForge-1): Wash 3x with 90 µL on deck ...". Where one tag, used on
/// two paragraphs or more, names the platform (or the robot) and the
/// others, just as often used, do not, the other versions are told for
/// comparison: their steps are not the procedure's (their values are
/// still stated). A paragraph runs from its tag to the next tag or
/// heading.
void Reader::markOtherSitesVersions() {
  auto tagOf = [](std::string_view text) -> std::pair<std::string, std::string> {
    text = trimView(text);
    size_t colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 40)
      return {};
    std::string tag = prose::lowerAscii(trimView(text.substr(0, colon)));
    size_t space = tag.find(' ');
    if (space == std::string::npos)
      return {};
    std::string head = tag.substr(0, space);
    if (!std::all_of(head.begin(), head.end(),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }) ||
        wordCount(tag) > 5)
      return {};
    return {head, tag.substr(space + 1)};
  };
  auto namesPlatform = [](const std::string &variant) {
    return hasAnyWord(variant, {"bioforge", "bioforge-1", "bf-1", "bf1", "robot", "robotic",
                                "workstation", "automated", "automation", "liquid handler"});
  };
  // Versions are tagged alike: "Site A" and "Site B", "Core lab" and
  // "Automation lab (BioForge-1)". A tag that gives work to hands ("By
  // hand:", "Manual:") beside "Robot:" tells who does which step.
  static const std::set<std::string, std::less<>> kinds = {
      "site", "lab", "laboratory", "unit", "method", "version", "facility", "centre",
      "center", "team", "group", "protocol", "procedure"};
  std::map<std::string, std::map<std::string, std::vector<size_t>>> byHead;
  for (size_t u = 0; u < out_.units.size(); ++u) {
    auto [head, variant] = tagOf(out_.units[u].text);
    if (head.empty())
      continue;
    std::string tag = head + " " + variant;
    if (hasAnyWord(tag, {"hand", "manual", "manually", "bench", "operator", "person", "by hand"}))
      continue;
    byHead[head][tag].push_back(u);
    for (const std::string &word : kinds)
      if (word != head && hasWord(tag, word))
        byHead[word][tag].push_back(u);
  }
  for (const auto &[head, variants] : byHead) {
    if (variants.size() < 2)
      continue;
    std::vector<std::string> platform, other;
    bool often = true;
    for (const auto &[variant, units] : variants) {
      often = often && units.size() >= 2;
      (namesPlatform(variant) ? platform : other).push_back(variant);
    }
    if (!often || platform.size() != 1 || other.empty())
      continue;
    std::vector<bool> tagged(out_.units.size(), false), others(out_.units.size(), false);
    for (const auto &[variant, units] : variants)
      for (size_t u : units) {
        tagged[u] = true;
        others[u] = variant != platform.front();
      }
    bool inOther = false;
    for (size_t u = 0; u < out_.units.size(); ++u) {
      if (tagged[u])
        inOther = others[u];
      else if (out_.units[u].kind == UnitKind::Header || out_.units[u].tableRow)
        inOther = false;
      if (!inOther)
        continue;
      for (Action &a : out_.actions)
        if (a.unit == u)
          a.inProcedure = false;
    }
    return;
  }
}

/// "(b) HepG2 ..., passages 8-20. Column 2 (B2-M2): cell-free blank, 40 µL
/// complete medium without cells." below a table whose row reads "Seed
/// cells(b)": a footnote. It tells more about the step that carries its
/// mark (what the blank wells get, who does it, which instrument), in the
/// words of a remark, so what it seems to ask is no step of its own in the
/// procedure's order. A lettered item is a footnote only where its mark
/// "(b)" stands earlier inside a line, after a word or a value; steps
/// lettered "(a)", "(b)" at the starts of lines are steps.
void Reader::markFootnotes() {
  std::map<uint32_t, size_t> unitAtLine;
  for (size_t u = 0; u < out_.units.size(); ++u)
    unitAtLine.emplace(out_.units[u].loc.line, u);
  for (const Line &line : lines_) {
    std::string_view raw = trimView(line.raw);
    // "(a)" .. "(h)", or "(1)" .. "(9)" where the mark sits glued to a word
    // ("at thirty-seven(5)"): a number in brackets after a space is a
    // list's label or a reference ("as in (1)").
    bool letter = raw.size() >= 4 && raw[1] >= 'a' && raw[1] <= 'h';
    bool digit = raw.size() >= 4 && raw[1] >= '1' && raw[1] <= '9';
    if (raw.size() < 4 || raw[0] != '(' || raw[2] != ')' || !(letter || digit) ||
        (raw[3] != ' ' && raw[3] != '\t'))
      continue;
    auto unit = unitAtLine.find(line.number);
    if (unit == unitAtLine.end() || out_.units[unit->second].label != std::string(1, raw[1]))
      continue;
    std::string mark(raw.substr(0, 3));
    bool marked = false;
    uint32_t markedLine = 0;
    for (const Line &earlier : lines_) {
      if (earlier.number >= line.number || marked)
        break;
      std::string_view t = trimView(earlier.raw);
      for (size_t at = t.find(mark, 1); at != std::string_view::npos && !marked;
           at = t.find(mark, at + 1))
        marked = letter ? !std::isdigit(static_cast<unsigned char>(t[at - 1]))
                        : std::isalpha(static_cast<unsigned char>(t[at - 1])) != 0;
      if (marked)
        markedLine = earlier.number;
    }
    if (!marked)
      continue;
    for (Action &a : out_.actions)
      if (a.unit == unit->second)
        a.inProcedure = false;
    // "(5) CORRECTION: ... Incubate 30 min at 37 C.": a note that corrects
    // the marked step. Its values may not be the ones the lab runs.
    // Not a "wavelength correction": the word as a heading ("CORRECTION:").
    std::string lower = prose::lowerAscii(out_.units[unit->second].text);
    std::vector<Token> noteToks = prose::tokenize(lower);
    bool heading = false;
    for (size_t k = 0; k + 1 < noteToks.size(); ++k)
      heading = heading || (noteToks[k].is("correction") && noteToks[k + 1].isPunct(":"));
    if (heading || hasAnyWord(lower, {"corrected", "should read", "erratum", "wrong"}))
      for (Action &a : out_.actions)
        if (a.loc.line == markedLine && a.inProcedure && robotClass(a.cls)) {
          a.superseded = true;
          a.supersededValuesOnly = true;
        }
  }
}

/// "----- THE PROCEDURE AS WE RUN IT NOW (run 4 onwards) -----" after the
/// story of three runs that went wrong, "Corrected procedure" after an
/// incident report: a heading that names the procedure to run now makes
/// the steps told before it history, whose values and order are those of
/// runs that are over. They are no steps of the procedure; their values
/// are still stated. Only a heading counts, with a word for a procedure
/// and one for now ("Final steps" is the last of them, not a version), and
/// only where the procedure after it has robot steps of its own.
void Reader::markCurrentProcedure() {
  auto announces = [](const std::string &lower) {
    return hasAnyWord(lower, {"procedure", "protocol", "method", "version", "steps"}) &&
           hasAnyWord(lower, {"now", "from now on", "current", "currently", "corrected",
                              "revised", "updated", "final version", "final procedure",
                              "final protocol", "final method", "that works", "we use",
                              "we run"});
  };
  // A line in capitals between rules ("----- THE PROCEDURE AS WE RUN IT
  // NOW -----") heads what follows as a heading line does.
  auto headingLike = [&](const TextUnit &unit) {
    if (unit.kind == UnitKind::Header)
      return true;
    if (unit.text.size() > 100 || unit.text.find('\n') != std::string::npos)
      return false;
    size_t letters = 0, upper = 0;
    for (char c : unit.text)
      if (std::isalpha(static_cast<unsigned char>(c))) {
        ++letters;
        upper += std::isupper(static_cast<unsigned char>(c)) != 0;
      }
    return letters >= 8 && upper * 10 >= letters * 7;
  };
  // "CORRECTED TEXT (replaces 9.7 and 9.8; all other steps are unchanged)"
  // corrects some items of the procedure (markReplacedItems), it does not
  // announce a procedure of its own.
  auto replacesItems = [](const std::string &lower) {
    if (hasAnyWord(lower, {"unchanged"}))
      return true;
    std::vector<Token> toks = prose::tokenize(lower);
    for (size_t k = 0; k + 1 < toks.size(); ++k)
      if ((toks[k].is("replaces") || toks[k].is("replace")) &&
          (toks[k + 1].isNumber() || toks[k + 1].is("step") || toks[k + 1].is("steps") ||
           toks[k + 1].is("items") || toks[k + 1].is("item")))
        return true;
    return false;
  };
  size_t begin = out_.units.size();
  for (size_t u = 1; u < out_.units.size() && begin == out_.units.size(); ++u)
    if (headingLike(out_.units[u]) && announces(prose::lowerAscii(out_.units[u].text)) &&
        !replacesItems(prose::lowerAscii(out_.units[u].text)))
      begin = u;
  if (begin == out_.units.size())
    return;
  auto step = [&](const Action &a) { return a.inProcedure && !a.weak && robotClass(a.cls); };
  // A procedure after the heading that restates steps told before it (a
  // comparison table, then "FINAL METHOD" with the same steps as a list)
  // was taken for the table's summary; the heading makes it the procedure,
  // and the table its history.
  std::vector<size_t> restored;
  for (size_t k : restatingActions_)
    if (out_.actions[k].unit > begin)
      restored.push_back(k);
  bool after = false, before = false;
  for (const Action &a : out_.actions) {
    after |= a.unit > begin && step(a);
    before |= a.unit < begin && step(a);
  }
  for (size_t k : restored)
    after |= !out_.actions[k].weak && robotClass(out_.actions[k].cls);
  if (!after || !before)
    return;
  for (Action &a : out_.actions)
    if (a.unit < begin)
      a.inProcedure = false;
  for (size_t k : restored) {
    out_.actions[k].inProcedure = true;
    out_.units[out_.actions[k].unit].kind = UnitKind::Procedure;
  }
}

/// "Everything in one 384-well plate, 50 ul final, read on the BioForge at
/// 405 nm" above a table or a numbered list of the steps: a read in a
/// paragraph before the list's first step that a read of the list tells
/// again (a value in common, none in conflict) is the summary of an
/// introduction, with no place in the time order to be out of. Only where
/// the procedure is a list (three steps or more in list items or table
/// rows); other steps of such a paragraph keep their place ("Coat the
/// plate overnight at 4 °C" above the second day's list).
/// "Washer: run P3", "Shaker: program S2", "Reader: ELISA-450 protocol",
/// with a table at the end whose rows define the lab's saved programs
/// ("| P3 | Washer | 3 cycles x 60 µL wash buffer, no soak |"): the rows
/// are definitions, no steps of their own (their values are stated), and
/// each step that runs a program does what its row says, in the place it
/// names it. A table is such a legend when three or more of its rows'
/// first cells are run by name in units outside it, after a word that
/// runs a program ("run", "program", "protocol", "template") or before
/// one. A step that already says some of it ("run D80 with block/
/// diluent", an addition without its volume) takes the row's values; a
/// row that does several things is a guess at which the step means.
void Reader::resolveProgramReferences() {
  auto firstCell = [](const std::string &text) {
    size_t comma = text.find(", ");
    std::string id = text.substr(0, comma == std::string::npos ? text.size() : comma);
    while (!id.empty() && id.back() == ' ')
      id.pop_back();
    bool letter = false, digit = false;
    for (char c : id) {
      letter |= std::isalpha(static_cast<unsigned char>(c)) != 0;
      digit |= isDigitChar(c);
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
        return std::string();
    }
    return letter && digit && id.size() <= 16 ? id : std::string();
  };
  // Definitions: a table row and the rows under it with an empty first
  // cell.
  struct Definition {
    std::string id;
    std::vector<unsigned> units;
  };
  std::vector<Definition> definitions;
  for (unsigned u = 0; u < out_.units.size(); ++u) {
    const TextUnit &unit = out_.units[u];
    if (!unit.tableRow)
      continue;
    std::string id = firstCell(unit.text);
    if (!id.empty())
      definitions.push_back({id, {u}});
  }
  if (definitions.size() < 3)
    return;
  static const std::set<std::string, std::less<>> runs = {
      "run", "runs", "program", "programme", "prog", "protocol", "template", "method", "routine"};
  struct Reference {
    size_t definition;
    unsigned unit;
    size_t offset;
  };
  std::vector<Reference> references;
  std::set<size_t> referenced;
  for (unsigned u = 0; u < out_.units.size(); ++u) {
    const TextUnit &unit = out_.units[u];
    if (unit.tableRow || unit.kind != UnitKind::Procedure)
      continue;
    std::vector<Token> toks = prose::tokenize(unit.text);
    for (size_t k = 0; k < toks.size(); ++k)
      for (size_t d = 0; d < definitions.size(); ++d) {
        // A hyphenated ID ("ELISA-450") is several tokens: match the text.
        const std::string &id = definitions[d].id;
        if (unit.text.compare(toks[k].begin, id.size(), id) != 0)
          continue;
        size_t after = toks[k].begin + id.size();
        if (after < unit.text.size() && (std::isalnum(static_cast<unsigned char>(unit.text[after])) ||
                                         unit.text[after] == '-'))
          continue;
        size_t next = k + 1;
        while (next < toks.size() && toks[next].begin < after)
          ++next;
        bool cue = (k > 0 && runs.count(toks[k - 1].lower)) ||
                   (next < toks.size() && runs.count(toks[next].lower));
        if (!cue)
          continue;
        references.push_back({d, u, toks[k].begin});
        referenced.insert(d);
      }
  }
  if (referenced.size() < 3)
    return;
  // Continuation rows belong to the definition above them.
  for (size_t d = 0; d < definitions.size(); ++d) {
    unsigned u = definitions[d].units.front() + 1;
    while (u < out_.units.size() && out_.units[u].tableRow && firstCell(out_.units[u].text).empty() &&
           out_.units[u].loc.line == out_.units[u - 1].loc.line + 1 &&
           (d + 1 == definitions.size() || u < definitions[d + 1].units.front()))
      definitions[d].units.push_back(u++);
  }
  std::vector<std::vector<size_t>> rowActions(definitions.size());
  for (size_t a = 0; a < out_.actions.size(); ++a)
    for (size_t d = 0; d < definitions.size(); ++d)
      if (std::count(definitions[d].units.begin(), definitions[d].units.end(), out_.actions[a].unit)) {
        if (referenced.count(d)) {
          out_.actions[a].inProcedure = false;
          if (robotClass(out_.actions[a].cls))
            rowActions[d].push_back(a);
        }
      }
  std::vector<Action> copies;
  for (const Reference &r : references) {
    const std::vector<size_t> &rows = rowActions[r.definition];
    if (rows.empty())
      continue;
    SourceLoc at = locate(r.unit, r.offset, definitions[r.definition].id.size());
    for (size_t a : rows) {
      const Action &def = out_.actions[a];
      // The step's own mention of the same kind, in its sentence, takes
      // the row's values.
      Action *own = nullptr;
      for (Action &mine : out_.actions)
        if (mine.unit == r.unit && mine.inProcedure && mine.cls == def.cls &&
            mine.copiedFrom.empty() && !mine.hasNumeric())
          own = &mine;
      Action copy = def;
      if (own) {
        for (size_t p = 0; p < kParamCount; ++p)
          if (own->params[p].empty())
            own->params[p] = def.params[p];
        own->weak = false;
        own->copiedFrom = definitions[r.definition].id;
        own->copiedLoc = def.loc;
        own->inexactCopy = rows.size() > 1;
        continue;
      }
      copy.unit = r.unit;
      copy.loc = at;
      copy.text = out_.units[r.unit].text;
      copy.inProcedure = true;
      copy.weak = false;
      copy.domain = Domain::Unstated;
      copy.copiedFrom = definitions[r.definition].id;
      copy.copiedLoc = def.loc;
      copy.inexactCopy = rows.size() > 1;
      // Its sentence: the first of the step's own actions, if any.
      for (const Action &mine : out_.actions)
        if (mine.unit == r.unit) {
          copy.sentence = mine.sentence;
          break;
        }
      copies.push_back(std::move(copy));
    }
  }
  insertInTextOrder(std::move(copies));
}

/// "3. CLEAN - the Automaton empties the wells and washes them 3 times
/// with 300 uL of wash buffer per well", above cards that say "WAIT 1
/// hour. CLEAN.": a word in capitals that a unit opens by defining
/// ("CLEAN - ...", "CLEAN = ...") and that later sentences
/// say on its own names the definition's steps, as a lab's saved program
/// does. The definition is no step of its own; each use does what it
/// says, in its place. A use opens a sentence and is followed by nothing
/// or by punctuation ("CLEAN.", "CLEAN: next morning"), so "NO CLEAN" and
/// "during CLEAN" are none, and a heading that repeats the word with
/// words after it ("CLEAN the plate") is an order of its own. Two uses at
/// least: a capitalised word said once more is no name.
void Reader::resolveDefinedTerms() {
  auto capitals = [](const Token &t) {
    if (!t.isWord() || t.text.size() < 3)
      return false;
    for (char c : t.text)
      if (c < 'A' || c > 'Z')
        return false;
    return true;
  };
  struct Definition {
    std::string term;
    unsigned unit = 0;
    std::vector<size_t> actions;
  };
  // "CLEAN - ...", "CLEAN = ...". Not "NAME:", which opens a speaker's
  // turn in a transcript.
  auto definesAt = [](const std::vector<Token> &toks) {
    return toks.size() > 1 &&
           (toks[1].isPunct("-") || toks[1].isPunct("–") || toks[1].isPunct("="));
  };
  std::vector<Definition> definitions;
  // "2  WASH – 80 µl wash buffer per well, 3 cycles", "11 WASH – 4 cycles
  // of 80 µl": a word that opens two such units is how a list writes its
  // steps, not a name defined once.
  std::map<std::string, unsigned> opened;
  for (unsigned u = 0; u < out_.units.size(); ++u) {
    const TextUnit &unit = out_.units[u];
    std::vector<Token> toks = prose::tokenize(unit.text);
    if (!definesAt(toks))
      continue;
    ++opened[toks[0].text];
    if (unit.tableRow || unit.kind != UnitKind::Procedure || toks.size() < 4 ||
        !capitals(toks[0]))
      continue;
    Definition definition{toks[0].text, u, {}};
    for (size_t a = 0; a < out_.actions.size(); ++a) {
      const Action &action = out_.actions[a];
      if (action.unit == u && action.inProcedure && robotClass(action.cls) && !action.weak &&
          action.hasNumeric() && action.copiedFrom.empty() && action.sentence < sentences_.size() &&
          sentences_[action.sentence].firstInUnit)
        definition.actions.push_back(a);
    }
    if (!definition.actions.empty())
      definitions.push_back(std::move(definition));
  }
  if (definitions.empty())
    return;
  std::vector<Action> copies;
  for (const Definition &definition : definitions) {
    if (opened[definition.term] > 1)
      continue;
    std::vector<unsigned> uses;
    for (unsigned s = 0; s < sentences_.size(); ++s) {
      const Sentence &sentence = sentences_[s];
      const std::vector<Token> &toks = sentence.tokens;
      if (sentence.unit == definition.unit || toks.empty() || toks[0].text != definition.term ||
          out_.units[sentence.unit].kind != UnitKind::Procedure || out_.units[sentence.unit].tableRow)
        continue;
      if (toks.size() > 1 && toks[1].kind != Token::Kind::Punct)
        continue;
      if (definesAt(toks))
        continue; // a second definition, not a use
      uses.push_back(s);
    }
    if (uses.size() < 2)
      continue;
    for (size_t a : definition.actions)
      out_.actions[a].inProcedure = false;
    for (unsigned s : uses) {
      // A term that is a verb itself ("RINSE.") makes its own step, which
      // takes the values of the step before of its kind: no copy.
      bool own = false;
      for (const Action &action : out_.actions)
        for (size_t a : definition.actions)
          own = own || (action.sentence == s && action.cls == out_.actions[a].cls);
      if (own)
        continue;
      const Sentence &sentence = sentences_[s];
      SourceLoc at = locate(sentence.unit, sentence.offset + sentence.tokens[0].begin,
                            definition.term.size());
      for (size_t a : definition.actions) {
        Action copy = out_.actions[a];
        copy.unit = sentence.unit;
        copy.sentence = s;
        copy.loc = at;
        copy.text = out_.units[sentence.unit].text;
        copy.inProcedure = true;
        copy.weak = false;
        copy.personNearby = copy.robotNearby = false;
        copy.copiedFrom = definition.term;
        copy.copiedLoc = out_.actions[a].loc;
        copy.inexactCopy = definition.actions.size() > 1;
        copies.push_back(std::move(copy));
      }
    }
  }
  insertInTextOrder(std::move(copies));
}

/// "Cards marked (H) are played by the Host by hand", "steps marked [M]
/// are performed by the operator": a key that gives a bracketed tag to a
/// person. A unit that carries the tag anywhere ("CARD 1 - CAPTURE (H),
/// the evening before") has the person's words nearby, as if it said "by
/// hand", so a step of it in <MANUAL> agrees with the text. The tag is
/// matched with its brackets, whole ("(H, then A)" is not "(H)").
void Reader::markTagLegends() {
  static const std::set<std::string, std::less<>> marks = {
      "marked", "labelled", "labeled", "flagged", "tagged", "denoted"};
  std::vector<std::string> personTags;
  for (const Sentence &sentence : sentences_) {
    const std::vector<Token> &toks = sentence.tokens;
    for (size_t k = 0; k + 3 < toks.size(); ++k) {
      if (!marks.count(toks[k].lower))
        continue;
      size_t open = k + 1;
      if (toks[open].is("with") || toks[open].is("by"))
        ++open;
      if (open + 2 >= toks.size() || !(toks[open].isPunct("(") || toks[open].isPunct("[")))
        continue;
      const char *close = toks[open].isPunct("(") ? ")" : "]";
      size_t end = open + 1;
      while (end < toks.size() && end <= open + 3 && !toks[end].isPunct(close))
        ++end;
      if (end >= toks.size() || !toks[end].isPunct(close) || end == open + 1)
        continue;
      std::string tag = sentence.text.substr(toks[open].begin, toks[end].end - toks[open].begin);
      if (tag.size() > 16)
        continue;
      // What the key says of the tag: up to the next key, ";" or the end.
      size_t last = end + 1;
      while (last < toks.size() && !toks[last].isPunct(";") && !marks.count(toks[last].lower))
        ++last;
      size_t from = toks[end].end;
      size_t to = last < toks.size() ? toks[last].begin : sentence.text.size();
      std::string said = prose::lowerAscii(sentence.text.substr(from, to - from));
      Domain domain = domainOfWords(said);
      if (domain == Domain::Person)
        personTags.push_back(tag);
    }
  }
  if (personTags.empty())
    return;
  for (Action &action : out_.actions) {
    if (action.unit >= out_.units.size())
      continue;
    const std::string &text = out_.units[action.unit].text;
    for (const std::string &tag : personTags)
      if (text.find(tag) != std::string::npos)
        action.personNearby = true;
  }
}

/// "Transfer 50 µL from row A to row B, mix (3x, 50 µL), then B → C, …
/// down to row G": a dilution series told by its first transfer and where
/// it ends. The sentence's transfer, and the mix that follows it, are
/// repeated for every row or column up to the last one named after the
/// ellipsis ("…", "...", "and so on", "etc."): copies at the ellipsis.
/// Which transfers the text means is the reader's count, so the copies are
/// inexact and a finding on them is never certain.
void Reader::expandRowSeries() {
  std::vector<Action> copies;
  for (unsigned index = 0; index < sentences_.size(); ++index) {
    // The series may run on past a full stop of "..." into the next
    // sentences of its unit.
    std::vector<Token> toks;
    std::vector<std::pair<unsigned, size_t>> origin; // sentence, its token
    for (unsigned j = index; j < sentences_.size() && j <= index + 3 &&
                             sentences_[j].unit == sentences_[index].unit;
         ++j)
      for (size_t k = 0; k < sentences_[j].tokens.size(); ++k) {
        toks.push_back(sentences_[j].tokens[k]);
        origin.emplace_back(j, k);
      }
    size_t ellipsis = toks.size();
    for (size_t k = 0; k < toks.size() && ellipsis == toks.size(); ++k)
      if (toks[k].isPunct("…") || toks[k].isPunct("...") || toks[k].is("etc") ||
          (toks[k].isPunct(".") && k + 2 < toks.size() && toks[k + 1].isPunct(".") &&
           toks[k + 2].isPunct(".")) ||
          (toks[k].is("so") && k > 0 && toks[k - 1].is("and") && k + 1 < toks.size() &&
           toks[k + 1].is("on")))
        ellipsis = k;
    if (ellipsis == toks.size())
      continue;
    // A row is a letter A-P, a column a number 1-24.
    auto place = [](const Token &t) -> int {
      if (t.text.size() == 1 && t.text[0] >= 'A' && t.text[0] <= 'P')
        return t.text[0] - 'A' + 1;
      if (t.isNumber() && t.text.size() <= 2 && std::isdigit(static_cast<unsigned char>(t.text[0])))
        return std::atoi(t.text.c_str());
      return 0;
    };
    auto isLine = [](const Token &t) {
      return t.is("row") || t.is("rows") || t.is("column") || t.is("columns") || t.is("col");
    };
    // "from row A to row B": the first transfer's step.
    int first = 0, second = 0;
    for (size_t k = 0; k + 4 < ellipsis && !second; ++k)
      if (toks[k].is("from") && isLine(toks[k + 1]) && place(toks[k + 2]) && toks[k + 3].is("to")) {
        size_t j = k + 4;
        if (j < ellipsis && isLine(toks[j]))
          ++j;
        if (j < ellipsis && place(toks[j])) {
          first = place(toks[k + 2]);
          second = place(toks[j]);
        }
      }
    // "... down to row G": the last.
    int last = 0;
    for (size_t k = ellipsis + 1; k + 2 < toks.size() && !last; ++k)
      if (toks[k].is("to") && isLine(toks[k + 1]) && place(toks[k + 2]))
        last = place(toks[k + 2]);
    int step = second - first;
    if (!first || step <= 0 || last <= second || (last - first) % step != 0 ||
        (last - first) / step > 24)
      continue;
    int total = (last - first) / step;
    // The sentence's transfer and the mix after it.
    std::vector<size_t> pattern;
    for (size_t a = 0; a < out_.actions.size(); ++a) {
      const Action &act = out_.actions[a];
      if (act.sentence != index || act.copiedLoc.isValid())
        continue;
      if (act.cls == ActionClass::Transfer && pattern.empty())
        pattern.push_back(a);
      else if (act.cls == ActionClass::Mix && pattern.size() == 1)
        pattern.push_back(a);
    }
    if (pattern.empty())
      continue;
    const Sentence &where = sentences_[origin[ellipsis].first];
    const Token &mark = where.tokens[origin[ellipsis].second];
    SourceLoc at = locate(where.unit, where.offset + mark.begin, mark.end - mark.begin);
    for (int n = 1; n < total; ++n)
      for (size_t a : pattern) {
        Action copy = out_.actions[a];
        copy.loc = at;
        copy.copiedFrom = "the series' first transfer";
        copy.copiedLoc = out_.actions[a].loc;
        copy.inexactCopy = true;
        copy.repeatCopy = true;
        copies.push_back(std::move(copy));
      }
  }
  insertInTextOrder(std::move(copies));
}

void Reader::insertInTextOrder(std::vector<Action> made) {
  if (made.empty())
    return;
  for (Action &action : made)
    out_.actions.push_back(std::move(action));
  std::stable_sort(out_.actions.begin(), out_.actions.end(), [](const Action &a, const Action &b) {
    return std::make_pair(a.loc.line, a.loc.col) < std::make_pair(b.loc.line, b.loc.col);
  });
}

/// "Transcribed from the Post-its ... in the order they were stuck on --
/// not the order you do them": a text that says its parts are not in the
/// order of the work gives no evidence of order, so no order finding on
/// it is certain.
void Reader::markOrderDisclaimer() {
  std::string lower = prose::lowerAscii(text_);
  for (const char *phrase :
       {"not the order you", "not in the order", "not in time order", "in no particular order",
        "not in chronological order", "not in sequence", "not the order they are done",
        "not the order to do"})
    if (lower.find(phrase) != std::string::npos) {
      for (Action &a : out_.actions)
        a.orderLoose = true;
      return;
    }
}

/// "No 420 nm filter was ever fitted here, and Dr Okafor read at 405 nm
/// from then on": a step told as what was done from some time on ("ever
/// since", "since then", "from now on") states a standing value for every
/// such step, wherever the text tells it; its place is no evidence of
/// order, so no order finding on it is certain.
void Reader::markStandingPractice() {
  for (Action &a : out_.actions) {
    if (a.sentence >= sentences_.size())
      continue;
    const std::vector<Token> &toks = sentences_[a.sentence].tokens;
    for (size_t k = 0; k + 1 < toks.size(); ++k) {
      bool fromOn = toks[k].is("from") && k + 2 < toks.size() &&
                    (toks[k + 1].is("then") || toks[k + 1].is("now")) && toks[k + 2].is("on");
      bool since = (toks[k].is("ever") && toks[k + 1].is("since")) ||
                   (toks[k].is("since") && toks[k + 1].is("then"));
      if (fromOn || since) {
        a.orderLoose = true;
        break;
      }
    }
  }
}

/// A run sheet planned backwards from a fixed time (a reader booking) and
/// listed latest first: "15:00 Read ...", "14:55 Stop ...", ..., "08:50
/// Wash." The lab works it bottom up, so the steps' order is the entries'
/// order reversed. An entry is a line that starts with a clock time and
/// the lines under it up to the next such line; the list is reversed when
/// at least five entries, consecutive in the text, mostly count down (a
/// day's separator, "--- Wed 13 Nov ---", may start an earlier day at a
/// later hour once). What stands before or after the list keeps its place.
void Reader::orderReversedSchedule() {
  auto clockAt = [](std::string_view raw) -> int {
    raw = trimView(raw);
    size_t k = 0;
    while (k < raw.size() && k < 2 && isDigitChar(raw[k]))
      ++k;
    if (k == 0 || k + 3 > raw.size() || (raw[k] != ':' && raw[k] != '.') ||
        !isDigitChar(raw[k + 1]) || !isDigitChar(raw[k + 2]) ||
        (k + 3 < raw.size() && (isDigitChar(raw[k + 3]) || raw[k + 3] == ':')))
      return -1;
    int hours = std::atoi(std::string(raw.substr(0, k)).c_str());
    int minutes = std::atoi(std::string(raw.substr(k + 1, 2)).c_str());
    if (hours > 23 || minutes > 59)
      return -1;
    return hours * 60 + minutes;
  };
  // Entries of the longest run of clock-stamped lines; a run ends at a
  // blank line that no stamped line follows within three lines.
  struct Entry {
    uint32_t line;
    int minutes;
  };
  std::vector<Entry> best, run;
  uint32_t lastLine = 0;
  auto close = [&] {
    if (run.size() > best.size())
      best = run;
    run.clear();
  };
  for (const Line &l : lines_) {
    int at = l.blank ? -1 : clockAt(l.raw);
    if (at < 0)
      continue;
    if (!run.empty() && l.number > lastLine + 12)
      close();
    run.push_back({l.number, at});
    lastLine = l.number;
  }
  close();
  if (best.size() < 5)
    return;
  unsigned down = 0, up = 0;
  for (size_t k = 1; k < best.size(); ++k) {
    down += best[k].minutes < best[k - 1].minutes;
    up += best[k].minutes > best[k - 1].minutes;
  }
  if (up > 1 || down < 4 || down < 3 * up + 3)
    return;
  // The list ends where its last entry's lines do: the first blank line or
  // rule ("-----") after it.
  uint32_t end = best.back().line;
  while (end < lines_.size() && !lines_[end].blank && !lines_[end].separator)
    ++end;
  // Before the list, the list's entries last first, after the list. The
  // entry of an action is the last stamped line at or above it.
  auto rank = [&](const Action &a) {
    if (a.loc.line < best.front().line)
      return 0;
    if (a.loc.line > end)
      return static_cast<int>(best.size()) + 1;
    auto after = std::upper_bound(best.begin(), best.end(), a.loc.line,
                                  [](uint32_t line, const Entry &e) { return line < e.line; });
    return static_cast<int>(best.end() - after) + 1;
  };
  std::vector<std::pair<int, size_t>> order;
  order.reserve(out_.actions.size());
  for (size_t k = 0; k < out_.actions.size(); ++k)
    order.emplace_back(rank(out_.actions[k]), k);
  keepActionsByRank(std::move(order));
}

void Reader::keepActionsByRank(std::vector<std::pair<int, size_t>> rank) {
  std::stable_sort(rank.begin(), rank.end(),
                   [](const auto &x, const auto &y) { return x.first < y.first; });
  std::vector<Action> sorted;
  sorted.reserve(rank.size());
  for (const auto &[r, k] : rank)
    sorted.push_back(std::move(out_.actions[k]));
  out_.actions = std::move(sorted);
}

void Reader::markIntroduction() {
  auto step = [&](const Action &a) { return a.inProcedure && !a.weak && robotClass(a.cls); };
  auto listed = [&](const Action &a) {
    return a.unit < unitStyle_.size() && unitStyle_[a.unit] != 'p';
  };
  unsigned listSteps = 0;
  std::optional<unsigned> firstListed;
  for (const Action &a : out_.actions)
    if (step(a) && listed(a)) {
      ++listSteps;
      if (!firstListed)
        firstListed = a.unit;
    }
  if (listSteps < 3)
    return;
  auto toldAgain = [&](const Action &a) {
    return std::any_of(out_.actions.begin(), out_.actions.end(), [&](const Action &b) {
      if (!step(b) || !listed(b) || b.cls != a.cls || b.unit < *firstListed)
        return false;
      // Reads only: "100 µL per well of 2 µg/mL antibody" above a list
      // whose steps add 100 µL of other antibodies is a step of the day
      // before, not a summary of one of theirs.
      if (a.cls != ActionClass::Read && a.cls != ActionClass::ReadFluorescence)
        return false;
      bool common = false;
      for (size_t p = 0; p < kParamCount; ++p) {
        if (a.params[p].empty() || b.params[p].empty())
          continue;
        if (valuesContradict(a.params[p], b.params[p]))
          return false;
        common = true;
      }
      return common;
    });
  };
  for (Action &a : out_.actions)
    if (a.unit < *firstListed && step(a) && !listed(a) && toldAgain(a))
      a.orderLoose = true;
}

void Reader::finish() {
  for (TextUnit &unit : out_.units)
    unit.actions.clear();
  bool seenStep = false;
  for (Action &a : out_.actions) {
    if (!robotClass(a.cls) && seenStep && a.inProcedure && !a.weak && a.cls != ActionClass::Note)
      a.midProcedure = true;
    seenStep |= robotClass(a.cls) && a.inProcedure && !a.weak;
  }
  for (size_t i = 0; i < out_.actions.size(); ++i) {
    Action &a = out_.actions[i];
    a.required = a.inProcedure && !a.weak && robotClass(a.cls) && !a.cellCulture &&
                 a.domain != Domain::Person &&
                 a.domain != Domain::Both && !a.conditional && a.platformCan() && !a.ambiguousCopy &&
                 !a.aside;
    out_.units[a.unit].actions.push_back(static_cast<unsigned>(i));
  }
  // Sentences that give work to a person in general terms.
  for (unsigned i = 0; i < sentences_.size(); ++i) {
    const Sentence &s = sentences_[i];
    bool person = false, robot = false;
    markersIn(s.tokens, 0, s.tokens.size(), person, robot);
    // "The technician coats the plate; the robot does the rest" splits the
    // work, it does not give the rest away.
    if (!person || robot)
      continue;
    std::vector<Token> withoutTeachingPeople;
    for (const Token &t : s.tokens)
      if (!(t.isWord() && kTeachingPeople.count(t.lower)))
        withoutTeachingPeople.push_back(t);
    bool handedWork = false, robotToo = false;
    markersIn(withoutTeachingPeople, 0, withoutTeachingPeople.size(), handedWork, robotToo);
    if (!handedWork)
      continue;
    ProcedureText::Hint hint;
    hint.sentence = i;
    for (const Token &t : s.tokens) {
      if (!t.isWord())
        continue;
      const std::string &w = t.lower;
      auto stem = [&](std::string_view p) { return w.rfind(p, 0) == 0; };
      if (stem("read") || stem("measur") || stem("absorb") || stem("od"))
        hint.classes.push_back(ActionClass::Read);
      if (stem("fluoresc"))
        hint.classes.push_back(ActionClass::ReadFluorescence);
      if (stem("add") || stem("pipett") || stem("load") || stem("dispens") || stem("coat") ||
          stem("seed") || stem("fill"))
        hint.classes.push_back(ActionClass::Dispense);
      if (stem("wash") || stem("rins"))
        hint.classes.push_back(ActionClass::Wash);
      if (stem("incubat") || stem("heat") || stem("cool") || stem("warm"))
        hint.classes.push_back(ActionClass::Incubate);
      if (stem("shak"))
        hint.classes.push_back(ActionClass::Shake);
      if (stem("transfer"))
        hint.classes.push_back(ActionClass::Transfer);
      if (stem("mix"))
        hint.classes.push_back(ActionClass::Mix);
      if (stem("remov") || stem("aspirat") || stem("discard"))
        hint.classes.push_back(ActionClass::Aspirate);
      if (stem("curve") || stem("calcul") || stem("analy") || stem("fit"))
        hint.classes.push_back(ActionClass::Analyze);
      if (w == "rest" || w == "remaining" || w == "remainder" || w == "thereafter" ||
          w == "subsequent" || w == "everything" || w == "onwards" || w == "afterwards")
        hint.scopeAfter = true;
    }
    hint.words = nameWords(s.text);
    out_.personHints.push_back(std::move(hint));
  }
}

namespace {

/// "Wash 5 (FIVE) times", "add two (2) drops": a number said again in
/// the other way in brackets, as kit inserts and notices write it for
/// emphasis, is one number; the bracket goes (as blanks, offsets kept).
std::string withRepeatedNumbersBlank(std::string_view text) {
  static const std::map<std::string, unsigned, std::less<>> words = {
      {"one", 1},   {"two", 2},    {"three", 3},   {"four", 4},    {"five", 5},
      {"six", 6},   {"seven", 7},  {"eight", 8},   {"nine", 9},    {"ten", 10},
      {"eleven", 11}, {"twelve", 12}, {"fifteen", 15}, {"twenty", 20}, {"thirty", 30}};
  auto wordValue = [&](std::string_view w) -> std::optional<unsigned> {
    auto it = words.find(prose::lowerAscii(w));
    return it == words.end() ? std::nullopt : std::optional<unsigned>(it->second);
  };
  auto digitsValue = [](std::string_view w) -> std::optional<unsigned> {
    if (w.empty() || w.size() > 3 ||
        !std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    return static_cast<unsigned>(std::stoul(std::string(w)));
  };
  std::string out(text);
  for (size_t open = text.find('('); open != std::string_view::npos;
       open = text.find('(', open + 1)) {
    size_t close = text.find(')', open);
    if (close == std::string_view::npos || close - open > 12)
      continue;
    std::string_view inside = text.substr(open + 1, close - open - 1);
    size_t end = open;
    while (end > 0 && text[end - 1] == ' ')
      --end;
    if (end == open)
      continue;
    size_t begin = end;
    while (begin > 0 && std::isalnum(static_cast<unsigned char>(text[begin - 1])))
      --begin;
    if (begin > 0 && std::isalnum(static_cast<unsigned char>(text[begin - 1])))
      continue;
    std::string_view before = text.substr(begin, end - begin);
    std::optional<unsigned> said = digitsValue(before) ? digitsValue(before) : wordValue(before);
    std::optional<unsigned> again = digitsValue(before) ? wordValue(inside) : digitsValue(inside);
    if (said && again && *said == *again)
      std::fill(out.begin() + static_cast<long>(open), out.begin() + static_cast<long>(close) + 1,
                ' ');
  }
  return out;
}

/// A transcript's margin numbers (" 4   the zero standard in row" / " 5
/// H. Then ..."): a court reporter numbers every line of a page, 1 to 25,
/// and sentences wrap across them, so "row" and "5 H." read as five
/// hours. They go (as blanks, offsets kept) when at least ten lines in
/// runs count up by one from line to line and at least two such lines
/// carry on, in lower case, a sentence that the line before, filled out
/// to near the page's width, left open, and the numbered lines hold the
/// turns of two speakers or more ("Q." and "A.", "MR. HALE:"). A quick
/// card's numbered steps ("1  wash 3x 250 µl PBST" / "2  block 200 µl
/// ...") carry on no sentence and have no speakers.
std::string withMarginLineNumbersBlank(std::string_view text) {
  struct Numbered {
    size_t digits, digitsEnd; ///< offsets in text
    unsigned number;
    std::string_view content;
  };
  std::vector<std::optional<Numbered>> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    std::optional<Numbered> numbered;
    size_t i = 0;
    while (i < line.size() && i < 3 && line[i] == ' ')
      ++i;
    size_t digits = i;
    while (i < line.size() && i - digits < 3 && std::isdigit(static_cast<unsigned char>(line[i])))
      ++i;
    size_t digitsEnd = i;
    size_t gap = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i, ++gap;
    std::string_view content = prose::trimView(line.substr(i));
    bool spaced = gap >= 2 || (gap >= 1 && line[i - 1] == '\t') || content.empty();
    if (digitsEnd > digits && digitsEnd - digits <= 2 && spaced) {
      std::string number(line.substr(digits, digitsEnd - digits));
      numbered = Numbered{start + digits, start + digitsEnd,
                          static_cast<unsigned>(std::stoul(number)), content};
    }
    lines.push_back(numbered);
    if (end == text.size())
      break;
    start = end + 1;
  }
  // Runs of lines numbered n, n+1, ... (up to two unnumbered lines between,
  // a page's header); a run restarts at 1.
  std::vector<size_t> inRuns;
  std::vector<std::pair<size_t, size_t>> carried; // (line, length of the line before)
  std::vector<size_t> run;
  auto closeRun = [&] {
    if (run.size() >= 5)
      inRuns.insert(inRuns.end(), run.begin(), run.end());
    run.clear();
  };
  size_t gapLines = 0;
  for (size_t l = 0; l < lines.size(); ++l) {
    if (!lines[l]) {
      if (++gapLines > 2)
        closeRun();
      continue;
    }
    bool follows = !run.empty() && lines[l]->number == lines[run.back()]->number + 1;
    if (!follows) {
      closeRun();
      if (lines[l]->number != 1)
        continue;
    } else if (gapLines == 0) {
      std::string_view before = lines[run.back()]->content;
      std::string_view content = lines[l]->content;
      bool open = !before.empty() && before.back() != '.' && before.back() != '?' &&
                  before.back() != '!' && before.back() != ':';
      if (open && !content.empty() && std::islower(static_cast<unsigned char>(content.front())))
        carried.emplace_back(l, before.size());
    }
    gapLines = 0;
    run.push_back(l);
  }
  closeRun();
  size_t width = 0;
  for (size_t l : inRuns)
    width = std::max(width, lines[l]->content.size());
  size_t wrapped = std::count_if(carried.begin(), carried.end(), [&](const auto &c) {
    return std::binary_search(inRuns.begin(), inRuns.end(), c.first) && c.second >= 40 &&
           c.second * 10 >= width * 7;
  });
  std::set<std::string> speakers;
  for (size_t l : inRuns) {
    std::string_view content = lines[l]->content;
    if (content.size() > 3 && (content[0] == 'Q' || content[0] == 'A') && content[1] == '.' &&
        content[2] == ' ')
      speakers.insert(std::string(1, content[0]));
    else if (size_t turn = turnPrefix(content))
      speakers.insert(prose::lowerAscii(trimView(content.substr(0, turn))));
  }
  if (inRuns.size() < 10 || wrapped < 2 || speakers.size() < 2)
    return std::string(text);
  std::string out(text);
  for (size_t l : inRuns)
    std::fill(out.begin() + static_cast<long>(lines[l]->digits),
              out.begin() + static_cast<long>(lines[l]->digitsEnd), ' ');
  return out;
}

/// "thirty micro liters", "ten milli molar", "six fifty nano meters": a
/// phone's or a dictation program's transcript writes a unit's prefix as
/// a word of its own. The two words are one unit (the space moves after
/// it, offsets kept).
std::string withSplitUnitsJoined(std::string_view text) {
  static const char *const prefixes[] = {"micro", "milli", "nano", "pico"};
  static const char *const units[] = {"liters", "litres", "liter", "litre", "molar",
                                      "meters", "metres", "meter", "metre", "grams", "gram"};
  std::string out(text);
  std::string lower = prose::lowerAscii(text);
  for (const char *prefix : prefixes) {
    std::string_view p(prefix);
    for (size_t at = lower.find(p); at != std::string::npos; at = lower.find(p, at + 1)) {
      if (at > 0 && std::isalpha(static_cast<unsigned char>(lower[at - 1])))
        continue;
      size_t space = at + p.size();
      if (space >= lower.size() || lower[space] != ' ')
        continue;
      for (const char *unit : units) {
        std::string_view u(unit);
        size_t end = space + 1 + u.size();
        if (lower.compare(space + 1, u.size(), u) != 0 ||
            (end < lower.size() && std::isalpha(static_cast<unsigned char>(lower[end]))))
          continue;
        // "micro liters" -> "microliters ": the unit's letters close up.
        std::string joined = out.substr(space + 1, u.size());
        out.replace(space, u.size() + 1, joined + " ");
        break;
      }
    }
  }
  return out;
}

} // namespace

std::optional<ProcedureText> Reader::run() {
  if (!prescan())
    return std::nullopt;
  // Each reading of a format hands the next one the text as it sees it.
  auto revise = [&](std::string revised) {
    revisedText_ = std::move(revised);
    text_ = revisedText_;
  };
  if (text_.find("\xEF\xBC") != std::string_view::npos ||
      text_.find("\xEF\xBD") != std::string_view::npos ||
      text_.find("\xE3\x80") != std::string_view::npos)
    revise(withAsciiForFullWidth(text_));
  if (text_.find("\xEF\xAC") != std::string_view::npos)
    revise(withLettersForLigatures(text_));
  if (looksLikeHtml(text_))
    revise(withHtmlAsText(text_));
  if (std::string unnumbered = withMarginLineNumbersBlank(text_); unnumbered != text_)
    revise(std::move(unnumbered));
  if (std::string single = withRepeatedNumbersBlank(text_); single != text_)
    revise(std::move(single));
  if (std::string joined = withSplitUnitsJoined(text_); joined != text_)
    revise(std::move(joined));
  if (looksLikeOrgMode(text_))
    revise(withOrgModeAsText(text_));
  if (looksLikeRstSubstitutions(text_))
    revise(withRstSubstitutions(text_));
  if (looksLikeXmlMethod(text_))
    revise(withXmlMethodAsText(text_));
  if (looksLikeFlowExport(text_))
    revise(withFlowExportAsText(text_));
  else if (looksLikeJsonMethod(text_))
    revise(withJsonMethodAsText(text_));
  if (looksLikeSqlMethod(text_))
    revise(withSqlMethodAsText(text_));
  if (looksLikeShellScript(text_))
    revise(withShellScriptAsText(text_));
  if (looksLikeUnifiedDiff(text_)) {
    if (std::optional<RebuiltText> rebuilt = filesAfterHistory(text_)) {
      rebuiltOrigins_ = std::move(rebuilt->origins);
      revise(std::move(rebuilt->text));
    } else {
      revise(withDiffAfterChange(text_));
    }
  }
  if (looksLikeTextTree(text_))
    revise(withTextTreeAsOutline(text_));
  if (looksLikeYamlMethod(text_))
    revise(withYamlMethodAsText(text_));
  if (looksLikeGherkin(text_)) {
    revise(withGherkinAsSteps(text_));
    scenariosInTurn_ = true;
  }
  if (looksLikeTranscript(text_))
    revise(withTranscriptAsSpeech(text_));
  if (looksLikeLatex(text_))
    revise(withLatexAsText(text_));
  if (std::string adopted = withAdoptedAlternative(text_); adopted != text_)
    revise(std::move(adopted));
  if (text_.find("[x]") != std::string_view::npos || text_.find("[X]") != std::string_view::npos ||
      text_.find("(\xE2\x80\xA2)") != std::string_view::npos ||
      text_.find("\xE2\x98\x91") != std::string_view::npos ||
      text_.find("\xE2\x98\x92") != std::string_view::npos ||
      text_.find("(x)") != std::string_view::npos || text_.find("(*)") != std::string_view::npos ||
      text_.find("\xE2\x97\x89") != std::string_view::npos ||
      text_.find("[\xE2\x9C") != std::string_view::npos)
    revise(withUntickedOptionsBlank(text_));
  if (text_.find("{{") != std::string_view::npos || text_.find("${") != std::string_view::npos ||
      text_.find("<<") != std::string_view::npos)
    revise(withPlaceholdersFilled(text_));
  if (text_.find("xxx") != std::string_view::npos || text_.find("XXX") != std::string_view::npos)
    revise(withoutTypedOverText(text_));
  if (text_.find('[') != std::string_view::npos || text_.find("~~") != std::string_view::npos)
    revise(withoutTrackedChanges(text_));
  if (text_.find_first_of("([") != std::string_view::npos)
    revise(withoutPastRunAsides(text_));
  if (text_.find('[') != std::string_view::npos)
    revise(withoutCitedValues(text_));
  if (std::count(text_.begin(), text_.end(), ',') >= 9)
    revise(withCsvAsTable(text_, csvRows_, csvHeaders_));
  readNotebookCells();
  readCodeText();
  findThreadNumbering();
  splitLines();
  buildUnits();
  maskAmendments();
  classifyUnits();
  markHeaderComment();
  markForwarded();
  markCodeCells();
  markQuestionThread();
  markTranslations();
  splitSentences();
  {
    std::string lower = prose::lowerAscii(text_);
    twoPlates_ = lower.find("assay plate") != std::string::npos &&
                 (lower.find("cell plate") != std::string::npos ||
                  lower.find("culture plate") != std::string::npos);
  }
  for (unsigned i = 0; i < sentences_.size(); ++i) {
    UnitKind kind = out_.units[sentences_[i].unit].kind;
    if (kind == UnitKind::Header || kind == UnitKind::Layout || kind == UnitKind::Materials ||
        kind == UnitKind::Title)
      continue;
    size_t before = out_.actions.size();
    readSentence(i);
    // One wash told in two sentences of a step ("Aspirate and wash four
    // times. Wash by filling each well with 300 µL."): one wash, before
    // anything refers to it.
    if (before > 0 && out_.actions.size() > before) {
      Action &b = out_.actions[before - 1];
      Action &a = out_.actions[before];
      if (a.cls == ActionClass::Wash && b.cls == ActionClass::Wash && a.unit == b.unit &&
          a.sentence == b.sentence + 1 && b.copiedFrom.empty() && !a.weak && !b.weak) {
        bool conflict = false;
        for (size_t p = 0; p < kParamCount; ++p)
          if (!a.params[p].empty() && !b.params[p].empty() && !allAdmittedBy(a.params[p], b.params[p]))
            conflict = true;
        if (!conflict) {
          for (size_t p = 0; p < kParamCount; ++p)
            if (b.params[p].empty())
              b.params[p] = a.params[p];
          if (b.words.empty())
            b.words = a.words, b.liquid = a.liquid;
          out_.actions.erase(out_.actions.begin() + static_cast<long>(before));
        }
      }
    }
    // "fill each well with 300 µl of wash solution, leave to soak for 30
    // seconds, aspirate": the soak is the wash's, as "wash with a 30 s
    // soak" is, not a wait of its own.
    // "Wash by filling each well with 300 µL ... and let it soak for 30
    // seconds before removal": the soak's word may fall in the clause
    // before its time, and a mention ("let it soak") may stand between.
    for (size_t k = std::max<size_t>(before, 1); k < out_.actions.size(); ++k) {
      Action &soak = out_.actions[k];
      size_t w = k - 1;
      while (w > 0 && out_.actions[w].weak && out_.actions[w].unit == soak.unit && k - w < 3)
        --w;
      Action &wash = out_.actions[w];
      bool soakWord = hasWord(prose::lowerAscii(soak.text), "soak") ||
                      (soak.sentence < sentences_.size() &&
                       hasWord(prose::lowerAscii(sentences_[soak.sentence].text), "soak"));
      if (soak.cls != ActionClass::Incubate || wash.cls != ActionClass::Wash ||
          wash.unit != soak.unit || wash.sentence + 1 < soak.sentence || wash.has(Param::Time) ||
          soak.values(Param::Time).size() != 1 || !soak.copiedFrom.empty() ||
          !wash.copiedFrom.empty() || !soakWord)
        continue;
      bool onlyTime = true;
      for (size_t p = 0; p < kParamCount; ++p)
        onlyTime = onlyTime && (static_cast<Param>(p) == Param::Time || soak.params[p].empty());
      // "soak the wells in 1 % SDS for 30 min" names a liquid of its own;
      // "30 seconds before removal" does not.
      bool namesLiquid = std::any_of(soak.words.begin(), soak.words.end(), [](const std::string &w) {
        return w != "soak" && w != "soaking" && w != "before" && w != "removal" &&
               w != "removing" && w != "aspiration" && w != "aspirating" && w != "emptying";
      });
      if (!onlyTime || soak.dark.value_or(false) || soak.lidOn.value_or(false) ||
          soak.shaking.value_or(false) || namesLiquid)
        continue;
      wash.values(Param::Time) = soak.values(Param::Time);
      out_.actions.erase(out_.actions.begin() + static_cast<long>(k));
      break;
    }
    resolveSentence(i, before);
    if (out_.actions.size() > kMaxProtocolActions) {
      diags_.report(DiagId::ProtocolTooManySteps, out_.actions.back().loc, kMaxProtocolActions,
                    kMaxProtocolActions);
      return std::nullopt;
    }
  }
  readCarriedVolumes();
  orderTableRows();
  markPickUps();
  mergeRestatements();
  markSummaries();
  markReplies();
  markThreadAmendments();
  markOutlines();
  markStepComments();
  markNotApplicableRecords();
  markWithdrawnClauses();
  markSpeakerNotes();
  markMarginNotes();
  markDeviations();
  markCoverCorrections();
  markRunningTallies();
  markCountRestatements();
  markExceptions();
  markRunRecords();
  markCorrections();
  markSpokenCorrections();
  markCorrectionEntries();
  markOwnStatementCorrections();
  markReadBacks();
  markRecaps();
  markRereadSteps();
  markTranslatedItems();
  markDisusedMethods();
  markOlderVersionClauses();
  markEquipmentCleaning();
  markPictureDescriptions();
  markTranscriptAsides();
  markGameCommands();
  markMachineReadbacks();
  markFinishedWork();
  markAnecdotes();
  markQuotedMistakes();
  markDemonstrations();
  markReferencedAnnexes();
  markUnusedVariations();
  markCommentSection();
  markFootnotes();
  markOtherSitesVersions();
  markCurrentProcedure();
  markIntroduction();
  resolveProgramReferences();
  resolveDefinedTerms();
  markTagLegends();
  expandRowSeries();
  orderReversedSchedule();
  orderByItemList();
  markReplacedItems();
  markOrderDisclaimer();
  markStandingPractice();
  supersedeCopies();
  markEchoedReads();
  finish();
  for (const TextUnit &unit : out_.units) {
    for (const ProseQuantity &q : proseQuantities(unit.text, platform_))
      out_.stated.emplace_back(q.dimension, q.value);
    std::vector<Token> toks = prose::tokenize(unit.text);
    for (size_t i = 0; i < toks.size(); ++i) {
      if (!toks[i].isNumber())
        continue;
      out_.numbers.push_back(toks[i].number);
      if (!out_.concentrations)
        if (auto q = prose::quantityAt(toks, i, platform_, unit.text))
          out_.concentrations = q->dimension == Dimension::Concentration;
    }
  }
  bool procedure = std::any_of(out_.actions.begin(), out_.actions.end(), [](const Action &a) {
    return a.inProcedure && !a.weak && a.cls != ActionClass::Note;
  });
  if (!procedure) {
    diags_.report(DiagId::AlignNoProcedure, SourceLoc{fileId_, 1, 1, 1});
    return std::nullopt;
  }
  mapLocationsToSource();
  return std::move(out_);
}

void Reader::mapLocationsToSource() {
  if (rebuiltOrigins_.empty())
    return;
  auto map = [&](SourceLoc &loc) {
    if (loc.fileId != fileId_ || loc.line == 0 || loc.line > rebuiltOrigins_.size())
      return;
    const RebuiltText::Origin &origin = rebuiltOrigins_[loc.line - 1];
    loc.line = origin.line;
    loc.col += origin.column - 1;
  };
  for (TextUnit &unit : out_.units)
    map(unit.loc);
  for (Action &a : out_.actions) {
    map(a.loc);
    map(a.copiedLoc);
    map(a.filledFrom);
    map(a.bodyLoc);
    for (std::vector<Value> &values : a.params)
      for (Value &v : values)
        map(v.loc);
  }
  for (auto &[dimension, value] : out_.stated)
    map(value.loc);
}

/// "3 washes in total": a wash's whole count of cycles, as stated.
Value washCyclesInAll(double total, SourceLoc at) {
  Value v;
  v.low = v.high = total;
  v.text = fmt::format("{} wash cycle(s) in all", formatNumber(total));
  v.loc = at;
  return v;
}

/// "The robot aspirates the coating solution, adds 80 ul PBST, aspirates;
/// repeat twice more (3 washes in total)": a wash told by its parts before
/// "repeat" in its own sentence is one wash, with the dispense's volume and
/// liquid and the stated total as its cycles. The repeat is of these parts,
/// not of the last wash written before the sentence.
bool Reader::foldWashCycle(const Sentence &s, size_t begin, size_t repeatAt) {
  const std::vector<Token> &toks = s.tokens;
  size_t end = out_.actions.size();
  std::optional<double> total;
  // "Repeat this wash step 3 times" counts the washes too, three or
  // (three more) four: both are read.
  bool timesOfWash = false;
  // "repeating the process three times for a total of four washes": the
  // washes counted in all settle what "three times" leaves open.
  for (size_t i = repeatAt + 1; i < toks.size() && (!total || timesOfWash); ++i) {
    std::optional<prose::Quantity> q = prose::quantityAt(toks, i, platform_, s.text);
    if (q && q->dimension == Dimension::Count && q->last < toks.size() &&
        (toks[q->last - 1].is("washes") || toks[q->last - 1].is("rinses"))) {
      total = q->value.low;
      timesOfWash = false;
    } else if (!total && q && q->dimension == Dimension::Count && q->last < toks.size() &&
             toks[q->last - 1].is("times") && i >= 1 &&
             std::any_of(toks.begin() + static_cast<long>(repeatAt), toks.begin() + static_cast<long>(i),
                         [](const Token &t) { return t.is("wash") || t.is("washing"); })) {
      total = q->value.low;
      timesOfWash = true;
    }
  }
  if (!total || *total < 1)
    return false;
  SourceLoc repeatLoc =
      locate(s.unit, s.offset + toks[repeatAt].begin, toks[repeatAt].end - toks[repeatAt].begin);
  auto beforeRepeat = [&](const Action &a) {
    return a.loc.line < repeatLoc.line || (a.loc.line == repeatLoc.line && a.loc.col < repeatLoc.col);
  };
  // The parts: this sentence's before "repeat", else, for "Repeat this
  // wash step 3 times" after "Aspirate ..., add 350 µL ... Soak 1-2 min and
  // aspirate.", its unit's sentences before it (a soak among them).
  size_t from = begin;
  auto collect = [&](size_t first, bool soak, std::vector<size_t> &parts) {
    for (size_t k = first; k < end; ++k) {
      const Action &a = out_.actions[k];
      // "aspirates" names no value and is still the cycle's emptying.
      if ((a.weak && a.cls != ActionClass::Aspirate) || a.cls == ActionClass::Note ||
          !beforeRepeat(a))
        continue;
      bool soakPart = soak && a.cls == ActionClass::Incubate && !a.has(Param::Temperature) &&
                      a.has(Param::Time) && a.values(Param::Time).front().high <= 600;
      if (a.cls != ActionClass::Aspirate && a.cls != ActionClass::Dispense && !soakPart)
        return false;
      parts.push_back(k);
    }
    return true;
  };
  std::vector<size_t> parts;
  if (!collect(begin, timesOfWash, parts))
    return false;
  if (parts.empty() && timesOfWash) {
    while (from > 0 && out_.actions[from - 1].unit == s.unit)
      --from;
    if (from == begin || !collect(from, true, parts))
      return false;
  }
  auto filling = std::find_if(parts.begin(), parts.end(), [&](size_t k) {
    return out_.actions[k].cls == ActionClass::Dispense && out_.actions[k].has(Param::Volume);
  });
  bool emptying = std::any_of(parts.begin(), parts.end(), [&](size_t k) {
    return out_.actions[k].cls == ActionClass::Aspirate;
  });
  if (filling == parts.end() || !emptying)
    return false;
  Action wash = out_.actions[*filling];
  wash.cls = ActionClass::Wash;
  // Quoted and placed as the whole cycle, from its first part.
  wash.loc = out_.actions[parts.front()].loc;
  wash.text.clear();
  for (size_t k : parts)
    wash.text += (wash.text.empty() ? "" : " ") + out_.actions[k].text;
  wash.values(Param::Cycles) = {washCyclesInAll(*total, wash.loc)};
  if (timesOfWash) {
    Value &cycles = wash.values(Param::Cycles).front();
    cycles.kind = Value::Kind::Range;
    cycles.high = *total + 1;
    cycles.text = fmt::format("{} or {} wash cycle(s) in all", formatNumber(*total),
                              formatNumber(*total + 1));
  }
  // The sentence's other steps (a note, an incubation after the washes)
  // stay; its parts and its mention of the washes become the one wash.
  std::vector<Action> rest;
  for (size_t k = from; k < end; ++k) {
    const Action &a = out_.actions[k];
    bool part = std::find(parts.begin(), parts.end(), k) != parts.end();
    bool washMention = (a.cls == ActionClass::Wash || a.cls == ActionClass::Aspirate) &&
                       !beforeRepeat(a);
    if (!part && !washMention)
      rest.push_back(a);
  }
  out_.actions.resize(from);
  out_.actions.push_back(std::move(wash));
  for (Action &a : rest)
    out_.actions.push_back(std::move(a));
  return true;
}

void Reader::resolveSentence(unsigned index, size_t begin) {
  const Sentence &s = sentences_[index];
  const std::vector<Token> &toks = s.tokens;
  size_t end = out_.actions.size();
  // "Then 6 rounds of: 5 min at 37 C on the heating plate, read A405.": a
  // count of rounds before the sentence's steps does them that many times
  // in all. One step alone keeps its count ("3 cycles of washing").
  {
    size_t k = 0;
    while (k < toks.size() && (toks[k].is("then") || toks[k].is("and") || toks[k].isPunct(",")))
      ++k;
    static const std::set<std::string, std::less<>> rounds = {
        "rounds", "cycles", "loops", "iterations", "passes", "repeats"};
    bool counted = k + 2 < toks.size() && toks[k].isNumber() && toks[k].number >= 2 &&
                   toks[k].number <= 50 && toks[k].number == std::floor(toks[k].number) &&
                   rounds.count(toks[k + 1].lower) && toks[k + 2].is("of");
    std::vector<size_t> own;
    for (size_t a = begin; counted && a < end; ++a)
      if (!out_.actions[a].weak && robotClass(out_.actions[a].cls))
        own.push_back(a);
    bool kinds = own.size() >= 2 && std::any_of(own.begin(), own.end(), [&](size_t a) {
      return out_.actions[a].cls != out_.actions[own.front()].cls;
    });
    if (kinds) {
      const Token &last = toks.back();
      SourceLoc at = locate(s.unit, s.offset + last.begin, last.end - last.begin);
      for (unsigned c = 1; c < static_cast<unsigned>(toks[k].number); ++c)
        for (size_t a : own) {
          Action copy = copyInto(a, "the first round", s, index, at);
          copy.repeatCopy = true;
          out_.actions.push_back(std::move(copy));
        }
      return;
    }
  }
  bool repeat = false, cue = false, inexact = false, washWord = false;
  size_t repeatAt = 0;
  std::vector<unsigned> refUnits;
  size_t refAt = toks.size(); // the first token naming a step
  size_t firstCueWordAt = toks.size(); // the first "as", "see", "per", ...
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token &t = toks[i];
    size_t refsBefore = refUnits.size();
    // "repeat the plate", "repeat the assay": the whole run again, after
    // a failed acceptance check, is no step of this one.
    auto runNoun = [&](size_t k) {
      return k < toks.size() && (toks[k].is("plate") || toks[k].is("assay") || toks[k].is("run") ||
                                 toks[k].is("experiment") || toks[k].is("test"));
    };
    // "CORRECTED PROCEDURE - repeat run CORT-0219": a repeat run is a noun;
    // so is a run log's "repeat of run 3 samples with fresh std".
    bool wholeRun = (i + 2 < toks.size() && (toks[i + 1].is("the") || toks[i + 1].is("this")) &&
                     runNoun(i + 2)) ||
                    (t.is("repeat") && runNoun(i + 1)) ||
                    (t.is("repeat") && i + 2 < toks.size() && toks[i + 1].is("of") &&
                     (runNoun(i + 2) || (toks[i + 2].is("the") && runNoun(i + 3)))) ||
                    // "Samples repeated in run 4", "repeated on plate 2".
                    ((t.is("repeated") || t.is("repeat")) && i + 2 < toks.size() &&
                     (toks[i + 1].is("in") || toks[i + 1].is("on")) && runNoun(i + 2) &&
                     toks[i + 3 < toks.size() ? i + 3 : i + 2].isNumber()) ||
                    // "reported as positive and repeated from a fresh tube": the
                    // sample tested again, in another run.
                    ((t.is("repeated") || t.is("repeat") || t.is("retested") || t.is("retest")) &&
                     i + 3 < toks.size() &&
                     (toks[i + 1].is("from") || toks[i + 1].is("with") || toks[i + 1].is("on")) &&
                     (toks[i + 2].is("a") || toks[i + 2].is("the")) &&
                     (toks[i + 3].is("fresh") || toks[i + 3].is("new") || toks[i + 3].is("second")));
    // "experiments were repeated for all four donors", "runs that failed
    // this criterion were repeated": the replication of whole runs, in a
    // methods section's passive voice, copies no step ("the wash was
    // repeated twice" still does).
    if (!wholeRun && t.is("repeated") && i > 0 &&
        (toks[i - 1].is("were") || toks[i - 1].is("was") || toks[i - 1].is("are") ||
         toks[i - 1].is("is") || toks[i - 1].is("be"))) {
      for (size_t k = i - 1; k > 0 && i - k < 10; --k) {
        const Token &w = toks[k - 1];
        if (w.isPunct(",") || w.isPunct(";") || w.isPunct("."))
          break;
        if (runNoun(k - 1) || w.is("experiments") || w.is("runs") || w.is("assays") ||
            w.is("measurements") || w.is("determinations") || w.is("plates") || w.is("tests"))
          wholeRun = true;
      }
    }
    // "OK, no repeat", "without repeating": a repeat ruled out.
    bool negated = false;
    // "It cannot be repeated: one kit, one plate", "must not be repeated":
    // the negation may stand before the auxiliaries.
    for (size_t k = i; k > 0 && i - k < 4; --k) {
      const Token &w = toks[k - 1];
      if (w.is("no") || w.is("not") || w.is("without") || w.is("never") || w.is("cannot")) {
        negated = true;
        break;
      }
      if (!(w.is("be") || w.is("been") || w.is("is") || w.is("are") || w.is("was") ||
            w.is("were") || w.is("to") || w.is("must") || w.is("should") || w.is("can") ||
            w.is("do") || w.is("does") || w.is("will")))
        break;
    }
    // "User: Repeat that.": a listener's turn asks the reader to say the
    // step again, no step done again.
    bool asksAgain = i == 2 && toks[1].isPunct(":") && toks[0].isWord() &&
                     i + 1 < toks.size() && toks[i + 1].is("that") &&
                     (i + 2 == toks.size() || toks[i + 2].isPunct(".") || toks[i + 2].isPunct("?") ||
                      toks[i + 2].is("please"));
    negated = negated || asksAgain;
    // "[For groups who joined late, repeat briefly:]": a direction to the
    // speaker in square brackets, no step done again.
    size_t openBracket = 0, closeBracket = 0;
    for (size_t k = 0; k < i; ++k) {
      openBracket += toks[k].isPunct("[") ? 1 : 0;
      closeBracket += toks[k].isPunct("]") ? 1 : 0;
    }
    negated = negated || openBracket > closeBracket;
    if (!repeat && !wholeRun && !negated &&
        (t.is("repeat") || t.is("repeated") || t.is("repeating") || t.is("repeats"))) {
      repeat = true;
      repeatAt = i;
    }
    if (t.is("as") || t.is("like") || t.is("same") || t.is("see") || t.is("described") ||
        t.is("per") || t.is("under")) {
      cue = true;
      firstCueWordAt = std::min(firstCueWordAt, i);
    }
    if ((t.is("above") || t.is("before") || t.is("previously") || t.is("earlier")) && i > 0 &&
        (toks[i - 1].is("as") || toks[i - 1].is("described") || toks[i - 1].is("like")))
      inexact = true;
    if (t.is("again"))
      inexact = true;
    if (repeat && i > repeatAt && (t.is("wash") || t.is("washes") || t.is("washing")))
      washWord = true;
    // "as in step 3", "steps 3-4", and in section-numbered texts "as
    // described in 5.3" (a number that is a step label, after in/see/as).
    // "Repeat this wash step 3 times" counts; it names no step 3.
    // "Repeat panels 5-6 for the other side": a leaflet's panels are its
    // steps.
    // "(see Section 4)" in a form whose parts are headed "SECTION 4 WHAT
    // WENT WRONG": the part of the document, not the fourth step.
    bool headedSection = (t.is("section") || t.is("sections")) && i + 1 < toks.size() &&
                         toks[i + 1].isNumber() && sectionHeading(toks[i + 1].text);
    bool stepWord = (t.is("step") || t.is("steps") || t.is("section") || t.is("sections") ||
                     t.is("panel") || t.is("panels")) &&
                    !headedSection && i + 1 < toks.size() && toks[i + 1].isNumber() &&
                    !(i + 2 < toks.size() && (toks[i + 2].is("times") || toks[i + 2].is("x") ||
                                              toks[i + 2].is("more")));
    // "Report < 10 as 5", "a titre below 8 counts as 4": a value recoded
    // as another, no step.
    bool recodedValue =
        i > 1 && toks[i - 1].is("as") &&
        (toks[i - 2].isNumber() || (toks[i - 2].isWord() && proseUnit(toks[i - 2].text)) ||
         toks[i - 2].is("counts") || toks[i - 2].is("count") || toks[i - 2].is("counted") ||
         toks[i - 2].is("reported") || toks[i - 2].is("scored") || toks[i - 2].is("recorded") ||
         toks[i - 2].is("treated") || toks[i - 2].is("entered") || toks[i - 2].is("coded"));
    // "£3.50 per 2 kg tub", "~40 mL wash per 3x round": after "per", a
    // number that a word follows counts things; "per 3 above" and a
    // number that ends its clause ("(per 4)") name a step.
    bool perCount = i > 0 && toks[i - 1].is("per") && i + 1 < toks.size() &&
                    toks[i + 1].isWord() && !toks[i + 1].is("above") &&
                    !toks[i + 1].is("below") && !toks[i + 1].is("and") && !toks[i + 1].is("or");
    bool bareLabel = !stepWord && t.isNumber() && i > 0 && !recodedValue && !perCount &&
                     (toks[i - 1].is("in") || toks[i - 1].is("see") || toks[i - 1].is("as") ||
                      toks[i - 1].is("under") || toks[i - 1].is("per")) &&
                     labelBefore(t.text, s.unit) &&
                     !(i + 1 < toks.size() && toks[i + 1].isWord() && proseUnit(toks[i + 1].text));
    // "as in (a)", "see c)": a lettered step.
    if (!bareLabel && t.isWord() && (t.text.size() == 1 || romanNumeral(t.lower)) && i > 0 &&
        ((toks[i - 1].isPunct("(") && i > 1 &&
          (toks[i - 2].is("in") || toks[i - 2].is("see") || toks[i - 2].is("as") ||
           toks[i - 2].is("step"))) ||
         toks[i - 1].is("step")) &&
        labelBefore(t.text, s.unit)) {
      cue = true;
      refUnits.push_back(*labelBefore(t.text, s.unit));
    }
    if (bareLabel) {
      cue = true;
      refUnits.push_back(*labelBefore(t.text, s.unit));
    }
    if (stepWord) {
      std::string first = toks[i + 1].text;
      std::string last = first;
      if (i + 3 < toks.size() && toks[i + 3].isNumber() &&
          (toks[i + 2].isPunct("-") || toks[i + 2].isPunct("–") || toks[i + 2].is("to") ||
           toks[i + 2].is("and") || toks[i + 2].isPunct(",")))
        last = toks[i + 3].text;
      double lo = 0, hi = 0;
      if (numericLabel(first, lo) && numericLabel(last, hi)) {
        for (const auto &[label, units] : labelUnits_) {
          double v = 0;
          if (numericLabel(label, v) && v >= lo - 1e-9 && v <= hi + 1e-9)
            if (std::optional<unsigned> unit = labelBefore(label, s.unit))
              refUnits.push_back(*unit);
        }
      } else if (std::optional<unsigned> unit = labelBefore(first, s.unit)) {
        refUnits.push_back(*unit);
      }
      std::sort(refUnits.begin(), refUnits.end());
    }
    if (refUnits.size() > refsBefore && refAt == toks.size())
      refAt = i;
  }
  // "Steps 8-9 twice more", "steps 4 to 6 two more times", "step 3 again":
  // named steps with a count of more times are a repeat without the word,
  // when the sentence orders nothing of its own.
  if (!repeat && !refUnits.empty()) {
    size_t stepAt = toks.size();
    for (size_t i = 0; i + 1 < toks.size() && stepAt == toks.size(); ++i)
      if ((toks[i].is("step") || toks[i].is("steps") || toks[i].is("panel") ||
           toks[i].is("panels")) &&
          toks[i + 1].isNumber())
        stepAt = i;
    // Past the step numbers ("8-9", "4 to 6", "2, 3 and 4").
    size_t after = stepAt + 1;
    while (after < toks.size() &&
           (toks[after].isNumber() || toks[after].isPunct("-") || toks[after].isPunct("–") ||
            toks[after].isPunct(",") || toks[after].is("to") || toks[after].is("and")))
      ++after;
    bool more = false;
    for (size_t i = after; i < toks.size() && !more; ++i) {
      if (toks[i].is("again"))
        more = true;
      std::optional<prose::Quantity> q = prose::quantityAt(toks, i, platform_, s.text);
      if (q && q->dimension == Dimension::Count)
        for (size_t k = q->first; k < std::min(toks.size(), q->last + 1); ++k)
          more |= toks[k].is("more") || toks[k].is("additional") || toks[k].is("further");
    }
    bool ordersOwn = false;
    for (size_t k = begin; k < end; ++k)
      ordersOwn |= !out_.actions[k].weak && out_.actions[k].cls != ActionClass::Note;
    if (more && !ordersOwn && after < toks.size()) {
      repeat = true;
      repeatAt = after - 1;
    }
  }
  // "Robot steps: steps 5-9 on the robot (washes as per JK)": steps named
  // before any word that points back, whose "as" and "per" are about
  // something else, are assigned, not copied ("as in step 3", "see steps
  // 4-6" point first; "steps 4-6 as before" is a guess, kept).
  bool pointsBack = firstCueWordAt < refAt || inexact ||
                    (refAt < toks.size() && refAt > 0 && toks[refAt - 1].is("in"));
  if (!repeat && (!cue || !pointsBack))
    refUnits.clear();
  auto actionsOf = [&](const std::vector<unsigned> &units) {
    std::vector<size_t> out;
    for (size_t k = 0; k < begin; ++k)
      if (std::find(units.begin(), units.end(), out_.actions[k].unit) != units.end() &&
          out_.actions[k].cls != ActionClass::Note)
        out.push_back(k);
    return out;
  };

  if (repeat && washWord && refUnits.empty() && foldWashCycle(s, begin, repeatAt))
    return;
  if (repeat) {
    std::vector<size_t> sources;
    std::string from;
    if (!refUnits.empty()) {
      sources = actionsOf(refUnits);
      from = refUnits.size() == 1 && !out_.units[refUnits[0]].label.empty()
                 ? "step " + out_.units[refUnits[0]].label
                 : "the steps it names";
    } else if (washWord) {
      for (size_t k = begin; k-- > 0;)
        if (out_.actions[k].cls == ActionClass::Wash && !out_.actions[k].weak) {
          sources.push_back(k);
          from = labelOf(out_.units, out_.actions[k]);
          break;
        }
    } else {
      // The same unit's earlier steps, else the previous unit's.
      for (size_t k = 0; k < begin; ++k)
        if (out_.actions[k].unit == s.unit && !out_.actions[k].weak &&
            out_.actions[k].cls != ActionClass::Note)
          sources.push_back(k);
      if (sources.empty()) {
        for (size_t k = begin; k-- > 0;) {
          const Action &a = out_.actions[k];
          if (a.weak || a.cls == ActionClass::Note)
            continue;
          unsigned unit = a.unit;
          for (size_t m = 0; m <= k; ++m)
            if (out_.actions[m].unit == unit && !out_.actions[m].weak &&
                out_.actions[m].cls != ActionClass::Note)
              sources.push_back(m);
          break;
        }
      }
      if (!sources.empty())
        from = labelOf(out_.units, out_.actions[sources.front()]);
    }
    if (sources.empty())
      return;
    // How many copies: "twice more" 2; "repeat once" 1; "repeat 3 times"
    // 2 or 3 (the last copy is not required).
    unsigned copies = 1;
    bool ambiguous = false;
    for (size_t i = repeatAt + 1; i < toks.size(); ++i) {
      if (toks[i].is("once")) {
        copies = 1;
        break;
      }
      std::optional<prose::Quantity> q = prose::quantityAt(toks, i, platform_, s.text);
      if (!q || q->dimension != Dimension::Count)
        continue;
      bool more = false;
      for (size_t k = q->first; k < std::min(toks.size(), q->last + 1); ++k)
        more |= toks[k].is("more") || toks[k].is("additional") || toks[k].is("further");
      // "(eleven transfers in all)", "a total of 4 times": the first one
      // counts.
      bool total = (q->last + 1 < toks.size() && toks[q->last].is("in") &&
                    (toks[q->last + 1].is("all") || toks[q->last + 1].is("total"))) ||
                   (q->first >= 2 && toks[q->first - 1].is("of") && toks[q->first - 2].is("total"));
      unsigned n = static_cast<unsigned>(std::max(1.0, q->value.low));
      if (total) {
        copies = n > 1 ? n - 1 : 1;
      } else if (more || n == 1) {
        copies = n;
      } else {
        copies = n;
        ambiguous = true;
      }
      break;
    }
    // "Repeat twice more, for three washes in total": the total, stated
    // anywhere in the sentence, is the steps' whole count; the sources
    // carry it and nothing is copied (the count named "three washes" is
    // the same steps, not a fourth).
    std::optional<double> total;
    for (size_t i = repeatAt + 1; i < toks.size() && !total; ++i) {
      std::optional<prose::Quantity> q = prose::quantityAt(toks, i, platform_, s.text);
      if (q && q->dimension == Dimension::Count &&
          ((q->last + 1 < toks.size() && toks[q->last].is("in") &&
            (toks[q->last + 1].is("all") || toks[q->last + 1].is("total"))) ||
           (q->first >= 2 && toks[q->first - 1].is("of") && toks[q->first - 2].is("total"))))
        total = q->value.low;
    }
    bool totalOfWashes = total && std::all_of(sources.begin(), sources.end(), [&](size_t k) {
                           return out_.actions[k].cls == ActionClass::Wash ||
                                  out_.actions[k].cls == ActionClass::Aspirate;
                         });
    if (totalOfWashes) {
      copies = 0;
      for (size_t k : sources)
        if (out_.actions[k].cls == ActionClass::Wash)
          out_.actions[k].values(Param::Cycles) = {washCyclesInAll(*total, out_.actions[k].loc)};
    }
    copies = std::min(copies, 50u);
    // "Repeat the wash process for five times as conducted in step 3": the
    // wash of step 3 with five cycles in all, not five copies of each of
    // its clauses (aspirate, fill, soak, wash).
    std::optional<double> washCycles;
    if (washWord && !refUnits.empty() && !totalOfWashes &&
        std::any_of(sources.begin(), sources.end(),
                    [&](size_t k) { return out_.actions[k].cls == ActionClass::Wash; }))
      for (size_t i = repeatAt + 1; i < toks.size() && !washCycles; ++i) {
        std::optional<prose::Quantity> q = prose::quantityAt(toks, i, platform_, s.text);
        if (q && q->dimension == Dimension::Count && q->value.low >= 1)
          washCycles = q->value.low;
      }
    if (washCycles) {
      sources.erase(std::remove_if(sources.begin(), sources.end(),
                                   [&](size_t k) {
                                     return out_.actions[k].cls != ActionClass::Wash;
                                   }),
                    sources.end());
      copies = 1;
      ambiguous = false;
    }
    // The repeat sentence's own mentions are the copies.
    std::vector<Action> own;
    for (size_t k = begin; k < end; ++k)
      if (!out_.actions[k].weak &&
          !(totalOfWashes && (out_.actions[k].cls == ActionClass::Wash ||
                              out_.actions[k].cls == ActionClass::Aspirate)))
        own.push_back(out_.actions[k]);
    out_.actions.resize(begin);
    for (Action &a : own)
      out_.actions.push_back(std::move(a));
    SourceLoc at = locate(s.unit, s.offset + toks[repeatAt].begin,
                          toks[repeatAt].end - toks[repeatAt].begin);
    for (unsigned c = 0; c < copies; ++c)
      for (size_t k : sources) {
        Action copy = copyInto(k, from, s, index, at);
        if (washCycles)
          copy.values(Param::Cycles) = {washCyclesInAll(*washCycles, at)};
        copy.inexactCopy = false;
        copy.ambiguousCopy = ambiguous && c + 1 == copies;
        copy.repeatCopy = true;
        out_.actions.push_back(std::move(copy));
      }
    return;
  }
  if (!refUnits.empty()) {
    std::vector<size_t> sources = actionsOf(refUnits);
    std::string from = refUnits.size() == 1 && !out_.units[refUnits[0]].label.empty()
                           ? "step " + out_.units[refUnits[0]].label
                           : "the steps it names";
    // "100 uL stop, shake as in step 2, read": the reference belongs to
    // its clause. A step of another clause with values of its own is not
    // filled from it (the stop solution is not step 2's master mix); one
    // without values ("Block, wash as in step 3") may be.
    auto before = [](const SourceLoc &a, const SourceLoc &b) {
      return a.line < b.line || (a.line == b.line && a.col < b.col);
    };
    size_t clauseFirst = std::min(refAt, toks.size() - 1), clauseEnd = refAt;
    auto clauseBreak = [&](size_t k) {
      return toks[k].isPunct(",") || toks[k].isPunct(";") || toks[k].is("then");
    };
    while (clauseFirst > 0 && !clauseBreak(clauseFirst - 1))
      --clauseFirst;
    while (clauseEnd < toks.size() && !clauseBreak(clauseEnd))
      ++clauseEnd;
    SourceLoc clauseStart = locate(s.unit, s.offset + toks[clauseFirst].begin, 1);
    std::optional<SourceLoc> clauseStop;
    if (clauseEnd < toks.size())
      clauseStop = locate(s.unit, s.offset + toks[clauseEnd].begin, 1);
    auto inClause = [&](const Action &a) {
      return !before(a.loc, clauseStart) && (!clauseStop || before(a.loc, *clauseStop));
    };
    bool clauseActs = std::any_of(out_.actions.begin() + static_cast<long>(begin),
                                  out_.actions.begin() + static_cast<long>(end),
                                  [&](const Action &a) {
                                    return a.cls != ActionClass::Note && inClause(a);
                                  });
    bool own = false;
    for (size_t k = begin; k < end; ++k) {
      Action &a = out_.actions[k];
      if (a.cls == ActionClass::Note)
        continue;
      if (clauseActs && !inClause(a) && !a.weak) {
        own = true;
        continue;
      }
      for (size_t src : sources)
        if (out_.actions[src].cls == a.cls) {
          // "Wash x3 w/ 300 uL (JK: use 4 washes not 3)" as step 6, then
          // "Wash as in 6": the named step holds two of this kind that
          // disagree, so which one is meant is a guess.
          bool twoReadings = std::any_of(sources.begin(), sources.end(), [&](size_t other) {
            const Action &o = out_.actions[other];
            if (other == src || o.cls != a.cls)
              return false;
            for (size_t p = 0; p < kParamCount; ++p)
              if (valuesContradict(o.params[p], out_.actions[src].params[p]))
                return true;
            return false;
          });
          fillFrom(a, out_.actions[src], from, twoReadings);
          own = true;
          break;
        }
      own = own || !a.weak;
    }
    // "shake again as in step 2" where step 2 has no shake (a reply put
    // it after step 2): the reference says how, not what to do again.
    bool kindOfItsOwn = std::any_of(
        out_.actions.begin() + static_cast<long>(begin), out_.actions.begin() + static_cast<long>(end),
        [&](const Action &a) {
          return a.cls != ActionClass::Note && robotClass(a.cls) &&
                 std::none_of(sources.begin(), sources.end(),
                              [&](size_t src) { return out_.actions[src].cls == a.cls; });
        });
    if (!own && !kindOfItsOwn) {
      for (size_t k = begin; k < end;)
        if (out_.actions[k].weak)
          out_.actions.erase(out_.actions.begin() + static_cast<long>(k)), --end;
        else
          ++k;
      for (size_t src : sources) {
        out_.actions.push_back(copyInto(src, from, s, index, out_.units[s.unit].loc));
      }
    }
    return;
  }
  // "as above", "again", or a bare "Wash the plate.": the last step of the
  // same kind, a guess.
  for (size_t k = begin; k < end; ++k) {
    Action &a = out_.actions[k];
    bool lacking = a.weak || !a.hasNumeric() ||
                   (a.cls == ActionClass::Wash && !a.has(Param::Volume));
    if (!lacking || !(inexact || a.cls == ActionClass::Wash))
      continue;
    // "After the last wash, remove any remaining buffer": a wash named to
    // say when, not asked for again.
    std::string lowerText = prose::lowerAscii(a.text);
    if (a.weak && !inexact &&
        (lowerText.rfind("after ", 0) == 0 || lowerText.rfind("before ", 0) == 0 ||
         lowerText.rfind("following ", 0) == 0 || lowerText.rfind("between ", 0) == 0 ||
         lowerText.rfind("during ", 0) == 0))
      continue;
    for (size_t src = begin; src-- > 0;)
      if (out_.actions[src].cls == a.cls && !out_.actions[src].weak) {
        fillFrom(a, out_.actions[src], labelOf(out_.units, out_.actions[src]), true);
        break;
      }
  }
}

} // namespace

std::optional<ProcedureText> readProcedure(const SourceManager &sources, uint32_t fileId,
                                           DiagnosticEngine &diags, const Platform &platform) {
  Reader reader(sources, fileId, diags, platform);
  return reader.run();
}

} // namespace plate::agent
