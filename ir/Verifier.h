//===- Verifier.h - Structural invariants of the IR -----------------------===//
//
// The verifier checks the IR's own invariants (not the user's protocol):
// liquid ids resolve, wells lie on the plate, quantities have the dimension
// their field demands and are canonical once `normalize-units` ran (liquid
// concentrations excepted: they keep the unit the script wrote), and a
// module marked lowered holds only device ops (plus the host ops `analyze`
// and `note`, and MANUAL ops that are kept for the operator). A failure
// means a pass is wrong; the pass manager runs it between passes in tests
// and debug builds and turns a failure into an internal error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <string>
#include <vector>

namespace plate::ir {

/// Returns one message per violated invariant; empty when the module is
/// well formed.
std::vector<std::string> verify(const Module &module);

/// One violated invariant and what it is about, so that a reader of IR text
/// (ir/IRReader.h) can point at the line of the liquid or op.
struct VerifierProblem {
  enum class Subject : uint8_t { Liquid, Op };
  Subject subject;
  size_t index; ///< into Module::liquids or Module::ops
  std::string message; ///< without the `op #N (mnemonic): ` prefix of verify()
};
std::vector<VerifierProblem> verifyProblems(const Module &module);

} // namespace plate::ir
