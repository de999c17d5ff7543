//===- Wells.cpp ----------------------------------------------------------===//
#include "ir/Wells.h"

#include <algorithm>

namespace plate {

std::string Well::name() const {
  return fmt::format("{}{}", static_cast<char>('A' + row - 1), col);
}

std::optional<Well> Well::parse(std::string_view text) {
  if (text.size() < 2 || text.size() > 3)
    return std::nullopt;
  char letter = text[0];
  if (letter < 'A' || letter > static_cast<char>('A' + kMaxRows - 1))
    return std::nullopt;
  unsigned col = 0;
  for (char c : text.substr(1)) {
    if (c < '0' || c > '9')
      return std::nullopt;
    col = col * 10 + (c - '0');
  }
  if (text[1] == '0' || col < 1 || col > kMaxCols)
    return std::nullopt;
  return Well{static_cast<uint8_t>(letter - 'A' + 1), static_cast<uint8_t>(col)};
}

std::vector<Well> WellSet::columnMajor() const {
  std::vector<Well> wells;
  wells.reserve(size());
  for (size_t i = bits_._Find_first(); i < bits_.size(); i = bits_._Find_next(i))
    wells.push_back({static_cast<uint8_t>(i % kMaxRows + 1),
                     static_cast<uint8_t>(i / kMaxRows + 1)});
  return wells;
}

std::vector<Well> WellSet::rowMajor() const {
  std::vector<Well> wells = columnMajor();
  std::sort(wells.begin(), wells.end(), [](Well a, Well b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  return wells;
}

WellSet WellSet::rectangle(Well a, Well b) {
  WellSet set;
  for (unsigned col = std::min(a.col, b.col); col <= std::max(a.col, b.col); ++col)
    for (unsigned row = std::min(a.row, b.row); row <= std::max(a.row, b.row); ++row)
      set.insert({static_cast<uint8_t>(row), static_cast<uint8_t>(col)});
  return set;
}

WellSet WellSet::all(const PlateShape &shape) {
  return rectangle({1, 1}, shape.last());
}

std::string WellSet::str() const {
  // Greedy cover by maximal rectangles in column-major order: take the first
  // uncovered well, extend down its column, then right while whole columns
  // of that span are present. Deterministic, short for the usual layouts.
  WellSet remaining = *this;
  std::string out;
  while (!remaining.empty()) {
    Well start = remaining.columnMajor().front();
    Well end = start;
    while (end.row < kMaxRows &&
           remaining.contains({static_cast<uint8_t>(end.row + 1), end.col}))
      ++end.row;
    auto columnPresent = [&](uint8_t col) {
      for (uint8_t row = start.row; row <= end.row; ++row)
        if (!remaining.contains({row, col}))
          return false;
      return true;
    };
    while (end.col < kMaxCols && columnPresent(end.col + 1))
      ++end.col;
    WellSet block = rectangle(start, end);
    remaining.subtract(block);
    if (!out.empty())
      out += ",";
    out += start == end ? start.name() : start.name() + ".." + end.name();
  }
  return out;
}

} // namespace plate
