//===- ScheduleQuality.cpp - Lower bounds on what a schedule costs --------===//
//
// ScheduleQuality.h says what is counted; each bound carries its argument.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/ScheduleQuality.h"

#include "backend/bioforge1/Backend.h"
#include "passes/GroupWells.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace plate::backend {

bool isPipettingCommand(const Command &command) {
  using enum CommandOp;
  static const std::set<CommandOp> ops = {PickTips, DropTips, ReturnTips, Aspirate,
                                                   Dispense, Mix,      SwapTipRack};
  return ops.count(command.fields.op) != 0;
}

// The argument. Two tips never share a reservoir position (a tip that
// aspirated from one aspirates only from it), and a tip that touched a
// well touches no other well and no reservoir (bioforge1.md §4.3). Let R
// be the tips that ever aspirate from the reservoir and C the others.
//  - R: each reservoir liquid needs a tip of its own; a `new` step takes a
//    fresh tip per aspiration and a tip carries at most its capacity, so
//    such a step needs ceil(volume of that liquid / capacity) fresh tips.
//    A dispense that mixes touches the well, so its tips are bound to one
//    well each: R >= the wells such dispenses mix in.
//  - C: every well that an aspirate, wash removal, mix or transfer
//    touches, and that no mixing dispense touched, needs a tip of its own.
unsigned tipLowerBound(const ir::Module &module, const Platform &platform) {
  std::map<ir::LiquidId, unsigned> reservoirTips;
  WellSet mixingDispense, contact;
  for (const ir::Op &op : module.ops) {
    if (op.manual || op.tipsReuse)
      continue;
    if (const auto *dispense = op.as<ir::DispenseOp>()) {
      for (const ir::Portion &portion : dispense->portions) {
        unsigned &tips = reservoirTips[portion.liquid];
        if (dispense->tips == ir::TipPolicy::New) {
          double total = dispense->volume.value * portion.wells.size();
          tips += static_cast<unsigned>(std::ceil(total / platform.tipCapacityUl - 1e-9));
        }
        if (dispense->mix)
          mixingDispense |= portion.wells;
      }
    } else if (const auto *aspirate = op.as<ir::AspirateOp>()) {
      for (const ir::WellAmount &amount : aspirate->resolved)
        if (amount.volume.value > 0)
          contact.insert(amount.well);
    } else if (const auto *wash = op.as<ir::WashOp>()) {
      reservoirTips[wash->reagent];
      contact |= wash->wells;
    } else if (const auto *mix = op.as<ir::MixOp>()) {
      contact |= mix->wells;
    } else if (const auto *transfer = op.as<ir::TransferOp>()) {
      for (const auto &pair : transfer->pairs)
        contact.insert(pair.first);
    }
  }
  unsigned reservoir = 0;
  for (auto &[liquid, tips] : reservoirTips)
    reservoir += std::max(tips, 1u);
  reservoir = std::max<unsigned>(reservoir, mixingDispense.size());
  contact.subtract(mixingDispense);
  return reservoir + static_cast<unsigned>(contact.size());
}

namespace {

unsigned tripsFor(double volumeUl, double capacityUl) {
  return std::max(1u, static_cast<unsigned>(std::ceil(volumeUl / capacityUl - 1e-9)));
}

/// The smallest positive amount a removal takes from one of its wells:
/// every position holds at least one well, so it needs at least that
/// well's trips.
double smallestAmount(const std::vector<ir::WellAmount> &amounts, WellSet &wells) {
  double smallest = 0;
  for (const ir::WellAmount &amount : amounts)
    if (amount.volume.value > 1e-9) {
      wells.insert(amount.well);
      smallest = smallest == 0 ? amount.volume.value : std::min(smallest, amount.volume.value);
    }
  return smallest;
}

unsigned platePipettingBound(const ir::Op &op, const HeadGeometry &geometry,
                             double capacityUl) {
  auto positions = [&](const WellSet &wells) { return headPositionLowerBound(wells, geometry); };
  if (const auto *dispense = op.as<ir::DispenseOp>()) {
    WellSet wells = pipettedWells(op);
    unsigned cover = positions(wells);
    return cover * tripsFor(dispense->volume.value, capacityUl) + (dispense->mix ? cover : 0);
  }
  if (const auto *aspirate = op.as<ir::AspirateOp>()) {
    // track-volumes resolves `all` per well; a volume stays as written.
    if (aspirate->resolved.empty() && aspirate->volume)
      return positions(aspirate->wells) * tripsFor(aspirate->volume->value, capacityUl);
    WellSet wells;
    double smallest = smallestAmount(aspirate->resolved, wells);
    return wells.empty() ? 0 : positions(wells) * tripsFor(smallest, capacityUl);
  }
  if (const auto *wash = op.as<ir::WashOp>()) {
    WellSet emptied;
    double smallest = smallestAmount(wash->emptied, emptied);
    unsigned first = emptied.empty() ? 0 : positions(emptied) * tripsFor(smallest, capacityUl);
    // Each cycle fills every well and takes the fill out again.
    unsigned perCycle = 2 * positions(wash->wells) * tripsFor(wash->volume.value, capacityUl);
    return first + wash->cycles * perCycle;
  }
  if (op.as<ir::MixOp>())
    return positions(pipettedWells(op));
  if (const auto *transfer = op.as<ir::TransferOp>()) {
    unsigned trips = transferTrips(transfer->volume.value, capacityUl);
    return transferLowerBound(*transfer, geometry) * (2 * trips + (transfer->mix ? 1 : 0));
  }
  return 0;
}

} // namespace

std::vector<StepPipetting> platePipettingBySteps(const ir::Module &highLevel,
                                                 const std::vector<Command> &commands,
                                                 const Platform &platform) {
  std::vector<StepPipetting> steps;
  std::optional<HeadGeometry> geometry = headGeometry(highLevel, platform);
  if (!geometry)
    return steps;
  // Statements are told apart by source line and step label: a procedure's
  // body lines recur under each call's label.
  std::map<std::pair<uint32_t, std::string>, size_t> index;
  for (const ir::Op &op : highLevel.ops) {
    if (op.manual || pipettedWells(op).empty())
      continue;
    auto key = std::make_pair(op.loc.line, op.step);
    auto [it, fresh] = index.emplace(key, steps.size());
    if (fresh)
      steps.push_back({op.loc.line, op.step, 0, 0});
    steps[it->second].bound += platePipettingBound(op, *geometry, platform.tipCapacityUl);
  }
  for (const Command &command : commands) {
    CommandOp op = command.fields.op;
    if (op != CommandOp::Aspirate && op != CommandOp::Dispense &&
        op != CommandOp::Mix)
      continue;
    if (command.fields.slot != platform.samplePlateSlot)
      continue;
    auto it = index.find({command.line, command.step});
    if (it != index.end())
      ++steps[it->second].commands;
  }
  return steps;
}

// The argument. Robot time is the sum of the commands' durations
// (bioforge1.md §5), so it is at least the sum of lower bounds on disjoint
// groups of commands:
//  - everything that is not pipetting or tip handling (waits, incubations,
//    shaking, heater settling, reads, plate moves and lids) as the stream
//    has it: the statements fix the waits, shakes and reads, and the
//    transport is the fewest moves and lids the incubations and reads need
//    (docs/schedule.md, "Checked and left as is"), so this bound is relative
//    to that transport;
//  - plate pipetting: each statement's bound on plate commands
//    (platePipettingBound) at the base time each, plus the volume term: a
//    command moves at most `channels` × v µL in v / rate seconds, so the
//    µL that enter and leave wells take at least µL / (channels × rate);
//    each Mix takes cycles × 2 × v / rate beyond its base;
//  - the reservoir side: each reservoir liquid needs at least
//    ceil(µL / (channels × tip capacity)) aspirates there, and the µL
//    removed from wells at least as many dispenses into the waste, each
//    with its volume term;
//  - tips: the fewest fresh tips (tipLowerBound) need ceil(tips / channels)
//    picks, all but the last set leave the head again, and every rack
//    beyond the first is a swap.
double robotTimeLowerBound(const ir::Module &highLevel,
                           const std::vector<Command> &commands,
                           const Platform &platform, unsigned tipBound) {
  const TimingModel &t = platform.timing;
  const double channels = platform.channels, capacity = platform.tipCapacityUl;
  double seconds = 0;
  for (const Command &command : commands)
    if (!isPipettingCommand(command))
      seconds += commandSeconds(command, platform);
  std::optional<HeadGeometry> geometry = headGeometry(highLevel, platform);
  if (!geometry)
    return seconds;
  auto positions = [&](const WellSet &wells) { return headPositionLowerBound(wells, *geometry); };
  double plateUl = 0, removedUl = 0, mixSeconds = 0;
  unsigned plateCommands = 0;
  std::map<ir::LiquidId, double> reservoirUl;
  for (const ir::Op &op : highLevel.ops) {
    if (op.manual)
      continue;
    plateCommands += platePipettingBound(op, *geometry, capacity);
    if (const auto *dispense = op.as<ir::DispenseOp>()) {
      for (const ir::Portion &portion : dispense->portions) {
        double ul = dispense->volume.value * portion.wells.size();
        plateUl += ul;
        reservoirUl[portion.liquid] += ul;
      }
      if (dispense->mix)
        mixSeconds += positions(pipettedWells(op)) * dispense->mix->cycles * 2 *
                      dispense->mix->volume.value / t.pipetteUlPerSecond;
    } else if (const auto *aspirate = op.as<ir::AspirateOp>()) {
      double ul = 0;
      if (aspirate->resolved.empty() && aspirate->volume)
        ul = aspirate->volume->value * aspirate->wells.size();
      for (const ir::WellAmount &amount : aspirate->resolved)
        ul += amount.volume.value;
      plateUl += ul;
      removedUl += ul;
    } else if (const auto *wash = op.as<ir::WashOp>()) {
      double fills = wash->volume.value * wash->wells.size() * wash->cycles;
      double emptied = 0;
      for (const ir::WellAmount &amount : wash->emptied)
        emptied += amount.volume.value;
      plateUl += 2 * fills + emptied;
      removedUl += fills + emptied;
      reservoirUl[wash->reagent] += fills;
    } else if (const auto *mix = op.as<ir::MixOp>()) {
      mixSeconds += positions(mix->wells) * mix->cycles * 2 * mix->volume.value /
                    t.pipetteUlPerSecond;
    } else if (const auto *transfer = op.as<ir::TransferOp>()) {
      plateUl += 2 * transfer->volume.value * transfer->pairs.size();
      if (transfer->mix)
        mixSeconds += transferLowerBound(*transfer, *geometry) * transfer->mix->cycles * 2 *
                      transfer->mix->volume.value / t.pipetteUlPerSecond;
    }
  }
  auto trips = [&](double ul) { return std::ceil(ul / (channels * capacity) - 1e-9); };
  seconds += plateCommands * t.pipetteBaseSeconds + plateUl / (channels * t.pipetteUlPerSecond) +
             mixSeconds;
  for (const auto &[liquid, ul] : reservoirUl)
    seconds += std::max(1.0, trips(ul)) * t.pipetteBaseSeconds +
               ul / (channels * t.pipetteUlPerSecond);
  if (removedUl > 0)
    seconds += trips(removedUl) * t.pipetteBaseSeconds +
               removedUl / (channels * t.pipetteUlPerSecond);
  if (tipBound > 0) {
    double picks = std::ceil(tipBound / channels - 1e-9);
    double racks = std::ceil(double(tipBound) / (platform.tipRackRows * platform.tipRackCols));
    seconds += (2 * picks - 1) * t.tipSeconds + (racks - 1) * t.swapRackSeconds;
  }
  return seconds;
}

ScheduleFigures measureSchedule(const ir::Module &highLevel, const std::vector<Command> &commands,
                                const Platform &platform) {
  ScheduleFigures figures;
  for (const StepPipetting &step : platePipettingBySteps(highLevel, commands, platform)) {
    figures.plateCommands += step.commands;
    figures.plateCommandBound += step.bound;
  }
  figures.tips = countTips(commands, platform).tips;
  figures.tipBound = tipLowerBound(highLevel, platform);
  figures.robotSeconds = robotSeconds(commands, platform);
  figures.robotSecondsBound = robotTimeLowerBound(highLevel, commands, platform, figures.tipBound);
  return figures;
}

} // namespace plate::backend
