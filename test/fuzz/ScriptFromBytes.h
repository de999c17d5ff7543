//===- ScriptFromBytes.h - A valid .plate script from a fuzzer's bytes
//-----===//
//
// Translation validation is only as good as the scripts it sees. Random
// bytes almost never make a script that compiles, so this generator reads
// the bytes as choices instead: the plate, a layout, and up to 16
// statements (dispenses, transfers in every shape, with serial chains and
// shifts along rows and down columns, mixes, removals, washes,
// incubations, reads, MANUAL work between robot steps). It tracks each
// well's volume as the spec defines it and picks volumes that keep every
// well within its capacity and never take more than a well holds, so most
// outputs compile; those that do not (tips, reservoir) are simply skipped
// by the callers. Used by the `validate` fuzz target and by
// test/unit/backend/TranslationValidationTest.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace plate::fuzz {

class ScriptFromBytes {
public:
  ScriptFromBytes(const uint8_t *data, size_t size) : data_(data), size_(size) {}

  std::string generate() {
    plate384_ = pick(4) == 0;
    rows_ = plate384_ ? 16 : 8;
    cols_ = plate384_ ? 24 : 12;
    capacity_ = plate384_ ? 110 : 350;
    std::string text = "<KIT_TITLE>generated</KIT_TITLE>\n<LAYOUT>\n";
    text += fmt::format("plate {}\n", plate384_ ? "plate384" : "plate96");
    // Samples in a block at the top left, one name per well; few enough
    // that each fits a reservoir position beside the three reagents.
    unsigned layoutRows = 1 + pick(4);
    unsigned layoutCols = 1 + pick(2);
    unsigned names = layoutRows * layoutCols;
    if (names == 1)
      text += "sample X1 at A1\n";
    else
      text += fmt::format("sample X1..X{} at A1..{}\n", names, well(layoutRows, layoutCols));
    for (unsigned c = 1; c <= layoutCols; ++c) // column-major, as well sets are
      for (unsigned r = 1; r <= layoutRows; ++r)
        layout_.push_back({r, c});
    text += "</LAYOUT>\n<REAGENTS>\nbuffer\ndiluent\ndye\n</REAGENTS>\n";
    // A filled block to draw from: transfers (chains, shifts, scattered
    // pairs) need sources that hold liquid.
    double start = plate384_ ? 100 : 150;
    text += fmt::format("<INSTRUMENT>\n1. dispense {} uL of diluent to A1..D8\n", start);
    for (unsigned c = 1; c <= 8; ++c)
      for (unsigned r = 1; r <= 4; ++r)
        volume({r, c}) += start;
    bool instrumentOpen = true;
    unsigned statements = 1 + pick(16);
    unsigned label = 2;
    for (unsigned i = 0; i < statements && left() > 0; ++i) {
      bool manual = pick(6) == 0;
      std::string statement = manual ? manualStatement() : robotStatement();
      if (statement.empty())
        continue;
      if (manual && instrumentOpen) {
        text += "</INSTRUMENT>\n";
        instrumentOpen = false;
      }
      if (!manual && !instrumentOpen) {
        text += "<INSTRUMENT>\n";
        instrumentOpen = true;
      }
      text += manual ? "<MANUAL>\n" + statement + "\n</MANUAL>\n"
                     : fmt::format("{}. {}\n", label++, statement);
    }
    if (!instrumentOpen)
      text += "<INSTRUMENT>\n";
    text += "wait 1 s\n</INSTRUMENT>\n";
    return text;
  }

private:
  using Cell = std::pair<unsigned, unsigned>; // row, col (1-based)

  size_t left() const { return size_ - used_; }
  unsigned pick(unsigned n) {
    if (n <= 1 || used_ >= size_)
      return 0;
    return data_[used_++] % n;
  }
  static std::string well(unsigned row, unsigned col) {
    return fmt::format("{}{}", static_cast<char>('A' + row - 1), col);
  }
  static std::string well(Cell cell) { return well(cell.first, cell.second); }
  double &volume(Cell cell) { return volume_[cell]; }

  /// A rectangle of wells inside the plate, column-major.
  std::vector<Cell> rectangle(unsigned row, unsigned col, unsigned height, unsigned width) {
    std::vector<Cell> cells;
    for (unsigned c = col; c < col + width && c <= cols_; ++c)
      for (unsigned r = row; r < row + height && r <= rows_; ++r)
        cells.push_back({r, c});
    return cells;
  }
  static std::string spell(const std::vector<Cell> &cells) {
    std::string text;
    for (const Cell &cell : cells)
      text += (text.empty() ? "" : ", ") + well(cell);
    return text;
  }
  /// Some wells: a block near the layout, a row run or a scattered list.
  std::vector<Cell> someWells() {
    switch (pick(3)) {
    case 0:
      return rectangle(1 + pick(rows_), 1 + pick(cols_), 1 + pick(3), 1 + pick(6));
    case 1:
      return layout_;
    default: {
      std::vector<Cell> cells;
      unsigned count = 1 + pick(6);
      for (unsigned i = 0; i < count; ++i) {
        Cell cell{1 + pick(rows_), 1 + pick(cols_)};
        if (std::find(cells.begin(), cells.end(), cell) == cells.end())
          cells.push_back(cell);
      }
      std::sort(cells.begin(), cells.end(), [](const Cell &a, const Cell &b) {
        return std::pair(a.second, a.first) < std::pair(b.second, b.first);
      });
      return cells;
    }
    }
  }
  /// Whole microlitres, at least 1, at most `most` (0 when none fits);
  /// some above the 300 µL tip, which take two trips.
  double volumeUpTo(double most) {
    if (most < 1)
      return 0;
    static const double steps[] = {5, 10, 20, 25, 50, 100, 150, 200, 250, 320};
    double chosen = steps[pick(10)];
    return std::min(chosen, static_cast<double>(static_cast<unsigned>(most)));
  }
  double headroom(const std::vector<Cell> &cells) {
    double room = capacity_;
    for (const Cell &cell : cells)
      room = std::min(room, capacity_ - volume(cell));
    return room;
  }
  double least(const std::vector<Cell> &cells) {
    double held = capacity_;
    for (const Cell &cell : cells)
      held = std::min(held, volume(cell));
    return held;
  }
  static const char *reagent(unsigned i) {
    static const char *names[] = {"buffer", "diluent", "dye"};
    return names[i % 3];
  }

  std::string dispense(const std::vector<Cell> &cells, bool robot) {
    double ul = volumeUpTo(headroom(cells));
    if (ul == 0 || cells.empty())
      return {};
    for (const Cell &cell : cells)
      volume(cell) += ul;
    std::string text =
        fmt::format("dispense {} uL of {} to {}", ul, reagent(pick(3)), spell(cells));
    if (robot && pick(3) == 0)
      text += fmt::format(" mix 2 x {} uL", std::min(ul, 50.0));
    return text;
  }
  std::string removal(const std::vector<Cell> &cells) {
    if (cells.empty())
      return {};
    if (pick(2) == 0) {
      double any = 0;
      for (const Cell &cell : cells)
        any += volume(cell);
      if (any <= 0)
        return {};
      std::vector<Cell> holding;
      for (const Cell &cell : cells)
        if (volume(cell) > 0)
          holding.push_back(cell);
      for (const Cell &cell : holding)
        volume(cell) = 0;
      return fmt::format("aspirate all from {}", spell(holding));
    }
    double ul = volumeUpTo(least(cells));
    if (ul == 0)
      return {};
    for (const Cell &cell : cells)
      volume(cell) -= ul;
    return fmt::format("aspirate {} uL from {}", ul, spell(cells));
  }
  /// Pairs from a source rectangle to the same rectangle shifted (so that
  /// chains and shifts appear), or between two scattered lists.
  std::string transfer() {
    std::vector<Cell> from, to;
    if (pick(3) != 0) {
      unsigned height = 1 + pick(3), width = 1 + pick(8);
      unsigned row = 1 + pick(4), col = 1 + pick(8);
      int dr = static_cast<int>(pick(3)) - 1, dc = static_cast<int>(pick(5)) - 2;
      if (dr == 0 && dc == 0)
        dc = 1;
      from = rectangle(row, col, height, width);
      for (const Cell &cell : from) {
        int r = static_cast<int>(cell.first) + dr, c = static_cast<int>(cell.second) + dc;
        if (r < 1 || c < 1 || r > static_cast<int>(rows_) || c > static_cast<int>(cols_))
          return {};
        to.push_back({static_cast<unsigned>(r), static_cast<unsigned>(c)});
      }
      auto columnMajor = [](const Cell &a, const Cell &b) {
        return std::pair(a.second, a.first) < std::pair(b.second, b.first);
      };
      std::sort(to.begin(), to.end(), columnMajor);
    } else {
      from = someWells();
      to = someWells();
      to.resize(std::min(to.size(), from.size()));
      from.resize(to.size());
    }
    if (from.empty())
      return {};
    // The volume every pair can move when the pairs run in order (the
    // statement's meaning): try the largest candidate that works.
    for (double ul : {320.0, 100.0, 50.0, 20.0, 10.0, 5.0}) {
      std::map<Cell, double> trial = volume_;
      bool fits = true;
      for (size_t i = 0; i < from.size() && fits; ++i) {
        double &source = trial[from[i]];
        double &target = trial[to[i]];
        if (source < ul) {
          fits = false;
          break;
        }
        source -= ul;
        target += ul;
        if (target > capacity_)
          fits = false;
      }
      if (fits) {
        volume_ = std::move(trial);
        std::string text = fmt::format("transfer {} uL from {} to {}", ul, spell(from), spell(to));
        return text;
      }
    }
    return {};
  }
  std::string wash(const std::vector<Cell> &cells) {
    if (cells.empty())
      return {};
    double ul = volumeUpTo(capacity_);
    if (ul == 0)
      return {};
    for (const Cell &cell : cells)
      volume(cell) = 0;
    return fmt::format("wash {} times with {} uL of buffer {}", 1 + pick(3), ul, spell(cells));
  }

  std::string robotStatement() {
    switch (pick(11)) {
    case 0:
    case 1:
      return dispense(someWells(), true);
    case 2: {
      double ul = volumeUpTo(headroom(layout_));
      if (ul == 0)
        return {};
      for (const Cell &cell : layout_)
        volume(cell) += ul;
      return fmt::format("dispense {} uL of layout", ul);
    }
    case 3:
    case 4:
      return transfer();
    case 5: {
      std::vector<Cell> cells = someWells();
      double held = least(cells);
      if (held < 5)
        return {};
      return fmt::format("mix 3 times {} uL in {}", std::min(std::floor(held), 50.0),
                         spell(cells));
    }
    case 6:
      return removal(someWells());
    case 7:
      return pick(2) ? wash(layout_) : wash(someWells());
    case 8:
      return pick(2) ? fmt::format("incubate {} min at 37 °C", 1 + pick(30))
                     : fmt::format("incubate {} min shaking 300 rpm", 1 + pick(30));
    case 9:
      return pick(2) ? "shake 30 s at 500 rpm" : "wait 2 min";
    default:
      return pick(2) ? "read absorbance at 450 nm" : "read absorbance at 595 nm reference 620 nm";
    }
  }
  std::string manualStatement() {
    switch (pick(4)) {
    case 0:
      return dispense(someWells(), false);
    case 1:
      return removal(someWells());
    case 2:
      return transfer();
    default:
      return wash(someWells());
    }
  }

  const uint8_t *data_;
  size_t size_;
  size_t used_ = 0;
  bool plate384_ = false;
  unsigned rows_ = 8, cols_ = 12;
  double capacity_ = 350;
  std::vector<Cell> layout_;
  std::map<Cell, double> volume_;
};

/// The script the bytes choose.
inline std::string scriptFromBytes(const uint8_t *data, size_t size) {
  return ScriptFromBytes(data, size).generate();
}

} // namespace plate::fuzz
