//===- DeckState.h - The digital twin of BioForge-1 and its invariants -----===//
//
// DeckState is the state of bioforge1.md §4: where the plate and its lid
// are, the tips on the head and in the rack, what every well, tip and
// reservoir position holds (liquid identities and volumes), the wastes, the
// heater. `execute(command, commit)` checks every invariant of §4 that the
// command could break and, only when all hold and `commit` is set, applies
// the command. Each handler checks everything before it changes anything,
// so a rejected command leaves the state untouched and `check` costs no
// copy.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/Command.h"
#include "backend/RunSetup.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plate::backend {

/// The five invariant families of §4, each with its own diagnostic.
enum class Rule : uint8_t { Tips, Volume, Contact, Place, Range };
std::string_view ruleName(Rule rule);

struct Violation {
  Rule rule;
  std::string message;
};

/// Liquid name -> µL.
using Contents = std::map<std::string, double>;
double totalVolume(const Contents &contents);

class DeckState {
public:
  DeckState(const Platform &platform, const Labware &labware, const RunSetup &setup);

  /// Checks the command against the current state; applies it when it is
  /// legal and `commit` is true. Returns the first violation.
  std::optional<Violation> execute(const Command &command, bool commit);
  std::optional<Violation> check(const Command &command) { return execute(command, false); }

  /// Puts what MANUAL steps add before command `seq` into the wells, once
  /// per seq (a retried command does not fill twice).
  void applyManualFills(uint32_t seq);

  /// The whole state as JSON (volumes rounded to 1e-6 µL): what a journal
  /// replay is compared against and what `plate run --state-out` writes.
  Json toJson() const;
  /// Whether the rack position holds a fresh (never picked) tip.
  bool rackPositionFresh(unsigned row, unsigned col) const;

  const Contents &well(Well well) const;
  double reservoirVolumeUl(unsigned row, unsigned col) const;
  double solutionWasteUl() const { return solutionWasteUl_; }
  unsigned tipsInWaste() const { return tipsInWaste_; }
  const std::string &plateSlot() const { return plateSlot_; }
  bool lidOn() const { return lidOn_; }
  std::optional<double> heaterSetpoint() const { return heaterSetpoint_; }
  bool hasTip(unsigned channel) const { return channel < head_.size() && head_[channel].has_value(); }
  double tipVolume(unsigned channel) const;
  const Labware &labware() const { return labware_; }

private:
  enum class Contact : uint8_t { None, Reservoir, Well };
  struct Tip {
    unsigned rackRow = 0, rackCol = 0; ///< where it was picked
    Contents contents;
    Contact contact = Contact::None;
    unsigned contactRow = 0, contactCol = 0;
  };
  enum class RackSlot : uint8_t { Fresh, Empty, Returned };
  struct RackPosition {
    RackSlot state = RackSlot::Fresh;
    Tip returned;
  };
  struct Reservoir {
    std::string liquid;
    double volumeUl = 0;
  };

  using Result = std::optional<Violation>;
  Result pickTips(const Command &command, bool commit);
  Result dropTips(const Command &command, bool commit);
  Result returnTips(const Command &command, bool commit);
  Result aspirate(const Command &command, bool commit);
  Result dispense(const Command &command, bool commit);
  Result mix(const Command &command, bool commit);
  Result movePlate(const Command &command, bool commit);
  Result lid(const Command &command, bool place, bool commit);
  Result swapTipRack(bool commit);
  Result setTemperature(const Command &command, bool commit);
  Result shake(const Command &command);
  Result read(const Command &command);
  Result wait(const Command &command);

  /// Masked channels of a `mask` argument, or a Range violation.
  Result channels(const Command &command, std::vector<unsigned> &out) const;
  /// Plate wells under the masked channels at (row, col).
  Result plateWells(const Command &command, const std::vector<unsigned> &channels,
                    std::vector<Well> &out) const;
  Result plateReady(const std::string &action) const;
  Result tipsOn(const std::vector<unsigned> &channels, const std::string &action) const;
  Contents &wellRef(Well well);
  RackPosition &rack(unsigned row, unsigned col);
  Reservoir &reservoir(unsigned row, unsigned col);

  const Platform &platform_;
  Labware labware_;
  unsigned stride_ = 1; ///< plate columns between adjacent channels
  const RunSetup &setup_;

  std::vector<Contents> wells_;
  std::vector<Reservoir> reservoir_;
  std::vector<RackPosition> rack_;
  std::vector<std::optional<Tip>> head_;
  unsigned tipsInWaste_ = 0;
  unsigned spareRacksUsed_ = 0;
  double solutionWasteUl_ = 0;
  std::string plateSlot_;
  bool lidOn_ = true;
  std::string lidHolderSlot_; ///< where the lid is when it is off the plate
  std::optional<double> heaterSetpoint_;
  uint32_t filledThrough_ = 0; ///< highest seq whose MANUAL fills are in
};

} // namespace plate::backend
