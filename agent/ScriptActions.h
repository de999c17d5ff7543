//===- ScriptActions.h - A checked script read as a sequence of actions ---===//
//
// The script side of the step alignment comes from the compiler's own
// reading of the script: the checked module (after semantic analysis and
// IR generation, before any pass), where procedure calls and `repeat` are
// expanded, defaults are filled in and every quantity is typed. One action
// per high-level op; a dispense with `mix` is a dispense and a mix;
// consecutive washes of one liquid and volume are one wash of their cycles
// together (as the text side reads "wash ... repeat twice more").
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/StepActions.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <vector>

namespace plate::agent {

std::vector<Action> scriptActions(const ir::Module &checked, const SourceManager &sources,
                                  const Platform &platform);

} // namespace plate::agent
