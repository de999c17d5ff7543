//===- TrackVolumes.cpp - Static per-well volume and contents ------------===//
#include "passes/TrackVolumes.h"
#include "passes/CheckPlatform.h"
#include "passes/Passes.h"

#include <llvm/ADT/ArrayRef.h>

#include <algorithm>
#include <cmath>

namespace plate {
namespace {

// Volumes within this much of a limit count as on it.
constexpr double kSlack = 1e-9;

/// Volumes for messages and for resolved amounts, rounded to 1e-6 µL so
/// that sums of decimals (0.1 + 0.2) print as the user wrote them.
Quantity microliters(double value) {
  return Quantity::microliters(std::round(value * 1e6) / 1e6);
}
std::string show(double value) { return fmt::format("{}", microliters(value)); }

class VolumeTracker {
public:
  VolumeTracker(ir::Module &module, PassContext &context)
      : module_(module), context_(context),
        capacity_(wellCapacityUl(module, context.platform)),
        wells_(static_cast<size_t>(module.shape.rows) * module.shape.cols) {}

  std::vector<WellState> run() {
    for (ir::Op &op : module_.ops) {
      op_ = &op;
      std::visit([&](auto &payload) { apply(payload); }, op.payload);
      checkWaste();
    }
    return std::move(wells_);
  }

  double wasteUl() const { return wasteUl_; }

private:
  WellState &at(Well well) {
    PLATE_ASSERT(module_.shape.contains(well), "track-volumes: well off the plate");
    return wells_[static_cast<size_t>(well.row - 1) * module_.shape.cols + (well.col - 1)];
  }

  static void addLiquid(WellState &state, ir::LiquidId liquid) {
    auto it = std::lower_bound(state.liquids.begin(), state.liquids.end(), liquid);
    if (it == state.liquids.end() || *it != liquid)
      state.liquids.insert(it, liquid);
  }

  /// Collects the wells one step got wrong, then reports the first with a
  /// count of the rest: a dispense to 96 overfull wells is one mistake.
  struct Findings {
    explicit Findings(DiagId id) : id(id) {}
    DiagId id;
    std::vector<std::string> args; // of the first finding
    unsigned count = 0;
  };
  void flush(Findings &findings) {
    if (findings.count == 0)
      return;
    auto diag = [&] {
      const auto &a = findings.args;
      if (findings.id == DiagId::WellOverflow)
        return context_.diags.report(findings.id, op_->loc, a[0], a[1], a[2], a[3]);
      return context_.diags.report(findings.id, op_->loc, a[0], a[1], a[2]);
    }();
    diag.step(op_->step);
    if (findings.count > 1)
      diag.note(op_->loc, "{} more well(s) in this step have the same problem",
                findings.count - 1);
    findings.count = 0;
  }

  /// Adds `volume` of `liquids` to a well; clamps and records an overflow.
  void fill(Well well, double volume, llvm::ArrayRef<ir::LiquidId> liquids,
            Findings &overflow) {
    WellState &state = at(well);
    state.volumeUl += volume;
    for (ir::LiquidId liquid : liquids)
      addLiquid(state, liquid);
    if (state.volumeUl > capacity_ + kSlack) {
      if (overflow.count++ == 0)
        overflow.args = {well.name(), show(state.volumeUl), module_.plateType,
                         show(capacity_)};
      state.volumeUl = capacity_;
    }
  }

  /// Takes `volume` from a well; records taking more than it holds.
  void take(Well well, double volume, Findings &shortfall) {
    WellState &state = at(well);
    if (volume > state.volumeUl + kSlack) {
      if (shortfall.count++ == 0)
        shortfall.args = {show(volume), well.name(), show(state.volumeUl)};
      volume = state.volumeUl;
    }
    state.volumeUl -= volume;
    if (state.volumeUl <= kSlack)
      empty(state);
  }

  /// The robot discards what it aspirates from the plate (`aspirate`, the
  /// removals of `wash`) into the Solution Waste, which must never overflow
  /// (bioforge1.md §4). A person's MANUAL removal goes elsewhere.
  void toWaste(double volume) {
    if (!op_->manual && volume > 0)
      wasteUl_ += volume;
  }

  /// After each op, so the message gives the total at the end of the step
  /// that overflows, not at the well where it happened to cross the line.
  void checkWaste() {
    double limitUl = context_.platform.solutionWasteMl * 1000;
    if (wasteReported_ || wasteUl_ <= limitUl + kSlack)
      return;
    wasteReported_ = true;
    context_.diags
        .report(DiagId::WasteOverflow, op_->loc,
                fmt::format("{} mL", formatNumber(std::ceil(wasteUl_ / 100 - kSlack) / 10)),
                fmt::format("{} mL", formatNumber(context_.platform.solutionWasteMl)))
        .step(op_->step)
        .note(op_->loc, "the aspirations and washes up to this step fill it; empty the "
                        "waste in a `<MANUAL>` section in between or wash with less volume");
  }

  static void empty(WellState &state) {
    state.volumeUl = 0;
    state.liquids.clear();
  }

  //--- ops that touch wells ---------------------------------------------------//

  void apply(ir::DispenseOp &op) {
    Findings overflow{DiagId::WellOverflow};
    Findings mixShort{DiagId::EmptyWellTake};
    for (const ir::Portion &portion : op.portions)
      for (Well well : portion.wells.columnMajor())
        fill(well, op.volume.value, {portion.liquid}, overflow);
    if (op.mix)
      for (const ir::Portion &portion : op.portions)
        for (Well well : portion.wells.columnMajor())
          checkMix(well, op.mix->volume.value, mixShort);
    flush(overflow);
    flush(mixShort);
  }

  void apply(ir::AspirateOp &op) {
    Findings shortfall{DiagId::EmptyWellTake};
    op.resolved.clear();
    for (Well well : op.wells.columnMajor()) {
      if (op.volume) {
        double before = at(well).volumeUl;
        take(well, op.volume->value, shortfall);
        toWaste(before - at(well).volumeUl);
        continue;
      }
      WellState &state = at(well);
      if (state.volumeUl <= kSlack) {
        if (shortfall.count++ == 0)
          shortfall.args = {"all", well.name(), show(0)};
        continue;
      }
      op.resolved.push_back({well, microliters(state.volumeUl)});
      toWaste(state.volumeUl);
      empty(state);
    }
    flush(shortfall);
  }

  void apply(ir::WashOp &op) {
    Findings overflow{DiagId::WellOverflow};
    op.emptied.clear();
    for (Well well : op.wells.columnMajor()) {
      WellState &state = at(well);
      if (state.volumeUl > kSlack)
        op.emptied.push_back({well, microliters(state.volumeUl)});
      toWaste(state.volumeUl + op.volume.value * op.cycles);
      empty(state);
      // Every cycle fills the empty well and removes it again; the cycles
      // are identical, so checking one fill checks them all.
      fill(well, op.volume.value, {op.reagent}, overflow);
      empty(state);
    }
    flush(overflow);
  }

  void checkMix(Well well, double volume, Findings &shortfall) {
    const WellState &state = at(well);
    if (volume > state.volumeUl + kSlack && shortfall.count++ == 0)
      shortfall.args = {show(volume), well.name(), show(state.volumeUl)};
  }

  void apply(ir::MixOp &op) {
    Findings shortfall{DiagId::EmptyWellTake};
    for (Well well : op.wells.columnMajor())
      checkMix(well, op.volume.value, shortfall);
    flush(shortfall);
  }

  void apply(ir::TransferOp &op) {
    Findings shortfall{DiagId::EmptyWellTake};
    Findings overflow{DiagId::WellOverflow};
    for (const auto &[from, to] : op.pairs) {
      // Copy: `take` may clear the source's contents.
      llvm::SmallVector<ir::LiquidId, 4> moved = at(from).liquids;
      double before = at(from).volumeUl;
      take(from, op.volume.value, shortfall);
      double taken = before - at(from).volumeUl;
      if (taken > kSlack)
        fill(to, taken, moved, overflow);
    }
    flush(shortfall);
    flush(overflow);
  }

  // Ops that leave well volumes alone.
  void apply(ir::IncubateOp &) {}
  void apply(ir::ShakeOp &) {}
  void apply(ir::MagnetOp &) {}
  void apply(ir::ReadAbsorbanceOp &) {}
  void apply(ir::ReadFluorescenceOp &) {}
  void apply(ir::AnalyzeOp &) {}
  void apply(ir::WaitOp &) {}
  void apply(ir::PauseOp &) {}
  void apply(ir::NoteOp &) {}
  void apply(ir::PrepareOp &) {}
  void apply(ir::EquilibrateOp &) {}
  // Device ops come from lowering, which runs after this pass and keeps the
  // resolved amounts; the backend's simulator models them.
  void apply(ir::PickTipsOp &) {}
  void apply(ir::DropTipsOp &) {}
  void apply(ir::ReturnTipsOp &) {}
  void apply(ir::DevAspirateOp &) {}
  void apply(ir::DevDispenseOp &) {}
  void apply(ir::DevMixOp &) {}
  void apply(ir::MovePlateOp &) {}
  void apply(ir::LidOp &) {}
  void apply(ir::SwapTipRackOp &) {}
  void apply(ir::SetTemperatureOp &) {}
  void apply(ir::HeaterOffOp &) {}
  void apply(ir::DevShakeOp &) {}
  void apply(ir::DevReadOp &) {}
  void apply(ir::DevWaitOp &) {}
  void apply(ir::PromptOp &) {}

  ir::Module &module_;
  PassContext &context_;
  double capacity_;
  std::vector<WellState> wells_;
  ir::Op *op_ = nullptr;
  double wasteUl_ = 0;
  bool wasteReported_ = false;
};

class TrackVolumesPass final : public Pass {
public:
  std::string_view name() const override { return "track-volumes"; }
  bool run(ir::Module &module, PassContext &context) override {
    unsigned before = context.diags.errorCount();
    trackVolumes(module, context);
    return context.diags.errorCount() == before;
  }
};

} // namespace

std::vector<WellState> trackVolumes(ir::Module &module, PassContext &context) {
  PLATE_ASSERT(module.unitsNormalized, "track-volumes runs after normalize-units");
  return VolumeTracker(module, context).run();
}

std::unique_ptr<Pass> createTrackVolumesPass() {
  return std::make_unique<TrackVolumesPass>();
}

} // namespace plate
