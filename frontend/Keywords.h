//===- Keywords.h - The language's keywords and their spellings ------------===//
//
// The lexer reads every word as an IDENT; a word that spells a keyword,
// in any case, is given the keyword's token type here
// (grammar/PlateLexer.g4 says why). The table is also what the Parser's
// prompt shows as each keyword's spelling.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace plate {

struct KeywordSpelling {
  std::string_view spelling; ///< lower case, as a script may write it in any case
  std::string_view token;    ///< the token's name in the grammar (`COL`)
};

/// Every spelling of every keyword, in the grammar's order; a keyword with
/// several spellings (`col`, `column`) lists its usual one first.
const std::vector<KeywordSpelling> &keywordSpellings();

} // namespace plate
