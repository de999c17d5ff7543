//===- TipBudgetSearch.cpp - Source-tip widths by robot time and tips -----===//
//
// Part of lower-pipetting; TipBudgetSearch.h says what the search is for.
//
//===----------------------------------------------------------------------===//
#include "passes/TipBudgetSearch.h"

#include <algorithm>
#include <cmath>

namespace plate::lowering {
namespace {

unsigned widthIn(const WidthPlan &widths, ir::ReservoirPos pos, unsigned channels) {
  auto it = widths.find(pos);
  return it == widths.end() ? channels : it->second;
}

/// Narrows `widths` by as many tips as the rack is short (`excess`, at
/// least one), each time the position whose time grows least: at width w
/// a position's commands take about S * w0 / w, S measured by `survey` at
/// its width w0 then. Returns false when no position could be narrowed.
bool narrowCheapest(WidthPlan &widths, const Outcome &survey, unsigned excess,
                    unsigned channels) {
  std::map<ir::ReservoirPos, unsigned> measuredAt;
  for (ir::ReservoirPos pos : survey.reliefSources)
    measuredAt[pos] = widthIn(widths, pos, channels);
  bool narrowed = false;
  for (unsigned step = 0; step < excess; ++step) {
    std::optional<ir::ReservoirPos> best;
    double bestCost = 0;
    for (const auto &[pos, w0] : measuredAt) {
      unsigned width = widthIn(widths, pos, channels);
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
    widths[*best] = widthIn(widths, *best, channels) - 1;
    narrowed = true;
  }
  return narrowed;
}

/// Narrowing steps each descent may lower: every step is a whole lowering,
/// so this bounds the compile time (docs/schedule.md, "Tip cost").
constexpr unsigned kDescentSteps = 12;
/// A descent stops where the cheapest narrowing is estimated to cost more
/// robot seconds per tip saved than this, or where its lowered plans show
/// it has paid more (boughtTooDearly): 8x the default tip cost, beyond what
/// docs/schedule.md argues a tip is worth in any lab.
constexpr double kMaxSecondsPerTip = 120;

/// Every plan the search lowered for real, and the best so far by the
/// objective with its lowering (only that one is kept: the ops are large).
class PlanSearch {
public:
  PlanSearch(LoweringTrials &trials, const Platform &platform, double tipCostSeconds)
      : trials_(trials), platform_(platform), tipCost_(tipCostSeconds) {}

  /// Lowers `widths` for real (unless already done) and returns its entry.
  size_t lower(const WidthPlan &widths, Checkpoint *record = nullptr) {
    if (auto it = seen_.find(widths); it != seen_.end())
      return it->second;
    return adopt(widths, trials_.run(widths, false, record));
  }
  /// Records a real trial the caller ran.
  size_t adopt(const WidthPlan &widths, Trial trial) {
    if (auto it = seen_.find(widths); it != seen_.end())
      return it->second;
    size_t index = plans_.size();
    seen_.emplace(widths, index);
    bool legal = trial.lowered.has_value();
    plans_.push_back({widths, trial.outcome, legal});
    if (legal && better(index)) {
      best_ = index;
      bestLowered_ = std::move(trial.lowered);
    }
    return index;
  }

  LoweringTrials &trials() { return trials_; }
  const Outcome &outcome(size_t index) const { return plans_[index].outcome; }
  const WidthPlan &widths(size_t index) const { return plans_[index].widths; }

  /// From `start`, narrows one channel at a time the position that the
  /// measured seconds say costs least time per tip saved, lowering each
  /// step, for at most `steps` steps.
  void descend(size_t start, unsigned steps) {
    size_t current = start;
    unsigned channels = platform_.channels;
    for (unsigned step = 0; step < steps; ++step) {
      if (boughtTooDearly(start, current))
        return;
      const Outcome &measured = plans_[current].outcome;
      WidthPlan widths = plans_[current].widths;
      std::optional<ir::ReservoirPos> cheapest;
      double cheapestCost = 0;
      for (ir::ReservoirPos pos : measured.narrowable) {
        unsigned width = widthIn(widths, pos, channels);
        if (width <= 1)
          continue;
        auto seconds = measured.sourceSeconds.find(pos);
        double s = seconds == measured.sourceSeconds.end() ? 0.0 : seconds->second;
        double cost = s / (width - 1.0);
        if (!cheapest || cost < cheapestCost) {
          cheapest = pos;
          cheapestCost = cost;
        }
      }
      if (!cheapest || cheapestCost > kMaxSecondsPerTip)
        return;
      widths[*cheapest] = widthIn(widths, *cheapest, channels) - 1;
      current = lower(widths);
    }
  }

  /// True once the descent from `start` has paid more robot time per tip
  /// it saved than kMaxSecondsPerTip, measured on the lowered plans: the
  /// estimate that picks each step counts only the commands at the narrowed
  /// source, while narrowing also shifts the rack's fresh columns under
  /// later picks, so a step estimated at 39 s per tip can cost 176 s. A
  /// descent that saved no tip yet goes on, since a later step may free a
  /// whole group of tips (elisa96: 1 tip for 108 s, then 37 for 118 s).
  bool boughtTooDearly(size_t start, size_t current) const {
    const Outcome &from = plans_[start].outcome, &to = plans_[current].outcome;
    if (to.tips >= from.tips)
      return false;
    double seconds = to.seconds - from.seconds;
    return seconds > kMaxSecondsPerTip * static_cast<double>(from.tips - to.tips);
  }

  /// The chosen plan's widths and lowering (none: no plan was legal, or
  /// the full-width plan reported a diagnostic and must report it again).
  TipBudget take(PlanFrontier *frontier) {
    if (frontier)
      fill(*frontier);
    if (!best_)
      return {WidthPlan{}, std::nullopt};
    return {plans_[*best_].widths, std::move(bestLowered_)};
  }

private:
  struct Plan {
    WidthPlan widths;
    Outcome outcome;
    bool legal = false;
  };

  double cost(size_t index) const {
    return plans_[index].outcome.seconds + tipCost_ * plans_[index].outcome.tips;
  }
  /// Lower cost wins; at equal cost, fewer tips, then the earlier plan.
  bool better(size_t index) const {
    if (!best_)
      return true;
    double a = cost(index), b = cost(*best_);
    if (std::abs(a - b) > 1e-6)
      return a < b;
    return plans_[index].outcome.tips < plans_[*best_].outcome.tips;
  }

  void fill(PlanFrontier &frontier) const {
    frontier = {};
    frontier.tipCostSeconds = tipCost_;
    frontier.lowered = static_cast<unsigned>(plans_.size());
    auto dominated = [&](const Plan &plan) {
      for (const Plan &other : plans_) {
        if (!other.legal || &other == &plan)
          continue;
        bool noWorse = other.outcome.seconds <= plan.outcome.seconds + 1e-6 &&
                       other.outcome.tips <= plan.outcome.tips;
        bool better = other.outcome.seconds < plan.outcome.seconds - 1e-6 ||
                      other.outcome.tips < plan.outcome.tips;
        if (noWorse && better)
          return true;
      }
      return false;
    };
    auto sameFigures = [&](size_t a, size_t b) {
      return std::abs(plans_[a].outcome.seconds - plans_[b].outcome.seconds) <= 1e-6 &&
             plans_[a].outcome.tips == plans_[b].outcome.tips;
    };
    // Plans with the same figures show once: the chosen one, else the
    // first lowered.
    std::vector<size_t> kept;
    for (size_t i = 0; i < plans_.size(); ++i) {
      if (!plans_[i].legal || dominated(plans_[i]))
        continue;
      auto twin = std::find_if(kept.begin(), kept.end(), [&](size_t k) { return sameFigures(k, i); });
      if (twin == kept.end())
        kept.push_back(i);
      else if (best_ && i == *best_)
        *twin = i;
    }
    std::stable_sort(kept.begin(), kept.end(), [&](size_t a, size_t b) {
      if (std::abs(plans_[a].outcome.seconds - plans_[b].outcome.seconds) > 1e-6)
        return plans_[a].outcome.seconds < plans_[b].outcome.seconds;
      return plans_[a].outcome.tips < plans_[b].outcome.tips;
    });
    for (size_t i : kept) {
      if (best_ && i == *best_)
        frontier.chosen = frontier.plans.size();
      frontier.plans.push_back({plans_[i].outcome.seconds, plans_[i].outcome.tips,
                                plans_[i].outcome.racks, plans_[i].widths});
    }
  }

  LoweringTrials &trials_;
  const Platform &platform_;
  double tipCost_;
  std::vector<Plan> plans_;
  std::map<WidthPlan, size_t> seen_;
  std::optional<size_t> best_;
  std::optional<Lowered> bestLowered_;
};

/// The plan that keeps parked tips through the rack swap, when the full
/// widths lose some and narrowing can get there (the old budget rule).
std::optional<size_t> keepParkedTips(PlanSearch &search, Checkpoint &fullCheckpoint,
                                     const Platform &platform) {
  unsigned rack = platform.tipRackRows * platform.tipRackCols;
  WidthPlan widths;
  for (unsigned round = 0; round < 8; ++round) {
    // The survey of the full widths continues from the base lowering; a
    // survey of new widths records where the real lowering can continue.
    Checkpoint checkpoint;
    LoweringTrials &trials = search.trials();
    Outcome survey = widths.empty() ? trials.runFrom(widths, true, fullCheckpoint).outcome
                                    : trials.run(widths, true, &checkpoint).outcome;
    if (survey.freshBeforeLastParkedPick == ~0u)
      return std::nullopt; // per-well tips alone fill the rack
    // With the full widths the real lowering is the base one, which loses
    // parked tips.
    if (survey.freshBeforeLastParkedPick <= rack && !widths.empty()) {
      size_t real = search.adopt(widths, trials.runFrom(widths, false, checkpoint));
      if (search.outcome(real).parkedTipsLost == 0)
        return real;
    }
    unsigned excess = survey.freshBeforeLastParkedPick > rack
                          ? survey.freshBeforeLastParkedPick - rack
                          : 1;
    if (!narrowCheapest(widths, survey, excess, platform.channels))
      return std::nullopt;
  }
  return std::nullopt;
}

} // namespace

TipBudget searchTipBudget(LoweringTrials &trials, const Platform &platform,
                          double tipCostSeconds, PlanFrontier *frontier) {
  PlanSearch search(trials, platform, tipCostSeconds);
  Checkpoint fullCheckpoint;
  size_t full = search.lower(WidthPlan{}, &fullCheckpoint);
  std::optional<size_t> kept;
  if (search.outcome(full).parkedTipsLost > 0)
    kept = keepParkedTips(search, fullCheckpoint, platform);
  search.descend(full, kDescentSteps);
  if (kept)
    search.descend(*kept, kDescentSteps);
  return search.take(frontier);
}

} // namespace plate::lowering
