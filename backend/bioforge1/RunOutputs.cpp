//===- RunOutputs.cpp - What a run leaves behind: reads, analyses, files --===//
//
// See RunOutputs.h. Analyses run as soon as the command after which the
// script analyzes is confirmed, so that a run stopped later still has
// them; a failed fit is a diagnostic at the `analyze` line, not a stop.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/RunOutputs.h"

#include "backend/bioforge1/Pictures.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>

namespace plate::backend {

bool writeOutputFile(const std::filesystem::path &path, const std::string &text,
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
      diags.report(DiagId::CannotWrite, SourceLoc{}, path.string());
      return false;
    }
  }
  std::filesystem::rename(partial, path, error);
  if (error) {
    diags.report(DiagId::CannotReplace, SourceLoc{}, path.string(), error.message());
    return false;
  }
  return true;
}

RunOutputs::RunOutputs(const RunSetup &setup, const Labware &labware, const RunOptions &options,
                       bool simulated, RunResult &result, DiagnosticEngine &diags)
    : setup_(setup), labware_(labware), options_(options), simulated_(simulated),
      result_(result), diags_(diags) {}

std::filesystem::path RunOutputs::path(const std::string &suffix) const {
  std::filesystem::path outDir(options_.outDir.empty() ? "." : options_.outDir);
  return outDir / fmt::format("{}-{}", options_.outPrefix, suffix);
}

void RunOutputs::storeRead(PlateRead read, bool fromJournal) {
  size_t readIndex = result_.reads.size();
  // A journal from before reads recorded their source: on the simulator
  // a read no file replaced is the model's.
  if (fromJournal && simulated_ && read.dataFile.empty())
    read.simulated = true;
  if (options_.writeFiles) {
    auto csv = path(fmt::format("read{}-{}nm.csv", readIndex + 1, formatNumber(read.wavelengthNm)));
    std::error_code error;
    bool keep = fromJournal && std::filesystem::exists(csv, error);
    if (keep || writeOutputFile(csv,
                                plateReadCsv(read, labware_.shape, result_.truths,
                                             result_.truthFile),
                                diags_))
      result_.outputs.push_back(csv.string());
  }
  result_.reads.push_back(std::move(read));
}

void RunOutputs::runAnalyses(uint32_t doneSeq) {
  for (; nextAnalysis_ < setup_.analyses.size() &&
         setup_.analyses[nextAnalysis_].afterSeq <= doneSeq;
       ++nextAnalysis_) {
    const AnalysisStep &step = setup_.analyses[nextAnalysis_];
    SourceLoc loc = options_.scriptFileId && step.line
                        ? SourceLoc{options_.scriptFileId, step.line, 1, 1}
                        : SourceLoc{};
    const PlateRead *read = nullptr;
    for (const PlateRead &candidate : result_.reads)
      if (!step.wavelengthNm || std::fabs(candidate.wavelengthNm - *step.wavelengthNm) < 1e-6)
        read = &candidate;
    AnalysisSite site{diags_, loc, step.step};
    if (!read) {
      if (step.wavelengthNm)
        site.fail(DiagId::AnalysisNoReadAt, formatNumber(*step.wavelengthNm));
      else
        site.fail(DiagId::AnalysisNoRead);
      continue;
    }
    auto analysis = analyzeStandardCurve(step, *read, setup_.layout, site);
    if (!analysis)
      continue;
    if (modelRead(*read)) {
      analysis->truths = result_.truths;
      analysis->truthFile = result_.truthFile;
    }
    if (options_.writeFiles) {
      size_t index = result_.analyses.size() + 1;
      auto csv = path(fmt::format("analysis{}.csv", index));
      auto svg = path(fmt::format("curve{}.svg", index));
      if (writeOutputFile(csv, analysisCsv(*analysis), diags_))
        result_.outputs.push_back(csv.string());
      if (writeOutputFile(svg, curveSvg(*analysis), diags_))
        result_.outputs.push_back(svg.string());
    }
    result_.analyses.push_back(std::move(*analysis));
  }
}

void writeRunPictures(const std::vector<Command> &commands, const RunSetup &setup,
                      const Platform &platform, const RunOptions &options,
                      const SourceManager &sources, RunResult &result, DiagnosticEngine &diags) {
  const Labware *labware = platform.findLabware(setup.plateType);
  if (!labware || result.executed == 0)
    return;
  std::filesystem::path outDir(options.outDir.empty() ? "." : options.outDir);
  auto write = [&](const std::string &suffix, const std::string &svg) {
    auto path = outDir / fmt::format("{}-{}", options.outPrefix, suffix);
    if (writeOutputFile(path, svg, diags))
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
  llvm::ArrayRef<Command> ran(commands.data(), std::min(result.executed, commands.size()));
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

} // namespace plate::backend
