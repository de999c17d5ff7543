//===- Interpreter.cpp - Replay commands on a device, checked by the twin --===//
//
// For each command: MANUAL fills due before it land in the wells, the twin
// checks every invariant (the first violation stops the run), the device
// executes, and only a confirmed command is committed to the twin and
// advances the clock. All inputs (truth map, reader data files) are read
// and validated before the first command, so a bad file never leaves a
// half-run behind.
//
// Reliability (docs/reliability.md): each attempt is journaled ("begin",
// then "done" or "failed"; on a robot fsynced) before the next command; a
// tip pick-up failure is retried with unused tips and a reader timeout is
// read again, every other fault stops the run and tells the operator the
// deck state; `resume` replays the journal's confirmed commands into the
// twin and the device and continues after them.
//
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "backend/Pictures.h"
#include "backend/DeckState.h"
#include "backend/Journal.h"
#include "backend/Simulator.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <set>

namespace plate::backend {

namespace {

DiagId ruleDiag(Rule rule) {
  switch (rule) {
  case Rule::Tips: return DiagId::InvariantTips;
  case Rule::Volume: return DiagId::InvariantVolume;
  case Rule::Contact: return DiagId::InvariantContact;
  case Rule::Place: return DiagId::InvariantPlace;
  case Rule::Range: return DiagId::InvariantRange;
  }
  return DiagId::InvariantRange;
}

SourceLoc commandLoc(const Command &command, const RunOptions &options) {
  if (command.streamLoc.isValid())
    return command.streamLoc;
  if (options.scriptFileId && command.line)
    return SourceLoc{options.scriptFileId, command.line, 1, 1};
  return SourceLoc{};
}

bool writeFile(const std::filesystem::path &path, const std::string &text,
               DiagnosticEngine &diags) {
  std::error_code error;
  std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path(),
                                      error);
  // Written aside and renamed: a crash leaves the old file or the new
  // one, never half of one (resume keeps read files it finds).
  std::filesystem::path partial = path;
  partial += ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      diags.report(DiagId::MalformedFile, SourceLoc{},
                   fmt::format("cannot write `{}`", path.string()));
      return false;
    }
  }
  std::filesystem::rename(partial, path, error);
  if (error) {
    diags.report(DiagId::MalformedFile, SourceLoc{},
                 fmt::format("cannot write `{}`: {}", path.string(), error.message()));
    return false;
  }
  return true;
}

bool validateSetup(const RunSetup &setup, const Platform &platform, DiagnosticEngine &diags) {
  for (const ReservoirLoad &load : setup.reservoir) {
    if (load.row < 1 || load.row > platform.reservoirRows || load.col < 1 ||
        load.col > platform.reservoirCols) {
      diags.report(DiagId::BadPlanFile, SourceLoc{},
                   fmt::format("reservoir position ({},{}) for `{}` does not exist; positions "
                               "are (1,1)..({},{})",
                               load.row, load.col, load.liquid, platform.reservoirRows,
                               platform.reservoirCols));
      return false;
    }
    if (load.volumeMl < 0 || load.volumeMl > platform.reservoirCapacityMl) {
      diags.report(DiagId::BadPlanFile, SourceLoc{},
                   fmt::format("reservoir ({},{}) is loaded with {} mL; a position holds 0..{} mL",
                               load.row, load.col, formatNumber(load.volumeMl),
                               formatNumber(platform.reservoirCapacityMl)));
      return false;
    }
  }
  return true;
}

} // namespace

namespace {

/// More commands than any script within the frontend's bounds lowers to;
/// a stream beyond it is hostile or broken (docs/reliability.md).
constexpr size_t kMaxCommands = 200'000;
/// Attempts of one command before a retryable fault stops the run.
constexpr unsigned kMaxAttempts = 3;

using RackAnchor = std::pair<unsigned, unsigned>;

std::optional<RackAnchor> rackAnchor(const Command &command) {
  if (command.fields.op != CommandOp::PickTips && command.fields.op != CommandOp::ReturnTips)
    return std::nullopt;
  return RackAnchor{command.fields.rowIndex, command.fields.colIndex};
}

/// The command with its rack anchor moved to (row, col).
Command withRackAnchor(const Command &command, unsigned row, unsigned col) {
  Command moved = command;
  moved.fields.hasRowKey = moved.fields.hasColKey = true;
  moved.fields.row = row;
  moved.fields.col = col;
  moved.fields.rowIndex = row;
  moved.fields.colIndex = col;
  return moved;
}

/// What the operator needs to know about the deck after a stop.
std::string deckSummary(const DeckState &twin, const Platform &platform) {
  std::string text = fmt::format("plate in slot {}, lid {}", twin.plateSlot(),
                                 twin.lidOn() ? "on" : "off");
  std::vector<std::string> tips;
  for (unsigned channel = 0; channel < platform.channels; ++channel)
    if (twin.hasTip(channel))
      tips.push_back(fmt::format("channel {} ({} µL in the tip)", channel + 1,
                                 formatNumber(std::round(twin.tipVolume(channel) * 1000) / 1000)));
  if (tips.empty()) {
    text += "; no tips on the head";
  } else {
    text += "; tips on ";
    for (size_t i = 0; i < tips.size(); ++i)
      text += (i ? ", " : "") + tips[i];
  }
  if (twin.heaterSetpoint())
    text += fmt::format("; heater at {} °C", formatNumber(*twin.heaterSetpoint()));
  return text;
}

/// What to do about each fault that stops the run.
std::string_view operatorAdvice(FaultKind kind) {
  switch (kind) {
  case FaultKind::TipPickup:
    return "no unused tips were left to retry with; load a fresh rack position or resume after "
           "checking the rack";
  case FaultKind::LiquidDetect:
    return "check the source (reservoir level, position, bubbles) and refill it; the tips keep "
           "what they held";
  case FaultKind::GripperDrop:
    return "find the plate or lid, check the wells for spills, put it back where the state "
           "above says it is";
  case FaultKind::ReaderTimeout:
    return "the reader did not answer after retries; check the reader and its cable";
  case FaultKind::Disconnect:
    return "reconnect the controller; the command was not confirmed";
  default:
    return "check the device";
  }
}

} // namespace

namespace {
RunResult runCommandsOnDevice(const std::vector<Command> &commands, const RunSetup &setup,
                              const Platform &platform, RunOptions &options,
                              SourceManager &sources, DiagnosticEngine &diags) {
  RunResult result;
  unsigned errorsBefore = diags.errorCount();
  if (commands.size() > kMaxCommands) {
    diags.report(DiagId::InputLimit, SourceLoc{},
                 fmt::format("the stream has {} commands", commands.size()),
                 fmt::format("{} commands", kMaxCommands));
    return result;
  }
  const Labware *labware = platform.findLabware(setup.plateType);
  if (!labware) {
    diags.report(DiagId::BadPlanFile, SourceLoc{},
                 fmt::format("plate type `{}` is not labware of `{}`", setup.plateType,
                             platform.name));
    return result;
  }
  if (!validateSetup(setup, platform, diags))
    return result;
  for (const auto &[seq, kind] : options.faults.at)
    if (seq < 1 || seq > commands.size()) {
      diags.report(DiagId::BadFaultSpec, SourceLoc{},
                   fmt::format("{}:{}", seq, faultKindName(kind)),
                   fmt::format("the stream has commands 1..{}", commands.size()));
      return result;
    } else if (!faultApplies(kind, commands[seq - 1], platform)) {
      diags.report(DiagId::BadFaultSpec, SourceLoc{},
                   fmt::format("{}:{}", seq, faultKindName(kind)),
                   fmt::format("command {} is `{}`, which cannot fail that way", seq,
                               commands[seq - 1].name()));
      return result;
    }

  // A resumed run continues the journal's run with the journal's settings,
  // so that reads and outputs are those of one unbroken run.
  std::optional<JournalRecord> journalRecord;
  // The hash serializes the whole stream: only a journal needs it.
  std::string hash = options.resume.empty() && options.journal.empty()
                         ? std::string()
                         : streamHash(commands);
  if (!options.resume.empty()) {
    journalRecord = readJournal(options.resume, sources, diags);
    if (!journalRecord)
      return result;
    const Json &header = journalRecord->header;
    if (header.value("stream", std::string()) != hash ||
        header.value("commands", size_t(0)) != commands.size()) {
      diags.report(DiagId::BadJournal, SourceLoc{},
                   fmt::format("`{}` was written for another command stream (hash {}, this "
                               "stream {}); resume with the input of that run",
                               options.resume, header.value("stream", std::string("?")), hash));
      return result;
    }
    if (journalRecord->end == "complete") {
      diags.report(DiagId::BadJournal, SourceLoc{},
                   fmt::format("the run in `{}` is complete; nothing to resume", options.resume));
      return result;
    }
    options.seed = header.value("seed", options.seed);
    options.noiseSigma = header.value("noise_sigma", options.noiseSigma);
    options.truthFile = header.value("truth", std::string());
    options.readerData = header.value("reader_data", std::vector<std::string>{});
    options.outDir = header.value("out_dir", options.outDir);
    options.outPrefix = header.value("out_prefix", options.outPrefix);
    options.journal = options.resume;
  } else if (!options.journal.empty() && journalUnfinished(options.journal)) {
    diags.report(DiagId::UnfinishedJournal, SourceLoc{}, options.journal, options.journal);
    return result;
  }

  std::map<std::string, double> truth;
  if (!options.truthFile.empty()) {
    auto loaded = readTruthFile(options.truthFile, sources, diags);
    if (!loaded)
      return result;
    truth = std::move(*loaded);
  }
  std::vector<WellValues> readerData;
  std::vector<uint8_t> readerDataSimulated; ///< the file says its values were simulated
  for (const std::string &path : options.readerData) {
    bool simulated = false;
    auto values = readPlateCsv(path, labware->shape, sources, diags, &simulated);
    if (!values)
      return result;
    readerData.push_back(std::move(*values));
    readerDataSimulated.push_back(simulated);
  }

  ReaderModel::Params params;
  params.seed = options.seed;
  params.sigma = options.noiseSigma;
  std::unique_ptr<SimulatedDevice> simulator;
  Device *device = options.device;
  if (!device) {
    simulator = std::make_unique<SimulatedDevice>(platform, *labware, setup, truth, params,
                                                  options.faults);
    device = simulator.get();
    result.truths = simulator->truths();
  }
  result.device = device->name();
  result.truthFile = options.truthFile;
  DeckState twin(platform, *labware, setup);
  std::filesystem::path outDir(options.outDir.empty() ? "." : options.outDir);
  auto outPath = [&](const std::string &suffix) {
    return outDir / fmt::format("{}-{}", options.outPrefix, suffix);
  };

  size_t nextAnalysis = 0;
  auto runAnalyses = [&](uint32_t doneSeq) {
    for (; nextAnalysis < setup.analyses.size() &&
           setup.analyses[nextAnalysis].afterSeq <= doneSeq;
         ++nextAnalysis) {
      const AnalysisStep &step = setup.analyses[nextAnalysis];
      SourceLoc loc = options.scriptFileId && step.line
                          ? SourceLoc{options.scriptFileId, step.line, 1, 1}
                          : SourceLoc{};
      const PlateRead *read = nullptr;
      for (const PlateRead &candidate : result.reads)
        if (!step.wavelengthNm || std::fabs(candidate.wavelengthNm - *step.wavelengthNm) < 1e-6)
          read = &candidate;
      if (!read) {
        diags.report(DiagId::AnalysisFailed, loc,
                     step.wavelengthNm
                         ? fmt::format("no read at {} nm before this step",
                                       formatNumber(*step.wavelengthNm))
                         : std::string("no read before this step"))
            .step(step.step);
        continue;
      }
      std::string error;
      auto analysis = analyzeStandardCurve(step, *read, setup.layout, error);
      if (!analysis) {
        diags.report(DiagId::AnalysisFailed, loc, error).step(step.step);
        continue;
      }
      if (modelRead(*read)) {
        analysis->truths = result.truths;
        analysis->truthFile = result.truthFile;
      }
      if (options.writeFiles) {
        size_t index = result.analyses.size() + 1;
        auto csv = outPath(fmt::format("analysis{}.csv", index));
        auto svg = outPath(fmt::format("curve{}.svg", index));
        if (writeFile(csv, analysisCsv(*analysis), diags))
          result.outputs.push_back(csv.string());
        if (writeFile(svg, curveSvg(*analysis), diags))
          result.outputs.push_back(svg.string());
      }
      result.analyses.push_back(std::move(*analysis));
    }
  };
  // A read file already on disk from before a crash is kept as it is.
  auto storeRead = [&](PlateRead read, bool fromJournal) {
    size_t readIndex = result.reads.size();
    // A journal from before reads recorded their source: on the simulator
    // a read no file replaced is the model's.
    if (fromJournal && simulator && read.dataFile.empty())
      read.simulated = true;
    if (options.writeFiles) {
      auto csv = outPath(fmt::format("read{}-{}nm.csv", readIndex + 1,
                                     formatNumber(read.wavelengthNm)));
      std::error_code error;
      bool keep = fromJournal && std::filesystem::exists(csv, error);
      if (keep || writeFile(csv, plateReadCsv(read, labware->shape, result.truths,
                                              result.truthFile),
                            diags))
        result.outputs.push_back(csv.string());
    }
    result.reads.push_back(std::move(read));
  };

  // Later PickTips/ReturnTips at a rack anchor go to another anchor after a
  // tip pick-up failure was retried there; a rack swap ends every remap.
  // Almost every command goes out unchanged: `remapped` hands back the
  // command itself and copies only when a remap applies.
  std::map<RackAnchor, RackAnchor> remaps;
  Command remapStorage;
  auto remapped = [&](const Command &command) -> const Command & {
    if (command.fields.op == CommandOp::SwapTipRack)
      remaps.clear();
    if (remaps.empty())
      return command;
    if (auto anchor = rackAnchor(command))
      if (auto it = remaps.find(*anchor); it != remaps.end()) {
        remapStorage = withRackAnchor(command, it->second.first, it->second.second);
        return remapStorage;
      }
    return command;
  };

  auto stop = [&](const Command &command, RunResult &result) -> RunResult & {
    result.failedSeq = command.seq;
    if (options.keepFinalState)
      result.finalState = twin.toJson();
    return result;
  };

  JournalWriter journal;
  // On a robot every confirmed command reaches the disk before the next
  // is sent: a power cut must not lose what the hardware did. On the
  // simulator a line is written (so a killed process loses nothing) but
  // synced only at the end: what an OS crash or power cut can lose there
  // is simulated work, and one fdatasync per command was most of a
  // simulated run's time (docs/reliability.md, durability).
  const bool syncEachLine = options.device != nullptr;
  auto journalWrite = [&](const Json &entry, bool durable = true) {
    bool last = entry.contains("end");
    bool written = !journal.isOpen() || journal.append(entry, last || (durable && syncEachLine));
    result.journalSyncs = journal.syncs();
    if (!written) {
      // A journal that cannot be written cannot protect the run: stop
      // before the next physical command.
      diags.report(DiagId::BadJournal, SourceLoc{},
                   fmt::format("cannot write `{}`: {}", journal.path(), std::strerror(errno)));
      return false;
    }
    return true;
  };

  size_t start = 0;
  runAnalyses(0);
  if (journalRecord) {
    // Replay what the device confirmed: the twin, the device (the
    // simulator rebuilds its world; a robot already has it), the clock and
    // the reads, without sending anything.
    for (const JournalRecord::Event &event : journalRecord->events) {
      if (event.remap) {
        remaps[event.remap->first] = event.remap->second;
        continue;
      }
      const JournalRecord::Done &done = *event.done;
      const Command &command = commands[done.seq - 1];
      const Command &actual = remapped(command);
      if (commandToJson(actual) != done.command) {
        diags.report(DiagId::BadJournal, SourceLoc{},
                     fmt::format("confirmed command {} in `{}` is not command {} of the stream",
                                 done.seq, options.resume, done.seq));
        return result;
      }
      twin.applyManualFills(command.seq);
      if (auto violation = twin.execute(actual, /*commit=*/true)) {
        diags.report(DiagId::BadJournal, SourceLoc{},
                     fmt::format("confirmed command {} cannot be replayed: {}", done.seq,
                                 violation->message));
        return result;
      }
      device->restoreConfirmed(actual);
      result.robotSeconds += commandSeconds(actual, platform);
      ++result.executed;
      if (done.read)
        storeRead(*done.read, /*fromJournal=*/true);
      runAnalyses(command.seq);
    }
    start = result.executed;
    result.resumedFrom = start;
    // Re-verify the deck before touching it: the interrupted command may
    // or may not have run, and the deck may have been handled since.
    if (auto difference = device->verifyState(twin)) {
      diags.report(DiagId::BadJournal, SourceLoc{},
                   fmt::format("the device does not match the journal after command {}: {}; "
                               "{}check the deck before resuming",
                               start, *difference,
                               journalRecord->inFlight
                                   ? fmt::format("command {} was sent but never confirmed; ",
                                                 *journalRecord->inFlight)
                                   : std::string()));
      if (options.keepFinalState)
        result.finalState = twin.toJson();
      return result;
    }
    result.events.push_back(fmt::format(
        "resumed after command {} of {} (robot time so far {}){}", start, commands.size(),
        formatDuration(result.robotSeconds),
        journalRecord->inFlight
            ? fmt::format("; command {} was interrupted before confirmation and is sent again "
                          "(the deck shows it did not run)",
                          *journalRecord->inFlight)
            : std::string()));
  }

  if (!options.journal.empty() && start < commands.size()) {
    std::string error;
    if (!journal.open(options.journal, /*truncate=*/!journalRecord, error)) {
      diags.report(DiagId::BadJournal, SourceLoc{},
                   fmt::format("cannot open `{}`: {}", options.journal, error));
      return result;
    }
    Json entry;
    if (journalRecord) {
      entry = Json{{"resume", start + 1}};
    } else {
      entry = Json{{"journal", "plate-run"}, {"version", 1},
                   {"input", options.inputName}, {"stream", hash},
                   {"commands", commands.size()}, {"seed", options.seed},
                   {"noise_sigma", options.noiseSigma}, {"truth", options.truthFile},
                   {"reader_data", options.readerData}, {"out_dir", options.outDir},
                   {"out_prefix", options.outPrefix}, {"device", result.device}};
      if (Json simulation = simulationJson(result); !simulation.is_null()) {
        simulation.erase("reads"); // each read's entry says it
        entry["simulation"] = std::move(simulation);
      }
    }
    if (!journalWrite(entry))
      return result;
  }

  for (size_t index = start; index < commands.size(); ++index) {
    const Command &command = commands[index];
    const Command *actual = &remapped(command);
    twin.applyManualFills(command.seq);
    if (auto violation = twin.check(*actual)) {
      diags.report(ruleDiag(violation->rule), commandLoc(command, options), command.seq,
                   command.name(), command.line, violation->message)
          .step(command.step);
      journalWrite(Json{{"end", "violation"}, {"seq", command.seq}});
      return stop(command, result);
    }
    DeviceResult outcome;
    for (unsigned attempt = 1;; ++attempt) {
      if (journal.isOpen() && !journalWrite(Json{{"begin", command.seq}}, /*durable=*/false))
        return stop(command, result);
      outcome = device->execute(*actual);
      if (outcome.status == DeviceStatus::Ok)
        break;
      journalWrite(Json{{"failed", command.seq},
                        {"fault", faultKindName(outcome.fault)},
                        {"message", outcome.message}});
      bool retried = false;
      if (attempt < kMaxAttempts && outcome.fault == FaultKind::ReaderTimeout) {
        // Reading does not change the plate: reading again is safe.
        result.events.push_back(fmt::format("command {} `{}`: {}; reading again (attempt {})",
                                            command.seq, command.name(), outcome.message,
                                            attempt + 1));
        retried = true;
      } else if (attempt < kMaxAttempts && outcome.fault == FaultKind::TipPickup) {
        // The tips stay in the rack; take the next fresh ones that no later
        // command of this rack will want, and send later commands of this
        // anchor there too.
        auto anchor = rackAnchor(command);
        std::set<RackAnchor> wanted;
        for (size_t later = index; later < commands.size(); ++later) {
          const Command &next = commands[later];
          if (next.fields.op == CommandOp::SwapTipRack)
            break;
          if (auto nextAnchor = rackAnchor(next)) {
            RackAnchor at = *nextAnchor;
            if (auto it = remaps.find(at); it != remaps.end())
              at = it->second;
            for (unsigned channel = 0; channel < next.fields.maskLength && channel < 64; ++channel)
              if (next.fields.maskBits >> channel & 1)
                wanted.insert({at.first, at.second + channel});
          }
        }
        const CommandFields &fields = command.fields;
        std::optional<RackAnchor> replacement;
        for (unsigned row = 1; row <= platform.tipRackRows && !replacement; ++row)
          for (unsigned col = 1; col <= platform.tipRackCols && !replacement; ++col) {
            bool fits = true;
            for (unsigned channel = 0; channel < fields.maskLength && channel < 64 && fits;
                 ++channel)
              if (fields.maskBits >> channel & 1)
                fits = twin.rackPositionFresh(row, col + channel) &&
                       !wanted.count({row, col + channel});
            if (!fits)
              continue;
            if (!twin.check(withRackAnchor(*actual, row, col)))
              replacement = RackAnchor{row, col};
          }
        if (anchor && replacement) {
          remaps[*anchor] = *replacement;
          if (!journalWrite(Json{{"remap", {anchor->first, anchor->second}},
                                 {"to", {replacement->first, replacement->second}}}))
            return stop(command, result);
          actual = &remapped(command);
          result.events.push_back(fmt::format(
              "command {} `{}`: {}; retrying with the tips at rack row {} column {}",
              command.seq, command.name(), outcome.message, replacement->first,
              replacement->second));
          retried = true;
        }
      }
      if (retried)
        continue;
      auto diagnostic = diags.report(
          DiagId::DeviceFailed, commandLoc(command, options), command.seq, command.name(),
          command.line, outcome.message.empty() ? std::string("no reason given") : outcome.message);
      diagnostic.step(command.step);
      diagnostic.note(SourceLoc{}, "the run stopped safely before command {}; {} command(s) "
                                   "were confirmed",
                      command.seq, result.executed);
      diagnostic.note(SourceLoc{}, "deck state: {}", deckSummary(twin, platform));
      if (outcome.fault != FaultKind::None)
        diagnostic.note(SourceLoc{}, "{}", operatorAdvice(outcome.fault));
      if (journal.isOpen())
        diagnostic.note(SourceLoc{}, "to continue: plate run ... --resume {}", journal.path());
      journalWrite(Json{{"end", "stopped"}, {"seq", command.seq},
                        {"fault", faultKindName(outcome.fault)}});
      return stop(command, result);
    }
    // The twin passed the command before the device ran it and nothing
    // has touched the twin since: committing cannot fail.
    auto committed = twin.commitChecked(*actual);
    PLATE_ASSERT(!committed, "a checked command failed to commit");
    result.robotSeconds += commandSeconds(*actual, platform);
    ++result.executed;
    std::optional<PlateRead> read;
    if (outcome.read) {
      read = std::move(*outcome.read);
      size_t readIndex = result.reads.size();
      if (readIndex < readerData.size()) {
        read->values = readerData[readIndex];
        read->dataFile = options.readerData[readIndex];
        read->simulated = readerDataSimulated[readIndex];
      }
    }
    if (journal.isOpen()) {
      Json done{{"done", command.seq},
                {"clock_s", result.robotSeconds},
                {"command", commandToJson(*actual)}};
      if (read)
        done["read"] = plateReadJson(*read);
      // Durable before the next physical command (and before the read's
      // file, so the journal is never behind what is on disk).
      if (!journalWrite(done))
        return stop(command, result);
    }
    if (read)
      storeRead(std::move(*read), /*fromJournal=*/false);
    if (options.progress)
      options.progress(RunProgress{&command, index + 1, commands.size(), result.robotSeconds});
    runAnalyses(command.seq);
  }
  runAnalyses(UINT32_MAX);
  journalWrite(Json{{"end", "complete"}, {"seq", commands.size()}});
  result.ok = diags.errorCount() == errorsBefore;
  if (options.keepFinalState)
    result.finalState = twin.toJson();
  return result;
}

/// The pictures of a run that did anything (docs/pictures.md): the layout,
/// the wells after each step, each read as a heat map, the timeline. A run
/// stopped by a fault draws what happened up to the stop.
void writePictures(const std::vector<Command> &commands, const RunSetup &setup,
                   const Platform &platform, const RunOptions &options,
                   const SourceManager &sources, RunResult &result, DiagnosticEngine &diags) {
  const Labware *labware = platform.findLabware(setup.plateType);
  if (!labware || result.executed == 0)
    return;
  std::filesystem::path outDir(options.outDir.empty() ? "." : options.outDir);
  auto write = [&](const std::string &suffix, const std::string &svg) {
    auto path = outDir / fmt::format("{}-{}", options.outPrefix, suffix);
    if (writeFile(path, svg, diags))
      result.outputs.push_back(path.string());
  };
  ScriptLineText lineText;
  if (options.scriptFileId)
    lineText = [&](uint32_t line) {
      std::string_view text = line ? sources.lineText(options.scriptFileId, line) : "";
      size_t first = text.find_first_not_of(" \t");
      size_t last = text.find_last_not_of(" \t\r");
      return first == std::string_view::npos ? std::string()
                                             : std::string(text.substr(first, last - first + 1));
    };
  const std::string &name = options.outPrefix;
  if (!setup.layout.empty())
    write("layout.svg", layoutMapSvg(setup, labware->shape, fmt::format("Plate layout of {} ({})",
                                                                        name, setup.plateType)));
  std::vector<Command> ran(commands.begin(),
                           commands.begin() + static_cast<long>(std::min(result.executed, commands.size())));
  write("wells.svg", contentsMapsSvg(ran, setup, platform, *labware,
                                     fmt::format("What the wells hold after each step of {}", name),
                                     lineText));
  for (size_t i = 0; i < result.reads.size(); ++i) {
    const PlateRead &read = result.reads[i];
    write(fmt::format("read{}-{}nm.svg", i + 1, formatNumber(read.wavelengthNm)),
          readHeatmapSvg(read, setup, labware->shape,
                         fmt::format("Read {} of {} at {} nm ({}line {})", i + 1, name,
                                     formatNumber(read.wavelengthNm),
                                     read.step.empty() ? "" : "step " + read.step + ", ",
                                     read.line)));
  }
  write("timeline.svg", timelineSvg(commands, result.executed, platform,
                                    fmt::format("Run timeline of {}", name), lineText));
}
} // namespace

RunResult runCommands(const std::vector<Command> &commands, const RunSetup &setup,
                      const Platform &platform, const RunOptions &options,
                      SourceManager &sources, DiagnosticEngine &diags) {
  // A resumed run takes its output directory and prefix from the journal:
  // the pictures go where the run's other outputs went.
  RunOptions effective = options;
  RunResult result = runCommandsOnDevice(commands, setup, platform, effective, sources, diags);
  if (effective.writeFiles)
    writePictures(commands, setup, platform, effective, sources, result, diags);
  return result;
}

std::function<void(const RunProgress &)> makeProgressPrinter(std::ostream &out, bool terminal) {
  auto lastStep = std::make_shared<std::string>("\x01");
  return [&out, terminal, lastStep](const RunProgress &progress) {
    const Command &command = *progress.command;
    if (terminal) {
      const int width = 30;
      int filled = progress.total ? int(width * progress.index / progress.total) : width;
      out << fmt::format("\r[{}{}] {}/{}  step {:<6} robot time {:<16}",
                         std::string(filled, '#'), std::string(width - filled, ' '),
                         progress.index, progress.total, command.step,
                         formatDuration(progress.clockSeconds));
      if (progress.index == progress.total)
        out << '\n';
      out.flush();
      return;
    }
    if (command.step != *lastStep || progress.index == progress.total) {
      *lastStep = command.step;
      out << fmt::format("run: step {} (line {}) command {}/{}, robot time {}\n", command.step,
                         command.line, progress.index, progress.total,
                         formatDuration(progress.clockSeconds));
    }
  };
}

} // namespace plate::backend
