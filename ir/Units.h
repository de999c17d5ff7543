//===- Units.h - Dimensions, units and typed quantities -------------------===//
//
// A physical amount is always a Quantity{value, Unit}; the Unit knows its
// dimension and its factor to the dimension's canonical unit (µL, s, °C,
// rpm, nm). Concentrations stay in their family (mass/volume, molar,
// percent) because converting between families needs a molar mass.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate {

enum class Dimension : uint8_t {
  Volume,
  Time,
  Temperature,
  Speed,
  Wavelength,
  Concentration,
  Count,
  Ratio,
};

std::string_view dimensionName(Dimension dimension);

enum class Unit : uint8_t {
  // Volume
  NanoLiter, MicroLiter, MilliLiter, Liter,
  // Time
  Second, Minute, Hour,
  // Temperature
  Celsius,
  // Speed
  Rpm,
  // Wavelength
  Nanometer,
  // Concentration, mass per volume (canonical pg/mL)
  PicogramPerMl, NanogramPerMl, MicrogramPerMl, MilligramPerMl, GramPerLiter,
  // Per decilitre, as clinical chemistry reports (cortisol in µg/dL,
  // glucose and creatinine in mg/dL, protein in g/dL).
  MicrogramPerDl, MilligramPerDl, GramPerDl,
  // Concentration, molar (canonical pM)
  PicoMolar, NanoMolar, MicroMolar, MilliMolar, Molar,
  // Concentration, percent
  Percent,
  // Dimensionless
  Count,
  Ratio,
  // Symbolic literals resolved from the platform by unit normalization:
  // `RT`/`room temperature`/`ambient` and `overnight` (language spec §2).
  Ambient,
  Overnight,
};

enum class ConcentrationFamily : uint8_t { None, MassPerVolume, Molar, Percent };

struct UnitInfo {
  Unit unit;
  Dimension dimension;
  /// Multiply a value in this unit by `factor` to get the canonical unit.
  double factor;
  /// How the unit prints (µL, °C, ng/mL).
  const char *symbol;
  ConcentrationFamily family;
};

const UnitInfo &unitInfo(Unit unit);
/// The canonical unit of a dimension (for Concentration: pg/mL).
Unit canonicalUnit(Dimension dimension);
Unit canonicalUnit(Unit unit);

/// Looks up one spelling of §2 exactly ("uL", "µL", "μL", "°C", "hours",
/// "ug/mL"). Spellings are case-sensitive because `nm` and `nM` differ.
std::optional<Unit> lookupUnit(std::string_view spelling);
/// Every accepted spelling, for did-you-mean hints and the agent prompt.
const std::vector<std::string> &unitSpellings();
/// The accepted spellings of one dimension, for messages and the prompt.
/// The spelling among `spellings` closest to the unknown unit `typed`, but
/// never one that differs from it only in scale (`mg/dL` is not `mg/mL`);
/// empty when none is close.
std::string closestUnitSpelling(std::string_view typed, const std::vector<std::string> &spellings);
std::vector<std::string> unitSpellings(Dimension dimension);

struct Quantity {
  double value = 0;
  Unit unit = Unit::Count;

  Dimension dimension() const { return unitInfo(unit).dimension; }
  /// The same amount in the dimension's canonical unit.
  Quantity canonical() const;
  /// Value in the canonical unit (µL, s, °C, rpm, nm, pg/mL, pM, %).
  double canonicalValue() const { return value * unitInfo(unit).factor; }
  bool isCanonical() const { return unit == canonicalUnit(unit); }
  /// RT or overnight: a value the platform description decides.
  bool isSymbolic() const { return unit == Unit::Ambient || unit == Unit::Overnight; }

  static Quantity microliters(double v) { return {v, Unit::MicroLiter}; }
  static Quantity seconds(double v) { return {v, Unit::Second}; }
  static Quantity celsius(double v) { return {v, Unit::Celsius}; }
  static Quantity rpm(double v) { return {v, Unit::Rpm}; }
  static Quantity nanometers(double v) { return {v, Unit::Nanometer}; }
  static Quantity count(double v) { return {v, Unit::Count}; }

  friend bool operator==(const Quantity &, const Quantity &) = default;
};

/// Values within this much of a limit count as on it, wherever quantities
/// are compared (a well's capacity, a range, a remaining volume): canonical
/// values are snapped to 12 digits, far finer than any device resolution,
/// so 0.1 + 0.2 µL fills a 0.3 µL well exactly. One constant, so that the
/// passes, the backends and the twin agree on what "on the limit" means.
inline constexpr double kQuantitySlack = 1e-9;

/// Shortest round-trip decimal for a value: 37.5, 0.1, 1e-05 never appear
/// as 37.500000 or 0.1000000001 in dumps and messages.
std::string formatNumber(double value);

} // namespace plate

template <> struct fmt::formatter<plate::Quantity> : fmt::formatter<std::string_view> {
  auto format(const plate::Quantity &quantity, format_context &ctx) const
      -> decltype(ctx.out());
};
