//===- ScriptGen.h - Synthetic, valid .plate scripts of growing size -------===//
//
// The benchmarks need scripts whose size grows along two axes, wells
// (plate96, plate384) and steps (10 to 1,000), and which still compile
// without errors: a benchmark over scripts that stop at the first
// diagnostic would measure the error path, not the compiler.
//
// Staying legal at 1,000 steps is the design problem. BioForge-1 has 15
// reservoir positions of 25 mL, 11 tip racks of 96 tips and a 960-tip
// waste, and wells hold 350 µL (plate96) or 110 µL (plate384). So the
// generator:
//  - fills every well of the plate with layout liquids in a MANUAL step
//    (hundreds of layout liquids need no reservoir position that way);
//  - cycles a fixed 20-step pattern in which only three steps take tips: two
//    non-contact reagent dispenses of a small volume into a quarter of the
//    plate (so the work per step grows with the wells), and one contact
//    step (aspirate all, wash, mix) on a fixed group of four wells;
//  - fills the rest with steps that move the plate and the clock but no
//    liquid: shake, incubate at RT or 37 °C, read, wait, note;
//  - keeps a per-quarter fill budget so that no well passes its capacity,
//    and rotates twelve reagents so that none needs more than a position.
// The result is deterministic for a given plate type and step count.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace plate::bench {

struct SyntheticSpec {
  std::string plateType = "plate96"; ///< plate96 or plate384
  unsigned steps = 100;              ///< INSTRUMENT statements
};

/// The script text of `spec`.
std::string generateScript(const SyntheticSpec &spec);

/// Wells of the plate type (96 or 384); 0 for an unknown type.
unsigned plateWells(const std::string &plateType);

} // namespace plate::bench
