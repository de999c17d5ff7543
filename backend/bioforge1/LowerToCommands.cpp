//===- LowerToCommands.cpp - Device ops of the IR to BioForge-1 commands --===//
//
// Modules come from the platform (a platform file may rename them); ops
// and argument values from the IR, in the canonical units of §3. Values
// are stored as they read back from the stream line, so that a lowered
// command and the same command read from its line are equal.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/LowerToCommands.h"

#include "backend/bioforge1/CommandDecode.h"

#include <algorithm>
#include <type_traits>

namespace plate::backend {

namespace {

/// A number as it reads back from the stream: integral values are written
/// as integers, so -0 reads back as 0.
double streamNumber(double value) { return jsonNumber(value).get<double>(); }

/// The slot id the stream reader decodes from jsonSlot(slot): "05" is
/// written as 5 and reads back as "5".
std::string streamSlot(const std::string &slot) {
  bool numeral = !slot.empty() &&
                 std::all_of(slot.begin(), slot.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (numeral && (slot[0] == '0' || slot.size() > 18))
    return slotId(jsonSlot(slot));
  return slot;
}

/// Fills the typed arguments of a lowered command exactly as decodeFields
/// fills them from the line the serializer writes for it.
class FieldWriter {
public:
  explicit FieldWriter(CommandFields &fields) : fields_(fields) {}

  void row(unsigned value) {
    fields_.hasRowKey = true;
    fields_.row = value;
    fields_.rowIndex = value;
  }
  void col(unsigned value) {
    fields_.hasColKey = true;
    fields_.col = value;
    fields_.colIndex = value;
  }
  void place(const ir::Place &place, bool hasCoordinates) {
    fields_.slot = streamSlot(place.slot);
    if (hasCoordinates) {
      row(place.row);
      col(place.col);
    }
  }
  void mask(const ir::ChannelMask &mask) {
    fields_.maskLength = mask.channels;
    fields_.maskBinary = true;
    fields_.maskBits = 0;
    for (unsigned channel = 0; channel < mask.channels && channel < 64; ++channel)
      if (mask.test(channel))
        fields_.maskBits |= uint64_t(1) << channel;
    if (mask.channels > 64)
      fields_.maskSpelling = mask.str(); // wider than the bits (Command.h)
  }
  void wells(const std::vector<Well> &wells) {
    bool named = std::all_of(wells.begin(), wells.end(), [](const Well &well) {
      return well.row >= 1 && well.row <= kMaxRows && well.col >= 1 && well.col <= kMaxCols;
    });
    if (!named) {
      // A well whose name() does not parse back reads as Well{} and keeps
      // its spelling: decode the names as the reader would.
      std::vector<std::string> names;
      names.reserve(wells.size());
      for (const Well &well : wells)
        names.push_back(well.name());
      setWellNames(fields_, names);
      return;
    }
    fields_.wellsIsArray = true;
    fields_.wellsAllNamed = true;
    fields_.wells = wells;
    for (const Well &well : wells) {
      fields_.wellsMaxRow = std::max(fields_.wellsMaxRow, well.row);
      fields_.wellsMaxCol = std::max(fields_.wellsMaxCol, well.col);
    }
  }

private:
  CommandFields &fields_;
};

/// Builds the command of one device op; false for host and manual ops.
bool lowerOp(const ir::Op &op, const Platform &platform, Command &command) {
  auto us = [](const Quantity &q) { return streamNumber(q.canonicalValue()); };
  CommandFields &f = command.fields;
  FieldWriter args(f);
  auto on = [&](const std::string &module, const std::string &fallback, CommandOp kind) {
    command.module = module.empty() ? fallback : module;
    f.op = kind;
  };
  return std::visit(
      [&](const auto &payload) -> bool {
        using T = std::decay_t<decltype(payload)>;
        if constexpr (std::is_same_v<T, ir::PickTipsOp> ||
                      std::is_same_v<T, ir::ReturnTipsOp>) {
          on(platform.liquidHandler, "",
             std::is_same_v<T, ir::PickTipsOp> ? CommandOp::PickTips : CommandOp::ReturnTips);
          args.row(payload.row);
          args.col(payload.col);
          args.mask(payload.mask);
        } else if constexpr (std::is_same_v<T, ir::DropTipsOp>) {
          on(platform.liquidHandler, "", CommandOp::DropTips);
          args.mask(payload.mask);
        } else if constexpr (std::is_same_v<T, ir::DevAspirateOp>) {
          on(platform.liquidHandler, "", CommandOp::Aspirate);
          args.place(payload.place, true);
          args.mask(payload.mask);
          f.volumeUl = us(payload.volume);
        } else if constexpr (std::is_same_v<T, ir::DevDispenseOp>) {
          on(platform.liquidHandler, "", CommandOp::Dispense);
          args.place(payload.place, payload.place.slot != platform.solutionWasteSlot);
          args.mask(payload.mask);
          f.volumeUl = us(payload.volume);
        } else if constexpr (std::is_same_v<T, ir::DevMixOp>) {
          on(platform.liquidHandler, "", CommandOp::Mix);
          args.place(payload.place, true);
          args.mask(payload.mask);
          f.volumeUl = us(payload.volume);
          f.cycles = payload.cycles;
        } else if constexpr (std::is_same_v<T, ir::MovePlateOp>) {
          on(payload.module, "", CommandOp::MovePlate);
          f.from = streamSlot(payload.from);
          f.to = streamSlot(payload.to);
        } else if constexpr (std::is_same_v<T, ir::LidOp>) {
          on(payload.module, "", payload.place ? CommandOp::PlaceLid : CommandOp::RemoveLid);
          f.slot = streamSlot(payload.slot);
        } else if constexpr (std::is_same_v<T, ir::SwapTipRackOp>) {
          on(payload.module, platform.tipSwapModule, CommandOp::SwapTipRack);
        } else if constexpr (std::is_same_v<T, ir::SetTemperatureOp>) {
          on(payload.module, platform.heaterModule, CommandOp::SetTemperature);
          f.celsius = us(payload.temperature);
        } else if constexpr (std::is_same_v<T, ir::HeaterOffOp>) {
          on(payload.module, platform.heaterModule, CommandOp::Off);
        } else if constexpr (std::is_same_v<T, ir::DevShakeOp>) {
          on(payload.module, platform.shakerModule, CommandOp::Shake);
          f.rpm = us(payload.speed);
          f.seconds = us(payload.time);
        } else if constexpr (std::is_same_v<T, ir::DevReadOp>) {
          on(payload.module, platform.readerModule, CommandOp::ReadAbsorbance);
          f.wavelengthNm = us(payload.wavelength);
          if (payload.reference) {
            f.hasReferenceKey = true;
            f.referenceNm = us(*payload.reference);
          }
          args.wells(payload.wells);
        } else if constexpr (std::is_same_v<T, ir::DevWaitOp>) {
          on(platform.systemModule, "", CommandOp::Wait);
          f.seconds = us(payload.time);
        } else if constexpr (std::is_same_v<T, ir::PromptOp>) {
          on(platform.systemModule, "", CommandOp::Prompt);
          f.text = payload.text;
        } else {
          return false; // high-level or host op: no device command
        }
        return true;
      },
      op.payload);
}

} // namespace

std::vector<Command> lowerToCommands(const ir::Module &module, const Platform &platform) {
  std::vector<Command> commands;
  commands.reserve(module.ops.size());
  for (const ir::Op &op : module.ops) {
    if (op.manual)
      continue;
    Command command;
    if (!lowerOp(op, platform, command))
      continue;
    command.seq = static_cast<uint32_t>(commands.size() + 1);
    command.step = op.step;
    command.line = op.loc.line;
    command.tipsReuse = op.tipsReuse;
    commands.push_back(std::move(command));
  }
  return commands;
}

} // namespace plate::backend
