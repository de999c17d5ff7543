//===- TipBudgetSearch.h - Source-tip widths by robot time and tips -------===//
//
// Tip budgeting (docs/schedule.md, "Tip cost"). The lowering's only free
// choice between time and tips is how many channels (so tips) a per_source
// reservoir position's set uses: full width is the fastest; each channel
// less saves a tip (or, where the tips drawn before the last pick of a
// parked per-well tip exceed one rack, keeps the parked tips from being
// thrown away by the swap) and costs time (more head positions for its
// wells). The search lowers a few width plans and keeps the one that
// minimises robot time + tip cost × fresh tips (PassOptions), both counted
// on the lowered commands:
//  - full width;
//  - if a swap loses parked tips there: positions drawn before the last
//    parked pick narrowed one channel at a time, cheapest estimated time
//    per tip first, until a survey lowering says the parked tips survive
//    (the plan that keeps them);
//  - from each of those, a descent that narrows one channel at a time the
//    position with the fewest estimated seconds per tip saved (at width w
//    a position's commands take about S · w0 / w, S measured at w0), each
//    step lowered for real, until every set is one channel wide, the
//    cheapest step is estimated at more than 120 s per tip, the lowered
//    plans show that the descent has paid more than 120 s of robot time
//    per tip it saved, or 12 steps are spent (each is a whole lowering).
// The plans do not depend on the tip cost; only the choice among them
// does, so `--pareto` shows the same frontier for every tip cost.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/LoweringTrials.h"

#include <string>

namespace plate::lowering {

/// A width plan the search lowered, by its figures.
struct PlanPoint {
  /// Robot time of the pipetting and tip commands (Outcome::seconds); the
  /// rest of the stream is the same for every plan.
  double seconds = 0;
  unsigned tips = 0, racks = 0;
  WidthPlan widths; ///< only the narrowed positions
};

/// The plans no other plan beats on both robot time and tips (`--pareto`).
struct PlanFrontier {
  double tipCostSeconds = 0;
  std::vector<PlanPoint> plans; ///< fastest first
  size_t chosen = 0;            ///< index of the plan the tip cost picked
  unsigned lowered = 0;         ///< plans lowered in all (legal or not)
};

/// The widths tip budgeting chose, and the lowering with them when a trial
/// already produced it (none when that trial reported a diagnostic: the
/// pass lowers again to report it).
struct TipBudget {
  WidthPlan widths;
  std::optional<Lowered> lowered;
};

/// Searches the widths with trial lowerings of `trials`' module and picks
/// by `tipCostSeconds`; fills `frontier` when given.
TipBudget searchTipBudget(LoweringTrials &trials, const Platform &platform,
                          double tipCostSeconds, PlanFrontier *frontier = nullptr);

} // namespace plate::lowering
