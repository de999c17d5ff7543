//===- SourceManager.h - Owns source buffers and maps offsets to lines ---===//
//
// Every file the compiler reads (scripts, stdlib modules, layout CSVs,
// command streams) is registered here so that any diagnostic can quote the
// line it points at, wherever in the pipeline it is raised.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate {

/// A 1-based position in a registered buffer. `line == 0` means "no
/// location" (for example a diagnostic about the command line).
struct SourceLoc {
  uint32_t fileId = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  /// Characters the caret underlines (at least 1 when printed).
  uint32_t length = 0;

  bool isValid() const { return line != 0; }
  friend bool operator==(const SourceLoc &, const SourceLoc &) = default;
};

/// Reads a whole file of at most SourceManager::kMaxFileBytes; nullopt
/// when it cannot be read or is larger (errno EFBIG).
std::optional<std::string> readWholeFile(const std::string &path);

class SourceManager {
public:
  /// Largest file addFile() reads (64 MiB); larger files fail with EFBIG.
  /// Scripts have a tighter bound of their own (E110, 4 MiB).
  static constexpr uint64_t kMaxFileBytes = 64ull << 20;

  /// Registers a buffer and returns its file id. Ids start at 1 so that a
  /// default-constructed SourceLoc never names a real file.
  uint32_t addBuffer(std::string name, std::string contents);

  /// Reads a file; nullopt when it cannot be read (the caller reports it).
  std::optional<uint32_t> addFile(const std::string &path);

  const std::string &name(uint32_t fileId) const;
  std::string_view contents(uint32_t fileId) const;
  /// The text of `line` without its line terminator; empty when out of range.
  std::string_view lineText(uint32_t fileId, uint32_t line) const;
  uint32_t lineCount(uint32_t fileId) const;
  /// Location of the last character of a buffer (for "missing section").
  SourceLoc endLoc(uint32_t fileId) const;

private:
  struct Buffer {
    std::string name;
    std::string text;
    std::vector<uint32_t> lineStarts;
  };
  std::vector<Buffer> buffers_;
  const Buffer *get(uint32_t fileId) const;
};

} // namespace plate
