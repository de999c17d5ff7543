//===- BenchLib.cpp - Measuring the compiler: stages, schedules, tokens ----===//
//
// Staged compilation mirrors Compilation::compile (tools/plate) without the
// driver around it, so that each stage can be timed on its own; it runs
// the same registered passes in the same order.
//
//===----------------------------------------------------------------------===//
#include "bench/BenchLib.h"

#include "backend/bioforge1/Backend.h"
#include "passes/GroupWells.h"
#include "passes/Pass.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace plate::bench {

using Clock = std::chrono::steady_clock;

static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

const Platform &benchPlatform() {
  static const Platform platform = [] {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    std::optional<Platform> loaded = loadPlatform("bioforge1", defaultStdlibDir(), diags, {});
    PLATE_ASSERT(loaded, "the build's stdlib must hold bioforge1");
    return std::move(*loaded);
  }();
  return platform;
}

//===--- Staged compilation ------------------------------------------------===//

CompileResult compileStaged(const CompileRequest &request) {
  CompileResult result;
  SourceManager sources;
  DiagnosticEngine diags(sources);
  if (request.measureHeap)
    heapResetPeak();

  auto fail = [&] {
    for (const Diagnostic &diagnostic : diags.diagnostics())
      if (diagnostic.severity == Severity::Error) {
        result.firstError = renderText(diagnostic, sources, false);
        break;
      }
    return std::move(result);
  };
  auto stage = [&](std::string name, Clock::time_point start) {
    double seconds = secondsSince(start);
    result.stages.push_back({std::move(name), seconds});
    result.totalSeconds += seconds;
  };

  Clock::time_point start = Clock::now();
  uint32_t fileId = sources.addBuffer(request.name, request.text);
  ast::Script script = parseScript(sources, fileId, diags);
  stage("parse", start);
  if (diags.hasErrors())
    return fail();

  start = Clock::now();
  FrontendOptions options;
  options.stdlibDir = request.stdlibDir.empty() ? defaultStdlibDir() : request.stdlibDir;
  std::optional<CheckedProgram> program = checkScript(script, sources, diags, options);
  stage("sema", start);
  if (!program || diags.hasErrors())
    return fail();

  ir::Module &module = program->module;
  const Platform &platform = *program->platform;
  PassContext context{diags, sources, platform};
  if (request.keepIR)
    result.checked = module;
  for (const PassInfo &info : registeredPasses()) {
    start = Clock::now();
    std::unique_ptr<Pass> pass = info.create();
    bool ok = pass->run(module, context);
    stage(std::string(info.name), start);
    if (!ok || diags.hasErrors())
      return fail();
    if (!request.keepIR)
      continue;
    // Quality figures read the IR between passes, outside the timed region.
    if (info.name == "track-volumes")
      result.highLevel = module;
    if (info.name == "group-wells") {
      std::optional<HeadGeometry> geometry = headGeometry(module, platform);
      for (const ir::Op &op : module.ops) {
        if (op.manual || op.blocks.empty())
          continue;
        result.headPositions += op.blocks.size();
        if (geometry)
          result.headPositionBound +=
              op.as<ir::TransferOp>()
                  ? transferLowerBound(*op.as<ir::TransferOp>(), *geometry)
                  : headPositionLowerBound(pipettedWells(op), *geometry);
      }
    }
  }

  start = Clock::now();
  std::vector<backend::Command> commands = backend::lowerToCommands(module, platform);
  stage("lower", start);

  start = Clock::now();
  std::string jsonl;
  for (const backend::Command &command : commands) {
    backend::appendCommandJsonLine(jsonl, command);
    jsonl += '\n';
  }
  stage("emit", start);

  result.ok = true;
  result.commandCount = commands.size();
  result.jsonlBytes = jsonl.size();
  if (request.measureHeap)
    result.peakHeapBytes = heapPeakBytes();
  if (request.keepIR) {
    result.commands = std::move(commands);
    result.jsonl = std::move(jsonl);
    result.lowered = std::move(module);
  }
  return result;
}

//===--- Schedule quality --------------------------------------------------===//

double handlingSeconds(const std::vector<backend::Command> &commands,
                       const Platform &platform) {
  double total = 0;
  for (const backend::Command &command : commands) {
    backend::CommandOp op = command.fields.op;
    if (op == backend::CommandOp::Wait || op == backend::CommandOp::Shake ||
        op == backend::CommandOp::SetTemperature)
      continue;
    total += backend::commandSeconds(command, platform);
  }
  return total;
}

namespace {

/// Builds the naive command list; timing only needs op and volume, but the
/// commands carry the real arguments so they can be printed or replayed.
class NaiveLowering {
public:
  NaiveLowering(const ir::Module &module, const Platform &platform)
      : module_(module), platform_(platform) {}

  std::vector<backend::Command> run() {
    for (const ir::Op &op : module_.ops) {
      if (op.manual)
        continue;
      if (const auto *dispense = op.as<ir::DispenseOp>()) {
        double volume = dispense->volume.value;
        for (const ir::Portion &portion : dispense->portions)
          for (Well well : portion.wells.columnMajor()) {
            pick();
            moveLiquid(reservoirPlace(), plate(well), volume);
            if (dispense->mix)
              mix(well, dispense->mix->volume.value, dispense->mix->cycles);
            drop();
          }
      } else if (const auto *aspirate = op.as<ir::AspirateOp>()) {
        for (const ir::WellAmount &amount : aspirate->resolved)
          removeFrom(amount.well, amount.volume.value);
      } else if (const auto *wash = op.as<ir::WashOp>()) {
        for (const ir::WellAmount &amount : wash->emptied)
          removeFrom(amount.well, amount.volume.value);
        for (unsigned cycle = 0; cycle < wash->cycles; ++cycle)
          for (Well well : wash->wells.columnMajor()) {
            pick();
            moveLiquid(reservoirPlace(), plate(well), wash->volume.value);
            drop();
            removeFrom(well, wash->volume.value);
          }
      } else if (const auto *mixOp = op.as<ir::MixOp>()) {
        for (Well well : mixOp->wells.columnMajor()) {
          pick();
          mix(well, mixOp->volume.value, mixOp->cycles);
          drop();
        }
      } else if (const auto *transfer = op.as<ir::TransferOp>()) {
        for (const auto &[from, to] : transfer->pairs) {
          pick();
          moveLiquid(plate(from), plate(to), transfer->volume.value);
          drop();
        }
      }
    }
    return std::move(commands_);
  }

  unsigned tips() const { return tips_; }

private:
  static backend::Json mask() { return "1000"; }

  ir::Place reservoirPlace() const { return {platform_.reservoirSlot, 1, 1}; }
  ir::Place plate(Well well) const { return {platform_.samplePlateSlot, well.row, well.col}; }

  void add(std::string module, std::string op, backend::Json args) {
    backend::Command command = backend::decodeCommand(std::move(module), op, args);
    command.seq = static_cast<uint32_t>(commands_.size() + 1);
    commands_.push_back(std::move(command));
  }
  void pick() {
    unsigned perRack = platform_.tipRackRows * platform_.tipRackCols;
    if (tips_ && tips_ % perRack == 0)
      add(platform_.tipSwapModule, "SwapTipRack", backend::Json::object());
    unsigned index = tips_ % perRack;
    ++tips_;
    add(platform_.liquidHandler, "PickTips",
        {{"row", index / platform_.tipRackCols + 1},
         {"col", index % platform_.tipRackCols + 1},
         {"mask", mask()}});
  }
  void drop() { add(platform_.liquidHandler, "DropTips", {{"mask", mask()}}); }
  backend::Json at(const ir::Place &place, double volume) const {
    backend::Json args = {{"slot", backend::jsonSlot(place.slot)}};
    if (place.row) {
      args["row"] = place.row;
      args["col"] = place.col;
    }
    args["mask"] = mask();
    args["volume_ul"] = backend::jsonNumber(volume);
    return args;
  }
  /// Whole tip loads; the tip carries at most its capacity per trip.
  void moveLiquid(const ir::Place &from, const ir::Place &to, double volume) {
    while (volume > 1e-9) {
      double load = std::min(volume, platform_.tipCapacityUl);
      add(platform_.liquidHandler, "Aspirate", at(from, load));
      add(platform_.liquidHandler, "Dispense", at(to, load));
      volume -= load;
    }
  }
  void removeFrom(Well well, double volume) {
    if (volume <= 0)
      return;
    pick();
    moveLiquid(plate(well), {platform_.solutionWasteSlot, 0, 0}, volume);
    drop();
  }
  void mix(Well well, double volume, unsigned cycles) {
    backend::Json args = at(plate(well), volume);
    args["cycles"] = cycles;
    add(platform_.liquidHandler, "Mix", std::move(args));
  }

  const ir::Module &module_;
  const Platform &platform_;
  std::vector<backend::Command> commands_;
  unsigned tips_ = 0;
};

} // namespace

std::vector<backend::Command> naivePipetting(const ir::Module &highLevel,
                                             const Platform &platform) {
  return NaiveLowering(highLevel, platform).run();
}

Quality measureQuality(const CompileResult &result, const Platform &platform) {
  Quality quality;
  quality.headPositions = result.headPositions;
  quality.headPositionBound = result.headPositionBound;
  if (result.highLevel) {
    quality.steps = platePipettingBySteps(*result.highLevel, result.commands, platform);
    for (const StepPipetting &step : quality.steps) {
      quality.plateCommands += step.commands;
      quality.plateCommandBound += step.bound;
    }
  }
  quality.tipsUsed = backend::countTips(result.commands, platform).tips;
  quality.robotSeconds = backend::robotSeconds(result.commands, platform);
  quality.handlingSeconds = handlingSeconds(result.commands, platform);
  if (!result.highLevel)
    return quality;
  quality.tipBound = tipLowerBound(*result.highLevel, platform);
  quality.robotSecondsBound =
      robotTimeLowerBound(*result.highLevel, result.commands, platform, quality.tipBound);
  // The naive schedule moves the plate, reads and waits as the compiled one
  // does; only the pipetting is replaced.
  NaiveLowering naive(*result.highLevel, platform);
  std::vector<backend::Command> pipetting = naive.run();
  std::vector<backend::Command> rest;
  for (const backend::Command &command : result.commands)
    if (!backend::isPipettingCommand(command))
      rest.push_back(command);
  quality.naiveHandlingSeconds =
      handlingSeconds(pipetting, platform) + handlingSeconds(rest, platform);
  quality.naiveCommands = pipetting.size() + rest.size();
  quality.naiveTips = naive.tips();
  return quality;
}

//===--- Tokens --------------------------------------------------------------===//

// The approximation: the pre-tokenizer of OpenAI's cl100k_base, applied to
// ASCII classes (bytes >= 0x80 count as letters). BPE merges only within a
// pre-token, so the count is a lower bound on cl100k tokens and close to it
// for code-like text made of short common words and numbers.
TokenCount countTokens(std::string_view text) {
  auto isLetter = [](unsigned char c) { return std::isalpha(c) || c >= 0x80; };
  auto isDigit = [](unsigned char c) { return std::isdigit(c) != 0; };
  auto isSpace = [](unsigned char c) { return std::isspace(c) != 0; };
  auto isNewline = [](unsigned char c) { return c == '\n' || c == '\r'; };
  auto isOther = [&](unsigned char c) { return !isLetter(c) && !isDigit(c) && !isSpace(c); };

  TokenCount count;
  count.bytes = text.size();
  size_t i = 0, n = text.size();
  auto at = [&](size_t k) -> unsigned char { return k < n ? text[k] : 0; };
  while (i < n) {
    unsigned char c = at(i);
    ++count.pretokens;
    // 's 't 're 've 'm 'll 'd
    if (c == '\'' && i + 1 < n) {
      std::string_view rest = text.substr(i + 1, 2);
      auto lower = [](char x) { return static_cast<char>(std::tolower(x)); };
      char a = lower(rest[0]), b = rest.size() > 1 ? lower(rest[1]) : 0;
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) {
        i += 3;
        continue;
      }
      if (a == 's' || a == 't' || a == 'm' || a == 'd') {
        i += 2;
        continue;
      }
    }
    // [^\r\n\p{L}\p{N}]?\p{L}+
    if (isLetter(c) || (!isNewline(c) && !isDigit(c) && isLetter(at(i + 1)))) {
      ++i;
      while (i < n && isLetter(at(i)))
        ++i;
      continue;
    }
    // \p{N}{1,3}
    if (isDigit(c)) {
      size_t run = 0;
      while (i < n && run < 3 && isDigit(at(i)))
        ++i, ++run;
      continue;
    }
    // ' ?[^\s\p{L}\p{N}]+[\r\n]*'
    if (isOther(c) || (c == ' ' && isOther(at(i + 1)))) {
      if (c == ' ')
        ++i;
      while (i < n && isOther(at(i)))
        ++i;
      while (i < n && isNewline(at(i)))
        ++i;
      continue;
    }
    // \s*[\r\n]+ | \s+(?!\S) | \s+
    size_t end = i;
    while (end < n && isSpace(at(end)))
      ++end;
    size_t lastNewline = std::string_view::npos;
    for (size_t k = i; k < end; ++k)
      if (isNewline(at(k)))
        lastNewline = k;
    if (lastNewline != std::string_view::npos) {
      i = lastNewline + 1;
      continue;
    }
    // Leave the last space to join the next word.
    i = (end < n && end - i > 1) ? end - 1 : end;
  }
  return count;
}

} // namespace plate::bench
