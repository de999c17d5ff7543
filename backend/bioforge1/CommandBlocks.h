//===- CommandBlocks.h - What a block of BioForge-1 commands does -*- C++ -*-===//
//
// The evaluation harness compares two command streams block by block (one
// step's commands at one source line, agent/Eval.h); what kind of work a
// block does is read from BioForge-1's command names and the platform's
// slots, so it lives with the rest of BioForge-1's backend.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Command.h"
#include "ir/Platform.h"

#include <string>
#include <vector>

namespace plate::backend {

/// The kind of a block, from the commands it holds: read, wash, remove,
/// transfer, dispense, mix, shake, heat, wait, prompt, move (first that
/// applies, in that order). Aspirating or dispensing on the platform's
/// sample-plate slot is work on the plate; a dispense anywhere else is to
/// waste.
std::string blockKind(const std::vector<Command> &commands, const Platform &platform);

} // namespace plate::backend
