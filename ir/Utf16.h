//===- Utf16.h - Columns in UTF-16 code units -----------------------------===//
//
// SourceLoc counts its column in bytes and its length in characters; SARIF
// and the language server count UTF-16 code units (LSP's mandatory position
// encoding). The conversions live here once so that both agree on every
// character, including bytes that are not well-formed UTF-8.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/SourceManager.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace plate {

/// One character of a line: its bytes and its UTF-16 code units. A byte that
/// starts no well-formed sequence (E111 points at such bytes) is one unit, as
/// a reader that substitutes U+FFFD would count it.
struct Utf8Char {
  size_t bytes;
  uint32_t units;
};
Utf8Char utf8CharAt(std::string_view text, size_t i);

/// UTF-16 code units of a whole text.
uint32_t utf16Length(std::string_view text);

/// The byte offset in `line` of the character that starts `units` code
/// units in. A count past the end gives the line's size; a count that falls
/// inside a surrogate pair gives the start of that character.
size_t byteOffsetOfUtf16(std::string_view line, uint32_t units);

/// A SourceLoc's columns in UTF-16 code units.
struct Utf16Span {
  uint32_t start;   ///< 1-based
  uint32_t end;     ///< exclusive; at least start + 1, like the caret
  uint32_t lineEnd; ///< the column just after the line's last character
};
/// nullopt for a location without a line or column.
std::optional<Utf16Span> utf16Span(SourceLoc loc, const SourceManager &sources);

} // namespace plate
