//===- CoverageCheck.cpp - Quantities of the text vs. the script ----------===//
//
// Text side: a scan for number+unit (units resolved with the compiler's
// own plate::lookupUnit plus a few prose spellings), RT / overnight words,
// repeat counts ("4 times", "3x", "twice"), and repeat references ("repeat
// twice more", "as in step 2") that add copies of earlier quantities.
// Script side: the AST, with repeat bodies multiplied out and quantities
// in note/pause texts counted as stated to the operator. Matching walks
// the script in order and takes, for each quantity, the earliest unused
// text occurrence at or after the text position reached so far; what is
// left over on either side becomes a finding.
//
//===----------------------------------------------------------------------===//
#include "agent/CoverageCheck.h"

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace plate::agent {

using nlohmann::json;

json toJson(const Finding &finding) {
  return {{"type", finding.type},
          {"location", finding.location},
          {"message", finding.message},
          {"guidance", finding.guidance},
          {"source", finding.source}};
}

namespace {

/// A unit as prose writes it, resolved with the compiler's table first.
std::optional<Unit> proseUnit(std::string word) {
  while (!word.empty() && std::string_view(".,;:)]").find(word.back()) != std::string_view::npos)
    word.pop_back();
  if (word.empty())
    return std::nullopt;
  if (word == "x" || word == "X" || word == "×" || llvm::StringRef(word).lower() == "times")
    return Unit::Count;
  if (auto unit = lookupUnit(word))
    return unit;
  static const std::map<std::string, Unit> prose = {
      {"microliter", Unit::MicroLiter}, {"microliters", Unit::MicroLiter},
      {"microlitre", Unit::MicroLiter}, {"microlitres", Unit::MicroLiter},
      {"milliliter", Unit::MilliLiter}, {"milliliters", Unit::MilliLiter},
      {"millilitre", Unit::MilliLiter}, {"millilitres", Unit::MilliLiter},
      {"nanometers", Unit::Nanometer},  {"nanometres", Unit::Nanometer},
      {"ºc", Unit::Celsius},            {"°c", Unit::Celsius},
      {"degc", Unit::Celsius},          {"h", Unit::Hour},
      {"hrs", Unit::Hour},              {"min", Unit::Minute},
      {"minutes", Unit::Minute},        {"hours", Unit::Hour},
      {"seconds", Unit::Second},        {"sec", Unit::Second},
      {"rpm", Unit::Rpm},               {"nm", Unit::Nanometer},
      {"ul", Unit::MicroLiter},         {"ml", Unit::MilliLiter},
  };
  if (auto it = prose.find(llvm::StringRef(word).lower()); it != prose.end())
    return it->second;
  size_t slash = word.find('/'); // "300 µL/well"
  if (slash != std::string::npos && slash > 0)
    if (auto unit = lookupUnit(word.substr(0, slash));
        unit && unitInfo(*unit).dimension != Dimension::Concentration)
      return unit;
  return std::nullopt;
}

bool checkedDimension(Dimension dimension) {
  switch (dimension) {
  case Dimension::Volume:
  case Dimension::Time:
  case Dimension::Temperature:
  case Dimension::Speed:
  case Dimension::Wavelength:
  case Dimension::Count:
    return true;
  case Dimension::Concentration:
  case Dimension::Ratio:
    return false;
  }
  return false;
}

std::optional<unsigned> numberWord(const std::string &word) {
  static const std::map<std::string, unsigned> words = {
      {"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5},
      {"six", 6}, {"seven", 7}, {"eight", 8}, {"nine", 9}, {"ten", 10}};
  if (auto it = words.find(word); it != words.end())
    return it->second;
  if (!word.empty() && std::all_of(word.begin(), word.end(), ::isdigit))
    return static_cast<unsigned>(std::stoul(word));
  return std::nullopt;
}

struct Candidate {
  TextQuantity quantity;
  size_t begin = 0, end = 0;
};

std::string quantityText(const TextQuantity &q) {
  return q.text;
}

} // namespace

std::vector<TextQuantity> extractTextQuantities(std::string_view text,
                                                const Platform &platform) {
  std::vector<TextQuantity> result;
  std::map<unsigned, unsigned> stepLines; // step number -> line
  std::istringstream in{std::string(text)};
  std::string line;
  static const std::regex stepLabel(R"(^\s*(?:step\s*)?(\d+)\s*[.):])", std::regex::icase);
  static const std::regex quantity(
      R"((?:^|[^\w.])(\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*(\d+(?:\.\d+)?))?\s*(°\s*C\b|º\s*C\b|℃|degrees?\s*C\b|[A-Za-zµμ°×%/]+))");
  static const std::regex countWords(
      R"(\b(once|twice|thrice|one|two|three|four|five|six|seven|eight|nine|ten)\s+(more\s+|additional\s+)?times\b|\b(twice|thrice)\b)",
      std::regex::icase);
  static const std::regex roomWords(R"(\broom[ -]temperature\b|\bRT\b|\bambient\b)",
                                    std::regex::ECMAScript);
  static const std::regex overnightWord(R"(\bovernight\b)", std::regex::icase);
  static const std::regex repeatWord(R"(\brepeat)", std::regex::icase);
  static const std::regex stepRef(R"(\bsteps?\s+(\d+)(?:\s*(?:-|–|to|and)\s*(\d+))?)",
                                  std::regex::icase);
  static const std::regex asInStep(R"(\b(?:as\s+(?:in|for|described\s+in)|same\s+as(?:\s+in)?)\s+step\s+(\d+))",
                                   std::regex::icase);

  std::map<unsigned, std::vector<TextQuantity>> byLine;
  std::vector<std::string> seenLines; // lower case, for "repeat the wash"
  static const std::regex washWord(R"(\bwash)");
  unsigned lastLineWithQuantities = 0;
  for (unsigned number = 1; std::getline(in, line); ++number) {
    seenLines.push_back(llvm::StringRef(line).lower());
    std::smatch match;
    if (std::regex_search(line, match, stepLabel))
      stepLines.emplace(static_cast<unsigned>(std::stoul(match[1])), number);
    std::string lowered = llvm::StringRef(line).lower();
    bool isRepeat = std::regex_search(line, repeatWord);
    std::vector<Candidate> candidates;
    unsigned repeatCopies = 0;

    for (auto it = std::sregex_iterator(line.begin(), line.end(), quantity);
         it != std::sregex_iterator(); ++it) {
      const std::smatch &m = *it;
      std::string unitWord = m[3].str();
      unitWord.erase(std::remove(unitWord.begin(), unitWord.end(), ' '), unitWord.end());
      if (llvm::StringRef(unitWord).lower().rfind("degree", 0) == 0)
        unitWord = "°C";
      std::optional<Unit> unit = proseUnit(unitWord);
      if (!unit || !checkedDimension(unitInfo(*unit).dimension))
        continue;
      size_t end = m.position(0) + m.length(0);
      // "1000 x g" is a centrifugal force, not a count.
      if (*unit == Unit::Count && line.substr(end, 3).find('g') != std::string::npos)
        continue;
      double low = std::stod(m[1]), high = m[2].matched ? std::stod(m[2]) : low;
      if (*unit == Unit::Count && isRepeat) {
        repeatCopies = std::max(repeatCopies, static_cast<unsigned>(low) - 1);
        continue;
      }
      Candidate c;
      c.quantity.dimension = unitInfo(*unit).dimension;
      double factor = unitInfo(*unit).factor;
      c.quantity.low = low * factor;
      c.quantity.high = high * factor;
      c.quantity.line = number;
      c.quantity.text = m.str(0).substr(m[1].first - m[0].first);
      c.begin = m.position(1);
      c.end = end;
      candidates.push_back(std::move(c));
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), countWords);
         it != std::sregex_iterator(); ++it) {
      const std::smatch &m = *it;
      std::string word = llvm::StringRef(m[1].matched ? m[1].str() : m[3].str()).lower();
      unsigned count = word == "once" ? 1 : word == "twice" ? 2 : word == "thrice" ? 3
                                                                 : numberWord(word).value_or(0);
      if (count == 0)
        continue;
      size_t after = m.position(0) + m.length(0);
      std::string rest = llvm::StringRef(line.substr(after, 12)).lower();
      bool more = m[2].matched || rest.rfind(" more", 0) == 0 || rest.rfind(" additional", 0) == 0;
      if (isRepeat) {
        repeatCopies = std::max(repeatCopies, more ? count : count - 1);
        continue;
      }
      if (word == "once")
        continue; // "once dry" and friends: not a count
      Candidate c;
      c.quantity.dimension = Dimension::Count;
      c.quantity.low = c.quantity.high = count;
      c.quantity.line = number;
      c.quantity.text = m.str(0);
      c.begin = m.position(0);
      c.end = c.begin + m.length(0);
      candidates.push_back(std::move(c));
    }
    auto ambientNear = [&](size_t begin, size_t end) {
      for (const Candidate &c : candidates)
        if (c.quantity.dimension == Dimension::Temperature &&
            c.quantity.low >= platform.roomTempMinCelsius &&
            c.quantity.high <= platform.roomTempMaxCelsius &&
            (c.begin <= end + 25 && begin <= c.end + 25))
          return true;
      return false;
    };
    std::vector<Candidate> symbolic;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), roomWords);
         it != std::sregex_iterator(); ++it) {
      size_t begin = it->position(0), end = begin + it->length(0);
      if (ambientNear(begin, end))
        continue; // "20-25 °C (room temperature)" states one temperature
      Candidate c;
      c.quantity.dimension = Dimension::Temperature;
      c.quantity.symbolic = Unit::Ambient;
      c.quantity.low = platform.roomTempMinCelsius;
      c.quantity.high = platform.roomTempMaxCelsius;
      c.quantity.line = number;
      c.quantity.text = it->str(0);
      c.begin = begin;
      c.end = end;
      symbolic.push_back(std::move(c));
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), overnightWord);
         it != std::sregex_iterator(); ++it) {
      Candidate c;
      c.quantity.dimension = Dimension::Time;
      c.quantity.symbolic = Unit::Overnight;
      c.quantity.low = c.quantity.high = platform.overnightSeconds;
      c.quantity.line = number;
      c.quantity.text = it->str(0);
      c.begin = it->position(0);
      c.end = c.begin + it->length(0);
      symbolic.push_back(std::move(c));
    }
    for (Candidate &c : symbolic)
      candidates.push_back(std::move(c));
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate &a, const Candidate &b) { return a.begin < b.begin; });

    std::vector<TextQuantity> own;
    for (Candidate &c : candidates)
      own.push_back(std::move(c.quantity));

    // "as in step 2": that step's quantities of dimensions this line does
    // not state itself.
    std::vector<TextQuantity> copies;
    if (std::regex_search(line, match, asInStep)) {
      unsigned step = static_cast<unsigned>(std::stoul(match[1]));
      if (auto found = stepLines.find(step); found != stepLines.end()) {
        std::set<Dimension> stated;
        for (const TextQuantity &q : own)
          stated.insert(q.dimension);
        for (TextQuantity q : byLine[found->second])
          if (!stated.count(q.dimension)) {
            q.line = number;
            q.repeated = true;
            copies.push_back(q);
          }
      }
    }
    // "repeat twice more" / "repeat steps 3-4 three times": copies of the
    // quantities of the steps it names, or of the previous step.
    if (isRepeat && repeatCopies > 0) {
      std::vector<unsigned> lines;
      if (std::regex_search(line, match, stepRef)) {
        unsigned first = static_cast<unsigned>(std::stoul(match[1]));
        unsigned last = match[2].matched ? static_cast<unsigned>(std::stoul(match[2])) : first;
        for (unsigned step = first; step <= last; ++step)
          if (auto found = stepLines.find(step); found != stepLines.end())
            lines.push_back(found->second);
      } else if (lastLineWithQuantities) {
        lines.push_back(lastLineWithQuantities);
      }
      // "Wash with 300 µL. Repeat twice more." is one wash step of three
      // cycles (`wash 3 times with 300 uL`), the same as "wash 3 times":
      // a wash line without a count of its own gains the cycle count, on
      // its own line so the order check sees one step.
      std::vector<unsigned> stepLinesToCopy;
      for (unsigned source : lines) {
        bool hasCount = std::any_of(byLine[source].begin(), byLine[source].end(),
                                    [](const TextQuantity &q) {
                                      return q.dimension == Dimension::Count;
                                    });
        if (!hasCount && std::regex_search(seenLines[source - 1], washWord)) {
          TextQuantity cycles;
          cycles.dimension = Dimension::Count;
          cycles.low = cycles.high = repeatCopies + 1;
          cycles.line = source;
          cycles.text = fmt::format("{} wash cycles (\"repeat\" on line {})", repeatCopies + 1,
                                    number);
          cycles.repeated = true;
          byLine[source].push_back(cycles);
          result.push_back(cycles);
        } else {
          stepLinesToCopy.push_back(source);
        }
      }
      for (unsigned copy = 0; copy < repeatCopies; ++copy)
        for (unsigned source : stepLinesToCopy)
          for (TextQuantity q : byLine[source]) {
            q.line = number;
            q.repeated = true;
            copies.push_back(q);
          }
    }
    std::vector<TextQuantity> all = own;
    all.insert(all.end(), copies.begin(), copies.end());
    if (!own.empty() || !copies.empty())
      lastLineWithQuantities = number;
    byLine[number] = all;
    result.insert(result.end(), all.begin(), all.end());
  }
  return result;
}

namespace {

class ScriptWalker {
public:
  ScriptWalker(const SourceManager &sources, const Platform &platform)
      : sources_(sources), platform_(platform) {}

  std::vector<ScriptQuantity> quantities;

  void add(const ast::QuantityExpr &expr, bool count, const ast::Statement &statement,
           bool manual, unsigned multiplier) {
    ScriptQuantity q;
    q.line = statement.loc.line;
    q.step = statement.stepLabel;
    q.manual = manual;
    switch (expr.kind) {
    case ast::QuantityExpr::Kind::RoomTemp:
      q.dimension = Dimension::Temperature;
      q.symbolic = Unit::Ambient;
      q.value = platform_.ambientCelsius;
      q.text = "RT";
      break;
    case ast::QuantityExpr::Kind::Overnight:
      q.dimension = Dimension::Time;
      q.symbolic = Unit::Overnight;
      q.value = platform_.overnightSeconds;
      q.text = "overnight";
      break;
    case ast::QuantityExpr::Kind::Number: {
      std::optional<Unit> unit;
      if (count && (expr.unit.empty() || expr.unit == "x" || expr.unit == "times" ||
                    expr.unit == "×" || expr.unit == "X"))
        unit = Unit::Count;
      else if (!expr.unit.empty())
        unit = proseUnit(expr.unit);
      if (!unit || !checkedDimension(unitInfo(*unit).dimension))
        return;
      q.dimension = unitInfo(*unit).dimension;
      q.value = expr.value * unitInfo(*unit).factor;
      q.text = expr.text + (expr.unit.empty() ? "" : " " + expr.unit);
      break;
    }
    case ast::QuantityExpr::Kind::ColonRatio:
    case ast::QuantityExpr::Kind::Param:
      return;
    }
    for (unsigned i = 0; i < multiplier; ++i)
      quantities.push_back(q);
  }

  /// Quantities in operator texts count as stated, outside the step order.
  void addProse(const std::string &text, const ast::Statement &statement, bool manual,
                unsigned multiplier) {
    for (const TextQuantity &t : extractTextQuantities(text, platform_)) {
      ScriptQuantity q;
      q.dimension = t.dimension;
      q.value = t.low;
      q.symbolic = t.symbolic;
      q.line = statement.loc.line;
      q.step = statement.stepLabel;
      q.text = t.text;
      q.manual = manual;
      q.ordered = false;
      for (unsigned i = 0; i < multiplier; ++i)
        quantities.push_back(q);
    }
  }

  void statement(const ast::Statement &s, bool manual, unsigned multiplier) {
    auto opt = [&](const std::optional<ast::QuantityExpr> &e, bool count = false) {
      if (e)
        add(*e, count, s, manual, multiplier);
    };
    std::visit(
        [&](const auto &node) {
          using T = std::decay_t<decltype(node)>;
          if constexpr (std::is_same_v<T, ast::Dispense>) {
            add(node.volume, false, s, manual, multiplier);
            if (node.mix) {
              add(node.mix->count, true, s, manual, multiplier);
              opt(node.mix->volume);
            }
          } else if constexpr (std::is_same_v<T, ast::Aspirate>) {
            opt(node.volume);
          } else if constexpr (std::is_same_v<T, ast::Wash>) {
            add(node.count, true, s, manual, multiplier);
            add(node.volume, false, s, manual, multiplier);
            opt(node.soak);
          } else if constexpr (std::is_same_v<T, ast::Incubate>) {
            add(node.time, false, s, manual, multiplier);
            opt(node.temperature);
            opt(node.shaking);
          } else if constexpr (std::is_same_v<T, ast::Shake>) {
            add(node.time, false, s, manual, multiplier);
            add(node.speed, false, s, manual, multiplier);
          } else if constexpr (std::is_same_v<T, ast::Mix>) {
            add(node.count, true, s, manual, multiplier);
            add(node.volume, false, s, manual, multiplier);
          } else if constexpr (std::is_same_v<T, ast::Transfer>) {
            add(node.volume, false, s, manual, multiplier);
          } else if constexpr (std::is_same_v<T, ast::Magnet> || std::is_same_v<T, ast::Wait>) {
            add(node.time, false, s, manual, multiplier);
          } else if constexpr (std::is_same_v<T, ast::ReadAbsorbance>) {
            add(node.wavelength, false, s, manual, multiplier);
            opt(node.reference);
          } else if constexpr (std::is_same_v<T, ast::ReadFluorescence>) {
            add(node.excitation, false, s, manual, multiplier);
            add(node.emission, false, s, manual, multiplier);
          } else if constexpr (std::is_same_v<T, ast::Analyze>) {
            // The analysis re-uses the read's wavelength: it may match a
            // restatement in the text but is never an invented value.
            if (node.wavelength) {
              size_t before = quantities.size();
              add(*node.wavelength, false, s, manual, multiplier);
              for (size_t i = before; i < quantities.size(); ++i) {
                quantities[i].ordered = false;
                quantities[i].optional = true;
              }
            }
          } else if constexpr (std::is_same_v<T, ast::Pause>) {
            addProse(node.message, s, manual, multiplier);
          } else if constexpr (std::is_same_v<T, ast::Note>) {
            addProse(node.text, s, manual, multiplier);
          } else if constexpr (std::is_same_v<T, ast::Prepare>) {
            opt(node.volume);
            if (node.from)
              addProse(*node.from, s, manual, multiplier);
          } else if constexpr (std::is_same_v<T, ast::Equilibrate>) {
            add(node.temperature, false, s, manual, multiplier);
            opt(node.time);
          } else if constexpr (std::is_same_v<T, ast::Call>) {
            // A bare integer argument is a Count (`wash_plate(buf, 3, 300 uL)`).
            for (const ast::Arg &arg : node.args)
              opt(arg.quantity, true);
          } else if constexpr (std::is_same_v<T, ast::Repeat>) {
            unsigned times = node.count.kind == ast::QuantityExpr::Kind::Number && node.count.value > 0
                                 ? static_cast<unsigned>(node.count.value)
                                 : 1;
            for (const ast::Statement &inner : node.body)
              statement(inner, manual, multiplier * times);
          } else {
            // Use, ProcDef: no quantities of their own at the use site.
          }
        },
        s.kind);
  }

private:
  [[maybe_unused]] const SourceManager &sources_;
  const Platform &platform_;
};

bool matches(const TextQuantity &t, const ScriptQuantity &s, const Platform &platform) {
  if (t.dimension != s.dimension)
    return false;
  auto close = [](double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(a)); };
  if (s.symbolic == Unit::Ambient)
    return t.symbolic == Unit::Ambient ||
           (t.low >= platform.roomTempMinCelsius && t.high <= platform.roomTempMaxCelsius);
  if (t.symbolic == Unit::Ambient)
    return s.value >= platform.roomTempMinCelsius && s.value <= platform.roomTempMaxCelsius;
  if (t.low != t.high)
    return s.value >= t.low - 1e-9 && s.value <= t.high + 1e-9;
  return close(t.low, s.value);
}

std::string scriptLocation(const ScriptQuantity &q) {
  return q.step.empty() ? fmt::format("script line {}", q.line)
                        : fmt::format("script line {} (step {})", q.line, q.step);
}

/// The reason the platform cannot do a statement, or empty when it can.
std::string platformLimit(const ast::Statement &s, const Platform &platform) {
  auto celsius = [&](const ast::QuantityExpr &e) -> std::optional<double> {
    if (e.kind == ast::QuantityExpr::Kind::RoomTemp)
      return platform.ambientCelsius;
    if (e.kind == ast::QuantityExpr::Kind::Number)
      if (auto unit = lookupUnit(e.unit); unit && unitInfo(*unit).dimension == Dimension::Temperature)
        return e.value * unitInfo(*unit).factor;
    return std::nullopt;
  };
  auto canonical = [&](const ast::QuantityExpr &e) -> std::optional<double> {
    if (e.kind == ast::QuantityExpr::Kind::Number)
      if (auto unit = lookupUnit(e.unit))
        return e.value * unitInfo(*unit).factor;
    return std::nullopt;
  };
  std::string reason;
  std::visit(
      [&](const auto &node) {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::Incubate>) {
          if (node.temperature)
            if (auto t = celsius(*node.temperature)) {
              if (*t < platform.roomTempMinCelsius)
                reason = fmt::format("{} °C needs cooling, which {} lacks", formatNumber(*t),
                                     platform.name);
              else if (*t > platform.heaterMaxCelsius)
                reason = fmt::format("{} °C is above the heater's {} °C", formatNumber(*t),
                                     formatNumber(platform.heaterMaxCelsius));
              else if (node.shaking && *t > platform.roomTempMaxCelsius && !platform.shakerHeated)
                reason = "shaking while heated needs a heated shaker";
            }
        } else if constexpr (std::is_same_v<T, ast::Shake>) {
          if (auto rpm = canonical(node.speed))
            if (*rpm < platform.shakerMinRpm || *rpm > platform.shakerMaxRpm)
              reason = fmt::format("{} rpm is outside the shaker's range", formatNumber(*rpm));
        } else if constexpr (std::is_same_v<T, ast::ReadFluorescence>) {
          if (!platform.readerFluorescence)
            reason = "the reader has no fluorescence";
        } else if constexpr (std::is_same_v<T, ast::ReadAbsorbance>) {
          if (auto nm = canonical(node.wavelength))
            if (std::find(platform.readerFiltersNm.begin(), platform.readerFiltersNm.end(), *nm) ==
                platform.readerFiltersNm.end())
              reason = fmt::format("the reader has no {} nm filter", formatNumber(*nm));
        } else if constexpr (std::is_same_v<T, ast::Prepare> || std::is_same_v<T, ast::Equilibrate> ||
                             std::is_same_v<T, ast::Note> || std::is_same_v<T, ast::Pause> ||
                             std::is_same_v<T, ast::Use> || std::is_same_v<T, ast::ProcDef> ||
                             std::is_same_v<T, ast::Repeat> ||
                             std::is_same_v<T, ast::Analyze>) {
          reason = "a person's task";
        }
      },
      s.kind);
  return reason;
}

} // namespace

std::vector<ScriptQuantity> extractScriptQuantities(const ast::Script &script,
                                                    const SourceManager &sources,
                                                    const Platform &platform) {
  ScriptWalker walker(sources, platform);
  for (const ast::ReagentDecl &reagent : script.reagents)
    if (reagent.volume) {
      ast::Statement declaration;
      declaration.loc = reagent.name.loc;
      size_t before = walker.quantities.size();
      walker.add(*reagent.volume, false, declaration, false, 1);
      for (size_t i = before; i < walker.quantities.size(); ++i)
        walker.quantities[i].ordered = false;
    }
  for (const ast::Section &section : script.sections)
    for (const ast::Statement &statement : section.statements)
      walker.statement(statement, section.kind == ast::SectionKind::Manual, 1);
  return walker.quantities;
}

std::vector<Finding> checkCoverage(std::string_view protocolText, const ast::Script &script,
                                   const SourceManager &sources, const Platform &platform) {
  std::vector<Finding> findings;
  std::vector<TextQuantity> text = extractTextQuantities(protocolText, platform);
  std::vector<ScriptQuantity> used = extractScriptQuantities(script, sources, platform);
  std::vector<bool> textUsed(text.size(), false);
  std::vector<int> matchOf(used.size(), -1);

  // Ordered step quantities first, in script order, so that each takes the
  // earliest text occurrence at or after the position reached so far.
  unsigned position = 0;
  for (size_t i = 0; i < used.size(); ++i) {
    if (!used[i].ordered)
      continue;
    int best = -1, fallback = -1;
    for (size_t j = 0; j < text.size(); ++j) {
      if (textUsed[j] || !matches(text[j], used[i], platform))
        continue;
      if (text[j].line >= position) {
        if (best < 0 || text[j].line < text[best].line)
          best = static_cast<int>(j);
      } else if (fallback < 0) {
        fallback = static_cast<int>(j);
      }
    }
    int chosen = best >= 0 ? best : fallback;
    if (chosen < 0)
      continue;
    textUsed[chosen] = true;
    matchOf[i] = chosen;
    if (best < 0) {
      findings.push_back(
          {"order", scriptLocation(used[i]),
           fmt::format("`{}` at {} comes from text line {}, but the script has already "
                       "reached text line {}: the steps are out of the text's order",
                       used[i].text, scriptLocation(used[i]), text[chosen].line, position),
           fmt::format("put the step of text line {} before the step of text line {}",
                       text[chosen].line, position),
           "coverage"});
    } else {
      position = text[chosen].line;
    }
  }
  // Declarations and operator notes take any remaining occurrence. An
  // optional quantity (the analysis wavelength) restates a read's: it may
  // take an occurrence only when a step of the script measures it, or it
  // would cover for a dropped read.
  auto measured = [&](const ScriptQuantity &q) {
    return std::any_of(used.begin(), used.end(), [&](const ScriptQuantity &s) {
      return s.ordered && s.dimension == q.dimension &&
             std::fabs(s.value - q.value) <= 1e-6 * std::max(1.0, std::fabs(q.value));
    });
  };
  for (size_t i = 0; i < used.size(); ++i) {
    if (used[i].ordered)
      continue;
    if (used[i].optional && !measured(used[i])) {
      findings.push_back(
          {"parameter", fmt::format("line {}", used[i].line),
           fmt::format("`{}` at {} is a wavelength no read of the script measures", used[i].text,
                       scriptLocation(used[i])),
           "analyze at the wavelength the protocol reads", "coverage"});
      continue;
    }
    for (size_t j = 0; j < text.size(); ++j)
      if (!textUsed[j] && matches(text[j], used[i], platform)) {
        textUsed[j] = true;
        matchOf[i] = static_cast<int>(j);
        break;
      }
  }
  // A quantity missing from the script next to an unexplained one of the
  // same dimension is a wrong value; alone, it is a missing step or value.
  std::vector<bool> extraReported(used.size(), false);
  for (size_t j = 0; j < text.size(); ++j) {
    if (textUsed[j])
      continue;
    const TextQuantity &t = text[j];
    int replacement = -1;
    for (size_t i = 0; i < used.size(); ++i)
      if (matchOf[i] < 0 && !extraReported[i] && !used[i].optional &&
          used[i].dimension == t.dimension) {
        replacement = static_cast<int>(i);
        break;
      }
    std::string what = t.repeated ? fmt::format("`{}` (repeated on this line)", quantityText(t))
                                  : fmt::format("`{}`", quantityText(t));
    if (replacement >= 0) {
      extraReported[replacement] = true;
      const ScriptQuantity &s = used[replacement];
      findings.push_back(
          {"parameter", fmt::format("text line {}", t.line),
           fmt::format("text line {} states {} but {} has `{}` instead", t.line, what,
                       scriptLocation(s), s.text),
           fmt::format("use {} as the text says", what), "coverage"});
    } else {
      findings.push_back(
          {"completeness", fmt::format("text line {}", t.line),
           fmt::format("text line {} states {} ({}), which the script does not represent{}",
                       t.line, what, dimensionName(t.dimension),
                       t.repeated ? " as many times as the text calls for it" : ""),
           "add the step or value of that line; a repeated step is written out again or "
           "with `repeat N { ... }`",
           "coverage"});
    }
  }
  for (size_t i = 0; i < used.size(); ++i) {
    if (matchOf[i] >= 0 || extraReported[i] || used[i].optional)
      continue;
    const ScriptQuantity &s = used[i];
    findings.push_back({"parameter", fmt::format("line {}", s.line),
                        fmt::format("`{}` at {} is not stated in the text (an invented value)",
                                    s.text, scriptLocation(s)),
                        "use only values the protocol text gives; leave out what it does not "
                        "state or ask for it in a MANUAL note",
                        "coverage"});
  }

  // A step the platform can do belongs to the robot unless the text gives
  // it to a person.
  std::istringstream in{std::string(protocolText)};
  std::vector<std::string> textLines;
  for (std::string line; std::getline(in, line);)
    textLines.push_back(llvm::StringRef(line).lower());
  static const std::regex byHand(
      R"(\bmanual(ly)?\b|\bby hand\b|\boperator\b|\buser\b|\bmultichannel\b|\bperson\b)");
  for (const ast::Section &section : script.sections) {
    if (section.kind != ast::SectionKind::Manual)
      continue;
    for (const ast::Statement &statement : section.statements) {
      if (!platformLimit(statement, platform).empty())
        continue;
      // The text line the statement's quantities came from.
      unsigned textLine = 0;
      for (size_t i = 0; i < used.size(); ++i)
        if (used[i].line == statement.loc.line && matchOf[i] >= 0 && used[i].ordered) {
          textLine = text[matchOf[i]].line;
          break;
        }
      if (textLine == 0)
        continue;
      if (textLine <= textLines.size() && std::regex_search(textLines[textLine - 1], byHand))
        continue;
      findings.push_back(
          {"completeness", fmt::format("line {}", statement.loc.line),
           fmt::format("the step at script line {} (text line {}) is in <MANUAL>, but {} can "
                       "do it and the text does not give it to a person",
                       statement.loc.line, textLine, platform.name),
           "move it to <INSTRUMENT>; MANUAL is for what the platform cannot do (cooling, "
           "fluorescence, a missing filter) or what the text gives to a person",
           "coverage"});
    }
  }
  // An analysis the text asks for ("4-parameter logistic fit", "linear
  // standard curve") must be a step, done by the platform unless the text
  // gives it to a person: it has no quantity the matching above would miss.
  static const std::regex analysisWords(
      R"(\bcurve\b|\bfit\b|regression|logistic|interpolat|\b4-?pl\b|four-param)");
  unsigned analysisLine = 0;
  for (size_t i = 0; i < textLines.size() && !analysisLine; ++i)
    if (std::regex_search(textLines[i], analysisWords))
      analysisLine = static_cast<unsigned>(i + 1);
  if (analysisLine) {
    bool inInstrument = false, anywhere = false;
    for (const ast::Section &section : script.sections)
      for (const ast::Statement &statement : section.statements)
        if (std::holds_alternative<ast::Analyze>(statement.kind)) {
          anywhere = true;
          inInstrument |= section.kind == ast::SectionKind::Instrument;
        }
    if (!anywhere)
      findings.push_back(
          {"completeness", fmt::format("text line {}", analysisLine),
           fmt::format("text line {} asks for an analysis of the standards, which the script "
                       "does not represent",
                       analysisLine),
           "add `analyze standard_curve linear|4pl [at WAVELENGTH] [subtract blank]` as the "
           "text says",
           "coverage"});
    else if (!inInstrument && !std::regex_search(textLines[analysisLine - 1], byHand))
      findings.push_back(
          {"completeness", fmt::format("text line {}", analysisLine),
           fmt::format("the analysis of text line {} is in <MANUAL>, but {} computes it and the "
                       "text does not give it to a person",
                       analysisLine, platform.name),
           "move `analyze` to <INSTRUMENT>", "coverage"});
  }
  return findings;
}

} // namespace plate::agent
