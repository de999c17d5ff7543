//===- Interpreter.cpp - Replay commands on a device, checked by the twin --===//
//
// For each command: MANUAL fills due before it land in the wells, the twin
// checks every invariant (the first violation stops the run), the device
// executes, and only a confirmed command is committed to the twin and
// advances the clock. All inputs (truth map, reader data files) are read
// and validated before the first command, so a bad file never leaves a
// half-run behind. A later journal/resume only needs `executed` and the
// twin, both kept here.
//
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "backend/DeckState.h"
#include "backend/Simulator.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>

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
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) {
    diags.report(DiagId::MalformedFile, SourceLoc{},
                 fmt::format("cannot write `{}`", path.string()));
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

RunResult runCommands(const std::vector<Command> &commands, const RunSetup &setup,
                      const Platform &platform, const RunOptions &options,
                      SourceManager &sources, DiagnosticEngine &diags) {
  RunResult result;
  unsigned errorsBefore = diags.errorCount();
  const Labware *labware = platform.findLabware(setup.plateType);
  if (!labware) {
    diags.report(DiagId::BadPlanFile, SourceLoc{},
                 fmt::format("plate type `{}` is not labware of `{}`", setup.plateType,
                             platform.name));
    return result;
  }
  if (!validateSetup(setup, platform, diags))
    return result;

  std::map<std::string, double> truth;
  if (!options.truthFile.empty()) {
    auto loaded = readTruthFile(options.truthFile, sources, diags);
    if (!loaded)
      return result;
    truth = std::move(*loaded);
  }
  std::vector<std::map<Well, double>> readerData;
  for (const std::string &path : options.readerData) {
    auto values = readPlateCsv(path, labware->shape, sources, diags);
    if (!values)
      return result;
    readerData.push_back(std::move(*values));
  }

  ReaderModel::Params params;
  params.seed = options.seed;
  params.sigma = options.noiseSigma;
  std::unique_ptr<SimulatedDevice> simulator;
  Device *device = options.device;
  if (!device) {
    simulator = std::make_unique<SimulatedDevice>(platform, *labware, setup, truth, params);
    device = simulator.get();
  }
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

  runAnalyses(0);
  for (size_t index = 0; index < commands.size(); ++index) {
    const Command &command = commands[index];
    twin.applyManualFills(command.seq);
    if (auto violation = twin.check(command)) {
      diags.report(ruleDiag(violation->rule), commandLoc(command, options), command.seq,
                   command.name(), command.line, violation->message)
          .step(command.step);
      result.failedSeq = command.seq;
      return result;
    }
    DeviceResult outcome = device->execute(command);
    if (outcome.status != DeviceStatus::Ok) {
      diags.report(DiagId::DeviceFailed, commandLoc(command, options), command.seq,
                   command.name(), command.line,
                   outcome.message.empty() ? std::string("no reason given") : outcome.message)
          .step(command.step);
      result.failedSeq = command.seq;
      return result;
    }
    twin.execute(command, /*commit=*/true);
    result.robotSeconds += commandSeconds(command, platform);
    ++result.executed;
    if (outcome.read) {
      PlateRead read = std::move(*outcome.read);
      size_t readIndex = result.reads.size();
      if (readIndex < readerData.size())
        read.values = readerData[readIndex];
      if (options.writeFiles) {
        auto csv = outPath(fmt::format("read{}-{}nm.csv", readIndex + 1,
                                       formatNumber(read.wavelengthNm)));
        if (writeFile(csv, plateReadCsv(read, labware->shape), diags))
          result.outputs.push_back(csv.string());
      }
      result.reads.push_back(std::move(read));
    }
    if (options.progress)
      options.progress(RunProgress{&command, index + 1, commands.size(), result.robotSeconds});
    runAnalyses(command.seq);
  }
  runAnalyses(UINT32_MAX);
  result.ok = diags.errorCount() == errorsBefore;
  return result;
}

RunResult runModule(const ir::Module &module, const Platform &platform,
                    const RunOptions &options, SourceManager &sources,
                    DiagnosticEngine &diags) {
  std::vector<Command> commands = lowerToCommands(module, platform);
  RunSetup setup = setupFromModule(module, platform, commands);
  RunOptions withScript = options;
  if (!withScript.scriptFileId)
    withScript.scriptFileId = module.fileId;
  return runCommands(commands, setup, platform, withScript, sources, diags);
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
