//===- PipettingLowering.cpp - One lowering of the pipetting ops ----------===//
//
// Each pipetting op becomes a list of "items": a head position, the
// channels it uses there and a volume per channel. Reservoir dispenses run
// the items of one liquid in windows: one aspiration per window fills each
// channel with exactly what it dispenses in that window (never more than
// the tip holds, never below the position's dead volume), so the reservoir
// gives exactly what the loading plan counted. Removals go to the solution
// waste in rounds of at most one tip capacity.
//
// Whether a tip is parked or dropped after use depends on a look-ahead: a
// tip bound to a well is parked when a later per_well op touches that well,
// a tip bound to a reservoir position when a later per_source step takes
// that liquid and the position still has liquid above its dead volume.
//
//===----------------------------------------------------------------------===//
#include "passes/PipettingLowering.h"
#include "passes/AllocateReservoir.h"
#include "passes/GroupWells.h"

#include <algorithm>
#include <iterator>
#include <cmath>
#include <set>
#include <tuple>

namespace plate::lowering {
namespace {

constexpr double kEpsilon = kQuantitySlack;

/// Column-major index of a well in a plate of the largest shape; -1 for a
/// position off every plate.
long flatIndex(Well well) {
  if (well.row < 1 || well.row > kMaxRows || well.col < 1 || well.col > kMaxCols)
    return -1;
  return static_cast<long>(well.col - 1) * kMaxRows + (well.row - 1);
}

ir::TipPolicy policyOf(const ir::Op &op) {
  if (auto *d = op.as<ir::DispenseOp>()) return d->tips;
  if (auto *a = op.as<ir::AspirateOp>()) return a->tips;
  if (auto *w = op.as<ir::WashOp>()) return w->tips;
  if (auto *m = op.as<ir::MixOp>()) return m->tips;
  if (auto *t = op.as<ir::TransferOp>()) return t->tips;
  return ir::TipPolicy::PerSource;
}

} // namespace

struct PipettingLowering::Item {
  ir::HeadPosition block;
  PerChannel perChannel; ///< 0 = channel unused
  bool mixAfter = false;          ///< last piece of a block of a dispense+mix
};

/// An amount per well, µL; wells never set hold 0.
class PipettingLowering::WellAmounts {
public:
  void set(Well well, double ul) { ul_.at(static_cast<size_t>(flatIndex(well))) = ul; }
  double at(Well well) const {
    long index = flatIndex(well);
    return index < 0 ? 0.0 : ul_[static_cast<size_t>(index)];
  }

private:
  std::array<double, kMaxRows * kMaxCols> ul_{};
};

void PipettingLowering::WellLiquids::set(Well well, ir::LiquidId liquid) {
  liquid_.at(static_cast<size_t>(flatIndex(well))) = liquid;
}

std::optional<ir::LiquidId> PipettingLowering::WellLiquids::at(Well well) const {
  long index = flatIndex(well);
  if (index < 0)
    return std::nullopt;
  return liquid_[static_cast<size_t>(index)];
}

Lookahead::Lookahead(const ir::Module &module)
    : lastWellUse(kMaxRows * kMaxCols, -1), lastLiquidUse(module.liquids.size(), -1),
      needUl(reservoirNeedsUl(module)) {
  for (size_t i = 0; i < module.ops.size(); ++i) {
    const ir::Op &op = module.ops[i];
    if (op.manual)
      continue;
    long index = static_cast<long>(i);
    auto touch = [&](Well well) { lastWellUse.at(static_cast<size_t>(flatIndex(well))) = index; };
    auto touchAll = [&](const WellSet &wells) {
      for (Well well : wells.columnMajor())
        touch(well);
    };
    auto take = [&](ir::LiquidId liquid) { lastLiquidUse.at(liquid) = index; };
    ir::TipPolicy policy = policyOf(op);
    bool perWell = policy == ir::TipPolicy::PerWell;
    if (auto *a = op.as<ir::AspirateOp>(); a && perWell)
      touchAll(a->wells);
    if (auto *m = op.as<ir::MixOp>(); m && perWell)
      touchAll(m->wells);
    if (auto *t = op.as<ir::TransferOp>(); t && perWell)
      for (const auto &pair : t->pairs)
        touch(pair.first);
    if (auto *w = op.as<ir::WashOp>()) {
      if (perWell)
        touchAll(w->wells);
      if (policy != ir::TipPolicy::New && policy != ir::TipPolicy::Reuse)
        take(w->reagent);
    }
    if (auto *d = op.as<ir::DispenseOp>(); d && policy == ir::TipPolicy::PerSource)
      for (const ir::Portion &portion : d->portions)
        take(portion.liquid);
  }
}

//===--- Running ----------------------------------------------------------===//

PipettingLowering::PipettingLowering(const ir::Module &module, const Lookahead &lookahead,
                                     PassContext &context, WidthPlan widths, bool survey)
    : module_(module), lookahead_(lookahead), context_(&context),
      platform_(context.platform), tips_(platform_, emitter_, survey),
      channels_(platform_.channels), capacity_(platform_.tipCapacityUl),
      deadUl_(platform_.reservoirDeadMl * 1000) {
  double pitch = 9;
  if (const Labware *labware = platform_.findLabware(module.plateType))
    pitch = labware->pitchMm;
  stride_ = std::max(1u, static_cast<unsigned>(
                             std::lround(platform_.channelSpacingMm / pitch)));
  for (const ir::ReservoirLoad &load : module.loadingPlan)
    positions_.push_back({load.pos, load.liquid, plannedUl(load)});
  widths_ = std::move(widths);
  tips_.stillNeeded = [this](const TipBinding &b) { return neededLater(b); };
  drawnUl_.assign(lookahead_.needUl.size(), 0.0);
}

double PipettingLowering::plannedUl(const ir::ReservoirLoad &load) const {
  if (!module_.liquid(load.liquid).declaredVolume)
    return load.volumeMl * 1000;
  unsigned positions = 0, index = 0;
  for (const ir::ReservoirLoad &other : module_.loadingPlan) {
    if (other.liquid != load.liquid)
      continue;
    if (other.pos < load.pos)
      ++index;
    ++positions;
  }
  std::vector<double> plannedMl = plannedLoadsMl(
      lookahead_.needUl.at(load.liquid) / 1000, positions, platform_.reservoirDeadMl,
      reservoirSharesUl(module_).at(load.liquid), platform_.reservoirCapacityMl,
      module_.liquid(load.liquid).declaredVolume->value / 1000, platform_.channels);
  // A plan written by hand (IR text) may load its positions unevenly and
  // below the plan's; the lowering then draws on what each holds.
  unsigned k = 0;
  for (const ir::ReservoirLoad &other : module_.loadingPlan)
    if (other.liquid == load.liquid && other.volumeMl < plannedMl[k++] - kQuantitySlack)
      return load.volumeMl * 1000;
  return plannedMl[index] * 1000;
}

PipettingLowering::PipettingLowering(const PipettingLowering &state, PassContext &context,
                                     bool survey, std::vector<ir::Op> commandsSoFar)
    : PipettingLowering(state) {
  // The copy's allocator still emits to, and asks, the lowering it was
  // copied from.
  context_ = &context;
  tips_.resume(emitter_, survey);
  tips_.stillNeeded = [this](const TipBinding &b) { return neededLater(b); };
  emitter_.ops = std::move(commandsSoFar);
}

std::shared_ptr<const PipettingLowering> PipettingLowering::snapshot() {
  std::vector<ir::Op> commands = std::move(emitter_.ops);
  emitter_.ops.clear();
  std::shared_ptr<const PipettingLowering> state(new PipettingLowering(*this));
  emitter_.ops = std::move(commands);
  return state;
}

bool PipettingLowering::run(size_t expectedCommands) {
  emitter_.ops.reserve(expectedCommands);
  while (!atEnd())
    lowerNext(true);
  return finish();
}

bool PipettingLowering::lowerNext(bool copyUnlowered) {
  const ir::Op &op = module_.ops[opIndex_];
  if (auto *dispense = op.as<ir::DispenseOp>())
    for (const ir::Portion &portion : dispense->portions)
      for (Well well : portion.wells.columnMajor())
        lastInWell_.set(well, portion.liquid);
  bool lowers = !op.manual && isPipetting(op);
  if (lowers) {
    emitter_.origin = &op;
    emitter_.reuse = op.tipsReuse || policyOf(op) == ir::TipPolicy::Reuse;
    std::visit([&](const auto &payload) { lower(payload, op); }, op.payload);
    tips_.releaseAll([&](const TipBinding &b) { return neededLater(b); });
  } else if (copyUnlowered) {
    emitter_.ops.push_back(op);
  }
  ++opIndex_;
  return lowers;
}

bool PipettingLowering::finish() {
  lowered_.ops = std::move(emitter_.ops);
  outcome_.seconds = 0;
  for (const ir::Op &op : lowered_.ops)
    outcome_.seconds += seconds(op);
  outcome_.tips = tips_.tipsUsed();
  outcome_.racks = tips_.racksUsed();
  outcome_.parkedTipsLost = tips_.parkedTipsLost();
  outcome_.freshBeforeLastParkedPick = tips_.freshBeforeLastParkedPick();
  outcome_.reliefSources = tips_.sourcesBeforeLastParkedPick();
  lowered_.tipsUsed = tips_.tipsUsed();
  lowered_.tipRacksUsed = tips_.racksUsed();

  bool ok = true;
  if (tips_.racksExceededAt) {
    context_->diags
        .report(DiagId::OutOfTipRacks, *tips_.racksExceededAt, tips_.racksUsed(),
                platform_.spareTipRacks)
        .step(tips_.racksExceededStep);
    ok = false;
  }
  if (tips_.wasteExceededAt) {
    context_->diags
        .report(DiagId::TipWasteFull, *tips_.wasteExceededAt, tips_.tipsDropped(),
                platform_.tipWasteCapacity)
        .step(tips_.wasteExceededStep);
    ok = false;
  }
  return ok && !shortfall_;
}

/// The timing model of bioforge1.md §5 for the commands this pass emits.
double PipettingLowering::seconds(const ir::Op &op) const {
  const TimingModel &t = platform_.timing;
  if (auto *a = op.as<ir::DevAspirateOp>())
    return t.pipetteBaseSeconds + a->volume.canonicalValue() / t.pipetteUlPerSecond;
  if (auto *d = op.as<ir::DevDispenseOp>())
    return t.pipetteBaseSeconds + d->volume.canonicalValue() / t.pipetteUlPerSecond;
  if (auto *m = op.as<ir::DevMixOp>())
    return t.pipetteBaseSeconds +
           m->cycles * 2 * m->volume.canonicalValue() / t.pipetteUlPerSecond;
  if (op.as<ir::PickTipsOp>() || op.as<ir::DropTipsOp>() || op.as<ir::ReturnTipsOp>())
    return t.tipSeconds;
  if (op.as<ir::SwapTipRackOp>())
    return t.swapRackSeconds;
  return 0;
}

bool PipettingLowering::isPipetting(const ir::Op &op) {
  switch (op.kind()) {
  case ir::OpKind::Dispense:
  case ir::OpKind::Aspirate:
  case ir::OpKind::Wash:
  case ir::OpKind::Mix:
  case ir::OpKind::Transfer:
    return true;
  default:
    return false;
  }
}

//===--- Look-ahead: what later steps touch -------------------------------===//

bool PipettingLowering::hasLiquid(ir::ReservoirPos pos) const {
  for (const Position &position : positions_)
    if (position.pos == pos)
      return position.remainingUl - deadUl_ > kEpsilon;
  return false;
}

/// Whether a tip with this binding may serve a later op.
bool PipettingLowering::neededLater(const TipBinding &binding) const {
  long next = static_cast<long>(opIndex_) + 1;
  if (binding.kind == TipBinding::Well)
    return lookahead_.lastWellUse.at(static_cast<size_t>(flatIndex(binding.well))) >= next;
  if (binding.kind == TipBinding::Source) {
    for (const Position &position : positions_)
      if (position.pos == binding.pos)
        return position.remainingUl - deadUl_ > kEpsilon &&
               lookahead_.lastLiquidUse[position.liquid] >= next;
  }
  return false;
}

//===--- Geometry ---------------------------------------------------------===//

Well PipettingLowering::wellOf(const ir::HeadPosition &block, unsigned channel) const {
  return {block.anchor.row, static_cast<uint8_t>(block.anchor.col + channel * stride_)};
}

ir::ChannelMask PipettingLowering::maskFor(const PerChannel &perChannel) const {
  ir::ChannelMask mask;
  mask.channels = static_cast<uint8_t>(channels_);
  for (unsigned k = 0; k < channels_; ++k)
    if (perChannel[k] > kEpsilon)
      mask.bits |= static_cast<uint8_t>(1u << k);
  return mask;
}

/// Row-wise head positions for ops group-wells has not grouped.
std::vector<ir::HeadPosition> PipettingLowering::groupRowWise(const WellSet &wells) const {
  std::vector<ir::HeadPosition> blocks;
  WellSet left = wells;
  for (Well well : wells.rowMajor()) {
    if (!left.contains(well))
      continue;
    ir::HeadPosition block{well, {}};
    block.mask.channels = static_cast<uint8_t>(channels_);
    for (unsigned k = 0; k < channels_; ++k) {
      Well target = wellOf(block, k);
      if (target.col <= kMaxCols && left.contains(target)) {
        block.mask.bits |= static_cast<uint8_t>(1u << k);
        left.erase(target);
      }
    }
    blocks.push_back(block);
  }
  return blocks;
}

std::vector<ir::HeadPosition> PipettingLowering::blocksOf(const ir::Op &op,
                                                          const WellSet &wells) const {
  return op.blocks.empty() ? groupRowWise(wells) : op.blocks;
}

ir::Place PipettingLowering::platePlace(const ir::HeadPosition &block) const {
  return {platform_.samplePlateSlot, block.anchor.row, block.anchor.col};
}

/// Wells under a list of head positions.
WellSet PipettingLowering::wellsUnder(const std::vector<ir::HeadPosition> &blocks) const {
  WellSet wells;
  for (const ir::HeadPosition &block : blocks)
    for (unsigned k = 0; k < channels_; ++k)
      if (block.mask.test(k))
        wells.insert(wellOf(block, k));
  return wells;
}

PipettingLowering::PerChannel PipettingLowering::amountsAt(const ir::HeadPosition &block,
                                                           const WellAmounts &amount) const {
  PerChannel perChannel(channels_, 0.0);
  for (unsigned k = 0; k < channels_; ++k)
    if (block.mask.test(k))
      perChannel[k] = amount.at(wellOf(block, k));
  return perChannel;
}

unsigned PipettingLowering::firstChannel(ir::ChannelMask mask) {
  for (unsigned k = 0; k < mask.channels; ++k)
    if (mask.test(k))
      return k;
  return 0;
}

//===--- Reservoir --------------------------------------------------------===//

double PipettingLowering::usable(const Position &position) const {
  return std::max(0.0, position.remainingUl - deadUl_);
}

void PipettingLowering::reportShortfall(ir::LiquidId liquid, double missingUl) {
  if (shortfall_)
    return;
  shortfall_ = true;
  const ir::Liquid &l = module_.liquid(liquid);
  // What the plan loads, not what is left at the step that ran short.
  double loaded = 0;
  for (const ir::ReservoirLoad &load : module_.loadingPlan)
    if (load.liquid == liquid)
      loaded += plannedUl(load);
  // The leftovers would be drawn first; what they cannot give is short.
  for (const Position &position : positions_)
    if (position.liquid == liquid)
      missingUl -= usable(position);
  missingUl = std::max(missingUl, 0.0);
  auto ml = [](double ul) { return fmt::format("{} mL", formatNumber(std::ceil(ul / 100) / 10)); };
  context_->diags
      .report(DiagId::ReagentShortfall, emitter_.origin->loc, l.name, ml(loaded),
              ml(loaded + missingUl), ml(deadUl_), ml(loaded + missingUl))
      .step(emitter_.origin->step);
}

//===--- Tips -------------------------------------------------------------===//

/// The binding each channel of `mask` wants (in a buffer reused by every
/// acquire).
const std::vector<std::optional<TipBinding>> &
PipettingLowering::want(ir::ChannelMask mask,
                        llvm::function_ref<TipBinding(unsigned)> binding) {
  wanted_.assign(channels_, std::nullopt);
  for (unsigned k = 0; k < channels_; ++k)
    if (mask.test(k))
      wanted_[k] = binding(k);
  return wanted_;
}

/// Tips for the channels of `mask` at a head position on the plate: each
/// bound to the well under it (one set for the step under `reuse`), fresh
/// under `new`.
void PipettingLowering::acquireTouching(ir::ChannelMask mask, const ir::HeadPosition &block,
                                        ir::TipPolicy policy) {
  bool reuse = policy == ir::TipPolicy::Reuse;
  tips_.acquire(want(mask,
                     [&](unsigned k) {
                       return reuse ? TipBinding::reuse()
                                    : TipBinding::touching(wellOf(block, k));
                     }),
                policy == ir::TipPolicy::New ? TipAllocator::Mode::Fresh
                                             : TipAllocator::Mode::Match);
}

PipettingLowering::AmountGroups PipettingLowering::byAmount(const PerChannel &amounts,
                                                            unsigned channels) {
  AmountGroups groups;
  for (unsigned k = 0; k < channels; ++k) {
    if (amounts[k] <= kEpsilon)
      continue;
    long long key = std::llround(amounts[k] * 1e6);
    auto it = std::lower_bound(groups.begin(), groups.end(), key,
                               [](const auto &group, long long k) { return group.first < k; });
    if (it == groups.end() || it->first != key)
      it = groups.insert(it, {key, ir::ChannelMask{0, static_cast<uint8_t>(channels)}});
    it->second.bits |= static_cast<uint8_t>(1u << k);
  }
  return groups;
}

//===--- Reservoir to plate -----------------------------------------------===//

unsigned PipettingLowering::widthAt(ir::ReservoirPos pos) const {
  auto it = widths_.find(pos);
  return it == widths_.end() ? channels_ : std::clamp(it->second, 1u, channels_);
}

/// Splits items[index] into head positions of at most `width` channels,
/// re-anchored so that they use channels 1..width only: a narrow source
/// set then serves every well.
void PipettingLowering::narrow(std::vector<Item> &items, size_t index, unsigned width) const {
  if (width >= channels_)
    return;
  const Item item = items[index];
  bool fits = true;
  for (unsigned k = width; k < channels_; ++k)
    if (item.perChannel[k] > kEpsilon)
      fits = false;
  if (fits)
    return;
  std::vector<Item> pieces;
  for (unsigned first = 0; first < channels_; ++first) {
    if (item.perChannel[first] <= kEpsilon)
      continue;
    Item piece{{wellOf(item.block, first), {0, static_cast<uint8_t>(channels_)}},
               PerChannel(channels_, 0.0), item.mixAfter};
    unsigned last = std::min(channels_, first + width);
    for (unsigned k = first; k < last; ++k) {
      if (item.perChannel[k] <= kEpsilon)
        continue;
      piece.perChannel[k - first] = item.perChannel[k];
      piece.block.mask.bits |= static_cast<uint8_t>(1u << (k - first));
    }
    pieces.push_back(std::move(piece));
    first = last - 1;
  }
  // The first piece takes the item's place, so the items after it move once.
  items[index] = std::move(pieces.front());
  items.insert(items.begin() + static_cast<std::ptrdiff_t>(index) + 1,
               std::make_move_iterator(pieces.begin() + 1),
               std::make_move_iterator(pieces.end()));
}

/// Whether `leftover` µL of this position must be drawn (split across
/// positions) because the liquid's later positions cannot cover what the
/// protocol still takes of it. Otherwise the leftover stays unused: it is
/// less than one channel's share and a whole share from the next position
/// saves a dispense.
bool PipettingLowering::needsLeftovers(ir::LiquidId liquid, const Position &current,
                                       double committed) const {
  double later = 0;
  bool after = false;
  for (const Position &position : positions_) {
    if (&position == &current)
      after = true;
    else if (after && position.liquid == liquid)
      later += usable(position);
  }
  double still = lookahead_.needUl[liquid] - drawnUl_[liquid] - committed;
  return later + kEpsilon < still;
}

/// Dispenses one liquid from the reservoir: the window algorithm of the
/// file comment. `policy` is the tip policy for the reservoir side.
void PipettingLowering::dispenseFromReservoir(ir::LiquidId liquid, std::vector<Item> items,
                                              ir::TipPolicy policy,
                                              const std::optional<ir::MixSpec> &mix) {
  size_t next = 0;
  // Channels that a running-down position served at a head position whose
  // other channels the next position serves: they hold their liquid,
  // masked out, while the others take that position's tips and draw, and
  // all dispense together (one Dispense where two would do; bioforge1.md §2:
  // masked-out channels do nothing). Only per_source sets without a mix
  // keep their tips between windows; a tip that mixed is bound to its well.
  std::optional<Item> carried;
  ir::ReservoirPos carriedFrom{};
  auto disjoint = [&](const Item &a, const Item &b) {
    for (unsigned k = 0; k < channels_; ++k)
      if (a.perChannel[k] > kEpsilon && b.perChannel[k] > kEpsilon)
        return false;
    return true;
  };
  while (next < items.size()) {
    Position *position = positionFor(liquid, items[next]);
    if (!position) {
      if (carried)
        dispenseItem(*carried, policy, mix);
      double missing = 0;
      for (size_t i = next; i < items.size(); ++i)
        for (double v : items[i].perChannel)
          missing += v;
      reportShortfall(liquid, missing);
      return;
    }
    PerChannel held(channels_, 0.0);
    std::vector<Item> window;
    fillWindow(liquid, *position, items, next, policy, window, held);
    PLATE_ASSERT(!window.empty(), "a dispense window serves no well");
    if (carried) {
      if (window.size() == 1 && window.front().block == carried->block &&
          disjoint(window.front(), *carried)) {
        for (unsigned k = 0; k < channels_; ++k)
          window.front().perChannel[k] += carried->perChannel[k];
        // The tip budget estimates what narrowing a position costs from the
        // seconds spent at it; the carried channels' dispense stays counted
        // where they drew, as if it were still their own, so that a merge
        // never steers the search to another plan.
        for (const auto &[key, mask] : byAmount(carried->perChannel, channels_)) {
          ir::Op alone;
          alone.payload = ir::DevDispenseOp{platePlace(carried->block), mask,
                                            Quantity::microliters(static_cast<double>(key) / 1e6)};
          outcome_.sourceSeconds[carriedFrom] += seconds(alone);
        }
      } else {
        dispenseItem(*carried, policy, mix);
      }
      carried.reset();
    }
    if (policy == ir::TipPolicy::PerSource && !mix && next < items.size() &&
        window.back().block == items[next].block &&
        disjoint(window.back(), items[next])) {
      carried = std::move(window.back());
      carriedFrom = position->pos;
      window.pop_back();
    }
    emitWindow(liquid, *position, window, held, policy, mix);
  }
  if (carried)
    dispenseItem(*carried, policy, mix);
}

/// Positions drain in loading-plan order: the first one that can still give
/// at least one channel's share of `item`; null when none can.
PipettingLowering::Position *PipettingLowering::positionFor(ir::LiquidId liquid,
                                                           const Item &item) {
  double smallest = capacity_;
  for (double v : item.perChannel)
    if (v > kEpsilon)
      smallest = std::min(smallest, v);
  bool known = false;
  drainingLeftovers_ = false;
  for (Position &candidate : positions_) {
    if (candidate.liquid != liquid)
      continue;
    known = true;
    if (usable(candidate) + kEpsilon >= smallest)
      return &candidate;
  }
  PLATE_ASSERT(known, "lower-pipetting needs allocate-reservoir: liquid `" +
                          module_.liquid(liquid).name + "` has no position");
  // Every position kept a leftover less than one channel's share (an even
  // plan of 23 mL a position for 300-µL washes leaves 0.2 mL in each): 86
  // wells washed 8 times ran 0.6 mL short although the positions held the
  // protocol's need. When the leftovers together cover what is still to be
  // drawn, they are drawn, a share split across positions (found blind).
  double left = 0;
  Position *first = nullptr;
  for (Position &candidate : positions_)
    if (candidate.liquid == liquid && usable(candidate) > kEpsilon) {
      left += usable(candidate);
      if (!first)
        first = &candidate;
    }
  double still = lookahead_.needUl[liquid] - drawnUl_[liquid];
  if (first && left + kEpsilon >= still) {
    drainingLeftovers_ = true;
    return first;
  }
  return nullptr;
}

/// Takes items from `next` on into one window of `position`: as many as
/// the tips hold and the position gives (one only per_well, and none
/// after one that mixes), so that one aspiration serves the window.
void PipettingLowering::fillWindow(ir::LiquidId liquid, Position &position,
                                   std::vector<Item> &items, size_t &next,
                                   ir::TipPolicy policy, std::vector<Item> &window,
                                   PerChannel &held) {
  double total = 0;
  bool single = policy == ir::TipPolicy::PerWell;
  unsigned width = channels_;
  if (policy == ir::TipPolicy::PerSource) {
    width = widthAt(position.pos);
    outcome_.narrowable.insert(position.pos);
  }
  while (next < items.size()) {
    narrow(items, next, width);
    Item &item = items[next];
    bool fits = true;
    double need = 0;
    for (unsigned k = 0; k < channels_; ++k) {
      need += item.perChannel[k];
      if (item.perChannel[k] > kEpsilon && held[k] + item.perChannel[k] > capacity_ + kEpsilon)
        fits = false;
    }
    if (!fits)
      return;
    if (total + need <= usable(position) + kEpsilon) {
      for (unsigned k = 0; k < channels_; ++k)
        held[k] += item.perChannel[k];
      total += need;
      window.push_back(item);
      ++next;
      if (item.mixAfter || single)
        return;
      continue;
    }
    takeWhatFits(liquid, position, items, next, total, window, held);
    return;
  }
}

/// The position runs down: the channels of items[next] that still fit
/// here are served; the others wait for the next position (and its own
/// tips). Every channel served here mixes its well here too: a channel's
/// well gets its whole share (or its last piece) from one position. Only
/// when the later positions of the liquid could not cover the rest does a
/// channel take what is left here and the remainder from the next position
/// (two dispenses into one well).
void PipettingLowering::takeWhatFits(ir::LiquidId liquid, const Position &position,
                                     std::vector<Item> &items, size_t &next, double total,
                                     std::vector<Item> &window, PerChannel &held) {
  Item &item = items[next];
  Item part = item;
  Item partial = item; // a share that continues at the next position
  partial.mixAfter = false;
  std::fill(partial.perChannel.begin(), partial.perChannel.end(), 0.0);
  double room = usable(position) - total;
  bool splitShares = drainingLeftovers_ || needsLeftovers(liquid, position, total);
  for (unsigned k = 0; k < channels_; ++k) {
    if (item.perChannel[k] <= kEpsilon)
      continue;
    if (item.perChannel[k] <= room + kEpsilon) {
      room -= item.perChannel[k];
      held[k] += item.perChannel[k];
      item.perChannel[k] = 0;
    } else {
      part.perChannel[k] = 0;
      if (splitShares && room > kEpsilon) {
        partial.perChannel[k] = room;
        held[k] += room;
        item.perChannel[k] -= room;
        room = 0;
      }
    }
  }
  if (maskFor(part.perChannel).bits)
    window.push_back(part);
  if (maskFor(partial.perChannel).bits)
    window.push_back(partial);
  if (!maskFor(item.perChannel).bits)
    ++next;
}

void PipettingLowering::emitWindow(ir::LiquidId liquid, Position &position,
                                   const std::vector<Item> &window, const PerChannel &held,
                                   ir::TipPolicy policy,
                                   const std::optional<ir::MixSpec> &mix) {
  size_t firstOp = emitter_.ops.size();
  emitWindowOps(liquid, position, window, held, policy, mix);
  for (size_t i = firstOp; i < emitter_.ops.size(); ++i)
    outcome_.sourceSeconds[position.pos] += seconds(emitter_.ops[i]);
}

/// Fills the channels with what `held` says, from `position`: one
/// Aspirate per amount.
void PipettingLowering::aspirateFrom(Position &position, ir::LiquidId liquid,
                                     const PerChannel &held) {
  ir::Place reservoir{platform_.reservoirSlot, position.pos.row, position.pos.col};
  for (const auto &[key, mask] : byAmount(held, channels_)) {
    double amount = static_cast<double>(key) / 1e6;
    emitter_.emit(ir::DevAspirateOp{reservoir, mask, Quantity::microliters(amount), liquid});
    position.remainingUl -= amount * mask.count();
    drawnUl_[liquid] += amount * mask.count();
  }
}

/// Dispenses one item at its head position, and mixes there when it is
/// the last piece of a dispense that mixes.
void PipettingLowering::dispenseItem(const Item &item, ir::TipPolicy policy,
                                     const std::optional<ir::MixSpec> &mix) {
  for (const auto &[key, mask] : byAmount(item.perChannel, channels_))
    emitter_.emit(ir::DevDispenseOp{platePlace(item.block), mask,
                                    Quantity::microliters(static_cast<double>(key) / 1e6)});
  if (!item.mixAfter || !mix)
    return;
  ir::ChannelMask mask = maskFor(item.perChannel);
  emitter_.emit(ir::DevMixOp{platePlace(item.block), mask, mix->volume, mix->cycles});
  if (policy == ir::TipPolicy::Reuse)
    return;
  for (unsigned k = 0; k < channels_; ++k)
    if (mask.test(k))
      tips_.rebind(k, TipBinding::touching(wellOf(item.block, k)));
  // Tips that mixed can never go back to the reservoir; per_well parks
  // them when a later step touches their wells.
  tips_.release(mask, [&](const TipBinding &b) {
    return policy != ir::TipPolicy::New && neededLater(b);
  });
}

void PipettingLowering::emitWindowOps(ir::LiquidId liquid, Position &position,
                                      const std::vector<Item> &window,
                                      const PerChannel &held, ir::TipPolicy policy,
                                      const std::optional<ir::MixSpec> &mix) {
  ir::ChannelMask used = maskFor(held);
  bool reuse = policy == ir::TipPolicy::Reuse;
  TipBinding source = reuse ? TipBinding::reuse() : TipBinding::source(position.pos);
  TipAllocator::Mode mode = policy == ir::TipPolicy::PerSource || reuse
                                ? TipAllocator::Mode::Match
                                : TipAllocator::Mode::Fresh;
  tips_.acquire(want(used, [&](unsigned) { return source; }), mode);

  aspirateFrom(position, liquid, held);
  for (const Item &item : window)
    dispenseItem(item, policy, mix);
  if (policy == ir::TipPolicy::New || policy == ir::TipPolicy::PerWell)
    tips_.releaseAll([](const TipBinding &) { return false; });
}

/// Items of one liquid: per head position the channels over its wells,
/// split into pieces a tip can hold.
std::vector<PipettingLowering::Item>
PipettingLowering::itemsFor(const std::vector<ir::HeadPosition> &blocks,
                            llvm::function_ref<double(Well)> volumeAt, bool mixAfter) const {
  std::vector<Item> items;
  for (const ir::HeadPosition &block : blocks) {
    PerChannel perChannel(channels_, 0.0);
    double largest = 0;
    for (unsigned k = 0; k < channels_; ++k) {
      if (!block.mask.test(k))
        continue;
      perChannel[k] = volumeAt(wellOf(block, k));
      largest = std::max(largest, perChannel[k]);
    }
    if (largest <= kEpsilon)
      continue;
    unsigned pieces = static_cast<unsigned>(std::ceil(largest / capacity_ - kEpsilon));
    for (unsigned piece = 0; piece < pieces; ++piece) {
      Item item{block, perChannel, mixAfter && piece + 1 == pieces};
      for (double &v : item.perChannel)
        v /= pieces;
      items.push_back(item);
    }
  }
  return items;
}

//===--- Several liquids under one head position --------------------------===//
//
// A layout dispense puts different liquids under one head position (the
// blank in columns 1-3 of a row next to a sample in column 4). Lowered
// liquid by liquid, each position gets a Dispense per liquid. Lowered side
// by side, the head is loaded one liquid at a time (one Aspirate per
// liquid at its own reservoir position, masked to the channels that carry
// it) and one Dispense per position serves every channel (the volume is
// the statement's, so every channel gives the same). A window runs on
// while each channel keeps one liquid and one position per liquid gives
// the window's share; without a mix the windows only order the positions
// and each channel keeps its tip while its liquid stays (emitChannelRuns).
// The contact rule holds because every tip aspirates once, fresh, from its
// liquid's position. The statement is also lowered liquid by liquid, and
// the cheaper stream kept (lower(DispenseOp)).

struct PipettingLowering::SharedItem {
  Item item;
  llvm::SmallVector<ir::LiquidId, 8> liquid; ///< per channel; read where it pipettes
};

/// What lowering a dispense changes, so that it can be lowered again from
/// the same start.
struct PipettingLowering::DispenseState {
  size_t commands;
  TipAllocator tips;
  std::vector<Position> positions;
  std::vector<double> drawnUl;
  std::map<ir::ReservoirPos, double> sourceSeconds;
};

PipettingLowering::DispenseState PipettingLowering::saveDispenseState() const {
  return {emitter_.ops.size(), tips_, positions_, drawnUl_, outcome_.sourceSeconds};
}

void PipettingLowering::restoreDispenseState(DispenseState state) {
  emitter_.ops.erase(emitter_.ops.begin() + static_cast<std::ptrdiff_t>(state.commands),
                     emitter_.ops.end());
  tips_ = std::move(state.tips);
  positions_ = std::move(state.positions);
  drawnUl_ = std::move(state.drawnUl);
  outcome_.sourceSeconds = std::move(state.sourceSeconds);
}

double PipettingLowering::secondsSince(size_t firstCommand) const {
  double total = 0;
  for (size_t i = firstCommand; i < emitter_.ops.size(); ++i)
    total += seconds(emitter_.ops[i]);
  return total;
}

/// Head positions with the liquid of each channel, split into pieces a
/// tip can hold.
std::vector<PipettingLowering::SharedItem>
PipettingLowering::sharedItemsFor(const std::vector<ir::HeadPosition> &blocks,
                                  const WellLiquids &liquidAt, double volume,
                                  bool mixAfter) const {
  std::vector<SharedItem> items;
  unsigned pieces = static_cast<unsigned>(std::ceil(volume / capacity_ - kEpsilon));
  for (const ir::HeadPosition &block : blocks) {
    SharedItem shared{{block, PerChannel(channels_, 0.0), false},
                      llvm::SmallVector<ir::LiquidId, 8>(channels_, 0)};
    bool any = false;
    for (unsigned k = 0; k < channels_; ++k)
      if (block.mask.test(k))
        if (std::optional<ir::LiquidId> liquid = liquidAt.at(wellOf(block, k))) {
          shared.item.perChannel[k] = volume / pieces;
          shared.liquid[k] = *liquid;
          any = true;
        }
    if (!any)
      continue;
    for (unsigned piece = 0; piece < pieces; ++piece) {
      shared.item.mixAfter = mixAfter && piece + 1 == pieces;
      items.push_back(shared);
    }
  }
  return items;
}

/// The position a window's share of `liquid` comes from: the one the
/// liquid-by-liquid lowering would draw from next (positionFor), when it
/// gives the whole share; null otherwise (the position runs down, and the
/// liquid-by-liquid lowering splits the share across positions).
PipettingLowering::Position *PipettingLowering::sharedSource(ir::LiquidId liquid,
                                                            double needUl, double smallestUl) {
  for (Position &candidate : positions_) {
    if (candidate.liquid != liquid || usable(candidate) + kEpsilon < smallestUl)
      continue;
    return usable(candidate) + kEpsilon >= needUl ? &candidate : nullptr;
  }
  return nullptr;
}

/// A head position whose liquids no single position each can give: each
/// liquid on its own, as the liquid-by-liquid lowering does.
void PipettingLowering::dispenseSeparately(const SharedItem &shared, ir::TipPolicy policy,
                                           const std::optional<ir::MixSpec> &mix) {
  std::vector<ir::LiquidId> liquids;
  for (unsigned k = 0; k < channels_; ++k)
    if (shared.item.perChannel[k] > kEpsilon &&
        std::find(liquids.begin(), liquids.end(), shared.liquid[k]) == liquids.end())
      liquids.push_back(shared.liquid[k]);
  for (ir::LiquidId liquid : liquids) {
    Item own = shared.item;
    for (unsigned k = 0; k < channels_; ++k)
      if (shared.liquid[k] != liquid)
        own.perChannel[k] = 0;
    dispenseFromReservoir(liquid, {own}, policy, mix);
  }
}

/// Windows are built greedily: the first head position not yet served
/// opens one, and every later position that fits joins it (the wells of a
/// dispense are independent, so the order is free): a channel that carries
/// a sample down a column serves that column's rows in one window.
void PipettingLowering::dispenseTogether(const ir::DispenseOp &op,
                                         const std::vector<ir::HeadPosition> &blocks,
                                         const WellLiquids &liquidAt) {
  std::vector<SharedItem> items =
      sharedItemsFor(blocks, liquidAt, op.volume.canonicalValue(), op.mix.has_value());
  // Without a mix, `new` tips are fresh per aspiration, not per window: a
  // channel may keep its tip over several windows while the others change
  // theirs, when one position per liquid gives the whole statement's share
  // (then the windows only order the positions).
  std::map<ir::LiquidId, Position *> wholeSources;
  bool byChannel = op.tips == ir::TipPolicy::New && !op.mix && sourcesForAll(items, wholeSources);
  std::vector<SharedItem> order;
  std::vector<bool> served(items.size(), false);
  for (size_t first = 0; first < items.size(); ++first) {
    if (served[first])
      continue;
    std::vector<SharedItem> window;
    // Per liquid of the window, in the order the channels first take it:
    // its position and what the window draws from it.
    std::vector<std::pair<ir::LiquidId, Position *>> sources;
    std::vector<double> drawn;
    PerChannel held(channels_, 0.0);
    llvm::SmallVector<std::optional<ir::LiquidId>, 8> carries(channels_);
    for (size_t next = first; next < items.size(); ++next) {
      if (served[next])
        continue;
      const SharedItem &shared = items[next];
      bool fits = true;
      // What the item takes of each liquid: total and smallest share.
      llvm::SmallVector<std::tuple<ir::LiquidId, double, double>, 8> needs;
      for (unsigned k = 0; k < channels_ && fits; ++k) {
        double ul = shared.item.perChannel[k];
        if (ul <= kEpsilon)
          continue;
        ir::LiquidId liquid = shared.liquid[k];
        if ((carries[k] && *carries[k] != liquid) || held[k] + ul > capacity_ + kEpsilon)
          fits = false;
        auto it = std::find_if(needs.begin(), needs.end(),
                               [&](const auto &need) { return std::get<0>(need) == liquid; });
        if (it == needs.end()) {
          needs.emplace_back(liquid, ul, ul);
        } else {
          std::get<1>(*it) += ul;
          std::get<2>(*it) = std::min(std::get<2>(*it), ul);
        }
      }
      llvm::SmallVector<Position *, 8> from;
      for (const auto &[liquid, needUl, smallestUl] : needs) {
        if (!fits)
          break;
        // A copy: clang 14 cannot capture a structured binding in a lambda.
        const auto &wanted = liquid;
        auto source = std::find_if(sources.begin(), sources.end(),
                                   [&](const auto &s) { return s.first == wanted; });
        Position *position = nullptr;
        if (source != sources.end()) {
          double total = drawn[static_cast<size_t>(source - sources.begin())] + needUl;
          if (usable(*source->second) + kEpsilon >= total)
            position = source->second;
        } else {
          position = sharedSource(liquid, needUl, smallestUl);
        }
        fits = position != nullptr;
        from.push_back(position);
      }
      if (!fits) {
        if (window.empty())
          break; // served on its own below
        continue;
      }
      for (size_t i = 0; i < needs.size(); ++i) {
        auto source = std::find_if(sources.begin(), sources.end(), [&](const auto &s) {
          return s.first == std::get<0>(needs[i]);
        });
        if (source == sources.end()) {
          sources.emplace_back(std::get<0>(needs[i]), from[i]);
          drawn.push_back(std::get<1>(needs[i]));
        } else {
          drawn[static_cast<size_t>(source - sources.begin())] += std::get<1>(needs[i]);
        }
      }
      for (unsigned k = 0; k < channels_; ++k)
        if (shared.item.perChannel[k] > kEpsilon) {
          carries[k] = shared.liquid[k];
          held[k] += shared.item.perChannel[k];
        }
      window.push_back(shared);
      served[next] = true;
      // A tip that mixed touched a well; per_well: one position per window,
      // as fillWindow does.
      if (shared.item.mixAfter || op.tips == ir::TipPolicy::PerWell)
        break;
    }
    if (byChannel) {
      PLATE_ASSERT(!window.empty(), "a position whose liquids all have a source fits no window");
      order.insert(order.end(), window.begin(), window.end());
      continue;
    }
    if (window.empty()) {
      served[first] = true;
      dispenseSeparately(items[first], op.tips, op.mix);
      continue;
    }
    emitSharedWindow(window, sources, op.tips, op.mix);
  }
  if (byChannel)
    emitChannelRuns(order, wholeSources);
}

/// Whether one position per liquid gives all that `items` take of it;
/// those positions in `sources`.
bool PipettingLowering::sourcesForAll(const std::vector<SharedItem> &items,
                                      std::map<ir::LiquidId, Position *> &sources) {
  std::map<ir::LiquidId, std::pair<double, double>> needs; // total, smallest share
  for (const SharedItem &shared : items)
    for (unsigned k = 0; k < channels_; ++k) {
      double ul = shared.item.perChannel[k];
      if (ul <= kEpsilon)
        continue;
      auto [it, fresh] = needs.try_emplace(shared.liquid[k], 0.0, ul);
      it->second.first += ul;
      it->second.second = std::min(it->second.second, ul);
    }
  for (const auto &[liquid, need] : needs) {
    Position *position = sharedSource(liquid, need.first, need.second);
    if (!position)
      return false;
    sources[liquid] = position;
  }
  return true;
}

/// Head positions in `order`, each channel on its own: a channel takes a
/// fresh tip and aspirates what it gives over its next positions that
/// take the same liquid (up to the tip's capacity), and keeps that tip,
/// masked out where it has nothing to give, until its liquid changes or
/// the tip runs dry. So a blank that runs down channel 1 next to a sample
/// per row costs one tip and one aspiration, not one per row.
void PipettingLowering::emitChannelRuns(const std::vector<SharedItem> &order,
                                        const std::map<ir::LiquidId, Position *> &sources) {
  size_t firstOp = emitter_.ops.size();
  // loads[i][k]: what channel k aspirates, with a fresh tip, just before
  // position i; 0: it keeps what it has.
  std::vector<PerChannel> loads(order.size(), PerChannel(channels_, 0.0));
  for (unsigned k = 0; k < channels_; ++k) {
    std::optional<size_t> start;
    for (size_t i = 0; i < order.size(); ++i) {
      double ul = order[i].item.perChannel[k];
      if (ul <= kEpsilon)
        continue;
      if (!start || order[*start].liquid[k] != order[i].liquid[k] ||
          loads[*start][k] + ul > capacity_ + kEpsilon)
        start = i;
      loads[*start][k] += ul;
    }
  }
  double aspirating = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const SharedItem &shared = order[i];
    ir::ChannelMask reload = maskFor(loads[i]);
    if (reload.bits) {
      tips_.acquire(want(reload,
                         [&](unsigned k) {
                           return TipBinding::source(sources.at(shared.liquid[k])->pos);
                         }),
                    TipAllocator::Mode::Fresh);
      std::vector<ir::LiquidId> liquids;
      for (unsigned k = 0; k < channels_; ++k)
        if (reload.test(k) &&
            std::find(liquids.begin(), liquids.end(), shared.liquid[k]) == liquids.end())
          liquids.push_back(shared.liquid[k]);
      for (ir::LiquidId liquid : liquids) {
        PerChannel own(channels_, 0.0);
        for (unsigned k = 0; k < channels_; ++k)
          if (reload.test(k) && shared.liquid[k] == liquid)
            own[k] = loads[i][k];
        Position *position = sources.at(liquid);
        size_t before = emitter_.ops.size();
        aspirateFrom(*position, liquid, own);
        double s = secondsSince(before);
        outcome_.sourceSeconds[position->pos] += s;
        aspirating += s;
      }
    }
    dispenseItem(shared.item, ir::TipPolicy::New, std::nullopt);
  }
  tips_.releaseAll([](const TipBinding &) { return false; });
  // The picks, dispenses and drops serve every liquid alike.
  double common = secondsSince(firstOp) - aspirating;
  for (const auto &[liquid, position] : sources)
    outcome_.sourceSeconds[position->pos] += common / static_cast<double>(sources.size());
}

void PipettingLowering::emitSharedWindow(
    const std::vector<SharedItem> &window,
    const std::vector<std::pair<ir::LiquidId, Position *>> &sources, ir::TipPolicy policy,
    const std::optional<ir::MixSpec> &mix) {
  size_t firstOp = emitter_.ops.size();
  PerChannel held(channels_, 0.0);
  llvm::SmallVector<Position *, 8> sourceOf(channels_, nullptr);
  for (const SharedItem &shared : window)
    for (unsigned k = 0; k < channels_; ++k)
      if (shared.item.perChannel[k] > kEpsilon) {
        held[k] += shared.item.perChannel[k];
        for (const auto &[liquid, position] : sources)
          if (liquid == shared.liquid[k])
            sourceOf[k] = position;
      }
  tips_.acquire(want(maskFor(held),
                     [&](unsigned k) { return TipBinding::source(sourceOf[k]->pos); }),
                TipAllocator::Mode::Fresh);

  double aspirating = 0;
  for (const auto &[liquid, position] : sources) {
    PerChannel own(channels_, 0.0);
    for (unsigned k = 0; k < channels_; ++k)
      if (sourceOf[k] == position)
        own[k] = held[k];
    size_t before = emitter_.ops.size();
    aspirateFrom(*position, liquid, own);
    double s = secondsSince(before);
    outcome_.sourceSeconds[position->pos] += s;
    aspirating += s;
  }
  for (const SharedItem &shared : window)
    dispenseItem(shared.item, policy, mix);
  // Fresh tips for every window.
  tips_.releaseAll([](const TipBinding &) { return false; });
  // The picks, dispenses and drops serve every liquid of the window alike.
  double common = secondsSince(firstOp) - aspirating;
  for (const auto &source : sources)
    outcome_.sourceSeconds[source.second->pos] += common / static_cast<double>(sources.size());
}

//===--- Plate to waste ---------------------------------------------------===//

/// Empties the given amounts from one head position into the solution
/// waste, in rounds of at most a tip capacity.
void PipettingLowering::removeFromBlock(const ir::HeadPosition &block, PerChannel amounts,
                                        ir::TipPolicy policy, bool moreInThisOp,
                                        bool keepAfter) {
  ir::ChannelMask mask = maskFor(amounts);
  if (!mask.bits)
    return;
  acquireTouching(mask, block, policy);
  ir::Place waste{platform_.solutionWasteSlot, 0, 0};
  while (maskFor(amounts).bits) {
    PerChannel round(channels_, 0.0);
    for (unsigned k = 0; k < channels_; ++k) {
      round[k] = std::min(amounts[k], capacity_);
      amounts[k] -= round[k];
      if (amounts[k] < kEpsilon)
        amounts[k] = 0;
    }
    AmountGroups groups = byAmount(round, channels_);
    for (const auto &[key, groupMask] : groups)
      emitter_.emit(ir::DevAspirateOp{platePlace(block), groupMask,
                                      Quantity::microliters(static_cast<double>(key) / 1e6),
                                      liquidInWell(wellOf(block, firstChannel(groupMask)))});
    for (const auto &[key, groupMask] : groups)
      emitter_.emit(ir::DevDispenseOp{waste, groupMask,
                                      Quantity::microliters(static_cast<double>(key) / 1e6)});
  }
  if (policy == ir::TipPolicy::Reuse)
    return; // one set for the whole step, dropped at its end
  tips_.release(mask, [&](const TipBinding &b) {
    return policy == ir::TipPolicy::PerWell && (moreInThisOp || (keepAfter && neededLater(b)));
  });
}

/// Removal rounds run the plate forwards and backwards in turn. When a
/// rack swap cannot be avoided (the per-well tips and the fill tips do not
/// fit one rack), the wells removed last before a fill are the first after
/// it, so their parked tips are picked again before the next swap discards
/// them: each tip then serves two rounds instead of one.
std::vector<ir::HeadPosition>
PipettingLowering::removalOrder(std::vector<ir::HeadPosition> blocks) {
  if (removalRounds_++ % 2 == 1)
    std::reverse(blocks.begin(), blocks.end());
  return blocks;
}

/// Provenance of what a removal takes: the liquid last put into the well
/// (by a dispense or a wash fill), else its layout liquid.
ir::LiquidId PipettingLowering::liquidInWell(Well well) const {
  if (std::optional<ir::LiquidId> last = lastInWell_.at(well))
    return *last;
  for (const ir::Liquid &liquid : module_.liquids)
    if (liquid.role != ir::LiquidRole::Reagent && liquid.wells.contains(well))
      return liquid.id;
  return 0;
}

//===--- The ops ----------------------------------------------------------===//

/// A dispense of several liquids (a layout dispense) is lowered both ways,
/// each liquid on its own and the liquids side by side, from the same
/// state; the side-by-side commands are kept unless they take more robot
/// time (bioforge1.md §5) or more fresh tips. Only `new` and `per_well`
/// tips (a dispense that mixes) qualify: there every window takes fresh
/// tips anyway, so a channel may carry a different liquid in each window
/// without buying a tip more than a liquid-by-liquid lowering would
/// (docs/schedule.md, "Liquids side by side").
void PipettingLowering::lower(const ir::DispenseOp &op, const ir::Op &origin) {
  WellSet all;
  WellLiquids liquidAt;
  for (const ir::Portion &portion : op.portions) {
    all |= portion.wells;
    for (Well well : portion.wells.columnMajor())
      liquidAt.set(well, portion.liquid);
  }
  std::vector<ir::HeadPosition> blocks = blocksOf(origin, all);
  bool freshTips = op.tips == ir::TipPolicy::New || op.tips == ir::TipPolicy::PerWell;
  if (op.portions.size() < 2 || !freshTips) {
    dispensePerLiquid(op, blocks, liquidAt);
    return;
  }
  DispenseState start = saveDispenseState();
  const size_t firstCommand = start.commands;
  const unsigned tipsBefore = tips_.tipsUsed();
  dispenseTogether(op, blocks, liquidAt);
  if (shortfall_)
    return; // reported by a liquid lowered on its own; nothing to compare
  double togetherSeconds = secondsSince(firstCommand);
  unsigned togetherTips = tips_.tipsUsed() - tipsBefore;
  DispenseState together = saveDispenseState();
  std::vector<ir::Op> togetherCommands(
      std::make_move_iterator(emitter_.ops.begin() + static_cast<std::ptrdiff_t>(firstCommand)),
      std::make_move_iterator(emitter_.ops.end()));
  restoreDispenseState(std::move(start));

  dispensePerLiquid(op, blocks, liquidAt);
  if (shortfall_)
    return;
  double separateSeconds = secondsSince(firstCommand);
  unsigned separateTips = tips_.tipsUsed() - tipsBefore;
  if (togetherSeconds > separateSeconds + kEpsilon || togetherTips > separateTips)
    return;
  together.commands = firstCommand;
  restoreDispenseState(std::move(together));
  emitter_.ops.insert(emitter_.ops.end(), std::make_move_iterator(togetherCommands.begin()),
                      std::make_move_iterator(togetherCommands.end()));
}

void PipettingLowering::dispensePerLiquid(const ir::DispenseOp &op,
                                          const std::vector<ir::HeadPosition> &blocks,
                                          const WellLiquids &liquidAt) {
  double volume = op.volume.canonicalValue();
  for (const ir::Portion &portion : op.portions) {
    std::vector<Item> items = itemsFor(
        blocks, [&](Well well) { return liquidAt.at(well) == portion.liquid ? volume : 0.0; },
        op.mix.has_value());
    dispenseFromReservoir(portion.liquid, std::move(items), op.tips, op.mix);
  }
}

void PipettingLowering::lower(const ir::AspirateOp &op, const ir::Op &origin) {
  WellAmounts amount;
  if (op.volume) {
    for (Well well : op.wells.columnMajor())
      amount.set(well, op.volume->canonicalValue());
  }
  for (const ir::WellAmount &resolved : op.resolved)
    amount.set(resolved.well, resolved.volume.canonicalValue());
  for (const ir::HeadPosition &block : removalOrder(blocksOf(origin, op.wells)))
    removeFromBlock(block, amountsAt(block, amount), op.tips, false);
}

void PipettingLowering::lower(const ir::WashOp &op, const ir::Op &origin) {
  std::vector<ir::HeadPosition> blocks = blocksOf(origin, op.wells);
  ir::TipPolicy fill = op.tips == ir::TipPolicy::Reuse ? ir::TipPolicy::Reuse
                       : op.tips == ir::TipPolicy::New  ? ir::TipPolicy::New
                                                        : ir::TipPolicy::PerSource;
  ir::TipPolicy removal = op.tips == ir::TipPolicy::PerSource ? ir::TipPolicy::PerWell
                                                              : op.tips;
  if (needsParts(blocks, removal))
    washInParts(op, blocks, fill, removal);
  else
    washPart(op, blocks, fill, removal, true, false);
}

/// Parts are sized to the tips left in the rack: the largest run of
/// head-position columns whose tips fit what is left; when not even one
/// column fits, the rack is swapped first and the part sized to a full
/// rack.
void PipettingLowering::washInParts(const ir::WashOp &op,
                                    const std::vector<ir::HeadPosition> &blocks,
                                    ir::TipPolicy fill, ir::TipPolicy removal) {
  std::set<unsigned> anchorCols;
  for (const ir::HeadPosition &block : blocks)
    anchorCols.insert(block.anchor.col);
  std::vector<unsigned> left(anchorCols.begin(), anchorCols.end());
  // Parted washes run the columns forwards and backwards in turn: the last
  // part's removal tips stay parked when a later step touches its wells,
  // and the next parted wash starts with them.
  if (partedWashes_++ % 2 == 1)
    std::reverse(left.begin(), left.end());
  auto partOf = [&](size_t columns) {
    std::vector<ir::HeadPosition> part;
    for (const ir::HeadPosition &block : blocks)
      if (std::find(left.begin(), left.begin() + static_cast<std::ptrdiff_t>(columns),
                    block.anchor.col) != left.begin() + static_cast<std::ptrdiff_t>(columns))
        part.push_back(block);
    return part;
  };
  auto columnsFitting = [&](unsigned tips) {
    size_t columns = 0;
    while (columns < left.size() && partTips(op, partOf(columns + 1)) <= tips)
      ++columns;
    return columns;
  };
  while (!left.empty()) {
    size_t columns = columnsFitting(tips_.freshLeft());
    if (columns == 0) {
      tips_.reserve(tips_.rackSize());
      columns = std::max<size_t>(1, columnsFitting(tips_.rackSize()));
    }
    std::vector<ir::HeadPosition> part = partOf(columns);
    left.erase(left.begin(), left.begin() + static_cast<std::ptrdiff_t>(columns));
    washPart(op, part, fill, removal, left.empty(), !left.empty());
  }
}

/// Tips a wash part draws, at most: one per well (per_well removal) plus a
/// full source set for every reservoir position its fills may reach, one
/// position more for a position that runs down in the middle, and a set of
/// slack for picks the rack geometry splits.
unsigned PipettingLowering::partTips(const ir::WashOp &op,
                                     const std::vector<ir::HeadPosition> &part) const {
  WellSet under = wellsUnder(part);
  double need = under.size() * op.volume.canonicalValue() * op.cycles;
  unsigned wells = 0; // removal tips to draw: parked ones serve again
  for (Well well : under.columnMajor())
    if (!tips_.isParked(TipBinding::touching(well)))
      ++wells;
  double perPosition = 0;
  for (const Position &position : positions_)
    if (position.liquid == op.reagent) {
      double loaded = position.remainingUl;
      for (const ir::ReservoirLoad &load : module_.loadingPlan)
        if (load.pos == position.pos)
          loaded = plannedUl(load);
      double usableAtLoad = std::max(0.0, loaded - deadUl_);
      perPosition = perPosition == 0 ? usableAtLoad : std::min(perPosition, usableAtLoad);
    }
  unsigned reached = perPosition > kEpsilon
                         ? static_cast<unsigned>(std::ceil(need / perPosition - kEpsilon)) + 1
                         : 1;
  return wells + channels_ * (reached + 1);
}

/// A per_well wash over more wells than one rack holds next to a source set
/// (a full plate) runs in parts of whole head-position columns, each part
/// emptied, filled and removed all its cycles before the next: its removal
/// tips are parked only within the part and fit one rack with the part's
/// fill tips. Every well still gets exactly its cycles. Other washes run as
/// one part, so their removal tips can stay parked for later steps.
bool PipettingLowering::needsParts(const std::vector<ir::HeadPosition> &blocks,
                                   ir::TipPolicy removal) const {
  return removal == ir::TipPolicy::PerWell &&
         wellsUnder(blocks).size() + channels_ > tips_.rackSize();
}

/// Empties, then fills and removes `op.cycles` times, the wells under
/// `blocks`. `keepAfter`: the removal tips may stay parked for later steps;
/// `morePartsLeft`: a later part of this wash fills from the same reservoir
/// positions.
void PipettingLowering::washPart(const ir::WashOp &op,
                                 const std::vector<ir::HeadPosition> &blocks,
                                 ir::TipPolicy fill, ir::TipPolicy removal, bool keepAfter,
                                 bool morePartsLeft) {
  WellSet wells = wellsUnder(blocks);
  wells &= op.wells;
  WellAmounts emptied;
  for (const ir::WellAmount &amount : op.emptied)
    emptied.set(amount.well, amount.volume.canonicalValue());
  for (const ir::HeadPosition &block : removalOrder(blocks))
    removeFromBlock(block, amountsAt(block, emptied), removal, true, keepAfter);

  double volume = op.volume.canonicalValue();
  WellAmounts full;
  for (Well well : wells.columnMajor())
    full.set(well, volume);
  for (unsigned cycle = 1; cycle <= op.cycles; ++cycle) {
    std::vector<Item> items = itemsFor(
        blocks, [&](Well well) { return wells.contains(well) ? volume : 0.0; }, false);
    dispenseFromReservoir(op.reagent, std::move(items), fill, std::nullopt);
    for (Well well : wells.columnMajor())
      lastInWell_.set(well, op.reagent);
    // The fill tips step aside for the removal tips; they come back next
    // cycle, in the next part or in a later step from their rack position.
    if (fill != ir::TipPolicy::Reuse)
      tips_.releaseAll([&](const TipBinding &b) {
        return fill == ir::TipPolicy::PerSource && b.kind == TipBinding::Source &&
               (cycle < op.cycles || morePartsLeft ? hasLiquid(b.pos) : neededLater(b));
      });
    if (op.soak)
      emitter_.emit(ir::DevWaitOp{*op.soak});
    for (const ir::HeadPosition &block : removalOrder(blocks))
      removeFromBlock(block, amountsAt(block, full), removal, cycle < op.cycles, keepAfter);
  }
}

void PipettingLowering::lower(const ir::MixOp &op, const ir::Op &origin) {
  for (const ir::HeadPosition &block : blocksOf(origin, op.wells)) {
    ir::ChannelMask mask = block.mask;
    acquireTouching(mask, block, op.tips);
    emitter_.emit(ir::DevMixOp{platePlace(block), mask, op.volume, op.cycles});
    if (op.tips != ir::TipPolicy::Reuse)
      tips_.release(mask, [&](const TipBinding &b) {
        return op.tips != ir::TipPolicy::New && neededLater(b);
      });
  }
}

/// Transfers run in the head positions groupTransfer chose (the pairs that
/// line up under the head and may run together: Dependences.h), so that one
/// aspiration and one dispense serve up to four pairs.
void PipettingLowering::lower(const ir::TransferOp &op, const ir::Op &origin) {
  double volume = op.volume.canonicalValue();
  HeadGeometry geometry{channels_, stride_, module_.shape};
  unsigned trips = transferTrips(volume, capacity_);
  std::vector<TransferBatch> batches = groupTransfer(op, geometry, trips);
  if (!origin.blocks.empty()) {
    PLATE_ASSERT(origin.blocks.size() == batches.size(),
                 "group-wells and lower-pipetting disagree on a transfer's head positions");
    for (size_t i = 0; i < batches.size(); ++i)
      PLATE_ASSERT(origin.blocks[i] == batches[i].destination,
                   "group-wells and lower-pipetting disagree on a transfer's head positions");
  }
  for (const TransferBatch &batch : batches) {
    const ir::HeadPosition &source = batch.source;
    acquireTouching(source.mask, source, op.tips);
    double left = volume;
    for (unsigned trip = 0; trip < trips; ++trip) {
      double round = std::min(left, capacity_);
      left -= round;
      emitter_.emit(ir::DevAspirateOp{platePlace(source), source.mask,
                                      Quantity::microliters(round),
                                      liquidInWell(source.anchor)});
      emitter_.emit(ir::DevDispenseOp{platePlace(batch.destination), batch.destination.mask,
                                      Quantity::microliters(round)});
    }
    if (op.tips != ir::TipPolicy::Reuse)
      tips_.release(source.mask, [&](const TipBinding &b) {
        return op.tips != ir::TipPolicy::New && neededLater(b);
      });
    if (op.mix)
      mixAfterTransfer(op, batches, batch);
  }
}

/// A tip that aspirated from the source may not touch the destination
/// (BioForge-1 contact rule: dispensing is non-contact, mixing is not), so
/// the destination is mixed with tips of its own. Those tips have touched
/// only that well: a later pair that draws from it (the next step of a
/// serial dilution) takes them.
void PipettingLowering::mixAfterTransfer(const ir::TransferOp &op,
                                         const std::vector<TransferBatch> &batches,
                                         const TransferBatch &batch) {
  const ir::HeadPosition &destination = batch.destination;
  acquireTouching(destination.mask, destination, op.tips);
  emitter_.emit(ir::DevMixOp{platePlace(destination), destination.mask, op.mix->volume,
                             op.mix->cycles});
  if (op.tips == ir::TipPolicy::Reuse)
    return;
  std::set<uint32_t> laterSources;
  for (const TransferBatch *later = &batch + 1; later != batches.data() + batches.size();
       ++later)
    for (unsigned k = 0; k < channels_; ++k)
      if (later->source.mask.test(k))
        laterSources.insert(static_cast<uint32_t>(flatIndex(wellOf(later->source, k))));
  tips_.release(destination.mask, [&](const TipBinding &b) {
    if (op.tips == ir::TipPolicy::New)
      return false;
    return (b.kind == TipBinding::Well &&
            laterSources.contains(static_cast<uint32_t>(flatIndex(b.well)))) ||
           neededLater(b);
  });
}

} // namespace plate::lowering
