//===- FaultPolicy.h - Which faults a run accepts, retries or stops on ----===//
//
// docs/reliability.md: an injected fault must name a command that can fail
// that way; a reader timeout is read again and a tip pick-up failure is
// retried with other tips, each at most kMaxAttempts times; every other
// fault stops the run with what the operator needs: the deck as the twin
// sees it and what to do about that fault.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/DeckState.h"

#include <vector>

namespace plate::backend {

/// Attempts of one command before a retryable fault stops the run.
constexpr unsigned kMaxAttempts = 3;

/// Checks every fault of the plan against the stream before anything runs.
bool validateFaults(const FaultPlan &faults, const std::vector<Command> &commands,
                    const Platform &platform, DiagnosticEngine &diags);

enum class Recovery : uint8_t {
  Stop,      ///< the run stops before the command
  ReadAgain, ///< reading does not change the plate: reading again is safe
  OtherTips, ///< the tips stay in the rack: take fresh ones elsewhere
};

/// What to do after attempt `attempt` (1-based) of a command failed.
Recovery recoveryFor(FaultKind fault, unsigned attempt);

/// Reports the failure that stops the run before `command`: the device's
/// reason, what was confirmed, the deck state, the operator's next step
/// and, with a journal, how to resume.
void reportStop(const Command &command, const DeviceResult &outcome, SourceLoc loc,
                size_t confirmed, const DeckState &twin, const Platform &platform,
                const std::string &journalPath, DiagnosticEngine &diags);

} // namespace plate::backend
