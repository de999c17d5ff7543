//===- StepActions.cpp - Actions, prose tokens and prose quantities -------===//
#include "agent/StepActions.h"
#include "agent/ProseScan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace plate::agent {

std::string_view actionClassName(ActionClass cls) {
  switch (cls) {
  case ActionClass::Dispense: return "dispense";
  case ActionClass::Aspirate: return "aspirate";
  case ActionClass::Wash: return "wash";
  case ActionClass::Mix: return "mix";
  case ActionClass::Transfer: return "transfer";
  case ActionClass::Incubate: return "incubate";
  case ActionClass::Shake: return "shake";
  case ActionClass::Read: return "read";
  case ActionClass::ReadFluorescence: return "read fluorescence";
  case ActionClass::Analyze: return "analyze";
  case ActionClass::Wait: return "wait";
  case ActionClass::Magnet: return "magnet";
  case ActionClass::Prepare: return "prepare";
  case ActionClass::Equilibrate: return "equilibrate";
  case ActionClass::Note: return "note";
  }
  return "?";
}

bool robotClass(ActionClass cls) {
  switch (cls) {
  case ActionClass::Prepare:
  case ActionClass::Equilibrate:
  case ActionClass::Note: return false;
  default: return true;
  }
}

std::string_view domainName(Domain domain) {
  switch (domain) {
  case Domain::Unstated: return "unstated";
  case Domain::Robot: return "robot";
  case Domain::Person: return "person";
  case Domain::Both: return "both";
  }
  return "?";
}

std::string_view paramName(Param param) {
  switch (param) {
  case Param::Volume: return "volume";
  case Param::Time: return "time";
  case Param::Temperature: return "temperature";
  case Param::Speed: return "speed";
  case Param::Wavelength: return "wavelength";
  case Param::Reference: return "reference";
  case Param::Excitation: return "excitation";
  case Param::Emission: return "emission";
  case Param::Cycles: return "cycles";
  case Param::Ratio: return "ratio";
  }
  return "?";
}

Dimension paramDimension(Param param) {
  switch (param) {
  case Param::Volume: return Dimension::Volume;
  case Param::Time: return Dimension::Time;
  case Param::Temperature: return Dimension::Temperature;
  case Param::Speed: return Dimension::Speed;
  case Param::Wavelength:
  case Param::Reference:
  case Param::Excitation:
  case Param::Emission: return Dimension::Wavelength;
  case Param::Cycles: return Dimension::Count;
  case Param::Ratio: return Dimension::Ratio;
  }
  return Dimension::Count;
}

namespace {

bool close(double a, double b) {
  return std::fabs(a - b) <= 1e-6 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

/// A canonical value with the unit a reader expects (`90 min`, `1.5 h`).
std::string showCanonical(Dimension dimension, double v) {
  switch (dimension) {
  case Dimension::Volume:
    return v >= 1000 && close(std::fmod(v, 100), 0) ? fmt::format("{} mL", formatNumber(v / 1000))
                                                   : fmt::format("{} µL", formatNumber(v));
  case Dimension::Time:
    if (v >= 3600 && close(std::fmod(v, 360), 0))
      return fmt::format("{} h", formatNumber(v / 3600));
    if (v >= 60 && close(std::fmod(v, 6), 0))
      return fmt::format("{} min", formatNumber(v / 60));
    return fmt::format("{} s", formatNumber(v));
  case Dimension::Temperature: return fmt::format("{} °C", formatNumber(v));
  case Dimension::Speed: return fmt::format("{} rpm", formatNumber(v));
  case Dimension::Wavelength: return fmt::format("{} nm", formatNumber(v));
  case Dimension::Count: return fmt::format("{}x", formatNumber(v));
  case Dimension::Ratio: return fmt::format("1:{}", formatNumber(v));
  case Dimension::Concentration: return formatNumber(v);
  }
  return formatNumber(v);
}

} // namespace

bool Value::admits(double v) const {
  double eps = 1e-6 * std::max({1.0, std::fabs(low), std::fabs(high)});
  switch (kind) {
  case Kind::Exact: return close(v, low);
  case Kind::Range:
  case Kind::About: return v >= low - eps && v <= high + eps;
  case Kind::AtLeast: return v >= low - eps;
  case Kind::AtMost: return v <= high + eps;
  }
  return false;
}

std::string Value::display() const {
  if (!text.empty())
    return text;
  return formatNumber(low);
}

bool Action::hasNumeric() const {
  for (const std::vector<Value> &v : params)
    if (!v.empty())
      return true;
  return false;
}

std::string Action::summary() const {
  std::vector<std::string> parts;
  parts.emplace_back(actionClassName(cls));
  auto show = [&](Param p, const char *prefix = "") {
    for (const Value &v : values(p)) {
      std::string text;
      if (v.symbolic == Unit::Ambient)
        text = "RT";
      else if (v.symbolic == Unit::Overnight)
        text = "overnight";
      else if (v.kind == Value::Kind::Range)
        text = showCanonical(paramDimension(p), v.low) + "-" +
               showCanonical(paramDimension(p), v.high);
      else if (v.kind == Value::Kind::AtLeast)
        text = ">=" + showCanonical(paramDimension(p), v.low);
      else if (v.kind == Value::Kind::AtMost)
        text = "<=" + showCanonical(paramDimension(p), v.high);
      else if (v.kind == Value::Kind::About)
        text = "~" + showCanonical(paramDimension(p), (v.low + v.high) / 2);
      else
        text = showCanonical(paramDimension(p), v.low);
      parts.push_back(prefix + text);
    }
  };
  show(Param::Cycles);
  show(Param::Volume);
  show(Param::Time);
  show(Param::Temperature);
  show(Param::Speed, cls == ActionClass::Incubate ? "shaking " : "");
  show(Param::Wavelength);
  show(Param::Reference, "ref ");
  show(Param::Excitation, "ex ");
  show(Param::Emission, "em ");
  show(Param::Ratio);
  if (dark.value_or(false))
    parts.emplace_back("dark");
  if (shaking && !*shaking && cls == ActionClass::Incubate)
    parts.emplace_back("no shaking");
  if (fourPL)
    parts.emplace_back(*fourPL ? "4pl" : "linear");
  if (subtractBlank.value_or(false))
    parts.emplace_back("blank");
  if (!liquid.empty())
    parts.push_back(liquid);
  return fmt::format("{}", fmt::join(parts, " "));
}

//===--- Units and names --------------------------------------------------===//

std::optional<Unit> proseUnit(std::string_view word) {
  while (!word.empty() && std::string_view(".,;:)]").find(word.back()) != std::string_view::npos)
    word.remove_suffix(1);
  if (word.empty())
    return std::nullopt;
  if (auto unit = lookupUnit(word))
    return unit;
  static const std::map<std::string, Unit, std::less<>> prose = {
      {"µl", Unit::MicroLiter},        {"μl", Unit::MicroLiter},        {"ul", Unit::MicroLiter},
      {"microliter", Unit::MicroLiter}, {"microliters", Unit::MicroLiter},
      {"microlitre", Unit::MicroLiter}, {"microlitres", Unit::MicroLiter},
      {"ml", Unit::MilliLiter},        {"milliliter", Unit::MilliLiter},
      {"milliliters", Unit::MilliLiter}, {"millilitre", Unit::MilliLiter},
      {"millilitres", Unit::MilliLiter}, {"nl", Unit::NanoLiter},
      {"nanoliter", Unit::NanoLiter},  {"nanolitre", Unit::NanoLiter},
      {"nanoliters", Unit::NanoLiter}, {"nanolitres", Unit::NanoLiter},
      {"ºc", Unit::Celsius},           {"°c", Unit::Celsius},           {"℃", Unit::Celsius},
      {"degc", Unit::Celsius},         {"celsius", Unit::Celsius},
      {"h", Unit::Hour},               {"hr", Unit::Hour},              {"hrs", Unit::Hour},
      {"hour", Unit::Hour},            {"hours", Unit::Hour},           {"min", Unit::Minute},
      {"mins", Unit::Minute},          {"minute", Unit::Minute},        {"minutes", Unit::Minute},
      {"s", Unit::Second},             {"sec", Unit::Second},           {"secs", Unit::Second},
      {"second", Unit::Second},        {"seconds", Unit::Second},       {"rpm", Unit::Rpm},
      {"nm", Unit::Nanometer},         {"nanometer", Unit::Nanometer},
      {"nanometers", Unit::Nanometer}, {"nanometre", Unit::Nanometer},
      {"nanometres", Unit::Nanometer},
      // Spoken lab slang: "twenty mikes", "five mils".
      {"mikes", Unit::MicroLiter},     {"mils", Unit::MilliLiter},
      // Older notation, still in photocopied methods: lambda for the
      // microlitre, the millimicron for the nanometre, cc for mL.
      {"λ", Unit::MicroLiter},         {"mμ", Unit::Nanometer},         {"mµ", Unit::Nanometer},
      {"cc", Unit::MilliLiter},        {"r.p.m", Unit::Rpm},
  };
  std::string lower = prose::lowerAscii(word);
  if (auto it = prose.find(lower); it != prose.end())
    return it->second;
  size_t slash = word.find('/'); // "300 µL/well"; not "s/d" (serial dilution)
  std::string_view per = slash == std::string_view::npos ? "" : word.substr(slash + 1);
  if (slash != std::string_view::npos && slash > 0 && (per.size() >= 2 || proseUnit(per)))
    if (auto unit = proseUnit(word.substr(0, slash));
        unit && unitInfo(*unit).dimension != Dimension::Concentration)
      return unit;
  return std::nullopt;
}

namespace {

const std::set<std::string, std::less<>> &nameStopwords() {
  static const std::set<std::string, std::less<>> words = {
      "of",   "the",  "a",    "an",   "per",  "well",  "wells", "each", "every", "to",
      "into", "in",   "with", "and",  "or",   "all",   "from",  "at",   "for",   "on",
      "is",   "are",  "be",   "by",   "its",  "their", "plate", "same", "then",  "this",
      "these", "used", "use", "step", "steps", "into", "onto", "only", "than", "that",
      "it",   "as",   "was",  "were", "added", "add", "adds", "dispense", "dispensed",
      "is",   "be",   "been", "has",  "have", "using", "about", "approximately", "approx",
      "followed", "next", "again", "then", "into", "appropriate", "corresponding", "respective",
      "volume", "volumes", "min", "h", "ul", "µl", "ml", "nm", "rpm", "rt", "room", "temperature",
  };
  return words;
}

/// Common abbreviations of liquid names in protocols and scripts.
const std::map<std::string, std::vector<std::string>, std::less<>> &nameAbbreviations() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> table = {
      {"ab", {"antibody"}},         {"abs", {"antibody"}},      {"det", {"detection"}},
      {"sa", {"streptavidin"}},     {"strep", {"streptavidin"}}, {"conj", {"conjugate"}},
      {"std", {"standard"}},        {"stds", {"standard"}},     {"wr", {"working", "reagent"}},
      {"ws", {"working", "solution"}}, {"pbst", {"pbs", "tween"}}, {"tbst", {"tbs", "tween"}},
      {"buf", {"buffer"}},          {"soln", {"solution"}},     {"sol", {"solution"}},
      {"sub", {"substrate"}},       {"dil", {"diluent"}},       {"h2so4", {"sulfuric", "acid"}},
      {"hcl", {"acid"}},            {"ctrl", {"control"}},      {"smp", {"sample"}},
      {"qc", {"control"}},          {"ag", {"antigen"}},        {"blk", {"blank"}},
  };
  return table;
}

} // namespace

std::vector<std::string> nameWords(std::string_view name) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (word.empty())
      return;
    std::string lower = prose::lowerAscii(word);
    word.clear();
    if (nameStopwords().count(lower) || lower.size() < 2)
      return;
    if (std::all_of(lower.begin(), lower.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return;
    if (auto it = nameAbbreviations().find(lower); it != nameAbbreviations().end()) {
      out.push_back(lower);
      for (const std::string &w : it->second)
        out.push_back(w);
      return;
    }
    out.push_back(lower);
  };
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || u >= 0x80)
      word += c;
    else
      flush();
  }
  flush();
  return out;
}

double liquidSimilarity(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  if (a.empty() || b.empty())
    return 0;
  auto same = [](const std::string &x, const std::string &y) {
    if (x == y)
      return true;
    size_t n = std::min(x.size(), y.size());
    // "conjugated" / "conjugate", "standards" / "standard", "antibod" / "antibody".
    return n >= 4 && x.compare(0, n, y, 0, n) == 0;
  };
  size_t matched = 0;
  for (const std::string &y : b)
    if (std::any_of(a.begin(), a.end(), [&](const std::string &x) { return same(x, y); }))
      ++matched;
  return double(matched) / double(b.size());
}

//===--- Tokens -----------------------------------------------------------===//

namespace prose {

std::string lowerAscii(std::string_view text) {
  std::string out(text);
  for (char &c : out)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string_view trimView(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r'))
    ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
    --e;
  return s.substr(b, e - b);
}

std::vector<std::string_view> textLines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at <= text.size();) {
    size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

namespace {

/// Length of the UTF-8 sequence at `i` (1 for a stray byte, which the
/// reader has already refused; here it only must not loop).
size_t sequenceLength(std::string_view text, size_t i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
  return std::min(n, text.size() - i);
}

/// Non-ASCII characters that are punctuation, not letters.
bool unicodePunct(std::string_view ch) {
  static const std::set<std::string_view> punct = {
      "–", "—", "×", "…", "“", "”", "‘", "’", "•", "→", "«", "»", "≥", "≤", "±", "·", "‐", "−", "≈", "⇒", "➔", "►", "▪", "●", "◦", "′", "″", "\xc2\xa0"};
  return punct.count(ch) > 0;
}

bool asciiWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

} // namespace

/// The comma at `comma` groups thousands: the digits since `start` (or the
/// previous comma) are one to three, all digits, and exactly three digits
/// follow it, then no further digit.
bool isThousandsGroup(std::string_view text, size_t start, size_t comma) {
  size_t group = comma;
  while (group > start && isDigit(text[group - 1]))
    --group;
  size_t lead = comma - group;
  if (lead == 0 || lead > 3 || (group > start && text[group - 1] != ','))
    return false;
  if (group == start && text[start] == '0' && lead > 1)
    return false;
  for (size_t k = 1; k <= 3; ++k)
    if (comma + k >= text.size() || !isDigit(text[comma + k]))
      return false;
  return comma + 4 >= text.size() || !isDigit(text[comma + 4]);
}

/// The comma at `comma` is a decimal comma ("5,0 µl", "62,5 pg/ml",
/// "0,05 %", protocols translated from German or French): one to three
/// digits before it (not after another comma), one or two after it, and a
/// unit next. Without a unit ("wells 1,2 and 3"), or as a field of
/// comma-separated values, it stays a list.
bool isDecimalComma(std::string_view text, size_t start, size_t comma) {
  size_t group = comma;
  while (group > start && isDigit(text[group - 1]))
    --group;
  size_t lead = comma - group;
  if (lead == 0 || lead > 3 || group != start)
    return false;
  // "Conjugate,100,60 min": a field of comma-separated values.
  if (start > 0 && text[start - 1] == ',')
    return false;
  size_t end = comma + 1;
  while (end < text.size() && isDigit(text[end]))
    ++end;
  size_t fraction = end - comma - 1;
  if (fraction == 0 || fraction > 2 || (end < text.size() && text[end] == ','))
    return false;
  size_t unit = end;
  while (unit < text.size() && text[unit] == ' ')
    ++unit;
  if (unit < text.size() && text[unit] == '%')
    return true;
  size_t unitEnd = unit;
  while (unitEnd < text.size() && text[unitEnd] != ' ' && text[unitEnd] != ',' &&
         text[unitEnd] != ';' && text[unitEnd] != ')' && text[unitEnd] != '.' &&
         text[unitEnd] != '\n')
    ++unitEnd;
  return unitEnd > unit && proseUnit(text.substr(unit, unitEnd - unit)).has_value();
}

namespace {

/// Number words of dictated or spelled-out text.
std::optional<unsigned> unitNumberWord(std::string_view w) {
  static const std::map<std::string_view, unsigned> words = {
      {"zero", 0},     {"oh", 0},         {"one", 1},       {"two", 2},        {"three", 3},
      {"four", 4},     {"five", 5},       {"six", 6},       {"seven", 7},      {"eight", 8},
      {"nine", 9},     {"ten", 10},       {"eleven", 11},   {"twelve", 12},    {"thirteen", 13},
      {"fourteen", 14}, {"fifteen", 15},  {"sixteen", 16},  {"seventeen", 17}, {"eighteen", 18},
      {"nineteen", 19}};
  if (auto it = words.find(w); it != words.end())
    return it->second;
  return std::nullopt;
}

std::optional<unsigned> tensNumberWord(std::string_view w) {
  static const std::map<std::string_view, unsigned> words = {
      {"twenty", 20}, {"thirty", 30},  {"forty", 40},  {"fifty", 50},
      {"sixty", 60},  {"seventy", 70}, {"eighty", 80}, {"ninety", 90}};
  if (auto it = words.find(w); it != words.end())
    return it->second;
  return std::nullopt;
}

bool numberPart(std::string_view w) {
  return unitNumberWord(w) || tensNumberWord(w) || w == "hundred" || w == "thousand" ||
         w == "point";
}

std::vector<std::string> hyphenParts(const std::string &lower) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dash; (dash = lower.find('-', start)) != std::string::npos; start = dash + 1)
    parts.push_back(lower.substr(start, dash - start));
  parts.push_back(lower.substr(start));
  return parts;
}

/// The value of spelled-out number parts: "two hundred", "twenty-five",
/// "six point two five", "twelve and a half", and numbers said digit
/// group by digit group ("four-oh-five" 405, "three-eighty-four" 384).
std::optional<double> spelledValue(std::vector<std::string> parts) {
  double fraction = 0;
  if (parts.size() >= 4 && parts[parts.size() - 3] == "and" && parts[parts.size() - 2] == "a" &&
      parts.back() == "half") {
    fraction = 0.5;
    parts.resize(parts.size() - 3);
  }
  if (auto point = std::find(parts.begin(), parts.end(), "point"); point != parts.end()) {
    std::string digits;
    for (auto it = point + 1; it != parts.end(); ++it) {
      std::optional<unsigned> digit = unitNumberWord(*it);
      if (!digit || *digit > 9)
        return std::nullopt;
      digits += static_cast<char>('0' + *digit);
    }
    if (digits.empty() || fraction)
      return std::nullopt;
    fraction = std::strtod(("0." + digits).c_str(), nullptr);
    parts.erase(point, parts.end());
  }
  if (parts.empty() || parts.front() == "oh" || parts.front() == "and")
    return std::nullopt;
  bool scaled = std::count(parts.begin(), parts.end(), "hundred") +
                    std::count(parts.begin(), parts.end(), "thousand") > 0;
  if (scaled) {
    double total = 0, current = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      const std::string &part = parts[k];
      if (part == "a" || part == "and")
        continue;
      if (part == "hundred")
        current = (current ? current : 1) * 100;
      else if (part == "thousand") {
        total += (current ? current : 1) * 1000;
        current = 0;
      } else if (auto tens = tensNumberWord(part))
        current += *tens;
      else if (auto unit = unitNumberWord(part); unit && part != "oh")
        current += *unit;
      else
        return std::nullopt;
    }
    return total + current + fraction;
  }
  // Groups said one after another: a tens word takes a following digit.
  std::vector<unsigned> groups;
  for (size_t k = 0; k < parts.size(); ++k) {
    if (parts[k] == "a" || parts[k] == "and")
      return std::nullopt;
    if (auto tens = tensNumberWord(parts[k])) {
      unsigned value = *tens;
      if (k + 1 < parts.size())
        if (auto unit = unitNumberWord(parts[k + 1]); unit && *unit >= 1 && *unit <= 9 &&
                                                      parts[k + 1] != "oh") {
          value += *unit;
          ++k;
        }
      groups.push_back(value);
    } else if (auto unit = unitNumberWord(parts[k])) {
      groups.push_back(*unit);
    } else {
      return std::nullopt;
    }
  }
  if (groups.size() == 1)
    return groups.front() + fraction;
  std::string digits;
  for (unsigned group : groups)
    digits += std::to_string(group);
  return std::strtod(digits.c_str(), nullptr) + fraction;
}

/// Spelled-out numbers become number tokens ("twenty microlitres", "at a
/// thousand rpm", "read at four-oh-five"): dictated notes write them so.
/// A lone small number word stays a word unless a unit follows ("five
/// mils"), so "one of the wells", "step two" and the count words of
/// quantityAt ("three times") read as before.
void readSpelledNumbers(std::vector<Token> &tokens) {
  std::vector<Token> out;
  out.reserve(tokens.size());
  for (size_t i = 0; i < tokens.size();) {
    std::vector<std::string> parts;
    size_t end = i;
    auto isNumberToken = [&](size_t k) {
      if (k >= tokens.size() || !tokens[k].isWord())
        return false;
      std::vector<std::string> split = hyphenParts(tokens[k].lower);
      return std::all_of(split.begin(), split.end(), [](const std::string &p) { return numberPart(p); });
    };
    while (end < tokens.size()) {
      const Token &t = tokens[end];
      if (isNumberToken(end)) {
        for (std::string &part : hyphenParts(t.lower))
          parts.push_back(std::move(part));
        ++end;
        continue;
      }
      // "a hundred", "two and a half", "two hundred and fifty".
      bool joins = t.isWord() && (t.is("a") || t.is("and"));
      if (joins && (t.is("a") ? (end + 1 < tokens.size() &&
                                 (tokens[end + 1].is("hundred") || tokens[end + 1].is("thousand") ||
                                  (tokens[end + 1].is("half") && !parts.empty() && parts.back() == "and")))
                              : (!parts.empty() &&
                                 // "two hundred and fifty", not "between two and three"
                                 ((isNumberToken(end + 1) &&
                                   (std::count(parts.begin(), parts.end(), "hundred") ||
                                    std::count(parts.begin(), parts.end(), "thousand"))) ||
                                  (end + 2 < tokens.size() && tokens[end + 1].is("a") &&
                                   tokens[end + 2].is("half")))))) {
        parts.push_back(t.lower);
        ++end;
        continue;
      }
      if (t.isWord() && t.is("half") && !parts.empty() && parts.back() == "a") {
        parts.push_back("half");
        ++end;
      }
      break;
    }
    std::optional<double> value = end > i ? spelledValue(parts) : std::nullopt;
    bool lone = parts.size() == 1 && unitNumberWord(parts.front()) && *unitNumberWord(parts.front()) <= 12;
    bool unitAfter = end < tokens.size() && tokens[end].isWord() && proseUnit(tokens[end].text);
    // The low end of a spoken range: "three to four hours", "ten to
    // fifteen minutes" (the unit follows the high end only).
    auto spelledWithUnitFrom = [&](size_t k) {
      size_t last = k;
      while (last < tokens.size() && isNumberToken(last))
        ++last;
      return last > k && last < tokens.size() && tokens[last].isWord() &&
             proseUnit(tokens[last].text);
    };
    // (tokens before i have been moved to `out`)
    bool between = !out.empty() && out.back().isWord() && out.back().is("between");
    bool rangeLow = end + 1 < tokens.size() && tokens[end].isWord() &&
                    (tokens[end].is("to") || (between && tokens[end].is("and"))) &&
                    spelledWithUnitFrom(end + 1);
    if (!value || (lone && !unitAfter && !rangeLow) || parts.front() == "point" ||
        parts.back() == "a") {
      out.push_back(std::move(tokens[i]));
      ++i;
      continue;
    }
    Token number;
    number.kind = Token::Kind::Number;
    double spelled = value.value_or(0);
    number.text = fmt::format("{}", spelled);
    number.lower = number.text;
    number.number = spelled;
    number.begin = tokens[i].begin;
    number.end = tokens[end - 1].end;
    number.glued = tokens[i].glued;
    number.spelled = true;
    out.push_back(std::move(number));
    i = end;
  }
  tokens = std::move(out);
}

} // namespace

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> out;
  size_t i = 0;
  bool space = true;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      space = true;
      ++i;
      continue;
    }
    size_t n = sequenceLength(text, i);
    std::string_view ch = text.substr(i, n);
    bool wordChar = n > 1 ? !unicodePunct(ch) : asciiWordChar(c);
    if (!wordChar) {
      Token t;
      t.kind = Token::Kind::Punct;
      t.text = std::string(ch == "\xc2\xa0" ? std::string_view(" ") : ch);
      t.lower = t.text;
      t.begin = i;
      t.end = i + n;
      t.glued = !space;
      if (ch != "\xc2\xa0")
        out.push_back(std::move(t));
      else
        space = true;
      if (ch != "\xc2\xa0")
        space = false;
      i += n;
      continue;
    }
    // A word: letters, digits, non-ASCII letters (µ, °, é), with inner
    // apostrophes, inner dots between digits (1.5) and inner hyphens
    // unless both neighbours are digits (1-2 is a range, A1-A2 a block).
    size_t start = i;
    bool decimalComma = false;
    while (i < text.size()) {
      char d = text[i];
      size_t m = sequenceLength(text, i);
      std::string_view dch = text.substr(i, m);
      if (m > 1 ? !unicodePunct(dch) : asciiWordChar(d)) {
        i += m;
        continue;
      }
      if (i + 1 < text.size() && i > start) {
        char prev = text[i - 1], next = text[i + 1];
        if (d == '.' && isDigit(prev) && isDigit(next)) {
          i += 1;
          continue;
        }
        // Thousands grouped by commas ("1:20,000", "10,000 x g"): one number.
        if (d == ',' && isDigit(prev) && isThousandsGroup(text, start, i)) {
          i += 1;
          continue;
        }
        // A decimal comma before a unit ("1,5 mL"): one number, 1.5.
        if (d == ',' && isDigit(prev) && isDecimalComma(text, start, i)) {
          decimalComma = true;
          i += 1;
          continue;
        }
        if ((d == '\'' ) && asciiWordChar(prev) && asciiWordChar(next)) {
          i += 1;
          continue;
        }
        if (d == '-' && asciiWordChar(prev) && asciiWordChar(next) &&
            !(isDigit(prev) && isDigit(next))) {
          i += 1;
          continue;
        }
      }
      break;
    }
    std::string word(text.substr(start, i - start));
    if (decimalComma)
      std::replace(word.begin(), word.end(), ',', '.');
    else if (word.find(',') != std::string::npos)
      word.erase(std::remove(word.begin(), word.end(), ','), word.end());
    // Digits glued to letters: "30s", "300rpm", "60C", "3x", "10ul", "30-min".
    size_t digits = 0;
    while (digits < word.size() && (isDigit(word[digits]) || (word[digits] == '.' && digits > 0 &&
                                                              digits + 1 < word.size() &&
                                                              isDigit(word[digits + 1]))))
      ++digits;
    bool split = digits > 0 && digits < word.size();
    std::string rest = split ? word.substr(digits) : "";
    if (split && rest[0] == '-') {
      // "30-min" is a quantity; "4-PL", "2-fold", "96-well" are words.
      std::string unitPart = rest.substr(1);
      split = proseUnit(unitPart).has_value() && unitPart != "M";
      if (split)
        rest = unitPart;
    }
    if (split && rest.find('-') != std::string::npos)
      split = false;
    if (digits > 0 && (digits == word.size() || split)) {
      Token number;
      number.kind = Token::Kind::Number;
      number.text = word.substr(0, digits);
      number.lower = number.text;
      number.number = std::strtod(number.text.c_str(), nullptr);
      number.begin = start;
      number.end = start + digits;
      number.glued = !space;
      out.push_back(std::move(number));
      if (split) {
        Token unit;
        unit.text = rest;
        unit.lower = lowerAscii(rest);
        unit.begin = start + (word.size() - rest.size());
        unit.end = i;
        unit.glued = true;
        out.push_back(std::move(unit));
      }
    } else {
      Token t;
      t.text = word;
      t.lower = lowerAscii(word);
      t.begin = start;
      t.end = i;
      t.glued = !space;
      out.push_back(std::move(t));
    }
    space = false;
  }
  readSpelledNumbers(out);
  return out;
}

bool isWellWord(std::string_view word) {
  auto single = [](std::string_view w) {
    if (w.size() < 2 || w.size() > 3)
      return false;
    char row = w[0];
    if (!((row >= 'A' && row <= 'P')))
      return false;
    for (size_t k = 1; k < w.size(); ++k)
      if (!isDigit(w[k]))
        return false;
    int col = std::atoi(std::string(w.substr(1)).c_str());
    return col >= 1 && col <= 24;
  };
  if (single(word))
    return true;
  size_t dash = word.find('-');
  if (dash != std::string_view::npos)
    return single(word.substr(0, dash)) && single(word.substr(dash + 1));
  return false;
}

namespace {

/// "rotate the plate 180 degrees": an angle, not a temperature.
bool rotationDegrees(const std::vector<Token> &toks, size_t number, double value) {
  if (value == 90 || value == 180 || value == 270 || value == 360)
    return true;
  for (size_t k = number > 6 ? number - 6 : 0; k < number; ++k)
    if (toks[k].lower.starts_with("rotat") || toks[k].lower.starts_with("turn") ||
        toks[k].is("angle") || toks[k].is("tilt") || toks[k].is("tilted"))
      return true;
  return false;
}

/// "three times", "two hours": the counts and times said in one word.
std::optional<unsigned> numberWord(std::string_view w) {
  std::optional<unsigned> n = unitNumberWord(w);
  if (n && *n >= 1 && *n <= 12)
    return n;
  return std::nullopt;
}

bool isTimeUnitWord(std::string_view lower) {
  if (auto unit = proseUnit(lower))
    return unitInfo(*unit).dimension == Dimension::Time;
  return false;
}

bool countUnitWord(const Token &t) {
  return t.is("times") || t.is("x") || t.isPunct("×") || t.is("cycles") || t.is("washes") ||
         t.is("time") || t.is("rounds") || t.is("rinses") || t.is("transfers") ||
         t.is("additions");
}

/// The bound a value's neighbours put on it.
Value::Kind boundBefore(const std::vector<Token> &toks, size_t i) {
  auto word = [&](size_t back) -> std::string_view {
    return i >= back ? std::string_view(toks[i - back].lower) : std::string_view();
  };
  std::string_view w1 = word(1), w2 = word(2), w3 = word(3);
  // "-> 200 ul", "=> 200 ul": an arrow to a result, not "more than".
  bool arrow = w1 == ">" && (w2 == "-" || w2 == "=");
  if ((w1 == ">" && !arrow) || w1 == "≥" || (w2 == "at" && w1 == "least") || w1 == "minimum" ||
      (w2 == "more" && w1 == "than") || w1 == "min." || (w2 == "not" && w1 == "less"))
    return Value::Kind::AtLeast;
  if (w1 == "<" || w1 == "≤" || (w2 == "up" && w1 == "to") || w1 == "within" ||
      w1 == "maximum" || w1 == "max" || (w2 == "less" && w1 == "than") ||
      (w3 == "no" && (w2 == "longer" || w2 == "more") && w1 == "than") ||
      (w3 == "not" && (w2 == "longer" || w2 == "more") && w1 == "than") || w1 == "under")
    return Value::Kind::AtMost;
  if (w1 == "~" || w1 == "about" || w1 == "approximately" || w1 == "approx" || w1 == "ca" ||
      w1 == "circa" || w1 == "around" || w1 == "roughly" || w1 == "≈" ||
      (w2 == "approx" && w1 == ".") || (w2 == "ca" && w1 == "."))
    return Value::Kind::About;
  return Value::Kind::Exact;
}

Value::Kind boundAfter(const std::vector<Token> &toks, size_t j) {
  auto word = [&](size_t k) -> std::string_view {
    return j + k < toks.size() ? std::string_view(toks[j + k].lower) : std::string_view();
  };
  if ((word(0) == "(" && word(1) == "at" && word(2) == "least") ||
      (word(0) == "or" && (word(1) == "more" || word(1) == "longer")) || word(0) == "minimum")
    return Value::Kind::AtLeast;
  if ((word(0) == "or" && (word(1) == "less" || word(1) == "shorter")) || word(0) == "maximum" ||
      (word(0) == "(" && (word(1) == "max" || word(1) == "maximum")))
    return Value::Kind::AtMost;
  return Value::Kind::Exact;
}

void applyBound(Value &v, Value::Kind bound) {
  if (bound == Value::Kind::Exact || v.kind != Value::Kind::Exact || v.symbolic != Unit::Count)
    return;
  v.kind = bound;
  if (bound == Value::Kind::About) {
    v.low = v.low * 0.85;
    v.high = v.high * 1.15;
  } else if (bound == Value::Kind::AtLeast) {
    v.high = v.low;
  } else if (bound == Value::Kind::AtMost) {
    v.low = v.high;
  }
}

} // namespace

std::optional<Quantity> quantityAt(const std::vector<Token> &toks, size_t i,
                                   const Platform &platform, std::string_view source) {
  if (i >= toks.size())
    return std::nullopt;
  const Token &t = toks[i];
  auto at = [&](size_t k) -> const Token * { return k < toks.size() ? &toks[k] : nullptr; };
  // "Max 4 g/24 h", "2 mL/24 h": the time a dose or an amount is counted
  // over, the denominator of a rate, waits for nothing.
  if (t.isNumber() && t.glued && i >= 2 && toks[i - 1].isPunct("/") && toks[i - 1].glued) {
    static const std::set<std::string, std::less<>> amounts = {
        "g", "mg", "ug", "\xC2\xB5g" /* µg */, "\xCE\xBCg" /* μg */, "kg", "ng", "l", "ml",
        "mmol", "umol", "mol", "dose", "doses", "tablet", "tablets", "tab", "tabs", "iu", "units"};
    static const std::set<std::string, std::less<>> times = {
        "h", "hr", "hrs", "hour", "hours", "d", "day", "days", "wk", "week", "weeks"};
    if (amounts.count(toks[i - 2].lower) && at(i + 1) && times.count(at(i + 1)->lower))
      return std::nullopt;
  }
  // "2D+1S" (two deep boxes and a super), "3A+2B": a code of counts of
  // lettered things joined by "+", whose capital S or H is no second or
  // hour.
  if (t.isNumber() && t.glued && i >= 2 && toks[i - 1].isPunct("+") && toks[i - 1].glued &&
      toks[i - 2].isWord() && toks[i - 2].glued && at(i + 1) && at(i + 1)->glued &&
      at(i + 1)->isWord() && at(i + 1)->text.size() == 1 &&
      std::isupper(static_cast<unsigned char>(at(i + 1)->text[0])))
    return std::nullopt;
  auto finish = [&](Quantity q) {
    q.value.text = std::string(source.substr(toks[q.first].begin,
                                             toks[q.last - 1].end - toks[q.first].begin));
    Value::Kind bound = boundBefore(toks, q.first);
    if (bound == Value::Kind::Exact)
      bound = boundAfter(toks, q.last);
    // "use within 2 to 4 hours", "up to 1-2 h": a time limit however it
    // was pinned, not an interval to wait. A temperature "within 20-25 °C"
    // stays the interval it names.
    if (bound == Value::Kind::AtMost && q.value.kind == Value::Kind::Range &&
        q.dimension == Dimension::Time) {
      q.value.kind = Value::Kind::AtMost;
      q.value.low = q.value.high;
    }
    applyBound(q.value, bound);
    return q;
  };
  auto symbolic = [&](Dimension dimension, Unit unit, size_t last) {
    Quantity q;
    q.dimension = dimension;
    q.first = i;
    q.last = last;
    q.value.symbolic = unit;
    q.value.kind = Value::Kind::Range;
    if (unit == Unit::Ambient) {
      q.value.low = platform.roomTempMinCelsius;
      q.value.high = platform.roomTempMaxCelsius;
    } else {
      // Overnight: what a lab means by it, 12 to 20 h (the platform
      // reads the literal as 16 h).
      q.value.low = std::min(12.0 * 3600, platform.overnightSeconds);
      q.value.high = std::max(20.0 * 3600, platform.overnightSeconds);
    }
    return finish(q);
  };

  if (t.isWord()) {
    if (t.is("overnight"))
      return symbolic(Dimension::Time, Unit::Overnight, i + 1);
    if (t.is("o") && at(i + 1) && at(i + 1)->isPunct("/") && at(i + 2) && at(i + 2)->is("n"))
      return symbolic(Dimension::Time, Unit::Overnight, i + 3);
    if (t.text == "RT" || t.lower == "r.t")
      return symbolic(Dimension::Temperature, Unit::Ambient, i + 1);
    if ((t.is("room") || t.is("ambient") || t.is("bench")) && at(i + 1) &&
        (at(i + 1)->is("temperature") || at(i + 1)->is("temp")))
      return symbolic(Dimension::Temperature, Unit::Ambient, i + 2);
    if (t.is("ambient"))
      return symbolic(Dimension::Temperature, Unit::Ambient, i + 1);
    // OD450, A490: an absorbance at a wavelength.
    for (std::string_view prefix : {"od", "a"}) {
      if (t.lower.size() == prefix.size() + 3 && t.lower.compare(0, prefix.size(), prefix) == 0 &&
          std::all_of(t.lower.begin() + static_cast<long>(prefix.size()), t.lower.end(),
                      [](char c) { return isDigit(c); })) {
        Quantity q;
        q.dimension = Dimension::Wavelength;
        q.first = i;
        q.last = i + 1;
        q.value.low = q.value.high = std::atof(t.lower.c_str() + prefix.size());
        return finish(q);
      }
    }
    if (t.is("od") && at(i + 1) && at(i + 1)->isNumber() && at(i + 1)->number >= 200 &&
        at(i + 1)->number <= 1000) {
      Quantity q;
      q.dimension = Dimension::Wavelength;
      q.first = i;
      q.last = at(i + 2) && at(i + 2)->is("nm") ? i + 3 : i + 2;
      q.value.low = q.value.high = at(i + 1)->number;
      return finish(q);
    }
    // x3: a count.
    if (t.lower.size() >= 2 && t.lower[0] == 'x' &&
        std::all_of(t.lower.begin() + 1, t.lower.end(), [](char c) { return isDigit(c); })) {
      Quantity q;
      q.dimension = Dimension::Count;
      q.first = i;
      q.last = i + 1;
      q.value.low = q.value.high = std::atof(t.lower.c_str() + 1);
      return finish(q);
    }
    // "wash once before use": one; not "once the plate is dry".
    if (t.is("once") && i > 0 && toks[i - 1].isWord()) {
      static const std::set<std::string, std::less<>> conjunction = {
          "the", "a", "an", "all", "it", "they", "you", "we", "this", "that", "these",
          "those", "each", "every", "both", "plates", "wells", "cells", "samples", "dry",
          "done", "complete", "finished"};
      if (!at(i + 1) || !conjunction.count(at(i + 1)->lower)) {
        Quantity q;
        q.dimension = Dimension::Count;
        q.countWord = true;
        q.first = i;
        q.last = i + 1;
        q.value.low = q.value.high = 1;
        return finish(q);
      }
    }
    // Counts in words: twice, three times, five more times.
    if (t.is("twice") || t.is("thrice")) {
      Quantity q;
      q.dimension = Dimension::Count;
      q.countWord = true;
      q.first = i;
      q.last = i + 1;
      q.value.low = q.value.high = t.is("twice") ? 2 : 3;
      return finish(q);
    }
    // "every minute", "each hour": an interval of one unit, without a number.
    if (i > 0 && (toks[i - 1].is("every") || toks[i - 1].is("each")) &&
        (t.is("minute") || t.is("hour") || t.is("second"))) {
      Quantity q;
      q.dimension = Dimension::Time;
      q.first = i;
      q.last = i + 1;
      q.value.low = q.value.high = unitInfo(*proseUnit(t.lower)).factor;
      return finish(q);
    }
    std::optional<unsigned> n = numberWord(t.lower);
    if (!n && (t.is("a") || t.is("an")) && at(i + 1) &&
        (at(i + 1)->is("hour") || at(i + 1)->is("minute")))
      n = 1;
    if (t.is("half") && at(i + 1) && at(i + 1)->is("an") && at(i + 2) && at(i + 2)->is("hour")) {
      Quantity q;
      q.dimension = Dimension::Time;
      q.first = i;
      q.last = i + 3;
      q.value.low = q.value.high = 1800;
      return finish(q);
    }
    // "a quarter of an hour", "three quarters of an hour": not an hour.
    if ((t.is("quarter") || t.is("quarters")) && at(i + 1) && at(i + 1)->is("of") && at(i + 2) &&
        at(i + 2)->is("an") && at(i + 3) && at(i + 3)->is("hour")) {
      bool three = i > 0 && toks[i - 1].is("three");
      Quantity q;
      q.dimension = Dimension::Time;
      q.first = three ? i - 1 : i;
      q.last = i + 4;
      q.value.low = q.value.high = three ? 2700 : 900;
      return finish(q);
    }
    if (n && at(i + 1)) {
      size_t j = i + 1;
      bool more = at(j)->is("more") || at(j)->is("additional") || at(j)->is("further");
      if (more && at(j + 1))
        ++j;
      if (countUnitWord(*at(j))) {
        Quantity q;
        q.dimension = Dimension::Count;
        q.countWord = true;
        q.first = i;
        q.last = j + 1;
        q.value.low = q.value.high = *n;
        return finish(q);
      }
      if (!more && isTimeUnitWord(at(j)->lower)) {
        Quantity q;
        q.dimension = Dimension::Time;
        q.first = i;
        q.last = j + 1;
        double factor = unitInfo(*proseUnit(at(j)->lower)).factor;
        q.value.low = q.value.high = *n * factor;
        return finish(q);
      }
    }
    return std::nullopt;
  }
  if (!t.isNumber())
    return std::nullopt;
  // The "1H" of "3420-1H": the tail of a code (below), not one hour.
  if (t.glued && i >= 2 && toks[i - 1].glued && toks[i - 1].isPunct("-") &&
      toks[i - 2].isNumber() && toks[i - 2].number > t.number)
    return std::nullopt;
  // The "24" of a date "20/02/24" (a sign-off's "Okafor 20/02/24 H."): the
  // year, not 24 hours.
  if (t.glued && i >= 4 && toks[i - 1].glued && toks[i - 1].isPunct("/") &&
      toks[i - 2].isNumber() && toks[i - 2].glued && toks[i - 3].isPunct("/") &&
      toks[i - 4].isNumber())
    return std::nullopt;

  double n1 = t.number, n2 = n1;
  size_t j = i + 1;
  // "Duration 00:30:00" (a protocols.io export's field): hours, minutes and
  // seconds. Only after the word that says it is a step's duration: a
  // log's "09:14:22" is a clock time, and a run sheet's "Timer 00:02:00"
  // beside "37 °C, 2 min" sets the timer for the time the step states.
  auto glued = [&](size_t k, bool number) {
    return at(k) && at(k)->glued && (number ? at(k)->isNumber() : at(k)->isPunct(":"));
  };
  size_t key = i >= 2 && toks[i - 1].isPunct(":") ? i - 2 : i - 1;
  if (i >= 1 && key < toks.size() &&
      toks[key].is("duration") &&
      glued(i + 1, false) && glued(i + 2, true) && glued(i + 3, false) && glued(i + 4, true) &&
      at(i + 2)->text.size() == 2 && at(i + 4)->text.size() == 2 && at(i + 2)->number < 60 &&
      at(i + 4)->number < 60) {
    Quantity q;
    q.dimension = Dimension::Time;
    q.first = i;
    q.last = i + 5;
    q.value.low = q.value.high = n1 * 3600 + at(i + 2)->number * 60 + at(i + 4)->number;
    return finish(q);
  }
  // 1:20, 1:500: a dilution.
  if (at(j) && at(j)->isPunct(":") && at(j)->glued && at(j + 1) && at(j + 1)->isNumber() &&
      at(j + 1)->glued) {
    Quantity q;
    q.dimension = Dimension::Ratio;
    q.first = i;
    q.last = j + 2;
    q.value.low = q.value.high = n1 > 0 ? at(j + 1)->number / n1 : 0;
    return finish(q);
  }
  bool range = false;
  // "500 ± 50 rpm", "37 +/- 1 °C": a tolerance, read as the interval.
  double tolerance = 0;
  if (at(j) && (at(j)->isPunct("±") || (at(j)->isPunct("+") && at(j + 1) && at(j + 1)->isPunct("/") &&
                                         at(j + 2) && at(j + 2)->isPunct("-")))) {
    size_t k = at(j)->isPunct("±") ? j + 1 : j + 3;
    if (at(k) && at(k)->isNumber()) {
      tolerance = at(k)->number;
      j = k + 1;
    }
  }
  auto rangeSeparator = [&](const Token *s) {
    return s && (s->isPunct("-") || s->isPunct("–") || s->isPunct("‐") || s->isPunct("−") ||
                 s->is("to"));
  };
  if (rangeSeparator(at(j)) && at(j + 1) && at(j + 1)->isNumber()) {
    // "3420-1H", "2024-05": a product code or a date counts down where a
    // range counts up; it is no quantity.
    if (!at(j)->is("to") && at(j + 1)->number < n1)
      return std::nullopt;
    n2 = at(j + 1)->number;
    j += 2;
    range = true;
  } else if (at(j) && at(j)->is("and") && at(j + 1) && at(j + 1)->isNumber() && i > 0 &&
             toks[i - 1].is("between")) {
    n2 = at(j + 1)->number;
    j += 2;
    range = true;
  }
  // The unit: one word, or `° C`, `deg C`, `degrees C/Celsius`; `x g` is a
  // centrifugal force (consumed, not a quantity we compare).
  std::optional<Unit> unit;
  bool count = false;
  size_t unitEnd = j;
  if (const Token *u = at(j)) {
    if ((u->is("°") || u->is("º") || u->is("deg") || u->is("degree") || u->is("degrees")) &&
        at(j + 1) && (at(j + 1)->is("c") || at(j + 1)->is("celsius"))) {
      unit = Unit::Celsius;
      unitEnd = j + 2;
    } else if ((u->is("degree") || u->is("degrees")) && !rotationDegrees(toks, i, n1) &&
               !(at(j + 1) && (at(j + 1)->is("f") || at(j + 1)->is("fahrenheit")))) {
      // "at sixty-five degrees": a temperature said without the scale.
      unit = Unit::Celsius;
      unitEnd = j + 1;
    } else if (bool force = (u->is("x") || u->isPunct("×")) && at(j + 1) && at(j + 1)->is("g");
               force || ((u->is("x") || u->isPunct("×")) && u->glued && i > 0 &&
                         (toks[i - 1].is("buffer") || toks[i - 1].is("pbs") ||
                          toks[i - 1].is("tbs") || toks[i - 1].is("pbst") ||
                          toks[i - 1].is("tbst") || toks[i - 1].is("diluent") ||
                          toks[i - 1].is("solution") || toks[i - 1].is("concentrate")))) {
      // "10,000 x g" is a force, "wash buffer 1x" and "PBS 10x" a liquid's
      // strength: read so that neither is a count.
      Quantity q;
      q.dimension = Dimension::Ratio;
      q.first = i;
      q.last = force ? j + 2 : j + 1;
      q.value.low = q.value.high = n1;
      q.value.symbolic = Unit::Ratio;
      return finish(q);
    } else if (countUnitWord(*u) && !(u->is("time"))) {
      count = true;
      unitEnd = j + 1;
    } else if (u->is("more") && at(j + 1) && countUnitWord(*at(j + 1))) {
      count = true;
      unitEnd = j + 2;
    } else if (u->isWord()) {
      // "C" only right after a number ("4 C", "37C"): elsewhere it is a
      // name (Reagent C).
      unit = proseUnit(u->text);
      if (unit && *unit == Unit::Count)
        unit.reset();
      // "x 100\n S = A405 ...": a formula's variable, not seconds. A log's
      // "rpm=600 seconds=30": the key of the next pair, not the unit of 600.
      if (unit && at(j + 1) && at(j + 1)->isPunct("=") &&
          ((u->text.size() == 1 && std::isupper(static_cast<unsigned char>(u->text[0]))) ||
           at(j + 1)->glued))
        unit.reset();
      // "the 1980s", "since the 1950s": a decade, not seconds.
      if (unit && *unit == Unit::Second && u->glued && u->text == "s" && !range &&
          n1 >= 1800 && n1 <= 2099 && n1 == std::floor(n1) &&
          static_cast<long>(n1) % 10 == 0)
        unit.reset();
      if (unit)
        unitEnd = j + 1;
      // "300 µL/well" arrives as µL, /, well: the unit is µL.
    }
  }
  // 30' and 30″: minutes and seconds in bench shorthand, written in
  // digits ("Pink in Twenty" - ...: a closing quotation mark).
  // Not the end of a name or a quotation: `unit "BF1-02"`, `"plate 2"`.
  bool quoteCloses = false;
  if (at(j) && at(j)->isPunct("\"")) {
    size_t open = 0;
    for (size_t k = 0; k < i; ++k)
      open += toks[k].isPunct("\"") ? 1 : 0;
    quoteCloses = open % 2 == 1;
  }
  bool endsName = t.glued && i > 0 &&
                  (toks[i - 1].isPunct("-") || toks[i - 1].isPunct("_") || toks[i - 1].isWord());
  if (!unit && !count && at(j) && at(j)->glued && !t.spelled && !quoteCloses && !endsName &&
      (at(j)->isPunct("'") || at(j)->isPunct("′") || at(j)->isPunct("\"") ||
       at(j)->isPunct("″"))) {
    bool seconds = at(j)->isPunct("\"") || at(j)->isPunct("″") ||
                   (at(j + 1) && at(j + 1)->glued && at(j + 1)->isPunct("'"));
    unit = seconds ? Unit::Second : Unit::Minute;
    unitEnd = seconds && at(j)->isPunct("'") ? j + 2 : j + 1;
  }
  if (count) {
    Quantity q;
    q.dimension = Dimension::Count;
    q.first = i;
    q.last = unitEnd;
    q.value.low = n1;
    q.value.high = n2;
    q.value.kind = range ? Value::Kind::Range : Value::Kind::Exact;
    return finish(q);
  }
  // "488/509 nm", "450/620 nm": two numbers sharing the unit after them.
  if (!unit && !count && !range && at(j) && at(j)->isPunct("/") && at(j + 1) &&
      at(j + 1)->isNumber() && at(j + 2) && at(j + 2)->isWord()) {
    if (std::optional<Unit> shared = proseUnit(at(j + 2)->text);
        shared && unitInfo(*shared).dimension == Dimension::Wavelength) {
      Quantity q;
      q.dimension = Dimension::Wavelength;
      q.first = i;
      q.last = j;
      q.value.low = q.value.high = n1 * unitInfo(*shared).factor;
      return finish(q);
    }
  }
  // "seconds=30", "celsius=37", "wavelength_nm=405", "delay(minutes=5)": a
  // log's or a program's named value, in the unit that its key names.
  if (!unit && !count && !range && t.glued && i >= 2 && toks[i - 1].isPunct("=") &&
      toks[i - 1].glued && toks[i - 2].isWord()) {
    std::string_view key = toks[i - 2].lower;
    if (size_t underscore = key.rfind('_'); underscore != std::string_view::npos)
      key = key.substr(underscore + 1);
    std::optional<Unit> named = proseUnit(key);
    if (named && *named != Unit::Count && key.size() > 1) {
      const UnitInfo &keyed = unitInfo(*named);
      Quantity q;
      q.dimension = keyed.dimension;
      q.first = i;
      q.last = j;
      q.value.low = q.value.high = n1 * keyed.factor;
      return finish(q);
    }
  }
  if (!unit) {
    // "ref 570", "reference 620": a wavelength without its unit. So is a
    // read's number ("5. read 405", "read at 450"): no other quantity of a
    // read is written bare, and a plate reader's filters lie in 300-1000.
    // "the reader at 405": the instrument named where the verb would be.
    auto isRead = [&](size_t k) {
      return toks[k].is("read") || toks[k].is("reads") || toks[k].is("measure") ||
             (toks[k].is("reader") && k + 1 < toks.size() && toks[k + 1].is("at"));
    };
    // "read abs 405", "read absorbance 450": the read's number after the
    // kind of reading.
    auto absorbance = [&](size_t k) {
      return toks[k].is("abs") || toks[k].is("absorbance") || toks[k].is("od");
    };
    bool readsAt = i > 0 && (isRead(i - 1) ||
                             (i > 1 && (toks[i - 1].is("at") || absorbance(i - 1)) && isRead(i - 2)));
    bool whole = n1 == std::floor(n1);
    // "with 620 ref": the reference named after its number.
    // "with the 570 correction": a reader's wavelength correction is its
    // reference.
    auto isRef = [&](size_t k) {
      return k < toks.size() &&
             (toks[k].is("ref") || toks[k].is("reference") || toks[k].is("correction"));
    };
    // "450 nm with 620 as a reference": named as the reference after its
    // number, after "with" only ("use 650 as reference" in a chat may
    // name a read of its own).
    bool asReference = i > 0 && toks[i - 1].is("with") && i + 2 < toks.size() &&
                       toks[i + 1].is("as") &&
                       (isRef(i + 2) ||
                        ((toks[i + 2].is("a") || toks[i + 2].is("the")) && isRef(i + 3)));
    // "with wavelength correction at 570", "reference of 620": the
    // reference named before its number.
    bool refAt = i > 1 && (toks[i - 1].is("at") || toks[i - 1].is("of")) && isRef(i - 2);
    bool refAfter = isRef(i + 1) || asReference || refAt;
    // "450 with 570 reference": the read's own wavelength before it.
    bool beforeRef = i + 3 < toks.size() && (toks[i + 1].is("with") || toks[i + 1].isPunct("/")) &&
                     toks[i + 2].isNumber() && isRef(i + 3);
    if (((i > 0 && (toks[i - 1].is("ref") || toks[i - 1].is("reference") || toks[i - 1].is("/"))) ||
         ((readsAt || refAfter || beforeRef) && whole)) &&
        n1 >= 300 && n1 <= 1000 && !range) {
      Quantity q;
      q.dimension = Dimension::Wavelength;
      q.first = i;
      q.last = i + 1;
      q.value.low = q.value.high = n1;
      return finish(q);
    }
    return std::nullopt;
  }
  const UnitInfo &info = unitInfo(*unit);
  // "1 h 30 min", "29 min 41 s", "1 h and 30 min": one time written in
  // two or three units, each smaller than the one before.
  double compound = 0;
  if (info.dimension == Dimension::Time && !range && tolerance == 0) {
    double larger = info.factor;
    for (int part = 0; part < 2; ++part) {
      size_t k = at(unitEnd) && at(unitEnd)->is("and") ? unitEnd + 1 : unitEnd;
      if (!at(k) || !at(k)->isNumber() || !at(k + 1) || !at(k + 1)->isWord() ||
          (at(k + 2) && at(k + 2)->isPunct("=")))
        break;
      std::optional<Unit> smaller = proseUnit(at(k + 1)->text);
      if (!smaller || unitInfo(*smaller).dimension != Dimension::Time)
        break;
      double factor = unitInfo(*smaller).factor;
      double amount = at(k)->number * factor;
      if (factor >= larger || amount >= larger || amount <= 0)
        break;
      compound += amount;
      larger = factor;
      unitEnd = k + 2;
    }
  }
  // "20 °C - 25 °C", "1 h to 2 h", "30 s to 1 min".
  double factor2 = info.factor;
  if (!range && compound == 0 && rangeSeparator(at(unitEnd)) && at(unitEnd + 1) && at(unitEnd + 1)->isNumber() &&
      at(unitEnd + 2) && at(unitEnd + 2)->isWord()) {
    std::optional<Unit> second = proseUnit(at(unitEnd + 2)->text);
    if (second && unitInfo(*second).dimension == info.dimension && info.dimension != Dimension::Concentration) {
      n2 = at(unitEnd + 1)->number;
      factor2 = unitInfo(*second).factor;
      unitEnd += 3;
      range = true;
    }
  }
  // "2 h ± 10 min", "37 °C +/- 1 °C": a tolerance with a unit of its own.
  double toleranceCanonical = tolerance * info.factor;
  if (!range && tolerance == 0 && at(unitEnd)) {
    bool plusMinus = at(unitEnd)->isPunct("±");
    size_t k = unitEnd + 1;
    if (!plusMinus && at(unitEnd)->isPunct("+") && at(unitEnd + 1) && at(unitEnd + 1)->isPunct("/") &&
        at(unitEnd + 2) && at(unitEnd + 2)->isPunct("-")) {
      plusMinus = true;
      k = unitEnd + 3;
    }
    if (plusMinus && at(k) && at(k)->isNumber() && at(k + 1) && at(k + 1)->isWord()) {
      std::optional<Unit> own = proseUnit(at(k + 1)->text);
      if (own && unitInfo(*own).dimension == info.dimension) {
        toleranceCanonical = at(k)->number * unitInfo(*own).factor;
        unitEnd = k + 2;
      }
    }
  }
  Quantity q;
  q.dimension = info.dimension;
  q.first = i;
  q.last = unitEnd;
  // "-20 °C", "−80 °C": a dash glued to the number with no number before it
  // is a sign, not a range; of the quantities a protocol states, only a
  // temperature goes below zero (a freezer is not room temperature).
  if (info.dimension == Dimension::Temperature && i > 0 && t.glued &&
      (toks[i - 1].isPunct("-") || toks[i - 1].isPunct("−") || toks[i - 1].isPunct("–")) &&
      !(i > 1 && toks[i - 2].isNumber())) {
    n1 = -n1;
    if (!range)
      n2 = n1;
    q.first = i - 1;
  }
  double a = n1 * info.factor + compound, b = n2 * factor2 + compound;
  q.value.low = std::min(a, b) - toleranceCanonical;
  q.value.high = std::max(a, b) + toleranceCanonical;
  q.value.kind = (range && !close(a, b)) || toleranceCanonical > 0 ? Value::Kind::Range
                                                                   : Value::Kind::Exact;
  return finish(q);
}

} // namespace prose

std::vector<ProseQuantity> proseQuantities(std::string_view text, const Platform &platform) {
  std::vector<ProseQuantity> out;
  std::vector<prose::Token> toks = prose::tokenize(text);
  for (size_t i = 0; i < toks.size();) {
    if (auto q = prose::quantityAt(toks, i, platform, text)) {
      if (q->dimension != Dimension::Concentration &&
          !(q->dimension == Dimension::Ratio && q->value.symbolic == Unit::Ratio)) {
        ProseQuantity p;
        p.dimension = q->dimension;
        p.value = q->value;
        p.begin = toks[q->first].begin;
        p.end = toks[q->last - 1].end;
        out.push_back(std::move(p));
      }
      i = std::max(q->last, i + 1);
    } else {
      ++i;
    }
  }
  return out;
}

} // namespace plate::agent
