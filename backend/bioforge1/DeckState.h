//===- DeckState.h - The digital twin of BioForge-1 and its invariants -----===//
//
// DeckState is the state of bioforge1.md §4: where the plate and its lid
// are, the tips on the head and in the rack, what every well, tip and
// reservoir position holds (liquid identities and volumes), the wastes, the
// heater. `execute(command, commit)` checks every invariant of §4 that the
// command could break and, only when all hold and `commit` is set, applies
// the command. Each handler checks everything before it changes anything,
// so a rejected command leaves the state untouched and `check` costs no
// copy. For the liquid handler's commands (most of a stream) the checks
// are const functions that also work out a Plan (channels, wells), and
// `commitChecked` applies the plan of the command just checked instead of
// checking it a second time after the device confirmed it.
//
// Handlers read the command's typed fields (Command.h), never its JSON.
// Liquids are interned once per run (LiquidTable: every name a run can
// produce is known from the RunSetup and the platform) and what a well or
// tip holds is a short vector of (liquid id, µL) kept in id order, which is
// name order: sums and splits run in the order the name-keyed map of the
// first version used, so volumes and toJson() are unchanged to the bit.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/RunSetup.h"
#include "ir/Diagnostics.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plate::backend {

/// The five invariant families of §4 (rows E800-E899 of Diagnostics.def).
enum class Rule : uint8_t { Tips, Volume, Contact, Place, Range };
std::string_view ruleName(Rule rule);

/// A command that breaks an invariant: its row of Diagnostics.def and the
/// row's arguments after the command's own three (seq, module.op, source
/// line), which whoever reports it adds.
struct Violation {
  Violation(DiagId id, DiagArgs args);

  DiagId id;
  Rule rule; ///< from the row's wording, which names the rule
  DiagArgs args;

  /// What was observed and the rule's words, without the command: for a
  /// report that names the command its own way (journal replay,
  /// translation validation, a device failure).
  std::string message() const;
  /// The row's arguments for a report about `command`.
  DiagArgs argsFor(const Command &command) const;
};

/// Liquid name -> µL: a named view of a LiquidMix for inspection and tests.
using Contents = std::map<std::string, double>;
double totalVolume(const Contents &contents);

/// The liquid names of one run, ids assigned in name order: reservoir
/// loads, the placeholder `reservoir(R,C)` of each position loaded with no
/// name, and MANUAL fills.
class LiquidTable {
public:
  LiquidTable(const Platform &platform, const RunSetup &setup);
  /// The id of a name of this run; nullopt for any other name.
  std::optional<uint32_t> find(std::string_view name) const;
  const std::string &name(uint32_t id) const { return names_[id]; }
  size_t size() const { return names_.size(); }

private:
  std::vector<std::string> names_;
};

/// What a well or a tip holds: (liquid id, µL), sorted by id.
struct LiquidMix {
  struct Part {
    uint32_t liquid;
    double ul;
  };
  llvm::SmallVector<Part, 2> parts;

  /// The sum in id order.
  double total() const {
    double sum = 0;
    for (const Part &part : parts)
      sum += part.ul;
    return sum;
  }
  bool empty() const { return parts.empty(); }
  /// `+=` on the liquid's entry, creating it in order.
  void add(uint32_t liquid, double ul);
  /// Moves `amount` µL out, keeping the composition; returns what moved.
  LiquidMix take(double amount);
  /// `destination.addAll(take(amount))` without the intermediate mix (no
  /// allocation per channel and pipetting command); same arithmetic.
  void moveTo(LiquidMix &destination, double amount);
  void addAll(const LiquidMix &other);
  Contents named(const LiquidTable &liquids) const;
};

class DeckState {
public:
  DeckState(const Platform &platform, const Labware &labware, const RunSetup &setup);

  /// Checks the command against the current state; applies it when it is
  /// legal and `commit` is true. Returns the first violation.
  std::optional<Violation> execute(const Command &command, bool commit);
  /// execute(command, false); what a liquid-handler command's checks
  /// worked out (its channels and wells) is kept until anything changes.
  std::optional<Violation> check(const Command &command) { return execute(command, false); }
  /// execute(command, true) for the command check() passed last, without
  /// checking again: the interpreter checks a command, sends it to the
  /// device and commits it only when the device confirms, and nothing
  /// touches the twin in between. Any other command (or a state changed
  /// since its check) takes the full execute.
  std::optional<Violation> commitChecked(const Command &command);

  /// Does to the wells what MANUAL steps do before command `seq` (fills,
  /// removals, transfers), once per seq (a retried command does not fill
  /// twice). `before` and `after` see each one around its effect (the
  /// reader's capture term, translation validation).
  using ManualHook = llvm::function_ref<void(const ManualFill &)>;
  void applyManualFills(uint32_t seq, ManualHook before = nullptr, ManualHook after = nullptr);

  /// The whole state as JSON (volumes rounded to 1e-6 µL): what a journal
  /// replay is compared against and what `plate run --state-out` writes.
  Json toJson() const;
  /// Whether the rack position holds a fresh (never picked) tip.
  bool rackPositionFresh(unsigned row, unsigned col) const;

  /// What the well holds, by name (builds a map: for inspection).
  Contents well(Well well) const;
  const LiquidMix &wellMix(Well well) const {
    return wells_[(well.row - 1) * labware_.shape.cols + (well.col - 1)];
  }
  const LiquidTable &liquids() const { return liquids_; }
  /// A well's stamp changes whenever what the well holds changes (a
  /// per-state counter): it lets the reader model reuse what it computed
  /// from unchanged wells. Every well's stamp, row by row, and the stamp of
  /// the latest change to any well (0: none yet).
  const std::vector<uint64_t> &wellStamps() const { return wellStamps_; }
  uint64_t lastWellStamp() const { return lastStamp_; }
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
    LiquidMix contents;
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
    uint32_t liquidId = 0; ///< of `liquid`, or of `reservoir(R,C)` if unnamed
    double volumeUl = 0;
  };
  /// Masked channels, 0-based, in order.
  using Channels = llvm::SmallVector<unsigned, 8>;
  using Wells = llvm::SmallVector<Well, 8>;

  using Result = std::optional<Violation>;
  /// What the checks of a liquid-handler command worked out and applying
  /// it needs: the masked channels and the plate wells under them. The
  /// checks are const, so a rejected command cannot have changed anything.
  struct Plan {
    Channels used;
    Wells wells;
  };
  enum class Stage : uint8_t { Check, CheckAndApply, ApplyChecked };
  Result liquidHandling(const Command &command, Stage stage);
  Result checkPickTips(const Command &command, Plan &plan) const;
  Result checkDropTips(const Command &command, Plan &plan) const;
  Result checkReturnTips(const Command &command, Plan &plan) const;
  Result checkAspirate(const Command &command, Plan &plan) const;
  Result checkDispense(const Command &command, Plan &plan) const;
  Result checkMix(const Command &command, Plan &plan) const;
  void applyPickTips(const Command &command, const Plan &plan);
  void applyDropTips(const Plan &plan);
  void applyReturnTips(const Command &command, const Plan &plan);
  void applyAspirate(const Command &command, const Plan &plan);
  void applyDispense(const Command &command, const Plan &plan);
  void applyMix(const Plan &plan);
  Result movePlate(const Command &command, bool commit);
  Result lid(const Command &command, bool place, bool commit);
  Result swapTipRack(bool commit);
  Result setTemperature(const Command &command, bool commit);
  Result executeDecoded(const Command &command, bool commit);
  /// Platform::findSlot without a call to memcmp per slot.
  const Slot *slotNamed(std::string_view id) const;
  Result shake(const Command &command);
  Result read(const Command &command);
  Result wait(const Command &command);

  /// Masked channels of a `mask` argument, or a Range violation.
  Result channels(const Command &command, Channels &out) const;
  /// Plate wells under the masked channels at (row, col).
  Result plateWells(const Command &command, const Channels &channels, Wells &out) const;
  /// Whether the plate is on its pipetting slot with the lid off; the
  /// violations name the command's action.
  Result plateReady(DiagId elsewhere, DiagId lidOn) const;
  /// Whether every masked channel carries a tip; `op` needs them.
  Result tipsOn(const Channels &channels, std::string_view op) const;
  /// Whether the rack positions under the masked channels at the command's
  /// row and col exist; `outside` is the violation (picking or returning).
  Result rackInReach(const Command &command, const Channels &used, DiagId outside) const;
  double tipTotal(unsigned channel) const { return head_[channel]->contents.total(); }
  LiquidMix &wellRef(Well well);
  RackPosition &rack(unsigned row, unsigned col);
  const RackPosition &rack(unsigned row, unsigned col) const;
  Reservoir &reservoir(unsigned row, unsigned col);

  const Platform &platform_;
  Labware labware_;
  unsigned stride_ = 1; ///< plate columns between adjacent channels
  const RunSetup &setup_;
  LiquidTable liquids_;
  /// Liquid id of each MANUAL fill of setup_.manualFills.
  std::vector<uint32_t> manualFillIds_;
  /// Indices into setup_.manualFills, stably sorted by beforeSeq: the fills
  /// of one seq are found by a cursor, not by a scan per command.
  std::vector<uint32_t> manualFillOrder_;
  size_t nextFill_ = 0; ///< first entry of manualFillOrder_ not yet passed

  std::vector<LiquidMix> wells_;
  std::vector<uint64_t> wellStamps_;
  uint64_t lastStamp_ = 0;
  /// (module, from, to) of plate moves that passed the platform's checks
  /// (slots exist, the module's route serves both): those depend on the
  /// platform only, and a run repeats a handful of moves hundreds of times.
  struct PlatformMove {
    std::string module, from, to;
  };
  std::vector<PlatformMove> platformMoves_;
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
  Plan plan_; ///< of the last liquid-handler command checked
  /// The liquid-handler command whose plan_ check() made, while the state
  /// is as it checked it (null once anything executes or fills); its seq
  /// guards against a different command at the same address.
  const Command *planned_ = nullptr;
  uint32_t plannedSeq_ = 0;
};

} // namespace plate::backend
