//===- DiagnosticsSummary.h - The `N warnings and M errors generated.` line ===//
#pragma once

#include "ir/Diagnostics.h"

#include <string>

namespace plate {

/// clang's closing line of text diagnostics (`1 warning and 2 errors
/// generated.` and a newline); empty when nothing was reported.
std::string diagnosticsSummary(const DiagnosticEngine &diags);

} // namespace plate
