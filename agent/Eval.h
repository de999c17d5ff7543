//===- Eval.h - What the evaluation harness compares, and its mutants -----===//
//
// The two layers the metrics of agent/Metrics.h compare, extracted from a
// compiled script: the structured layer from the checked (not yet lowered)
// module, one StepRecord per statement with a fixed parameter list (so a
// parameter the candidate leaves at its default still compares), and the
// command layer from the lowered BioForge-1 commands, grouped per step.
// Also the single-change mutants of the mutation study (issue 6), made on
// the script text so each is exactly what a Parser could have answered.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/Metrics.h"
#include "backend/bioforge1/Command.h"
#include "backend/bioforge1/CommandSerializer.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <string>
#include <string_view>
#include <vector>

namespace plate::agent {

/// One StepRecord per op of a checked module (procedure calls and repeats
/// already expanded by IR generation). Quantities are canonical; any
/// temperature in the platform's room range renders as RT.
std::vector<StepRecord> structuredSteps(const ir::Module &module, const Platform &platform);

/// Consecutive commands with the same step label and source line form one
/// block (a step that spans several lines, like a procedure call, gives
/// several blocks, as it gives several steps); its type is
/// backend::blockKind's.
std::vector<CommandBlock> commandBlocks(const std::vector<backend::Command> &commands,
                                        const Platform &platform);

std::vector<std::string> stepTypes(const std::vector<StepRecord> &steps);
std::vector<std::string> blockTypes(const std::vector<CommandBlock> &blocks);

/// Kinds of single-change mutants, in report order.
const std::vector<std::string> &mutationKinds();
/// Parameter kinds (the ≥ 90 % goal applies to these together).
bool isParameterMutation(std::string_view kind);

struct Mutant {
  std::string kind;        ///< drop, drop-note, volume, time, temperature, wavelength, speed, count, swap, to-manual
  unsigned line = 0;       ///< 1-based line of the script the change is on
  std::string description; ///< `300 uL -> 150 uL`
  std::string script;      ///< the whole mutated script
};

/// Every single-change mutant of a script: each INSTRUMENT statement
/// dropped (a `note` or `pause` as drop-note: it is no step of the robot)
/// or moved to a MANUAL section of its own, each quantity of a
/// statement changed to a plausible wrong value (volumes doubled or halved
/// within the tip, times doubled, temperatures moved to another common
/// incubation temperature, wavelengths to a neighbouring reader filter,
/// speeds doubled or halved within the shaker range, counts plus one), each
/// pair of adjacent different statements of a section swapped. Lines inside
/// procedure definitions and repeat bodies are left alone.
std::vector<Mutant> makeMutants(const std::string &script, const Platform &platform);

} // namespace plate::agent
