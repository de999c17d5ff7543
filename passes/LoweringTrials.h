//===- LoweringTrials.h - Trial lowerings, surveys and checkpoints --------===//
//
// The tip budget search (TipBudgetSearch.h) compares width plans by
// lowering the module with each: real trials (the result the pass would
// produce) and surveys (the tip allocator's unbounded rack: how many fresh
// tips come before the last parked pick). A trial's diagnostics go nowhere.
//
// Survey and real lowerings with the same widths agree up to the first
// rack swap (survey mode differs only in what a swap does), so a trial in
// one mode records a checkpoint that a trial in the other mode continues
// from instead of lowering the same prefix again. A survey needs only the
// figures: it drops each op's commands once they are counted, except those
// before its first swap when it records a checkpoint (the real lowering
// that continues from it takes them).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/PipettingLowering.h"

#include <memory>
#include <optional>
#include <vector>

namespace plate::lowering {

/// A lowering's state at the start of an op before its first rack swap.
struct Checkpoint {
  std::shared_ptr<const PipettingLowering> state;
  size_t commandsBefore = 0; ///< commands emitted before that op
  /// Those commands, once the run that took the checkpoint swapped (a
  /// survey keeps its commands until then for this).
  std::optional<std::vector<ir::Op>> prefix;
  bool reported = false; ///< diagnostics were reported before that op
};

/// What the lowering with some widths costs and, for a real (not survey)
/// trial that reported nothing, its result, which the pass adopts when it
/// chooses these widths instead of lowering again.
struct Trial {
  Outcome outcome;
  std::optional<Lowered> lowered;
};

/// Runs the trials of one module.
class LoweringTrials {
public:
  LoweringTrials(const ir::Module &module, const Lookahead &lookahead, PassContext &context)
      : module_(module), lookahead_(lookahead), context_(context) {}

  /// Lowers the module with `widths` from the start; records a checkpoint
  /// in `record` when given.
  Trial run(const WidthPlan &widths, bool survey, Checkpoint *record = nullptr);
  /// The same, continuing from `checkpoint` (taken with these widths in
  /// the other mode) when it can.
  Trial runFrom(const WidthPlan &widths, bool survey, Checkpoint &checkpoint);

  /// Commands of the longest lowering so far: the next lowering reserves
  /// them up front (the ops are large, and growing the vector by doubling
  /// in every trial moved them again and again and faulted in fresh pages).
  size_t longestLowering() const { return longestLowering_; }

private:
  Trial resume(bool survey, Checkpoint &checkpoint);
  Trial lower(PipettingLowering &lowering, const DiagnosticEngine &scratch, bool survey,
              Checkpoint *record, bool reportedBefore);

  const ir::Module &module_;
  const Lookahead &lookahead_;
  PassContext &context_;
  size_t longestLowering_ = 0;
};

} // namespace plate::lowering
