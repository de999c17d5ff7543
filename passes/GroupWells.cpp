//===- GroupWells.cpp - Fewest head positions per pipetting step ---------===//
//
// Why greedy is optimal.
//
// A position anchored at (r, c) reaches columns c, c+s, ..., c+(n-1)s of
// row r: one row, and one residue class of columns mod s. So the positions
// needed for different (row, class) pairs are disjoint decisions and the
// minimum is the sum of the minima per pair. Within one pair, number the
// class's columns 0, 1, 2, ... (column = class + index*s); a position is a
// window of n consecutive indices and the task is to cover a set P of
// indices with the fewest windows.
//
// Greedy: open a window at the leftmost uncovered index p, covering
// p..p+n-1; repeat. Exchange argument: take any optimal cover O. Some
// window W of O covers p = min P, so W starts at some q <= p. Every index of
// P that W covers is >= p (p is the minimum) and <= q+n-1 <= p+n-1, so the
// greedy window G = [p, p+n-1] covers everything W covers. O - W + G is
// therefore also a cover of the same size: an optimal cover contains G.
// The indices of P beyond p+n-1 are covered by O - W, which has |O| - 1
// windows, so by induction greedy covers them with at most |O| - 1 windows.
// Hence greedy uses |O| windows. (Tested against brute force over every
// subset of a row in test/unit/passes1/GroupWellsTest.cpp.)
//
// The lower bound ceil(|P|/n) per pair holds for any cover (a window covers
// at most n wells); greedy meets it when P is contiguous, because then
// every window but the last covers n wells.
//
// Scanning each row's columns left to right handles all s classes at once:
// the leftmost uncovered column of the row is the leftmost uncovered index
// of its class, and positions come out ordered by row then column.
//
//===----------------------------------------------------------------------===//
#include "passes/GroupWells.h"
#include "passes/Passes.h"

#include <cmath>

namespace plate {

std::optional<HeadGeometry> headGeometry(const ir::Module &module,
                                         const Platform &platform) {
  const Labware *labware = platform.findLabware(module.plateType);
  if (!labware)
    return std::nullopt;
  HeadGeometry geometry;
  geometry.channels = platform.channels;
  geometry.shape = labware->shape;
  long stride = std::lround(platform.channelSpacingMm / labware->pitchMm);
  PLATE_ASSERT(stride >= 1, "channel spacing narrower than the labware pitch");
  geometry.stride = static_cast<unsigned>(stride);
  PLATE_ASSERT(geometry.channels >= 1 && geometry.channels <= 8,
               "ChannelMask holds 1 to 8 channels");
  return geometry;
}

std::vector<ir::HeadPosition> groupWells(const WellSet &wells,
                                         const HeadGeometry &geometry) {
  std::vector<ir::HeadPosition> positions;
  const unsigned rows = geometry.shape.rows, cols = geometry.shape.cols;
  for (unsigned row = 1; row <= rows; ++row) {
    std::vector<bool> covered(cols + 1, false);
    for (unsigned col = 1; col <= cols; ++col) {
      Well anchor{static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
      if (covered[col] || !wells.contains(anchor))
        continue;
      ir::HeadPosition position{anchor, ir::ChannelMask{0, static_cast<uint8_t>(geometry.channels)}};
      for (unsigned k = 0; k < geometry.channels; ++k) {
        unsigned reach = col + k * geometry.stride;
        if (reach > cols)
          break; // masked out beyond the edge
        if (wells.contains(Well{static_cast<uint8_t>(row), static_cast<uint8_t>(reach)})) {
          position.mask.bits |= static_cast<uint8_t>(1u << k);
          covered[reach] = true;
        }
      }
      positions.push_back(position);
    }
  }
  return positions;
}

unsigned headPositionLowerBound(const WellSet &wells, const HeadGeometry &geometry) {
  unsigned bound = 0;
  for (unsigned row = 1; row <= geometry.shape.rows; ++row)
    for (unsigned residue = 0; residue < geometry.stride; ++residue) {
      unsigned count = 0;
      for (unsigned col = residue + 1; col <= geometry.shape.cols; col += geometry.stride)
        count += wells.contains(Well{static_cast<uint8_t>(row), static_cast<uint8_t>(col)});
      bound += (count + geometry.channels - 1) / geometry.channels;
    }
  return bound;
}

WellSet pipettedWells(const ir::Op &op) {
  WellSet wells;
  if (const auto *dispense = op.as<ir::DispenseOp>()) {
    for (const ir::Portion &portion : dispense->portions)
      wells |= portion.wells;
  } else if (const auto *aspirate = op.as<ir::AspirateOp>()) {
    wells = aspirate->wells;
  } else if (const auto *wash = op.as<ir::WashOp>()) {
    wells = wash->wells;
  } else if (const auto *mix = op.as<ir::MixOp>()) {
    wells = mix->wells;
  } else if (const auto *transfer = op.as<ir::TransferOp>()) {
    for (const auto &pair : transfer->pairs)
      wells.insert(pair.second);
  }
  return wells;
}

namespace {

class GroupWellsPass final : public Pass {
public:
  std::string_view name() const override { return "group-wells"; }
  bool run(ir::Module &module, PassContext &context) override {
    std::optional<HeadGeometry> geometry = headGeometry(module, context.platform);
    if (!geometry) {
      std::string known;
      for (const auto &[name, labware] : context.platform.labware)
        known += (known.empty() ? "" : ", ") + name;
      context.diags.report(DiagId::UnknownLabware, SourceLoc{}, module.plateType, known);
      return false;
    }
    for (ir::Op &op : module.ops) {
      op.blocks.clear();
      if (op.manual)
        continue;
      WellSet wells = pipettedWells(op);
      if (!wells.empty())
        op.blocks = groupWells(wells, *geometry);
    }
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createGroupWellsPass() { return std::make_unique<GroupWellsPass>(); }

} // namespace plate
