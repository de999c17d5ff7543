//===- LintProtocol.h - Warnings about missing or misplaced steps --------===//
//
// `lint-protocol` reads the high-level ops (MANUAL and INSTRUMENT alike, in
// file order) and warns, never errs, about protocols that are legal but
// probably not what the author meant:
//
//  W801 order         a substrate is dispensed after a conjugate or antibody
//                     with no wash (or aspiration) in between;
//  W802 completeness  a stop solution is dispensed and no read follows;
//  W803 order         `analyze` with no read before it (in practice a
//                     MANUAL one: an INSTRUMENT `analyze` without a robot
//                     read before it is already E406 in sema);
//  W804 completeness  a dispense fills wells that no later read covers,
//                     while the protocol does read;
//  W805 completeness  a light-sensitive reagent (flag `light_sensitive`) is
//                     in the wells during an incubation that is not `dark`.
//
// Which liquid is a substrate, a conjugate or a stop solution is a name
// heuristic: the name is split at `_`, `-` and digits and its lower-case
// words are matched against short lists (substrate: tmb, abts, opd, pnpp,
// dab, ecl, luminol, substrate; conjugate: conjugate, hrp, ap, antibody,
// ab, detection, secondary, streptavidin, biotin; stop: stop). A liquid
// with the flag `substrate`, `conjugate` or `stop` counts regardless of its
// name.
//
// Preconditions: none beyond a verified module; runs before lowering
// (after track-volumes in the default pipeline). Never fails the pipeline.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

namespace plate {

std::unique_ptr<Pass> createLintProtocolPass();

} // namespace plate
