//===- ReferenceInterpreter.h - The script run as the spec reads it -*- C++
//-*-===//
//
// The reference for translation validation: the checked IR (what the
// frontend produced, before any pass) executed as language spec §7 defines
// it, and nothing more clever. Every statement runs one well, or one
// transfer pair, at a time in the statement's order; wells start empty;
// MANUAL statements act on the plate as the operator would; a removal
// takes every liquid of a well in proportion (ideal mixing); a wash empties
// its wells and then fills and empties them COUNT times; a read without
// wells reads every layout well. It shares no code with the passes or the
// twin it checks, only the IR, the unit table and the platform's figures
// (ambient temperature, room-temperature band, what `overnight` means).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/WellHistory.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <optional>
#include <string>
#include <vector>

namespace plate::backend {

struct ReferenceRun {
  /// Statements (HistoryNames origins) whose commands are plate-wide
  /// events: INSTRUMENT incubate, shake, wait and magnet.
  std::vector<uint32_t> plateWideOrigins;
  /// Set when the script cannot run as written (a removal of more than a
  /// well holds, an overflow): a check the compiler should have made.
  std::optional<std::string> impossible;
};

/// What the account covers.
enum class ReferenceScope : uint8_t {
  /// What a command stream can show: MANUAL work is one `Manual` event per
  /// statement and well, and MANUAL incubations, mixes and reads are not
  /// recorded (the robot never sees them). Translation validation.
  Stream,
  /// What happens to the plate whoever does it: MANUAL statements record
  /// their own kinds and plate-wide steps like robot ones. Equivalence of
  /// two scripts (agent/Equivalence.h).
  WholeProtocol,
};

/// Runs `checked` into `history` (whose names the stream's account
/// shares).
ReferenceRun interpretReference(const ir::Module &checked, const Platform &platform,
                                History &history,
                                ReferenceScope scope = ReferenceScope::Stream);

} // namespace plate::backend
