//===- Command.cpp - Command schema, lowering from the IR, timing ----------===//
//
// The schema table below is bioforge1.md §3 verbatim; the emitter builds
// arguments in its order and the reader checks against it. Durations follow
// §5 with every number taken from the platform's TimingModel and routes.
//
//===----------------------------------------------------------------------===//
#include "backend/Command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace plate::backend {

Json jsonNumber(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
    return Json(static_cast<int64_t>(value));
  return Json(value);
}

Json jsonSlot(const std::string &slot) {
  if (!slot.empty() && std::all_of(slot.begin(), slot.end(),
                                   [](char c) { return c >= '0' && c <= '9'; }))
    return Json(std::stoll(slot));
  return Json(slot);
}

std::string slotId(const Json &value) {
  if (value.is_number_integer())
    return std::to_string(value.get<int64_t>());
  if (value.is_string())
    return value.get<std::string>();
  return {};
}

const std::vector<CommandSpec> &commandSchema() {
  using enum ArgType;
  static const std::vector<CommandSpec> schema = {
      {"LH", "PickTips", {{"row", Integer, true}, {"col", Integer, true}, {"mask", Mask, true}}},
      {"LH", "DropTips", {{"mask", Mask, true}}},
      {"LH", "ReturnTips", {{"row", Integer, true}, {"col", Integer, true}, {"mask", Mask, true}}},
      {"LH", "Aspirate",
       {{"slot", Slot, true}, {"row", Integer, true}, {"col", Integer, true},
        {"mask", Mask, true}, {"volume_ul", Number, true}}},
      // Row and column are absent for the Solution Waste; the simulator
      // checks that the other slots have them.
      {"LH", "Dispense",
       {{"slot", Slot, true}, {"row", Integer, false}, {"col", Integer, false},
        {"mask", Mask, true}, {"volume_ul", Number, true}}},
      {"LH", "Mix",
       {{"slot", Slot, true}, {"row", Integer, true}, {"col", Integer, true},
        {"mask", Mask, true}, {"volume_ul", Number, true}, {"cycles", Integer, true}}},
      {"LH", "MovePlate", {{"from", Slot, true}, {"to", Slot, true}}},
      {"LH", "RemoveLid", {{"slot", Slot, true}}},
      {"LH", "PlaceLid", {{"slot", Slot, true}}},
      {"PT", "MovePlate", {{"from", Slot, true}, {"to", Slot, true}}},
      {"PT", "SwapTipRack", {}},
      {"PL", "MovePlate", {{"from", Slot, true}, {"to", Slot, true}}},
      {"PL", "RemoveLid", {{"slot", Slot, true}}},
      {"PL", "PlaceLid", {{"slot", Slot, true}}},
      {"HP", "SetTemperature", {{"celsius", Number, true}}},
      {"HP", "Off", {}},
      {"SHK", "Shake", {{"rpm", Number, true}, {"seconds", Number, true}}},
      {"RDR", "ReadAbsorbance",
       {{"wavelength_nm", Number, true}, {"reference_nm", Number, false},
        {"wells", WellList, true}}},
      {"SYS", "Wait", {{"seconds", Number, true}}},
      {"SYS", "Prompt", {{"text", String, true}}},
  };
  return schema;
}

const CommandSpec *findCommandSpec(std::string_view module, std::string_view op) {
  for (const CommandSpec &spec : commandSchema())
    if (module == spec.module && op == spec.op)
      return &spec;
  return nullptr;
}

namespace {

CommandOp opNamed(std::string_view op) {
  static constexpr std::pair<std::string_view, CommandOp> kOps[] = {
      {"PickTips", CommandOp::PickTips},
      {"DropTips", CommandOp::DropTips},
      {"ReturnTips", CommandOp::ReturnTips},
      {"Aspirate", CommandOp::Aspirate},
      {"Dispense", CommandOp::Dispense},
      {"Mix", CommandOp::Mix},
      {"MovePlate", CommandOp::MovePlate},
      {"RemoveLid", CommandOp::RemoveLid},
      {"PlaceLid", CommandOp::PlaceLid},
      {"SwapTipRack", CommandOp::SwapTipRack},
      {"SetTemperature", CommandOp::SetTemperature},
      {"Off", CommandOp::Off},
      {"Shake", CommandOp::Shake},
      {"ReadAbsorbance", CommandOp::ReadAbsorbance},
      {"Wait", CommandOp::Wait},
      {"Prompt", CommandOp::Prompt},
  };
  for (const auto &[name, value] : kOps)
    if (name == op)
      return value;
  return CommandOp::Other;
}

} // namespace

namespace {

/// Opcode and op of the command's module and op names.
void decodeName(const Command &command, CommandFields &fields) {
  const std::vector<CommandSpec> &schema = commandSchema();
  if (const CommandSpec *spec = findCommandSpec(command.module, command.op))
    fields.opcode = static_cast<Opcode>(spec - schema.data());
  fields.op = opNamed(command.op);
}

std::optional<double> numberArg(const Json &value) {
  if (!value.is_number())
    return std::nullopt;
  return value.get<double>();
}

unsigned indexArg(const Json &value) { return value.is_number() ? value.get<unsigned>() : 0u; }

/// The typed field of one argument; unknown keys are left to the stream
/// reader's schema check.
void decodeArg(CommandFields &fields, std::string_view key, const Json &value) {
  if (key == "row") {
    fields.hasRowKey = true;
    fields.row = numberArg(value);
    fields.rowIndex = indexArg(value);
  } else if (key == "col") {
    fields.hasColKey = true;
    fields.col = numberArg(value);
    fields.colIndex = indexArg(value);
  } else if (key == "mask") {
    if (!value.is_string())
      return;
    const std::string &mask = value.get_ref<const std::string &>();
    fields.maskLength = static_cast<uint32_t>(mask.size());
    fields.maskBinary =
        std::all_of(mask.begin(), mask.end(), [](char c) { return c == '0' || c == '1'; });
    fields.maskBits = 0;
    for (size_t channel = 0; channel < mask.size() && channel < 64; ++channel)
      if (mask[channel] == '1')
        fields.maskBits |= uint64_t(1) << channel;
  } else if (key == "slot") {
    fields.slot = slotId(value);
  } else if (key == "from") {
    fields.from = slotId(value);
  } else if (key == "to") {
    fields.to = slotId(value);
  } else if (key == "volume_ul") {
    fields.volumeUl = numberArg(value).value_or(0);
  } else if (key == "cycles") {
    fields.cycles = numberArg(value).value_or(0);
  } else if (key == "celsius") {
    fields.celsius = numberArg(value).value_or(0);
  } else if (key == "rpm") {
    fields.rpm = numberArg(value).value_or(0);
  } else if (key == "seconds") {
    fields.seconds = numberArg(value).value_or(0);
  } else if (key == "wavelength_nm") {
    fields.wavelengthNm = numberArg(value);
  } else if (key == "reference_nm") {
    fields.hasReferenceKey = true;
    fields.referenceNm = numberArg(value);
  } else if (key == "wells" && value.is_array()) {
    fields.wellsIsArray = true;
    fields.wellsAllNamed = true;
    fields.wells.clear();
    fields.wells.reserve(value.size());
    for (const Json &name : value) {
      std::optional<Well> well;
      if (name.is_string())
        well = Well::parse(name.get_ref<const std::string &>());
      Well parsed = well.value_or(Well{});
      fields.wellsAllNamed &= well.has_value() && parsed.row >= 1 && parsed.col >= 1;
      fields.wells.push_back(parsed);
      fields.wellsMaxRow = std::max(fields.wellsMaxRow, parsed.row);
      fields.wellsMaxCol = std::max(fields.wellsMaxCol, parsed.col);
    }
  }
}

} // namespace

void decodeCommand(Command &command) {
  static_assert(static_cast<size_t>(Opcode::Unknown) == 20, "one Opcode per schema row");
  CommandFields fields;
  fields.decoded = true;
  decodeName(command, fields);
  // One pass over the arguments (keys are unique in a JSON object), not a
  // lookup per field: this runs for every command read from a stream.
  if (command.args.is_object())
    for (auto it = command.args.begin(); it != command.args.end(); ++it)
      decodeArg(fields, it.key(), it.value());
  command.fields = std::move(fields);
}

namespace {

/// Appends each argument to the JSON the stream writes and decodes it into
/// the typed fields at once, so a lowered command is never decoded from
/// its JSON (CommandDecode.LoweredFieldsEqualDecoded proves both agree).
/// Appending skips ordered_json's key search: lowering writes each key
/// once.
class ArgWriter {
public:
  explicit ArgWriter(Command &command)
      : object_(command.args.get_ref<Json::object_t &>()), fields_(command.fields) {
    object_.reserve(kMostArguments);
  }
  void operator()(const char *key, Json value) {
    object_.emplace_back(key, std::move(value));
    decodeArg(fields_, key, object_.back().second);
  }
  void place(const ir::Place &place, bool hasCoordinates) {
    (*this)("slot", jsonSlot(place.slot));
    if (hasCoordinates) {
      (*this)("row", place.row);
      (*this)("col", place.col);
    }
  }

private:
  static constexpr size_t kMostArguments = 6; ///< LH.Mix: slot row col mask volume cycles
  Json::object_t &object_;
  CommandFields &fields_;
};

/// Builds the command of one device op; false for host and manual ops.
bool lowerOp(const ir::Op &op, const Platform &platform, Command &command) {
  auto us = [](const Quantity &q) { return jsonNumber(q.canonicalValue()); };
  ArgWriter args(command);
  return std::visit(
      [&](const auto &payload) -> bool {
        using T = std::decay_t<decltype(payload)>;
        if constexpr (std::is_same_v<T, ir::PickTipsOp> ||
                      std::is_same_v<T, ir::ReturnTipsOp>) {
          command.module = platform.liquidHandler;
          command.op = std::is_same_v<T, ir::PickTipsOp> ? "PickTips" : "ReturnTips";
          args("row", payload.row);
          args("col", payload.col);
          args("mask", payload.mask.str());
        } else if constexpr (std::is_same_v<T, ir::DropTipsOp>) {
          command.module = platform.liquidHandler;
          command.op = "DropTips";
          args("mask", payload.mask.str());
        } else if constexpr (std::is_same_v<T, ir::DevAspirateOp>) {
          command.module = platform.liquidHandler;
          command.op = "Aspirate";
          args.place(payload.place, true);
          args("mask", payload.mask.str());
          args("volume_ul", us(payload.volume));
        } else if constexpr (std::is_same_v<T, ir::DevDispenseOp>) {
          command.module = platform.liquidHandler;
          command.op = "Dispense";
          args.place(payload.place, payload.place.slot != platform.solutionWasteSlot);
          args("mask", payload.mask.str());
          args("volume_ul", us(payload.volume));
        } else if constexpr (std::is_same_v<T, ir::DevMixOp>) {
          command.module = platform.liquidHandler;
          command.op = "Mix";
          args.place(payload.place, true);
          args("mask", payload.mask.str());
          args("volume_ul", us(payload.volume));
          args("cycles", payload.cycles);
        } else if constexpr (std::is_same_v<T, ir::MovePlateOp>) {
          command.module = payload.module;
          command.op = "MovePlate";
          args("from", jsonSlot(payload.from));
          args("to", jsonSlot(payload.to));
        } else if constexpr (std::is_same_v<T, ir::LidOp>) {
          command.module = payload.module;
          command.op = payload.place ? "PlaceLid" : "RemoveLid";
          args("slot", jsonSlot(payload.slot));
        } else if constexpr (std::is_same_v<T, ir::SwapTipRackOp>) {
          command.module = payload.module.empty() ? platform.tipSwapModule : payload.module;
          command.op = "SwapTipRack";
        } else if constexpr (std::is_same_v<T, ir::SetTemperatureOp>) {
          command.module = payload.module.empty() ? platform.heaterModule : payload.module;
          command.op = "SetTemperature";
          args("celsius", us(payload.temperature));
        } else if constexpr (std::is_same_v<T, ir::HeaterOffOp>) {
          command.module = payload.module.empty() ? platform.heaterModule : payload.module;
          command.op = "Off";
        } else if constexpr (std::is_same_v<T, ir::DevShakeOp>) {
          command.module = payload.module.empty() ? platform.shakerModule : payload.module;
          command.op = "Shake";
          args("rpm", us(payload.speed));
          args("seconds", us(payload.time));
        } else if constexpr (std::is_same_v<T, ir::DevReadOp>) {
          command.module = payload.module.empty() ? platform.readerModule : payload.module;
          command.op = "ReadAbsorbance";
          args("wavelength_nm", us(payload.wavelength));
          if (payload.reference)
            args("reference_nm", us(*payload.reference));
          Json wells = Json::array();
          for (const Well &well : payload.wells)
            wells.push_back(well.name());
          args("wells", std::move(wells));
        } else if constexpr (std::is_same_v<T, ir::DevWaitOp>) {
          command.module = platform.systemModule;
          command.op = "Wait";
          args("seconds", us(payload.time));
        } else if constexpr (std::is_same_v<T, ir::PromptOp>) {
          command.module = platform.systemModule;
          command.op = "Prompt";
          args("text", payload.text);
        } else {
          return false; // high-level or host op: no device command
        }
        return true;
      },
      op.payload);
}

} // namespace

std::vector<Command> lowerToCommands(const ir::Module &module,
                                     const Platform &platform) {
  std::vector<Command> commands;
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
    decodeName(command, command.fields);
    command.fields.decoded = true;
    commands.push_back(std::move(command));
  }
  return commands;
}

Json commandToJson(const Command &command) {
  Json object = Json::object();
  object["seq"] = command.seq;
  object["module"] = command.module;
  object["op"] = command.op;
  object["args"] = command.args.is_null() ? Json::object() : command.args;
  object["step"] = command.step;
  object["line"] = command.line;
  if (command.tipsReuse)
    object["tips"] = "reuse";
  return object;
}

namespace {
/// Appends `text` as a JSON string exactly as nlohmann's dump() writes it;
/// plain ASCII without quotes, backslashes or control characters (every
/// module, op and step label in practice) skips the serializer.
void appendJsonString(std::string &out, const std::string &text) {
  bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c != '"' && c != '\\' && static_cast<unsigned char>(c) < 0x80;
  });
  if (!plain) {
    out += Json(text).dump();
    return;
  }
  out += '"';
  out += text;
  out += '"';
}
} // namespace

std::string commandToJsonLine(const Command &command) {
  // Byte for byte commandToJson(command).dump(), without copying the
  // arguments into a new object first: emission is a hot path on large
  // streams (bench/README.md).
  std::string line;
  line.reserve(160);
  line += "{\"seq\":";
  line += std::to_string(command.seq);
  line += ",\"module\":";
  appendJsonString(line, command.module);
  line += ",\"op\":";
  appendJsonString(line, command.op);
  line += ",\"args\":";
  line += command.args.is_null() ? "{}" : command.args.dump();
  line += ",\"step\":";
  appendJsonString(line, command.step);
  line += ",\"line\":";
  line += std::to_string(command.line);
  if (command.tipsReuse)
    line += ",\"tips\":\"reuse\"";
  line += '}';
  return line;
}

std::string commandToText(const Command &command) {
  std::string text = command.name();
  for (const auto &[key, value] : command.args.items()) {
    text += ' ';
    text += key;
    text += '=';
    if (value.is_string())
      text += value.get<std::string>();
    else if (value.is_array()) {
      bool first = true;
      for (const Json &item : value) {
        if (!first)
          text += ',';
        first = false;
        text += item.is_string() ? item.get_ref<const std::string &>() : item.dump();
      }
    } else
      text += value.dump();
  }
  if (command.tipsReuse)
    text += " tips=reuse";
  return text;
}

double commandSeconds(const Command &command, const Platform &platform) {
  if (!command.fields.decoded) {
    Command decoded = command;
    decodeCommand(decoded);
    return commandSeconds(decoded, platform);
  }
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
