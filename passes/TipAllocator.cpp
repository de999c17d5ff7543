//===- TipAllocator.cpp - Tip rack, head and contact bookkeeping ---------===//
//
// Picks are grouped: the channels that can share one anchor share one
// PickTips (4 s each in the timing model), and fresh tips are taken row by
// row from the left so that full 4-channel picks stay available.
//
//===----------------------------------------------------------------------===//
#include "passes/TipAllocator.h"

#include <algorithm>
#include <tuple>

namespace plate::lowering {

TipAllocator::TipAllocator(const Platform &platform, Emitter &emitter, bool survey)
    : platform_(&platform), emitter_(&emitter), rows_(platform.tipRackRows),
      cols_(platform.tipRackCols), cells_(rows_ * cols_, Cell::Fresh),
      parkedBinding_(rows_ * cols_), freshCount_(rows_ * cols_),
      head_(platform.channels), survey_(survey) {
  PLATE_ASSERT(platform.channels >= 1 && platform.channels <= 8,
               "head must have 1..8 channels");
  // Row masks hold bit `col` for col 1..cols, and the picker shifts them
  // by an anchor plus a channel: that must stay inside 64 bits.
  PLATE_ASSERT(cols_ >= 1 && cols_ + 8 < 64, "tip rack must have 1..55 columns");
  uint64_t fullRow = ((uint64_t{1} << cols_) - 1) << 1;
  freshRows_.assign(rows_, fullRow);
  usable_.resize(head_.size());
}

uint64_t TipAllocator::keyOf(const TipBinding &binding) {
  PLATE_ASSERT(binding.pos.row < 0x10000 && binding.pos.col < 0x10000,
               "reservoir position out of range");
  return uint64_t{binding.kind} | uint64_t{binding.pos.row} << 8 |
         uint64_t{binding.pos.col} << 24 | uint64_t{binding.well.row} << 40 |
         uint64_t{binding.well.col} << 48;
}

void TipAllocator::setCell(unsigned row, unsigned col, Cell state) {
  size_t index = indexOf(row, col);
  Cell &current = cells_[index];
  if (current == state)
    return;
  uint64_t bit = uint64_t{1} << col;
  if (current == Cell::Fresh) {
    --freshCount_;
    freshRows_[row - 1] &= ~bit;
  } else if (current == Cell::Parked) {
    --parkedCount_;
    auto &cellsWithKey = parkedByKey_[keyOf(parkedBinding_[index])];
    cellsWithKey.erase(std::find(cellsWithKey.begin(), cellsWithKey.end(), index));
  }
  if (state == Cell::Fresh) {
    ++freshCount_;
    freshRows_[row - 1] |= bit;
  } else if (state == Cell::Parked) {
    ++parkedCount_;
  }
  current = state;
}

void TipAllocator::park(unsigned row, unsigned col, const TipBinding &binding) {
  size_t index = indexOf(row, col);
  setCell(row, col, Cell::Empty); // unindexes a tip parked there before
  setCell(row, col, Cell::Parked);
  parkedBinding_[index] = binding;
  parkedByKey_[keyOf(binding)].push_back(static_cast<uint16_t>(index));
}

ir::ChannelMask TipAllocator::maskOfBits(unsigned bits) const {
  ir::ChannelMask mask;
  mask.channels = static_cast<uint8_t>(head_.size());
  mask.bits = static_cast<uint8_t>(bits);
  return mask;
}

void TipAllocator::freshMasks(std::vector<RowMasks> &usable) const {
  for (RowMasks &rows : usable)
    rows = freshRows_;
}

unsigned TipAllocator::pickGrouped(unsigned channels, std::vector<RowMasks> &usable,
                                   const std::vector<std::optional<TipBinding>> &want) {
  while (channels) {
    unsigned bestRow = 0, bestAnchor = 0, best = 0, bestCount = 0;
    unsigned wanted = static_cast<unsigned>(__builtin_popcount(channels));
    for (unsigned row = 1; row <= rows_ && bestCount < wanted; ++row) {
      // Channel k sits over column anchor + k: bit `anchor` of a channel's
      // row mask shifted by k. The masks have no bits past the last
      // column, so the head never hangs off the rack; anchors no channel
      // can use serve nobody and are skipped.
      uint64_t anchors = 0;
      for (unsigned rest = channels; rest; rest &= rest - 1) {
        unsigned channel = static_cast<unsigned>(__builtin_ctz(rest));
        anchors |= usable[channel][row - 1] >> channel;
      }
      anchors &= ~uint64_t{1}; // anchors are 1-based
      for (; anchors; anchors &= anchors - 1) {
        unsigned anchor = static_cast<unsigned>(__builtin_ctzll(anchors));
        unsigned served = 0;
        for (unsigned rest = channels; rest; rest &= rest - 1) {
          unsigned channel = static_cast<unsigned>(__builtin_ctz(rest));
          if ((usable[channel][row - 1] >> (anchor + channel)) & 1)
            served |= 1u << channel;
        }
        unsigned count = static_cast<unsigned>(__builtin_popcount(served));
        if (count > bestCount) {
          best = served;
          bestCount = count;
          bestRow = row;
          bestAnchor = anchor;
          if (count == wanted)
            break;
        }
      }
    }
    if (!best)
      break;
    emitter_->emit(ir::PickTipsOp{bestRow, bestAnchor, maskOfBits(best)});
    for (unsigned rest = best; rest; rest &= rest - 1) {
      unsigned channel = static_cast<unsigned>(__builtin_ctz(rest));
      unsigned col = bestAnchor + channel;
      Cell state = cells_[indexOf(bestRow, col)];
      if (state == Cell::Fresh) {
        if (want[channel]->kind == TipBinding::Source)
          sourcePicks_.push_back({want[channel]->pos, tipsUsed_});
        ++tipsUsed_;
      } else if (state == Cell::Parked) {
        freshAtLastParkedPick_ = tipsUsed_;
      }
      HeadTip &tip = head_[channel];
      tip.present = true;
      tip.row = bestRow;
      tip.col = col;
      tip.rack = racks_;
      tip.binding = *want[channel];
      setCell(bestRow, col, Cell::Empty);
      channels &= ~(1u << channel);
      for (RowMasks &rows : usable)
        rows[bestRow - 1] &= ~(uint64_t{1} << col);
    }
  }
  return channels;
}

void TipAllocator::swapRack() {
  emitter_->emit(ir::SwapTipRackOp{platform_->tipSwapModule});
  ++racks_;
  if (racks_ > 1 + platform_->spareTipRacks && !racksExceededAt) {
    racksExceededAt = emitter_->origin->loc;
    racksExceededStep = emitter_->origin->step;
  }
  if (survey_) {
    // An unbounded rack: parked tips stay where they are.
    for (unsigned row = 1; row <= rows_; ++row)
      for (unsigned col = 1; col <= cols_; ++col)
        if (cells_[indexOf(row, col)] == Cell::Empty)
          setCell(row, col, Cell::Fresh);
    return;
  }
  if (parkedCount_)
    for (size_t i = 0; i < cells_.size(); ++i)
      if (cells_[i] == Cell::Parked && (!stillNeeded || stillNeeded(parkedBinding_[i])))
        ++lostParked_;
  for (unsigned row = 1; row <= rows_; ++row)
    for (unsigned col = 1; col <= cols_; ++col)
      setCell(row, col, Cell::Fresh);
}

bool TipAllocator::isParked(const TipBinding &binding) const {
  auto it = parkedByKey_.find(keyOf(binding));
  return it != parkedByKey_.end() && !it->second.empty();
}

void TipAllocator::reserve(unsigned tips) {
  unsigned left = freshLeft();
  if (left < tips && left < rackSize())
    swapRack();
}

std::vector<ir::ReservoirPos> TipAllocator::sourcesBeforeLastParkedPick() const {
  std::vector<ir::ReservoirPos> positions;
  for (const auto &[pos, before] : sourcePicks_)
    if (before < freshAtLastParkedPick_ &&
        std::find(positions.begin(), positions.end(), pos) == positions.end())
      positions.push_back(pos);
  return positions;
}

void TipAllocator::acquire(const std::vector<std::optional<TipBinding>> &want,
                           Mode mode) {
  PLATE_ASSERT(want.size() == head_.size(), "one wanted binding per channel");
  unsigned missing = 0, stale = 0;
  for (unsigned channel = 0; channel < want.size(); ++channel) {
    if (!want[channel])
      continue;
    HeadTip &tip = head_[channel];
    if (tip.present && mode == Mode::Match && tip.binding == *want[channel])
      continue;
    if (tip.present)
      stale |= 1u << channel;
    missing |= 1u << channel;
  }
  if (stale)
    release(maskOfBits(stale), [](const TipBinding &) { return false; });
  if (!missing)
    return;

  if (mode == Mode::Match && parkedCount_) {
    // A channel may take a parked tip only with its own binding.
    bool any = false;
    for (RowMasks &rows : usable_)
      rows.assign(rows_, 0);
    for (unsigned rest = missing; rest; rest &= rest - 1) {
      unsigned channel = static_cast<unsigned>(__builtin_ctz(rest));
      auto it = parkedByKey_.find(keyOf(*want[channel]));
      if (it == parkedByKey_.end())
        continue;
      for (uint16_t index : it->second) {
        usable_[channel][index / cols_] |= uint64_t{1} << (index % cols_ + 1);
        any = true;
      }
    }
    if (any)
      missing = pickGrouped(missing, usable_, want);
  }
  if (missing) {
    freshMasks(usable_);
    missing = pickGrouped(missing, usable_, want);
  }
  if (missing) {
    swapRack();
    freshMasks(usable_);
    missing = pickGrouped(missing, usable_, want);
  }
  if (missing && survey_)
    throw SurveyOverflow{};
  PLATE_ASSERT(!missing, "a full tip rack cannot serve one pick");
}

void TipAllocator::rebind(unsigned channel, TipBinding binding) {
  PLATE_ASSERT(head_[channel].present, "rebinding a channel without a tip");
  head_[channel].binding = binding;
}

void TipAllocator::release(ir::ChannelMask mask,
                           llvm::function_ref<bool(const TipBinding &)> keep) {
  unsigned drops = 0;
  // Parked tips go home in groups that share an anchor (row, col - channel),
  // in (row, anchor) order; at most one group per channel.
  struct Return {
    unsigned row, anchor, channels;
  };
  Return returns[8];
  unsigned groups = 0;
  for (unsigned channel = 0; channel < head_.size(); ++channel) {
    HeadTip &tip = head_[channel];
    if (!mask.test(channel) || !tip.present)
      continue;
    bool park = (tip.rack == racks_ || survey_) && tip.col > channel &&
                tip.binding.kind != TipBinding::None &&
                tip.binding.kind != TipBinding::Reuse && keep(tip.binding);
    if (!park) {
      drops |= 1u << channel;
      continue;
    }
    // Kept sorted by (row, anchor) as groups are added.
    unsigned anchor = tip.col - channel, g = 0;
    while (g < groups && std::tie(returns[g].row, returns[g].anchor) < std::tie(tip.row, anchor))
      ++g;
    if (g == groups || returns[g].row != tip.row || returns[g].anchor != anchor) {
      for (unsigned later = groups++; later > g; --later)
        returns[later] = returns[later - 1];
      returns[g] = {tip.row, anchor, 0};
    }
    returns[g].channels |= 1u << channel;
  }
  if (drops) {
    emitter_->emit(ir::DropTipsOp{maskOfBits(drops)});
    dropped_ += static_cast<unsigned>(__builtin_popcount(drops));
    if (dropped_ > platform_->tipWasteCapacity && !wasteExceededAt) {
      wasteExceededAt = emitter_->origin->loc;
      wasteExceededStep = emitter_->origin->step;
    }
    for (unsigned rest = drops; rest; rest &= rest - 1)
      head_[static_cast<unsigned>(__builtin_ctz(rest))].present = false;
  }
  for (unsigned g = 0; g < groups; ++g) {
    emitter_->emit(ir::ReturnTipsOp{returns[g].row, returns[g].anchor,
                                   maskOfBits(returns[g].channels)});
    for (unsigned rest = returns[g].channels; rest; rest &= rest - 1) {
      HeadTip &tip = head_[static_cast<unsigned>(__builtin_ctz(rest))];
      park(tip.row, tip.col, tip.binding);
      tip.present = false;
    }
  }
}

void TipAllocator::releaseAll(llvm::function_ref<bool(const TipBinding &)> keep) {
  release(maskOfBits((1u << head_.size()) - 1), keep);
}

} // namespace plate::lowering
