//===- Utf16.cpp ----------------------------------------------------------===//
#include "ir/Utf16.h"

#include <algorithm>

namespace plate {

Utf8Char utf8CharAt(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  size_t size = lead < 0x80            ? 1
                : (lead & 0xE0) == 0xC0 ? 2
                : (lead & 0xF0) == 0xE0 ? 3
                : (lead & 0xF8) == 0xF0 ? 4
                                        : 0;
  if (size == 0 || i + size > text.size())
    return {1, 1};
  for (size_t k = 1; k < size; ++k)
    if ((byte(i + k) & 0xC0) != 0x80)
      return {1, 1};
  return {size, size == 4 ? 2u : 1u};
}

uint32_t utf16Length(std::string_view text) {
  uint32_t units = 0;
  for (size_t i = 0; i < text.size();) {
    Utf8Char c = utf8CharAt(text, i);
    i += c.bytes;
    units += c.units;
  }
  return units;
}

size_t byteOffsetOfUtf16(std::string_view line, uint32_t units) {
  size_t i = 0;
  uint32_t seen = 0;
  while (i < line.size()) {
    Utf8Char c = utf8CharAt(line, i);
    if (seen + c.units > units)
      break;
    seen += c.units;
    i += c.bytes;
  }
  return i;
}

std::optional<Utf16Span> utf16Span(SourceLoc loc, const SourceManager &sources) {
  if (!loc.isValid() || loc.col == 0)
    return std::nullopt;
  std::string_view line = sources.lineText(loc.fileId, loc.line);
  size_t startByte = loc.col - 1;
  uint32_t units = 1;
  size_t i = 0;
  while (i < startByte && i < line.size()) {
    Utf8Char c = utf8CharAt(line, i);
    i += c.bytes;
    units += c.units;
  }
  // A caret after the last character (a missing token) is one column per
  // byte past the end.
  if (i < startByte)
    units += static_cast<uint32_t>(startByte - i);
  Utf16Span span{units, units, 1 + utf16Length(line)};
  for (uint32_t n = 0; n < std::max<uint32_t>(loc.length, 1); ++n) {
    if (i >= line.size()) {
      // A range stops at the end of its line, but a caret after the last
      // character still marks one column.
      if (n == 0)
        ++span.end;
      break;
    }
    Utf8Char c = utf8CharAt(line, i);
    i += c.bytes;
    span.end += c.units;
  }
  return span;
}

} // namespace plate
