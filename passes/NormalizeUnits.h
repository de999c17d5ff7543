//===- NormalizeUnits.h - Canonical units for every quantity ----*- C++ -*-===//
//
// `normalize-units` rewrites every Quantity of the module (op fields, mix
// specs, resolved well amounts and declared volumes) to its dimension's
// canonical unit: µL, s, °C, rpm, nm. Liquid concentrations are left in the
// unit the script wrote (ng/mL stays ng/mL): no device command uses them,
// the analysis reports sample results in the calibrants' unit, and crossing
// families (mass/volume, molar, %) would need a molar mass the script does
// not give. The verifier still checks that they are concentrations.
//
// The two symbolic literals get their value from the platform description:
// `RT`/`ambient` becomes Platform::ambientCelsius °C and `overnight` becomes
// Platform::overnightSeconds s, with warning W001 at the op that says so
// (language spec §2: `overnight` always draws a warning).
//
// Preconditions: none; it is the first pass. Afterwards
// Module::unitsNormalized is set and the verifier checks canonical form.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

namespace plate {

std::unique_ptr<Pass> createNormalizeUnitsPass();

} // namespace plate
