//===- RunJournal.h - How a run uses its journal: record, resume ----------===//
//
// Journal.h is the file format; this unit is the run's policy on top of
// it (docs/reliability.md):
//  - resuming: the journal must have been written for this very stream,
//    its run must be unfinished, and the resumed run takes the journal's
//    settings (seed, noise, truth, reader data, outputs) so that reads and
//    outputs are those of one unbroken run;
//  - starting: a journal left unfinished by a crash is never overwritten;
//  - recording: the header or resume line, then each attempt before the
//    next physical command. On a robot every confirmed command reaches the
//    disk before the next is sent (a power cut must not lose what the
//    hardware did); on the simulator each line is written (a killed
//    process loses nothing) but synced only at the end, since what an OS
//    crash can lose there is simulated work and one fdatasync per command
//    was most of a simulated run's time.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/Journal.h"

#include <optional>
#include <string>
#include <vector>

namespace plate::backend {

/// The stream hash a journal records; empty when the run keeps no journal
/// (hashing serializes the whole stream). `lines` receives the serialized
/// commands the hash was computed from, for RunJournal::writeDone.
std::string journalStreamHash(const RunOptions &options, const std::vector<Command> &commands,
                              std::vector<std::string> &lines);

/// Before anything runs. For `--resume`: the journal read back and checked
/// against the stream (`hash`), with its settings taken into `options`
/// (which from then on journals to the same file). For `--journal`: checks
/// that the file is not an unfinished run. `ok` is false after a
/// diagnostic.
std::optional<JournalRecord> prepareJournal(RunOptions &options,
                                            const std::vector<Command> &commands,
                                            const std::string &hash, SourceManager &sources,
                                            DiagnosticEngine &diags, bool &ok);

class RunJournal {
public:
  /// `robot`: the device is real hardware, so each confirmed command is
  /// synced. `eachLine`: each line is written as it happens (always on a
  /// robot); otherwise command lines are group-committed.
  RunJournal(bool robot, bool eachLine, RunResult &result, DiagnosticEngine &diags)
      : syncEachLine_(robot), writeEachLine_(eachLine), result_(result), diags_(diags) {}

  /// Opens options.journal and writes the first entry: the header of a new
  /// run, or `{"resume":N}` for a run resumed before command N.
  bool open(const RunOptions &options, const std::string &hash, size_t commandCount,
            std::optional<size_t> resumedBefore);
  bool isOpen() const { return writer_.isOpen(); }
  const std::string &path() const { return writer_.path(); }

  /// Appends an entry (nothing without a journal). `durable`: synced on a
  /// robot; nothing is synced on the simulator (docs/reliability.md,
  /// "Durability"). False after a diagnostic: a journal that cannot be
  /// written cannot protect the run, which stops before the next physical
  /// command.
  bool write(const Json &entry, bool durable = true);
  /// `{"begin":SEQ}`, not durable: written as text, since a JSON object per
  /// command only to dump it was 1 million instructions of a 781-command
  /// run (bench/README.md).
  bool writeBegin(uint32_t seq);
  /// The entry of a confirmed command, written from the serializer's line
  /// of the command as sent (`commandLine`, commandToJsonLine): building a
  /// JSON object of every command only to dump it again was a fifth of
  /// `plate run` on a 781-command stream (bench/README.md).
  bool writeDone(uint32_t seq, double clockSeconds, std::string_view commandLine,
                 const std::optional<PlateRead> &read);

private:
  /// Counts the syncs; reports a failed write (E944).
  bool recordWrite(bool written);
  JournalWriter writer_;
  bool syncEachLine_;
  bool writeEachLine_;
  RunResult &result_;
  DiagnosticEngine &diags_;
};

} // namespace plate::backend
