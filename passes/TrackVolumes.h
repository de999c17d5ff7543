//===- TrackVolumes.h - Static per-well volume and contents -----*- C++ -*-===//
//
// `track-volumes` runs the protocol on a static model of the plate: each
// well's volume and the liquids it holds, in op order, INSTRUMENT and
// MANUAL ops alike (a MANUAL dispense fills wells that later INSTRUMENT
// steps take from; language spec §7). All wells start empty (bioforge1.md
// §4: the layout is loaded by dispense steps, not by declaration).
//
// It resolves what the script leaves to the compiler:
//  - `aspirate all`: AspirateOp::resolved gets each well's volume;
//  - the removal at the start of `wash`: WashOp::emptied gets each well that
//    holds liquid and its volume; a wash ends with its wells empty.
// and reports, once per step with a note counting further wells:
//  - E500 a well over its capacity (names well, volume, capacity);
//  - E502 taking from a well more than it holds (aspirate, transfer source,
//    `aspirate all` from an empty well, mix volume above the well volume);
//  - E505 once, at the step where the liquid the INSTRUMENT removes from
//    the plate (aspirations, wash removals: emptied volume plus every
//    cycle) first exceeds the Solution Waste (Platform::solutionWasteMl);
//  - W004 a reagent dispense to `all` (DispenseOp::allLoc) while wells
//    outside the layout hold liquid that a later read measures or that
//    includes a layout liquid: the wells `all` leaves out, each well once
//    per script, with a note at the step that last filled the first.
// `transfer` moves volume and contents pair by pair in the op's order.
// After an error the model clamps the well (to its capacity, or to empty)
// so that one mistake is reported once, not at every later step.
//
// Cost: O(wells touched) per op, so linear in wells x steps.
//
// Preconditions: normalize-units (volumes in µL).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

#include <llvm/ADT/SmallVector.h>

namespace plate {

std::unique_ptr<Pass> createTrackVolumesPass();

/// One well of the static model.
struct WellState {
  double volumeUl = 0;
  /// Liquids in the well, sorted by id, without duplicates; empty when the
  /// well is empty.
  llvm::SmallVector<ir::LiquidId, 4> liquids;
};

/// The plate after the whole protocol, row-major (index (row-1)*cols +
/// col-1), plus the resolutions written into the ops. Reports through
/// context.diags; this is what the pass runs.
std::vector<WellState> trackVolumes(ir::Module &module, PassContext &context);

} // namespace plate
