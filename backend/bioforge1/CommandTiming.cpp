//===- CommandTiming.cpp - How long commands take (bioforge1.md §5) -------===//
//
// Durations follow §5 with every number taken from the platform's
// TimingModel and routes.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/CommandTiming.h"

#include <fmt/format.h>

#include <cmath>

namespace plate::backend {

double commandSeconds(const Command &command, const Platform &platform) {
  const TimingModel &timing = platform.timing;
  const CommandFields &fields = command.fields;
  switch (fields.op) {
  case CommandOp::PickTips:
  case CommandOp::DropTips:
  case CommandOp::ReturnTips:
    return timing.tipSeconds;
  case CommandOp::Aspirate:
  case CommandOp::Dispense:
    return timing.pipetteBaseSeconds + fields.volumeUl / timing.pipetteUlPerSecond;
  case CommandOp::Mix:
    return timing.pipetteBaseSeconds +
           fields.cycles * 2 * fields.volumeUl / timing.pipetteUlPerSecond;
  case CommandOp::MovePlate:
    for (const TransportRoute &route : platform.routes)
      if (route.module == command.module)
        return route.moveSeconds;
    return 0;
  case CommandOp::RemoveLid:
  case CommandOp::PlaceLid:
    return timing.lidSeconds;
  case CommandOp::SwapTipRack:
    return timing.swapRackSeconds;
  case CommandOp::SetTemperature:
    return timing.heaterSettleSeconds;
  case CommandOp::Shake:
  case CommandOp::Wait:
    return fields.seconds;
  case CommandOp::ReadAbsorbance:
    return timing.readSecondsPerWavelength * (fields.hasReferenceKey ? 2 : 1);
  case CommandOp::Off:
  case CommandOp::Prompt:
  case CommandOp::Other:
    return 0;
  }
  return 0;
}

double robotSeconds(const std::vector<Command> &commands, const Platform &platform) {
  double total = 0;
  for (const Command &command : commands)
    total += commandSeconds(command, platform);
  return total;
}

std::string formatDuration(double seconds) {
  long total = std::lround(seconds);
  long hours = total / 3600, minutes = (total % 3600) / 60, secs = total % 60;
  if (hours)
    return fmt::format("{} h {:02} min {:02} s", hours, minutes, secs);
  if (minutes)
    return fmt::format("{} min {:02} s", minutes, secs);
  return fmt::format("{} s", secs);
}

} // namespace plate::backend
