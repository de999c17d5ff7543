//===- GroupWells.h - Fewest head positions per pipetting step --*- C++ -*-===//
//
// `group-wells` sets Op::blocks of every INSTRUMENT pipetting op on the
// plate (dispense, aspirate, wash, mix; for transfer, the destination
// wells) to head positions that cover exactly the op's wells, each well
// once, with as few positions as possible.
//
// Geometry (bioforge1.md §2): the head's channels lie along a row; channel
// k (0-based) reaches column c + k*s, where s = round(channel spacing /
// labware pitch): 1 on plate96, 2 on plate384. A position's mask says which
// channels act.
//
// Edge rule (our reading of §2, which only says a command addresses channel
// 1's column): every position's anchor is one of the op's wells, so channel
// 1 is active and the addressed column is on the plate; masked-out channels
// may lie beyond the last column, where they do nothing.
//
// A layout dispense may put wells of different liquids in one position:
// each channel aspirates its own liquid (per-channel masks at the
// reservoir), then the head dispenses all of them at once.
//
// Preconditions: none beyond a module whose plate type the platform knows.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pass.h"

namespace plate {

std::unique_ptr<Pass> createGroupWellsPass();

/// The head over one plate type.
struct HeadGeometry {
  unsigned channels = 4;
  unsigned stride = 1; ///< columns between neighbouring channels
  PlateShape shape;
};

/// Geometry of the platform's head over the module's plate; nullopt when
/// the platform has no labware entry for Module::plateType.
std::optional<HeadGeometry> headGeometry(const ir::Module &module,
                                         const Platform &platform);

/// The fewest head positions covering exactly `wells`, row by row and left
/// to right (greedy; optimal, see GroupWells.cpp).
std::vector<ir::HeadPosition> groupWells(const WellSet &wells,
                                         const HeadGeometry &geometry);

/// Sum over rows and column residue classes (mod stride) of
/// ceil(wells / channels): no cover can use fewer positions, and the greedy
/// cover meets it whenever each class's wells are contiguous.
unsigned headPositionLowerBound(const WellSet &wells, const HeadGeometry &geometry);

/// The wells a pipetting op acts on over the plate (for transfer: the
/// destinations); empty for other ops.
WellSet pipettedWells(const ir::Op &op);

/// One head position of a transfer: channel k draws from the well under
/// `source`'s channel k and gives to the well under `destination`'s
/// channel k; `pairs[k]` is that pair's index in TransferOp::pairs, or -1
/// for a channel that is off. Channel 1 is always on.
struct TransferBatch {
  ir::HeadPosition source, destination;
  std::vector<int> pairs;
};

/// The aspirate/dispense trips a transfer of `volumeUl` per pair takes
/// with tips of `tipCapacityUl`.
unsigned transferTrips(double volumeUl, double tipCapacityUl);

/// The most pairs of the transfer in a row each drawing what the one
/// before filled (a serial dilution of N steps: N).
unsigned longestTransferChain(const ir::TransferOp &transfer);

/// The fewest head positions any correct lowering of the transfer can
/// use (the argument is in GroupWells.cpp).
unsigned transferLowerBound(const ir::TransferOp &transfer, const HeadGeometry &geometry);

/// A transfer's pairs as head positions, in the order they run, such that
/// running them equals running the pairs one at a time in the statement's
/// order (language spec §7; the rule is in passes/Dependences.h and the
/// argument in GroupWells.cpp). `trips`: aspirate/dispense trips per pair.
std::vector<TransferBatch> groupTransfer(const ir::TransferOp &transfer,
                                         const HeadGeometry &geometry, unsigned trips);

} // namespace plate
