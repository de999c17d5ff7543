//===- RunOutputs.h - What a run leaves behind: reads, analyses, files ----===//
//
// The interpreter hands each confirmed read and each finished command
// here; this unit keeps the reads, fits the script's `analyze` steps once
// the reads they need exist, and writes every file of the run (read CSVs,
// analysis tables and curves, the pictures) under `<out_dir>/<prefix>-`.
// Files are written aside and renamed, so that a crash leaves the old file
// or the new one and resume can keep what it finds.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Backend.h"

#include <filesystem>
#include <string>
#include <vector>

namespace plate::backend {

/// Writes `text` to `path` through `<path>.partial` and a rename; reports
/// a failure as a diagnostic.
bool writeOutputFile(const std::filesystem::path &path, const std::string &text,
                     DiagnosticEngine &diags);

class RunOutputs {
public:
  /// `simulated`: the reads come from the simulator (a journal's read that
  /// names no data file is then the model's).
  RunOutputs(const RunSetup &setup, const Labware &labware, const RunOptions &options,
             bool simulated, RunResult &result, DiagnosticEngine &diags);

  /// Keeps a confirmed read and writes its CSV; a read replayed from the
  /// journal keeps the file a run before the crash wrote.
  void storeRead(PlateRead read, bool fromJournal);
  /// Runs the analyses due once command `doneSeq` is confirmed.
  void runAnalyses(uint32_t doneSeq);

private:
  std::filesystem::path path(const std::string &suffix) const;

  const RunSetup &setup_;
  const Labware &labware_;
  const RunOptions &options_;
  bool simulated_;
  RunResult &result_;
  DiagnosticEngine &diags_;
  size_t nextAnalysis_ = 0;
};

/// The pictures of a run that did anything (docs/pictures.md): the layout,
/// the wells after each step, each read as a heat map, the timeline. A run
/// stopped by a fault draws what happened up to the stop.
void writeRunPictures(const std::vector<Command> &commands, const RunSetup &setup,
                      const Platform &platform, const RunOptions &options,
                      const SourceManager &sources, RunResult &result, DiagnosticEngine &diags);

} // namespace plate::backend
