//===- CommandTiming.h - How long commands take (bioforge1.md §5) ---------===//
//
// The clock of a run and the robot time of summaries: every duration comes
// from the platform's TimingModel and transport routes, none is written
// here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "ir/Platform.h"

#include <string>
#include <vector>

namespace plate::backend {

/// Seconds the command takes under the platform's timing model (§5).
double commandSeconds(const Command &command, const Platform &platform);
/// Robot time of a whole stream: the sum of commandSeconds.
double robotSeconds(const std::vector<Command> &commands, const Platform &platform);
/// `1 h 02 min 05 s` style for summaries and progress.
std::string formatDuration(double seconds);

} // namespace plate::backend
