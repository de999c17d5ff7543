//===- CommandSerializer.cpp - Writing a command: stream line, JSON, text -===//
//
// Writing is a hot path on large streams (bench/README.md): the line is
// appended straight from the fields, byte for byte what nlohmann's dump()
// writes for the same values, without building a JSON object per command
// (issue 7). Values nlohmann spells in its own way (non-integral numbers,
// strings that need escaping) go through it.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/CommandSerializer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

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

template <typename Int> void appendInt(std::string &out, Int value) {
  fmt::format_int digits(value);
  out.append(digits.data(), digits.size());
}

/// Appends `text` as a JSON string exactly as nlohmann's dump() writes it;
/// plain ASCII without quotes, backslashes or control characters (every
/// module, op and step label in practice) skips the serializer.
void appendJsonString(std::string &out, std::string_view text) {
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

/// Spells argument values in one syntax: JSON (strings quoted and
/// escaped, lists in brackets) or the listing's text (strings as they
/// are, lists joined by commas). Numbers are spelled alike in both.
class ValueWriter {
public:
  ValueWriter(std::string &out, bool json) : out_(out), json_(json) {}

  void string(std::string_view text) {
    if (json_)
      appendJsonString(out_, text);
    else
      out_ += text;
  }
  /// As jsonNumber(value) dumps: integers in decimal, anything else in
  /// nlohmann's shortest round-trip form (not printf's).
  void number(double value) {
    if (writtenAsInteger(value))
      appendInt(out_, static_cast<int64_t>(value));
    else
      appendJsonDouble(out_, value);
  }
  void optionalNumber(const std::optional<double> &value) {
    if (value)
      number(*value);
    else
      out_ += "null";
  }
  /// As jsonSlot(slot) dumps: Main Deck slots are numbers.
  void slot(const std::string &slot) {
    if (!allDigits(slot))
      string(slot);
    else if (slot[0] == '0' || slot.size() > 18)
      out_ += jsonSlot(slot).dump();
    else
      out_ += slot;
  }
  void mask(const CommandFields &fields) {
    if (!fields.maskSpelling.empty())
      return string(fields.maskSpelling);
    if (json_)
      out_ += '"';
    for (uint32_t channel = 0; channel < fields.maskLength; ++channel)
      out_ += channel < 64 && (fields.maskBits >> channel & 1) ? '1' : '0';
    if (json_)
      out_ += '"';
  }
  void wells(const CommandFields &fields) {
    if (json_)
      out_ += '[';
    if (!fields.wellSpellings.empty()) {
      for (size_t i = 0; i < fields.wellSpellings.size(); ++i) {
        if (i)
          out_ += ',';
        string(fields.wellSpellings[i]);
      }
    } else {
      for (size_t i = 0; i < fields.wells.size(); ++i) {
        if (i)
          out_ += ',';
        // Well::name() without its temporary string; well names are plain
        // ASCII, so no escaping.
        if (json_)
          out_ += '"';
        out_ += static_cast<char>('A' + fields.wells[i].row - 1);
        appendInt(out_, fields.wells[i].col);
        if (json_)
          out_ += '"';
      }
    }
    if (json_)
      out_ += ']';
  }

  void value(const CommandFields &fields, ArgKey key) {
    switch (key) {
    case ArgKey::Row: return optionalNumber(fields.row);
    case ArgKey::Col: return optionalNumber(fields.col);
    case ArgKey::Mask: return mask(fields);
    case ArgKey::Slot: return slot(fields.slot);
    case ArgKey::From: return slot(fields.from);
    case ArgKey::To: return slot(fields.to);
    case ArgKey::VolumeUl: return number(fields.volumeUl);
    case ArgKey::Cycles: return number(fields.cycles);
    case ArgKey::Celsius: return number(fields.celsius);
    case ArgKey::Rpm: return number(fields.rpm);
    case ArgKey::Seconds: return number(fields.seconds);
    case ArgKey::WavelengthNm: return optionalNumber(fields.wavelengthNm);
    case ArgKey::ReferenceNm: return optionalNumber(fields.referenceNm);
    case ArgKey::Wells: return wells(fields);
    case ArgKey::Text: return string(fields.text);
    }
  }

private:
  std::string &out_;
  bool json_;
};

/// Whether an optional argument is present in the fields.
bool present(const CommandFields &fields, ArgKey key) {
  switch (key) {
  case ArgKey::Row: return fields.hasRowKey;
  case ArgKey::Col: return fields.hasColKey;
  case ArgKey::ReferenceNm: return fields.hasReferenceKey;
  default: return true;
  }
}

/// The arguments: `{"slot":5,...}` in JSON, ` slot=5 ...` in text.
void appendArgs(std::string &out, const CommandFields &fields, bool json) {
  ValueWriter writer(out, json);
  if (json)
    out += '{';
  bool first = true;
  for (const ArgSpec &arg : opArgs(fields.op)) {
    if (!arg.required && !present(fields, arg.key))
      continue;
    if (json) {
      if (!first)
        out += ',';
      out += '"';
      out += arg.name; // schema names are plain ASCII
      out += "\":";
    } else {
      out += ' ';
      out += arg.name;
      out += '=';
    }
    first = false;
    writer.value(fields, arg.key);
  }
  if (json)
    out += '}';
}

} // namespace

void appendJsonDouble(std::string &out, double value) {
  // The serializer's own path for a double (serializer::dump_float).
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  std::array<char, 64> buffer;
  char *end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), end);
}

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

void appendCommandJsonLine(std::string &line, const Command &command) {
  line += "{\"seq\":";
  appendInt(line, command.seq);
  line += ",\"module\":";
  appendJsonString(line, command.module);
  line += ",\"op\":";
  appendJsonString(line, opName(command.fields.op));
  line += ",\"args\":";
  appendArgs(line, command.fields, /*json=*/true);
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
  appendArgs(text, command.fields, /*json=*/false);
  if (command.tipsReuse)
    text += " tips=reuse";
  return text;
}

Json commandToJson(const Command &command) { return Json::parse(commandToJsonLine(command)); }

Json commandArgs(const Command &command) {
  std::string args;
  appendArgs(args, command.fields, /*json=*/true);
  return Json::parse(args);
}

} // namespace plate::backend
