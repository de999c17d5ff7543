//===- Journal.cpp - Durable journal of a run and its reader ---------------===//
//
// Writes use POSIX write(2) + fdatasync(2) so a line is on disk before the
// next physical command; the reader tolerates a torn last line (the process
// died while writing it) and nothing else.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Journal.h"
#include "backend/bioforge1/CommandSerializer.h"
#include "ir/JsonParse.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

namespace plate::backend {

std::string streamHash(const std::vector<Command> &commands, std::vector<std::string> *lines) {
  uint64_t hash = 1469598103934665603ull;
  auto feed = [&](std::string_view text) {
    for (unsigned char c : text) {
      hash ^= c;
      hash *= 1099511628211ull;
    }
  };
  if (lines)
    lines->reserve(commands.size());
  for (const Command &command : commands) {
    std::string line = commandToJsonLine(command);
    feed(line);
    feed("\n");
    if (lines)
      lines->push_back(std::move(line));
  }
  return fmt::format("{:016x}", hash);
}

JournalWriter::~JournalWriter() {
  if (fd_ >= 0) {
    flush();
    ::close(fd_);
  }
}

bool JournalWriter::open(const std::string &path, bool truncate, std::string &error) {
  int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) {
    error = std::strerror(errno);
    return false;
  }
  path_ = path;
  return true;
}

bool JournalWriter::append(const Json &entry, bool durable) {
  return appendLine(entry.dump(), durable);
}

bool JournalWriter::writeAll(const std::string &data) {
  const char *next = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t written = ::write(fd_, next, left);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    next += written;
    left -= static_cast<size_t>(written);
  }
  return true;
}

bool JournalWriter::appendDeferred(std::string_view line) {
  if (fd_ < 0)
    return false;
  deferred_ += line;
  deferred_ += '\n';
  return deferred_.size() < kDeferredBytes || flush();
}

bool JournalWriter::flush() {
  if (fd_ < 0 || deferred_.empty())
    return fd_ >= 0;
  bool written = writeAll(deferred_);
  deferred_.clear();
  return written;
}

bool JournalWriter::appendLine(std::string line, bool durable) {
  if (fd_ < 0)
    return false;
  line += '\n';
  bool written;
  if (deferred_.empty()) {
    written = writeAll(line);
  } else {
    deferred_ += line;
    written = writeAll(deferred_);
    deferred_.clear();
  }
  if (!written)
    return false;
  if (!durable)
    return true;
  ++syncs_;
  return ::fdatasync(fd_) == 0;
}

Json plateReadJson(const PlateRead &read) {
  Json values = Json::object();
  for (const auto &[well, value] : read.values)
    values[well.name()] = jsonNumber(value);
  Json json{{"seq", read.seq}, {"wavelength_nm", jsonNumber(read.wavelengthNm)}};
  if (read.referenceNm)
    json["reference_nm"] = jsonNumber(*read.referenceNm);
  json["step"] = read.step;
  json["line"] = read.line;
  json["simulated"] = read.simulated;
  if (!read.dataFile.empty())
    json["reader_data"] = read.dataFile;
  json["values"] = std::move(values);
  return json;
}

namespace {

/// `fail` reports the read's fault (a row of the journal's, with the
/// offending value name when there is one).
std::optional<PlateRead>
plateReadFromJson(const Json &json, const std::function<void(DiagId, const std::string &)> &fail) {
  if (!json.is_object() || !json.contains("values") || !json["values"].is_object() ||
      !json.value("wavelength_nm", Json()).is_number()) {
    fail(DiagId::JournalReadMalformed, std::string());
    return std::nullopt;
  }
  PlateRead read;
  read.seq = json.value("seq", 0u);
  read.wavelengthNm = json["wavelength_nm"].get<double>();
  if (json.contains("reference_nm") && json["reference_nm"].is_number())
    read.referenceNm = json["reference_nm"].get<double>();
  read.step = json.value("step", std::string());
  read.line = json.value("line", 0u);
  // Provenance (docs/simulator.md); a mistyped key is no provenance.
  if (auto it = json.find("simulated"); it != json.end() && it->is_boolean())
    read.simulated = it->get<bool>();
  if (auto it = json.find("reader_data"); it != json.end() && it->is_string())
    read.dataFile = it->get<std::string>();
  for (const auto &[name, value] : json["values"].items()) {
    auto well = Well::parse(name);
    if (!well || !value.is_number()) {
      fail(DiagId::JournalReadValue, name);
      return std::nullopt;
    }
    read.values[*well] = value.get<double>();
  }
  return read;
}

std::optional<std::pair<unsigned, unsigned>> position(const Json &json) {
  if (!json.is_array() || json.size() != 2 || !json[0].is_number_unsigned() ||
      !json[1].is_number_unsigned())
    return std::nullopt;
  return std::make_pair(json[0].get<unsigned>(), json[1].get<unsigned>());
}

} // namespace

std::optional<JournalRecord> readJournal(const std::string &path, SourceManager &sources,
                                         DiagnosticEngine &diags) {
  auto fileId = sources.addFile(path);
  if (!fileId) {
    diags.report(DiagId::CannotRead, SourceLoc{}, path, std::strerror(errno));
    return std::nullopt;
  }
  JournalRecord record;
  uint32_t lineCount = sources.lineCount(*fileId);
  std::string_view text = sources.contents(*fileId);
  bool tornTail = !text.empty() && text.back() != '\n';
  auto bad = [&](uint32_t line, DiagId id, auto &&...args) {
    diags.report(id, SourceLoc{*fileId, line, 1, 1}, std::forward<decltype(args)>(args)...);
    return std::nullopt;
  };
  uint32_t expectSeq = 1;
  for (uint32_t line = 1; line <= lineCount; ++line) {
    std::string_view row = sources.lineText(*fileId, line);
    if (row.find_first_not_of(" \t\r") == std::string_view::npos)
      continue;
    Json entry = parseJsonOrDiscarded<Json>(row);
    if (entry.is_discarded() || !entry.is_object()) {
      if (line == lineCount && tornTail)
        break; // the process died in the middle of this line
      return bad(line, DiagId::JournalLineNotObject);
    }
    ++record.lines;
    if (line == 1 || record.header.is_null()) {
      if (entry.value("journal", std::string()) != "plate-run")
        return bad(line, DiagId::JournalNoHeader);
      record.header = std::move(entry);
      continue;
    }
    record.end.clear();
    if (entry.contains("begin")) {
      record.inFlight = entry["begin"].is_number_unsigned() ? entry["begin"].get<uint32_t>() : 0;
    } else if (entry.contains("done")) {
      JournalRecord::Done done;
      if (!entry["done"].is_number_unsigned() || !entry.value("command", Json()).is_object() ||
          !entry.value("clock_s", Json()).is_number())
        return bad(line, DiagId::JournalDoneMalformed);
      done.seq = entry["done"].get<uint32_t>();
      if (done.seq != expectSeq)
        return bad(line, DiagId::JournalOutOfOrder, done.seq, expectSeq - 1);
      ++expectSeq;
      done.clockSeconds = entry["clock_s"].get<double>();
      done.command = entry["command"];
      if (entry.contains("read")) {
        done.read = plateReadFromJson(entry["read"], [&](DiagId id, const std::string &name) {
          SourceLoc at{*fileId, line, 1, 1};
          if (name.empty())
            diags.report(id, at);
          else
            diags.report(id, at, name);
        });
        if (!done.read)
          return std::nullopt;
      }
      record.events.push_back({std::move(done), std::nullopt});
      ++record.confirmed;
      record.inFlight.reset();
    } else if (entry.contains("failed")) {
      record.inFlight.reset();
    } else if (entry.contains("remap")) {
      auto from = position(entry["remap"]), to = position(entry.value("to", Json()));
      if (!from || !to)
        return bad(line, DiagId::JournalRemapMalformed);
      record.events.push_back({std::nullopt, std::make_pair(*from, *to)});
    } else if (entry.contains("end")) {
      record.end = entry.value("end", std::string("stopped"));
      record.inFlight.reset();
    } else if (entry.contains("resume")) {
      // a resumed session starts; nothing to keep
    } else {
      return bad(line, DiagId::JournalUnknownEntry);
    }
  }
  if (record.header.is_null())
    return bad(1, DiagId::JournalEmpty);
  return record;
}

bool journalUnfinished(const std::string &path) {
  // Only a file can hold an earlier run; reading a device such as /dev/zero
  // or a FIFO would never end.
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    return false;
  std::ifstream in(path);
  if (!in)
    return false;
  std::string line, last;
  bool any = false;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      last = line;
      any = true;
    }
  if (!any)
    return false;
  Json entry = parseJsonOrDiscarded<Json>(last);
  return entry.is_discarded() || !entry.is_object() || !entry.contains("end");
}

} // namespace plate::backend
