//===- TipRemap.h - Sending tip commands to other rack positions ----------===//
//
// After a tip pick-up fails, the interpreter retries with fresh tips at
// another rack anchor (docs/reliability.md). Every later PickTips and
// ReturnTips at the failed anchor must follow to the new one, until a rack
// swap starts a fresh rack. This unit keeps those remaps, applies them to
// each command before it is sent, and finds a replacement anchor.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/DeckState.h"
#include "ir/Platform.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace plate::backend {

/// The rack row and column of a PickTips or ReturnTips (its first channel).
using RackAnchor = std::pair<unsigned, unsigned>;

/// The anchor of a PickTips or ReturnTips; nullopt for other commands.
std::optional<RackAnchor> rackAnchor(const Command &command);

class TipRemap {
public:
  /// The command as it is sent: the command itself (almost always), or a
  /// copy moved to the anchor its own was remapped to. A rack swap ends
  /// every remap. The reference is valid until the next call.
  const Command &apply(const Command &command);
  /// Later commands at `from` go to `to`.
  void add(RackAnchor from, RackAnchor to) { remaps_[from] = to; }

  /// An anchor where every channel of `commands[index]` finds a fresh tip
  /// that no later command of this rack wants and where the twin accepts
  /// `sent` moved there; nullopt if there is none.
  std::optional<RackAnchor> replacement(const std::vector<Command> &commands, size_t index,
                                        const Command &sent, DeckState &twin,
                                        const Platform &platform) const;

private:
  std::map<RackAnchor, RackAnchor> remaps_;
  Command storage_;
};

} // namespace plate::backend
