//===- AllocateReservoir.cpp - Reservoir positions and loading plan ------===//
#include "passes/AllocateReservoir.h"
#include "passes/Passes.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace plate {

std::vector<double> reservoirNeedsUl(const ir::Module &module) {
  std::vector<double> need(module.liquids.size(), 0.0);
  for (const ir::Op &op : module.ops) {
    if (op.manual)
      continue;
    if (const auto *dispense = op.as<ir::DispenseOp>()) {
      for (const ir::Portion &portion : dispense->portions)
        need.at(portion.liquid) += dispense->volume.value * portion.wells.size();
    } else if (const auto *wash = op.as<ir::WashOp>()) {
      need.at(wash->reagent) += wash->volume.value * wash->cycles * wash->wells.size();
    }
  }
  return need;
}

namespace {

/// Rounds up to 0.1 mL; the slack keeps 24.5 from becoming 24.6 through
/// binary noise, the final round() keeps 7.1 from printing 7.1000000001.
double roundUpTenth(double ml) { return std::round(std::ceil(ml * 10 - kQuantitySlack)) / 10; }

std::string ml(double value) {
  return fmt::format("{}", Quantity{std::round(value * 1e6) / 1e6, Unit::MilliLiter});
}

} // namespace

double plannedLoadMl(double needMl, unsigned positions, double deadMl) {
  return roundUpTenth(needMl / positions + deadMl);
}

std::vector<double> reservoirSharesUl(const ir::Module &module) {
  std::vector<double> share(module.liquids.size(), 0.0);
  std::vector<bool> mixed(module.liquids.size(), false);
  auto see = [&](ir::LiquidId liquid, double volumeUl) {
    if (share.at(liquid) == 0)
      share[liquid] = volumeUl;
    else if (std::abs(share[liquid] - volumeUl) > kQuantitySlack)
      mixed[liquid] = true;
  };
  for (const ir::Op &op : module.ops) {
    if (op.manual)
      continue;
    if (const auto *dispense = op.as<ir::DispenseOp>()) {
      for (const ir::Portion &portion : dispense->portions)
        see(portion.liquid, dispense->volume.value);
    } else if (const auto *wash = op.as<ir::WashOp>()) {
      see(wash->reagent, wash->volume.value);
    }
  }
  for (size_t id = 0; id < share.size(); ++id)
    if (mixed[id])
      share[id] = 0;
  return share;
}

std::vector<double> plannedLoadsMl(double needMl, unsigned positions, double deadMl,
                                   double shareUl, double capacityMl,
                                   std::optional<double> declaredMl, unsigned channels) {
  std::vector<double> even(positions, plannedLoadMl(needMl, positions, deadMl));
  if (positions < 2 || shareUl <= kQuantitySlack)
    return even;
  // Whole shares: a running-down position that keeps part of a share
  // makes the channel that draws it finish the well from the next
  // position, a second dispense into one well; whole head loads (a share
  // per channel) let every head position draw from one position
  // (docs/schedule.md, "Whole shares").
  auto wholeUnits = [&](double unitUl) -> std::optional<std::vector<double>> {
    auto units = static_cast<unsigned long>(std::ceil(needMl * 1000 / unitUl - kQuantitySlack));
    std::vector<double> loads;
    double total = 0;
    for (unsigned i = 0; i < positions; ++i) {
      unsigned long own = units / positions + (i < units % positions ? 1 : 0);
      double load = roundUpTenth(static_cast<double>(own) * unitUl / 1000 + deadMl);
      if (load > capacityMl + kQuantitySlack)
        return std::nullopt;
      loads.push_back(load);
      total += load;
    }
    if (declaredMl && total > *declaredMl + kQuantitySlack)
      return std::nullopt;
    return loads;
  };
  if (channels > 1)
    if (auto loads = wholeUnits(shareUl * channels))
      return *loads;
  if (auto loads = wholeUnits(shareUl))
    return *loads;
  return even;
}

namespace {

class ReservoirAllocator {
public:
  ReservoirAllocator(ir::Module &module, PassContext &context)
      : module_(module), context_(context), platform_(context.platform) {}

  bool run() {
    module_.loadingPlan.clear();
    const double capacity = platform_.reservoirCapacityMl;
    const double dead = platform_.reservoirDeadMl;
    PLATE_ASSERT(capacity > dead, "reservoir capacity not above its dead volume");
    std::vector<double> needUl = reservoirNeedsUl(module_);
    sharesUl_ = reservoirSharesUl(module_);

    // What each liquid asks for.
    struct Request {
      ir::LiquidId liquid;
      double needMl;
      unsigned positions;
    };
    std::vector<Request> requests;
    for (const ir::Liquid &liquid : module_.liquids) {
      double need = needUl[liquid.id] / 1000;
      if (!liquid.pipettedByInstrument && need <= 0)
        continue;
      unsigned positions =
          std::max(1u, static_cast<unsigned>(std::ceil(need / (capacity - dead) - kQuantitySlack)));
      requests.push_back({liquid.id, need, positions});
      checkDeclared(liquid, need, positions, dead);
      checkPrepared(liquid, need, positions, dead);
    }

    // 1. Fixed positions.
    std::set<ir::ReservoirPos> taken;
    std::vector<Request> automatic;
    for (const Request &request : requests) {
      const ir::Liquid &liquid = module_.liquid(request.liquid);
      if (!liquid.fixedPosition) {
        automatic.push_back(request);
        continue;
      }
      ir::ReservoirPos pos = *liquid.fixedPosition;
      if (pos.row < 1 || pos.col < 1 || pos.row > platform_.reservoirRows ||
          pos.col > platform_.reservoirCols) {
        context_.diags.report(DiagId::ReservoirOutside, liquid.loc, pos.row, pos.col,
                              platform_.name, platform_.reservoirRows,
                              platform_.reservoirCols);
        continue;
      }
      if (auto holder = holderOf(pos)) {
        context_.diags
            .report(DiagId::ReservoirTaken, liquid.loc, pos.row, pos.col,
                    module_.liquid(*holder).name)
            .note(module_.liquid(*holder).loc, "`{}` is declared here",
                  module_.liquid(*holder).name);
        continue;
      }
      if (request.positions > 1) {
        context_.diags
            .report(DiagId::ReservoirOverflow, liquid.loc, liquid.name,
                    ml(request.needMl + dead), ml(capacity))
            .note(liquid.loc,
                  "without `at reservoir({},{})` the compiler spreads it over {} positions",
                  pos.row, pos.col, request.positions);
        continue;
      }
      taken.insert(pos);
      place(pos, request.liquid, loadsPerPosition(request.liquid, request.needMl, 1).front());
    }

    // 2. Reagents, then layout liquids, in declaration order.
    std::stable_sort(automatic.begin(), automatic.end(),
                     [&](const Request &a, const Request &b) {
                       auto reagent = [&](const Request &r) {
                         return module_.liquid(r.liquid).role == ir::LiquidRole::Reagent;
                       };
                       return reagent(a) && !reagent(b);
                     });
    const unsigned available = platform_.reservoirRows * platform_.reservoirCols;
    unsigned needed = static_cast<unsigned>(taken.size());
    for (const Request &request : automatic)
      needed += request.positions;
    if (needed > available) {
      reportFull(automatic, needed, available, static_cast<unsigned>(taken.size()));
      module_.loadingPlan.clear();
      return false;
    }
    ir::ReservoirPos next{1, 1};
    for (const Request &request : automatic) {
      std::vector<double> loads = loadsPerPosition(request.liquid, request.needMl, request.positions);
      for (unsigned i = 0; i < request.positions; ++i) {
        while (taken.count(next))
          advance(next);
        taken.insert(next);
        place(next, request.liquid, loads[i]);
      }
    }
    std::sort(module_.loadingPlan.begin(), module_.loadingPlan.end(),
              [](const ir::ReservoirLoad &a, const ir::ReservoirLoad &b) {
                return a.pos < b.pos;
              });
    return true;
  }

private:
  void advance(ir::ReservoirPos &pos) const {
    if (++pos.col > platform_.reservoirCols) {
      pos.col = 1;
      ++pos.row;
    }
    PLATE_ASSERT(pos.row <= platform_.reservoirRows, "ran past the reservoir after counting");
  }

  std::optional<ir::LiquidId> holderOf(ir::ReservoirPos pos) const {
    for (const ir::ReservoirLoad &load : module_.loadingPlan)
      if (load.pos == pos)
        return load.liquid;
    return std::nullopt;
  }

  /// What the operator loads into each of a liquid's `positions`: its
  /// share of the need plus the dead volume, or, for a reagent declared
  /// with a volume, its share of that (language spec §5: "the volume is
  /// what the operator loads"), as much as a position holds
  /// (docs/language.md, "Declared volumes").
  std::vector<double> loadsPerPosition(ir::LiquidId id, double needMl, unsigned positions) const {
    const ir::Liquid &liquid = module_.liquid(id);
    std::optional<double> declaredMl;
    if (liquid.declaredVolume)
      declaredMl = liquid.declaredVolume->value / 1000;
    std::vector<double> loads =
        plannedLoadsMl(needMl, positions, platform_.reservoirDeadMl, sharesUl_.at(id),
                       platform_.reservoirCapacityMl, declaredMl, platform_.channels);
    if (declaredMl)
      for (double &load : loads)
        load = std::max(load, std::min(*declaredMl / positions, platform_.reservoirCapacityMl));
    return loads;
  }

  void place(ir::ReservoirPos pos, ir::LiquidId liquid, double volumeMl) {
    module_.loadingPlan.push_back({pos, liquid, roundUpTenth(volumeMl)});
  }

  void checkDeclared(const ir::Liquid &liquid, double needMl, unsigned positions,
                     double dead) {
    if (!liquid.declaredVolume)
      return;
    double declaredMl = liquid.declaredVolume->value / 1000;
    double required = needMl + positions * dead;
    // More than the positions the run needs can hold: the plan loads them
    // full and the rest stays with the operator, who should hear it from
    // the compiler rather than find it in the loading plan (found blind).
    double holds = positions * platform_.reservoirCapacityMl;
    if (declaredMl > holds + kQuantitySlack)
      context_.diags.report(DiagId::DeclaredBeyondPositions, liquid.loc, liquid.name,
                            ml(declaredMl), positions, ml(holds), ml(holds), ml(needMl));
    if (declaredMl >= required - kQuantitySlack)
      return;
    double loadAtLeast = positions * roundUpTenth(needMl / positions + dead);
    context_.diags
        .report(DiagId::ReagentShortfall, liquid.loc, liquid.name, ml(declaredMl),
                ml(required), ml(positions * dead), ml(loadAtLeast))
        .note(liquid.loc, "that is {} short", ml(required - declaredMl));
  }

  /// A `prepare` with a volume says how much the operator makes; less than
  /// the loading plan loads runs the reservoir dry during the run (found
  /// blind: 1 mL prepared where the plan loads 1.6 mL drew no word).
  void checkPrepared(const ir::Liquid &liquid, double needMl, unsigned positions, double dead) {
    double loadMl = 0;
    for (double load : loadsPerPosition(liquid.id, needMl, positions))
      loadMl += roundUpTenth(load);
    for (const ir::Op &op : module_.ops) {
      const auto *prepare = op.as<ir::PrepareOp>();
      if (!prepare || prepare->reagent != liquid.id || !prepare->volume)
        continue;
      double preparedMl = prepare->volume->value / 1000;
      if (preparedMl >= loadMl - kQuantitySlack)
        continue;
      context_.diags
          .report(DiagId::PreparedShortfall, op.loc, liquid.name, ml(preparedMl), ml(loadMl),
                  ml(positions * dead), ml(loadMl))
          .note(liquid.loc, "`{}` is declared here", liquid.name);
    }
  }

  template <typename Requests>
  void reportFull(const Requests &automatic, unsigned needed, unsigned available,
                  unsigned fixed) {
    unsigned liquids = fixed + static_cast<unsigned>(automatic.size());
    bool layout = false;
    // Point at the first liquid that no longer fits.
    SourceLoc where;
    unsigned used = fixed;
    for (const auto &request : automatic) {
      const ir::Liquid &liquid = module_.liquid(request.liquid);
      layout |= liquid.role != ir::LiquidRole::Reagent;
      used += request.positions;
      if (used > available && !where.isValid())
        where = liquid.loc;
    }
    context_.diags.report(layout ? DiagId::ReservoirFullLayout : DiagId::ReservoirFull, where,
                          liquids, needed, platform_.name, available, needed - available);
  }

  ir::Module &module_;
  PassContext &context_;
  std::vector<double> sharesUl_; ///< reservoirSharesUl, set by run()
  const Platform &platform_;
};

class AllocateReservoirPass final : public Pass {
public:
  std::string_view name() const override { return "allocate-reservoir"; }
  bool run(ir::Module &module, PassContext &context) override {
    PLATE_ASSERT(module.unitsNormalized, "allocate-reservoir runs after normalize-units");
    unsigned before = context.diags.errorCount();
    bool ok = ReservoirAllocator(module, context).run();
    return ok && context.diags.errorCount() == before;
  }
};

} // namespace

std::unique_ptr<Pass> createAllocateReservoirPass() {
  return std::make_unique<AllocateReservoirPass>();
}

} // namespace plate
