//===- TranslationValidation.h - Does the stream mean the script? -*- C++
//-*-===//
//
// Every compile that reaches the robot is checked against the script it
// came from (language spec §7: a statement means what running it one well
// or pair at a time means). Two accounts of the run are written down as
// WellHistory.h describes and compared:
//
//  - the script's: the reference interpreter (ReferenceInterpreter.h) on
//    the checked IR, before any pass touched it;
//  - the stream's: the digital twin (DeckState) replaying exactly the
//    commands and RunSetup that `plate run` hands the device, MANUAL work
//    included, recording after each command what the wells under it hold
//    and, for waits and shakes of incubate/shake/wait/magnet statements,
//    how long, how hot, how fast, with the lid on or off and on or off
//    the magnet.
//
// Per well the two must list the same events (added, removed, mixed, read,
// MANUAL) from the same statements in the same order relative to the
// plate-wide steps, leaving the same volume of each source liquid (within
// kHistoryToleranceUl); the plate-wide steps must match in order and
// duration. The first difference, in the script's order, names the well
// (or the plate), the statement and what each account has.
//
// `plate run` validates before the first device command and refuses a
// stream that disagrees (an internal error: the compiler broke its
// promise); `plate compile --validate` validates on demand, and the test
// suites set PLATE_VALIDATE=1 so every compile they make is validated.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/RunSetup.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <optional>
#include <string>
#include <vector>

namespace plate::backend {

struct Validation {
  /// The first difference (or why the stream could not be replayed); empty
  /// when the stream means the script.
  std::optional<std::string> difference;
  /// The script line of the statement where the accounts part (0: none,
  /// or the stream could not be replayed at all).
  uint32_t line = 0;
  size_t commands = 0;   ///< commands replayed
  size_t wellEvents = 0; ///< well events compared (the script's account)
  size_t plateEvents = 0;
};

/// Compares what `commands` (with `setup`) do to the plate with what
/// `checked` (the frontend's IR of the same script) means.
Validation validateTranslation(const ir::Module &checked, const std::vector<Command> &commands,
                               const RunSetup &setup, const Platform &platform);

/// Whether the environment asks every compile to validate
/// (PLATE_VALIDATE=1; the test suites set it).
bool validateByDefault();

} // namespace plate::backend
