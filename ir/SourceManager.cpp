//===- SourceManager.cpp --------------------------------------------------===//
#include "ir/SourceManager.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace plate {

uint32_t SourceManager::addBuffer(std::string name, std::string contents) {
  Buffer buffer;
  buffer.name = std::move(name);
  buffer.text = std::move(contents);
  buffer.lineStarts.push_back(0);
  for (uint32_t i = 0; i < buffer.text.size(); ++i)
    if (buffer.text[i] == '\n')
      buffer.lineStarts.push_back(i + 1);
  buffers_.push_back(std::move(buffer));
  return static_cast<uint32_t>(buffers_.size());
}

std::optional<std::string> readWholeFile(const std::string &path) {
  // Every input (scripts, streams, CSVs, plans, journals, protocols) is
  // read whole, so hostile input is bounded here, before any allocation of
  // its size.
  std::error_code error;
  auto size = std::filesystem::file_size(path, error);
  if (!error && size > SourceManager::kMaxFileBytes) {
    errno = EFBIG;
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return std::nullopt;
  return text.str();
}

std::optional<uint32_t> SourceManager::addFile(const std::string &path) {
  std::optional<std::string> text = readWholeFile(path);
  if (!text)
    return std::nullopt;
  return addBuffer(path, std::move(*text));
}

const SourceManager::Buffer *SourceManager::get(uint32_t fileId) const {
  if (fileId == 0 || fileId > buffers_.size())
    return nullptr;
  return &buffers_[fileId - 1];
}

const std::string &SourceManager::name(uint32_t fileId) const {
  static const std::string unknown = "<unknown>";
  const Buffer *buffer = get(fileId);
  return buffer ? buffer->name : unknown;
}

std::string_view SourceManager::contents(uint32_t fileId) const {
  const Buffer *buffer = get(fileId);
  return buffer ? std::string_view(buffer->text) : std::string_view();
}

uint32_t SourceManager::lineCount(uint32_t fileId) const {
  const Buffer *buffer = get(fileId);
  return buffer ? static_cast<uint32_t>(buffer->lineStarts.size()) : 0;
}

std::string_view SourceManager::lineText(uint32_t fileId, uint32_t line) const {
  const Buffer *buffer = get(fileId);
  if (!buffer || line == 0 || line > buffer->lineStarts.size())
    return {};
  uint32_t begin = buffer->lineStarts[line - 1];
  uint32_t end = line < buffer->lineStarts.size()
                     ? buffer->lineStarts[line] - 1
                     : static_cast<uint32_t>(buffer->text.size());
  std::string_view text(buffer->text);
  text = text.substr(begin, end - begin);
  if (!text.empty() && text.back() == '\r')
    text.remove_suffix(1);
  return text;
}

SourceLoc SourceManager::endLoc(uint32_t fileId) const {
  const Buffer *buffer = get(fileId);
  if (!buffer)
    return {};
  uint32_t line = static_cast<uint32_t>(buffer->lineStarts.size());
  // A trailing newline leaves an empty last line; point at the line before.
  while (line > 1 && lineText(fileId, line).empty())
    --line;
  return {fileId, line, static_cast<uint32_t>(lineText(fileId, line).size()) + 1, 1};
}

} // namespace plate
