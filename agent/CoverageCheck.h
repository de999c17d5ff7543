//===- CoverageCheck.h - Source coverage of a script, both ways -----------===//
//
// The deterministic half of validation after the compiler: every quantity
// the protocol text states (volumes, times, temperatures, speeds,
// wavelengths, repeat counts) must be in the script as many times as the
// text calls for it, and every quantity in the script must come from the
// text (no invented values), allowing unit conversions and the literal
// forms RT and overnight. The script's steps must follow the text's order,
// and a step the platform can do must not be moved to MANUAL.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/AST.h"
#include "ir/Platform.h"
#include "ir/Units.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

/// A quantity stated by the protocol text. Ranges (`20-25 °C`) keep both
/// ends; RT and overnight keep their symbolic unit.
struct TextQuantity {
  Dimension dimension = Dimension::Count;
  double low = 0, high = 0; ///< canonical units; equal unless a range
  Unit symbolic = Unit::Count; ///< Ambient / Overnight, else Count
  unsigned line = 0;           ///< 1-based line of the text
  std::string text;            ///< as written
  bool repeated = false;       ///< added by "as in step N" / "repeat"
};

/// Quantities of a protocol text, with repeats ("repeat twice more", "as
/// in step 2") expanded into extra copies.
std::vector<TextQuantity> extractTextQuantities(std::string_view text,
                                                const Platform &platform);

struct ScriptQuantity {
  Dimension dimension = Dimension::Count;
  double value = 0; ///< canonical
  Unit symbolic = Unit::Count;
  unsigned line = 0;
  std::string step;
  std::string text;
  bool manual = false;
  bool ordered = true; ///< a step quantity (not a reagent declaration or note)
  bool optional = false; ///< may restate a text value (analyze at the read's wavelength)
};

std::vector<ScriptQuantity> extractScriptQuantities(const ast::Script &script,
                                                    const SourceManager &sources,
                                                    const Platform &platform);

/// One miss: `completeness`, `parameter` or `order`.
struct Finding {
  std::string type;
  std::string location; ///< "text line 7", "line 12", "step 5"
  std::string message;
  std::string guidance;
  std::string source; ///< coverage, validator, compiler
};
nlohmann::json toJson(const Finding &finding);

std::vector<Finding> checkCoverage(std::string_view protocolText, const ast::Script &script,
                                   const SourceManager &sources, const Platform &platform);

} // namespace plate::agent
