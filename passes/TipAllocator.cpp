//===- TipAllocator.cpp - Tip rack, head and contact bookkeeping ---------===//
//
// Picks are grouped: the channels that can share one anchor share one
// PickTips (4 s each in the timing model), and fresh tips are taken row by
// row from the left so that full 4-channel picks stay available.
//
//===----------------------------------------------------------------------===//
#include "passes/TipAllocator.h"

#include <algorithm>

namespace plate::lowering {

TipAllocator::TipAllocator(const Platform &platform, Emitter &emitter, bool survey)
    : platform_(platform), emitter_(emitter), rows_(platform.tipRackRows),
      cols_(platform.tipRackCols), cells_(rows_ * cols_, Cell::Fresh),
      head_(platform.channels), pending_(platform.channels), survey_(survey) {
  PLATE_ASSERT(platform.channels >= 1 && platform.channels <= 8,
               "head must have 1..8 channels");
}

ir::ChannelMask TipAllocator::maskOf(const std::vector<unsigned> &channels) const {
  ir::ChannelMask mask;
  mask.channels = static_cast<uint8_t>(head_.size());
  for (unsigned channel : channels)
    mask.bits |= static_cast<uint8_t>(1u << channel);
  return mask;
}

std::vector<unsigned> TipAllocator::pickGrouped(
    std::vector<unsigned> channels,
    const std::function<bool(unsigned, unsigned, unsigned)> &usable) {
  while (!channels.empty()) {
    unsigned bestRow = 0, bestAnchor = 0;
    std::vector<unsigned> best;
    for (unsigned row = 1; row <= rows_; ++row) {
      for (unsigned anchor = 1; anchor <= cols_; ++anchor) {
        std::vector<unsigned> served;
        for (unsigned channel : channels)
          if (anchor + channel <= cols_ && usable(row, anchor + channel, channel))
            served.push_back(channel);
        if (served.size() > best.size()) {
          best = std::move(served);
          bestRow = row;
          bestAnchor = anchor;
          if (best.size() == channels.size())
            break;
        }
      }
      if (best.size() == channels.size())
        break;
    }
    if (best.empty())
      break;
    ir::ChannelMask mask = maskOf(best);
    emitter_.emit(ir::PickTipsOp{bestRow, bestAnchor, mask});
    for (unsigned channel : best) {
      unsigned col = bestAnchor + channel;
      Cell &state = cell(bestRow, col);
      if (state == Cell::Fresh) {
        if (pending_[channel]->kind == TipBinding::Source)
          sourcePicks_.push_back({pending_[channel]->pos, tipsUsed_});
        ++tipsUsed_;
      } else if (state == Cell::Parked) {
        freshAtLastParkedPick_ = tipsUsed_;
      }
      HeadTip &tip = head_[channel];
      tip.present = true;
      tip.row = bestRow;
      tip.col = col;
      tip.rack = racks_;
      tip.binding = *pending_[channel];
      state = Cell::Empty;
      parked_.erase({bestRow, col});
      std::erase(channels, channel);
    }
  }
  return channels;
}

void TipAllocator::swapRack() {
  emitter_.emit(ir::SwapTipRackOp{platform_.tipSwapModule});
  ++racks_;
  if (racks_ > 1 + platform_.spareTipRacks && !racksExceededAt) {
    racksExceededAt = emitter_.origin->loc;
    racksExceededStep = emitter_.origin->step;
  }
  if (survey_) {
    // An unbounded rack: parked tips stay where they are.
    for (Cell &c : cells_)
      if (c == Cell::Empty)
        c = Cell::Fresh;
    return;
  }
  for (const auto &[cellPos, binding] : parked_)
    if (!stillNeeded || stillNeeded(binding))
      ++lostParked_;
  std::fill(cells_.begin(), cells_.end(), Cell::Fresh);
  parked_.clear();
}

bool TipAllocator::isParked(const TipBinding &binding) const {
  for (const auto &[cellPos, parked] : parked_)
    if (parked == binding)
      return true;
  return false;
}

unsigned TipAllocator::freshLeft() const {
  return static_cast<unsigned>(std::count(cells_.begin(), cells_.end(), Cell::Fresh));
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
  std::vector<unsigned> missing;
  ir::ChannelMask stale = maskOf({});
  for (unsigned channel = 0; channel < want.size(); ++channel) {
    if (!want[channel])
      continue;
    HeadTip &tip = head_[channel];
    if (tip.present && mode == Mode::Match && tip.binding == *want[channel])
      continue;
    if (tip.present)
      stale.bits |= static_cast<uint8_t>(1u << channel);
    missing.push_back(channel);
  }
  if (stale.bits)
    release(stale, [](const TipBinding &) { return false; });
  if (missing.empty())
    return;
  pending_ = want;

  if (mode == Mode::Match) {
    missing = pickGrouped(missing, [&](unsigned row, unsigned col, unsigned channel) {
      auto it = parked_.find({row, col});
      return it != parked_.end() && it->second == *want[channel];
    });
  }
  auto fresh = [&](unsigned row, unsigned col, unsigned) {
    return cell(row, col) == Cell::Fresh;
  };
  missing = pickGrouped(missing, fresh);
  if (!missing.empty()) {
    swapRack();
    missing = pickGrouped(missing, fresh);
  }
  if (!missing.empty() && survey_)
    throw SurveyOverflow{};
  PLATE_ASSERT(missing.empty(), "a full tip rack cannot serve one pick");
}

void TipAllocator::rebind(unsigned channel, TipBinding binding) {
  PLATE_ASSERT(head_[channel].present, "rebinding a channel without a tip");
  head_[channel].binding = binding;
}

void TipAllocator::release(ir::ChannelMask mask,
                           const std::function<bool(const TipBinding &)> &keep) {
  std::vector<unsigned> drops;
  // Parked tips go home in groups that share an anchor (row, col - channel).
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> returns;
  for (unsigned channel = 0; channel < head_.size(); ++channel) {
    HeadTip &tip = head_[channel];
    if (!mask.test(channel) || !tip.present)
      continue;
    bool park = (tip.rack == racks_ || survey_) && tip.col > channel &&
                tip.binding.kind != TipBinding::None &&
                tip.binding.kind != TipBinding::Reuse && keep(tip.binding);
    if (park)
      returns[{tip.row, tip.col - channel}].push_back(channel);
    else
      drops.push_back(channel);
  }
  if (!drops.empty()) {
    emitter_.emit(ir::DropTipsOp{maskOf(drops)});
    dropped_ += static_cast<unsigned>(drops.size());
    if (dropped_ > platform_.tipWasteCapacity && !wasteExceededAt) {
      wasteExceededAt = emitter_.origin->loc;
      wasteExceededStep = emitter_.origin->step;
    }
    for (unsigned channel : drops)
      head_[channel].present = false;
  }
  for (const auto &[anchor, group] : returns) {
    emitter_.emit(ir::ReturnTipsOp{anchor.first, anchor.second, maskOf(group)});
    for (unsigned channel : group) {
      HeadTip &tip = head_[channel];
      cell(tip.row, tip.col) = Cell::Parked;
      parked_[{tip.row, tip.col}] = tip.binding;
      tip.present = false;
    }
  }
}

void TipAllocator::releaseAll(const std::function<bool(const TipBinding &)> &keep) {
  ir::ChannelMask mask;
  mask.channels = static_cast<uint8_t>(head_.size());
  mask.bits = static_cast<uint8_t>((1u << head_.size()) - 1);
  release(mask, keep);
}

} // namespace plate::lowering
