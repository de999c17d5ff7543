//===- TipBudgetSearch.cpp - Source-tip widths that keep parked tips ------===//
//
// Part of lower-pipetting; TipBudgetSearch.h says what the search is for.
//
//===----------------------------------------------------------------------===//
#include "passes/TipBudgetSearch.h"

namespace plate::lowering {
namespace {

/// Narrows `widths` by as many tips as the rack is short (`excess`, at
/// least one), each time the position whose time grows least: at width w
/// a position's commands take about S * w0 / w, S measured by `survey` at
/// its width w0 then. Returns false when no position could be narrowed.
bool narrowCheapest(WidthPlan &widths, const Outcome &survey, unsigned excess,
                    unsigned channels) {
  auto widthOf = [&](ir::ReservoirPos pos) {
    auto it = widths.find(pos);
    return it == widths.end() ? channels : it->second;
  };
  std::map<ir::ReservoirPos, unsigned> measuredAt;
  for (ir::ReservoirPos pos : survey.reliefSources)
    measuredAt[pos] = widthOf(pos);
  bool narrowed = false;
  for (unsigned step = 0; step < excess; ++step) {
    std::optional<ir::ReservoirPos> best;
    double bestCost = 0;
    for (const auto &[pos, w0] : measuredAt) {
      unsigned width = widthOf(pos);
      if (width <= 1)
        continue;
      auto seconds = survey.sourceSeconds.find(pos);
      double measured = seconds == survey.sourceSeconds.end() ? 0.0 : seconds->second;
      double cost = measured * w0 / (width * (width - 1.0));
      if (!best || cost < bestCost) {
        best = pos;
        bestCost = cost;
      }
    }
    if (!best)
      break;
    widths[*best] = widthOf(*best) - 1;
    narrowed = true;
  }
  return narrowed;
}

} // namespace

TipBudget searchTipBudget(LoweringTrials &trials, const Platform &platform) {
  WidthPlan full;
  Checkpoint fullCheckpoint;
  Trial base = trials.run(full, false, &fullCheckpoint);
  if (base.outcome.parkedTipsLost == 0)
    return {full, std::move(base.lowered)};
  unsigned rack = platform.tipRackRows * platform.tipRackCols;
  WidthPlan widths;
  for (unsigned round = 0; round < 8; ++round) {
    // The survey of the full widths continues from the base lowering; a
    // survey of new widths records where the real lowering can continue.
    Checkpoint checkpoint;
    Outcome survey = widths.empty() ? trials.runFrom(widths, true, fullCheckpoint).outcome
                                    : trials.run(widths, true, &checkpoint).outcome;
    if (survey.freshBeforeLastParkedPick == ~0u)
      break; // per-well tips alone fill the rack
    // With the full widths the real lowering is the base one, which loses
    // parked tips.
    if (survey.freshBeforeLastParkedPick <= rack && !widths.empty()) {
      Trial real = trials.runFrom(widths, false, checkpoint);
      if (real.outcome.parkedTipsLost == 0) {
        if (real.outcome.tips < base.outcome.tips)
          return {widths, std::move(real.lowered)};
        return {full, std::move(base.lowered)};
      }
    }
    unsigned excess = survey.freshBeforeLastParkedPick > rack
                          ? survey.freshBeforeLastParkedPick - rack
                          : 1;
    if (!narrowCheapest(widths, survey, excess, platform.channels))
      break;
  }
  return {full, std::move(base.lowered)};
}

} // namespace plate::lowering
