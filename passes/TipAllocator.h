//===- TipAllocator.h - Tip rack, head and contact bookkeeping -----------===//
//
// The tip side of `lower-pipetting`: which rack cells still hold fresh tips,
// which hold parked tips and what those tips have touched, and which tip
// each head channel carries. Every PickTips, ReturnTips, DropTips and
// SwapTipRack the pass emits comes from here, so the contact rule of
// bioforge1.md §4.3 is enforced in one place:
//
//  - a tip is bound to what it has touched: a reservoir position (it may
//    aspirate again only there) or a well (it may touch only that well);
//  - a parked tip (ReturnTips) keeps its binding and is handed out again
//    only for the same binding; channel k can take the tip at rack column
//    col only with anchor col - k >= 1 (the head geometry, §2);
//  - when no fresh tip fits a pick the rack is swapped (parked tips on the
//    old rack are lost) and the swap is counted against the stacker.
//
// For tip budgeting (TipBudgetSearch.h) the allocator also reports how many
// parked tips a swap threw away, and, in `survey` mode, behaves as if the
// rack were unbounded (a swap keeps the parked tips) so that it can tell how
// many fresh tips are drawn before the last parked tip is picked again:
// parked tips survive without loss exactly when that figure fits one rack
// (up to the geometry of grouped picks).
//
// Rack size, channel count, swap module and tip waste capacity come from
// the Platform.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/Platform.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace plate::lowering {

/// Collects the device ops a lowering emits; each carries the location,
/// step label and `tips reuse` mark of the high-level op being lowered.
struct Emitter {
  std::vector<ir::Op> ops;
  const ir::Op *origin = nullptr;
  bool reuse = false;

  template <typename T> void emit(T payload) {
    ir::Op &op = ops.emplace_back();
    op.payload.template emplace<T>(std::move(payload));
    op.loc = origin->loc;
    op.origin = origin->origin;
    op.step = origin->step;
    op.tipsReuse = reuse;
  }
};

/// What a tip has touched; decides where it may go next.
struct TipBinding {
  enum Kind : uint8_t { None, Source, Well, Reuse };
  Kind kind = None;
  ir::ReservoirPos pos;
  plate::Well well;

  static TipBinding source(ir::ReservoirPos pos) { return {Source, pos, {}}; }
  static TipBinding touching(plate::Well well) { return {Well, {}, well}; }
  static TipBinding reuse() { return {Reuse, {}, {}}; }
  friend auto operator<=>(const TipBinding &, const TipBinding &) = default;
};

class TipAllocator {
public:
  enum class Mode {
    Fresh, ///< always a new tip (policy `new`)
    Match, ///< keep or re-pick a tip with the same binding, else a new one
  };

  TipAllocator(const Platform &platform, Emitter &emitter, bool survey = false);

  unsigned channels() const { return static_cast<unsigned>(head_.size()); }
  bool hasTip(unsigned channel) const { return head_[channel].present; }
  const TipBinding &binding(unsigned channel) const { return head_[channel].binding; }

  /// Makes every channel with a wanted binding carry a suitable tip.
  /// Channels without a wanted binding keep whatever they hold.
  void acquire(const std::vector<std::optional<TipBinding>> &want, Mode mode);
  /// Records that a channel's tip has now touched something else (a mix in
  /// a well after a dispense).
  void rebind(unsigned channel, TipBinding binding);
  /// Takes the tips of `mask` off the head: parks those `keep` asks for
  /// (and whose rack is still on the deck), drops the rest.
  void release(ir::ChannelMask mask, llvm::function_ref<bool(const TipBinding &)> keep);
  void releaseAll(llvm::function_ref<bool(const TipBinding &)> keep);

  /// Continues a copy of an allocator on another emitter, in survey mode or
  /// not. Only before the first rack swap do the two modes agree.
  void resume(Emitter &emitter, bool survey) {
    PLATE_ASSERT(racks_ == 1, "resuming an allocator after a rack swap");
    emitter_ = &emitter;
    survey_ = survey;
  }
  /// Whether the rack was ever swapped.
  bool swapped() const { return racks_ > 1; }

  unsigned tipsUsed() const { return tipsUsed_; }
  unsigned racksUsed() const { return tipsUsed_ ? racks_ : 0; }
  unsigned tipsDropped() const { return dropped_; }
  /// Parked tips that rack swaps threw away (they were parked because a
  /// later op needs them, so each is a tip bought twice).
  unsigned parkedTipsLost() const { return lostParked_; }
  /// Fresh tips drawn before the last pick of a parked tip.
  unsigned freshBeforeLastParkedPick() const { return freshAtLastParkedPick_; }
  /// Whether a parked tip is still wanted (for parkedTipsLost); unset: all.
  std::function<bool(const TipBinding &)> stillNeeded;
  /// Thrown in survey mode when parked tips fill the whole rack.
  struct SurveyOverflow {};
  /// Reservoir positions whose tips were first drawn fresh before the last
  /// pick of a parked tip: narrowing them relieves the rack.
  std::vector<ir::ReservoirPos> sourcesBeforeLastParkedPick() const;
  unsigned rackSize() const { return rows_ * cols_; }
  /// Whether a tip with this binding is parked on the rack on the deck.
  bool isParked(const TipBinding &binding) const;
  /// Fresh tips left on the rack on the deck.
  unsigned freshLeft() const { return freshCount_; }
  /// Swaps the rack now when fewer than `tips` fresh tips are left (and a
  /// new rack would have more): a block of work whose tips are parked
  /// within the block then runs on one rack, and the swap falls between
  /// blocks instead of throwing the block's parked tips away.
  void reserve(unsigned tips);
  /// The op that first needed a rack beyond the stacker, or tip waste
  /// beyond capacity (for E702/E703).
  std::optional<SourceLoc> racksExceededAt, wasteExceededAt;
  std::string racksExceededStep, wasteExceededStep;

private:
  enum class Cell : uint8_t { Fresh, Empty, Parked };
  struct HeadTip {
    bool present = false;
    unsigned row = 0, col = 0; ///< home cell in the rack
    unsigned rack = 0;         ///< rack generation it came from
    TipBinding binding;
  };
  /// Per rack row, a bit per column (bit `col`, 1-based) of the cells a
  /// channel may take: the picker tests a whole head position in a few
  /// bit operations instead of a callback per cell.
  using RowMasks = std::vector<uint64_t>;

  size_t indexOf(unsigned row, unsigned col) const { return (row - 1) * cols_ + (col - 1); }
  /// Sets a cell to Fresh or Empty.
  void setCell(unsigned row, unsigned col, Cell state);
  /// Parks a tip with this binding in a cell.
  void park(unsigned row, unsigned col, const TipBinding &binding);
  /// A binding as one integer, equal exactly when the bindings are equal.
  static uint64_t keyOf(const TipBinding &binding);
  /// Hashes all 64 bits of a key into the low bits the buckets use (the
  /// default hash of DenseMap sees only the low 32 bits of the key, where
  /// well bindings would all collide).
  struct KeyInfo : llvm::DenseMapInfo<uint64_t> {
    static unsigned getHashValue(uint64_t key) {
      uint64_t mixed = (key ^ (key >> 31)) * 0xbf58476d1ce4e5b9ull; // splitmix64
      return static_cast<unsigned>(mixed ^ (mixed >> 32));
    }
  };
  ir::ChannelMask maskOfBits(unsigned bits) const;
  /// Picks, for each channel of `channels` (a bit set), a cell that its
  /// row masks in `usable` accept, grouping channels that share an anchor
  /// into one PickTips: the head position serving the most channels, the
  /// first in row-major anchor order on ties. Returns the channels it
  /// could not serve.
  unsigned pickGrouped(unsigned channels, std::vector<RowMasks> &usable,
                       const std::vector<std::optional<TipBinding>> &want);
  /// Row masks of the fresh cells, the same for every channel.
  void freshMasks(std::vector<RowMasks> &usable) const;
  void swapRack();

  // A pointer, not a reference: lower-pipetting assigns a saved allocator
  // back when it lowers a step two ways and keeps the cheaper.
  const Platform *platform_;
  Emitter *emitter_;
  unsigned rows_, cols_;
  std::vector<Cell> cells_;
  /// What the tip parked in each cell has touched (valid for Parked cells).
  std::vector<TipBinding> parkedBinding_;
  /// The parked cells (indices into cells_) per binding key: a Match pick
  /// finds its candidates without scanning the rack.
  llvm::DenseMap<uint64_t, llvm::SmallVector<uint16_t, 2>, KeyInfo> parkedByKey_;
  RowMasks freshRows_;
  unsigned freshCount_ = 0, parkedCount_ = 0;
  std::vector<HeadTip> head_;
  std::vector<RowMasks> usable_; ///< scratch for acquire, one per channel
  unsigned racks_ = 1;
  unsigned tipsUsed_ = 0;
  unsigned dropped_ = 0;
  bool survey_ = false;
  unsigned lostParked_ = 0;
  unsigned freshAtLastParkedPick_ = 0;
  /// Every fresh pick of a source-bound tip: its position and the fresh
  /// count before it.
  std::vector<std::pair<ir::ReservoirPos, unsigned>> sourcePicks_;
};

} // namespace plate::lowering
