//===- TranslationValidation.cpp - Does the stream mean the script? ------===//
#include "backend/bioforge1/TranslationValidation.h"

#include "backend/bioforge1/DeckState.h"
#include "backend/bioforge1/ReferenceInterpreter.h"
#include "backend/bioforge1/WellHistory.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace plate::backend {
namespace {

/// The stream's account: the twin replays each command and the wells
/// under it are written down as they are afterwards.
class StreamRecorder {
public:
  StreamRecorder(const Platform &platform, const Labware &labware, const RunSetup &setup,
                 History &history, const std::vector<uint32_t> &plateWideOrigins)
      : platform_(platform), labware_(labware), twin_(platform, labware, setup), history_(history),
        names_(history.names()) {
    stride_ = std::max(1L, std::lround(platform.channelSpacingMm / labware.pitchMm));
    for (uint32_t origin : plateWideOrigins) {
      if (origin >= plateWide_.size())
        plateWide_.resize(origin + 1, false);
      plateWide_[origin] = true;
    }
    const LiquidTable &liquids = twin_.liquids();
    liquidIds_.reserve(liquids.size());
    for (uint32_t id = 0; id < liquids.size(); ++id)
      liquidIds_.push_back(names_.liquid(liquids.name(id)));
  }

  /// Replays the stream; the reason it cannot be replayed, if any, at the
  /// line of the command that breaks a rule.
  std::optional<Difference> run(const std::vector<Command> &commands) {
    for (const Command &given : commands) {
      const Command *command = &given;
      applyManual(command->seq);
      if (auto violation = twin_.execute(*command, /*commit=*/true))
        return Difference{
            fmt::format("command {} ({}, step {}, line {}) breaks a rule of the platform "
                        "({}): {}",
                        command->seq, command->name(), command->step, command->line,
                        ruleName(violation->rule), violation->message()),
            command->line};
      record(*command);
    }
    // MANUAL work after the last command still happens to the plate.
    applyManual(static_cast<uint32_t>(commands.size() + 1));
    return std::nullopt;
  }

private:
  Composition contents(Well well) const {
    Composition composition;
    for (const LiquidMix::Part &part : twin_.wellMix(well).parts)
      composition.add(liquidIds_[part.liquid], part.ul);
    return composition;
  }

  void wellEvent(Well well, WellEventKind kind, uint32_t origin, double wavelength = 0,
                 double reference = 0) {
    if (!labware_.shape.contains(well))
      return;
    if (changesWell(kind))
      history_.wellChanged(well, kind, origin, contents(well));
    else
      history_.wellLookedAt(well, kind, origin, wavelength, reference);
  }

  void applyManual(uint32_t seq) {
    twin_.applyManualFills(seq, nullptr, [&](const ManualFill &fill) {
      uint32_t origin = names_.origin(fill.line, fill.step);
      wellEvent(fill.well, WellEventKind::Manual, origin);
      if (fill.action == ManualFill::Action::Transfer)
        wellEvent(fill.into, WellEventKind::Manual, origin);
    });
  }

  void record(const Command &command) {
    const CommandFields &fields = command.fields;
    uint32_t origin = names_.origin(command.line, command.step);
    switch (fields.op) {
    case CommandOp::Aspirate:
    case CommandOp::Dispense:
    case CommandOp::Mix: {
      if (fields.slot != platform_.samplePlateSlot)
        return;
      WellEventKind kind = fields.op == CommandOp::Aspirate   ? WellEventKind::Remove
                           : fields.op == CommandOp::Dispense ? WellEventKind::Add
                                                              : WellEventKind::Mix;
      for (unsigned channel = 0; channel < fields.maskLength && channel < 64; ++channel)
        if (fields.maskBits >> channel & 1)
          wellEvent(Well{static_cast<uint8_t>(fields.rowIndex),
                         static_cast<uint8_t>(fields.colIndex + channel * stride_)},
                    kind, origin);
      return;
    }
    case CommandOp::ReadAbsorbance:
      for (Well well : fields.wells)
        wellEvent(well, WellEventKind::Read, origin, fields.wavelengthNm.value_or(0),
                  fields.referenceNm.value_or(0));
      return;
    case CommandOp::Wait:
    case CommandOp::Shake: {
      // Only the waits and shakes of plate-wide statements; a wash's soak
      // belongs to the wash, whose wells tell its story.
      if (origin >= plateWide_.size() || !plateWide_[origin])
        return;
      PlateEvent event;
      event.origin = origin;
      event.seconds = fields.seconds;
      bool onHeater = twin_.plateSlot() == platform_.heaterSlot;
      std::optional<double> heated;
      if (onHeater && twin_.heaterSetpoint())
        heated = *twin_.heaterSetpoint();
      event.celsius = heated;
      event.rpm = fields.op == CommandOp::Shake ? fields.rpm : 0.0;
      event.lidOn = twin_.lidOn();
      event.onMagnet = twin_.plateSlot() == platform_.magnetSlot;
      history_.plateEvent(event);
      return;
    }
    default:
      return;
    }
  }

  const Platform &platform_;
  const Labware &labware_;
  DeckState twin_;
  History &history_;
  HistoryNames &names_;
  unsigned stride_ = 1;
  std::vector<bool> plateWide_;
  std::vector<uint32_t> liquidIds_; ///< twin liquid id -> history liquid id
};

} // namespace

Validation validateTranslation(const ir::Module &checked, const std::vector<Command> &commands,
                               const RunSetup &setup, const Platform &platform) {
  Validation validation;
  validation.commands = commands.size();
  const Labware *labware = platform.findLabware(setup.plateType);
  if (!labware) {
    validation.difference =
        fmt::format("the run's plate type `{}` is not a labware of the platform", setup.plateType);
    return validation;
  }
  HistoryNames names;
  History script(names, labware->shape), stream(names, labware->shape);
  ReferenceRun reference = interpretReference(checked, platform, script);
  if (reference.impossible) {
    validation.difference = "the script cannot run as written, which its "
                            "checks should have reported: " +
                            *reference.impossible;
    return validation;
  }
  StreamRecorder recorder(platform, *labware, setup, stream, reference.plateWideOrigins);
  if (std::optional<Difference> broken = recorder.run(commands)) {
    validation.difference = "the command stream cannot run: " + broken->message;
    validation.line = broken->line;
    return validation;
  }
  for (unsigned row = 1; row <= labware->shape.rows; ++row)
    for (unsigned col = 1; col <= labware->shape.cols; ++col)
      validation.wellEvents +=
          script.events(Well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)}).size();
  validation.plateEvents = script.plateEvents().size();
  if (std::optional<Difference> difference = firstDifference(script, stream)) {
    validation.difference = std::move(difference->message);
    validation.line = difference->line;
  }
  return validation;
}

bool validateByDefault() {
  const char *value = std::getenv("PLATE_VALIDATE");
  return value && std::strcmp(value, "1") == 0;
}

} // namespace plate::backend
