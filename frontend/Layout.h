//===- Layout.h - Pure fill rules of the LAYOUT section -------------------===//
//
// The fill rules of the language spec §4 as plain functions over WellSets:
// column-major fill, `replicates N across` and `replicates N down`, and the
// numbered name ranges `S1..S7`. Sema wraps them with diagnostics; keeping
// them pure lets the unit tests pin every rule without a parser.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Wells.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace plate::layout {

/// Why a fill failed. CountMismatch: names x replicates != wells.
/// RunsDoNotFit: the set does not split into runs of N adjacent wells.
struct FillError {
  enum class Kind { CountMismatch, RunsDoNotFit } kind;
  unsigned names = 0, replicates = 0, wells = 0;
};

/// Assigns wells to `names` liquids. Without replicates, one name takes
/// every well, otherwise names fill one well each in column-major order.
/// With replicates, each name takes N adjacent wells of one row (`across`)
/// or of one column (`down`). Returns one set per name, in name order.
std::variant<std::vector<WellSet>, FillError>
fill(const WellSet &wells, unsigned names, std::optional<unsigned> replicates,
     bool down);

/// True when two names differ only in their last number (`Stock1` and
/// `Stock2`, `D1x` and `D8x`): members of one family of stocks.
bool sameNameFamily(const std::string &a, const std::string &b);

/// Expands `S1..S7` into S1, S2, ... S7; a leading zero in the first number
/// fixes the width (`S01..S10`). nullopt when the two ends do not share a
/// prefix or do not count up.
std::optional<std::vector<std::string>> expandNameRange(const std::string &first,
                                                        const std::string &last);

} // namespace plate::layout
