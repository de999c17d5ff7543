//===- Journal.h - The run journal: confirmed commands, durably ------------===//
//
// `plate run` appends one JSON line per event to its journal before the
// next command (and on a robot fsyncs it: docs/reliability.md, durability),
// so that after a crash the journal
// says exactly which commands the device confirmed:
//
//   {"journal":"plate-run","version":1,"stream":HASH,"commands":N,...}
//   {"begin":SEQ}                           about to send command SEQ
//   {"done":SEQ,"clock_s":T,"command":{..},"read":{..}}  confirmed
//   {"failed":SEQ,"fault":"tip_pickup","message":".."}   not done
//   {"remap":[ROW,COL],"to":[ROW,COL]}      later tip commands moved
//   {"end":"complete"|"stopped"|"violation","seq":SEQ}
//   {"resume":SEQ}                          a resumed session starts
//
// "command" is the command as sent (after a tip remap), "read" the values
// the reader returned. The header keeps what the continuation must reuse
// (seed, noise, truth map, reader data, output names). docs/reliability.md
// describes the format and the resume rules.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/Device.h"
#include "ir/Diagnostics.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::backend {

/// A stable 64-bit FNV-1a hash of the stream (its JSON lines), in hex.
/// `lines`, when given, receives each command's line (without the newline),
/// so that a run journals the lines it hashed instead of serializing the
/// stream a second time.
std::string streamHash(const std::vector<Command> &commands,
                       std::vector<std::string> *lines = nullptr);

class JournalWriter {
public:
  JournalWriter() = default;
  JournalWriter(const JournalWriter &) = delete;
  JournalWriter &operator=(const JournalWriter &) = delete;
  ~JournalWriter();

  /// Opens for appending (creating it); false with the reason in `error`.
  bool open(const std::string &path, bool truncate, std::string &error);
  bool isOpen() const { return fd_ >= 0; }
  /// Writes one line; with `durable` also fdatasyncs it. A "begin" line
  /// need not be durable (an unconfirmed command is re-verified on resume
  /// either way); every other line is.
  bool append(const Json &entry, bool durable = true);
  /// The same for a line already written as JSON (without the newline).
  /// Lines held by appendDeferred go out first, in the same write(2).
  bool appendLine(std::string line, bool durable = true);
  /// Holds a line in memory until the next appendLine, flush, or until
  /// kDeferredBytes are held: a simulated run's commands, whose loss in a
  /// crash costs only their re-simulation (docs/reliability.md).
  bool appendDeferred(std::string_view line);
  /// Writes the held lines; false if the write failed.
  bool flush();
  const std::string &path() const { return path_; }
  /// fdatasyncs so far: what durability cost this run.
  unsigned syncs() const { return syncs_; }

private:
  static constexpr size_t kDeferredBytes = 64 * 1024;
  bool writeAll(const std::string &data);
  int fd_ = -1;
  std::string deferred_;
  std::string path_;
  unsigned syncs_ = 0;
};

/// A journal read back.
struct JournalRecord {
  Json header;
  struct Done {
    uint32_t seq = 0;
    double clockSeconds = 0;
    Json command; ///< as sent
    std::optional<PlateRead> read;
  };
  /// Confirmed commands and tip remaps, in journal order.
  struct Event {
    std::optional<Done> done;
    std::optional<std::pair<std::pair<unsigned, unsigned>, std::pair<unsigned, unsigned>>> remap;
  };
  std::vector<Event> events;
  size_t confirmed = 0;
  /// A command was sent but neither confirmed nor failed: its outcome is
  /// unknown (the process died while it ran).
  std::optional<uint32_t> inFlight;
  std::string end; ///< last "end" value if nothing followed it, else empty
  uint32_t lines = 0;
};

/// Reads and checks a journal (E900, E944 naming file:line).
std::optional<JournalRecord> readJournal(const std::string &path, SourceManager &sources,
                                         DiagnosticEngine &diags);

/// Whether `path` holds a journal whose run never wrote an "end" entry
/// (a crash); a missing or empty file is not unfinished.
bool journalUnfinished(const std::string &path);

Json plateReadJson(const PlateRead &read);

} // namespace plate::backend
