//===- ScheduleQuality.h - Lower bounds on what a schedule costs ----------===//
//
// What the emitted stream does at the plate, with the fewest any legal
// schedule needs beside it: plate pipetting commands per statement, fresh
// tips and robot time. `plate compile`'s summary and the bench report
// (`plate_bench_report quality`, bench/README.md) both print them; the
// arguments for each bound are in ScheduleQuality.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <cstdint>
#include <string>
#include <vector>

namespace plate::backend {

/// Pipetting or tip handling (LH.*, the tip swapper): what a schedule of
/// the same statements may change.
bool isPipettingCommand(const Command &command);

/// One INSTRUMENT pipetting statement's plate pipetting commands in the
/// emitted stream (LH.Aspirate, LH.Dispense and LH.Mix at the sample
/// plate), against the fewest any schedule needs.
struct StepPipetting {
  uint32_t line = 0;
  std::string step;
  unsigned commands = 0, bound = 0;
};

/// Per pipetting statement of `highLevel` (the module after
/// track-volumes), what `commands` does at the plate and the bound: a
/// window cover per row in which one position serves any subset of its
/// channels' wells whatever liquid each channel carries (the volume per
/// well of one statement is the same), times the trips a tip's capacity
/// forces, plus one Mix per position where the statement mixes; a
/// transfer's positions are `transferLowerBound`'s.
std::vector<StepPipetting> platePipettingBySteps(const ir::Module &highLevel,
                                                 const std::vector<Command> &commands,
                                                 const Platform &platform);

/// A lower bound on the tips any legal schedule of `highLevel` uses under
/// its tip policies (see ScheduleQuality.cpp for the argument).
unsigned tipLowerBound(const ir::Module &highLevel, const Platform &platform);

/// A lower bound on the robot time of any schedule of `highLevel` that
/// keeps the transport, waits and reads of `commands` (its stream) and
/// uses at least `tipBound` fresh tips (see ScheduleQuality.cpp for the
/// argument).
double robotTimeLowerBound(const ir::Module &highLevel, const std::vector<Command> &commands,
                           const Platform &platform, unsigned tipBound);

/// The figures of a stream against their bounds.
struct ScheduleFigures {
  unsigned plateCommands = 0, plateCommandBound = 0;
  unsigned tips = 0, tipBound = 0;
  double robotSeconds = 0, robotSecondsBound = 0;
};

/// Counts `commands` (the stream compiled from `highLevel`) and computes
/// the bounds beside them.
ScheduleFigures measureSchedule(const ir::Module &highLevel, const std::vector<Command> &commands,
                                const Platform &platform);

} // namespace plate::backend
