//===- CheckPlatform.h - Device ranges and capabilities ---------*- C++ -*-===//
//
// `check-platform` checks every INSTRUMENT op (Op::manual == false) against
// the platform description; MANUAL ops are instructions for a person and
// are only type-checked by the frontend (language spec §7).
//
//  - incubation temperature: from Platform::roomTempMinCelsius to
//    roomTempMaxCelsius is room temperature (no device); above it needs the
//    heater, up to heaterMaxCelsius (else E503); below it is a cooling
//    capability error E602 that suggests a MANUAL step;
//  - shaking speeds (`shake`, `incubate ... shaking`) within the shaker
//    range (E503); shaking above room temperature on an unheated shaker is
//    capability error E600;
//  - absorbance wavelengths and references must be reader filters (E601,
//    listing them); fluorescence on a reader without it is E600;
//  - `magnet` needs a magnet fixture (E600);
//  - per-well volumes that are wrong regardless of plate state: one step's
//    per-well volume above the well capacity (E500) or above the tip
//    capacity (E501). BioForge-1 v1 moves a step's per-well volume in one
//    aspiration per channel, so a volume that does not fit one tip is an
//    error rather than silently split. Cumulative volumes are
//    track-volumes' business.
//
// Capability errors say how to fix the script (mostly: move the step to a
// `<MANUAL>` section).
//
// Preconditions: normalize-units (quantities canonical).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

namespace plate {

std::unique_ptr<Pass> createCheckPlatformPass();

/// Capacity of one well of the module's plate: the platform's labware
/// entry for Module::plateType, else the module's own figure.
double wellCapacityUl(const ir::Module &module, const Platform &platform);

} // namespace plate
