//===- TrackVolumes.cpp - Static per-well volume and contents ------------===//
#include "passes/TrackVolumes.h"
#include "passes/CheckPlatform.h"
#include "passes/Passes.h"

#include <llvm/ADT/ArrayRef.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace plate {
namespace {

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
        wells_(static_cast<size_t>(module.shape.rows) * module.shape.cols),
        lastFill_(wells_.size(), nullptr) {}

  std::vector<WellState> run() {
    findReadsAfterAll();
    for (ir::Op &op : module_.ops) {
      op_ = &op;
      std::visit([&](auto &payload) { apply(payload); }, op.payload);
      checkWaste();
    }
    return std::move(wells_);
  }

  double wasteUl() const { return wasteUl_; }

private:
  size_t index(Well well) const {
    PLATE_ASSERT(module_.shape.contains(well), "track-volumes: well off the plate");
    return static_cast<size_t>(well.row - 1) * module_.shape.cols + (well.col - 1);
  }
  Well wellAt(size_t index) const {
    return {static_cast<uint8_t>(index / module_.shape.cols + 1),
            static_cast<uint8_t>(index % module_.shape.cols + 1)};
  }
  WellState &at(Well well) { return wells_[index(well)]; }

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
    // The arguments are the ones the finding's code set: their count picks
    // the call, so a code with fewer never reads past them.
    auto diag = [&] {
      const auto &a = findings.args;
      if (a.size() >= 4)
        return context_.diags.report(findings.id, op_->loc, a[0], a[1], a[2], a[3]);
      if (a.size() == 3)
        return context_.diags.report(findings.id, op_->loc, a[0], a[1], a[2]);
      return context_.diags.report(findings.id, op_->loc, a.empty() ? std::string() : a[0]);
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
    lastFill_[index(well)] = op_;
    anyFilled_ = true;
    for (ir::LiquidId liquid : liquids)
      addLiquid(state, liquid);
    if (state.volumeUl > capacity_ + kQuantitySlack) {
      if (overflow.count++ == 0)
        overflow.args = {well.name(), show(state.volumeUl), module_.plateType,
                         show(capacity_)};
      state.volumeUl = capacity_;
    }
  }

  /// Takes `volume` from a well; records taking more than it holds.
  void take(Well well, double volume, Findings &shortfall) {
    WellState &state = at(well);
    if (volume > state.volumeUl + kQuantitySlack) {
      if (shortfall.count++ == 0)
        shortfall.args = {show(volume), well.name(), show(state.volumeUl)};
      volume = state.volumeUl;
    }
    state.volumeUl -= volume;
    if (state.volumeUl <= kQuantitySlack)
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
    if (wasteReported_ || wasteUl_ <= limitUl + kQuantitySlack)
      return;
    wasteReported_ = true;
    context_.diags
        .report(DiagId::WasteOverflow, op_->loc,
                fmt::format("{} mL", formatNumber(std::ceil(wasteUl_ / 100 - kQuantitySlack) / 10)),
                fmt::format("{} mL", formatNumber(context_.platform.solutionWasteMl)))
        .step(op_->step)
        // The robot cannot empty its waste during a run and the language
        // has no statement for it, so the hint names what a script can do.
        .note(op_->loc, "the aspirations and washes up to this step fill it; the waste is "
                        "emptied only between runs: wash with less volume or fewer cycles, "
                        "do some removals by hand in `<MANUAL>` (they do not go to the "
                        "robot's waste), or split the protocol into two runs");
  }

  static void empty(WellState &state) {
    state.volumeUl = 0;
    state.liquids.clear();
  }

  //--- ops that touch wells ---------------------------------------------------//

  /// W004: `all` is the layout's wells (language spec §6); wells outside
  /// the layout that hold liquid here (an earlier dispense to named wells,
  /// a MANUAL fill) are not in it, which a reagent step meant for "every
  /// well" probably did not intend. Each well is named once per script.
  void checkAllLeavesOut(const ir::DispenseOp &op) {
    if (!op.allLoc.isValid())
      return;
    // Only wells whose omission can change a result: a later read measures
    // them, or they hold sample material (a layout liquid put into extra
    // wells). A moat of buffer around the plate, never read, is left alone.
    const WellSet &readLater = readAfterAll_.at(op_);
    WellSet leftOut;
    for (size_t i = 0; i < wells_.size(); ++i) {
      const WellState &state = wells_[i];
      bool layoutLiquid = std::any_of(state.liquids.begin(), state.liquids.end(),
                                      [&](ir::LiquidId id) {
                                        return module_.liquid(id).role != ir::LiquidRole::Reagent;
                                      });
      if (state.volumeUl > kQuantitySlack && (readLater.contains(wellAt(i)) || layoutLiquid))
        leftOut.insert(wellAt(i));
    }
    leftOut.subtract(module_.layoutWells());
    for (const ir::Portion &portion : op.portions)
      leftOut.subtract(portion.wells);
    leftOut.subtract(allWarned_);
    if (leftOut.empty())
      return;
    allWarned_ |= leftOut;
    WellSet target = leftOut;
    for (const ir::Portion &portion : op.portions)
      target |= portion.wells;
    std::string_view said = spelled(op.allLoc);
    bool written = said.size() == 3 && (said[0] | 0x20) == 'a' && (said[1] | 0x20) == 'l' &&
                   (said[2] | 0x20) == 'l';
    // A `use` module's procedure serves other scripts too: no edit there.
    bool inModule = op.allLoc.fileId != module_.fileId;
    std::string hint =
        inModule ? std::string("this `all` is in a procedure of a `use` module; dispense into "
                               "them in a step of the script if they need it")
        : written ? std::string("name the wells to dispense into them too")
                  : fmt::format("to dispense into them too, give the wells: `to {}`",
                                target.str());
    auto diag = context_.diags.report(DiagId::AllLeavesOutFilledWells, op.allLoc,
                                      written ? "`all`" : "the default `all`", leftOut.size(),
                                      leftOut.str(), hint);
    diag.step(op_->step);
    if (written && !inModule)
      diag.suggest(target.str());
    Well first = leftOut.columnMajor().front();
    if (const ir::Op *filler = lastFill_[index(first)])
      diag.note(filler->loc, "`{}` holds liquid from this step{}", first.name(),
                filler->manual ? " (in `<MANUAL>`)" : "");
  }

  /// The wells read after each dispense to `all`: one backward walk.
  void findReadsAfterAll() {
    WellSet readLater;
    for (size_t i = module_.ops.size(); i-- > 0;) {
      const ir::Op &op = module_.ops[i];
      if (const auto *read = op.as<ir::ReadAbsorbanceOp>())
        readLater |= module_.readWells(read->wells);
      else if (const auto *read = op.as<ir::ReadFluorescenceOp>())
        readLater |= module_.readWells(read->wells);
      else if (const auto *dispense = op.as<ir::DispenseOp>();
               dispense && dispense->allLoc.isValid())
        readAfterAll_[&op] = readLater;
    }
  }

  std::string_view spelled(SourceLoc loc) const {
    std::string_view line = context_.sources.lineText(loc.fileId, loc.line);
    if (loc.col < 1 || loc.col - 1 + loc.length > line.size())
      return {};
    return line.substr(loc.col - 1, loc.length);
  }

  void apply(ir::DispenseOp &op) {
    checkAllLeavesOut(op);
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
    // "Remove residual liquid completely" after a wash: the volume model
    // says the wells are empty, the protocol means the residue. A well that
    // never held anything is still a mistake of the well set (E502).
    Findings emptied{DiagId::RemoveFromEmptied};
    // "Tip the medium off the cells" before any step of the script fills a
    // well: the plate holds what was there before the script (cells seeded
    // days ago), which no statement can declare (W502, not E502).
    // On the robot it would be a silent mistake: `all` lowers to what the
    // model holds, nothing, so no command would draw the medium off and the
    // next addition would land on it (held-out 401). Only a person, who sees
    // the wells, can do it.
    Findings prior{op_->manual ? DiagId::RemovePriorContents : DiagId::RobotRemovesPriorContents};
    op.resolved.clear();
    for (Well well : op.wells.columnMajor()) {
      if (op.volume) {
        double before = at(well).volumeUl;
        take(well, op.volume->value, shortfall);
        toWaste(before - at(well).volumeUl);
        continue;
      }
      WellState &state = at(well);
      if (state.volumeUl <= kQuantitySlack) {
        if (lastFill_[index(well)]) {
          if (emptied.count++ == 0)
            emptied.args = {well.name()};
        } else if (!anyFilled_) {
          if (prior.count++ == 0)
            prior.args = {well.name()};
        } else if (shortfall.count++ == 0) {
          shortfall.args = {"all", well.name(), show(0)};
        }
        continue;
      }
      op.resolved.push_back({well, microliters(state.volumeUl)});
      toWaste(state.volumeUl);
      empty(state);
    }
    flush(shortfall);
    flush(emptied);
    flush(prior);
  }

  void apply(ir::WashOp &op) {
    Findings overflow{DiagId::WellOverflow};
    op.emptied.clear();
    for (Well well : op.wells.columnMajor()) {
      WellState &state = at(well);
      if (state.volumeUl > kQuantitySlack)
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
    if (volume > state.volumeUl + kQuantitySlack && shortfall.count++ == 0)
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
      if (taken > kQuantitySlack)
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
  /// The op that last put liquid into each well, for W004's note.
  std::vector<const ir::Op *> lastFill_;
  bool anyFilled_ = false; ///< a step of the script has put liquid in a well
  /// Wells W004 has named already.
  WellSet allWarned_;
  std::map<const ir::Op *, WellSet> readAfterAll_;
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
