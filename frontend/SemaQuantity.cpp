//===- SemaQuantity.cpp - Dimension checking of every quantity ------------===//
//
// Each quantity of the script passes through quantity(): the statement says
// which dimension it takes, the unit spelling says which dimension was
// written. Values keep their written unit (normalize-units canonicalizes
// later); `RT` and `overnight` stay symbolic because only the platform
// knows their values.
//
//===----------------------------------------------------------------------===//
#include "frontend/Sema.h"
#include "ir/Utf16.h"

#include <cmath>

namespace plate::sema {

namespace {

bool isCountWord(const std::string &unit) {
  return unit == "x" || unit == "X" || unit == "times" || unit == "time" ||
         unit == "×";
}

std::string article(std::string_view noun) {
  bool vowel = !noun.empty() && std::string_view("aeiou").find(noun[0]) != std::string_view::npos;
  return fmt::format("{} {}", vowel ? "an" : "a", noun);
}

/// The dimension a procedure parameter type carries, if it is a quantity.
std::optional<Dimension> paramDimension(ast::ParamType type) {
  switch (type) {
  case ast::ParamType::Volume: return Dimension::Volume;
  case ast::ParamType::Time: return Dimension::Time;
  case ast::ParamType::Temperature: return Dimension::Temperature;
  case ast::ParamType::Speed: return Dimension::Speed;
  case ast::ParamType::Wavelength: return Dimension::Wavelength;
  case ast::ParamType::Count: return Dimension::Count;
  case ast::ParamType::Reagent:
  case ast::ParamType::Wells: return std::nullopt;
  }
  return std::nullopt;
}

/// The units a bare number most likely lacks in a statement, most likely
/// first (docs/language.md §2, "A bare number"). A time depends on the
/// statement: an incubation is minutes or hours, a shake or a soak seconds
/// or minutes. Within a statement the units whose result falls in the
/// statement's usual span come first, so `incubate 2` offers `2 h` before
/// `2 min` and `incubate 30` offers `30 min` before `30 h`.
std::vector<std::string> likelyUnits(Dimension expected, std::string_view context,
                                     double value) {
  switch (expected) {
  case Dimension::Volume:
    // A reagent's loaded volume fills a reservoir; a step's volume a well.
    if (context == "a reagent's loaded volume" || context == "`prepare`")
      return {"mL"};
    return {"uL"};
  case Dimension::Time: {
    struct Span {
      std::string_view context;
      std::vector<std::string> units;
      double minSeconds, maxSeconds;
    };
    static const std::vector<Span> spans = {
        {"`incubate`", {"min", "h"}, 5 * 60, 24 * 3600},
        {"`equilibrate ... for`", {"min", "h"}, 5 * 60, 24 * 3600},
        {"`shake`", {"s", "min"}, 10, 3600},
        {"`soak`", {"s", "min"}, 5, 600},
        {"`magnet`", {"s", "min"}, 10, 1800},
        {"`wait`", {"s", "min", "h"}, 10, 24 * 3600},
    };
    // Any other time (a procedure's Time parameter): every unit.
    static const Span fallback{"", {"s", "min", "h"}, 10, 24 * 3600};
    const Span *span = &fallback;
    for (const Span &candidate : spans)
      if (candidate.context == context)
        span = &candidate;
    std::vector<std::string> inSpan, outside;
    for (const std::string &unit : span->units) {
      double seconds = Quantity{value, *lookupUnit(unit)}.canonicalValue();
      (seconds >= span->minSeconds && seconds <= span->maxSeconds ? inSpan : outside)
          .push_back(unit);
    }
    inSpan.insert(inSpan.end(), outside.begin(), outside.end());
    return inSpan;
  }
  case Dimension::Temperature: return {"°C"};
  case Dimension::Speed: return {"rpm"};
  case Dimension::Wavelength: return {"nm"};
  case Dimension::Concentration:
  case Dimension::Count:
  case Dimension::Ratio: return {};
  }
  return {};
}

/// "`a`", "`a` or `b`", "`a`, `b` or `c`".
std::string alternatives(const std::vector<std::string> &options) {
  std::string out;
  for (size_t i = 0; i < options.size(); ++i) {
    if (i > 0)
      out += i + 1 == options.size() ? " or " : ", ";
    out += "`" + options[i] + "`";
  }
  return out;
}

Quantity placeholder(Dimension dimension) {
  if (dimension == Dimension::Temperature)
    return {1, Unit::Ambient};
  return {1, canonicalUnit(dimension)};
}

} // namespace

std::string_view paramTypeName(ast::ParamType type) {
  switch (type) {
  case ast::ParamType::Volume: return "Volume";
  case ast::ParamType::Time: return "Time";
  case ast::ParamType::Temperature: return "Temperature";
  case ast::ParamType::Speed: return "Speed";
  case ast::ParamType::Wavelength: return "Wavelength";
  case ast::ParamType::Count: return "Count";
  case ast::ParamType::Reagent: return "Reagent";
  case ast::ParamType::Wells: return "Wells";
  }
  return "?";
}

std::string Sema::text(SourceLoc loc, std::string_view fallback) const {
  if (loc.isValid() && loc.length > 0) {
    std::string_view line = sources_.lineText(loc.fileId, loc.line);
    // `col` counts bytes and `length` characters (SourceLoc): "37 °C" is
    // five characters and six bytes.
    if (loc.col >= 1 && loc.col - 1 < line.size()) {
      size_t begin = loc.col - 1, end = begin;
      for (uint32_t chars = 0; end < line.size() && chars < loc.length; ++chars)
        end += utf8CharAt(line, end).bytes;
      return std::string(line.substr(begin, end - begin));
    }
  }
  return std::string(fallback);
}

std::string Sema::quantityText(const ast::QuantityExpr &q) const {
  std::string fallback;
  switch (q.kind) {
  case ast::QuantityExpr::Kind::RoomTemp: fallback = "RT"; break;
  case ast::QuantityExpr::Kind::Overnight: fallback = "overnight"; break;
  case ast::QuantityExpr::Kind::ColonRatio: fallback = "1:" + q.text; break;
  case ast::QuantityExpr::Kind::Param: fallback = q.param; break;
  case ast::QuantityExpr::Kind::Number:
    fallback = q.text.empty() ? formatNumber(q.value) : q.text;
    if (!q.unit.empty())
      fallback += (q.unit == "x" || q.unit == "×" ? "" : " ") + q.unit;
    break;
  }
  return text(q.loc, fallback);
}

std::optional<Quantity> Sema::quantity(const ast::QuantityExpr &q, Dimension expected,
                                       std::string_view context) {
  std::string written = quantityText(q);
  auto wrongDimension = [&](std::string_view found) {
    report(DiagId::WrongDimension, q.loc, written, found, context,
           dimensionName(expected));
    return std::nullopt;
  };
  Quantity result;
  switch (q.kind) {
  case ast::QuantityExpr::Kind::Param: {
    const Binding *binding = param(q.param);
    if (!binding) {
      // A bare word in a quantity position: a name that is not a parameter.
      auto found = liquidByName_.find(q.param);
      if (found != liquidByName_.end()) {
        const ir::Liquid &liquid = module_.liquid(found->second);
        report(DiagId::WrongKindOfName, q.loc, q.param,
               liquid.role == ir::LiquidRole::Reagent ? "reagent" : "layout liquid",
               context, dimensionName(expected));
        return std::nullopt;
      }
      std::vector<std::string> candidates;
      if (env_)
        for (const auto &[name, _] : *env_)
          candidates.push_back(name);
      if (std::string close = closestMatch(q.param, candidates); !close.empty()) {
        report(DiagId::UndefinedName, q.loc, q.param, close).suggest(close);
        return std::nullopt;
      }
      report(DiagId::UndefinedQuantityName, q.loc, q.param);
      return std::nullopt;
    }
    std::optional<Dimension> dimension = paramDimension(binding->type);
    if (!dimension) {
      report(DiagId::WrongKindOfName, q.loc, q.param,
             fmt::format("{} parameter", paramTypeName(binding->type)), context,
             dimensionName(expected));
      return std::nullopt;
    }
    if (*dimension != expected)
      return wrongDimension(fmt::format("{} parameter", dimensionName(*dimension)));
    if (!binding->quantity)
      return placeholder(expected);
    return binding->quantity;
  }
  case ast::QuantityExpr::Kind::RoomTemp:
    if (expected != Dimension::Temperature)
      return wrongDimension("temperature");
    return Quantity{1, Unit::Ambient};
  case ast::QuantityExpr::Kind::Overnight:
    if (expected != Dimension::Time)
      return wrongDimension("time");
    return Quantity{1, Unit::Overnight};
  case ast::QuantityExpr::Kind::ColonRatio:
    if (expected != Dimension::Ratio)
      return wrongDimension("ratio");
    result = {q.value, Unit::Ratio};
    break;
  case ast::QuantityExpr::Kind::Number:
    if (q.unit.empty()) {
      if (expected != Dimension::Count) {
        std::vector<std::string> fixes;
        if (expected == Dimension::Ratio)
          fixes.push_back("1:" + written);
        for (const std::string &unit : likelyUnits(expected, context, q.value))
          fixes.push_back(fmt::format("{} {}", written, unit));
        if (fixes.empty())
          report(DiagId::MissingUnitNoGuess, q.loc, written, context, dimensionName(expected));
        else
          report(DiagId::MissingUnit, q.loc, written, context, dimensionName(expected),
                 alternatives(fixes))
              .suggest(fixes.front());
        return std::nullopt;
      }
      result = {q.value, Unit::Count};
    } else if (isCountWord(q.unit)) {
      if (expected == Dimension::Count)
        result = {q.value, Unit::Count};
      else if (expected == Dimension::Ratio && q.unit != "times" && q.unit != "time")
        result = {q.value, Unit::Ratio};
      else
        return wrongDimension("count");
    } else {
      std::optional<Unit> unit = lookupUnit(q.unit);
      if (!unit) {
        // Prefer a spelling of the expected dimension, then any spelling.
        std::string close = closestUnitSpelling(q.unit, unitSpellings(expected));
        if (close.empty())
          close = closestUnitSpelling(q.unit, unitSpellings());
        SourceLoc at = q.unitLoc.isValid() ? q.unitLoc : q.loc;
        if (close.empty())
          report(DiagId::UnknownUnitNoMatch, at, q.unit, context,
                 article(dimensionName(expected)));
        else
          report(DiagId::UnknownUnit, at, q.unit, close).suggest(close);
        return std::nullopt;
      }
      result = {q.value, *unit};
      if (result.dimension() != expected)
        return wrongDimension(dimensionName(result.dimension()));
    }
    break;
  }

  if (!std::isfinite(result.value)) {
    report(DiagId::NonPositive, q.loc, dimensionName(expected), written,
           dimensionName(expected));
    return std::nullopt;
  }
  switch (expected) {
  case Dimension::Count:
    if (result.value != std::floor(result.value)) {
      report(DiagId::NotACount, q.loc, written, context);
      return std::nullopt;
    }
    [[fallthrough]];
  case Dimension::Volume:
  case Dimension::Time:
  case Dimension::Speed:
  case Dimension::Wavelength:
    if (result.value <= 0) {
      report(DiagId::NonPositive, q.loc, dimensionName(expected), written,
             dimensionName(expected));
      return std::nullopt;
    }
    break;
  case Dimension::Ratio:
    if (result.value <= 1) {
      report(DiagId::BadRatio, q.loc, written);
      return std::nullopt;
    }
    break;
  case Dimension::Temperature:
  case Dimension::Concentration:
    break;
  }
  return result;
}

std::optional<unsigned> Sema::count(const ast::QuantityExpr &q, std::string_view context) {
  std::optional<Quantity> value = quantity(q, Dimension::Count, context);
  if (!value)
    return std::nullopt;
  // Counts beyond any plausible protocol are clamped here; the expansion
  // bound reports them.
  return static_cast<unsigned>(std::min(value->value, 1e9));
}

std::optional<Unit> Sema::concentrationUnit(const ast::ConcList &conc) {
  std::string context = "`conc`";
  if (conc.unit.empty()) {
    report(DiagId::MissingConcUnit, conc.loc, text(conc.loc, "conc"));
    return std::nullopt;
  }
  SourceLoc at = conc.unitLoc.isValid() ? conc.unitLoc : conc.loc;
  std::optional<Unit> unit = lookupUnit(conc.unit);
  if (!unit) {
    std::string close = closestUnitSpelling(conc.unit, unitSpellings(Dimension::Concentration));
    if (close.empty())
      report(DiagId::UnknownConcUnit, at, conc.unit);
    else
      report(DiagId::UnknownUnit, at, conc.unit, close).suggest(close);
    return std::nullopt;
  }
  if (unitInfo(*unit).dimension != Dimension::Concentration) {
    report(DiagId::WrongDimension, at, conc.unit,
           dimensionName(unitInfo(*unit).dimension), context, "concentration");
    return std::nullopt;
  }
  return unit;
}

} // namespace plate::sema
