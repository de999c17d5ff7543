//===- Units.cpp - The unit table of the language spec §2 ------------------===//
#include "ir/Units.h"

#include "ir/Diagnostics.h"

#include <llvm/ADT/StringMap.h>

#include <cctype>
#include <cmath>

namespace plate {

static const UnitInfo kUnits[] = {
    {Unit::NanoLiter, Dimension::Volume, 1e-3, "nL", ConcentrationFamily::None},
    {Unit::MicroLiter, Dimension::Volume, 1, "µL", ConcentrationFamily::None},
    {Unit::MilliLiter, Dimension::Volume, 1e3, "mL", ConcentrationFamily::None},
    {Unit::Liter, Dimension::Volume, 1e6, "L", ConcentrationFamily::None},
    {Unit::Second, Dimension::Time, 1, "s", ConcentrationFamily::None},
    {Unit::Minute, Dimension::Time, 60, "min", ConcentrationFamily::None},
    {Unit::Hour, Dimension::Time, 3600, "h", ConcentrationFamily::None},
    {Unit::Celsius, Dimension::Temperature, 1, "°C", ConcentrationFamily::None},
    {Unit::Rpm, Dimension::Speed, 1, "rpm", ConcentrationFamily::None},
    {Unit::Nanometer, Dimension::Wavelength, 1, "nm", ConcentrationFamily::None},
    {Unit::PicogramPerMl, Dimension::Concentration, 1, "pg/mL", ConcentrationFamily::MassPerVolume},
    {Unit::NanogramPerMl, Dimension::Concentration, 1e3, "ng/mL", ConcentrationFamily::MassPerVolume},
    {Unit::MicrogramPerMl, Dimension::Concentration, 1e6, "µg/mL", ConcentrationFamily::MassPerVolume},
    {Unit::MilligramPerMl, Dimension::Concentration, 1e9, "mg/mL", ConcentrationFamily::MassPerVolume},
    {Unit::GramPerLiter, Dimension::Concentration, 1e9, "g/L", ConcentrationFamily::MassPerVolume},
    {Unit::MicrogramPerDl, Dimension::Concentration, 1e4, "µg/dL", ConcentrationFamily::MassPerVolume},
    {Unit::MilligramPerDl, Dimension::Concentration, 1e7, "mg/dL", ConcentrationFamily::MassPerVolume},
    {Unit::GramPerDl, Dimension::Concentration, 1e10, "g/dL", ConcentrationFamily::MassPerVolume},
    {Unit::PicoMolar, Dimension::Concentration, 1, "pM", ConcentrationFamily::Molar},
    {Unit::NanoMolar, Dimension::Concentration, 1e3, "nM", ConcentrationFamily::Molar},
    {Unit::MicroMolar, Dimension::Concentration, 1e6, "µM", ConcentrationFamily::Molar},
    {Unit::MilliMolar, Dimension::Concentration, 1e9, "mM", ConcentrationFamily::Molar},
    {Unit::Molar, Dimension::Concentration, 1e12, "M", ConcentrationFamily::Molar},
    {Unit::Percent, Dimension::Concentration, 1, "%", ConcentrationFamily::Percent},
    {Unit::Count, Dimension::Count, 1, "x", ConcentrationFamily::None},
    {Unit::Ratio, Dimension::Ratio, 1, "x", ConcentrationFamily::None},
    // NaN factors: a symbolic literal has no value until the platform says.
    {Unit::Ambient, Dimension::Temperature, __builtin_nan(""), "RT", ConcentrationFamily::None},
    {Unit::Overnight, Dimension::Time, __builtin_nan(""), "overnight", ConcentrationFamily::None},
};

const UnitInfo &unitInfo(Unit unit) {
  const UnitInfo &info = kUnits[static_cast<size_t>(unit)];
  PLATE_ASSERT(info.unit == unit, "unit table out of order");
  return info;
}

std::string_view dimensionName(Dimension dimension) {
  switch (dimension) {
  case Dimension::Volume: return "volume";
  case Dimension::Time: return "time";
  case Dimension::Temperature: return "temperature";
  case Dimension::Speed: return "speed";
  case Dimension::Wavelength: return "wavelength";
  case Dimension::Concentration: return "concentration";
  case Dimension::Count: return "count";
  case Dimension::Ratio: return "ratio";
  }
  return "unknown";
}

Unit canonicalUnit(Dimension dimension) {
  switch (dimension) {
  case Dimension::Volume: return Unit::MicroLiter;
  case Dimension::Time: return Unit::Second;
  case Dimension::Temperature: return Unit::Celsius;
  case Dimension::Speed: return Unit::Rpm;
  case Dimension::Wavelength: return Unit::Nanometer;
  case Dimension::Concentration: return Unit::PicogramPerMl;
  case Dimension::Count: return Unit::Count;
  case Dimension::Ratio: return Unit::Ratio;
  }
  return Unit::Count;
}

Unit canonicalUnit(Unit unit) {
  const UnitInfo &info = unitInfo(unit);
  switch (info.family) {
  case ConcentrationFamily::Molar: return Unit::PicoMolar;
  case ConcentrationFamily::Percent: return Unit::Percent;
  case ConcentrationFamily::MassPerVolume: return Unit::PicogramPerMl;
  case ConcentrationFamily::None: break;
  }
  return canonicalUnit(info.dimension);
}

Quantity Quantity::canonical() const {
  return {canonicalValue(), canonicalUnit(unit)};
}

namespace {
struct Spelling {
  const char *text;
  Unit unit;
};
// Every spelling of the spec's §2 table, plus common plurals and short forms
// that lab notes use (secs, mins, hrs); count and ratio words are handled by
// the parser because they depend on the statement.
const Spelling kSpellings[] = {
    {"nL", Unit::NanoLiter},     {"nl", Unit::NanoLiter},
    {"uL", Unit::MicroLiter},    {"µL", Unit::MicroLiter},
    {"μL", Unit::MicroLiter},    {"ul", Unit::MicroLiter},
    {"µl", Unit::MicroLiter},    {"μl", Unit::MicroLiter},
    {"mL", Unit::MilliLiter},    {"ml", Unit::MilliLiter},
    {"L", Unit::Liter},
    {"s", Unit::Second},         {"sec", Unit::Second},
    {"secs", Unit::Second},      {"second", Unit::Second},
    {"seconds", Unit::Second},   {"min", Unit::Minute},
    {"mins", Unit::Minute},      {"minute", Unit::Minute},
    {"minutes", Unit::Minute},   {"h", Unit::Hour},
    {"hr", Unit::Hour},          {"hrs", Unit::Hour},
    {"hour", Unit::Hour},        {"hours", Unit::Hour},
    {"°C", Unit::Celsius},       {"C", Unit::Celsius},
    {"degC", Unit::Celsius},     {"℃", Unit::Celsius},
    {"rpm", Unit::Rpm},          {"nm", Unit::Nanometer},
    {"pg/mL", Unit::PicogramPerMl}, {"pg/ml", Unit::PicogramPerMl},
    {"ng/mL", Unit::NanogramPerMl}, {"ng/ml", Unit::NanogramPerMl},
    {"ug/mL", Unit::MicrogramPerMl}, {"µg/mL", Unit::MicrogramPerMl},
    {"μg/mL", Unit::MicrogramPerMl}, {"ug/ml", Unit::MicrogramPerMl},
    {"µg/ml", Unit::MicrogramPerMl}, {"μg/ml", Unit::MicrogramPerMl},
    {"mg/mL", Unit::MilligramPerMl}, {"mg/ml", Unit::MilligramPerMl},
    {"g/L", Unit::GramPerLiter},  {"g/l", Unit::GramPerLiter},
    // Per-litre spellings of the per-millilitre units: the same quantity
    // (1 mg/L = 1 µg/mL), printed in the per-mL unit.
    {"mg/L", Unit::MicrogramPerMl}, {"mg/l", Unit::MicrogramPerMl},
    {"ug/L", Unit::NanogramPerMl}, {"µg/L", Unit::NanogramPerMl},
    {"μg/L", Unit::NanogramPerMl}, {"ug/l", Unit::NanogramPerMl},
    {"µg/l", Unit::NanogramPerMl}, {"μg/l", Unit::NanogramPerMl},
    {"ng/L", Unit::PicogramPerMl}, {"ng/l", Unit::PicogramPerMl},
    {"ug/dL", Unit::MicrogramPerDl}, {"µg/dL", Unit::MicrogramPerDl},
    {"μg/dL", Unit::MicrogramPerDl}, {"ug/dl", Unit::MicrogramPerDl},
    {"µg/dl", Unit::MicrogramPerDl}, {"μg/dl", Unit::MicrogramPerDl},
    {"mg/dL", Unit::MilligramPerDl}, {"mg/dl", Unit::MilligramPerDl},
    {"g/dL", Unit::GramPerDl},     {"g/dl", Unit::GramPerDl},
    {"pM", Unit::PicoMolar},      {"nM", Unit::NanoMolar},
    {"uM", Unit::MicroMolar},     {"µM", Unit::MicroMolar},
    {"μM", Unit::MicroMolar},     {"mM", Unit::MilliMolar},
    {"M", Unit::Molar},           {"%", Unit::Percent},
};

const llvm::StringMap<Unit> &spellingMap() {
  static const llvm::StringMap<Unit> map = [] {
    llvm::StringMap<Unit> result;
    for (const Spelling &spelling : kSpellings)
      result[spelling.text] = spelling.unit;
    return result;
  }();
  return map;
}
} // namespace

std::optional<Unit> lookupUnit(std::string_view spelling) {
  const auto &map = spellingMap();
  auto it = map.find(llvm::StringRef(spelling.data(), spelling.size()));
  if (it == map.end())
    return std::nullopt;
  return it->second;
}

const std::vector<std::string> &unitSpellings() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> result;
    for (const Spelling &spelling : kSpellings)
      result.emplace_back(spelling.text);
    return result;
  }();
  return all;
}

std::vector<std::string> unitSpellings(Dimension dimension) {
  std::vector<std::string> result;
  for (const Spelling &spelling : kSpellings)
    if (unitInfo(spelling.unit).dimension == dimension)
      result.emplace_back(spelling.text);
  return result;
}

namespace {
/// `mg/dL` against `mg/mL`: the same units with another prefix on some part.
/// A suggestion across scales would turn a typo fix into a factor of 10 to
/// 1000 in a volume or a concentration.
bool differsInScale(std::string_view typed, std::string_view candidate) {
  auto fold = [](std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text.substr(i, 2) == "\xC2\xB5" || text.substr(i, 2) == "\xCE\xBC") { // µ, μ
        out += 'u';
        ++i;
        continue;
      }
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    }
    return out;
  };
  auto parts = [](const std::string &text) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t slash; (slash = text.find('/', start)) != std::string::npos; start = slash + 1)
      out.push_back(text.substr(start, slash - start));
    out.push_back(text.substr(start));
    return out;
  };
  // prefix and base of one part, or nullopt when it is not prefix + base
  auto split = [](const std::string &part) -> std::optional<std::pair<char, std::string>> {
    static const std::string bases[] = {"g", "l", "m", "mol"};
    for (const std::string &base : bases) {
      if (part == base)
        return std::pair<char, std::string>{'\0', base};
      if (part.size() == base.size() + 1 && part.substr(1) == base &&
          std::string_view("pnumcdk").find(part[0]) != std::string_view::npos)
        return std::pair<char, std::string>{part[0], base};
    }
    return std::nullopt;
  };
  std::vector<std::string> a = parts(fold(typed)), b = parts(fold(candidate));
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto pa = split(a[i]), pb = split(b[i]);
    if (pa && pb && pa->second == pb->second && pa->first != pb->first)
      return true;
  }
  return false;
}
} // namespace

std::string closestUnitSpelling(std::string_view typed, const std::vector<std::string> &spellings) {
  std::vector<std::string> sameScale;
  for (const std::string &spelling : spellings)
    if (!differsInScale(typed, spelling))
      sameScale.push_back(spelling);
  return closestMatch(typed, sameScale);
}

std::string formatNumber(double value) {
  if (std::isnan(value))
    return "nan";
  if (value == std::floor(value) && std::fabs(value) < 1e15)
    return fmt::format("{}", static_cast<long long>(value));
  return fmt::format("{}", value);
}

} // namespace plate

auto fmt::formatter<plate::Quantity>::format(const plate::Quantity &quantity,
                                             format_context &ctx) const
    -> decltype(ctx.out()) {
  using plate::Unit;
  std::string text;
  if (quantity.unit == Unit::Ambient)
    text = "RT";
  else if (quantity.unit == Unit::Overnight)
    text = "overnight";
  else if (quantity.unit == Unit::Count)
    text = plate::formatNumber(quantity.value);
  else if (quantity.unit == Unit::Ratio)
    text = "1:" + plate::formatNumber(quantity.value);
  else if (quantity.unit == Unit::Percent)
    text = plate::formatNumber(quantity.value) + "%";
  else
    text = plate::formatNumber(quantity.value) + " " +
           plate::unitInfo(quantity.unit).symbol;
  return fmt::formatter<std::string_view>::format(text, ctx);
}
