//===- LayoutCsv.h - The LAYOUT grid read from a CSV file ------------------===//
//
// `plate check FILE --layout PLATE.csv`: the same grid as the LAYOUT grid
// form, as a spreadsheet export. The CSV is registered in the
// SourceManager so that layout diagnostics point into it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/AST.h"
#include "ir/Diagnostics.h"

#include <optional>
#include <string>

namespace plate {

/// Parses CSV text already registered as `fileId`: the first row holds
/// column numbers (its first cell is ignored), every other row starts with
/// a row letter followed by one cell per column, each a name, `.` or empty.
/// Reports E901 for malformed cells; nullopt when nothing usable was read.
std::optional<ast::Grid> parseLayoutCsv(const SourceManager &sources,
                                        uint32_t fileId,
                                        DiagnosticEngine &diags);

/// Reads and registers `path`, then parses it; E900 when it cannot be read.
std::optional<ast::Grid> readLayoutCsv(SourceManager &sources,
                                       const std::string &path,
                                       DiagnosticEngine &diags);

} // namespace plate
