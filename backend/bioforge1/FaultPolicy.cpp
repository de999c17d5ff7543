//===- FaultPolicy.cpp - Which faults a run accepts, retries or stops on --===//
//
// See FaultPolicy.h. Faults are validated before the first command so that
// a plan naming a command that cannot fail that way never starts a run.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/FaultPolicy.h"

#include "backend/bioforge1/Simulator.h"

#include <fmt/format.h>

#include <cmath>

namespace plate::backend {

namespace {

/// What the operator needs to know about the deck after a stop.
std::string deckSummary(const DeckState &twin, const Platform &platform) {
  std::string text = fmt::format("plate in slot {}, lid {}", twin.plateSlot(),
                                 twin.lidOn() ? "on" : "off");
  std::vector<std::string> tips;
  for (unsigned channel = 0; channel < platform.channels; ++channel)
    if (twin.hasTip(channel))
      tips.push_back(fmt::format("channel {} ({} µL in the tip)", channel + 1,
                                 formatNumber(std::round(twin.tipVolume(channel) * 1000) / 1000)));
  if (tips.empty()) {
    text += "; no tips on the head";
  } else {
    text += "; tips on ";
    for (size_t i = 0; i < tips.size(); ++i)
      text += (i ? ", " : "") + tips[i];
  }
  if (twin.heaterSetpoint())
    text += fmt::format("; heater at {} °C", formatNumber(*twin.heaterSetpoint()));
  return text;
}

/// What to do about each fault that stops the run.
std::string_view operatorAdvice(FaultKind kind) {
  switch (kind) {
  case FaultKind::TipPickup:
    return "no unused tips were left to retry with; load a fresh rack position or resume after "
           "checking the rack";
  case FaultKind::LiquidDetect:
    return "check the source (reservoir level, position, bubbles) and refill it; the tips keep "
           "what they held";
  case FaultKind::GripperDrop:
    return "find the plate or lid, check the wells for spills, put it back where the state "
           "above says it is";
  case FaultKind::ReaderTimeout:
    return "the reader did not answer after retries; check the reader and its cable";
  case FaultKind::Disconnect:
    return "reconnect the controller; the command was not confirmed";
  default:
    return "check the device";
  }
}

} // namespace

bool validateFaults(const FaultPlan &faults, const std::vector<Command> &commands,
                    const Platform &platform, DiagnosticEngine &diags) {
  for (const auto &[seq, kind] : faults.at)
    if (seq < 1 || seq > commands.size()) {
      diags.report(DiagId::FaultSeqOutOfRange, SourceLoc{}, seq, faultKindName(kind),
                   commands.size());
      return false;
    } else if (!faultApplies(kind, commands[seq - 1], platform)) {
      diags.report(DiagId::FaultCannotHappen, SourceLoc{}, seq, faultKindName(kind), seq,
                   commands[seq - 1].name());
      return false;
    }
  return true;
}

Recovery recoveryFor(FaultKind fault, unsigned attempt) {
  if (attempt >= kMaxAttempts)
    return Recovery::Stop;
  switch (fault) {
  case FaultKind::ReaderTimeout: return Recovery::ReadAgain;
  case FaultKind::TipPickup: return Recovery::OtherTips;
  default: return Recovery::Stop;
  }
}

void reportStop(const Command &command, const DeviceResult &outcome, SourceLoc loc,
                size_t confirmed, const DeckState &twin, const Platform &platform,
                const std::string &journalPath, DiagnosticEngine &diags) {
  auto diagnostic = diags.report(
      DiagId::DeviceFailed, loc, command.seq, command.name(), command.line,
      outcome.message.empty() ? std::string("no reason given") : outcome.message);
  diagnostic.step(command.step);
  diagnostic.note(SourceLoc{}, "the run stopped safely before command {}; {} command(s) "
                               "were confirmed",
                  command.seq, confirmed);
  diagnostic.note(SourceLoc{}, "deck state: {}", deckSummary(twin, platform));
  if (outcome.fault != FaultKind::None)
    diagnostic.note(SourceLoc{}, "{}", operatorAdvice(outcome.fault));
  if (!journalPath.empty())
    diagnostic.note(SourceLoc{}, "to continue: plate run ... --resume {}", journalPath);
}

} // namespace plate::backend
