//===- LayoutCsv.cpp - Read the LAYOUT grid from CSV ----------------------===//
//
// A deliberately small CSV reader: comma separated, optional double quotes
// around a cell, no embedded newlines (a plate map never needs them). Cell
// locations are byte columns of the cell text so carets land on the name.
//
//===----------------------------------------------------------------------===//
#include "frontend/LayoutCsv.h"

#include <cerrno>
#include <cstring>
#include <cctype>

namespace plate {

namespace {

struct Cell {
  std::string text;
  uint32_t col = 0; ///< 1-based
};

std::vector<Cell> splitCells(std::string_view line) {
  std::vector<Cell> cells;
  size_t pos = 0;
  while (true) {
    size_t end = line.find(',', pos);
    std::string_view raw = line.substr(pos, end == std::string_view::npos ? line.size() - pos : end - pos);
    size_t lead = 0;
    while (lead < raw.size() && std::isspace(static_cast<unsigned char>(raw[lead])))
      ++lead;
    size_t trail = raw.size();
    while (trail > lead && std::isspace(static_cast<unsigned char>(raw[trail - 1])))
      --trail;
    std::string_view text = raw.substr(lead, trail - lead);
    uint32_t col = static_cast<uint32_t>(pos + lead + 1);
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
      text = text.substr(1, text.size() - 2);
      ++col;
    }
    cells.push_back({std::string(text), col});
    if (end == std::string_view::npos)
      break;
    pos = end + 1;
  }
  // Spreadsheets pad rows with trailing empty cells.
  while (!cells.empty() && cells.back().text.empty())
    cells.pop_back();
  return cells;
}

} // namespace

std::optional<ast::Grid> parseLayoutCsv(const SourceManager &sources,
                                        uint32_t fileId,
                                        DiagnosticEngine &diags) {
  ast::Grid grid;
  bool haveHeader = false;
  bool ok = true;
  uint32_t lines = sources.lineCount(fileId);
  for (uint32_t line = 1; line <= lines; ++line) {
    std::string_view text = sources.lineText(fileId, line);
    if (!text.empty() && text.back() == '\r')
      text.remove_suffix(1);
    std::vector<Cell> cells = splitCells(text);
    if (cells.empty())
      continue;
    auto loc = [&](const Cell &cell) {
      return SourceLoc{fileId, line, cell.col,
                       static_cast<uint32_t>(std::max<size_t>(cell.text.size(), 1))};
    };
    if (!haveHeader) {
      haveHeader = true;
      grid.loc = loc(cells.front());
      for (size_t i = 1; i < cells.size(); ++i) {
        const Cell &cell = cells[i];
        bool digits = !cell.text.empty() && cell.text.size() <= 3;
        for (char c : cell.text)
          digits = digits && std::isdigit(static_cast<unsigned char>(c));
        if (!digits) {
          diags.report(DiagId::LayoutCsvHeader, loc(cell), cell.text);
          ok = false;
          continue;
        }
        grid.columns.push_back(static_cast<unsigned>(std::stoul(cell.text)));
        grid.columnLocs.push_back(loc(cell));
      }
      continue;
    }
    ast::GridRow row;
    row.row = {cells.front().text, loc(cells.front())};
    for (size_t i = 1; i < cells.size(); ++i) {
      std::string cellText = cells[i].text.empty() ? "." : cells[i].text;
      row.cells.push_back({cellText, loc(cells[i])});
    }
    // Missing trailing cells are empty wells, as a spreadsheet writes them.
    while (row.cells.size() < grid.columns.size())
      row.cells.push_back({".", loc(cells.back())});
    grid.rows.push_back(std::move(row));
  }
  if (!haveHeader) {
    diags.report(DiagId::LayoutCsvEmpty, SourceLoc{fileId, 1, 1, 1}, sources.name(fileId));
    return std::nullopt;
  }
  if (!ok)
    return std::nullopt;
  return grid;
}

std::optional<ast::Grid> readLayoutCsv(SourceManager &sources,
                                       const std::string &path,
                                       DiagnosticEngine &diags) {
  std::optional<uint32_t> fileId = sources.addFile(path);
  if (!fileId) {
    diags.report(DiagId::CannotRead, SourceLoc{}, path, std::strerror(errno));
    return std::nullopt;
  }
  return parseLayoutCsv(sources, *fileId, diags);
}

} // namespace plate
