//===- AllocateReservoir.h - Reservoir positions and loading plan -*- C++ -*-===//
//
// `allocate-reservoir` gives every liquid that the INSTRUMENT aspirates from
// the reservoir (reagents and layout liquids with
// Liquid::pipettedByInstrument, or any INSTRUMENT dispense/wash source) one
// or more reservoir positions, and writes Module::loadingPlan.
//
// Need of a liquid = all its INSTRUMENT aspirations: dispense volume x
// wells, wash volume x cycles x wells (the mix of `dispense ... mix` moves
// liquid within the well and adds nothing). A liquid needs
// k = ceil(need / (capacity - dead volume)) positions; the need is split
// evenly over them and each position loads share + dead volume, rounded UP
// to 0.1 mL (bioforge1.md §6). The even split leaves every position the
// same slack, so lowering may draw from them in plan order. A reagent
// declared with a volume loads its share of that instead, as much as a
// position holds (language spec §5; docs/language.md, "Declared volumes").
//
// Assignment order, chosen to be predictable for the operator:
//  1. fixed positions (`at reservoir(R,C)`) are honoured first; a fixed
//     liquid whose need exceeds one position is E504 (the script pinned it
//     to one position);
//  2. then reagents, then layout liquids, each in declaration (LiquidId)
//     order, take the free positions in row-major order ((1,1), (1,2), ...),
//     a liquid that spans several positions taking the next free ones.
// The plan is sorted by position.
//
// Errors: E700 more positions needed than the reservoir has (the shortfall,
// and a hint to load layout liquids by hand in `<MANUAL>`); E701 a declared
// volume below the need plus dead volume (what to load at least); E504 as
// above; E313/E314 fixed positions off the reservoir or taken twice (the
// frontend reports these for scripts; checked again for any module).
//
// Preconditions: normalize-units (volumes in µL).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

#include <optional>

namespace plate {

std::unique_ptr<Pass> createAllocateReservoirPass();

/// Volume (µL) each liquid's INSTRUMENT steps aspirate from the reservoir,
/// indexed by LiquidId.
std::vector<double> reservoirNeedsUl(const ir::Module &module);

/// What each of a liquid's `positions` holds for the plan: its share of the
/// need plus the dead volume, rounded up to 0.1 mL. The operator may load
/// more (a declared volume: language spec §5, "the volume is what the
/// operator loads"); lower-pipetting draws as if each position held this,
/// so a declared volume changes what is loaded, not how it is pipetted.
double plannedLoadMl(double needMl, unsigned positions, double deadMl);

/// The volume (µL) one channel takes per well of each liquid when every
/// INSTRUMENT step draws the same per-well volume of it (a wash buffer's
/// 300 µL fills), else 0; indexed by LiquidId.
std::vector<double> reservoirSharesUl(const ir::Module &module);

/// What each of a liquid's `positions` holds for the plan, in order
/// (docs/schedule.md, "Whole shares"): with a share, whole head loads
/// (`channels` shares) per position, else whole shares, spread as evenly
/// as they allow, plus the dead volume, so no position is left with part
/// of a share a channel would have to finish from the next; without a
/// share, or when neither fits `capacityMl` and a declared volume,
/// plannedLoadMl for each.
std::vector<double> plannedLoadsMl(double needMl, unsigned positions, double deadMl,
                                   double shareUl, double capacityMl,
                                   std::optional<double> declaredMl, unsigned channels);

} // namespace plate
