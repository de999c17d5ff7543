//===- Wells.h - Typed well coordinates and well sets ----------------------===//
//
// Wells are (row, col) pairs, 1-based as in bioforge1.md §2. A WellSet is a
// fixed bitmap over the largest supported plate (16 x 24) so that set
// algebra (except, union) is O(1) words and iteration order is fixed:
// column-major (A1, B1, ... H1, A2, ...), the order the spec uses for fills
// and transfers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <fmt/format.h>

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate {

constexpr unsigned kMaxRows = 16; // A..P
constexpr unsigned kMaxCols = 24;

struct Well {
  uint8_t row = 0; ///< 1-based, 1 = A
  uint8_t col = 0; ///< 1-based

  std::string name() const;
  /// Parses `A1`..`P24`; nullopt for anything else.
  static std::optional<Well> parse(std::string_view text);
  friend auto operator<=>(const Well &, const Well &) = default;
};

/// Extent of a plate type, as loaded from stdlib/labware.
struct PlateShape {
  unsigned rows = 8;
  unsigned cols = 12;
  bool contains(Well well) const {
    return well.row >= 1 && well.row <= rows && well.col >= 1 && well.col <= cols;
  }
  Well last() const {
    return {static_cast<uint8_t>(rows), static_cast<uint8_t>(cols)};
  }
};

class WellSet {
public:
  WellSet() = default;

  void insert(Well well) { bits_.set(index(well)); }
  void erase(Well well) { bits_.reset(index(well)); }
  bool contains(Well well) const { return bits_.test(index(well)); }
  size_t size() const { return bits_.count(); }
  bool empty() const { return bits_.none(); }

  WellSet &operator|=(const WellSet &other) { bits_ |= other.bits_; return *this; }
  WellSet &operator&=(const WellSet &other) { bits_ &= other.bits_; return *this; }
  /// Set difference (`except`).
  WellSet &subtract(const WellSet &other) { bits_ &= ~other.bits_; return *this; }
  friend bool operator==(const WellSet &, const WellSet &) = default;

  /// Wells in column-major order.
  std::vector<Well> columnMajor() const;
  /// Wells in row-major order (A1, A2, ... A12, B1, ...).
  std::vector<Well> rowMajor() const;

  static WellSet rectangle(Well a, Well b);
  static WellSet all(const PlateShape &shape);

  /// Compact text for dumps: maximal rectangles joined by commas, e.g.
  /// `A1..H2,A3`. Deterministic for a given set.
  std::string str() const;

private:
  // Column-major bit index, so that iterating the bitmap visits A1, B1, ...
  static size_t index(Well well) {
    return static_cast<size_t>(well.col - 1) * kMaxRows + (well.row - 1);
  }
  std::bitset<kMaxRows * kMaxCols> bits_;
};

} // namespace plate

template <> struct fmt::formatter<plate::Well> : fmt::formatter<std::string_view> {
  auto format(const plate::Well &well, format_context &ctx) const {
    return fmt::formatter<std::string_view>::format(well.name(), ctx);
  }
};
