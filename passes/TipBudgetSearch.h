//===- TipBudgetSearch.h - Source-tip widths that keep parked tips --------===//
//
// Tip budgeting (docs/schedule.md). Full-width source sets are the fastest
// schedule; but when the tips drawn before the last pick of a parked
// per-well tip exceed one rack, the rack swap throws the parked tips away
// and every one of them is bought again. Narrowing a source position's set
// by one channel saves one tip per set and costs time (more head positions
// for its wells), so positions are narrowed one channel at a time,
// cheapest estimated time per tip first, among the positions whose tips
// are drawn before that last pick, until the parked tips survive. If no
// narrowing can get there (per-well tips alone fill the rack), the
// full-width plan stays.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/LoweringTrials.h"

namespace plate::lowering {

/// The widths tip budgeting chose, and the lowering with them when a trial
/// already produced it (none when that trial reported a diagnostic: the
/// pass lowers again to report it).
struct TipBudget {
  WidthPlan widths;
  std::optional<Lowered> lowered;
};

/// Searches the widths with trial lowerings of `trials`' module.
TipBudget searchTipBudget(LoweringTrials &trials, const Platform &platform);

} // namespace plate::lowering
