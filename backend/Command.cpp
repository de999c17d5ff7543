//===- Command.cpp - Command schema, lowering from the IR, timing ----------===//
//
// The schema table below is bioforge1.md §3 verbatim; the emitter writes
// arguments in its order (from the typed fields of a lowered command, see
// Command.h) and the reader checks against it. Durations follow §5 with
// every number taken from the platform's TimingModel and routes.
//
//===----------------------------------------------------------------------===//
#include "backend/Command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace plate::backend {

namespace {
/// Whether the stream writes the number as an integer (`100`, not `100.0`).
bool writtenAsInteger(double value) {
  return std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15;
}

bool allDigits(const std::string &text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}
} // namespace

Json jsonNumber(double value) {
  if (writtenAsInteger(value))
    return Json(static_cast<int64_t>(value));
  return Json(value);
}

Json jsonSlot(const std::string &slot) {
  if (allDigits(slot))
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
  } else if (key == "text") {
    if (value.is_string())
      fields.text = value.get<std::string>();
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

/// A number as it reads back from the stream: jsonNumber writes integral
/// values as integers, so -0 reads back as 0.
double streamNumber(double value) {
  if (writtenAsInteger(value))
    return static_cast<double>(static_cast<int64_t>(value));
  return value;
}

/// The slot id the stream reader decodes from jsonSlot(slot): "05" is
/// written as 5 and reads back as "5".
std::string streamSlot(const std::string &slot) {
  if (allDigits(slot) && (slot[0] == '0' || slot.size() > 18))
    return slotId(jsonSlot(slot));
  return slot;
}

/// Fills the typed fields of a lowered command exactly as decodeCommand
/// would from the JSON the stream writes for it (CommandEmit tests prove
/// both agree). What the fields cannot spell goes into `spelled`, which
/// lowerToCommands turns into `args`.
class FieldWriter {
public:
  FieldWriter(CommandFields &fields, Json &spelled) : fields_(fields), spelled_(spelled) {}

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
    if (mask.channels > 64) {
      spelled_["mask"] = mask.str();
      return;
    }
    fields_.maskLength = mask.channels;
    fields_.maskBinary = true;
    fields_.maskBits = 0;
    for (unsigned channel = 0; channel < mask.channels; ++channel)
      if (mask.test(channel))
        fields_.maskBits |= uint64_t(1) << channel;
  }
  void wells(const std::vector<Well> &wells) {
    fields_.wellsIsArray = true;
    fields_.wellsAllNamed = true;
    fields_.wells = wells;
    for (const Well &well : wells) {
      // A well whose name() does not parse back reads as Well{}: spell it.
      if (well.row < 1 || well.row > kMaxRows || well.col < 1 || well.col > kMaxCols) {
        Json names = Json::array();
        for (const Well &each : wells)
          names.push_back(each.name());
        spelled_["wells"] = std::move(names);
        return;
      }
      fields_.wellsMaxRow = std::max(fields_.wellsMaxRow, well.row);
      fields_.wellsMaxCol = std::max(fields_.wellsMaxCol, well.col);
    }
  }

private:
  CommandFields &fields_;
  Json &spelled_;
};

/// The schema row of `kind` on `module`: decodeName's answer for an op
/// name that opNamed maps to `kind`.
Opcode opcodeOf(CommandOp kind, const std::string &module) {
  static const auto rows = [] {
    std::vector<std::vector<uint8_t>> rows(static_cast<size_t>(CommandOp::Other) + 1);
    const std::vector<CommandSpec> &schema = commandSchema();
    for (size_t row = 0; row < schema.size(); ++row)
      rows[static_cast<size_t>(opNamed(schema[row].op))].push_back(static_cast<uint8_t>(row));
    return rows;
  }();
  const std::vector<CommandSpec> &schema = commandSchema();
  for (uint8_t row : rows[static_cast<size_t>(kind)])
    if (module == schema[row].module)
      return static_cast<Opcode>(row);
  return Opcode::Unknown;
}

/// Builds the command of one device op; false for host and manual ops.
bool lowerOp(const ir::Op &op, const Platform &platform, Command &command, Json &spelled) {
  CommandOp kind = CommandOp::Other;
  auto us = [](const Quantity &q) { return streamNumber(q.canonicalValue()); };
  CommandFields &f = command.fields;
  FieldWriter args(f, spelled);
  return std::visit(
      [&](const auto &payload) -> bool {
        using T = std::decay_t<decltype(payload)>;
        if constexpr (std::is_same_v<T, ir::PickTipsOp> ||
                      std::is_same_v<T, ir::ReturnTipsOp>) {
          command.module = platform.liquidHandler;
          command.op = std::is_same_v<T, ir::PickTipsOp> ? "PickTips" : "ReturnTips";
          kind = std::is_same_v<T, ir::PickTipsOp> ? CommandOp::PickTips : CommandOp::ReturnTips;
          args.row(payload.row);
          args.col(payload.col);
          args.mask(payload.mask);
        } else if constexpr (std::is_same_v<T, ir::DropTipsOp>) {
          command.module = platform.liquidHandler;
          command.op = "DropTips";
          kind = CommandOp::DropTips;
          args.mask(payload.mask);
        } else if constexpr (std::is_same_v<T, ir::DevAspirateOp>) {
          command.module = platform.liquidHandler;
          command.op = "Aspirate";
          kind = CommandOp::Aspirate;
          args.place(payload.place, true);
          args.mask(payload.mask);
          f.volumeUl = us(payload.volume);
        } else if constexpr (std::is_same_v<T, ir::DevDispenseOp>) {
          command.module = platform.liquidHandler;
          command.op = "Dispense";
          kind = CommandOp::Dispense;
          args.place(payload.place, payload.place.slot != platform.solutionWasteSlot);
          args.mask(payload.mask);
          f.volumeUl = us(payload.volume);
        } else if constexpr (std::is_same_v<T, ir::DevMixOp>) {
          command.module = platform.liquidHandler;
          command.op = "Mix";
          kind = CommandOp::Mix;
          args.place(payload.place, true);
          args.mask(payload.mask);
          f.volumeUl = us(payload.volume);
          f.cycles = payload.cycles;
        } else if constexpr (std::is_same_v<T, ir::MovePlateOp>) {
          command.module = payload.module;
          command.op = "MovePlate";
          kind = CommandOp::MovePlate;
          f.from = streamSlot(payload.from);
          f.to = streamSlot(payload.to);
        } else if constexpr (std::is_same_v<T, ir::LidOp>) {
          command.module = payload.module;
          command.op = payload.place ? "PlaceLid" : "RemoveLid";
          kind = payload.place ? CommandOp::PlaceLid : CommandOp::RemoveLid;
          f.slot = streamSlot(payload.slot);
        } else if constexpr (std::is_same_v<T, ir::SwapTipRackOp>) {
          command.module = payload.module.empty() ? platform.tipSwapModule : payload.module;
          command.op = "SwapTipRack";
          kind = CommandOp::SwapTipRack;
        } else if constexpr (std::is_same_v<T, ir::SetTemperatureOp>) {
          command.module = payload.module.empty() ? platform.heaterModule : payload.module;
          command.op = "SetTemperature";
          kind = CommandOp::SetTemperature;
          f.celsius = us(payload.temperature);
        } else if constexpr (std::is_same_v<T, ir::HeaterOffOp>) {
          command.module = payload.module.empty() ? platform.heaterModule : payload.module;
          command.op = "Off";
          kind = CommandOp::Off;
        } else if constexpr (std::is_same_v<T, ir::DevShakeOp>) {
          command.module = payload.module.empty() ? platform.shakerModule : payload.module;
          command.op = "Shake";
          kind = CommandOp::Shake;
          f.rpm = us(payload.speed);
          f.seconds = us(payload.time);
        } else if constexpr (std::is_same_v<T, ir::DevReadOp>) {
          command.module = payload.module.empty() ? platform.readerModule : payload.module;
          command.op = "ReadAbsorbance";
          kind = CommandOp::ReadAbsorbance;
          f.wavelengthNm = us(payload.wavelength);
          if (payload.reference) {
            f.hasReferenceKey = true;
            f.referenceNm = us(*payload.reference);
          }
          args.wells(payload.wells);
        } else if constexpr (std::is_same_v<T, ir::DevWaitOp>) {
          command.module = platform.systemModule;
          command.op = "Wait";
          kind = CommandOp::Wait;
          f.seconds = us(payload.time);
        } else if constexpr (std::is_same_v<T, ir::PromptOp>) {
          command.module = platform.systemModule;
          command.op = "Prompt";
          kind = CommandOp::Prompt;
          f.text = payload.text;
        } else {
          return false; // high-level or host op: no device command
        }
        // What decodeName would find, without comparing names: the op is
        // known here, only the module (from the platform) is looked up.
        f.op = kind;
        f.opcode = opcodeOf(kind, command.module);
        f.decoded = true;
        return true;
      },
      op.payload);
}

/// Which typed field an argument of the schema lives in.
enum class ArgKey : uint8_t {
  Row, Col, Mask, Slot, From, To, VolumeUl, Cycles, Celsius, Rpm, Seconds, WavelengthNm,
  ReferenceNm, Wells, Text
};

/// The schema's argument names as ArgKeys, per opcode: the emitter walks
/// the table without comparing names.
struct SchemaKeys {
  std::vector<ArgKey> keys[static_cast<size_t>(Opcode::Unknown)];
  SchemaKeys() {
    static constexpr std::pair<std::string_view, ArgKey> kKeys[] = {
        {"row", ArgKey::Row},         {"col", ArgKey::Col},
        {"mask", ArgKey::Mask},       {"slot", ArgKey::Slot},
        {"from", ArgKey::From},       {"to", ArgKey::To},
        {"volume_ul", ArgKey::VolumeUl}, {"cycles", ArgKey::Cycles},
        {"celsius", ArgKey::Celsius}, {"rpm", ArgKey::Rpm},
        {"seconds", ArgKey::Seconds}, {"wavelength_nm", ArgKey::WavelengthNm},
        {"reference_nm", ArgKey::ReferenceNm}, {"wells", ArgKey::Wells},
        {"text", ArgKey::Text},
    };
    const std::vector<CommandSpec> &schema = commandSchema();
    for (size_t row = 0; row < schema.size(); ++row)
      for (const ArgSpec &arg : schema[row].args) {
        auto it = std::find_if(std::begin(kKeys), std::end(kKeys),
                               [&](const auto &entry) { return entry.first == arg.name; });
        PLATE_ASSERT(it != std::end(kKeys), "every schema argument has a typed field");
        keys[row].push_back(it->second);
      }
  }
};

const SchemaKeys &schemaKeys() {
  static const SchemaKeys table;
  return table;
}

/// Whether an optional argument is present in the fields.
bool present(const CommandFields &fields, ArgKey key) {
  switch (key) {
  case ArgKey::Row: return fields.hasRowKey;
  case ArgKey::Col: return fields.hasColKey;
  case ArgKey::ReferenceNm: return fields.hasReferenceKey;
  default: return true;
  }
}

/// Calls visit(name, key) for each argument a command with null `args`
/// has, in schema order.
template <typename Visit> void forEachFieldArg(const CommandFields &fields, Visit &&visit) {
  if (fields.opcode == Opcode::Unknown)
    return;
  size_t row = static_cast<size_t>(fields.opcode);
  const std::vector<ArgSpec> &specs = commandSchema()[row].args;
  const std::vector<ArgKey> &keys = schemaKeys().keys[row];
  for (size_t i = 0; i < specs.size(); ++i)
    if (specs[i].required || present(fields, keys[i]))
      visit(specs[i].name, keys[i]);
}

std::string maskText(const CommandFields &fields) {
  std::string text(fields.maskLength, '0');
  for (uint32_t channel = 0; channel < fields.maskLength && channel < 64; ++channel)
    if (fields.maskBits >> channel & 1)
      text[channel] = '1';
  return text;
}

Json optionalNumber(const std::optional<double> &value) {
  return value ? jsonNumber(*value) : Json(nullptr);
}

Json fieldArg(const CommandFields &fields, ArgKey key) {
  switch (key) {
  case ArgKey::Row: return optionalNumber(fields.row);
  case ArgKey::Col: return optionalNumber(fields.col);
  case ArgKey::Mask: return maskText(fields);
  case ArgKey::Slot: return jsonSlot(fields.slot);
  case ArgKey::From: return jsonSlot(fields.from);
  case ArgKey::To: return jsonSlot(fields.to);
  case ArgKey::VolumeUl: return jsonNumber(fields.volumeUl);
  case ArgKey::Cycles: return jsonNumber(fields.cycles);
  case ArgKey::Celsius: return jsonNumber(fields.celsius);
  case ArgKey::Rpm: return jsonNumber(fields.rpm);
  case ArgKey::Seconds: return jsonNumber(fields.seconds);
  case ArgKey::WavelengthNm: return optionalNumber(fields.wavelengthNm);
  case ArgKey::ReferenceNm: return optionalNumber(fields.referenceNm);
  case ArgKey::Wells: {
    Json names = Json::array();
    for (const Well &well : fields.wells)
      names.push_back(well.name());
    return names;
  }
  case ArgKey::Text: return fields.text;
  }
  return nullptr;
}

} // namespace

std::vector<Command> lowerToCommands(const ir::Module &module,
                                     const Platform &platform) {
  std::vector<Command> commands;
  commands.reserve(module.ops.size());
  for (const ir::Op &op : module.ops) {
    if (op.manual)
      continue;
    Command command{Command::FromFields{}};
    Json spelled;
    if (!lowerOp(op, platform, command, spelled))
      continue;
    command.seq = static_cast<uint32_t>(commands.size() + 1);
    command.step = op.step;
    command.line = op.loc.line;
    command.tipsReuse = op.tipsReuse;
    if (!spelled.is_null()) {
      // Rare: arguments the fields cannot spell. Keep them as JSON, which
      // makes `args` authoritative, and decode the fields from it.
      Json args = commandArgs(command);
      for (auto it = spelled.begin(); it != spelled.end(); ++it)
        args[it.key()] = it.value();
      command.args = std::move(args);
      decodeCommand(command);
    }
    commands.push_back(std::move(command));
  }
  return commands;
}

Json commandArgs(const Command &command) {
  if (!command.args.is_null())
    return command.args;
  Json args = Json::object();
  if (!command.fields.decoded)
    return args;
  auto &object = args.get_ref<Json::object_t &>();
  forEachFieldArg(command.fields, [&](const char *name, ArgKey key) {
    object.emplace_back(name, fieldArg(command.fields, key));
  });
  return args;
}

Json commandToJson(const Command &command) {
  Json object = Json::object();
  object["seq"] = command.seq;
  object["module"] = command.module;
  object["op"] = command.op;
  object["args"] = commandArgs(command);
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

template <typename Int> void appendInt(std::string &out, Int value) {
  fmt::format_int digits(value);
  out.append(digits.data(), digits.size());
}

/// Appends a number as dump() writes jsonNumber(value): integers in
/// decimal, anything else through nlohmann's own serializer (its
/// shortest round-trip form is not printf's).
void appendNumber(std::string &out, double value) {
  if (writtenAsInteger(value)) {
    appendInt(out, static_cast<int64_t>(value));
    return;
  }
  out += Json(value).dump();
}

void appendOptionalNumber(std::string &out, const std::optional<double> &value) {
  if (value)
    appendNumber(out, *value);
  else
    out += "null";
}

/// Appends a slot as dump() writes jsonSlot(slot).
void appendSlot(std::string &out, const std::string &slot) {
  if (!allDigits(slot)) {
    appendJsonString(out, slot);
  } else if (slot[0] == '0' || slot.size() > 18) {
    out += jsonSlot(slot).dump();
  } else {
    out += slot;
  }
}

void appendFieldArg(std::string &out, const CommandFields &fields, ArgKey key) {
  switch (key) {
  case ArgKey::Row: return appendOptionalNumber(out, fields.row);
  case ArgKey::Col: return appendOptionalNumber(out, fields.col);
  case ArgKey::Mask:
    out += '"';
    for (uint32_t channel = 0; channel < fields.maskLength; ++channel)
      out += channel < 64 && (fields.maskBits >> channel & 1) ? '1' : '0';
    out += '"';
    return;
  case ArgKey::Slot: return appendSlot(out, fields.slot);
  case ArgKey::From: return appendSlot(out, fields.from);
  case ArgKey::To: return appendSlot(out, fields.to);
  case ArgKey::VolumeUl: return appendNumber(out, fields.volumeUl);
  case ArgKey::Cycles: return appendNumber(out, fields.cycles);
  case ArgKey::Celsius: return appendNumber(out, fields.celsius);
  case ArgKey::Rpm: return appendNumber(out, fields.rpm);
  case ArgKey::Seconds: return appendNumber(out, fields.seconds);
  case ArgKey::WavelengthNm: return appendOptionalNumber(out, fields.wavelengthNm);
  case ArgKey::ReferenceNm: return appendOptionalNumber(out, fields.referenceNm);
  case ArgKey::Wells: {
    out += '[';
    bool first = true;
    for (const Well &well : fields.wells) {
      if (!first)
        out += ',';
      first = false;
      // Well::name() without its temporary string; well names are plain
      // ASCII, so no escaping.
      out += '"';
      out += static_cast<char>('A' + well.row - 1);
      appendInt(out, well.col);
      out += '"';
    }
    out += ']';
    return;
  }
  case ArgKey::Text: return appendJsonString(out, fields.text);
  }
}
} // namespace

void appendCommandJsonLine(std::string &line, const Command &command) {
  // Byte for byte commandToJson(command).dump(), without building the
  // JSON object: emission is a hot path on large streams (bench/README.md).
  line += "{\"seq\":";
  appendInt(line, command.seq);
  line += ",\"module\":";
  appendJsonString(line, command.module);
  line += ",\"op\":";
  appendJsonString(line, command.op);
  line += ",\"args\":";
  if (!command.args.is_null()) {
    line += command.args.dump();
  } else if (!command.fields.decoded) {
    line += "{}";
  } else {
    line += '{';
    bool first = true;
    forEachFieldArg(command.fields, [&](const char *name, ArgKey key) {
      if (!first)
        line += ',';
      first = false;
      line += '"';
      line += name; // schema names are plain ASCII
      line += "\":";
      appendFieldArg(line, command.fields, key);
    });
    line += '}';
  }
  line += ",\"step\":";
  appendJsonString(line, command.step);
  line += ",\"line\":";
  appendInt(line, command.line);
  if (command.tipsReuse)
    line += ",\"tips\":\"reuse\"";
  line += '}';
}

std::string commandToJsonLine(const Command &command) {
  std::string line;
  line.reserve(160);
  appendCommandJsonLine(line, command);
  return line;
}

std::string commandToText(const Command &command) {
  std::string text = command.name();
  Json args = commandArgs(command);
  for (const auto &[key, value] : args.items()) {
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
