//===- LowerPipetting.h - Pipetting steps to head commands ---------------===//
//
// `lower-pipetting` replaces every INSTRUMENT dispense, aspirate, wash, mix
// and transfer by commands of the platform's liquid handler (PickTips,
// Aspirate, Dispense, Mix, ReturnTips, DropTips) and its tip swapper's
// SwapTipRack, and sets module.tipsUsed and module.tipRacksUsed. MANUAL
// ops are left alone.
//
// Preconditions (run after):
//  - normalize-units: every quantity canonical (µL, s);
//  - track-volumes: AspirateOp::resolved for `aspirate all`,
//    WashOp::emptied for the wells a wash empties first;
//  - allocate-reservoir: module.loadingPlan holds every liquid the
//    instrument aspirates (a liquid may span several positions);
//  - group-wells (optional): Op::blocks; without them the pass groups the
//    wells row by row itself.
//
// Tip policies (language §8) and the contact rule (bioforge1 §4.3):
//  - per_source: one tip set per reservoir position; dispensing is
//    non-contact, so a set aspirates again from its position and dispenses
//    to many wells (multi-dispense up to the tip capacity). A set is parked
//    in the rack between steps and picked up again by any later step that
//    takes the same liquid from the same position.
//  - new: fresh tips for every aspiration (one aspiration may still serve
//    several wells of its channel).
//  - per_well: a tip that touched a well is kept for that well only; it is
//    parked (ReturnTips) between wash cycles and between steps and picked up
//    again for the same well, so a protocol needs one removal tip per well.
//  - reuse: one tip set for the whole step; commands are marked tipsReuse.
//  A mix after a dispense binds the tips to the wells they mixed.
//
// Several liquids in one dispense (a layout dispense) with `new` or
// `per_well` tips go side by side: each channel is loaded from its own
// liquid's position (one Aspirate per liquid, masked to its channels) and
// one Dispense per head position serves them all, unless lowering liquid
// by liquid takes less robot time or fewer tips (docs/schedule.md,
// "Liquids side by side").
//
// Tip budgeting (docs/schedule.md, "Tip cost"): per_source sets may be
// narrowed position by position (fewer tips, more head positions); the pass
// lowers full width, the narrowing that keeps parked tips through a rack
// swap, and narrowing descents from both, and keeps the plan with the least
// robot time + tip cost × fresh tips (PassOptions::tipCostSeconds);
// removal rounds alternate direction. A per_well wash over more
// wells than fit one rack next to a source set (a full plate) runs in parts
// of head-position columns, each emptied, filled and removed all its cycles
// before the next; a part's removal tips are parked only within the part
// (the last part's also for a later step; parted washes alternate column
// direction so the next one starts there), parts are sized to the tips
// left in the rack, and the rack is swapped only between parts.
//
// Errors: E702 when the tips need more racks than the stacker holds, E703
// when more tips are dropped than the tip waste holds, E701 when a liquid's
// reservoir positions run below their dead volume.
//
// The pass is LowerPipetting.cpp; one lowering with fixed widths is
// PipettingLowering.h, the tip budgeting TipBudgetSearch.h (with its trial
// lowerings in LoweringTrials.h), the tips themselves TipAllocator.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

namespace plate {

std::unique_ptr<Pass> createLowerPipettingPass();

} // namespace plate
