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

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

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
  unsigned nextTip = 0;  ///< single: tip index; 8-channel: column index, over all racks
  bool used = false;

  bool multi() const { return pipette->channels > 1; }
  unsigned perRack() const { return multi() ? 12 : 96; }
  /// The next fresh tip (or column), as a Python expression.
  std::string freshTip() {
    unsigned rack = nextTip / perRack(), within = nextTip % perRack();
    ++nextTip;
    racks = std::max(racks, rack + 1);
    if (multi())
      return fmt::format("{}_tips_{}[\"A{}\"]", var, rack + 1, within + 1);
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

/// A unit of pipetting: one well for a single channel, or the top well of
/// a whole column for an 8-channel.
struct Unit {
  Well well;
  bool column = false;
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
  Mounted *pipetteFor(double volumeUl, bool column);
  std::vector<Unit> unitsOf(const std::vector<Well> &wells, double volumeUl,
                            bool multiAllowed);
  std::string target(const Unit &unit) const;
  std::string draw(ir::LiquidId liquid, double ul, const Mounted &pipette);
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
  double largestTrip(bool column) const;
  /// How many equal trips move `volumeUl` into one well: 1 when a mounted
  /// pipette takes it, else enough trips of the largest pipette. The
  /// parts are equal, not "full tips and a rest", so that no trip falls
  /// below the pipette's minimum.
  unsigned tripsFor(double volumeUl) const;

  //--- output --------------------------------------------------------------------//
  void call(const std::string &code);
  void comment(const std::string &text);
  std::string lineComment() const;
  std::optional<std::string> header();
  /// E701 where a declared volume is short of the need. False on errors.
  bool checkLoads();
  std::string lineOf(SourceLoc loc) const;

  template <typename... Args> void report(DiagId id, Args &&...args) {
    if (!planning_)
      return;
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

Mounted *Emitter::pipetteFor(double volumeUl, bool column) {
  Mounted *best = nullptr;
  for (Mounted &candidate : mounted_) {
    if (candidate.multi() != column)
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
                                   bool multiAllowed) {
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
  WellSet set;
  for (Well well : wells)
    set.insert(well);
  std::vector<bool> wholeColumn(module_.shape.cols + 1, false);
  if (multi)
    for (unsigned col = 1; col <= module_.shape.cols; ++col) {
      bool whole = true;
      for (unsigned row = 1; row <= 8; ++row)
        whole &= set.contains(Well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)});
      wholeColumn[col] = whole;
    }
  for (Well well : wells) {
    if (wholeColumn[well.col]) {
      if (well.row == 1)
        units.push_back({well, true});
      continue;
    }
    units.push_back({well, false});
  }
  return units;
}

std::string Emitter::target(const Unit &unit) const {
  return fmt::format("plate[\"{}\"]", unit.well.name());
}

std::string Emitter::draw(ir::LiquidId liquid, double ul, const Mounted &pipette) {
  double total = ul * pipette.pipette->channels;
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
      unsigned index = columnsUsed_++;
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
    source.containers.push_back(container);
  }
  source.containers.back().drawnUl += total;
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

double Emitter::largestTrip(bool column) const {
  double largest = 0;
  for (const Mounted &candidate : mounted_)
    if (candidate.multi() == column)
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
  PipetteUnits groups;
  double part = volume.value / tripsFor(volume.value);
  for (const Unit &unit : units) {
    Mounted *pipette = pipetteFor(part, unit.column);
    if (!pipette) {
      report(DiagId::PipetteRange, fmt::format("{}", volume), platform_.robotType,
             pipetteRanges());
      return std::nullopt;
    }
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto &entry) { return entry.first == pipette; });
    if (it == groups.end())
      groups.push_back({pipette, {unit}});
    else
      it->second.push_back(unit);
  }
  return groups;
}

void Emitter::fillFromAbove(Mounted &pipette, ir::LiquidId liquid, double volume,
                            const std::vector<Unit> &units) {
  if (unsigned trips = tripsFor(volume); trips > 1) {
    double part = volume / trips;
    for (const Unit &unit : units)
      for (unsigned trip = 0; trip < trips; ++trip) {
        call(fmt::format("{}.aspirate({}, {})", pipette.var, number(part),
                         draw(liquid, part, pipette)));
        call(fmt::format("{}.dispense({}, {}.top())", pipette.var, number(part), target(unit)));
      }
    return;
  }
  size_t perTrip = std::max<size_t>(
      1, static_cast<size_t>(std::floor(pipette.pipette->maxUl / volume + kQuantitySlack)));
  for (size_t at = 0; at < units.size(); at += perTrip) {
    size_t count = std::min(perTrip, units.size() - at);
    call(fmt::format("{}.aspirate({}, {})", pipette.var, number(volume * count),
                     draw(liquid, volume * count, pipette)));
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
  std::map<Mounted *, bool> holding; // reuse: one tip per pipette for the statement
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
      if (!shared) {
        for (const Unit &unit : pipetteUnits) {
          call(fmt::format("{}.pick_up_tip({})", pipette->var, pipette->freshTip()));
          // Every trip but the last stays above the well: a tip that has
          // touched the well's liquid must not go back into the source.
          for (unsigned trip = 1; trip <= trips; ++trip) {
            call(fmt::format("{}.aspirate({}, {})", pipette->var, number(part),
                             draw(portion.liquid, part, *pipette)));
            call(fmt::format("{}.dispense({}, {}{})", pipette->var, number(part), target(unit),
                             trip < trips ? ".top()" : ""));
          }
          if (dispense.mix)
            call(fmt::format("{}.mix({}, {}, {})", pipette->var, dispense.mix->cycles,
                             number(dispense.mix->volume.value), target(unit)));
          call(fmt::format("{}.drop_tip()", pipette->var));
        }
        continue;
      }
      bool reuse = dispense.tips == ir::TipPolicy::Reuse;
      if (!reuse || !holding[pipette])
        call(fmt::format("{}.pick_up_tip({})", pipette->var, pipette->freshTip()));
      holding[pipette] = true;
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
  // An 8-channel takes one volume per channel: a column goes as one unit
  // only when its eight wells hold the same.
  std::vector<Unit> units;
  for (const Unit &unit : unitsOf(wells, amountOf.empty() ? 0 : amountOf.begin()->second, true)) {
    bool same = true;
    if (unit.column)
      for (uint8_t row = 1; row <= 8; ++row)
        same &= std::abs(amountOf[Well{row, unit.well.col}] - amountOf[unit.well]) < kQuantitySlack;
    if (same || !unit.column) {
      units.push_back(unit);
      continue;
    }
    for (uint8_t row = 1; row <= 8; ++row)
      units.push_back({Well{row, unit.well.col}, false});
  }
  std::map<Mounted *, bool> holding;
  for (const Unit &unit : units) {
    double amount = amountOf[unit.well];
    // More than a tipful goes in several trips of the largest pipette.
    Mounted *pipette = pipetteFor(std::min(amount, largestTrip(unit.column)), unit.column);
    if (!pipette) {
      report(DiagId::PipetteRange, fmt::format("{}", Quantity::microliters(amount)),
             platform_.robotType, pipetteRanges());
      return;
    }
    std::string key = fmt::format("{}:{}", pipette->var, unit.well.name());
    if (reuse) {
      if (!holding[pipette])
        call(fmt::format("{}.pick_up_tip({})", pipette->var, pipette->freshTip()));
      holding[pipette] = true;
    } else if (parked && parked->count(key)) {
      call(fmt::format("{}.pick_up_tip({})", pipette->var, parked->at(key)));
    } else {
      std::string tip = pipette->freshTip();
      if (parked)
        (*parked)[key] = tip;
      call(fmt::format("{}.pick_up_tip({})", pipette->var, tip));
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
  // Removal tips are parked in their rack between cycles (language §8).
  std::map<std::string, std::string> parked;
  if (!wash.emptied.empty())
    emitRemoval(wash.emptied, reuse, &parked, false);
  std::vector<Well> wells = wash.wells.columnMajor();
  double volume = wash.volume.value;
  std::vector<ir::WellAmount> fill;
  for (Well well : wells)
    fill.push_back({well, wash.volume});
  // The fill is a non-contact per-source dispense; its tips are parked too.
  std::map<Mounted *, std::string> fillTips;
  for (unsigned cycle = 1; cycle <= wash.cycles; ++cycle) {
    comment(fmt::format("wash cycle {} of {}", cycle, wash.cycles));
    std::optional<PipetteUnits> groups =
        byPipette(unitsOf(wells, volume / tripsFor(volume), true), wash.volume);
    if (!groups)
      return;
    for (auto &[pipette, units] : *groups) {
      if (!fillTips.count(pipette))
        fillTips[pipette] = pipette->freshTip();
      call(fmt::format("{}.pick_up_tip({})", pipette->var, fillTips[pipette]));
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
  std::map<Mounted *, bool> holding;
  for (const Unit &unit : unitsOf(mix.wells.columnMajor(), mix.volume.value, true)) {
    Mounted *pipette = pipetteFor(mix.volume.value, unit.column);
    if (!pipette) {
      report(DiagId::PipetteRange, fmt::format("{}", mix.volume), platform_.robotType,
             pipetteRanges());
      return;
    }
    if (!reuse || !holding[pipette])
      call(fmt::format("{}.pick_up_tip({})", pipette->var, pipette->freshTip()));
    holding[pipette] = true;
    call(fmt::format("{}.mix({}, {}, {})", pipette->var, mix.cycles, number(mix.volume.value),
                     target(unit)));
    if (!reuse)
      call(fmt::format("{}.drop_tip()", pipette->var));
  }
  for (auto &[pipette, holds] : holding)
    if (holds && reuse)
      call(fmt::format("{}.drop_tip()", pipette->var));
}

void Emitter::emitTransfer(const ir::TransferOp &transfer, bool reuse) {
  // Pairs one at a time, in the script's order: a serial dilution's next
  // pair draws the mixture the previous one left.
  double volume = transfer.volume.value;
  unsigned trips = tripsFor(volume);
  double part = volume / trips;
  Mounted *pipette = pipetteFor(part, false);
  if (!pipette) {
    report(DiagId::PipetteRange, fmt::format("{}", transfer.volume), platform_.robotType,
           pipetteRanges());
    return;
  }
  if (reuse)
    call(fmt::format("{}.pick_up_tip({})", pipette->var, pipette->freshTip()));
  for (const auto &[from, to] : transfer.pairs) {
    if (!reuse)
      call(fmt::format("{}.pick_up_tip({})", pipette->var, pipette->freshTip()));
    for (unsigned trip = 0; trip < trips; ++trip) {
      call(fmt::format("{}.aspirate({}, plate[\"{}\"])", pipette->var, number(part), from.name()));
      call(fmt::format("{}.dispense({}, plate[\"{}\"])", pipette->var, number(part), to.name()));
    }
    if (transfer.mix)
      call(fmt::format("{}.mix({}, {}, plate[\"{}\"])", pipette->var, transfer.mix->cycles,
                       number(transfer.mix->volume.value), to.name()));
    if (!reuse)
      call(fmt::format("{}.drop_tip()", pipette->var));
  }
  if (reuse)
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
  // What a MANUAL dispense puts in the wells, so the Opentrons App shows it
  // and the run's well volumes start from it.
  for (size_t i = first; i <= last; ++i) {
    op_ = &module_.ops[i];
    const auto *dispense = op_->as<ir::DispenseOp>();
    if (!dispense)
      continue;
    for (const ir::Portion &portion : dispense->portions) {
      if (std::find(plateLiquids_.begin(), plateLiquids_.end(), portion.liquid) ==
          plateLiquids_.end())
        plateLiquids_.push_back(portion.liquid);
      for (Well well : portion.wells.columnMajor())
        call(fmt::format("plate[\"{}\"].load_liquid(liquid_{}, {})", well.name(),
                         module_.liquid(portion.liquid).name, number(dispense->volume.value)));
    }
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
                    fmt::format("{}", *liquid.declaredVolume),
                    fmt::format("{} mL", number(withDead / 1000)),
                    fmt::format("{} mL", number(kind.deadUl * source.containers.size() / 1000)),
                    fmt::format("{} mL", number(roundedLoad(withDead, false) / 1000)));
      ok = false;
    }
  }
  return ok;
}

std::optional<std::string> Emitter::header() {
  std::string out;
  out += fmt::format("# {}\n# An Opentrons Protocol API {} protocol for the {}, written by\n"
                     "# `plate compile --platform ot2` from {}. Each call names the script line\n"
                     "# it comes from; change the script, not this file.\n",
                     module_.title.empty() ? options_.sourceName : module_.title,
                     platform_.apiLevel, platform_.robotType, options_.sourceName);
  out += "from opentrons import protocol_api\n\n";
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
                       fmt::format("Tips for {}", pipette.pipette->label), true});
  }
  // Beside a heater-shaker the 8-channel may not go left or right, and in
  // front or behind only to a tip rack (Opentrons' movement rules).
  bool guarded = needsHeaterShaker_ && multi;
  std::vector<std::string> slots = platform_.freeSlots;
  auto take = [&](bool tipRack) -> std::optional<std::string> {
    for (auto it = slots.begin(); it != slots.end(); ++it) {
      if (guarded && *it == "2")
        continue;
      if (guarded && *it == "4" && !tipRack)
        continue;
      std::string slot = *it;
      slots.erase(it);
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
  for (const Item &item : items) {
    std::optional<std::string> slot = take(item.tipRack);
    if (!slot) {
      unplaced.push_back(item.var);
      continue;
    }
    deck += fmt::format("    {} = protocol.load_labware({}, {}, {})  # deck setup\n", item.var,
                        pyString(item.loadName), pyString(*slot), pyString(item.label));
  }
  if (!unplaced.empty()) {
    size_t free = platform_.freeSlots.size() - (guarded ? 1 : 0);
    diags_.report(DiagId::DeckFull, SourceLoc{}, items.size() + 1, fmt::format("{}", fmt::join(unplaced, ", ")),
                  platform_.robotType, free + 1);
    return std::nullopt;
  }
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
  // Planning: every pipette available.
  for (const Pipette &pipette : platform_.pipettes) {
    std::string var = pipette.name.substr(0, pipette.name.find('_'));
    if (pipette.channels > 1)
      var[0] = 'm';
    mounted_.push_back({&pipette, var, "", 0, 0, false});
  }
  planning_ = true;
  walk();
  if (diags_.hasErrors())
    return std::nullopt;

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
  for (size_t i = 0; i < used.size(); ++i) {
    used[i].mount = i == 0 ? "left" : "right";
    used[i].nextTip = used[i].racks = 0;
  }
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
  }
  planning_ = false;
  walk();
  std::string body = std::move(body_);
  if (!checkLoads())
    return std::nullopt;
  std::optional<std::string> deck = header();
  if (!deck)
    return std::nullopt;
  return *deck + body;
}

} // namespace

std::optional<std::string> emitProtocol(const ir::Module &module, const Platform &platform,
                                        const SourceManager &sources, DiagnosticEngine &diags,
                                        const EmitOptions &options) {
  Emitter emitter(module, platform, sources, diags, options);
  return emitter.run();
}

} // namespace plate::ot2
