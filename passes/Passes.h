//===- Passes.h - Factories of every pass ---------------------------------===//
//
// One factory per pass; each pass's own header (passes/<Name>.h) documents
// what it does and what it needs to have run before it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

namespace plate {

#define PASS(Name, Factory, Requires, Description) std::unique_ptr<Pass> Factory();
#include "passes/PassRegistry.def"

} // namespace plate
