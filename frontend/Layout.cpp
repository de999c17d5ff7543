//===- Layout.cpp - Fill rules of the LAYOUT section ----------------------===//
//
// Replicate runs are cut from the set's own shape: `across` groups the
// distinct columns left to right into runs of N adjacent columns and walks
// each run's rows top to bottom; `down` walks columns left to right and cuts
// each column's rows into runs of N adjacent rows. A set that does not cut
// cleanly is an error rather than a guess, since a wrong guess would put
// samples in the wrong wells without anyone noticing.
//
//===----------------------------------------------------------------------===//
#include "frontend/Layout.h"

#include <cctype>
#include <tuple>

namespace plate::layout {

namespace {

Well at(unsigned row, unsigned col) {
  return {static_cast<uint8_t>(row), static_cast<uint8_t>(col)};
}

std::optional<std::vector<WellSet>> fillAcross(const WellSet &wells, unsigned n) {
  std::vector<unsigned> columns;
  for (unsigned col = 1; col <= kMaxCols; ++col)
    for (unsigned row = 1; row <= kMaxRows; ++row)
      if (wells.contains(at(row, col))) {
        columns.push_back(col);
        break;
      }
  if (columns.size() % n != 0)
    return std::nullopt;
  std::vector<WellSet> out;
  for (size_t start = 0; start < columns.size(); start += n) {
    unsigned first = columns[start];
    for (unsigned k = 1; k < n; ++k)
      if (columns[start + k] != first + k)
        return std::nullopt;
    for (unsigned row = 1; row <= kMaxRows; ++row) {
      unsigned present = 0;
      WellSet run;
      for (unsigned k = 0; k < n; ++k)
        if (wells.contains(at(row, first + k))) {
          ++present;
          run.insert(at(row, first + k));
        }
      if (present == 0)
        continue;
      if (present != n)
        return std::nullopt;
      out.push_back(run);
    }
  }
  return out;
}

std::optional<std::vector<WellSet>> fillDown(const WellSet &wells, unsigned n) {
  std::vector<WellSet> out;
  for (unsigned col = 1; col <= kMaxCols; ++col) {
    std::vector<unsigned> rows;
    for (unsigned row = 1; row <= kMaxRows; ++row)
      if (wells.contains(at(row, col)))
        rows.push_back(row);
    if (rows.size() % n != 0)
      return std::nullopt;
    for (size_t start = 0; start < rows.size(); start += n) {
      WellSet run;
      for (unsigned k = 0; k < n; ++k) {
        if (rows[start + k] != rows[start] + k)
          return std::nullopt;
        run.insert(at(rows[start + k], col));
      }
      out.push_back(run);
    }
  }
  return out;
}

} // namespace

std::variant<std::vector<WellSet>, FillError>
fill(const WellSet &wells, unsigned names, std::optional<unsigned> replicates,
     bool down) {
  unsigned count = static_cast<unsigned>(wells.size());
  if (!replicates) {
    if (names == 1)
      return std::vector<WellSet>{wells};
    if (names != count)
      return FillError{FillError::Kind::CountMismatch, names, 1, count};
    std::vector<WellSet> out;
    for (Well well : wells.columnMajor()) {
      WellSet one;
      one.insert(well);
      out.push_back(one);
    }
    return out;
  }
  unsigned n = *replicates;
  if (n == 0 || names * n != count)
    return FillError{FillError::Kind::CountMismatch, names, n, count};
  auto runs = down ? fillDown(wells, n) : fillAcross(wells, n);
  if (!runs)
    return FillError{FillError::Kind::RunsDoNotFit, names, n, count};
  return std::move(*runs);
}

bool sameNameFamily(const std::string &a, const std::string &b) {
  // stem, last run of digits, suffix
  auto split = [](const std::string &name) {
    size_t end = name.size();
    while (end > 0 && !std::isdigit(static_cast<unsigned char>(name[end - 1])))
      --end;
    size_t begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(name[begin - 1])))
      --begin;
    return std::tuple{name.substr(0, begin), name.substr(begin, end - begin), name.substr(end)};
  };
  auto [stemA, digitsA, suffixA] = split(a);
  auto [stemB, digitsB, suffixB] = split(b);
  return !digitsA.empty() && !digitsB.empty() && digitsA != digitsB && stemA == stemB &&
         suffixA == suffixB;
}

std::optional<std::vector<std::string>> expandNameRange(const std::string &first,
                                                        const std::string &last) {
  auto split = [](const std::string &name) -> std::pair<std::string, std::string> {
    size_t end = name.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1])))
      --end;
    return {name.substr(0, end), name.substr(end)};
  };
  auto [prefix, firstDigits] = split(first);
  auto [lastPrefix, lastDigits] = split(last);
  if (prefix != lastPrefix || firstDigits.empty() || lastDigits.empty() ||
      firstDigits.size() > 6 || lastDigits.size() > 6)
    return std::nullopt;
  unsigned from = std::stoul(firstDigits), to = std::stoul(lastDigits);
  if (to <= from || to - from > kMaxRows * kMaxCols)
    return std::nullopt;
  size_t width = firstDigits.size() > 1 && firstDigits[0] == '0' ? firstDigits.size() : 0;
  std::vector<std::string> names;
  for (unsigned i = from; i <= to; ++i) {
    std::string digits = std::to_string(i);
    if (digits.size() < width)
      digits.insert(0, width - digits.size(), '0');
    names.push_back(prefix + digits);
  }
  return names;
}

} // namespace plate::layout
