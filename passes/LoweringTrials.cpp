//===- LoweringTrials.cpp - Trial lowerings, surveys and checkpoints ------===//
//
// Part of lower-pipetting; LoweringTrials.h says what a trial is.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringTrials.h"

#include <algorithm>

namespace plate::lowering {

Trial LoweringTrials::run(const WidthPlan &widths, bool survey, Checkpoint *record) {
  DiagnosticEngine scratch(context_.sources);
  PassContext quiet{scratch, context_.sources, context_.platform, context_.options};
  PipettingLowering lowering(module_, lookahead_, quiet, widths, survey);
  return lower(lowering, scratch, survey, record, false);
}

Trial LoweringTrials::runFrom(const WidthPlan &widths, bool survey, Checkpoint &checkpoint) {
  bool canResume = checkpoint.state && (survey || checkpoint.prefix);
  return canResume ? resume(survey, checkpoint) : run(widths, survey);
}

Trial LoweringTrials::resume(bool survey, Checkpoint &checkpoint) {
  DiagnosticEngine scratch(context_.sources);
  PassContext quiet{scratch, context_.sources, context_.platform, context_.options};
  // A survey drops the commands anyway; a real lowering takes them.
  std::vector<ir::Op> prefix;
  if (!survey) {
    PLATE_ASSERT(checkpoint.prefix, "a real lowering resumed without its prefix");
    prefix = std::move(*checkpoint.prefix);
    checkpoint.prefix.reset();
  }
  PipettingLowering lowering(*checkpoint.state, quiet, survey, std::move(prefix));
  return lower(lowering, scratch, survey, nullptr, checkpoint.reported);
}

/// Runs `lowering` to the end. With `record`, takes a checkpoint at the
/// start, then after enough commands to be worth the copy of the state.
Trial LoweringTrials::lower(PipettingLowering &lowering, const DiagnosticEngine &scratch,
                            bool survey, Checkpoint *record, bool reportedBefore) {
  std::vector<ir::Op> &commands = lowering.commands();
  commands.reserve(longestLowering_);
  auto keepsCommands = [&] { return !survey || (record && !lowering.swapped()); };
  constexpr size_t kCommandsPerCheckpoint = 200;
  size_t sinceCheckpoint = kCommandsPerCheckpoint;
  try {
    while (!lowering.atEnd()) {
      if (record && !lowering.swapped() && sinceCheckpoint >= kCommandsPerCheckpoint) {
        record->state = lowering.snapshot();
        record->commandsBefore = commands.size();
        record->reported = !scratch.diagnostics().empty();
        sinceCheckpoint = 0;
      }
      size_t commandsBefore = commands.size();
      if (!lowering.lowerNext(keepsCommands()))
        continue;
      // Only a survey's prefix serves (a real lowering resumed from it);
      // the survey drops its commands from here on.
      if (survey && record && record->state && lowering.swapped() && !record->prefix) {
        commands.erase(commands.begin() + static_cast<std::ptrdiff_t>(record->commandsBefore),
                       commands.end());
        record->prefix = std::move(commands);
        commands.clear();
        commandsBefore = 0;
      }
      sinceCheckpoint += commands.size() - commandsBefore;
      if (!keepsCommands())
        commands.clear();
    }
  } catch (const TipAllocator::SurveyOverflow &) {
    Trial overflow;
    overflow.outcome.freshBeforeLastParkedPick = ~0u;
    return overflow;
  }
  longestLowering_ = std::max(longestLowering_, commands.size());
  lowering.finish();
  Trial result{lowering.outcome(), std::nullopt};
  // A lowering that reported nothing is exactly what the pass would
  // produce with these widths; one that did must run again to report.
  bool reported = !scratch.diagnostics().empty() || reportedBefore;
  if (!survey && !reported)
    result.lowered = std::move(lowering.lowered());
  return result;
}

} // namespace plate::lowering
