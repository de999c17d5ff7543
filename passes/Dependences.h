//===- Dependences.h - Which wells each step reads and writes ---*- C++ -*-===//
//
// Language spec §7: a statement means what executing it one well (or one
// pair) at a time means, and the compiler runs things in parallel only
// where that gives the same result. This file is the one place that says
// which operations may run together or in another order:
//
//  - Across statements: two ops must keep their order when one writes a
//    well the other reads or writes, or when either acts on the whole plate
//    (incubate, shake, wait, magnet, read). No pass reorders statements
//    today; lower-pipetting and route-transport emit each statement's
//    commands together, in statement order, and translation validation
//    (backend/bioforge1/TranslationValidation.h) checks every well's history on every
//    `plate run`. A pass that ever moves a statement must ask
//    mustKeepOrder() first.
//  - Within a statement the only operation whose units depend on each other
//    is `transfer`: a pair that draws from a well an earlier pair filled (a
//    serial dilution) must see that pair's result. Dispense, aspirate, wash
//    and mix act on each well independently of the others (a dispense with
//    `mix` mixes a well after filling that same well), so their wells may
//    share head positions freely. transferConflict() below is the rule for
//    pairs, and GroupWells' transfer batching obeys it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

namespace plate {

/// The plate wells an op touches and how. Everything that takes liquid out
/// of a well or puts liquid in writes it (a removal changes what is left);
/// mixing and reading depend on what a well holds, so they read it.
struct WellAccess {
  WellSet reads;
  WellSet writes;
  /// Incubate, shake, wait, magnet: what happens to every well in time.
  bool plateWide = false;
};

/// What `op` touches on the plate. `module` resolves a read without wells
/// (every layout well) and nothing else.
WellAccess wellAccess(const ir::Op &op, const ir::Module &module);

/// Whether `later` must stay after `earlier`: a well written by one and
/// read or written by the other, or a plate-wide op against anything that
/// touches a well or the plate.
bool mustKeepOrder(const WellAccess &earlier, const WellAccess &later);

/// How two pairs of one transfer depend on each other; `first` comes before
/// `second` in the statement's pair order (both take and give liquid, so
/// every shared well is a dependence).
enum class PairConflict : uint8_t {
  None,
  /// `second` draws from the well `first` fills (read after write): the
  /// serial-dilution chain; `second` must run after `first` completes.
  DrawsWhatEarlierFilled,
  /// `second` fills the well `first` draws from (write after read): legal
  /// in one head position only if every aspiration of the position comes
  /// before every dispense, i.e. the volume takes a single trip.
  FillsWhatEarlierDrew,
};
PairConflict transferConflict(const std::pair<Well, Well> &first,
                              const std::pair<Well, Well> &second);

} // namespace plate
