//===- AstBuilder.h - ANTLR parse trees of single lines to AST nodes ------===//
//
// Internal to frontend/ (the only layer that sees ANTLR). The parser driver
// in Parser.cpp splits a section into lines and parses each line with one of
// the entry rules of grammar/PlateParser.g4; AstBuilder turns the resulting
// parse tree into ast:: nodes, keeping unit spellings, names and locations
// exactly as written. Checks that need no symbol table (a clause given
// twice, a grid row before its header) are reported here, as syntax errors.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/AST.h"
#include "ir/Diagnostics.h"

#include "PlateParser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plate::frontend {

/// Maps ANTLR token positions (code point indexes) to SourceLocs (1-based
/// byte columns, lengths in characters).
class TokenLocator {
public:
  TokenLocator(uint32_t fileId, std::string_view text);

  SourceLoc loc(const antlr4::Token *token) const;
  /// From the start of `first` to the end of `last` (same line; otherwise
  /// just `first`).
  SourceLoc span(const antlr4::Token *first, const antlr4::Token *last) const;
  SourceLoc span(antlr4::ParserRuleContext *ctx) const;
  uint32_t fileId() const { return fileId_; }

private:
  uint32_t byteOffset(size_t codePoint) const;

  uint32_t fileId_;
  std::vector<uint32_t> lineStarts_;  ///< byte offset of each line
  std::vector<uint32_t> codePointToByte_; ///< empty when the text is ASCII
  uint32_t size_;
};

/// How many tokens at the start of `line` are a step label (`Step`, the
/// number tokens, an adjacent letter, the mark `.`, `)` or `:`; on statement
/// lines also a word with its mark, `iv.`, one in parentheses, `(b)`, or a
/// clock time, `08:50`); 0
/// when the line has none. Mirrors `stepLabel` of PlateParser.g4, and `lineLabel`
/// when `markRequired`. Used before a line is parsed, for the step of its
/// lexical errors and for the first word of the line.
size_t stepLabelLength(const std::vector<antlr4::Token *> &line, bool markRequired);

/// 3 when `line` starts with a clock time as run sheets label steps
/// (`08:50`: a number, `:` and a number, without blanks), else 0.
size_t clockLabelLength(const std::vector<antlr4::Token *> &line);

/// `08:50` for a clock label's hours and minutes, or nullopt when they spell
/// no time of day (one or two digits of hours up to 23, two of minutes up to
/// 59).
std::optional<std::string> clockLabelText(std::string_view hours, std::string_view minutes);

/// Whether a word label (`b)`, `iv.`) is one letter or a Roman numeral
/// (i to xxxix, in one case).
bool isLabelWord(std::string_view word);

/// The label that a label's number tokens and letter spell (`9.1`, `2a`),
/// or nullopt when they spell none: blanks inside (`9 .1`), an exponent or
/// a sign (`1e3`, `-3`), more than one letter.
std::optional<std::string> stepLabelText(const std::vector<antlr4::Token *> &tokens);

/// The tokens under `tree` as written: one blank where the source has any.
std::string writtenText(antlr4::tree::ParseTree *tree);

/// What one MANUAL/INSTRUMENT line was.
struct StatementLine {
  enum class Kind { Statement, BlockOpen, BlockClose } kind = Kind::Statement;
  ast::Statement statement; ///< Statement and BlockOpen (Repeat/ProcDef)
  SourceLoc braceLoc;       ///< BlockOpen: the `{`, BlockClose: the `}`
  std::string blockName;    ///< BlockOpen: `repeat` or `proc NAME`
};

class AstBuilder {
public:
  AstBuilder(const TokenLocator &locator, DiagnosticEngine &diags)
      : locator_(locator), diags_(diags) {}

  StatementLine statementLine(grammar::PlateParser::StatementLineContext *ctx);
  void layoutLine(grammar::PlateParser::LayoutLineContext *ctx,
                  ast::Layout &layout);
  ast::ReagentDecl reagentLine(grammar::PlateParser::ReagentLineContext *ctx);
  ast::Name platformLine(grammar::PlateParser::PlatformLineContext *ctx);

  /// `"a \"b\""` -> `a "b"`. Unknown escapes are reported and kept as
  /// written.
  std::string unquote(antlr4::Token *token);

private:
  ast::Statement statement(grammar::PlateParser::StatementContext *ctx);
  ast::Call call(grammar::PlateParser::CallStmtContext *ctx);
  void plateLine(grammar::PlateParser::PlateLineContext *ctx, ast::Layout &layout);
  void roleLine(grammar::PlateParser::RoleLineContext *ctx, ast::Layout &layout);
  void gridHeader(grammar::PlateParser::GridHeaderContext *ctx, ast::Layout &layout);
  void gridRow(grammar::PlateParser::GridRowContext *ctx, ast::Layout &layout);
  ast::QuantityExpr quantity(grammar::PlateParser::QuantityContext *ctx);
  ast::QuantityExpr
  literalQuantity(grammar::PlateParser::LiteralQuantityContext *ctx);
  ast::WellSetExpr wellSet(grammar::PlateParser::WellSetContext *ctx);
  ast::WellItem wellItem(grammar::PlateParser::WellItemContext *ctx);
  ast::Name name(grammar::PlateParser::NameContext *ctx);
  ast::Name name(grammar::PlateParser::LiquidNameContext *ctx);
  ast::Name name(antlr4::tree::TerminalNode *node);
  ast::NameRange nameRange(grammar::PlateParser::NameRangeContext *ctx);
  ast::MixClause mixClause(grammar::PlateParser::MixClauseContext *ctx);
  /// A unit as written, without the blanks around `/`.
  static std::string unitText(grammar::PlateParser::UnitContext *ctx);
  double number(antlr4::Token *token);
  void duplicateClause(antlr4::Token *keyword);
  /// Sets `slot` to `build()` unless an earlier clause of the statement
  /// set it; a second clause is reported at its `keyword` and ignored.
  template <class T, class Build>
  void clauseOnce(std::optional<T> &slot, antlr4::Token *keyword, Build &&build);
  /// The label's text; E115 when it does not spell a label.
  std::string stepLabel(grammar::PlateParser::StepLabelContext *label);
  std::string stepLabel(grammar::PlateParser::LabelNumberContext *number,
                        antlr4::ParserRuleContext *label);

  const TokenLocator &locator_;
  DiagnosticEngine &diags_;
  std::string step_; ///< step label of the line being built
};

} // namespace plate::frontend
