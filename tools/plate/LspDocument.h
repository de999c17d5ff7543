//===- LspDocument.h - An open document and LSP positions -----------------===//
//
// The text the client owns once it has opened a document, kept as UTF-8
// with an index of line starts so that LSP positions (0-based line, column
// in UTF-16 code units) convert to byte offsets and back, and range edits
// of incremental sync apply in place.
//
// Lines end at `\n`; a `\r` before it is part of the terminator. That is how
// the SourceManager splits lines, so a position the compiler reports and a
// position the client sends name the same character. (A lone `\r`, which
// LSP also counts as a line end, is not one here; no editor writes them in
// a .plate script and the compiler would not count it either.)
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plate::lsp {

struct Position {
  uint32_t line = 0;      ///< 0-based
  uint32_t character = 0; ///< UTF-16 code units
  friend auto operator<=>(const Position &, const Position &) = default;
};

struct Range {
  Position start, end;
};

class TextDocument {
public:
  explicit TextDocument(std::string text = {});

  const std::string &text() const { return text_; }
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }
  /// The text of a 0-based line without its terminator; empty past the end.
  std::string_view lineText(uint32_t line) const;

  /// The byte offset of a position. A line past the end is the end of the
  /// text and a character past the end of its line is the end of the line,
  /// as the protocol asks of a server.
  size_t offsetAt(Position position) const;
  Position positionAt(size_t offset) const;

  /// Replaces the bytes of `range` with `text` (incremental sync). False
  /// when the range ends before it starts; the document is then unchanged.
  bool replace(Range range, std::string_view text);
  void setText(std::string text);

private:
  void indexLines();

  std::string text_;
  std::vector<size_t> lineStarts_;
};

} // namespace plate::lsp
