//===- CommandDecode.cpp - JSON arguments of a stream line into typed fields ===//
//
// Every field reads its argument the way the checks always have (see
// CommandFields), so that a mistyped value in a hand-built command fails
// the twin's check instead of the decoder.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/CommandDecode.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

namespace plate::backend {

std::string slotId(const Json &value) {
  if (value.is_number_integer())
    return std::to_string(value.get<int64_t>());
  if (value.is_string())
    return value.get<std::string>();
  return {};
}

namespace {

std::optional<ArgKey> keyNamed(std::string_view name) {
  static constexpr std::pair<std::string_view, ArgKey> kKeys[] = {
      {"row", ArgKey::Row},
      {"col", ArgKey::Col},
      {"mask", ArgKey::Mask},
      {"slot", ArgKey::Slot},
      {"from", ArgKey::From},
      {"to", ArgKey::To},
      {"volume_ul", ArgKey::VolumeUl},
      {"cycles", ArgKey::Cycles},
      {"celsius", ArgKey::Celsius},
      {"rpm", ArgKey::Rpm},
      {"seconds", ArgKey::Seconds},
      {"wavelength_nm", ArgKey::WavelengthNm},
      {"reference_nm", ArgKey::ReferenceNm},
      {"wells", ArgKey::Wells},
      {"text", ArgKey::Text},
  };
  for (const auto &[spelling, key] : kKeys)
    if (spelling == name)
      return key;
  return std::nullopt;
}

std::optional<double> numberArg(const Json &value) {
  if (!value.is_number())
    return std::nullopt;
  return value.get<double>();
}

/// The well index a checked command uses. A number that is no index
/// (negative, fractional, past the range, not finite) maps to 0, which no
/// plate has: the checker reports the spelled value from `numberArg`, and
/// converting it here would be undefined behaviour, not a diagnostic.
unsigned indexArg(const Json &value) {
  if (value.is_number_unsigned())
    return value.get<uint64_t>() <= std::numeric_limits<unsigned>::max() ? value.get<unsigned>()
                                                                          : 0u;
  if (!value.is_number())
    return 0u;
  double number = value.get<double>();
  if (!(number >= 0) || number > std::numeric_limits<unsigned>::max() ||
      number != std::floor(number))
    return 0u;
  return static_cast<unsigned>(number);
}

void decodeMask(CommandFields &fields, const std::string &mask) {
  fields.maskLength = static_cast<uint32_t>(mask.size());
  fields.maskBinary =
      std::all_of(mask.begin(), mask.end(), [](char c) { return c == '0' || c == '1'; });
  fields.maskBits = 0;
  for (size_t channel = 0; channel < mask.size() && channel < 64; ++channel)
    if (mask[channel] == '1')
      fields.maskBits |= uint64_t(1) << channel;
  if (!fields.maskBinary || mask.size() > 64)
    fields.maskSpelling = mask;
}

/// Appends one entry of a `wells` list; `name` is null for an entry that
/// is not a string.
void addWell(CommandFields &fields, const std::string *name, std::string spelling) {
  std::optional<Well> well;
  if (name)
    well = Well::parse(*name);
  Well parsed = well.value_or(Well{});
  fields.wellsAllNamed &= well.has_value() && parsed.row >= 1 && parsed.col >= 1;
  fields.wells.push_back(parsed);
  fields.wellSpellings.push_back(std::move(spelling));
  fields.wellsMaxRow = std::max(fields.wellsMaxRow, parsed.row);
  fields.wellsMaxCol = std::max(fields.wellsMaxCol, parsed.col);
}

void startWells(CommandFields &fields, size_t count) {
  fields.wellsIsArray = true;
  fields.wellsAllNamed = true;
  fields.wells.clear();
  fields.wells.reserve(count);
  fields.wellSpellings.clear();
  fields.wellSpellings.reserve(count);
}

/// Keeps the spellings only when a name is not its well's: names that
/// parse are canonical (Well::parse takes no other spelling).
void finishWells(CommandFields &fields) {
  if (fields.wellsAllNamed)
    fields.wellSpellings.clear();
}

void decodeArg(CommandFields &fields, ArgKey key, const Json &value) {
  switch (key) {
  case ArgKey::Row:
    fields.hasRowKey = true;
    fields.row = numberArg(value);
    fields.rowIndex = indexArg(value);
    return;
  case ArgKey::Col:
    fields.hasColKey = true;
    fields.col = numberArg(value);
    fields.colIndex = indexArg(value);
    return;
  case ArgKey::Mask:
    if (value.is_string())
      decodeMask(fields, value.get_ref<const std::string &>());
    return;
  case ArgKey::Slot: fields.slot = slotId(value); return;
  case ArgKey::From: fields.from = slotId(value); return;
  case ArgKey::To: fields.to = slotId(value); return;
  case ArgKey::VolumeUl: fields.volumeUl = numberArg(value).value_or(0); return;
  case ArgKey::Cycles: fields.cycles = numberArg(value).value_or(0); return;
  case ArgKey::Celsius: fields.celsius = numberArg(value).value_or(0); return;
  case ArgKey::Rpm: fields.rpm = numberArg(value).value_or(0); return;
  case ArgKey::Seconds: fields.seconds = numberArg(value).value_or(0); return;
  case ArgKey::WavelengthNm: fields.wavelengthNm = numberArg(value); return;
  case ArgKey::ReferenceNm:
    fields.hasReferenceKey = true;
    fields.referenceNm = numberArg(value);
    return;
  case ArgKey::Text:
    if (value.is_string())
      fields.text = value.get<std::string>();
    return;
  case ArgKey::Wells:
    if (!value.is_array())
      return;
    startWells(fields, value.size());
    for (const Json &name : value) {
      if (name.is_string())
        addWell(fields, &name.get_ref<const std::string &>(), name.get<std::string>());
      else
        addWell(fields, nullptr, name.dump());
    }
    finishWells(fields);
    return;
  }
}

} // namespace

CommandFields decodeFields(CommandOp op, const Json &args) {
  CommandFields fields;
  fields.op = op;
  // One pass over the arguments (keys are unique in a JSON object), not a
  // lookup per field: this runs for every command read from a stream.
  if (args.is_object())
    for (auto it = args.begin(); it != args.end(); ++it)
      if (std::optional<ArgKey> key = keyNamed(it.key()))
        decodeArg(fields, *key, it.value());
  return fields;
}

Command decodeCommand(std::string module, std::string_view op, const Json &args) {
  Command command;
  command.module = std::move(module);
  command.fields = decodeFields(opNamed(op), args);
  return command;
}

void setWellNames(CommandFields &fields, const std::vector<std::string> &names) {
  startWells(fields, names.size());
  for (const std::string &name : names)
    addWell(fields, &name, name);
  finishWells(fields);
}

} // namespace plate::backend
