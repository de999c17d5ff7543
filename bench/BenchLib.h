//===- BenchLib.h - Measuring the compiler: stages, schedules, tokens ------===//
//
// The pieces every benchmark tool shares:
//  - a staged compilation that times parse, sema (with IR generation), each
//    pass of the default pipeline, lowering to commands and JSONL emission
//    separately, and keeps what the quality figures need from between the
//    passes (head positions after `group-wells`, the high-level IR before
//    lowering);
//  - a heap high-water mark (operator new is replaced in HeapTracker.cpp);
//  - the naive reference schedule: single channel, a new tip for every
//    well, which the handling-time figure compares against; it lives here,
//    not in passes/, because it is a yardstick, not a compiler option;
//  - token counts under a stated approximation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/ScheduleQuality.h"
#include "frontend/Frontend.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plate::bench {

//===--- Heap high-water mark ----------------------------------------------===//

/// Starts a new high-water mark at the current heap use.
void heapResetPeak();
/// Bytes above the level at the last reset, at the highest point since.
size_t heapPeakBytes();

//===--- Staged compilation ------------------------------------------------===//

struct StageTime {
  std::string name; ///< parse, sema, a pass name, lower, emit
  double seconds = 0;
};

struct CompileResult {
  bool ok = false;
  std::string firstError;          ///< rendered, when !ok
  std::vector<StageTime> stages;   ///< in order
  double totalSeconds = 0;         ///< sum of the stages
  size_t commandCount = 0;
  size_t jsonlBytes = 0;
  size_t peakHeapBytes = 0;        ///< set only when measureHeap
  // For the quality figures (set when keepIR).
  unsigned headPositions = 0;      ///< Σ blocks after group-wells
  unsigned headPositionBound = 0;  ///< Σ headPositionLowerBound
  std::optional<ir::Module> checked;   ///< the frontend's module, before any pass
  std::optional<ir::Module> highLevel; ///< the module after track-volumes
  std::optional<ir::Module> lowered;
  std::vector<backend::Command> commands;
  std::string jsonl;
};

struct CompileRequest {
  std::string name = "script.plate";
  std::string text;
  std::string stdlibDir;   ///< empty: the build's default
  bool keepIR = false;     ///< fill the quality fields and keep the stream
  bool measureHeap = false;
};

/// Compiles `request.text` in process, timing each stage; no IR
/// verification between passes (the driver's default in Release).
CompileResult compileStaged(const CompileRequest &request);

//===--- Schedule quality --------------------------------------------------===//

// The bounds live in the backend, where `plate compile`'s summary uses them
// too (backend/bioforge1/ScheduleQuality.h).
using backend::platePipettingBySteps;
using backend::robotTimeLowerBound;
using backend::StepPipetting;
using backend::tipLowerBound;

struct Quality {
  unsigned headPositions = 0, headPositionBound = 0;
  /// Counted on the emitted stream (platePipettingBySteps), summed.
  unsigned plateCommands = 0, plateCommandBound = 0;
  std::vector<StepPipetting> steps;
  unsigned tipsUsed = 0, tipBound = 0;
  double robotSeconds = 0, robotSecondsBound = 0;
  double handlingSeconds = 0;      ///< robot time less waits, shaking, heating
  double naiveHandlingSeconds = 0; ///< the same for the naive schedule
  size_t naiveCommands = 0;
  unsigned naiveTips = 0;
};

/// Quality figures of a result compiled with keepIR.
Quality measureQuality(const CompileResult &result, const Platform &platform);

/// Seconds of a stream that are not incubation, shaking or waiting
/// (SYS.Wait, SHK.Shake and HP.SetTemperature are left out).
double handlingSeconds(const std::vector<backend::Command> &commands,
                       const Platform &platform);

/// The naive reference lowering of the pipetting of `highLevel` (the
/// module after track-volumes): one channel, a fresh tip for every well
/// and every aspiration, a rack swap every rack of tips. Transport, lids,
/// reads and waits are not pipetting; the caller takes them from the
/// compiled stream.
std::vector<backend::Command> naivePipetting(const ir::Module &highLevel,
                                             const Platform &platform);

//===--- Tokens --------------------------------------------------------------===//

struct TokenCount {
  size_t bytes = 0;
  size_t pretokens = 0; ///< cl100k-style pre-tokenizer pieces: a lower bound on BPE tokens
  size_t quarterBytes() const { return (bytes + 3) / 4; } ///< the bytes/4 rule of thumb
};

TokenCount countTokens(std::string_view text);

/// The loaded BioForge-1 platform (cached; the stdlib of the build).
const Platform &benchPlatform();

} // namespace plate::bench
