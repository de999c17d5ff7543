//===- KeywordTypes.h - A word's keyword token type (frontend only) --------===//
//
// For the frontend's parsing, which sees ANTLR's token types; other code
// uses Keywords.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string_view>

namespace plate {

/// The token type of the keyword `word` spells in any case (a
/// PlateLexer type), or 0 when it is no keyword.
size_t keywordTypeOf(std::string_view word);

} // namespace plate
