//===- Interpreter.cpp - Replay commands on a device, checked by the twin --===//
//
// For each command: MANUAL fills due before it land in the wells, the twin
// checks every invariant (the first violation stops the run), the device
// executes, and only a confirmed command is committed to the twin and
// advances the clock. All inputs (truth map, reader data files) are read
// and validated before the first command, so a bad file never leaves a
// half-run behind.
//
// The policies around that loop live in their own units
// (docs/reliability.md): RunJournal.h records each attempt before the next
// command and decides what may be resumed, FaultPolicy.h which faults are
// retried and what a stop tells the operator, TipRemap.h where tips are
// taken after a failed pick-up, RunOutputs.h the reads, analyses and files
// a run leaves behind.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/DeckState.h"
#include "backend/bioforge1/FaultPolicy.h"
#include "backend/bioforge1/RunJournal.h"
#include "backend/bioforge1/RunOutputs.h"
#include "backend/bioforge1/Simulator.h"
#include "backend/bioforge1/TipRemap.h"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <ostream>

namespace plate::backend {

namespace {

/// More commands than any script within the frontend's bounds lowers to;
/// a stream beyond it is hostile or broken (docs/reliability.md).
constexpr size_t kMaxCommands = 200'000;

SourceLoc commandLoc(const Command &command, const RunOptions &options) {
  if (command.streamLoc.isValid())
    return command.streamLoc;
  if (options.scriptFileId && command.line)
    return SourceLoc{options.scriptFileId, command.line, 1, 1};
  return SourceLoc{};
}

bool validateSetup(const RunSetup &setup, const Platform &platform, DiagnosticEngine &diags) {
  for (const ReservoirLoad &load : setup.reservoir) {
    if (load.row < 1 || load.row > platform.reservoirRows || load.col < 1 ||
        load.col > platform.reservoirCols) {
      diags.report(DiagId::PlanNoSuchReservoir, SourceLoc{}, load.row, load.col, load.liquid,
                   platform.reservoirRows, platform.reservoirCols);
      return false;
    }
    if (load.volumeMl < 0 || load.volumeMl > platform.reservoirCapacityMl) {
      diags.report(DiagId::PlanReservoirVolume, SourceLoc{}, load.row, load.col,
                   formatNumber(load.volumeMl), formatNumber(platform.reservoirCapacityMl));
      return false;
    }
  }
  return true;
}

/// The stream, the plan and the faults, checked before anything is read
/// or run; the plate's labware, or null after a diagnostic.
const Labware *checkRun(const std::vector<Command> &commands, const RunSetup &setup,
                        const Platform &platform, const RunOptions &options,
                        DiagnosticEngine &diags) {
  if (commands.size() > kMaxCommands) {
    diags.report(DiagId::StreamTooLong, SourceLoc{}, commands.size(), kMaxCommands);
    return nullptr;
  }
  const Labware *labware = platform.findLabware(setup.plateType);
  if (!labware) {
    diags.report(DiagId::PlanPlateType, SourceLoc{}, setup.plateType, platform.name);
    return nullptr;
  }
  if (!validateSetup(setup, platform, diags) ||
      !validateFaults(options.faults, commands, platform, diags))
    return nullptr;
  return labware;
}

/// The files a run reads, read and checked before the first command.
struct RunInputs {
  std::map<std::string, double> truth;
  std::vector<WellValues> readerData;
  std::vector<uint8_t> readerDataSimulated; ///< the file says its values were simulated
};

std::optional<RunInputs> readInputs(const RunOptions &options, const Labware &labware,
                                    SourceManager &sources, DiagnosticEngine &diags) {
  RunInputs inputs;
  if (!options.truthFile.empty()) {
    auto loaded = readTruthFile(options.truthFile, sources, diags);
    if (!loaded)
      return std::nullopt;
    inputs.truth = std::move(*loaded);
  }
  for (const std::string &path : options.readerData) {
    bool simulated = false;
    auto values = readPlateCsv(path, labware.shape, sources, diags, &simulated);
    if (!values)
      return std::nullopt;
    inputs.readerData.push_back(std::move(*values));
    inputs.readerDataSimulated.push_back(simulated);
  }
  return inputs;
}

/// One run of a checked stream on one device: the replay of a resumed
/// journal, then the loop over the remaining commands.
class Interpreter {
public:
  /// `streamLines`: the commands' serialized lines (journalStreamHash).
  Interpreter(const std::vector<Command> &commands, const std::vector<std::string> &streamLines,
              const RunSetup &setup, const Platform &platform, const Labware &labware,
              const RunOptions &options, RunInputs inputs, RunResult &result,
              DiagnosticEngine &diags)
      : commands_(commands), streamLines_(streamLines), platform_(platform), options_(options),
        inputs_(std::move(inputs)),
        result_(result), diags_(diags), twin_(platform, labware, setup),
        journal_(options.device != nullptr,
                 options.device != nullptr ||
                     options.journalEachLine.value_or(!options.faults.empty()),
                 result, diags),
        outputs_(setup, labware, options, options.device == nullptr, result, diags) {
    device_ = options.device;
    if (!device_) {
      ReaderModel::Params params;
      params.seed = options.seed;
      params.sigma = options.noiseSigma;
      simulator_ = std::make_unique<SimulatedDevice>(platform, labware, setup, inputs_.truth,
                                                     params, options.faults);
      device_ = simulator_.get();
      result_.truths = simulator_->truths();
      result_.flatResponse = simulator_->flatResponse();
    }
    result_.device = device_->name();
    result_.truthFile = options.truthFile;
  }

  /// `errorsBefore`: the error count when the run began; the run is ok if
  /// it reached the end without another error.
  void run(const std::optional<JournalRecord> &record, const std::string &hash,
           unsigned errorsBefore);

private:
  bool replay(const JournalRecord &record);
  bool runCommand(size_t index);
  /// Sends the command until the device confirms it or the fault policy
  /// gives up; `sent` follows tip remaps. nullopt: the run stopped.
  std::optional<DeviceResult> send(size_t index, const Command *&sent);
  /// Commits a confirmed command: twin, clock, journal, read, progress.
  bool confirm(size_t index, const Command &sent, DeviceResult outcome);
  /// Ends the run before `command`.
  void stop(const Command &command) {
    result_.failedSeq = command.seq;
    keepFinalState();
  }
  void keepFinalState() {
    if (options_.keepFinalState)
      result_.finalState = twin_.toJson();
  }

  const std::vector<Command> &commands_;
  const std::vector<std::string> &streamLines_;
  const Platform &platform_;
  const RunOptions &options_;
  RunInputs inputs_;
  RunResult &result_;
  DiagnosticEngine &diags_;
  std::unique_ptr<SimulatedDevice> simulator_;
  Device *device_ = nullptr;
  DeckState twin_;
  RunJournal journal_;
  RunOutputs outputs_;
  TipRemap remap_;
};

void Interpreter::run(const std::optional<JournalRecord> &record, const std::string &hash,
                      unsigned errorsBefore) {
  size_t start = 0;
  outputs_.runAnalyses(0);
  if (record) {
    if (!replay(*record))
      return;
    start = result_.executed;
  }
  if (!options_.journal.empty() && start < commands_.size()) {
    std::optional<size_t> resumedBefore;
    if (record)
      resumedBefore = start + 1;
    if (!journal_.open(options_, hash, commands_.size(), resumedBefore))
      return;
  }
  for (size_t index = start; index < commands_.size(); ++index)
    if (!runCommand(index))
      return;
  outputs_.runAnalyses(UINT32_MAX);
  journal_.write(Json{{"end", "complete"}, {"seq", commands_.size()}});
  result_.ok = diags_.errorCount() == errorsBefore;
  keepFinalState();
}

bool Interpreter::replay(const JournalRecord &record) {
  // Replay what the device confirmed: the twin, the device (the
  // simulator rebuilds its world; a robot already has it), the clock and
  // the reads, without sending anything.
  for (const JournalRecord::Event &event : record.events) {
    if (event.remap) {
      remap_.add(event.remap->first, event.remap->second);
      continue;
    }
    const JournalRecord::Done &done = *event.done;
    const Command &command = commands_[done.seq - 1];
    const Command &actual = remap_.apply(command);
    if (commandToJson(actual) != done.command) {
      diags_.report(DiagId::JournalNotTheStream, SourceLoc{}, done.seq, options_.resume,
                    done.seq);
      return false;
    }
    twin_.applyManualFills(command.seq);
    if (auto violation = twin_.execute(actual, /*commit=*/true)) {
      diags_.report(DiagId::JournalCannotReplay, SourceLoc{}, done.seq)
          .note(SourceLoc{}, "{}", violation->message());
      return false;
    }
    device_->restoreConfirmed(actual);
    result_.robotSeconds += commandSeconds(actual, platform_);
    ++result_.executed;
    if (done.read)
      outputs_.storeRead(*done.read, /*fromJournal=*/true);
    outputs_.runAnalyses(command.seq);
  }
  size_t start = result_.executed;
  result_.resumedFrom = start;
  // Re-verify the deck before touching it: the interrupted command may
  // or may not have run, and the deck may have been handled since.
  if (auto difference = device_->verifyState(twin_)) {
    auto diagnostic =
        diags_.report(DiagId::JournalDeviceDiffers, SourceLoc{}, start, *difference);
    if (record.inFlight)
      diagnostic.note(SourceLoc{}, "command {} was sent but never confirmed", *record.inFlight);
    keepFinalState();
    return false;
  }
  result_.events.push_back(fmt::format(
      "resumed after command {} of {} (robot time so far {}){}", start, commands_.size(),
      formatDuration(result_.robotSeconds),
      record.inFlight
          ? fmt::format("; command {} was interrupted before confirmation and is sent again "
                        "(the deck shows it did not run)",
                        *record.inFlight)
          : std::string()));
  return true;
}

bool Interpreter::runCommand(size_t index) {
  const Command &command = commands_[index];
  const Command *sent = &remap_.apply(command);
  twin_.applyManualFills(command.seq);
  if (auto violation = twin_.check(*sent)) {
    diags_.reportWith(violation->id, commandLoc(command, options_), violation->argsFor(command))
        .step(command.step);
    journal_.write(Json{{"end", "violation"}, {"seq", command.seq}});
    stop(command);
    return false;
  }
  std::optional<DeviceResult> outcome = send(index, sent);
  if (!outcome)
    return false;
  return confirm(index, *sent, std::move(*outcome));
}

std::optional<DeviceResult> Interpreter::send(size_t index, const Command *&sent) {
  const Command &command = commands_[index];
  for (unsigned attempt = 1;; ++attempt) {
    if (journal_.isOpen() && !journal_.writeBegin(command.seq))
      break;
    DeviceResult outcome = device_->execute(*sent);
    if (outcome.status == DeviceStatus::Ok)
      return outcome;
    journal_.write(Json{{"failed", command.seq},
                        {"fault", faultKindName(outcome.fault)},
                        {"message", outcome.message}});
    Recovery recovery = recoveryFor(outcome.fault, attempt);
    if (recovery == Recovery::ReadAgain) {
      result_.events.push_back(fmt::format("command {} `{}`: {}; reading again (attempt {})",
                                           command.seq, command.name(), outcome.message,
                                           attempt + 1));
      continue;
    }
    if (recovery == Recovery::OtherTips) {
      // Take the next fresh tips no later command of this rack will want,
      // and send later commands of this anchor there too.
      auto anchor = rackAnchor(command);
      auto replacement = remap_.replacement(commands_, index, *sent, twin_, platform_);
      if (anchor && replacement) {
        remap_.add(*anchor, *replacement);
        if (!journal_.write(Json{{"remap", {anchor->first, anchor->second}},
                                 {"to", {replacement->first, replacement->second}}}))
          break;
        sent = &remap_.apply(command);
        result_.events.push_back(fmt::format(
            "command {} `{}`: {}; retrying with the tips at rack row {} column {}",
            command.seq, command.name(), outcome.message, replacement->first,
            replacement->second));
        continue;
      }
    }
    reportStop(command, outcome, commandLoc(command, options_), result_.executed, twin_,
               platform_, journal_.isOpen() ? journal_.path() : std::string(), diags_);
    journal_.write(Json{{"end", "stopped"}, {"seq", command.seq},
                        {"fault", faultKindName(outcome.fault)}});
    break;
  }
  stop(command);
  return std::nullopt;
}

bool Interpreter::confirm(size_t index, const Command &sent, DeviceResult outcome) {
  const Command &command = commands_[index];
  // The twin passed the command before the device ran it and nothing
  // has touched the twin since: committing cannot fail.
  auto committed = twin_.commitChecked(sent);
  PLATE_ASSERT(!committed, "a checked command failed to commit");
  result_.robotSeconds += commandSeconds(sent, platform_);
  ++result_.executed;
  std::optional<PlateRead> read;
  if (outcome.read) {
    read = std::move(*outcome.read);
    size_t readIndex = result_.reads.size();
    if (readIndex < inputs_.readerData.size()) {
      read->values = inputs_.readerData[readIndex];
      read->dataFile = options_.readerData[readIndex];
      read->simulated = inputs_.readerDataSimulated[readIndex];
    }
  }
  if (journal_.isOpen()) {
    // Durable before the next physical command (and before the read's
    // file, so the journal is never behind what is on disk).
    // The line hashed for the journal's header, unless a tip remap changed
    // the command sent.
    std::string remapped;
    std::string_view line;
    if (&sent == &command && index < streamLines_.size())
      line = streamLines_[index];
    else
      line = remapped = commandToJsonLine(sent);
    if (!journal_.writeDone(command.seq, result_.robotSeconds, line, read)) {
      stop(command);
      return false;
    }
  }
  if (read)
    outputs_.storeRead(std::move(*read), /*fromJournal=*/false);
  if (options_.progress)
    options_.progress(RunProgress{&command, index + 1, commands_.size(), result_.robotSeconds});
  outputs_.runAnalyses(command.seq);
  return true;
}

RunResult runCommandsOnDevice(const std::vector<Command> &commands, const RunSetup &setup,
                              const Platform &platform, RunOptions &options,
                              SourceManager &sources, DiagnosticEngine &diags) {
  RunResult result;
  unsigned errorsBefore = diags.errorCount();
  const Labware *labware = checkRun(commands, setup, platform, options, diags);
  if (!labware)
    return result;
  // A resumed run continues the journal's run with the journal's settings,
  // so that reads and outputs are those of one unbroken run.
  std::vector<std::string> streamLines;
  std::string hash = journalStreamHash(options, commands, streamLines);
  bool journalOk = false;
  std::optional<JournalRecord> record =
      prepareJournal(options, commands, hash, sources, diags, journalOk);
  if (!journalOk)
    return result;
  std::optional<RunInputs> inputs = readInputs(options, *labware, sources, diags);
  if (!inputs)
    return result;
  Interpreter interpreter(commands, streamLines, setup, platform, *labware, options,
                          std::move(*inputs), result, diags);
  interpreter.run(record, hash, errorsBefore);
  return result;
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
    writeRunPictures(commands, setup, platform, effective, sources, result, diags);
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
