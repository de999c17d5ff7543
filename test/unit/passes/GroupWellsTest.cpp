//===- GroupWellsTest.cpp - group-wells, incl. optimality by brute force --===//
#include "PassTestUtil.h"

#include "passes/GroupWells.h"

#include <map>
#include <random>

namespace plate::test {
namespace {

class GroupWellsTest : public PassFixture {
protected:
  HeadGeometry geometryOf(const std::string &plateType) {
    usePlate(plateType);
    std::optional<HeadGeometry> geometry = headGeometry(module, platform);
    EXPECT_TRUE(geometry.has_value());
    return geometry.value_or(HeadGeometry{});
  }
};

/// Every well of the set is under exactly one active channel, no active
/// channel is over a well outside the set, every anchor is an active well.
void expectExactCover(const std::vector<ir::HeadPosition> &positions, const WellSet &wells,
                      const HeadGeometry &geometry) {
  WellSet seen;
  size_t covered = 0;
  for (const ir::HeadPosition &position : positions) {
    ASSERT_TRUE(geometry.shape.contains(position.anchor));
    ASSERT_TRUE(position.mask.test(0)) << "anchor channel inactive";
    ASSERT_EQ(position.mask.channels, geometry.channels);
    for (unsigned k = 0; k < geometry.channels; ++k) {
      if (!position.mask.test(k))
        continue;
      Well well{position.anchor.row,
                static_cast<uint8_t>(position.anchor.col + k * geometry.stride)};
      ASSERT_TRUE(geometry.shape.contains(well)) << "active channel off the plate";
      ASSERT_TRUE(wells.contains(well)) << well.name() << " not in the set";
      ASSERT_FALSE(seen.contains(well)) << well.name() << " covered twice";
      seen.insert(well);
      ++covered;
    }
  }
  EXPECT_EQ(covered, wells.size());
}

/// Brute force over one row of `cols` columns: the fewest windows (any
/// anchor, channels anchor + k*stride, clipped at the edge) whose union
/// contains each subset, for all 2^cols subsets at once. BFS over unions
/// of windows gives the fewest windows reaching each union exactly; a
/// subset needs the minimum over all unions that contain it (superset
/// minimum, computed by the sum-over-subsets recurrence).
std::vector<unsigned> bruteForceRow(unsigned cols, unsigned channels, unsigned stride) {
  const unsigned full = 1u << cols;
  std::vector<uint32_t> windows;
  for (unsigned anchor = 0; anchor < cols; ++anchor) {
    uint32_t window = 0;
    for (unsigned k = 0; k < channels && anchor + k * stride < cols; ++k)
      window |= 1u << (anchor + k * stride);
    windows.push_back(window);
  }
  const unsigned kUnreached = ~0u;
  std::vector<unsigned> best(full, kUnreached);
  std::vector<uint32_t> frontier{0};
  best[0] = 0;
  for (unsigned depth = 1; !frontier.empty(); ++depth) {
    std::vector<uint32_t> next;
    for (uint32_t set : frontier)
      for (uint32_t window : windows)
        if (best[set | window] == kUnreached) {
          best[set | window] = depth;
          next.push_back(set | window);
        }
    frontier = std::move(next);
  }
  for (unsigned bit = 0; bit < cols; ++bit)
    for (uint32_t set = 0; set < full; ++set)
      if (!(set & (1u << bit)))
        best[set] = std::min(best[set], best[set | (1u << bit)]);
  return best;
}

WellSet rowSubset(uint32_t bits, unsigned row, unsigned cols) {
  WellSet set;
  for (unsigned col = 0; col < cols; ++col)
    if (bits & (1u << col))
      set.insert(Well{static_cast<uint8_t>(row), static_cast<uint8_t>(col + 1)});
  return set;
}

void checkAllRowSubsets(const HeadGeometry &geometry) {
  const unsigned cols = geometry.shape.cols;
  ASSERT_LE(cols, 16u);
  std::vector<unsigned> optimum = bruteForceRow(cols, geometry.channels, geometry.stride);
  for (uint32_t bits = 0; bits < (1u << cols); ++bits) {
    WellSet wells = rowSubset(bits, geometry.shape.rows, cols);
    std::vector<ir::HeadPosition> positions = groupWells(wells, geometry);
    ASSERT_EQ(positions.size(), optimum[bits]) << "subset " << bits;
    ASSERT_GE(positions.size(), headPositionLowerBound(wells, geometry));
    expectExactCover(positions, wells, geometry);
  }
}

TEST_F(GroupWellsTest, StrideComesFromChannelSpacingAndPitch) {
  EXPECT_EQ(geometryOf("plate96").stride, 1u);
  EXPECT_EQ(geometryOf("plate384").stride, 2u);
  EXPECT_EQ(geometryOf("plate384").channels, platform.channels);
}

TEST_F(GroupWellsTest, GreedyIsOptimalOnEveryRowSubsetPlate96) {
  HeadGeometry geometry = geometryOf("plate96"); // 12 columns, stride 1
  checkAllRowSubsets(geometry);
}

TEST_F(GroupWellsTest, GreedyIsOptimalOnEveryRowSubsetStride2) {
  HeadGeometry geometry = geometryOf("plate384");
  geometry.shape.cols = 12; // a narrow stride-2 plate keeps 2^cols small
  checkAllRowSubsets(geometry);
  geometry.shape.cols = 13; // odd width: classes of different sizes
  checkAllRowSubsets(geometry);
}

TEST_F(GroupWellsTest, GreedyIsOptimalOnEveryRowSubsetOtherHeads) {
  HeadGeometry geometry = geometryOf("plate96");
  geometry.shape.cols = 11;
  for (unsigned channels : {1u, 2u, 3u, 8u})
    for (unsigned stride : {1u, 2u, 3u}) {
      geometry.channels = channels;
      geometry.stride = stride;
      checkAllRowSubsets(geometry);
    }
}

TEST_F(GroupWellsTest, RandomPlates384MatchPerRowBruteForce) {
  HeadGeometry geometry = geometryOf("plate384");
  const unsigned cols = geometry.shape.cols; // 24: one class has 12 columns
  ASSERT_EQ(cols % geometry.stride, 0u);
  const unsigned classCols = cols / geometry.stride;
  // Within a residue class the stride is 1 in index space.
  std::vector<unsigned> optimum = bruteForceRow(classCols, geometry.channels, 1);
  std::mt19937 random(12345);
  for (int trial = 0; trial < 200; ++trial) {
    WellSet wells;
    unsigned expected = 0;
    std::bernoulli_distribution pick(0.1 + 0.8 * (trial % 10) / 9.0);
    for (unsigned row = 1; row <= geometry.shape.rows; ++row)
      for (unsigned residue = 0; residue < geometry.stride; ++residue) {
        uint32_t bits = 0;
        for (unsigned index = 0; index < classCols; ++index)
          if (pick(random)) {
            bits |= 1u << index;
            wells.insert(Well{static_cast<uint8_t>(row),
                              static_cast<uint8_t>(residue + 1 + index * geometry.stride)});
          }
        expected += optimum[bits];
      }
    std::vector<ir::HeadPosition> positions = groupWells(wells, geometry);
    ASSERT_EQ(positions.size(), expected) << "trial " << trial;
    expectExactCover(positions, wells, geometry);
  }
}

TEST_F(GroupWellsTest, ContiguousBlocksMeetTheLowerBound) {
  HeadGeometry geometry = geometryOf("plate96");
  // bradford.plate: blank A1..A3, calibrants B1..F3, samples A4..E6.
  WellSet bradford = wells("A1", "F3");
  bradford |= wells("A4", "E6");
  EXPECT_EQ(groupWells(bradford, geometry).size(), headPositionLowerBound(bradford, geometry));
  EXPECT_EQ(headPositionLowerBound(bradford, geometry), 11u); // 5 rows x 2 + F1..F3
  // il6_elisa.plate: A1..H8.
  WellSet il6 = wells("A1", "H8");
  EXPECT_EQ(groupWells(il6, geometry).size(), headPositionLowerBound(il6, geometry));
  EXPECT_EQ(groupWells(il6, geometry).size(), 16u);
  // Gaps break the bound: 6 wells give ceil(6/4) = 2, but the optimum is
  // 3 (A1 mask 1011, A5 mask 1010, A12 mask 1000).
  WellSet gappy = wells({"A1", "A3", "A4", "A5", "A7", "A12"});
  EXPECT_EQ(headPositionLowerBound(gappy, geometry), 2u);
  EXPECT_EQ(groupWells(gappy, geometry).size(), 3u);
}

TEST_F(GroupWellsTest, Plate384PositionsInterleaveColumns) {
  HeadGeometry geometry = geometryOf("plate384");
  std::vector<ir::HeadPosition> positions = groupWells(wells("A1", "A8"), geometry);
  ASSERT_EQ(positions.size(), 2u);
  EXPECT_EQ(positions[0].anchor, W("A1")); // A1 A3 A5 A7
  EXPECT_EQ(positions[0].mask.str(), "1111");
  EXPECT_EQ(positions[1].anchor, W("A2")); // A2 A4 A6 A8
  EXPECT_EQ(positions[1].mask.str(), "1111");
}

TEST_F(GroupWellsTest, MaskedChannelsMayPassTheEdge) {
  HeadGeometry geometry = geometryOf("plate96");
  std::vector<ir::HeadPosition> positions = groupWells(wells({"C12"}), geometry);
  ASSERT_EQ(positions.size(), 1u);
  EXPECT_EQ(positions[0].anchor, W("C12"));
  EXPECT_EQ(positions[0].mask.str(), "1000");
}

TEST_F(GroupWellsTest, PassSetsBlocksOnInstrumentPipettingOps) {
  ir::LiquidId b0 = addLiquid("B0", ir::LiquidRole::Blank, wells("A1", "A2"));
  ir::LiquidId s1 = addLiquid("S1", ir::LiquidRole::Calibrant, wells("A3", "A5"));
  ir::LiquidId buffer = addReagent("buffer");
  // A layout dispense: different liquids share head positions.
  size_t layout = addOp(ir::DispenseOp{{{b0, wells("A1", "A2")}, {s1, wells("A3", "A5")}},
                                       uL(10), {}, ir::TipPolicy::New});
  size_t manual = addOp(ir::DispenseOp{{{buffer, wells("B1", "B4")}}, uL(10), {}, {}}, true);
  size_t wash = addOp(ir::WashOp{buffer, wells("A1", "A5"), uL(100), 2, {}, {}, {}});
  size_t transfer = addOp(ir::TransferOp{{{W("A1"), W("C2")}, {W("A2"), W("C4")}}, uL(5), {}});
  size_t incubate = addOp(ir::IncubateOp{Quantity::seconds(60), Quantity::celsius(22), {}, true, false});
  ASSERT_TRUE(runPasses("normalize-units,group-wells"));
  const auto &blocks = module.ops[layout].blocks;
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0], (ir::HeadPosition{W("A1"), ir::ChannelMask{0b1111, 4}}));
  EXPECT_EQ(blocks[1], (ir::HeadPosition{W("A5"), ir::ChannelMask{0b0001, 4}}));
  EXPECT_TRUE(module.ops[manual].blocks.empty());
  EXPECT_EQ(module.ops[wash].blocks.size(), 2u);
  // A1 and A2 are neighbours, C2 and C4 are not: no head position reaches
  // both pairs, so each pair has its own (the destinations it serves).
  ASSERT_EQ(module.ops[transfer].blocks.size(), 2u);
  EXPECT_EQ(module.ops[transfer].blocks[0], (ir::HeadPosition{W("C2"), ir::ChannelMask{1, 4}}));
  EXPECT_EQ(module.ops[transfer].blocks[1], (ir::HeadPosition{W("C4"), ir::ChannelMask{1, 4}}));
  EXPECT_TRUE(module.ops[incubate].blocks.empty());
}

//===--- Transfers: dependences between pairs (Dependences.h) -------------===//

/// The pairs of `from` -> `to` (column-major pairing, as the frontend
/// pairs two well sets).
ir::TransferOp transferOf(const std::vector<std::string> &from,
                          const std::vector<std::string> &to) {
  ir::TransferOp transfer;
  for (size_t i = 0; i < from.size(); ++i)
    transfer.pairs.push_back({*Well::parse(from[i]), *Well::parse(to[i])});
  transfer.volume = Quantity::microliters(10);
  return transfer;
}

std::vector<std::string> row(char letter, unsigned first, unsigned last) {
  std::vector<std::string> wells;
  for (unsigned col = first; col <= last; ++col)
    wells.push_back(std::string(1, letter) + std::to_string(col));
  return wells;
}

/// What each well holds, by the index of the well whose liquid it was at
/// the start (every well starts with 100 units of its own liquid).
using Amounts = std::map<Well, std::map<Well, double>>;

Amounts startingPlate(const ir::TransferOp &transfer) {
  Amounts plate;
  for (const auto &[from, to] : transfer.pairs) {
    plate[from][from] = 100;
    plate[to][to] = 100;
  }
  return plate;
}

std::map<Well, double> take(Amounts &plate, Well well, double amount) {
  std::map<Well, double> taken;
  double total = 0;
  for (const auto &[liquid, units] : plate[well])
    total += units;
  for (auto &[liquid, units] : plate[well]) {
    double part = units * amount / total;
    taken[liquid] = part;
    units -= part;
  }
  return taken;
}

void give(Amounts &plate, Well well, const std::map<Well, double> &liquid) {
  for (const auto &[source, units] : liquid)
    plate[well][source] += units;
}

/// The statement's meaning: one pair at a time, `trips` trips each.
Amounts sequential(const ir::TransferOp &transfer, unsigned trips) {
  Amounts plate = startingPlate(transfer);
  for (const auto &[from, to] : transfer.pairs)
    for (unsigned trip = 0; trip < trips; ++trip)
      give(plate, to, take(plate, from, 20));
  return plate;
}

/// What the head does: per position and trip, every channel aspirates,
/// then every channel dispenses.
Amounts batched(const ir::TransferOp &transfer, const std::vector<TransferBatch> &batches,
                unsigned trips) {
  Amounts plate = startingPlate(transfer);
  for (const TransferBatch &batch : batches)
    for (unsigned trip = 0; trip < trips; ++trip) {
      std::vector<std::pair<Well, std::map<Well, double>>> held;
      for (int pair : batch.pairs)
        if (pair >= 0)
          held.push_back({transfer.pairs[pair].second,
                          take(plate, transfer.pairs[pair].first, 20)});
      for (const auto &[to, liquid] : held)
        give(plate, to, liquid);
    }
  return plate;
}

void expectSameResult(const Amounts &a, const Amounts &b, const std::string &what) {
  for (const auto &[well, liquids] : a)
    for (const auto &[source, units] : liquids) {
      auto it = b.find(well);
      double other = 0;
      if (it != b.end() && it->second.count(source))
        other = it->second.at(source);
      ASSERT_NEAR(units, other, 1e-9) << what << ": " << well.name() << " from " << source.name();
    }
}

/// Every batch lines up under the head and every pair runs exactly once.
void expectWellFormed(const ir::TransferOp &transfer, const std::vector<TransferBatch> &batches,
                      const HeadGeometry &geometry) {
  std::vector<int> runs(transfer.pairs.size(), 0);
  for (const TransferBatch &batch : batches) {
    ASSERT_EQ(batch.pairs.size(), geometry.channels);
    ASSERT_GE(batch.pairs[0], 0) << "channel 1 is off";
    for (unsigned k = 0; k < geometry.channels; ++k) {
      ASSERT_EQ(batch.source.mask.test(k), batch.pairs[k] >= 0);
      ASSERT_EQ(batch.destination.mask.test(k), batch.pairs[k] >= 0);
      if (batch.pairs[k] < 0)
        continue;
      const auto &[from, to] = transfer.pairs[batch.pairs[k]];
      EXPECT_EQ(from, (Well{batch.source.anchor.row,
                            static_cast<uint8_t>(batch.source.anchor.col + k * geometry.stride)}));
      EXPECT_EQ(to, (Well{batch.destination.anchor.row,
                          static_cast<uint8_t>(batch.destination.anchor.col +
                                               k * geometry.stride)}));
      ++runs[batch.pairs[k]];
    }
  }
  for (int count : runs)
    EXPECT_EQ(count, 1);
}

TEST_F(GroupWellsTest, SerialDilutionAlongARowRunsOnePairPerPosition) {
  HeadGeometry geometry = geometryOf("plate96");
  ir::TransferOp transfer = transferOf(row('A', 1, 11), row('A', 2, 12));
  std::vector<TransferBatch> batches = groupTransfer(transfer, geometry, 1);
  expectWellFormed(transfer, batches, geometry);
  // Each pair draws what the one before filled: no two may share a
  // position, so 11 is also the fewest any correct lowering can use.
  ASSERT_EQ(batches.size(), 11u);
  EXPECT_EQ(transferLowerBound(transfer, geometry), 11u);
  for (size_t i = 0; i < batches.size(); ++i)
    EXPECT_EQ(batches[i].pairs[0], static_cast<int>(i));
  expectSameResult(sequential(transfer, 1), batched(transfer, batches, 1), "series");
}

TEST_F(GroupWellsTest, SeriesDownColumnsFillTheHead) {
  // Rows A..G to B..H in columns 1..4: each column is a chain, but the
  // chains are independent and lie side by side under the head.
  HeadGeometry geometry = geometryOf("plate96");
  std::vector<std::string> from, to;
  for (unsigned col = 1; col <= 4; ++col)
    for (char r = 'A'; r <= 'G'; ++r) {
      from.push_back(std::string(1, r) + std::to_string(col));
      to.push_back(std::string(1, static_cast<char>(r + 1)) + std::to_string(col));
    }
  ir::TransferOp transfer = transferOf(from, to);
  std::vector<TransferBatch> batches = groupTransfer(transfer, geometry, 1);
  expectWellFormed(transfer, batches, geometry);
  EXPECT_EQ(batches.size(), 7u); // 28 pairs / 4 channels
  EXPECT_EQ(transferLowerBound(transfer, geometry), 7u);
  expectSameResult(sequential(transfer, 1), batched(transfer, batches, 1), "columns");
}

TEST_F(GroupWellsTest, ShiftAgainstTheSeriesNeedsOneTrip) {
  // A2..A9 -> A1..A8: each pair fills the well an earlier pair drew from.
  // In one trip the head draws all four before it gives: the same result;
  // in two, the second draw would take what the first gave.
  HeadGeometry geometry = geometryOf("plate96");
  ir::TransferOp transfer = transferOf(row('A', 2, 9), row('A', 1, 8));
  std::vector<TransferBatch> oneTrip = groupTransfer(transfer, geometry, 1);
  expectWellFormed(transfer, oneTrip, geometry);
  EXPECT_EQ(oneTrip.size(), 2u);
  EXPECT_EQ(transferLowerBound(transfer, geometry), 2u);
  expectSameResult(sequential(transfer, 1), batched(transfer, oneTrip, 1), "one trip");
  std::vector<TransferBatch> twoTrips = groupTransfer(transfer, geometry, 2);
  expectWellFormed(transfer, twoTrips, geometry);
  EXPECT_EQ(twoTrips.size(), 8u);
  expectSameResult(sequential(transfer, 2), batched(transfer, twoTrips, 2), "two trips");
}

TEST_F(GroupWellsTest, TransferBatchesEqualThePairsOneAtATime) {
  // Random pairings over a small part of the plate (so that pairs collide
  // often), on both plate types and with one and two trips: the batches
  // always give what running the pairs in order gives.
  std::mt19937 random(20261201);
  for (const char *plateType : {"plate96", "plate384"}) {
    HeadGeometry geometry = geometryOf(plateType);
    for (unsigned round = 0; round < 2000; ++round) {
      std::vector<Well> cells;
      for (uint8_t r = 1; r <= 2; ++r)
        for (uint8_t c = 1; c <= 10; ++c)
          cells.push_back({r, c});
      std::shuffle(cells.begin(), cells.end(), random);
      size_t pairs = 1 + random() % 8;
      std::vector<Well> sources(cells.begin(), cells.begin() + pairs);
      // Targets overlap the sources (chains, shifts, swaps) by a random
      // offset into the same shuffled cells.
      long offset = static_cast<long>(random() % 4);
      std::vector<Well> targets(cells.begin() + offset,
                                cells.begin() + offset + static_cast<long>(pairs));
      // Pairs as a statement makes them: both sets in column-major order.
      auto columnMajor = [](Well a, Well b) { return std::pair(a.col, a.row) < std::pair(b.col, b.row); };
      std::sort(sources.begin(), sources.end(), columnMajor);
      std::sort(targets.begin(), targets.end(), columnMajor);
      ir::TransferOp transfer;
      for (size_t i = 0; i < pairs; ++i)
        transfer.pairs.push_back({sources[i], targets[i]});
      for (unsigned trips : {1u, 2u}) {
        std::vector<TransferBatch> batches = groupTransfer(transfer, geometry, trips);
        expectWellFormed(transfer, batches, geometry);
        EXPECT_GE(batches.size(), transferLowerBound(transfer, geometry));
        expectSameResult(sequential(transfer, trips), batched(transfer, batches, trips),
                         fmt::format("{} round {} trips {}", plateType, round, trips));
        if (HasFatalFailure())
          return;
      }
    }
  }
}

TEST_F(GroupWellsTest, UnknownPlateTypeIsReported) {
  module.plateType = "plate1536";
  addOp(ir::MixOp{wells({"A1"}), 2, uL(10), {}});
  EXPECT_FALSE(runPasses("normalize-units,group-wells"));
  EXPECT_EQ(codes(), std::vector<std::string>{"E209"});
}

} // namespace
} // namespace plate::test

#include "frontend/Frontend.h"

namespace plate::test {
namespace {

/// Figures for docs/examples: head positions of every INSTRUMENT pipetting
/// step against the lower bound and against the true optimum (brute force
/// per row and residue class, valid by the independence argument that the
/// exhaustive tests above check).
TEST_F(GroupWellsTest, ExamplesUseTheOptimalNumberOfPositions) {
  struct Figures {
    const char *file;
    unsigned positions, lowerBound, optimum;
  };
  std::vector<Figures> figures = {{"bradford.plate", 0, 0, 0},
                                  {"il6_elisa.plate", 0, 0, 0}};
  for (Figures &example : figures) {
    SourceManager exampleSources;
    DiagnosticEngine exampleDiags(exampleSources);
    std::optional<uint32_t> id = exampleSources.addFile(
        std::string(PLATE_SOURCE_DIR) + "/docs/examples/" + example.file);
    ASSERT_TRUE(id.has_value()) << example.file;
    ast::Script script = parseScript(exampleSources, *id, exampleDiags);
    FrontendOptions options;
    options.stdlibDir = PLATE_STDLIB_DIR;
    std::optional<CheckedProgram> program =
        checkScript(script, exampleSources, exampleDiags, options);
    ASSERT_TRUE(program.has_value()) << example.file;
    ASSERT_TRUE(program->platform.has_value());
    ir::Module &exampleModule = program->module;
    PassContext context{exampleDiags, exampleSources, *program->platform};
    ASSERT_TRUE(createNormalizeUnitsPass()->run(exampleModule, context));
    ASSERT_TRUE(createGroupWellsPass()->run(exampleModule, context));
    std::optional<HeadGeometry> geometry = headGeometry(exampleModule, *program->platform);
    ASSERT_TRUE(geometry.has_value());
    ASSERT_EQ(geometry->shape.cols % geometry->stride, 0u);
    const unsigned classCols = geometry->shape.cols / geometry->stride;
    std::vector<unsigned> optimum = bruteForceRow(classCols, geometry->channels, 1);
    unsigned steps = 0;
    for (const ir::Op &op : exampleModule.ops) {
      WellSet wells = pipettedWells(op);
      if (op.manual || wells.empty())
        continue;
      ++steps;
      unsigned best = 0;
      for (unsigned row = 1; row <= geometry->shape.rows; ++row)
        for (unsigned residue = 0; residue < geometry->stride; ++residue) {
          uint32_t bits = 0;
          for (unsigned index = 0; index < classCols; ++index)
            if (wells.contains(Well{static_cast<uint8_t>(row),
                                    static_cast<uint8_t>(residue + 1 + index * geometry->stride)}))
              bits |= 1u << index;
          best += optimum[bits];
        }
      EXPECT_EQ(op.blocks.size(), best) << example.file << " line " << op.loc.line;
      expectExactCover(op.blocks, wells, *geometry);
      example.positions += static_cast<unsigned>(op.blocks.size());
      example.lowerBound += headPositionLowerBound(wells, *geometry);
      example.optimum += best;
    }
    EXPECT_GT(steps, 0u) << example.file;
    EXPECT_EQ(example.positions, example.lowerBound) << example.file;
    std::printf("[figures] %s: %u INSTRUMENT pipetting steps, %u head positions, "
                "lower bound %u, brute-force optimum %u\n",
                example.file, steps, example.positions, example.lowerBound,
                example.optimum);
  }
}

} // namespace
} // namespace plate::test
