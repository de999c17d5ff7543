//===- Equivalence.h - Do two scripts do the same to the plate? -*- C++ -*-===//
//
// Parameter Accuracy compares how two scripts are written; two scripts that
// do the same chemistry can score badly (water to column 1 and dye to
// columns 2-12 in two statements against one layout dispense) and two that
// differ in one decisive volume can score well. Equivalence compares what
// they do: each script runs in the reference interpreter
// (backend/bioforge1/ReferenceInterpreter.h, whole protocol: MANUAL work counts as
// what it does) and the two accounts must agree
//
//  - per well: the sequence of additions, removals, mixes and reads
//    (with their wavelengths), and after each change the volume of every
//    liquid, within backend::kHistoryToleranceUl; consecutive events of one
//    kind merge whichever statements made them (two dispenses of 50 µL are
//    one of 100 µL);
//  - for the plate: the incubations, shakes, waits and magnet holds in
//    order, each with its duration, temperature (room temperature when
//    none is stated), shaking speed (none when not stated), magnet, and
//    lid where both scripts state it; consecutive steps in the same
//    conditions merge (two of 30 min are one of an hour);
//  - where a plate-wide step falls among each well's events.
//
// Who does a step (robot or person) is not part of the chemistry. Liquids
// pair reagent with reagent and layout liquid with layout liquid: by name
// within a role, then the remaining ones that go to the same wells in the
// same amounts, then two that together go exactly where one goes (one
// liquid under a name per role), then in the order they first reach a
// well; the mapping is part of the result.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/Platform.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plate::agent {

struct Equivalence {
  bool equivalent = false;
  /// The first difference, in the truth's order, when not equivalent.
  std::string difference;
  /// Candidate liquid -> truth liquid, for the liquids whose names differ.
  std::vector<std::pair<std::string, std::string>> renamed;
  size_t wellEvents = 0;  ///< the truth's, after merging
  size_t plateEvents = 0; ///< the truth's, after merging
};

/// A range the text states ("5-10 min"), or two values it offers as
/// alternatives ("540 or 570 nm"), which admit those two values only.
struct StatedRange {
  double low = 0, high = 0;
  bool alternatives = false;
  bool admits(double value) const {
    constexpr double kSlack = 1e-6;
    if (alternatives)
      return std::fabs(value - low) <= kSlack || std::fabs(value - high) <= kSlack;
    return value >= low - kSlack && value <= high + kSlack;
  }
};

/// Values the protocol text leaves open ("5-10 min", "500-700 rpm",
/// "18-25 °C", "540 or 570 nm"), in seconds, degrees Celsius, rpm and nm:
/// two scripts that close one of them differently within it do what the
/// text says. Only a separate, labelled figure uses them; equivalence
/// itself is strict.
struct TextRanges {
  std::vector<StatedRange> seconds, celsius, rpm, nanometres;
};

/// Compares the checked modules (the frontend's IR, before any pass) of a
/// candidate and a ground truth on the same platform. With `ranges`, a
/// plate step's duration, temperature or speed, and a read's wavelength or
/// reference, agrees also when both values lie within one range the text
/// states.
Equivalence compareEffects(const ir::Module &truth, const ir::Module &candidate,
                           const Platform &platform, const TextRanges *ranges = nullptr);

} // namespace plate::agent
