//===- LowerToCommands.h - Device ops of the IR to BioForge-1 commands ----===//
//
// The last lowering: each device op of a lowered ir::Module becomes one
// Command, its typed fields filled straight from the op (no JSON is built:
// that was half of `plate compile`'s time on IL-6, issue 7). The fields
// are exactly what the stream reader decodes from the line the serializer
// writes for them (CommandEmit tests).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <vector>

namespace plate::backend {

/// Lowers a module whose ops are device ops (plus host ops Analyze/Note and
/// MANUAL-kept ops, which produce no commands) to commands numbered from 1.
std::vector<Command> lowerToCommands(const ir::Module &module, const Platform &platform);

} // namespace plate::backend
