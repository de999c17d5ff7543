//===- Ot2Emitter.cpp - Checked IR to an Opentrons OT-2 Python protocol ---===//
//
// The body is written first and the deck second: which pipettes are
// mounted, how many tip racks and source containers there are and how much
// to load into each are only known once every step has been walked. The
// walk runs twice. The planning walk may use every pipette, reports the
// script's errors and measures each source liquid's need; then the mounts
// and the kind of container per liquid are fixed, and the emitting walk
// writes the calls, drawing tips and source containers as it goes.
//
//===----------------------------------------------------------------------===//
#include "backend/ot2/Ot2Emitter.h"

#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/CommandTiming.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <map>
#include <optional>
#include <set>

namespace plate::ot2 {

namespace {

std::string number(double value) { return formatNumber(std::round(value * 1e6) / 1e6); }

/// A Python string literal.
std::string pyString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// A pipette on a mount, with its tips.
struct Mounted {
  const Pipette *pipette = nullptr;
  std::string var;       ///< p300, m300, p20
  std::string mount;     ///< left, right
  unsigned racks = 0;    ///< racks used so far
  unsigned nextTip = 0;  ///< single: tip index; 8-channel: rack column index, over all racks
  bool used = false;
  /// 8-channel: the nozzles in use, as the protocol last configured them.
  unsigned activeNozzles = 8;
  /// 8-channel: the rack column that partial pick-ups take tips from, back
  /// row first, and how many of its tips are gone.
  std::optional<unsigned> partialColumn;
  unsigned partialTaken = 0;
  /// Racks the deck has room for (0: as many as needed); when they are
  /// used up the operator swaps them for full ones at a pause.
  unsigned rackCap = 0;
  /// A wash has tips parked in the racks: they may not be swapped away.
  bool parking = false;

  bool multi() const { return pipette->channels > 1; }
  /// Whether the next pick-up of `nozzles` tips needs a rack beyond the cap.
  bool beyondCap(unsigned nozzles) const {
    if (!rackCap || nextTip < rackCap * perRack())
      return false;
    bool newColumn = !multi() || nozzles >= 8 || !partialColumn || partialTaken + nozzles > 8;
    return newColumn;
  }
  bool takes(double ul) const {
    return ul >= pipette->minUl - kQuantitySlack && ul <= pipette->maxUl + kQuantitySlack;
  }
  unsigned perRack() const { return multi() ? 12 : 96; }
  /// The rack position of the next fresh tip (or tips), as a Python
  /// expression. An 8-channel picks up `nozzles` tips: a whole column, or
  /// (partial) the next `nozzles` tips of a column from the back, where its
  /// front nozzle H1 goes; its idle nozzles pass behind them, over tips
  /// already taken (partial tips are never returned to the rack).
  std::string freshTip(unsigned nozzles = 1) {
    unsigned position = 0;
    char row = 'A';
    if (multi() && nozzles < 8) {
      if (!partialColumn || partialTaken + nozzles > 8) {
        partialColumn = nextTip++;
        partialTaken = 0;
      }
      position = *partialColumn;
      partialTaken += nozzles;
      row = static_cast<char>('A' + partialTaken - 1);
    } else {
      position = nextTip++;
    }
    unsigned rack = position / perRack(), within = position % perRack();
    racks = std::max(racks, rack + 1);
    if (multi())
      return fmt::format("{}_tips_{}[\"{}{}\"]", var, rack + 1, row, within + 1);
    return fmt::format("{}_tips_{}[\"{}{}\"]", var, rack + 1, static_cast<char>('A' + within % 8),
                       within / 8 + 1);
  }
};

/// One container a source liquid is drawn from.
struct SourceContainer {
  std::string labware; ///< Python variable
  std::string well;    ///< A1, or the reservoir column / tube
  double drawnUl = 0;
};

enum class SourceKind : uint8_t { Column, Large, Tube };

struct Source {
  SourceKind kind = SourceKind::Column;
  double needUl = 0; ///< measured by the planning walk
  std::vector<SourceContainer> containers;
};

/// A unit of pipetting: one well for a single channel, or a run of wells
/// down a column for an 8-channel: the whole column, or (a partial column)
/// 2 to 7 adjacent rows.
struct Unit {
  Well well;             ///< the run's top well
  unsigned channels = 1; ///< wells in the run
  bool multi() const { return channels > 1; }
};

class Emitter {
public:
  Emitter(const ir::Module &module, const Platform &platform, const SourceManager &sources,
          DiagnosticEngine &diags, const EmitOptions &options)
      : module_(module), platform_(platform), reservoir_(platform.reservoir()),
        sources_(sources), diags_(diags), options_(options) {}

  std::optional<std::string> run();

private:
  //--- the two walks ---------------------------------------------------------//
  void walk();
  void emitOp(const ir::Op &op);
  void emitManualBlock(size_t first, size_t last);
  void emitDispense(const ir::DispenseOp &dispense);
  void emitRemoval(const std::vector<ir::WellAmount> &amounts, bool reuse,
                   std::map<std::string, std::string> *parked, bool lastUse);
  void emitWash(const ir::Op &op, const ir::WashOp &wash);
  void emitMix(const ir::MixOp &mix, bool reuse);
  void emitTransfer(const ir::TransferOp &transfer, bool reuse);
  /// The pairs of a transfer as steps: indices into its pairs, in an
  /// order with the script's chemistry; a step of eight is a whole column
  /// moved by the 8-channel (when `columns`), rows A to H.
  std::vector<std::vector<size_t>> transferSteps(const ir::TransferOp &transfer,
                                                 bool columns) const;
  void emitIncubate(const ir::IncubateOp &incubate);
  void emitShake(const ir::ShakeOp &shake);
  /// The timed part of an incubation on the plate's holder; the lid
  /// pauses around it are emitIncubate's.
  void holdOnHeaterShaker(const ir::IncubateOp &incubate, bool heated);
  void holdOnTemperatureModule(const ir::IncubateOp &incubate);
  /// Where the OT-2 lacks a device: the row `id` (E603, E619, E620) with
  /// `args` and the robot's name, or with --manual-fallback a pause with
  /// `instruction`. `liftsPlate`: the operator takes the plate off the deck
  /// (a lid does not).
  template <typename... Args>
  void lacking(std::string instruction, bool liftsPlate, DiagId id, const Args &...args) {
    if (!options_.manualFallback)
      report(id, args..., platform_.robotType);
    else
      pauseForOperator(std::move(instruction), liftsPlate);
  }
  void pauseForOperator(std::string instruction, bool liftsPlate);

  //--- pipettes, tips, sources -------------------------------------------------//
  Mounted *pipetteFor(double volumeUl, bool multi);
  /// The units that serve `wells` (in their order): whole columns and,
  /// where partial pick-ups are allowed, runs of adjacent rows for the
  /// 8-channel when it is mounted and takes the volume; the rest one well
  /// at a time. `amountOf` (removals): a run's wells hold one volume.
  /// `parked`: the tips go back to the rack between uses, which Opentrons
  /// refuses for a partial column, so only whole columns go by 8-channel.
  std::vector<Unit> unitsOf(const std::vector<Well> &wells, double volumeUl, bool multiAllowed,
                            const std::map<Well, double> *amountOf = nullptr,
                            bool parked = false);
  /// Where the pipette goes for a unit: the top well for all eight
  /// nozzles (A1 leads), the run's bottom well for a partial column (H1
  /// leads, the other nozzles behind it).
  std::string target(const Unit &unit) const;
  /// `ul` per channel for `channels` channels at once.
  std::string draw(ir::LiquidId liquid, double ul, unsigned channels);
  /// Sets an 8-channel's nozzles to `channels` (whole column or partial)
  /// before a pick-up; a no-op when they already are.
  void configureNozzles(Mounted &pipette, unsigned channels);
  /// Picks up fresh tips for a unit of `channels`; returns their rack
  /// position (for a parked tip's later pick-up).
  std::string pickUpFresh(Mounted &pipette, unsigned channels);
  /// The operator replaces the pipette's racks with full ones at a pause.
  void swapRacks(Mounted &pipette, const std::string &why);
  void pickUpAt(Mounted &pipette, unsigned channels, const std::string &tip);
  /// Tips for a unit of `channels`: fresh ones, or with `reuse` the set the
  /// pipette already holds for the statement (`holding`: the nozzles each
  /// pipette's set was picked up with; a set for other nozzles replaces it).
  void tipsFor(Mounted &pipette, unsigned channels, bool reuse,
               std::map<Mounted *, unsigned> &holding);
  std::string wasteTop() const { return "waste[\"A1\"].top()"; }
  std::string pipetteRanges() const;
  using PipetteUnits = std::vector<std::pair<Mounted *, std::vector<Unit>>>;
  /// Units grouped by the mounted pipette that serves each; nullopt (after
  /// E506) when none takes the volume.
  /// One holder for the plate, since an OT-2 cannot move it: the
  /// temperature module when an incubation is below the heater-shaker's
  /// range and nothing shakes, else the heater-shaker as needed.
  void choosePlateHolder();
  std::optional<PipetteUnits> byPipette(const std::vector<Unit> &units, const Quantity &volume);
  /// Non-contact fills of `volume` each from `liquid`: the tip stays above
  /// the wells, so each trip fills as many as the tip holds.
  void fillFromAbove(Mounted &pipette, ir::LiquidId liquid, double volume,
                     const std::vector<Unit> &units);
  /// The largest volume one trip of a pipette with this many channels takes.
  double largestTrip(bool multi) const;
  /// How many equal trips move `volumeUl` into one well: 1 when a mounted
  /// pipette takes it, else enough trips of the largest pipette. The
  /// parts are equal, not "full tips and a rest", so that no trip falls
  /// below the pipette's minimum.
  unsigned tripsFor(double volumeUl) const;

  //--- output --------------------------------------------------------------------//
  void call(const std::string &code);
  void comment(const std::string &text);
  std::string lineComment() const;
  /// The deck and the protocol's head. With `reportFull`, a deck without
  /// room is E705; without, just nullopt (the caller retries without
  /// partial pick-ups).
  /// `caps`: when only tip racks lack slots, how many racks each pipette
  /// can have (the walk then swaps them at pauses); empty otherwise.
  std::optional<std::string> header(bool reportFull,
                                    std::map<std::string, unsigned> *caps = nullptr);
  /// The robot's time for the emitted calls, by the OT-2's timing model
  /// (ot2.toml): tips, each aspirate and dispense (a move, then the volume
  /// at the pipette's flow rate), mixes, delays, modules reaching their
  /// temperature. Read off the protocol itself, so that it counts what the
  /// robot is told to do; the operator's pauses are not counted.
  double estimateSeconds(const std::string &body) const;
  /// Clears what the emitting walk draws, so it can run again.
  void resetEmission();
  /// The planning walk, then the mounts and the kind of container per
  /// liquid; false after reporting the script's errors.
  bool plan();
  /// E701 where a declared volume is short of the need. False on errors.
  bool checkLoads();
  std::string lineOf(SourceLoc loc) const;

  template <typename... Args> void report(DiagId id, Args &&...args) {
    // The emitting walk repeats the planning walk with the pipettes that
    // walk chose; an error only it meets would leave a step out.
    PLATE_ASSERT(planning_, "ot2: the emitting walk met an error the planning walk did not");
    auto diag = diags_.report(id, op_ ? op_->loc : SourceLoc{}, std::forward<Args>(args)...);
    if (op_)
      diag.step(op_->step);
  }

  const ir::Module &module_;
  const Platform &platform_;
  const Container reservoir_;
  const SourceManager &sources_;
  DiagnosticEngine &diags_;
  const EmitOptions &options_;
  const Labware *plate_ = nullptr;

  bool planning_ = true;
  const ir::Op *op_ = nullptr;
  std::string body_;
  std::vector<Mounted> mounted_;
  std::map<ir::LiquidId, Source> sourcesByLiquid_;
  std::vector<ir::LiquidId> sourceOrder_;
  bool needsHeaterShaker_ = false;
  /// The plate sits on the temperature module for the whole run: the
  /// script keeps it below the heater-shaker's range and never shakes it
  /// (chosen before the walks, `choosePlateHolder`).
  bool onTemperatureModule_ = false;
  bool needsWaste_ = false;
  unsigned columnsUsed_ = 0, largeUsed_ = 0, tubesUsed_ = 0;
  /// Reservoir columns given out, and those the script fixes with
  /// `reservoir(1,c)` (kept for their reagent).
  std::set<unsigned> columnsTaken_, fixedColumns_;
  unsigned nextColumn_ = 0;
  bool columnTaken(unsigned index) const {
    return columnsTaken_.count(index) || fixedColumns_.count(index);
  }
  /// Partial-column pick-ups on the 8-channel are allowed in this walk /
  /// happened in it. Opentrons refuses a partially configured 8-channel
  /// over labware whose slot behind holds anything (its idle nozzles pass
  /// over it), so the deck plan keeps those slots empty, or the walk runs
  /// again without them.
  bool partialAllowed_ = true;
  bool usesPartial_ = false;
  /// Labware (Python variables) that a partial column aspirates from or
  /// dispenses into, besides the plate.
  std::set<std::string> partialTouched_;
  /// Where the run first needs each labware: E705 points at the statement
  /// whose labware no longer fits.
  std::map<std::string, SourceLoc> firstUse_;
  double robotSeconds_ = 0;
  /// Racks per pipette variable when the deck has too few slots for all.
  std::map<std::string, unsigned> rackCap_;
  /// The wash during which the racks ran out with its tips parked in them
  /// (no swap is possible there): where E705 points, with a note.
  std::optional<SourceLoc> swapBlockedAt_;
  /// The wash op and pipette of swapBlockedAt_.
  std::optional<std::pair<const ir::Op *, std::string>> blockedSwap_;
  /// Washes before which the racks of these pipettes (variables) are
  /// swapped for full ones while no tip is parked yet: learnt from the
  /// walk before, where the racks ran out with tips parked.
  std::map<const ir::Op *, std::set<std::string>> swapBefore_;
  /// Liquids a MANUAL dispense loads into plate wells: load_liquid needs
  /// them defined.
  std::vector<ir::LiquidId> plateLiquids_;
};

//--- output helpers ------------------------------------------------------------//

std::string Emitter::lineComment() const {
  if (!op_)
    return "deck setup";
  std::string text = backend::statementText(sources_, op_->loc.fileId, op_->loc.line);
  if (op_->loc.fileId != module_.fileId)
    return fmt::format("{} line {}: {}", sources_.name(op_->loc.fileId), op_->loc.line, text);
  return fmt::format("line {}: {}", op_->loc.line, text);
}

void Emitter::call(const std::string &code) {
  if (planning_)
    return;
  body_ += fmt::format("    {}  # {}\n", code, lineComment());
}

void Emitter::comment(const std::string &text) {
  if (!planning_)
    body_ += fmt::format("    # {}\n", text);
}

void Emitter::pauseForOperator(std::string instruction, bool liftsPlate) {
  // The plate is latched on a heater-shaker: the operator cannot lift it.
  bool unlatch = liftsPlate && needsHeaterShaker_;
  if (unlatch)
    call("heater_shaker.open_labware_latch()");
  call(fmt::format("protocol.pause({})", pyString(instruction)));
  if (unlatch)
    call("heater_shaker.close_labware_latch()");
}

//--- pipettes, tips and sources ---------------------------------------------------//

Mounted *Emitter::pipetteFor(double volumeUl, bool multi) {
  Mounted *best = nullptr;
  for (Mounted &candidate : mounted_) {
    if (candidate.multi() != multi)
      continue;
    if (volumeUl < candidate.pipette->minUl - kQuantitySlack ||
        volumeUl > candidate.pipette->maxUl + kQuantitySlack)
      continue;
    // The largest pipette that takes the volume: fewer trips, and the
    // P300 is the one every OT-2 has.
    if (!best || candidate.pipette->maxUl > best->pipette->maxUl)
      best = &candidate;
  }
  if (best)
    best->used = true;
  return best;
}

std::vector<Unit> Emitter::unitsOf(const std::vector<Well> &wells, double volumeUl,
                                   bool multiAllowed, const std::map<Well, double> *amountOf,
                                   bool parked) {
  std::vector<Unit> units;
  bool multi = multiAllowed && plate_->multichannel && module_.shape.rows == 8;
  if (multi) {
    // Planning asks for the 8-channel; emitting uses it only if mounted.
    bool mountedMulti = false;
    for (const Mounted &candidate : mounted_)
      mountedMulti |= candidate.multi() && volumeUl >= candidate.pipette->minUl - kQuantitySlack &&
                      volumeUl <= candidate.pipette->maxUl + kQuantitySlack;
    multi = mountedMulti;
  }
  if (!multi) {
    for (Well well : wells)
      units.push_back({well, 1});
    return units;
  }
  WellSet set;
  for (Well well : wells)
    set.insert(well);
  auto sameAmount = [&](Well a, Well b) {
    return !amountOf || std::abs(amountOf->at(a) - amountOf->at(b)) < kQuantitySlack;
  };
  // The run of adjacent rows (one volume) that each well heads; 0 for a
  // well inside a run. Indexed by (column, row): a map per call would
  // cost a wash of 96 wells an allocation per well and cycle.
  std::vector<unsigned> runAt((module_.shape.cols + 1) * 9, 0);
  auto runOf = [&](Well well) -> unsigned & { return runAt[well.col * 9 + well.row]; };
  for (unsigned col = 1; col <= module_.shape.cols; ++col) {
    for (unsigned row = 1; row <= 8;) {
      Well top{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
      if (!set.contains(top)) {
        ++row;
        continue;
      }
      unsigned length = 1;
      while (row + length <= 8) {
        Well next{static_cast<uint8_t>(row + length), static_cast<uint8_t>(col)};
        if (!set.contains(next) || !sameAmount(top, next))
          break;
        ++length;
      }
      // A partial column needs two nozzles at least; one well is a
      // single-channel unit.
      bool whole = length == 8;
      if (!whole && (!partialAllowed_ || parked || length < 2))
        length = 1;
      runOf(top) = length;
      row += length;
    }
  }
  for (Well well : wells) {
    unsigned length = runOf(well);
    if (length == 0)
      continue;
    units.push_back({well, length});
    if (length > 1 && length < 8)
      usesPartial_ = true;
  }
  return units;
}

std::string Emitter::target(const Unit &unit) const {
  Well primary = unit.well;
  if (unit.channels > 1 && unit.channels < 8)
    primary.row = static_cast<uint8_t>(unit.well.row + unit.channels - 1);
  return fmt::format("plate[\"{}\"]", primary.name());
}

void Emitter::configureNozzles(Mounted &pipette, unsigned channels) {
  if (!pipette.multi() || pipette.activeNozzles == channels)
    return;
  pipette.activeNozzles = channels;
  if (channels == pipette.pipette->channels)
    call(fmt::format("{}.configure_nozzle_layout(style=ALL)", pipette.var));
  else
    call(fmt::format("{}.configure_nozzle_layout(style=PARTIAL_COLUMN, start=\"H1\", "
                     "end=\"{}1\")",
                     pipette.var, static_cast<char>('A' + 8 - channels)));
}

void Emitter::swapRacks(Mounted &pipette, const std::string &why) {
  pauseForOperator(fmt::format("line {}: {}: replace its {} tip rack(s) (\"Tips for {}\") with "
                               "full ones, then resume",
                               op_ ? op_->loc.line : 0, why, pipette.rackCap,
                               pipette.pipette->label),
                   false);
  call(fmt::format("{}.reset_tipracks()", pipette.var));
  pipette.nextTip = 0;
  pipette.partialColumn.reset();
}

std::string Emitter::pickUpFresh(Mounted &pipette, unsigned channels) {
  if (pipette.beyondCap(channels) && pipette.parking && op_ && !swapBlockedAt_) {
    swapBlockedAt_ = op_->loc;
    blockedSwap_.emplace(op_, pipette.var);
  }
  // The racks on the deck are used up: the operator puts full ones in
  // their place and the pipette starts over from their first tip.
  if (pipette.beyondCap(channels) && !pipette.parking)
    swapRacks(pipette, fmt::format("the tips of the {} are used up", pipette.pipette->label));
  configureNozzles(pipette, channels);
  unsigned racksBefore = pipette.racks;
  std::string tip = pipette.freshTip(channels);
  if (pipette.racks > racksBefore && op_)
    firstUse_.emplace(fmt::format("{}_tips_{}", pipette.var, pipette.racks), op_->loc);
  call(fmt::format("{}.pick_up_tip({})", pipette.var, tip));
  return tip;
}

void Emitter::pickUpAt(Mounted &pipette, unsigned channels, const std::string &tip) {
  configureNozzles(pipette, channels);
  call(fmt::format("{}.pick_up_tip({})", pipette.var, tip));
}

void Emitter::tipsFor(Mounted &pipette, unsigned channels, bool reuse,
                      std::map<Mounted *, unsigned> &holding) {
  unsigned &held = holding[&pipette];
  if (reuse && held == channels)
    return;
  if (reuse && held)
    call(fmt::format("{}.drop_tip()", pipette.var));
  pickUpFresh(pipette, channels);
  held = channels;
}

std::string Emitter::draw(ir::LiquidId liquid, double ul, unsigned channels) {
  double total = ul * channels;
  Source &source = sourcesByLiquid_[liquid];
  if (planning_) {
    if (source.needUl == 0 && source.containers.empty())
      sourceOrder_.push_back(liquid);
    source.needUl += total;
    return "source";
  }
  const Container &kind = source.kind == SourceKind::Column  ? reservoir_
                          : source.kind == SourceKind::Large ? platform_.largeReservoir
                                                             : platform_.tubeRack;
  double usable = kind.capacityUl - kind.deadUl;
  if (source.containers.empty() ||
      source.containers.back().drawnUl + total > usable + kQuantitySlack) {
    SourceContainer container;
    switch (source.kind) {
    case SourceKind::Column: {
      // The script's `reservoir(1,c)` is column c of the first reservoir;
      // other reagents take the free columns in order.
      const ir::Liquid &declared = module_.liquid(liquid);
      unsigned index = 0;
      if (source.containers.empty() && declared.fixedPosition) {
        index = declared.fixedPosition->col - 1;
      } else {
        while (columnTaken(nextColumn_))
          ++nextColumn_;
        index = nextColumn_++;
      }
      columnsTaken_.insert(index);
      columnsUsed_ = std::max(columnsUsed_, index + 1);
      container.labware = fmt::format("reservoir_{}", index / kind.wells + 1);
      container.well = fmt::format("A{}", index % kind.wells + 1);
      break;
    }
    case SourceKind::Large:
      container.labware = fmt::format("trough_{}", ++largeUsed_);
      container.well = "A1";
      break;
    case SourceKind::Tube: {
      unsigned index = tubesUsed_++;
      unsigned within = index % kind.wells;
      container.labware = fmt::format("tubes_{}", index / kind.wells + 1);
      container.well = fmt::format("{}{}", static_cast<char>('A' + within % 4), within / 4 + 1);
      break;
    }
    }
    if (op_)
      firstUse_.emplace(container.labware, op_->loc);
    source.containers.push_back(container);
  }
  source.containers.back().drawnUl += total;
  if (channels > 1 && channels < 8)
    partialTouched_.insert(source.containers.back().labware);
  return fmt::format("{}[\"{}\"]", source.containers.back().labware,
                     source.containers.back().well);
}

std::string Emitter::pipetteRanges() const {
  std::string text;
  for (const Pipette &pipette : platform_.pipettes)
    text += fmt::format("{}{} {}..{} µL", text.empty() ? "" : ", ", pipette.label,
                        number(pipette.minUl), number(pipette.maxUl));
  return text;
}

double Emitter::largestTrip(bool multi) const {
  double largest = 0;
  for (const Mounted &candidate : mounted_)
    if (candidate.multi() == multi)
      largest = std::max(largest, candidate.pipette->maxUl);
  return largest;
}

unsigned Emitter::tripsFor(double volumeUl) const {
  double largest = std::max(largestTrip(false), largestTrip(true));
  if (largest <= 0 || volumeUl <= largest + kQuantitySlack)
    return 1;
  return static_cast<unsigned>(std::ceil(volumeUl / largest - kQuantitySlack));
}

std::optional<Emitter::PipetteUnits> Emitter::byPipette(const std::vector<Unit> &units,
                                                       const Quantity &volume) {
  // One group per pipette and nozzle count: a group shares a tip set.
  PipetteUnits groups;
  double part = volume.value / tripsFor(volume.value);
  for (const Unit &unit : units) {
    Mounted *pipette = pipetteFor(part, unit.multi());
    if (!pipette) {
      report(DiagId::PipetteRange, fmt::format("{}", volume), platform_.robotType,
             pipetteRanges());
      return std::nullopt;
    }
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto &entry) {
      return entry.first == pipette && entry.second.front().channels == unit.channels;
    });
    if (it == groups.end())
      groups.push_back({pipette, {unit}});
    else
      it->second.push_back(unit);
  }
  return groups;
}

void Emitter::fillFromAbove(Mounted &pipette, ir::LiquidId liquid, double volume,
                            const std::vector<Unit> &units) {
  unsigned channels = units.front().channels;
  if (unsigned trips = tripsFor(volume); trips > 1) {
    double part = volume / trips;
    for (const Unit &unit : units)
      for (unsigned trip = 0; trip < trips; ++trip) {
        call(fmt::format("{}.aspirate({}, {})", pipette.var, number(part),
                         draw(liquid, part, channels)));
        call(fmt::format("{}.dispense({}, {}.top())", pipette.var, number(part), target(unit)));
      }
    return;
  }
  size_t perTrip = std::max<size_t>(
      1, static_cast<size_t>(std::floor(pipette.pipette->maxUl / volume + kQuantitySlack)));
  for (size_t at = 0; at < units.size(); at += perTrip) {
    size_t count = std::min(perTrip, units.size() - at);
    call(fmt::format("{}.aspirate({}, {})", pipette.var, number(volume * count),
                     draw(liquid, volume * count, channels)));
    for (size_t i = 0; i < count; ++i)
      call(fmt::format("{}.dispense({}, {}.top())", pipette.var, number(volume),
                       target(units[at + i])));
  }
}

//--- statements ---------------------------------------------------------------------//

void Emitter::emitDispense(const ir::DispenseOp &dispense) {
  double volume = dispense.volume.value;
  bool shared = dispense.tips == ir::TipPolicy::PerSource || dispense.tips == ir::TipPolicy::Reuse;
  if (dispense.mix)
    shared = false; // mixing touches the well: per_well from then on (language §7)
  // reuse: one tip set per pipette for the statement; nozzles it was
  // picked up with (a set for other nozzles is a new pick-up).
  std::map<Mounted *, unsigned> holding;
  for (const ir::Portion &portion : dispense.portions) {
    const ir::Liquid &liquid = module_.liquid(portion.liquid);
    bool fromTubes = liquid.role != ir::LiquidRole::Reagent;
    unsigned trips = tripsFor(volume);
    double part = volume / trips;
    std::vector<Unit> units = unitsOf(portion.wells.columnMajor(), part, !fromTubes);
    // Per source: a tip (set) per pipette for the portion, several wells a trip.
    std::optional<PipetteUnits> groups = byPipette(units, dispense.volume);
    if (!groups)
      return;
    for (auto &[pipette, pipetteUnits] : *groups) {
      unsigned channels = pipetteUnits.front().channels;
      if (!shared) {
        for (const Unit &unit : pipetteUnits) {
          pickUpFresh(*pipette, channels);
          // Every trip but the last stays above the well: a tip that has
          // touched the well's liquid must not go back into the source.
          for (unsigned trip = 1; trip <= trips; ++trip) {
            call(fmt::format("{}.aspirate({}, {})", pipette->var, number(part),
                             draw(portion.liquid, part, channels)));
            call(fmt::format("{}.dispense({}, {}{})", pipette->var, number(part), target(unit),
                             trip < trips ? ".top()" : ""));
          }
          Mounted *mixer = pipette;
          if (dispense.mix && !pipette->takes(dispense.mix->volume.value)) {
            // The pipette that dispensed cannot mix that volume (5 µL by
            // the P20, mixed 50 µL): a fresh tip of one that can mixes.
            mixer = pipetteFor(dispense.mix->volume.value, unit.multi());
            if (!mixer) {
              report(DiagId::PipetteRange, fmt::format("{}", dispense.mix->volume),
                     platform_.robotType, pipetteRanges());
              return;
            }
            call(fmt::format("{}.drop_tip()", pipette->var));
            pickUpFresh(*mixer, channels);
          }
          if (dispense.mix)
            call(fmt::format("{}.mix({}, {}, {})", mixer->var, dispense.mix->cycles,
                             number(dispense.mix->volume.value), target(unit)));
          call(fmt::format("{}.drop_tip()", mixer->var));
        }
        continue;
      }
      bool reuse = dispense.tips == ir::TipPolicy::Reuse;
      tipsFor(*pipette, channels, reuse, holding);
      fillFromAbove(*pipette, portion.liquid, volume, pipetteUnits);
      if (!reuse)
        call(fmt::format("{}.drop_tip()", pipette->var));
    }
  }
  for (auto &[pipette, holds] : holding)
    if (holds && dispense.tips == ir::TipPolicy::Reuse)
      call(fmt::format("{}.drop_tip()", pipette->var));
}

void Emitter::emitRemoval(const std::vector<ir::WellAmount> &amounts, bool reuse,
                          std::map<std::string, std::string> *parked, bool lastUse) {
  needsWaste_ = true;
  std::map<Well, double> amountOf;
  std::vector<Well> wells;
  for (const ir::WellAmount &amount : amounts)
    if (amount.volume.value > kQuantitySlack) {
      amountOf[amount.well] = amount.volume.value;
      wells.push_back(amount.well);
    }
  // An 8-channel takes one volume per channel: a run of rows goes as one
  // unit only when its wells hold the same.
  std::vector<Unit> units = unitsOf(wells, amountOf.empty() ? 0 : amountOf.begin()->second, true,
                                    &amountOf, parked != nullptr);
  std::map<Mounted *, unsigned> holding;
  for (const Unit &unit : units) {
    double amount = amountOf[unit.well];
    // More than a tipful goes in several trips of the largest pipette.
    Mounted *pipette = pipetteFor(std::min(amount, largestTrip(unit.multi())), unit.multi());
    if (!pipette) {
      report(DiagId::PipetteRange, fmt::format("{}", Quantity::microliters(amount)),
             platform_.robotType, pipetteRanges());
      return;
    }
    if (unit.channels > 1 && unit.channels < 8)
      partialTouched_.insert("waste");
    std::string key = fmt::format("{}:{}:{}", pipette->var, unit.channels, unit.well.name());
    if (reuse) {
      tipsFor(*pipette, unit.channels, true, holding);
    } else if (parked && parked->count(key)) {
      pickUpAt(*pipette, unit.channels, parked->at(key));
    } else {
      std::string tip = pickUpFresh(*pipette, unit.channels);
      if (parked)
        (*parked)[key] = tip;
    }
    for (double left = amount; left > kQuantitySlack;) {
      double trip = std::min(left, pipette->pipette->maxUl);
      call(fmt::format("{}.aspirate({}, {})", pipette->var, number(trip), target(unit)));
      call(fmt::format("{}.dispense({}, {})", pipette->var, number(trip), wasteTop()));
      left -= trip;
    }
    if (!reuse)
      call(fmt::format("{}.{}()", pipette->var, parked && !lastUse ? "return_tip" : "drop_tip"));
  }
  for (auto &[pipette, holds] : holding)
    if (holds)
      call(fmt::format("{}.drop_tip()", pipette->var));
}

void Emitter::emitWash(const ir::Op &op, const ir::WashOp &wash) {
  bool reuse = op.tipsReuse || wash.tips == ir::TipPolicy::Reuse;
  // Removal tips are parked in their rack between cycles (language §8), so
  // no rack is swapped before the wash ends; where an earlier walk found
  // the racks running out inside it, they are swapped before it starts.
  if (auto before = swapBefore_.find(&op); before != swapBefore_.end())
    for (Mounted &pipette : mounted_)
      if (before->second.count(pipette.var) && pipette.nextTip > 0)
        swapRacks(pipette, fmt::format("this wash needs more tips of the {} than are left in "
                                       "its racks",
                                       pipette.pipette->label));
  for (Mounted &pipette : mounted_)
    pipette.parking = true;
  struct EndParking {
    std::vector<Mounted> &mounted;
    ~EndParking() {
      for (Mounted &pipette : mounted)
        pipette.parking = false;
    }
  } endParking{mounted_};
  std::map<std::string, std::string> parked;
  if (!wash.emptied.empty())
    emitRemoval(wash.emptied, reuse, &parked, false);
  std::vector<Well> wells = wash.wells.columnMajor();
  double volume = wash.volume.value;
  std::vector<ir::WellAmount> fill;
  for (Well well : wells)
    fill.push_back({well, wash.volume});
  // The fill is a non-contact per-source dispense; its tips are parked too.
  std::map<std::pair<Mounted *, unsigned>, std::string> fillTips;
  for (unsigned cycle = 1; cycle <= wash.cycles; ++cycle) {
    comment(fmt::format("wash cycle {} of {}", cycle, wash.cycles));
    std::optional<PipetteUnits> groups =
        byPipette(unitsOf(wells, volume / tripsFor(volume), true, nullptr, wash.cycles > 1),
                  wash.volume);
    if (!groups)
      return;
    for (auto &[pipette, units] : *groups) {
      unsigned channels = units.front().channels;
      auto key = std::make_pair(pipette, channels);
      if (!fillTips.count(key))
        fillTips[key] = pickUpFresh(*pipette, channels);
      else
        pickUpAt(*pipette, channels, fillTips[key]);
      fillFromAbove(*pipette, wash.reagent, volume, units);
      call(fmt::format("{}.{}()", pipette->var,
                       cycle == wash.cycles ? "drop_tip" : "return_tip"));
    }
    if (wash.soak)
      call(fmt::format("protocol.delay(seconds={})", number(wash.soak->value)));
    emitRemoval(fill, reuse, &parked, cycle == wash.cycles);
  }
}

void Emitter::emitMix(const ir::MixOp &mix, bool reuse) {
  std::map<Mounted *, unsigned> holding;
  for (const Unit &unit : unitsOf(mix.wells.columnMajor(), mix.volume.value, true)) {
    Mounted *pipette = pipetteFor(mix.volume.value, unit.multi());
    if (!pipette) {
      report(DiagId::PipetteRange, fmt::format("{}", mix.volume), platform_.robotType,
             pipetteRanges());
      return;
    }
    tipsFor(*pipette, unit.channels, reuse, holding);
    call(fmt::format("{}.mix({}, {}, {})", pipette->var, mix.cycles, number(mix.volume.value),
                     target(unit)));
    if (!reuse)
      call(fmt::format("{}.drop_tip()", pipette->var));
  }
  for (auto &[pipette, holds] : holding)
    if (holds && reuse)
      call(fmt::format("{}.drop_tip()", pipette->var));
}

std::vector<std::vector<size_t>> Emitter::transferSteps(const ir::TransferOp &transfer,
                                                         bool columns) const {
  // Two pairs that share a well keep their order (a serial dilution's next
  // pair draws the mixture the previous one left); any order that keeps
  // those has the chemistry of the script's. Each step takes the earliest
  // pair left and, when the other seven rows' pairs of the same two
  // columns are free to move up to it, all eight as one 8-channel position.
  const auto &pairs = transfer.pairs;
  size_t count = pairs.size();
  auto shares = [&](size_t a, size_t b) {
    return pairs[a].first == pairs[b].first || pairs[a].first == pairs[b].second ||
           pairs[a].second == pairs[b].first || pairs[a].second == pairs[b].second;
  };
  std::vector<unsigned> waitingOn(count, 0);
  std::vector<std::vector<size_t>> after(count);
  for (size_t later = 0; later < count; ++later)
    for (size_t earlier = 0; earlier < later; ++earlier)
      if (shares(earlier, later)) {
        ++waitingOn[later];
        after[earlier].push_back(later);
      }
  std::vector<bool> done(count, false);
  std::vector<std::vector<size_t>> steps;
  size_t next = 0;
  while (next < count) {
    std::vector<size_t> step{next};
    auto [from, to] = pairs[next];
    if (columns && from.col != to.col) {
      std::vector<size_t> rows(9, count);
      rows[from.row] = next;
      for (size_t other = next + 1; other < count; ++other) {
        auto [otherFrom, otherTo] = pairs[other];
        if (!done[other] && !waitingOn[other] && otherFrom.row == otherTo.row &&
            otherFrom.col == from.col && otherTo.col == to.col && rows[otherFrom.row] == count)
          rows[otherFrom.row] = other;
      }
      if (from.row == to.row && std::count(rows.begin() + 1, rows.end(), count) == 0)
        step.assign(rows.begin() + 1, rows.end());
    }
    for (size_t index : step) {
      done[index] = true;
      for (size_t waiting : after[index])
        --waitingOn[waiting];
    }
    steps.push_back(std::move(step));
    while (next < count && done[next])
      ++next;
  }
  return steps;
}

void Emitter::emitTransfer(const ir::TransferOp &transfer, bool reuse) {
  double volume = transfer.volume.value;
  unsigned trips = tripsFor(volume);
  double part = volume / trips;
  auto takes = [&](const Mounted &pipette) {
    return pipette.takes(part) && (!transfer.mix || pipette.takes(transfer.mix->volume.value));
  };
  // Whole columns on the 8-channel where the plate, the volume and the
  // mix allow it; every other pair on a single channel.
  bool columns = false;
  if (plate_->multichannel && module_.shape.rows == 8)
    for (const Mounted &candidate : mounted_)
      columns |= candidate.multi() && takes(candidate);
  std::vector<std::vector<size_t>> steps = transferSteps(transfer, columns);
  bool anySingle = std::any_of(steps.begin(), steps.end(),
                               [](const std::vector<size_t> &step) { return step.size() == 1; });
  Mounted *single = anySingle ? pipetteFor(part, false) : nullptr;
  if (anySingle && !single) {
    report(DiagId::PipetteRange, fmt::format("{}", transfer.volume), platform_.robotType,
           pipetteRanges());
    return;
  }
  bool anyWhole = steps.size() < transfer.pairs.size();
  Mounted *multi = anyWhole ? pipetteFor(part, true) : nullptr;
  PLATE_ASSERT(!anyWhole || multi, "ot2: a transfer grouped columns for an 8-channel that is not there");
  std::map<Mounted *, unsigned> holding;
  for (const std::vector<size_t> &step : steps) {
    bool whole = step.size() > 1;
    Mounted &pipette = whole ? *multi : *single;
    unsigned channels = whole ? 8 : 1;
    tipsFor(pipette, channels, reuse, holding);
    // An 8-channel position is named by its row A well.
    auto [from, to] = transfer.pairs[step.front()];
    for (unsigned trip = 0; trip < trips; ++trip) {
      call(fmt::format("{}.aspirate({}, plate[\"{}\"])", pipette.var, number(part), from.name()));
      call(fmt::format("{}.dispense({}, plate[\"{}\"])", pipette.var, number(part), to.name()));
    }
    if (transfer.mix)
      call(fmt::format("{}.mix({}, {}, plate[\"{}\"])", pipette.var, transfer.mix->cycles,
                       number(transfer.mix->volume.value), to.name()));
    if (!reuse) {
      call(fmt::format("{}.drop_tip()", pipette.var));
      holding[&pipette] = 0;
    }
  }
  for (auto &[pipette, holds] : holding)
    if (holds)
      call(fmt::format("{}.drop_tip()", pipette->var));
}

void Emitter::emitIncubate(const ir::IncubateOp &incubate) {
  double celsius = incubate.temperature.value;
  bool heated = celsius > platform_.roomTempMaxCelsius + kQuantitySlack;
  bool cooled = celsius < platform_.roomTempMinCelsius - kQuantitySlack;
  if (!onTemperatureModule_ &&
      (cooled || (heated && celsius < platform_.heaterMinCelsius - kQuantitySlack))) {
    // Only reached when the script also shakes (choosePlateHolder): the
    // plate stays on the heater-shaker, which cannot hold this temperature.
    std::string temperature = fmt::format("{}", incubate.temperature);
    lacking(fmt::format("line {}: incubate the plate at {} for {} s off the deck, put it back in "
                        "slot {}, then resume",
                        op_->loc.line, temperature, number(incubate.time.value),
                        platform_.samplePlateSlot),
            true, DiagId::ShakeTemperatureNotOnPlatform, temperature, temperature);
    return;
  }
  bool lid = incubate.lidOn || incubate.dark;
  if (lid)
    lacking(fmt::format("line {}: put the lid on the plate in slot {}{}, then resume",
                        op_->loc.line, platform_.samplePlateSlot,
                        incubate.dark ? " and keep it out of the light" : ""),
            false, DiagId::LidNotOnPlatform);
  if (onTemperatureModule_ && (heated || cooled))
    holdOnTemperatureModule(incubate);
  else
    holdOnHeaterShaker(incubate, heated);
  if (lid && options_.manualFallback) // without it, the error is reported once, above
    lacking(fmt::format("line {}: take the lid off the plate in slot {}, then resume",
                        op_->loc.line, platform_.samplePlateSlot),
            false, DiagId::LidNotOnPlatform);
}

void Emitter::holdOnHeaterShaker(const ir::IncubateOp &incubate, bool heated) {
  const Platform &module = platform_;
  double celsius = incubate.temperature.value;
  if (heated && celsius > module.heaterMaxCelsius + kQuantitySlack)
    report(DiagId::OutOfRange, "incubation temperature", fmt::format("{}", incubate.temperature),
           "heater-shaker", number(module.heaterMinCelsius),
           fmt::format("{} °C", number(module.heaterMaxCelsius)));
  if (incubate.shaking && (incubate.shaking->value < module.shakerMinRpm - kQuantitySlack ||
                           incubate.shaking->value > module.shakerMaxRpm + kQuantitySlack))
    report(DiagId::OutOfRange, "shaking speed", fmt::format("{}", *incubate.shaking),
           "heater-shaker", number(module.shakerMinRpm),
           fmt::format("{} rpm", number(module.shakerMaxRpm)));
  needsHeaterShaker_ |= heated || incubate.shaking.has_value();
  if (heated)
    call(fmt::format("heater_shaker.set_and_wait_for_temperature({})", number(celsius)));
  if (incubate.shaking)
    call(fmt::format("heater_shaker.set_and_wait_for_shake_speed({})",
                     number(incubate.shaking->value)));
  call(fmt::format("protocol.delay(seconds={})", number(incubate.time.value)));
  if (incubate.shaking)
    call("heater_shaker.deactivate_shaker()");
  if (heated)
    call("heater_shaker.deactivate_heater()");
}

void Emitter::holdOnTemperatureModule(const ir::IncubateOp &incubate) {
  double celsius = incubate.temperature.value;
  if (celsius < platform_.coolerMinCelsius - kQuantitySlack ||
      celsius > platform_.coolerMaxCelsius + kQuantitySlack)
    report(DiagId::OutOfRange, "incubation temperature", fmt::format("{}", incubate.temperature),
           "temperature module", number(platform_.coolerMinCelsius),
           fmt::format("{} °C", number(platform_.coolerMaxCelsius)));
  call(fmt::format("temperature_module.set_temperature({})", number(celsius)));
  call(fmt::format("protocol.delay(seconds={})", number(incubate.time.value)));
  call("temperature_module.deactivate()");
}

void Emitter::choosePlateHolder() {
  bool shakes = false, belowHeaterShaker = false;
  for (const ir::Op &op : module_.ops) {
    if (op.manual)
      continue;
    if (op.as<ir::ShakeOp>())
      shakes = true;
    if (const auto *incubate = op.as<ir::IncubateOp>()) {
      double celsius = incubate->temperature.value;
      shakes |= incubate->shaking.has_value();
      bool offRoom = celsius < platform_.roomTempMinCelsius - kQuantitySlack ||
                     celsius > platform_.roomTempMaxCelsius + kQuantitySlack;
      belowHeaterShaker |= offRoom && celsius < platform_.heaterMinCelsius - kQuantitySlack;
    }
  }
  onTemperatureModule_ = belowHeaterShaker && !shakes;
}

void Emitter::emitShake(const ir::ShakeOp &shake) {
  if (shake.speed.value < platform_.shakerMinRpm - kQuantitySlack ||
      shake.speed.value > platform_.shakerMaxRpm + kQuantitySlack)
    report(DiagId::OutOfRange, "shaking speed", fmt::format("{}", shake.speed), "heater-shaker",
           number(platform_.shakerMinRpm), fmt::format("{} rpm", number(platform_.shakerMaxRpm)));
  needsHeaterShaker_ = true;
  call(fmt::format("heater_shaker.set_and_wait_for_shake_speed({})", number(shake.speed.value)));
  call(fmt::format("protocol.delay(seconds={})", number(shake.time.value)));
  call("heater_shaker.deactivate_shaker()");
}

void Emitter::emitManualBlock(size_t first, size_t last) {
  std::string text = "Do by hand, then resume:";
  for (size_t i = first; i <= last; ++i) {
    const ir::Op &op = module_.ops[i];
    text += fmt::format("\n- line {}: {}", op.loc.line,
                        backend::statementText(sources_, op.loc.fileId, op.loc.line));
  }
  op_ = &module_.ops[first];
  call(fmt::format("protocol.pause({})", pyString(text)));
  // What the hand work leaves in the wells, so the Opentrons App shows it
  // and the run's well volumes start from it. Opentrons can record liquid
  // put into a well, not liquid taken out: a removal by hand within the
  // block takes back what the block put in (a wash, `aspirate all`, or a
  // volume in proportion); what the robot put in before is not in its
  // record (docs/porting.md).
  std::vector<std::pair<Well, ir::LiquidId>> order;
  std::map<Well, std::map<ir::LiquidId, double>> left;
  auto takeOut = [&](Well well, std::optional<double> ul) {
    auto it = left.find(well);
    if (it == left.end())
      return;
    double total = 0;
    for (const auto &[liquid, amount] : it->second)
      total += amount;
    double keep = !ul || total <= kQuantitySlack ? 0 : std::max(0.0, 1 - *ul / total);
    for (auto &[liquid, amount] : it->second)
      amount *= keep;
  };
  for (size_t i = first; i <= last; ++i) {
    const ir::Op &op = module_.ops[i];
    if (const auto *dispense = op.as<ir::DispenseOp>()) {
      for (const ir::Portion &portion : dispense->portions)
        for (Well well : portion.wells.columnMajor()) {
          if (!left[well].count(portion.liquid))
            order.push_back({well, portion.liquid});
          left[well][portion.liquid] += dispense->volume.value;
        }
    } else if (const auto *aspirate = op.as<ir::AspirateOp>()) {
      for (Well well : aspirate->wells.columnMajor())
        takeOut(well, aspirate->volume ? std::optional<double>(aspirate->volume->value)
                                       : std::nullopt);
    } else if (const auto *wash = op.as<ir::WashOp>()) {
      for (Well well : wash->wells.columnMajor())
        takeOut(well, std::nullopt); // a wash ends with the wells emptied
    }
  }
  for (const auto &[well, liquid] : order) {
    double amount = left[well][liquid];
    if (amount <= kQuantitySlack)
      continue;
    op_ = nullptr;
    for (size_t i = first; i <= last && !op_; ++i)
      if (const auto *dispense = module_.ops[i].as<ir::DispenseOp>())
        for (const ir::Portion &portion : dispense->portions)
          if (portion.liquid == liquid && portion.wells.contains(well))
            op_ = &module_.ops[i];
    if (std::find(plateLiquids_.begin(), plateLiquids_.end(), liquid) == plateLiquids_.end())
      plateLiquids_.push_back(liquid);
    call(fmt::format("plate[\"{}\"].load_liquid(liquid_{}, {})", well.name(),
                     module_.liquid(liquid).name, number(amount)));
  }
}

void Emitter::emitOp(const ir::Op &op) {
  op_ = &op;
  bool reuse = op.tipsReuse;
  std::visit(
      [&](const auto &payload) {
        using T = std::decay_t<decltype(payload)>;
        if constexpr (std::is_same_v<T, ir::DispenseOp>) {
          emitDispense(payload);
        } else if constexpr (std::is_same_v<T, ir::AspirateOp>) {
          std::vector<ir::WellAmount> amounts = payload.resolved;
          if (amounts.empty() && payload.volume)
            for (Well well : payload.wells.columnMajor())
              amounts.push_back({well, *payload.volume});
          emitRemoval(amounts, reuse || payload.tips == ir::TipPolicy::Reuse, nullptr, true);
        } else if constexpr (std::is_same_v<T, ir::WashOp>) {
          emitWash(op, payload);
        } else if constexpr (std::is_same_v<T, ir::IncubateOp>) {
          emitIncubate(payload);
        } else if constexpr (std::is_same_v<T, ir::ShakeOp>) {
          emitShake(payload);
        } else if constexpr (std::is_same_v<T, ir::MixOp>) {
          emitMix(payload, reuse || payload.tips == ir::TipPolicy::Reuse);
        } else if constexpr (std::is_same_v<T, ir::TransferOp>) {
          emitTransfer(payload, reuse || payload.tips == ir::TipPolicy::Reuse);
        } else if constexpr (std::is_same_v<T, ir::MagnetOp>) {
          lacking(fmt::format("line {}: hold the plate on a magnet for {} s, put it back in "
                              "slot {}, then resume",
                              op.loc.line, number(payload.time.value), platform_.samplePlateSlot),
                  true, DiagId::NotOnPlatform, "magnet", "a magnetic module");
        } else if constexpr (std::is_same_v<T, ir::ReadAbsorbanceOp>) {
          std::string reference =
              payload.reference ? fmt::format(" with reference {} nm", number(payload.reference->value))
                                : "";
          lacking(fmt::format("line {}: read absorbance at {} nm{} of wells {} on your plate "
                              "reader (lid off), put the plate back in slot {}, then resume",
                              op.loc.line, number(payload.wavelength.value), reference,
                              module_.readWells(payload.wells).str(), platform_.samplePlateSlot),
                  true, DiagId::NotOnPlatform, "read absorbance", "a plate reader");
        } else if constexpr (std::is_same_v<T, ir::ReadFluorescenceOp>) {
          lacking(fmt::format("line {}: read fluorescence (excitation {} nm, emission {} nm) of "
                              "wells {} on your plate reader, put the plate back in slot {}, "
                              "then resume",
                              op.loc.line, number(payload.excitation.value),
                              number(payload.emission.value),
                              module_.readWells(payload.wells).str(), platform_.samplePlateSlot),
                  true, DiagId::NotOnPlatform, "read fluorescence", "a plate reader");
        } else if constexpr (std::is_same_v<T, ir::AnalyzeOp>) {
          comment(fmt::format("{}: the analysis is done on the reader's data, not by the robot",
                              lineComment()));
        } else if constexpr (std::is_same_v<T, ir::WaitOp>) {
          call(fmt::format("protocol.delay(seconds={})", number(payload.time.value)));
        } else if constexpr (std::is_same_v<T, ir::PauseOp>) {
          call(fmt::format("protocol.pause({})", pyString(payload.message)));
        } else if constexpr (std::is_same_v<T, ir::NoteOp>) {
          call(fmt::format("protocol.comment({})", pyString(payload.text)));
        } else if constexpr (std::is_same_v<T, ir::PrepareOp> ||
                             std::is_same_v<T, ir::EquilibrateOp>) {
          // MANUAL-only statements: emitManualBlock handles them.
        } else {
          PLATE_ASSERT(false, "the OT-2 emitter takes the module before lowering");
        }
      },
      op.payload);
}

void Emitter::walk() {
  body_.clear();
  for (size_t i = 0; i < module_.ops.size();) {
    if (module_.ops[i].manual) {
      size_t last = i;
      while (last + 1 < module_.ops.size() && module_.ops[last + 1].manual)
        ++last;
      emitManualBlock(i, last);
      i = last + 1;
      continue;
    }
    emitOp(module_.ops[i]);
    ++i;
  }
  op_ = nullptr;
}

//--- deck and header ---------------------------------------------------------------//

std::string Emitter::lineOf(SourceLoc loc) const {
  return fmt::format("line {}: {}", loc.line, backend::statementText(sources_, loc.fileId, loc.line));
}

/// Rounds a load up to what an operator measures: 0.1 mL, or 10 µL in a tube.
double roundedLoad(double ul, bool tube) {
  double step = tube ? 10 : 100;
  return std::ceil(ul / step - kQuantitySlack) * step;
}

bool Emitter::checkLoads() {
  bool ok = true;
  for (ir::LiquidId id : sourceOrder_) {
    const Source &source = sourcesByLiquid_.at(id);
    const ir::Liquid &liquid = module_.liquid(id);
    const Container &kind = source.kind == SourceKind::Column  ? reservoir_
                            : source.kind == SourceKind::Large ? platform_.largeReservoir
                                                               : platform_.tubeRack;
    double need = 0;
    for (const SourceContainer &container : source.containers)
      need += container.drawnUl;
    double withDead = need + kind.deadUl * source.containers.size();
    if (liquid.declaredVolume && liquid.declaredVolume->value + kQuantitySlack < withDead) {
      diags_.report(DiagId::ReagentShortfall, liquid.loc, liquid.name,
                    fmt::format("{} mL", number(liquid.declaredVolume->value / 1000)),
                    fmt::format("{} mL", number(withDead / 1000)),
                    fmt::format("{} mL", number(kind.deadUl * source.containers.size() / 1000)),
                    fmt::format("{} mL", number(roundedLoad(withDead, false) / 1000)));
      ok = false;
    }
  }
  return ok;
}

std::optional<std::string> Emitter::header(bool reportFull,
                                           std::map<std::string, unsigned> *caps) {
  std::string out;
  out += fmt::format("# {}\n# An Opentrons Protocol API {} protocol for the {}, written by\n"
                     "# `plate compile --platform ot2` from {}. Each call names the script line\n"
                     "# it comes from; change the script, not this file.\n"
                     "# Robot time, estimated: {} (the operator's pauses not counted; plate's\n"
                     "# timing model of the OT-2 in stdlib/platforms/opentrons/ot2.toml).\n",
                     module_.title.empty() ? options_.sourceName : module_.title,
                     platform_.apiLevel, platform_.robotType, options_.sourceName,
                     backend::formatDuration(robotSeconds_));
  out += "from opentrons import protocol_api\n";
  if (usesPartial_)
    out += "from opentrons.protocol_api import ALL, PARTIAL_COLUMN\n";
  out += "\n";
  out += fmt::format("metadata = {{\n    \"protocolName\": {},\n    \"author\": \"plate\",\n"
                     "    \"source\": {},\n}}\n",
                     pyString(module_.title.empty() ? options_.sourceName : module_.title),
                     pyString(options_.sourceName));
  out += fmt::format("requirements = {{\"robotType\": {}, \"apiLevel\": {}}}\n\n\n",
                     pyString(platform_.robotType), pyString(platform_.apiLevel));
  out += "def run(protocol: protocol_api.ProtocolContext) -> None:\n";

  // Labware other than tip racks first, then the racks.
  struct Item {
    std::string var, loadName, label;
    bool tipRack = false;
    bool multiRack = false; ///< the 8-channel's
  };
  std::vector<Item> items;
  if (needsWaste_)
    items.push_back({"waste", platform_.solutionWasteLoadName, "Liquid waste", false});
  for (unsigned i = 0; i * reservoir_.wells < columnsUsed_; ++i)
    items.push_back({fmt::format("reservoir_{}", i + 1), reservoir_.loadName,
                     "Reagents", false});
  for (unsigned i = 0; i < largeUsed_; ++i)
    items.push_back({fmt::format("trough_{}", i + 1), platform_.largeReservoir.loadName,
                     "Reagent trough", false});
  for (unsigned i = 0; i * platform_.tubeRack.wells < tubesUsed_; ++i)
    items.push_back({fmt::format("tubes_{}", i + 1), platform_.tubeRack.loadName,
                     "Blanks, calibrants, samples, controls", false});
  bool multi = false;
  for (Mounted &pipette : mounted_) {
    multi |= pipette.multi();
    for (unsigned rack = 0; rack < std::max(1u, pipette.racks); ++rack)
      items.push_back({fmt::format("{}_tips_{}", pipette.var, rack + 1), pipette.pipette->tipRack,
                       fmt::format("Tips for {}", pipette.pipette->label), true, pipette.multi()});
  }
  // Beside a heater-shaker the 8-channel may not go left or right, and in
  // front or behind only to a tip rack (Opentrons' movement rules).
  bool guarded = needsHeaterShaker_ && multi;
  // With partial columns: the slot behind the plate and behind each
  // labware a partial column works in stays empty (or is off the deck),
  // and the 8-channel's racks are not in the back row, where a partial
  // pick-up would take its idle nozzles past the deck's end. Those
  // labware take their slots first.
  std::set<std::string> taken{platform_.tipWasteSlot}, blocked;
  auto behind = [&](const std::string &slot) -> std::optional<std::string> {
    auto it = platform_.slotBehind.find(slot);
    if (it == platform_.slotBehind.end())
      return std::nullopt;
    return it->second;
  };
  auto touched = [&](const Item &item) {
    return usesPartial_ && partialTouched_.count(item.var) > 0;
  };
  if (usesPartial_)
    if (auto slot = behind(platform_.samplePlateSlot))
      blocked.insert(*slot);
  // The back row first for the labware partial columns work in: nothing
  // is behind it.
  std::vector<std::string> backFirst = platform_.freeSlots;
  std::stable_partition(backFirst.begin(), backFirst.end(),
                        [&](const std::string &slot) { return !behind(slot); });
  auto take = [&](const Item &item) -> std::optional<std::string> {
    for (const std::string &slot : touched(item) ? backFirst : platform_.freeSlots) {
      if (taken.count(slot) || blocked.count(slot))
        continue;
      if (guarded && slot == "2")
        continue;
      if (guarded && slot == "4" && !item.tipRack)
        continue;
      std::optional<std::string> back = behind(slot);
      if (usesPartial_ && item.multiRack && !back)
        continue;
      if (touched(item) && back && taken.count(*back))
        continue;
      taken.insert(slot);
      if (touched(item) && back)
        blocked.insert(*back);
      return slot;
    }
    return std::nullopt;
  };
  std::string deck;
  std::string plateLabel = fmt::format("Sample plate ({})", module_.plateType);
  if (onTemperatureModule_) {
    deck += fmt::format("    temperature_module = protocol.load_module({}, {})  # deck setup\n",
                        pyString(platform_.coolerModule),
                        pyString(platform_.samplePlateSlot));
    deck += fmt::format("    adapter = temperature_module.load_adapter({})  # deck setup\n",
                        pyString(platform_.coolerAdapter));
    deck += fmt::format("    plate = adapter.load_labware({}, {})  # deck setup\n",
                        pyString(plate_->loadName), pyString(plateLabel));
  } else if (needsHeaterShaker_) {
    deck += fmt::format("    heater_shaker = protocol.load_module({}, {})  # deck setup\n",
                        pyString(platform_.heaterModule), pyString(platform_.samplePlateSlot));
    deck += fmt::format("    adapter = heater_shaker.load_adapter({})  # deck setup\n",
                        pyString(platform_.heaterAdapter));
    deck += fmt::format("    plate = adapter.load_labware({}, {})  # deck setup\n",
                        pyString(plate_->loadName), pyString(plateLabel));
  } else {
    deck += fmt::format("    plate = protocol.load_labware({}, {}, {})  # deck setup\n",
                        pyString(plate_->loadName), pyString(platform_.samplePlateSlot),
                        pyString(plateLabel));
  }
  std::vector<std::string> unplaced;
  std::map<std::string, std::string> slotOf;
  for (bool first : {true, false})
    for (const Item &item : items) {
      if (touched(item) != first)
        continue;
      if (std::optional<std::string> slot = take(item))
        slotOf[item.var] = *slot;
      else
        unplaced.push_back(item.var);
    }
  if (!unplaced.empty()) {
    if (caps) {
      // Only racks left over: the slots the racks did get, shared out so
      // that each pipette keeps one and the busiest get the rest.
      unsigned rackSlots = 0;
      bool onlyRacks = true;
      for (const Item &item : items)
        if (std::find(unplaced.begin(), unplaced.end(), item.var) == unplaced.end())
          rackSlots += item.tipRack;
        else
          onlyRacks &= item.tipRack;
      std::vector<Mounted *> holders;
      for (Mounted &pipette : mounted_)
        if (pipette.racks > 0)
          holders.push_back(&pipette);
      if (onlyRacks && rackSlots >= holders.size()) {
        for (Mounted *pipette : holders)
          (*caps)[pipette->var] = 1;
        for (unsigned left = rackSlots - holders.size(); left > 0; --left) {
          Mounted *busiest = nullptr;
          for (Mounted *pipette : holders)
            if ((*caps)[pipette->var] < pipette->racks &&
                (!busiest || pipette->racks - (*caps)[pipette->var] >
                                 busiest->racks - (*caps)[busiest->var]))
              busiest = pipette;
          if (!busiest)
            break;
          ++(*caps)[busiest->var];
        }
      }
    }
    if (!reportFull)
      return std::nullopt;
    size_t free = platform_.freeSlots.size() - (guarded ? 1 : 0);
    auto first = firstUse_.find(unplaced.front());
    SourceLoc at = swapBlockedAt_ ? *swapBlockedAt_
                   : first == firstUse_.end() ? SourceLoc{}
                                              : first->second;
    auto diag = diags_.report(DiagId::DeckFull, at, items.size() + 1,
                              fmt::format("{}", fmt::join(unplaced, ", ")), platform_.robotType,
                              free + 1);
    if (swapBlockedAt_)
      diag.note(at, "this wash keeps its tips in the racks between cycles and needs more of "
                    "them than the racks that fit hold, so they cannot be swapped for full "
                    "ones during it; `tips reuse` on the wash keeps one tip for all its wells "
                    "if the assay allows it");
    return std::nullopt;
  }
  for (const Item &item : items)
    deck += fmt::format("    {} = protocol.load_labware({}, {}, {})  # deck setup\n", item.var,
                        pyString(item.loadName), pyString(slotOf.at(item.var)),
                        pyString(item.label));
  for (Mounted &pipette : mounted_) {
    std::vector<std::string> racks;
    for (unsigned rack = 0; rack < std::max(1u, pipette.racks); ++rack)
      racks.push_back(fmt::format("{}_tips_{}", pipette.var, rack + 1));
    deck += fmt::format("    {} = protocol.load_instrument({}, {}, tip_racks=[{}])  # deck setup\n",
                        pipette.var, pyString(pipette.pipette->name), pyString(pipette.mount),
                        fmt::join(racks, ", "));
  }
  out += deck;

  // Liquids: what the operator loads where, as the Opentrons App shows it.
  static const char *const kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  std::vector<ir::LiquidId> defined = sourceOrder_;
  for (ir::LiquidId id : plateLiquids_)
    if (std::find(defined.begin(), defined.end(), id) == defined.end())
      defined.push_back(id);
  size_t color = 0;
  for (ir::LiquidId id : defined) {
    const ir::Liquid &liquid = module_.liquid(id);
    out += fmt::format("    liquid_{} = protocol.define_liquid({}, description={}, "
                       "display_color=\"{}\")  # {}\n",
                       liquid.name, pyString(liquid.name), pyString(std::string(roleName(liquid.role))),
                       kColors[color++ % std::size(kColors)], lineOf(liquid.loc));
  }
  for (ir::LiquidId id : sourceOrder_) {
    const Source &source = sourcesByLiquid_.at(id);
    const ir::Liquid &liquid = module_.liquid(id);
    bool tube = source.kind == SourceKind::Tube;
    const Container &kind = source.kind == SourceKind::Column  ? reservoir_
                            : source.kind == SourceKind::Large ? platform_.largeReservoir
                                                               : platform_.tubeRack;
    for (const SourceContainer &container : source.containers) {
      double load = roundedLoad(container.drawnUl + kind.deadUl, tube);
      // One container: what the script declares, if more, as far as it fits.
      if (source.containers.size() == 1 && liquid.declaredVolume)
        load = std::max(load, std::min(liquid.declaredVolume->value, kind.capacityUl));
      out += fmt::format("    {}[\"{}\"].load_liquid(liquid_{}, {})  # {}\n", container.labware,
                         container.well, liquid.name, number(load), lineOf(liquid.loc));
    }
  }
  if (needsHeaterShaker_)
    out += "    heater_shaker.close_labware_latch()  # deck setup: holds the plate for pipetting and shaking\n";
  out += "\n";
  return out;
}

std::optional<std::string> Emitter::run() {
  // Semantic analysis checked the plate type against this platform's
  // labware (E604 or E209 at the `plate` line).
  plate_ = platform_.findLabware(module_.plateType);
  PLATE_ASSERT(plate_, "ot2: the module was checked against another platform than " +
                           platform_.name);
  choosePlateHolder();
  // Attempts in order of preference: partial columns, then without them
  // (as many trips, no pause); then, where only tip racks lack slots, the
  // same with as many racks as fit, swapped for full ones at pauses.
  struct Attempt {
    bool partial, capped;
  };
  const Attempt attempts[] = {{true, false}, {false, false}, {true, true}, {false, true}};
  std::map<bool, std::map<std::string, unsigned>> capsFor;
  auto emit = [&](const Attempt &attempt, bool reportFull) -> std::optional<std::string> {
    partialAllowed_ = attempt.partial;
    rackCap_ = attempt.capped ? capsFor[attempt.partial] : std::map<std::string, unsigned>{};
    if (!plan())
      return std::nullopt;
    resetEmission();
    planning_ = false;
    walk();
    std::string body = std::move(body_);
    if (!checkLoads())
      return std::nullopt;
    robotSeconds_ = estimateSeconds(body);
    std::map<std::string, unsigned> caps;
    std::optional<std::string> deck = header(reportFull, &caps);
    if (!attempt.capped)
      capsFor[attempt.partial] = std::move(caps);
    if (!deck)
      return std::nullopt;
    return *deck + body;
  };
  std::optional<SourceLoc> blockedAt;
  for (const Attempt &attempt : attempts) {
    if (attempt.capped && capsFor[attempt.partial].empty())
      continue;
    swapBefore_.clear();
    for (;;) {
      if (std::optional<std::string> protocol = emit(attempt, false))
        return protocol;
      if (diags_.hasErrors())
        return std::nullopt;
      // A wash ran out of racks with tips parked: swap them before it
      // starts and walk again, unless that was done and it still runs out
      // (the wash alone needs more tips than the racks that fit).
      if (!attempt.capped || !blockedSwap_ ||
          !swapBefore_[blockedSwap_->first].insert(blockedSwap_->second).second)
        break;
    }
    if (attempt.capped && swapBlockedAt_ && !blockedAt)
      blockedAt = swapBlockedAt_;
  }
  swapBefore_.clear();
  // E705 for the plainest attempt, at the wash that kept its racks when
  // a swap would have made room.
  emit({false, false}, false);
  swapBlockedAt_ = blockedAt;
  header(true);
  return std::nullopt;
}

bool Emitter::plan() {
  // Planning: every pipette available.
  mounted_.clear();
  for (const Pipette &pipette : platform_.pipettes) {
    std::string var = pipette.name.substr(0, pipette.name.find('_'));
    if (pipette.channels > 1)
      var[0] = 'm';
    Mounted mounted;
    mounted.pipette = &pipette;
    mounted.var = var;
    mounted.activeNozzles = pipette.channels;
    mounted_.push_back(mounted);
  }
  sourcesByLiquid_.clear();
  sourceOrder_.clear();
  fixedColumns_.clear();
  plateLiquids_.clear();
  needsHeaterShaker_ = needsWaste_ = false;
  resetEmission();
  planning_ = true;
  walk();
  if (diags_.hasErrors())
    return false;

  // Two mounts. An 8-channel only saves trips: when a small volume needs a
  // third pipette, the 8-channel gives way and its columns go one well at
  // a time.
  std::vector<Mounted> used;
  for (const Mounted &candidate : mounted_)
    if (candidate.used)
      used.push_back(candidate);
  if (used.size() > 2)
    used.erase(std::remove_if(used.begin(), used.end(),
                              [](const Mounted &candidate) { return candidate.multi(); }),
               used.end());
  for (size_t i = 0; i < used.size(); ++i)
    used[i].mount = i == 0 ? "left" : "right";
  mounted_ = used;

  // Source containers: a reagent in a reservoir column when it fits one,
  // else in a trough of its own; layout liquids in tubes.
  for (auto &[id, source] : sourcesByLiquid_) {
    const ir::Liquid &liquid = module_.liquid(id);
    if (liquid.role != ir::LiquidRole::Reagent)
      source.kind = SourceKind::Tube;
    else if (source.needUl + reservoir_.deadUl <= reservoir_.capacityUl + kQuantitySlack)
      source.kind = SourceKind::Column;
    else
      source.kind = SourceKind::Large;
    if (source.kind == SourceKind::Column && liquid.fixedPosition)
      fixedColumns_.insert(liquid.fixedPosition->col - 1);
  }
  return true;
}

double Emitter::estimateSeconds(const std::string &body) const {
  const TimingModel &timing = platform_.timing;
  std::map<std::string, double> flow; // pipette variable -> µL/s
  for (const Mounted &pipette : mounted_)
    flow[pipette.var] = pipette.pipette->flowUlPerSecond > 0 ? pipette.pipette->flowUlPerSecond
                                                              : timing.pipetteUlPerSecond;
  // The number after `text` in `line`, e.g. the volume of `.aspirate(`.
  auto numberAfter = [](std::string_view line, std::string_view text) {
    size_t at = line.find(text);
    return at == std::string_view::npos ? 0.0
                                        : std::strtod(std::string(line.substr(at + text.size())).c_str(), nullptr);
  };
  double seconds = 0;
  size_t start = 0;
  while (start < body.size()) {
    size_t end = body.find('\n', start);
    if (end == std::string::npos)
      end = body.size();
    std::string_view line(body.data() + start, end - start);
    start = end + 1;
    // `    m300.aspirate(100, ...)  # line 4: ...`: the call before the comment.
    line = line.substr(0, line.find("  # "));
    size_t dot = line.find('.');
    if (dot == std::string_view::npos)
      continue;
    std::string object(line.substr(line.find_first_not_of(' '), dot - line.find_first_not_of(' ')));
    std::string_view call = line.substr(dot + 1);
    auto rate = flow.find(object);
    if (call.starts_with("pick_up_tip(") || call.starts_with("drop_tip(") ||
        call.starts_with("return_tip(")) {
      seconds += timing.tipSeconds;
    } else if (rate != flow.end() &&
               (call.starts_with("aspirate(") || call.starts_with("dispense("))) {
      seconds += timing.pipetteBaseSeconds + numberAfter(call, "(") / rate->second;
    } else if (rate != flow.end() && call.starts_with("mix(")) {
      double cycles = numberAfter(call, "(");
      double volume = numberAfter(call, ", ");
      seconds += timing.pipetteBaseSeconds + 2 * cycles * volume / rate->second;
    } else if (call.starts_with("delay(seconds=")) {
      seconds += numberAfter(call, "=");
    } else if (call.starts_with("set_and_wait_for_temperature(") ||
               call.starts_with("set_temperature(")) {
      seconds += timing.heaterSettleSeconds;
    }
  }
  return seconds;
}

void Emitter::resetEmission() {
  body_.clear();
  columnsUsed_ = largeUsed_ = tubesUsed_ = 0;
  columnsTaken_.clear();
  nextColumn_ = 0;
  usesPartial_ = false;
  partialTouched_.clear();
  firstUse_.clear();
  for (auto &[id, source] : sourcesByLiquid_)
    source.containers.clear();
  for (Mounted &pipette : mounted_) {
    pipette.nextTip = pipette.racks = 0;
    pipette.activeNozzles = pipette.pipette->channels;
    pipette.partialColumn.reset();
    pipette.partialTaken = 0;
    pipette.parking = false;
    swapBlockedAt_.reset();
    blockedSwap_.reset();
    auto cap = rackCap_.find(pipette.var);
    pipette.rackCap = cap == rackCap_.end() ? 0 : cap->second;
  }
}

} // namespace

std::optional<std::string> emitProtocol(const ir::Module &module, const Platform &platform,
                                        const SourceManager &sources, DiagnosticEngine &diags,
                                        const EmitOptions &options) {
  Emitter emitter(module, platform, sources, diags, options);
  return emitter.run();
}

} // namespace plate::ot2
