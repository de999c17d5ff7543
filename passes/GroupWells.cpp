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
// Transfers: why the batches mean what the pairs mean.
//
// The statement means its pairs run one at a time in order (spec §7). A
// head position runs its pairs together: per trip, every channel aspirates
// from its source, then every channel dispenses into its destination.
// groupTransfer opens a position at the first pair not yet run, i, and
// puts on channel k the pair j > i whose source and destination lie k
// strides to the right of i's, if j may join (the conflicts of j are only
// the pair that fills j's source and the pair that draws from j's
// destination: sources are distinct, and so are destinations):
//  - a conflicting pair m < j that is not run yet and not in the position
//    stays behind j: j may not join (it would overtake m);
//  - a conflicting pair inside the position: if the earlier of the two
//    fills what the later draws from, the later must see it: no; if the
//    later fills what the earlier draws from, the position's aspirations
//    all come before its dispenses, so the earlier draws first as in the
//    statement, but only when the volume takes one trip (with two, the
//    second aspiration would draw what the later pair gave).
// Running the positions in the order they open is then the statement's
// order with independent pairs exchanged, and each position's joint trip
// equals its pairs in order: the same result, well by well. A serial
// dilution along a row (each pair draws what the one before filled) thus
// runs one pair per position, which is the fewest any correct order can
// use; series down columns and independent pairs still fill the head.
//
//===----------------------------------------------------------------------===//
#include "passes/GroupWells.h"
#include "passes/Dependences.h"
#include "passes/Passes.h"

#include <cmath>
#include <map>

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

unsigned transferTrips(double volumeUl, double tipCapacityUl) {
  return std::max(1u, static_cast<unsigned>(std::ceil(volumeUl / tipCapacityUl - kQuantitySlack)));
}

std::vector<TransferBatch> groupTransfer(const ir::TransferOp &transfer,
                                         const HeadGeometry &geometry, unsigned trips) {
  const auto &pairs = transfer.pairs;
  auto indexOf = [](Well well) {
    return static_cast<size_t>(well.col - 1) * kMaxRows + (well.row - 1);
  };
  std::vector<int> drawingFrom(kMaxRows * kMaxCols, -1), filling(kMaxRows * kMaxCols, -1);
  for (size_t i = 0; i < pairs.size(); ++i) {
    drawingFrom[indexOf(pairs[i].first)] = static_cast<int>(i);
    filling[indexOf(pairs[i].second)] = static_cast<int>(i);
  }
  std::vector<bool> done(pairs.size(), false), member(pairs.size(), false);
  auto mayJoin = [&](int j) {
    for (int m : {filling[indexOf(pairs[j].first)], drawingFrom[indexOf(pairs[j].second)]}) {
      if (m < 0 || m == j || done[m])
        continue;
      if (!member[m]) {
        if (m < j)
          return false;
        continue;
      }
      auto [earlier, later] = std::minmax(m, j);
      PairConflict conflict = transferConflict(pairs[earlier], pairs[later]);
      if (conflict == PairConflict::DrawsWhatEarlierFilled ||
          (conflict == PairConflict::FillsWhatEarlierDrew && trips > 1))
        return false;
    }
    return true;
  };
  auto shifted = [&](Well well, unsigned k) -> std::optional<Well> {
    unsigned col = well.col + k * geometry.stride;
    if (col > geometry.shape.cols)
      return std::nullopt;
    return Well{well.row, static_cast<uint8_t>(col)};
  };

  std::vector<TransferBatch> batches;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (done[i])
      continue;
    const uint8_t channels = static_cast<uint8_t>(geometry.channels);
    TransferBatch batch{{pairs[i].first, {1, channels}}, {pairs[i].second, {1, channels}},
                        std::vector<int>(geometry.channels, -1)};
    batch.pairs[0] = static_cast<int>(i);
    member[i] = true;
    for (unsigned k = 1; k < geometry.channels; ++k) {
      std::optional<Well> from = shifted(pairs[i].first, k), to = shifted(pairs[i].second, k);
      if (!from || !to)
        break;
      int j = drawingFrom[indexOf(*from)];
      if (j < 0 || done[j] || member[j] || pairs[j].second != *to || !mayJoin(j))
        continue;
      member[j] = true;
      batch.pairs[k] = j;
      batch.source.mask.bits |= static_cast<uint8_t>(1u << k);
    }
    batch.destination.mask = batch.source.mask;
    for (int j : batch.pairs)
      if (j >= 0) {
        member[j] = false;
        done[j] = true;
      }
    batches.push_back(std::move(batch));
  }
  return batches;
}

unsigned longestTransferChain(const ir::TransferOp &transfer) {
  // The pair that filled a pair's source comes earlier in the statement
  // when there is a chain (destinations are distinct), so one pass in
  // order sees it first.
  std::map<Well, unsigned> chainFilling;
  unsigned longest = 0;
  for (const auto &[from, to] : transfer.pairs) {
    auto filled = chainFilling.find(from);
    unsigned chain = 1 + (filled == chainFilling.end() ? 0 : filled->second);
    chainFilling[to] = chain;
    longest = std::max(longest, chain);
  }
  return longest;
}

/// Why this bounds every correct lowering. A position's destinations lie
/// in one row (the channels lie along a row), so positions split by row.
/// Pairs joined by a chain of pairs each drawing what the one before filled
/// can never share a position: the pairs between them must run after the
/// first and before the last. So row r needs at least as many positions as
/// the most of its pairs on one chain (the chain may pass through other
/// rows), and at least its destinations' cover bound; the rows add up. The
/// longest chain over the whole plate bounds the count as well.
unsigned transferLowerBound(const ir::TransferOp &transfer, const HeadGeometry &geometry) {
  std::map<unsigned, WellSet> destinationsByRow;
  for (const auto &pair : transfer.pairs)
    destinationsByRow[pair.second.row].insert(pair.second);
  unsigned byRows = 0;
  for (const auto &[row, destinations] : destinationsByRow) {
    // Row r's pairs on the longest chain ending at each well filled.
    std::map<Well, unsigned> onChain;
    unsigned most = 0;
    for (const auto &[from, to] : transfer.pairs) {
      auto filled = onChain.find(from);
      unsigned count = (to.row == row) + (filled == onChain.end() ? 0 : filled->second);
      onChain[to] = count;
      most = std::max(most, count);
    }
    byRows += std::max(most, headPositionLowerBound(destinations, geometry));
  }
  return std::max(longestTransferChain(transfer), byRows);
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
      if (const auto *transfer = op.as<ir::TransferOp>()) {
        unsigned trips = transferTrips(transfer->volume.canonicalValue(),
                                       context.platform.tipCapacityUl);
        for (const TransferBatch &batch : groupTransfer(*transfer, *geometry, trips))
          op.blocks.push_back(batch.destination);
        continue;
      }
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
