//===- RunJournal.cpp - How a run uses its journal: record, resume --------===//
//
// See RunJournal.h. Replaying the confirmed commands of a resumed run is
// the interpreter's (it owns the twin and the device); what may be resumed
// and what is recorded is decided here.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/RunJournal.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace plate::backend {

std::string journalStreamHash(const RunOptions &options, const std::vector<Command> &commands,
                              std::vector<std::string> &lines) {
  return options.resume.empty() && options.journal.empty() ? std::string()
                                                           : streamHash(commands, &lines);
}

std::optional<JournalRecord> prepareJournal(RunOptions &options,
                                            const std::vector<Command> &commands,
                                            const std::string &hash, SourceManager &sources,
                                            DiagnosticEngine &diags, bool &ok) {
  ok = false;
  if (options.resume.empty()) {
    if (!options.journal.empty() && journalUnfinished(options.journal)) {
      diags.report(DiagId::UnfinishedJournal, SourceLoc{}, options.journal, options.journal);
      return std::nullopt;
    }
    ok = true;
    return std::nullopt;
  }
  std::optional<JournalRecord> record = readJournal(options.resume, sources, diags);
  if (!record)
    return std::nullopt;
  const Json &header = record->header;
  if (header.value("stream", std::string()) != hash ||
      header.value("commands", size_t(0)) != commands.size()) {
    diags.report(DiagId::JournalOtherStream, SourceLoc{}, options.resume,
                 header.value("stream", std::string("?")), hash);
    return std::nullopt;
  }
  if (record->end == "complete") {
    diags.report(DiagId::JournalRunComplete, SourceLoc{}, options.resume);
    return std::nullopt;
  }
  options.seed = header.value("seed", options.seed);
  options.noiseSigma = header.value("noise_sigma", options.noiseSigma);
  options.truthFile = header.value("truth", std::string());
  options.readerData = header.value("reader_data", std::vector<std::string>{});
  options.outDir = header.value("out_dir", options.outDir);
  options.outPrefix = header.value("out_prefix", options.outPrefix);
  options.journal = options.resume;
  ok = true;
  return record;
}

bool RunJournal::open(const RunOptions &options, const std::string &hash, size_t commandCount,
                      std::optional<size_t> resumedBefore) {
  std::string error;
  if (!writer_.open(options.journal, /*truncate=*/!resumedBefore, error)) {
    diags_.report(DiagId::JournalCannotOpen, SourceLoc{}, options.journal, error);
    return false;
  }
  Json entry;
  if (resumedBefore) {
    entry = Json{{"resume", *resumedBefore}};
  } else {
    entry = Json{{"journal", "plate-run"}, {"version", 1},
                 {"input", options.inputName}, {"stream", hash},
                 {"commands", commandCount}, {"seed", options.seed},
                 {"noise_sigma", options.noiseSigma}, {"truth", options.truthFile},
                 {"reader_data", options.readerData}, {"out_dir", options.outDir},
                 {"out_prefix", options.outPrefix}, {"device", result_.device}};
    if (Json simulation = simulationJson(result_); !simulation.is_null()) {
      simulation.erase("reads"); // each read's entry says it
      entry["simulation"] = std::move(simulation);
    }
  }
  return write(entry);
}

bool RunJournal::writeBegin(uint32_t seq) {
  // Byte for byte what `Json{{"begin", seq}}.dump()` writes.
  if (!writer_.isOpen())
    return true;
  std::string line = fmt::format("{{\"begin\":{}}}", seq);
  return recordWrite(writeEachLine_ ? writer_.appendLine(std::move(line), false)
                                    : writer_.appendDeferred(line));
}

bool RunJournal::writeDone(uint32_t seq, double clockSeconds, std::string_view commandLine,
                           const std::optional<PlateRead> &read) {
  // Byte for byte what `Json{{"done", ...}, {"clock_s", ...}, {"command",
  // commandToJson(command)}, {"read", ...}}.dump()` writes.
  std::string line;
  line.reserve(commandLine.size() + 48);
  line += "{\"done\":";
  line += std::to_string(seq);
  line += ",\"clock_s\":";
  appendJsonDouble(line, clockSeconds);
  line += ",\"command\":";
  line += commandLine;
  if (read)
    line += ",\"read\":" + plateReadJson(*read).dump();
  line += '}';
  if (!writer_.isOpen())
    return true;
  // A read's line must be in the file before its CSV is (docs/reliability.md).
  bool deferred = !writeEachLine_ && !read;
  return recordWrite(deferred ? writer_.appendDeferred(line)
                              : writer_.appendLine(std::move(line), syncEachLine_));
}

bool RunJournal::write(const Json &entry, bool durable) {
  return recordWrite(!writer_.isOpen() || writer_.append(entry, durable && syncEachLine_));
}

bool RunJournal::recordWrite(bool written) {
  result_.journalSyncs = writer_.syncs();
  if (!written) {
    diags_.report(DiagId::JournalCannotWrite, SourceLoc{}, writer_.path(), std::strerror(errno));
    return false;
  }
  return true;
}

} // namespace plate::backend
