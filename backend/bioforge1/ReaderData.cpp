//===- ReaderData.cpp - Plate-map CSVs as a microplate reader exports them -===//
//
// The same shape is written for simulated reads and required of real
// reader output given with --reader-data, so a lab can swap one for the
// other: a header row `595nm,1,2,...,12`, then rows `A,...` to the last
// row letter, one cell per column, empty where a well was not read. A
// simulated read's file starts with `# SIMULATED` lines (pandas reads it
// with comment='#', the reader below skips them), and a file given back as
// reader data with such a line stays a simulated read.
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace plate::backend {

namespace {
constexpr std::string_view kSimulatedMark = "# SIMULATED";
} // namespace

std::string plateReadCsv(const PlateRead &read, const PlateShape &shape,
                         const std::vector<SampleTruth> &invented,
                         const std::string &truthFile) {
  std::string csv;
  if (read.simulated) {
    // No commas: a CSV reader that does not skip comments sees one cell.
    csv += read.dataFile.empty()
               ? fmt::format("{} values: computed by the reader model of the plate run "
                             "simulator (docs/simulator.md); not a measurement\n",
                             kSimulatedMark)
               : fmt::format("{} values: from --reader-data {}; the file says they were "
                             "simulated\n",
                             kSimulatedMark, read.dataFile);
    std::string list = inventedList(invented, "; ");
    if (read.dataFile.empty() && !list.empty())
      csv += fmt::format("{}: sample concentrations invented ({}): {}\n", kSimulatedMark,
                         inventedReason(truthFile), list);
  }
  csv += formatNumber(read.wavelengthNm);
  if (read.referenceNm) {
    csv += '/';
    csv += formatNumber(*read.referenceNm);
  }
  csv += "nm";
  for (unsigned col = 1; col <= shape.cols; ++col)
    csv += fmt::format(",{}", col);
  csv += '\n';
  for (unsigned row = 1; row <= shape.rows; ++row) {
    csv += static_cast<char>('A' + row - 1);
    for (unsigned col = 1; col <= shape.cols; ++col) {
      csv += ',';
      auto it = read.values.find(Well{uint8_t(row), uint8_t(col)});
      if (it != read.values.end())
        csv += fmt::format("{:.4f}", it->second);
    }
    csv += '\n';
  }
  return csv;
}

namespace {
std::vector<std::string> splitCells(std::string_view line) {
  std::vector<std::string> cells;
  std::string cell;
  for (char c : line) {
    if (c == ',') {
      cells.push_back(cell);
      cell.clear();
    } else if (c != '\r' && c != '"') {
      cell += c;
    }
  }
  cells.push_back(cell);
  for (std::string &text : cells) {
    auto begin = text.find_first_not_of(" \t");
    auto end = text.find_last_not_of(" \t");
    text = begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
  }
  return cells;
}
} // namespace

std::optional<WellValues> readPlateCsv(const std::string &path,
                                                   const PlateShape &shape,
                                                   SourceManager &sources,
                                                   DiagnosticEngine &diags,
                                                   bool *declaresSimulated) {
  auto fileId = sources.addFile(path);
  if (!fileId) {
    diags.report(DiagId::CannotRead, SourceLoc{}, path, std::strerror(errno));
    return std::nullopt;
  }
  auto fail = [&](uint32_t line, DiagId id, auto &&...args) {
    diags.report(id, SourceLoc{*fileId, line, 1, 1}, std::forward<decltype(args)>(args)...);
    return std::nullopt;
  };
  // Data lines: skip blank ones at the end only.
  uint32_t lines = sources.lineCount(*fileId);
  while (lines > 0 && sources.lineText(*fileId, lines).find_first_not_of(" \t\r,") ==
                          std::string_view::npos)
    --lines;
  // Comment lines before the header (a reader's export metadata, the
  // simulator's labels).
  uint32_t headerLine = 1;
  bool simulated = false;
  for (; headerLine <= lines; ++headerLine) {
    std::string_view text = sources.lineText(*fileId, headerLine);
    if (text.empty() || text.front() != '#')
      break;
    simulated = simulated || text.substr(0, kSimulatedMark.size()) == kSimulatedMark;
  }
  if (declaresSimulated)
    *declaresSimulated = simulated;
  char lastRow = char('A' + shape.rows - 1);
  if (headerLine > lines)
    return fail(1, DiagId::ReaderDataEmpty, shape.cols, shape.rows, lastRow);
  std::vector<std::string> header = splitCells(sources.lineText(*fileId, headerLine));
  if (header.size() != shape.cols + 1)
    return fail(headerLine, DiagId::ReaderHeaderWidth, header.size() - 1, shape.rows, shape.cols,
                shape.cols);
  for (unsigned col = 1; col <= shape.cols; ++col)
    if (header[col] != std::to_string(col))
      return fail(headerLine, DiagId::ReaderHeaderCell, col + 1, header[col], col);
  if (lines - headerLine != shape.rows)
    return fail(lines, DiagId::ReaderRowCount, lines - headerLine, shape.cols, shape.rows, lastRow);

  WellValues values;
  for (unsigned row = 1; row <= shape.rows; ++row) {
    uint32_t lineNo = headerLine + row;
    std::vector<std::string> cells = splitCells(sources.lineText(*fileId, lineNo));
    std::string label(1, char('A' + row - 1));
    if (cells[0] != label)
      return fail(lineNo, DiagId::ReaderRowLabel, cells[0], label);
    if (cells.size() != shape.cols + 1)
      return fail(lineNo, DiagId::ReaderRowWidth, label, cells.size() - 1, shape.cols);
    for (unsigned col = 1; col <= shape.cols; ++col) {
      const std::string &cell = cells[col];
      if (cell.empty())
        continue;
      char *end = nullptr;
      double value = std::strtod(cell.c_str(), &end);
      if (end != cell.c_str() + cell.size())
        return fail(lineNo, DiagId::ReaderCellNotNumber, label, col, cell);
      // strtod reads `nan`, `inf` and overflowing exponents; no reader
      // measures those, and a NaN would pass unnoticed into the fits.
      if (!std::isfinite(value))
        return fail(lineNo, DiagId::ReaderCellNotFinite, label, col, cell);
      values[Well{uint8_t(row), uint8_t(col)}] = value;
    }
  }
  return values;
}

} // namespace plate::backend
