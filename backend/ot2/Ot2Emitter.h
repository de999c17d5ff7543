//===- Ot2Emitter.h - Checked IR to an Opentrons OT-2 Python protocol -----===//
//
// `plate compile FILE --platform ot2` writes a protocol for the Opentrons
// Protocol API that does what the script says on an OT-2: the same layout,
// volumes, tip policies and order as on BioForge-1 (docs/porting.md).
//
// Input: the module after normalize-units and track-volumes, run on the
// OT-2's Platform (stdlib/platforms/opentrons/ot2.toml): canonical
// quantities; `aspirate all` and the emptying of a wash resolved; wells and
// the liquid waste checked against the OT-2's labware. The
// BioForge-1 lowering passes do not run: the OT-2's 8 channels lie along a
// column, not a row, and its deck is another one.
//
// What an OT-2 lacks (a reader, a magnet here, lids, a gripper) is a
// diagnostic with the script line, or with `manualFallback` a
// `protocol.pause(...)` that tells the operator what to do. A volume no
// mounted pipette can move, a plate type without an Opentrons definition,
// a deck without room: diagnostics, never a file that fails inside
// Opentrons. Every emitted call ends with `# line N: <statement>`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/Platform.h"

#include <optional>
#include <string>

namespace plate::ot2 {

struct EmitOptions {
  /// Pause for the operator where the OT-2 lacks a device, instead of an
  /// error (`--manual-fallback`).
  bool manualFallback = false;
  std::string sourceName; ///< the script's file name, for the header
};

/// The protocol's Python text, or nullopt after reporting errors.
std::optional<std::string> emitProtocol(const ir::Module &module, const Platform &platform,
                                        const SourceManager &sources, DiagnosticEngine &diags,
                                        const EmitOptions &options);

} // namespace plate::ot2
