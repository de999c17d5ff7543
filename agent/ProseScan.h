//===- ProseScan.h - Tokens and quantities of protocol prose (internal) ---===//
//
// Shared by the text reader (agent/ProcedureText.cpp) and the script side
// (the strings of notes and pauses): one tokenizer, one quantity reader,
// so that "within 10 minutes" in a text and in a `note` read the same.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "agent/StepActions.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::agent::prose {

struct Token {
  enum class Kind : uint8_t { Word, Number, Punct };
  Kind kind = Kind::Word;
  std::string text;  ///< as written
  std::string lower; ///< ASCII-lower-cased
  double number = 0; ///< Kind::Number
  size_t begin = 0, end = 0; ///< byte offsets in the scanned string
  bool glued = false; ///< no space before it ("30s", "300rpm")
  bool spelled = false; ///< a number written in words ("twenty", "two hundred")

  bool is(std::string_view word) const { return lower == word; }
  bool isWord() const { return kind == Kind::Word; }
  bool isNumber() const { return kind == Kind::Number; }
  bool isPunct(std::string_view p) const { return kind == Kind::Punct && text == p; }
};

std::vector<Token> tokenize(std::string_view text);

/// A quantity read at token `first`; tokens [first, last) were used.
struct Quantity {
  Dimension dimension = Dimension::Count;
  Value value;
  size_t first = 0, last = 0;
  bool countWord = false; ///< "twice", "three times": a count without digits
};

/// Reads a quantity starting at token `i` (with bound words before it:
/// "at least", "up to", "within", "about", "~"). Concentrations are read
/// too (so "3 M NaOH" is not three minutes), with Dimension::Concentration.
std::optional<Quantity> quantityAt(const std::vector<Token> &tokens, size_t i,
                                   const Platform &platform, std::string_view source);

/// A well coordinate like `A1`..`P24` (or a block `A1-H2`, `B1:H2`).
bool isWellWord(std::string_view word);

std::string lowerAscii(std::string_view text);

/// `s` without the blanks (spaces, tabs, a CR) at either end.
std::string_view trimView(std::string_view s);

/// The text's lines (split at '\n'; a last line without one counts).
std::vector<std::string_view> textLines(std::string_view text);

} // namespace plate::agent::prose
