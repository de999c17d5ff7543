//===- PipettingLowering.h - One lowering of the pipetting ops --*- C++ -*-===//
//
// The lowering `lower-pipetting` runs (LowerPipetting.h describes what it
// produces): every pipetting op of a module in order, with a fixed plan of
// source-tip widths, into head commands. The tip budget search
// (TipBudgetSearch.h) runs it several times with different widths, some in
// survey mode (the tip allocator's unbounded rack) and some continued from
// a copy of an earlier lowering's state (LoweringTrials.h); the pass keeps
// one result.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"
#include "passes/TipAllocator.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace plate {
struct TransferBatch;
} // namespace plate

namespace plate::lowering {

/// Source-tip widths: at most this many channels (so tips) per reservoir
/// position for per_source dispenses; positions not listed use the head.
using WidthPlan = std::map<ir::ReservoirPos, unsigned>;

/// What one lowering cost, for choosing among width plans.
struct Outcome {
  unsigned tips = 0, racks = 0;
  unsigned parkedTipsLost = 0;
  unsigned freshBeforeLastParkedPick = 0;
  std::vector<ir::ReservoirPos> reliefSources;
  std::map<ir::ReservoirPos, double> sourceSeconds; ///< per source position
  /// Positions that per_source dispenses drew from: the ones a width plan
  /// can narrow.
  std::set<ir::ReservoirPos> narrowable;
  /// Robot time of the emitted pipetting and tip commands (bioforge1.md
  /// §5); the rest of the stream is the same for every width plan. Only
  /// for a lowering that kept its commands (not a survey).
  double seconds = 0;
};

/// The ops a lowering produced and its tip counts.
struct Lowered {
  std::vector<ir::Op> ops;
  unsigned tipsUsed = 0, tipRacksUsed = 0;

  void applyTo(ir::Module &module) && {
    module.ops = std::move(ops);
    module.tipsUsed = tipsUsed;
    module.tipRacksUsed = tipRacksUsed;
  }
};

/// What later steps touch, for the park-or-drop look-ahead, and what the
/// protocol takes of each liquid: the same for every lowering of a module,
/// so computed once and shared by the budgeting trials.
struct Lookahead {
  /// Per well (column-major index), the last op that touches it per_well;
  /// -1: none. A tip bound to the well is wanted after op i when this is
  /// greater than i.
  std::vector<long> lastWellUse;
  /// Per liquid, the last op that takes it per source; -1: none.
  std::vector<long> lastLiquidUse;
  std::vector<double> needUl; ///< per LiquidId

  explicit Lookahead(const ir::Module &module);
};

class PipettingLowering {
public:
  PipettingLowering(const ir::Module &module, const Lookahead &lookahead,
                    PassContext &context, WidthPlan widths = {}, bool survey = false);

  /// Continues from `state`, a snapshot() taken before its first rack swap,
  /// in `context` and in survey mode or not, after `commandsSoFar` (the
  /// commands emitted before the snapshot, when this lowering keeps them).
  PipettingLowering(const PipettingLowering &state, PassContext &context, bool survey,
                    std::vector<ir::Op> commandsSoFar);

  /// Lowers the whole module (from the start, or from where a snapshot
  /// left off) into `lowered()`; false when a diagnostic was reported.
  /// `expectedCommands` is reserved up front.
  bool run(size_t expectedCommands = 0);

  /// Whether every op of the module has been lowered.
  bool atEnd() const { return opIndex_ == module_.ops.size(); }
  /// Lowers the next op of the module into commands(). An op the pass
  /// leaves alone (MANUAL, or no pipetting) is copied there as it is when
  /// `copyUnlowered`. Returns whether the op was lowered.
  bool lowerNext(bool copyUnlowered);
  /// Moves the commands into `lowered()`, completes `outcome()` and reports
  /// what the tips ran out of; false when a diagnostic was reported.
  bool finish();

  /// The commands emitted so far (until finish()).
  std::vector<ir::Op> &commands() { return emitter_.ops; }
  /// Whether the tip rack was ever swapped: the survey and real modes
  /// agree only before that.
  bool swapped() const { return tips_.swapped(); }
  /// A copy of the state at the start of the next op, without the commands
  /// emitted so far, to continue from later.
  std::shared_ptr<const PipettingLowering> snapshot();

  const Outcome &outcome() const { return outcome_; }
  Lowered &lowered() { return lowered_; }

private:
  // The helpers declared `inline` run on every item, channel or well; they
  // are defined (and used) in PipettingLowering.cpp only, and inlined there
  // as they were when the lowering had internal linkage.

  /// Channels of one head position and what each does there.
  struct Item;
  /// A figure per head channel (at most 8: no allocation).
  using PerChannel = llvm::SmallVector<double, 8>;
  /// Channels with equal amounts share one command; groups in increasing
  /// amount (in µL·10⁻⁶).
  using AmountGroups = llvm::SmallVector<std::pair<long long, ir::ChannelMask>, 8>;
  class WellAmounts;
  /// A liquid per well, when one was set.
  class WellLiquids {
  public:
    void set(Well well, ir::LiquidId liquid);
    std::optional<ir::LiquidId> at(Well well) const;

  private:
    std::array<std::optional<ir::LiquidId>, kMaxRows * kMaxCols> liquid_{};
  };
  struct Position {
    ir::ReservoirPos pos;
    ir::LiquidId liquid;
    double remainingUl;
  };

  /// Copies everything but the commands (snapshot()).
  PipettingLowering(const PipettingLowering &) = default;

  /// What a position holds for the plan, in µL: for a liquid declared
  /// with a volume, plannedLoadMl when every position of it is loaded with
  /// at least that (what the declaration adds is never drawn on), else
  /// what it is loaded with.
  double plannedUl(const ir::ReservoirLoad &load) const;
  double seconds(const ir::Op &op) const;
  static bool isPipetting(const ir::Op &op);

  // Look-ahead: what later steps touch.
  inline bool hasLiquid(ir::ReservoirPos pos) const;
  bool neededLater(const TipBinding &binding) const;

  // Geometry.
  inline Well wellOf(const ir::HeadPosition &block, unsigned channel) const;
  inline ir::ChannelMask maskFor(const PerChannel &perChannel) const;
  std::vector<ir::HeadPosition> groupRowWise(const WellSet &wells) const;
  std::vector<ir::HeadPosition> blocksOf(const ir::Op &op, const WellSet &wells) const;
  inline ir::Place platePlace(const ir::HeadPosition &block) const;
  WellSet wellsUnder(const std::vector<ir::HeadPosition> &blocks) const;
  inline PerChannel amountsAt(const ir::HeadPosition &block, const WellAmounts &amount) const;
  static inline unsigned firstChannel(ir::ChannelMask mask);

  // Reservoir.
  inline double usable(const Position &position) const;
  void reportShortfall(ir::LiquidId liquid, double missingUl);

  // Tips.
  const std::vector<std::optional<TipBinding>> &
  want(ir::ChannelMask mask, llvm::function_ref<TipBinding(unsigned)> binding);
  inline void acquireTouching(ir::ChannelMask mask, const ir::HeadPosition &block,
                              ir::TipPolicy policy);
  static AmountGroups byAmount(const PerChannel &amounts, unsigned channels);

  // Reservoir to plate.
  inline unsigned widthAt(ir::ReservoirPos pos) const;
  inline void narrow(std::vector<Item> &items, size_t index, unsigned width) const;
  inline bool needsLeftovers(ir::LiquidId liquid, const Position &current, double committed) const;
  void dispenseFromReservoir(ir::LiquidId liquid, std::vector<Item> items,
                             ir::TipPolicy policy, const std::optional<ir::MixSpec> &mix);
  inline Position *positionFor(ir::LiquidId liquid, const Item &item);
  inline void fillWindow(ir::LiquidId liquid, Position &position, std::vector<Item> &items,
                         size_t &next, ir::TipPolicy policy, std::vector<Item> &window,
                         PerChannel &held);
  inline void takeWhatFits(ir::LiquidId liquid, const Position &position,
                           std::vector<Item> &items, size_t &next, double total,
                           std::vector<Item> &window, PerChannel &held);
  void aspirateFrom(Position &position, ir::LiquidId liquid, const PerChannel &held);
  void dispenseItem(const Item &item, ir::TipPolicy policy,
                    const std::optional<ir::MixSpec> &mix);
  void emitWindow(ir::LiquidId liquid, Position &position, const std::vector<Item> &window,
                  const PerChannel &held, ir::TipPolicy policy,
                  const std::optional<ir::MixSpec> &mix);
  inline void emitWindowOps(ir::LiquidId liquid, Position &position,
                            const std::vector<Item> &window, const PerChannel &held,
                            ir::TipPolicy policy, const std::optional<ir::MixSpec> &mix);
  std::vector<Item> itemsFor(const std::vector<ir::HeadPosition> &blocks,
                             llvm::function_ref<double(Well)> volumeAt, bool mixAfter) const;

  // Plate to waste.
  void removeFromBlock(const ir::HeadPosition &block, PerChannel amounts,
                       ir::TipPolicy policy, bool moreInThisOp, bool keepAfter = true);
  std::vector<ir::HeadPosition> removalOrder(std::vector<ir::HeadPosition> blocks);
  ir::LiquidId liquidInWell(Well well) const;

  // Several liquids under one head position (a layout dispense).
  struct SharedItem;
  struct DispenseState;
  DispenseState saveDispenseState() const;
  void restoreDispenseState(DispenseState state);
  double secondsSince(size_t firstCommand) const;
  void dispensePerLiquid(const ir::DispenseOp &op, const std::vector<ir::HeadPosition> &blocks,
                         const WellLiquids &liquidAt);
  void dispenseTogether(const ir::DispenseOp &op, const std::vector<ir::HeadPosition> &blocks,
                        const WellLiquids &liquidAt);
  std::vector<SharedItem> sharedItemsFor(const std::vector<ir::HeadPosition> &blocks,
                                         const WellLiquids &liquidAt, double volume,
                                         bool mixAfter) const;
  Position *sharedSource(ir::LiquidId liquid, double needUl, double smallestUl);
  void dispenseSeparately(const SharedItem &shared, ir::TipPolicy policy,
                          const std::optional<ir::MixSpec> &mix);
  bool sourcesForAll(const std::vector<SharedItem> &items,
                     std::map<ir::LiquidId, Position *> &sources);
  void emitChannelRuns(const std::vector<SharedItem> &order,
                       const std::map<ir::LiquidId, Position *> &sources);
  void emitSharedWindow(const std::vector<SharedItem> &window,
                        const std::vector<std::pair<ir::LiquidId, Position *>> &sources,
                        ir::TipPolicy policy, const std::optional<ir::MixSpec> &mix);

  // The ops.
  void lower(const ir::DispenseOp &op, const ir::Op &origin);
  void lower(const ir::AspirateOp &op, const ir::Op &origin);
  void lower(const ir::WashOp &op, const ir::Op &origin);
  void lower(const ir::MixOp &op, const ir::Op &origin);
  void lower(const ir::TransferOp &op, const ir::Op &origin);
  template <typename T> void lower(const T &, const ir::Op &) {
    PLATE_ASSERT(false, "lower-pipetting reached a non-pipetting op");
  }
  unsigned partTips(const ir::WashOp &op, const std::vector<ir::HeadPosition> &part) const;
  bool needsParts(const std::vector<ir::HeadPosition> &blocks, ir::TipPolicy removal) const;
  void washInParts(const ir::WashOp &op, const std::vector<ir::HeadPosition> &blocks,
                   ir::TipPolicy fill, ir::TipPolicy removal);
  void washPart(const ir::WashOp &op, const std::vector<ir::HeadPosition> &blocks,
                ir::TipPolicy fill, ir::TipPolicy removal, bool keepAfter, bool morePartsLeft);
  void mixAfterTransfer(const ir::TransferOp &op, const std::vector<TransferBatch> &batches,
                        const TransferBatch &batch);

  const ir::Module &module_;
  const Lookahead &lookahead_;
  PassContext *context_;
  const Platform &platform_;
  Emitter emitter_;
  TipAllocator tips_;
  unsigned channels_;
  double capacity_;
  double deadUl_;
  unsigned stride_ = 1;
  std::vector<Position> positions_;
  std::vector<double> drawnUl_; ///< per LiquidId
  /// No position holds a whole share any more, but their leftovers together
  /// cover what the protocol still takes: shares split across positions.
  bool drainingLeftovers_ = false;
  WidthPlan widths_;
  Outcome outcome_;
  Lowered lowered_;
  size_t opIndex_ = 0;
  unsigned removalRounds_ = 0;
  unsigned partedWashes_ = 0;
  WellLiquids lastInWell_;
  std::vector<std::optional<TipBinding>> wanted_;
  bool shortfall_ = false;
};

} // namespace plate::lowering
