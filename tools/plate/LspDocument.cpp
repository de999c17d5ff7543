//===- LspDocument.cpp ----------------------------------------------------===//
#include "tools/plate/LspDocument.h"

#include "ir/Utf16.h"

#include <algorithm>

namespace plate::lsp {

TextDocument::TextDocument(std::string text) : text_(std::move(text)) { indexLines(); }

void TextDocument::setText(std::string text) {
  text_ = std::move(text);
  indexLines();
}

void TextDocument::indexLines() {
  lineStarts_.assign(1, 0);
  for (size_t at = text_.find('\n'); at != std::string::npos; at = text_.find('\n', at + 1))
    lineStarts_.push_back(at + 1);
}

std::string_view TextDocument::lineText(uint32_t line) const {
  if (line >= lineStarts_.size())
    return {};
  size_t begin = lineStarts_[line];
  size_t end = line + 1 < lineStarts_.size() ? lineStarts_[line + 1] - 1 : text_.size();
  std::string_view text(text_.data() + begin, end - begin);
  if (!text.empty() && text.back() == '\r')
    text.remove_suffix(1);
  return text;
}

size_t TextDocument::offsetAt(Position position) const {
  if (position.line >= lineStarts_.size())
    return text_.size();
  return lineStarts_[position.line] +
         byteOffsetOfUtf16(lineText(position.line), position.character);
}

Position TextDocument::positionAt(size_t offset) const {
  offset = std::min(offset, text_.size());
  auto after = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(after - lineStarts_.begin() - 1);
  std::string_view text = lineText(line);
  size_t column = std::min(offset - lineStarts_[line], text.size());
  return Position{line, utf16Length(text.substr(0, column))};
}

bool TextDocument::replace(Range range, std::string_view text) {
  size_t begin = offsetAt(range.start), end = offsetAt(range.end);
  if (range.end < range.start)
    return false;
  text_.replace(begin, end - begin, text);
  indexLines();
  return true;
}

} // namespace plate::lsp
