//===- TipRemap.cpp - Sending tip commands to other rack positions --------===//
//
// See TipRemap.h. A remap is journaled by the interpreter before the retry
// is sent, so that resume replays the same remaps in the same order.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/TipRemap.h"

#include <set>

namespace plate::backend {

namespace {

/// The command with its rack anchor moved to (row, col).
Command withRackAnchor(const Command &command, unsigned row, unsigned col) {
  Command moved = command;
  moved.fields.hasRowKey = moved.fields.hasColKey = true;
  moved.fields.row = row;
  moved.fields.col = col;
  moved.fields.rowIndex = row;
  moved.fields.colIndex = col;
  return moved;
}

} // namespace

std::optional<RackAnchor> rackAnchor(const Command &command) {
  if (command.fields.op != CommandOp::PickTips && command.fields.op != CommandOp::ReturnTips)
    return std::nullopt;
  return RackAnchor{command.fields.rowIndex, command.fields.colIndex};
}

const Command &TipRemap::apply(const Command &command) {
  if (command.fields.op == CommandOp::SwapTipRack)
    remaps_.clear();
  if (remaps_.empty())
    return command;
  if (auto anchor = rackAnchor(command))
    if (auto it = remaps_.find(*anchor); it != remaps_.end()) {
      storage_ = withRackAnchor(command, it->second.first, it->second.second);
      return storage_;
    }
  return command;
}

std::optional<RackAnchor> TipRemap::replacement(const std::vector<Command> &commands,
                                                size_t index, const Command &sent,
                                                DeckState &twin,
                                                const Platform &platform) const {
  // The tips stay in the rack; take the next fresh ones that no later
  // command of this rack will want.
  std::set<RackAnchor> wanted;
  for (size_t later = index; later < commands.size(); ++later) {
    const Command &next = commands[later];
    if (next.fields.op == CommandOp::SwapTipRack)
      break;
    if (auto nextAnchor = rackAnchor(next)) {
      RackAnchor at = *nextAnchor;
      if (auto it = remaps_.find(at); it != remaps_.end())
        at = it->second;
      for (unsigned channel = 0; channel < next.fields.maskLength && channel < 64; ++channel)
        if (next.fields.maskBits >> channel & 1)
          wanted.insert({at.first, at.second + channel});
    }
  }
  const CommandFields &fields = commands[index].fields;
  for (unsigned row = 1; row <= platform.tipRackRows; ++row)
    for (unsigned col = 1; col <= platform.tipRackCols; ++col) {
      bool fits = true;
      for (unsigned channel = 0; channel < fields.maskLength && channel < 64 && fits; ++channel)
        if (fields.maskBits >> channel & 1)
          fits = twin.rackPositionFresh(row, col + channel) && !wanted.count({row, col + channel});
      if (fits && !twin.check(withRackAnchor(sent, row, col)))
        return RackAnchor{row, col};
    }
  return std::nullopt;
}

} // namespace plate::backend
