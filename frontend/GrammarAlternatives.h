//===- GrammarAlternatives.h - The labelled alternatives of the grammar ---===//
//
// Without ANTLR types, for tests: the list that frontend/ParseTreeDispatch.h
// makes the AST builder handle exhaustively.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string_view>
#include <vector>

namespace plate::frontend {

struct GrammarAlternative {
  std::string_view rule;  ///< `statement`
  std::string_view label; ///< `dispenseStmt`
};

/// Every labelled alternative (`# label` in grammar/PlateParser.g4) of the
/// generated parser, as listed at build time from its context classes. The
/// AST builder has a case for each one (checked when it compiles); a test
/// compares this list with the grammar file, so the build-time list cannot
/// silently miss an alternative.
std::vector<GrammarAlternative> grammarAlternatives();

} // namespace plate::frontend
