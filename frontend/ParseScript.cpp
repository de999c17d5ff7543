//===- ParseScript.cpp - .plate text to AST (parseScript) ----------------------===//
//
// Four stages, each of which can report several errors:
//  1. Pre-scan of the raw bytes: input limits (E110) and UTF-8 (E111). These
//     are fatal: nothing hostile reaches ANTLR.
//  2. Lexing of the whole file with the generated PlateLexer (never fails:
//     unknown characters become STRAY tokens).
//  3. The section structure, checked on the token stream: unknown tags,
//     unclosed or mismatched tags, order, duplicates, text outside tags,
//     the required INSTRUMENT section (E101-E106, E109).
//  4. Each section split into lines and every line parsed on its own with
//     an entry rule of PlateParser (line-oriented recovery: an error costs
//     one line). Stray characters (E108) and unterminated strings (E107) are
//     reported per line before parsing it. Blocks (`repeat`, `proc`) are
//     assembled from their lines here (E112, nesting limit E110).
//
// No ANTLR message reaches the console: the console listeners are removed
// and syntax errors are rewritten into our wording.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstBuilder.h"
#include "frontend/Frontend.h"
#include "frontend/KeywordTypes.h"
#include "ir/Units.h"

#include "PlateLexer.h"
#include "PlateParser.h"

#include <llvm/ADT/StringRef.h>

#include <deque>
#include <optional>

namespace plate {

using antlr4::Token;
using frontend::AstBuilder;
using frontend::StatementLine;
using frontend::TokenLocator;
using grammar::PlateLexer;
using grammar::PlateParser;

namespace {

constexpr size_t kMaxFileBytes = 4u << 20;
constexpr size_t kMaxLineChars = 10000;
constexpr size_t kMaxNesting = 32;

//===----------------------------------------------------------------------===//
// Stage 1: raw text checks
//===----------------------------------------------------------------------===//

/// Length of the valid UTF-8 sequence at `i`, or 0 when it is invalid
/// (overlong forms, surrogates and code points above U+10FFFF included).
size_t utf8SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  if (lead < 0x80)
    return 1;
  size_t length;
  uint32_t min;
  uint32_t cp;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, min = 0x80, cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, min = 0x800, cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, min = 0x10000, cp = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size())
    return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return length;
}

/// Returns false when the text must not be parsed.
bool prescan(std::string_view text, uint32_t fileId, DiagnosticEngine &diags) {
  if (text.size() > kMaxFileBytes) {
    diags.report(DiagId::FileTooLarge, SourceLoc{fileId, 1, 1, 1}, text.size(), kMaxFileBytes,
                 kMaxFileBytes >> 20);
    return false;
  }
  bool ok = true;
  uint32_t line = 1;
  size_t lineStart = 0;
  size_t lineChars = 0;
  bool lineReported = false;
  for (size_t i = 0; i < text.size();) {
    size_t length = utf8SequenceLength(text, i);
    if (length == 0) {
      diags.report(DiagId::InvalidUtf8,
                   SourceLoc{fileId, line, static_cast<uint32_t>(i - lineStart + 1), 1},
                   static_cast<unsigned>(static_cast<unsigned char>(text[i])));
      // One is enough: the file is not text, or not in UTF-8.
      return false;
    }
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
      lineChars = 0;
      lineReported = false;
    } else if (++lineChars > kMaxLineChars && !lineReported) {
      diags.report(DiagId::LineTooLong, SourceLoc{fileId, line, 1, 1}, line, kMaxLineChars,
                   kMaxLineChars);
      lineReported = true;
      ok = false;
    }
    i += length;
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Syntax error wording
//===----------------------------------------------------------------------===//

/// Thrown by the error strategy after the first error of a line; the line
/// is abandoned (line-oriented recovery).
struct LineAbandoned {};

class LineErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  void recover(antlr4::Parser *, std::exception_ptr) override {
    throw LineAbandoned{};
  }
  Token *recoverInline(antlr4::Parser *recognizer) override {
    antlr4::InputMismatchException error(recognizer);
    reportError(recognizer, error);
    throw LineAbandoned{};
  }
  // No single-token insertion or deletion inside loops: a line either
  // parses as written or is reported.
  void sync(antlr4::Parser *) override {}
};

/// What a rule expects, for "expected ..." messages.
std::string_view describeRule(size_t rule) {
  switch (rule) {
  case PlateParser::RuleStatementLine:
  case PlateParser::RuleStatement:
    return "a statement such as `dispense`, `wash`, `incubate` or `read`";
  case PlateParser::RuleLayoutLine:
  case PlateParser::RuleLayoutStatement:
    return "a layout line: `plate TYPE`, a role line (`blank`, `calibrant`, "
           "`standard`, `sample`, `control`) or a grid line";
  case PlateParser::RuleReagentLine:
  case PlateParser::RuleReagentDecl:
    return "a reagent line `NAME [VOLUME] [at reservoir(R,C)] [FLAGS]`";
  case PlateParser::RulePlatformLine:
    return "a platform name such as `bioforge1`";
  case PlateParser::RuleNameRange:
    return "a name or a numbered range like `S1..S7`";
  case PlateParser::RuleWellSet:
  case PlateParser::RuleWellItem:
    return "a well set such as `A1..H12`, `row A`, `cols 1..3`, `all` or a "
           "layout name";
  case PlateParser::RuleName:
  case PlateParser::RuleLiquidName:
  case PlateParser::RuleDispenseSource:
    return "a name";
  case PlateParser::RuleVolume:
    return "a volume such as `100 uL`";
  case PlateParser::RuleDuration:
    return "a time such as `30 min`";
  case PlateParser::RuleTemperature:
    return "a temperature such as `37 °C` or `RT`";
  case PlateParser::RuleSpeed:
    return "a speed such as `300 rpm`";
  case PlateParser::RuleWavelength:
    return "a wavelength such as `450 nm`";
  case PlateParser::RuleCount:
    return "a count such as `3 times`";
  case PlateParser::RuleRatio:
    return "a ratio such as `1:20` or `20x`";
  case PlateParser::RuleQuantity:
  case PlateParser::RuleLiteralQuantity:
    return "a quantity such as `100 uL`";
  case PlateParser::RuleUnit:
  case PlateParser::RuleUnitAtom:
    return "a unit";
  case PlateParser::RuleParam:
    return "a parameter `NAME: Type`";
  case PlateParser::RuleParamType:
    return "a parameter type (Volume, Time, Temperature, Speed, Wavelength, "
           "Count, Reagent, Wells)";
  case PlateParser::RuleTipsClause:
    return "a tip policy: `new`, `per_source`, `per_well` or `reuse`";
  case PlateParser::RuleReservoirPos:
    return "`at reservoir(ROW, COLUMN)`";
  case PlateParser::RuleCallArg:
    return "an argument (a quantity, a name or a well set)";
  default:
    return {};
  }
}

bool isKeyword(size_t type) {
  return (type >= PlateLexer::DISPENSE && type <= PlateLexer::OVERNIGHT) ||
         type == PlateLexer::FOURPL;
}

/// Where a token stands in "expected a number, `step`, a name or `(`": the
/// values and tags, then the keywords in the grammar's order (`4pl` with
/// the analysis words, where its rule stood), then wells, names, units and
/// punctuation. The keywords' token types now come first in the lexer
/// (its `tokens` block), and the messages keep the order they had.
std::pair<int, size_t> expectedOrder(size_t type) {
  if (type == PlateLexer::FOURPL)
    return {1, 2 * PlateLexer::SUBTRACT - 1};
  if (isKeyword(type))
    return {1, 2 * type};
  switch (type) {
  case Token::EOF:
  case PlateLexer::NEWLINE:
  case PlateLexer::TITLE_OPEN:
  case PlateLexer::TAG_OPEN:
  case PlateLexer::TAG_CLOSE:
  case PlateLexer::STRING:
  case PlateLexer::UNTERMINATED_STRING:
  case PlateLexer::NUMBER:
    return {0, type};
  default:
    return {2, type};
  }
}

std::string describeToken(size_t type, const antlr4::dfa::Vocabulary &vocab) {
  switch (type) {
  case Token::EOF: return "end of line";
  case PlateLexer::NEWLINE: return "end of line";
  case PlateLexer::NUMBER: return "a number";
  case PlateLexer::IDENT: return "a name";
  case PlateLexer::WELL: return "a well";
  case PlateLexer::STRING: return "a quoted string";
  case PlateLexer::SYMUNIT: return "a unit";
  case PlateLexer::UNIT: return "a unit";
  case PlateLexer::RANGE: return "`..`";
  case PlateLexer::DOT: return "`.`";
  case PlateLexer::COMMA: return "`,`";
  case PlateLexer::COLON: return "`:`";
  case PlateLexer::SLASH: return "`/`";
  case PlateLexer::LPAREN: return "`(`";
  case PlateLexer::RPAREN: return "`)`";
  case PlateLexer::LBRACE: return "`{`";
  case PlateLexer::RBRACE: return "`}`";
  case PlateLexer::FOURPL: return "`4pl`";
  case PlateLexer::WELL_WORD: return "`well`";
  default: break;
  }
  std::string name = vocab.getSymbolicName(type);
  return "`" + llvm::StringRef(name).lower() + "`";
}

std::string quoteToken(const Token *token) {
  if (!token || token->getType() == Token::EOF)
    return "end of line";
  std::string text = token->getText();
  if (text.size() > 40)
    text = text.substr(0, 37) + "...";
  return "`" + text + "`";
}

/// The tokens of the offending token's line, fetched ahead (the parser
/// stopped there), and the offending token's index; nullopt when the stream
/// does not hold it.
std::optional<size_t> fetchLine(antlr4::TokenStream *stream, Token *offending) {
  if (!stream)
    return std::nullopt;
  if (auto *buffered = dynamic_cast<antlr4::BufferedTokenStream *>(stream))
    buffered->fill();
  size_t at = offending->getTokenIndex();
  if (at >= stream->size() || stream->get(at) != offending)
    return std::nullopt;
  return at;
}

/// "incubate 75 °C for 1 min", "shake 500 rpm for 30 s", "wait for 5 min":
/// the time said with "for", in English order. The statement as the
/// grammar has it ("incubate 1 min at 75 °C"), or "" when the line is not
/// that mistake.
std::string durationAfterFor(antlr4::TokenStream *stream, Token *offending) {
  if (!llvm::StringRef(offending->getText()).equals_insensitive("for"))
    return "";
  std::optional<size_t> fetched = fetchLine(stream, offending);
  if (!fetched)
    return "";
  size_t at = *fetched;
  std::string verb;
  size_t verbIndex = 0;
  for (size_t i = 0; i < at; ++i) {
    std::string text = stream->get(i)->getText();
    for (const char *word : {"incubate", "shake", "wait"})
      if (llvm::StringRef(text).equals_insensitive(word)) {
        verb = word;
        verbIndex = i;
      }
  }
  if (verb.empty())
    return "";
  auto join = [&](size_t from, size_t to) {
    std::string out;
    for (size_t i = from; i < to; ++i) {
      Token *token = stream->get(i);
      if (token->getType() == Token::EOF || token->getChannel() != Token::DEFAULT_CHANNEL)
        continue;
      out += (out.empty() ? "" : " ") + token->getText();
    }
    return out;
  };
  size_t end = at + 1;
  while (end < stream->size() && stream->get(end)->getType() != Token::EOF)
    ++end;
  // "for 1 h lid on": the time is the number and its unit; what follows
  // stays at the end.
  size_t timeEnd = std::min(end, at + 3);
  if (timeEnd <= at + 1 || stream->get(at + 1)->getType() != PlateLexer::NUMBER)
    return "";
  std::string time = join(at + 1, timeEnd);
  std::string rest = join(timeEnd, end);
  // One quantity between the verb and `for` ("75 °C", "500 rpm"), or none.
  if (at - verbIndex - 1 > 2)
    return "";
  std::string setting = join(verbIndex + 1, at);
  if (verb == "wait" && !setting.empty())
    return "";
  std::string fix = verb + " " + time;
  if (!setting.empty())
    fix += " at " + setting;
  if (!rest.empty())
    fix += " " + rest;
  return fix;
}

/// "rows A, H": `rows` takes a range, and rows apart are a list of `row`
/// items. Returns the list to write ("row A, row H"), or "" when the comma
/// is another mistake.
std::string rangeWordListedApart(antlr4::TokenStream *stream, Token *offending) {
  if (offending->getText() != ",")
    return "";
  std::optional<size_t> at = fetchLine(stream, offending);
  if (!at || *at < 2 || *at + 1 >= stream->size())
    return "";
  // `cols 3, 12` is a list of columns (docs/language.md, well sets); after
  // `rows A` a letter could be a layout name.
  if (stream->get(*at - 2)->getType() != PlateLexer::ROWS)
    return "";
  std::string item = "row";
  size_t part = PlateLexer::IDENT;
  if (stream->get(*at - 1)->getType() != part || stream->get(*at + 1)->getType() != part)
    return "";
  std::string fix = item + " " + stream->get(*at - 1)->getText();
  // Every item of the list the line goes on with: "rows A, D, H".
  for (size_t i = *at; i + 1 < stream->size(); i += 2) {
    if (stream->get(i)->getText() != "," || stream->get(i + 1)->getType() != part)
      break;
    fix += ", " + item + " " + stream->get(i + 1)->getText();
  }
  return fix;
}

/// "analyze 4pl at 450 nm": a model of the fit where the kind of analysis
/// comes first. The words to write in the model's place ("standard_curve
/// 4pl"), or "" when the line is not that mistake.
std::string analysisKindLeftOut(antlr4::TokenStream *stream, Token *offending) {
  size_t type = offending->getType();
  if (type != PlateLexer::FOURPL && type != PlateLexer::LINEAR)
    return "";
  std::optional<size_t> at = fetchLine(stream, offending);
  if (!at || *at == 0 || stream->get(*at - 1)->getType() != PlateLexer::ANALYZE)
    return "";
  return "standard_curve " + offending->getText();
}

/// Reports parser errors in our wording. The lexer has a STRAY catch-all
/// so its listener is only a safety net.
class SyntaxErrorListener : public antlr4::BaseErrorListener {
public:
  SyntaxErrorListener(const TokenLocator &locator, DiagnosticEngine &diags)
      : locator_(locator), diags_(diags) {}

  void setStep(std::string step) { step_ = std::move(step); }

  void syntaxError(antlr4::Recognizer *recognizer, Token *offending,
                   size_t line, size_t column, const std::string &,
                   std::exception_ptr error) override {
    // The lexer never reports: every mode ends in a catch-all rule
    // (STRAY, TITLE_TEXT), so a character it does not know is a token that
    // the frontend reports as E108.
    PLATE_ASSERT(offending, fmt::format("the lexer failed at {}:{}", line, column + 1));
    std::string expected;
    antlr4::RuleContext *ctx = nullptr;
    antlr4::misc::IntervalSet expectedTokens;
    if (error) {
      try {
        std::rethrow_exception(error);
      } catch (antlr4::RecognitionException &e) {
        ctx = e.getCtx();
        expectedTokens = e.getExpectedTokens();
      } catch (...) {
      }
    }
    // The outermost rule that starts at the offending token says best what
    // was expected there ("a volume" rather than "a quantity").
    for (auto *c = ctx; c; c = dynamic_cast<antlr4::RuleContext *>(c->parent)) {
      auto *rule = dynamic_cast<antlr4::ParserRuleContext *>(c);
      if (!rule || rule->getStart() != offending)
        break;
      if (auto description = describeRule(rule->getRuleIndex()); !description.empty())
        expected = std::string(description);
    }
    auto *parser = dynamic_cast<antlr4::Parser *>(recognizer);
    if (expected.empty() && !expectedTokens.isEmpty() && parser) {
      std::vector<std::string> names;
      std::vector<ssize_t> types = expectedTokens.toList();
      std::stable_sort(types.begin(), types.end(), [](ssize_t a, ssize_t b) {
        return expectedOrder(static_cast<size_t>(a)) < expectedOrder(static_cast<size_t>(b));
      });
      for (ssize_t type : types) {
        std::string name = describeToken(type, parser->getVocabulary());
        if (std::find(names.begin(), names.end(), name) == names.end())
          names.push_back(name);
      }
      if (names.size() <= 6) {
        for (size_t i = 0; i < names.size(); ++i) {
          if (i)
            expected += i + 1 == names.size() ? " or " : ", ";
          expected += names[i];
        }
      }
    }
    SourceLoc loc = locator_.loc(offending);
    size_t type = offending->getType();
    // Only where a name was what the position wanted: "expected a volume"
    // also admits a parameter name, but the hint would mislead there.
    bool wantsName = llvm::StringRef(expected).contains_insensitive("name");
    std::string kindFix =
        parser ? analysisKindLeftOut(parser->getTokenStream(), offending) : std::string();
    if (!kindFix.empty())
      diags_.report(DiagId::UnexpectedToken, loc, quoteToken(offending))
          .step(step_)
          .note(loc,
                "`analyze` names the analysis before the model (`standard_curve`, "
                "`competitive` or `cutoff`); write `analyze {}`",
                kindFix)
          .suggest(kindFix);
    else if (expected.empty())
      diags_.report(DiagId::UnexpectedToken, loc, quoteToken(offending)).step(step_);
    else if (wantsName && isKeyword(type))
      diags_.report(DiagId::KeywordAsName, loc, offending->getText(), expected,
                    offending->getText())
          .step(step_);
    else if (wantsName && type == PlateLexer::WELL)
      diags_.report(DiagId::WellAsName, loc, offending->getText(), expected,
                    offending->getText())
          .step(step_);
    else {
      auto diagnostic = diags_.report(DiagId::SyntaxError, loc, quoteToken(offending), expected);
      diagnostic.step(step_);
      if (parser) {
        antlr4::TokenStream *stream = parser->getTokenStream();
        if (std::string fix = durationAfterFor(stream, offending); !fix.empty())
          diagnostic.note(loc, "the time comes right after the verb; write `{}`", fix);
        else if (std::string list = rangeWordListedApart(stream, offending); !list.empty())
          diagnostic.note(loc,
                          "`rows` takes a range (`rows A..D`); rows apart are a list: write "
                          "`{}`",
                          list);
      }
    }
  }

private:
  const TokenLocator &locator_;
  DiagnosticEngine &diags_;
  std::string step_;
};

//===----------------------------------------------------------------------===//
// Stage 3: section structure
//===----------------------------------------------------------------------===//

enum class Tag { Title, Platform, Layout, Reagents, Manual, Instrument, Unknown };

constexpr const char *kTagNames[] = {"KIT_TITLE", "PLATFORM", "LAYOUT",
                                     "REAGENTS",  "MANUAL",   "INSTRUMENT"};

int tagRank(Tag tag) {
  switch (tag) {
  case Tag::Title: return 0;
  case Tag::Platform: return 1;
  case Tag::Layout: return 2;
  case Tag::Reagents: return 3;
  default: return 4;
  }
}

/// `<LAYOUT>` / `</layout>` -> the tag name as written, without brackets.
std::string tagText(const Token *token) {
  std::string text = token->getText();
  size_t begin = text.size() > 1 && text[1] == '/' ? 2 : 1;
  return text.substr(begin, text.size() - begin - 1);
}

Tag tagOf(const Token *token) {
  std::string name = tagText(token); // owned: a StringRef to the temporary dangles
  for (int i = 0; i < 6; ++i)
    if (llvm::StringRef(name).equals_insensitive(kTagNames[i]))
      return static_cast<Tag>(i);
  return Tag::Unknown;
}

bool isOpenTag(const Token *token) {
  return token->getType() == PlateLexer::TAG_OPEN ||
         token->getType() == PlateLexer::TITLE_OPEN;
}
bool isCloseTag(const Token *token) {
  return token->getType() == PlateLexer::TAG_CLOSE ||
         token->getType() == PlateLexer::TITLE_CLOSE;
}

using TokenList = std::vector<Token *>;

class ScriptParser {
public:
  ScriptParser(SourceManager &sources, uint32_t fileId, DiagnosticEngine &diags)
      : sources_(sources), fileId_(fileId), diags_(diags),
        locator_(fileId, sources.contents(fileId)), builder_(locator_, diags),
        listener_(locator_, diags) {}

  ast::Script run();

private:
  void section(Tag tag, Token *open, const TokenList &body, bool keep);
  std::vector<TokenList> splitLines(const TokenList &body);
  bool lineIsLexicallyClean(const TokenList &line, bool markRequired);
  /// The step label of `line`, "" without one; `markRequired` outside
  /// MANUAL and INSTRUMENT (see `lineLabel` in PlateParser.g4).
  std::string stepOf(const TokenList &line, bool markRequired);

  /// Parses one line with `entry`; nullptr when it had an error.
  template <typename Ctx>
  Ctx *parseLine(const TokenList &line, Ctx *(PlateParser::*entry)());

  void titleSection(Token *open, const TokenList &body);
  void platformSection(Token *open, const TokenList &body);
  void layoutSection(Token *open, const TokenList &body, ast::Layout &layout);
  void reagentSection(const TokenList &body, std::vector<ast::ReagentDecl> &out);
  void statementSection(const TokenList &body,
                        std::vector<ast::Statement> &out);

  SourceManager &sources_;
  uint32_t fileId_;
  DiagnosticEngine &diags_;
  TokenLocator locator_;
  AstBuilder builder_;
  SyntaxErrorListener listener_;
  ast::Script script_;

  // Alive while lines are parsed: the per-line token streams copy from it.
  // Declared so that the parser dies before the stream it reads, and the
  // stream before its source.
  std::unique_ptr<antlr4::ANTLRInputStream> input_;
  std::unique_ptr<PlateLexer> lexer_;
  std::unique_ptr<antlr4::TokenSource> lineSource_;
  std::unique_ptr<antlr4::TokenStream> lineStream_;
  std::unique_ptr<PlateParser> parser_;
  std::shared_ptr<antlr4::ANTLRErrorStrategy> lineStrategy_, bailStrategy_;
};

ast::Script ScriptParser::run() {
  script_.fileId = fileId_;
  std::string_view text = sources_.contents(fileId_);
  if (!prescan(text, fileId_, diags_))
    return std::move(script_);

  input_ = std::make_unique<antlr4::ANTLRInputStream>(text.data(), text.size());
  lexer_ = std::make_unique<PlateLexer>(input_.get());
  lexer_->removeErrorListeners();
  lexer_->addErrorListener(&listener_);
  std::vector<std::unique_ptr<Token>> owned = lexer_->getAllTokens();
  TokenList tokens;
  tokens.reserve(owned.size());
  for (auto &token : owned) {
    // The lexer reads keywords as words (grammar/PlateLexer.g4).
    if (token->getType() == PlateLexer::IDENT)
      if (size_t keyword = keywordTypeOf(token->getText()))
        static_cast<antlr4::CommonToken *>(token.get())->setType(keyword);
    tokens.push_back(token.get());
  }

  parser_ = std::make_unique<PlateParser>(nullptr);
  parser_->removeErrorListeners();
  parser_->addErrorListener(&listener_);
  lineStrategy_ = std::make_shared<LineErrorStrategy>();
  bailStrategy_ = std::make_shared<antlr4::BailErrorStrategy>();
  parser_->setErrorHandler(lineStrategy_);

  bool seen[6] = {};
  int highestRank = -1;
  Tag highestTag = Tag::Title;
  bool sawInstrument = false;

  size_t i = 0;
  const size_t n = tokens.size();
  while (i < n) {
    Token *token = tokens[i];
    if (token->getType() == PlateLexer::NEWLINE) {
      ++i;
      continue;
    }
    if (isCloseTag(token)) {
      Tag tag = tagOf(token);
      if (tag == Tag::Unknown)
        diags_.report(DiagId::UnknownTag, locator_.loc(token), "/" + tagText(token));
      else
        diags_.report(DiagId::CloseTagWithoutOpen, locator_.loc(token), tagText(token),
                      tagText(token));
      ++i;
      continue;
    }
    if (!isOpenTag(token)) {
      diags_.report(DiagId::TextOutsideTag, locator_.loc(token));
      while (i < n && tokens[i]->getType() != PlateLexer::NEWLINE &&
             !isOpenTag(tokens[i]) && !isCloseTag(tokens[i]))
        ++i;
      continue;
    }

    Tag tag = tagOf(token);
    if (tag == Tag::Unknown) {
      diags_.report(DiagId::UnknownTag, locator_.loc(token), tagText(token));
      // Skip an unknown section whole when it is closed before the next
      // known tag; otherwise skip just the tag.
      size_t j = i + 1;
      while (j < n && !(isOpenTag(tokens[j]) && tagOf(tokens[j]) != Tag::Unknown) &&
             !(isCloseTag(tokens[j]) &&
               llvm::StringRef(tagText(tokens[j]))
                   .equals_insensitive(tagText(token))))
        ++j;
      i = j < n && isCloseTag(tokens[j]) ? j + 1 : i + 1;
      continue;
    }

    // Find where this section ends: its closing tag, another known tag, or
    // the end of the file. Unknown tags inside are reported and skipped.
    TokenList body;
    size_t j = i + 1;
    for (; j < n; ++j) {
      Token *inner = tokens[j];
      if (isOpenTag(inner) || isCloseTag(inner)) {
        if (tagOf(inner) != Tag::Unknown)
          break;
        diags_.report(DiagId::UnknownTag, locator_.loc(inner),
                      (isCloseTag(inner) ? "/" : "") + tagText(inner));
        continue;
      }
      body.push_back(inner);
    }

    bool keep = true;
    int rank = tagRank(tag);
    bool repeatable = tag == Tag::Manual || tag == Tag::Instrument;
    if (seen[static_cast<int>(tag)] && !repeatable) {
      diags_.report(DiagId::DuplicateSection, locator_.loc(token), kTagNames[static_cast<int>(tag)]);
      keep = false;
    } else if (rank < highestRank) {
      diags_.report(DiagId::SectionOrder, locator_.loc(token),
                    kTagNames[static_cast<int>(tag)],
                    kTagNames[static_cast<int>(highestTag)]);
    }
    seen[static_cast<int>(tag)] = true;
    if (rank > highestRank) {
      highestRank = rank;
      highestTag = tag;
    }
    sawInstrument |= tag == Tag::Instrument;

    if (j == n) {
      diags_.report(DiagId::UnclosedTag, locator_.loc(token),
                    kTagNames[static_cast<int>(tag)],
                    kTagNames[static_cast<int>(tag)])
          .note(sources_.endLoc(fileId_), "the file ends here");
      section(tag, token, body, keep);
      i = j;
      continue;
    }
    Token *end = tokens[j];
    if (isOpenTag(end)) {
      diags_.report(DiagId::UnclosedTag, locator_.loc(token),
                    kTagNames[static_cast<int>(tag)],
                    kTagNames[static_cast<int>(tag)])
          .note(locator_.loc(end), "the next section starts here");
      section(tag, token, body, keep);
      i = j;
      continue;
    }
    if (tagOf(end) != tag)
      // Taken as the close of the open section: the usual cause is a typo
      // in one of the two tags.
      diags_.report(DiagId::MismatchedCloseTag, locator_.loc(end), tagText(end),
                    kTagNames[static_cast<int>(tag)])
          .note(locator_.loc(token), "the open section starts here");
    section(tag, token, body, keep);
    i = j + 1;
  }

  if (!sawInstrument)
    diags_.report(DiagId::MissingSection, sources_.endLoc(fileId_));
  return std::move(script_);
}

void ScriptParser::section(Tag tag, Token *open, const TokenList &body,
                           bool keep) {
  switch (tag) {
  case Tag::Title:
    if (keep)
      titleSection(open, body);
    return;
  case Tag::Platform:
    if (keep)
      platformSection(open, body);
    return;
  case Tag::Layout: {
    // A duplicate section is still parsed, for its syntax errors.
    ast::Layout scratch;
    ast::Layout &layout = keep ? script_.layout.emplace() : scratch;
    layout.loc = locator_.loc(open);
    layoutSection(open, body, layout);
    return;
  }
  case Tag::Reagents: {
    std::vector<ast::ReagentDecl> scratch;
    if (keep) {
      script_.hasReagents = true;
      script_.reagentsLoc = locator_.loc(open);
    }
    reagentSection(body, keep ? script_.reagents : scratch);
    return;
  }
  case Tag::Manual:
  case Tag::Instrument: {
    ast::Section &out = script_.sections.emplace_back();
    out.kind = tag == Tag::Manual ? ast::SectionKind::Manual
                                  : ast::SectionKind::Instrument;
    out.loc = locator_.loc(open);
    statementSection(body, out.statements);
    return;
  }
  case Tag::Unknown:
    return;
  }
}

std::vector<TokenList> ScriptParser::splitLines(const TokenList &body) {
  std::vector<TokenList> lines;
  TokenList current;
  for (Token *token : body) {
    if (token->getType() == PlateLexer::NEWLINE) {
      if (!current.empty())
        lines.push_back(std::move(current));
      current.clear();
      continue;
    }
    current.push_back(token);
  }
  if (!current.empty())
    lines.push_back(std::move(current));
  return lines;
}

std::string ScriptParser::stepOf(const TokenList &line, bool markRequired) {
  if (!markRequired && frontend::clockLabelLength(line))
    return frontend::clockLabelText(line[0]->getText(), line[2]->getText()).value_or("");
  size_t length = frontend::stepLabelLength(line, markRequired);
  if (length == 0)
    return {};
  TokenList number;
  for (size_t i = 0; i < length; ++i)
    if (line[i]->getType() == PlateLexer::NUMBER || line[i]->getType() == PlateLexer::IDENT ||
        line[i]->getType() == PlateLexer::WELL)
      number.push_back(line[i]);
  if (number.size() == 1 && (number[0]->getType() == PlateLexer::IDENT ||
                             number[0]->getType() == PlateLexer::WELL))
    return frontend::isLabelWord(number[0]->getText()) ? number[0]->getText() : "";
  return frontend::stepLabelText(number).value_or("");
}

bool ScriptParser::lineIsLexicallyClean(const TokenList &line, bool markRequired) {
  for (Token *token : line) {
    if (token->getType() == PlateLexer::STRAY) {
      std::string text = token->getText();
      unsigned char first = text.empty() ? 0 : static_cast<unsigned char>(text[0]);
      std::string shown = text;
      if (first < 0x20 || first == 0x7F) {
        shown = fmt::format("U+{:04X}", first);
      }
      diags_.report(DiagId::StrayCharacter, locator_.loc(token), shown)
          .step(stepOf(line, markRequired));
      return false;
    }
    if (token->getType() == PlateLexer::UNTERMINATED_STRING) {
      diags_.report(DiagId::UnterminatedString, locator_.loc(token))
          .step(stepOf(line, markRequired));
      return false;
    }
  }
  return true;
}

template <typename Ctx>
Ctx *ScriptParser::parseLine(const TokenList &line, Ctx *(PlateParser::*entry)()) {
  constexpr bool markRequired = !std::is_same_v<Ctx, PlateParser::StatementLineContext>;
  if (!lineIsLexicallyClean(line, markRequired))
    return nullptr;
  std::vector<std::unique_ptr<Token>> copies;
  copies.reserve(line.size());
  for (Token *token : line)
    copies.push_back(std::make_unique<antlr4::CommonToken>(token));
  // Replacing the stream resets the parser, which frees the previous
  // line's tree; the old stream and source are freed after that.
  // A unit is optional after a number (`3` is a count), and a name may
  // follow one, so for ANTLR every `NUMBER IDENT` asks which the word is,
  // and SLL prediction answers by following every rule that can come after
  // a quantity: most of what parsing a short script cost (bench/README.md).
  // For the fast first parse, a known unit spelling (or `times`) right
  // after a number, past the step label, is that number's unit, which is
  // what the full parse concludes whenever this reading parses: the unit
  // alternative comes first (`wash 4 times with` reads `times` as the unit
  // of 4 either way). A line this reading cannot parse (`wash 3 times with
  // 300 uL`, the reagent forgotten, which reads `uL` as the reagent for
  // E114) is parsed again below as the words were lexed.
  std::vector<std::pair<antlr4::CommonToken *, size_t>> units;
  for (size_t i = std::max<size_t>(1, frontend::stepLabelLength(line, markRequired));
       i < copies.size(); ++i) {
    size_t type = copies[i]->getType();
    if (copies[i - 1]->getType() == PlateLexer::NUMBER &&
        (type == PlateLexer::TIMES ||
         (type == PlateLexer::IDENT && lookupUnit(copies[i]->getText())))) {
      auto *token = static_cast<antlr4::CommonToken *>(copies[i].get());
      token->setType(PlateLexer::UNIT);
      units.emplace_back(token, type);
    }
  }
  auto source = std::make_unique<antlr4::ListTokenSource>(std::move(copies));
  auto stream = std::make_unique<antlr4::CommonTokenStream>(source.get());
  parser_->setTokenStream(stream.get());
  lineStream_ = std::move(stream);
  lineSource_ = std::move(source);
  listener_.setStep(stepOf(line, markRequired));

  // Two-stage parsing: SLL prediction is cached in the DFA, full-context LL
  // prediction is not and made parsing 5x slower on long scripts
  // (bench/README.md). A line that parses under SLL with no error gets the
  // tree LL would give; any other line is parsed again under LL with the
  // error listener and recovery, so diagnostics are exactly those of LL.
  auto *simulator = parser_->getInterpreter<antlr4::atn::ParserATNSimulator>();
  simulator->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser_->removeErrorListeners();
  parser_->setErrorHandler(bailStrategy_);
  Ctx *tree = nullptr;
  try {
    tree = (parser_.get()->*entry)();
  } catch (antlr4::ParseCancellationException &) {
    tree = nullptr;
  }
  simulator->setPredictionMode(antlr4::atn::PredictionMode::LL);
  parser_->addErrorListener(&listener_);
  parser_->setErrorHandler(lineStrategy_);
  if (tree)
    return tree;

  for (auto [token, lexed] : units)
    token->setType(lexed);
  lineStream_->seek(0);
  parser_->setTokenStream(lineStream_.get());
  try {
    return (parser_.get()->*entry)();
  } catch (LineAbandoned &) {
    return nullptr;
  }
}

void ScriptParser::titleSection(Token *open, const TokenList &body) {
  std::string text;
  for (Token *token : body) {
    if (token->getType() == PlateLexer::NEWLINE) {
      text += ' ';
      continue;
    }
    if (token->getType() != PlateLexer::TITLE_TEXT) {
      // Cannot happen: the title mode only makes TITLE_TEXT and NEWLINE.
      continue;
    }
    text += token->getText();
  }
  for (char &c : text)
    if (c == '\r' || c == '\t')
      c = ' ';
  llvm::StringRef trimmed = llvm::StringRef(text).trim();
  script_.title = trimmed.str();
  script_.titleLoc = body.empty() ? locator_.loc(open) : locator_.loc(body.front());
}

void ScriptParser::platformSection(Token *open, const TokenList &body) {
  std::vector<TokenList> lines = splitLines(body);
  if (lines.empty()) {
    diags_.report(DiagId::EmptyPlatformSection, locator_.loc(open));
    return;
  }
  for (const TokenList &line : lines) {
    if (script_.platform) {
      diags_.report(DiagId::SecondPlatform, locator_.loc(line.front()))
          .note(script_.platform->loc, "the platform is named here");
      return;
    }
    if (auto *ctx = parseLine(line, &PlateParser::platformLine))
      script_.platform = builder_.platformLine(ctx);
  }
}

void ScriptParser::layoutSection(Token *, const TokenList &body,
                                 ast::Layout &layout) {
  for (const TokenList &line : splitLines(body)) {
    // A line that starts with a word other than a row letter would parse
    // as a grid row; a misspelt role word (`smaple X1 at A3`) deserves its
    // own message instead of one about the grid.
    size_t first = frontend::stepLabelLength(line, true);
    if (first < line.size() && line[first]->getType() == PlateLexer::IDENT) {
      std::string word = line[first]->getText();
      if (word.size() != 1 || word[0] < 'A' || word[0] > 'Z') {
        std::string hint = closestMatch(
            word, {"blank", "calibrant", "standard", "sample", "control", "nsb", "bmax",
                   "cutoff", "plate"});
        auto diag = diags_.report(DiagId::UnknownRole, locator_.loc(line[first]), word);
        diag.step(stepOf(line, true));
        if (!hint.empty())
          diag.suggest(hint);
        continue;
      }
    }
    if (auto *ctx = parseLine(line, &PlateParser::layoutLine))
      builder_.layoutLine(ctx, layout);
  }
}

void ScriptParser::reagentSection(const TokenList &body,
                                  std::vector<ast::ReagentDecl> &out) {
  for (TokenList line : splitLines(body)) {
    // A control's polarity among a reagent's flags is a layout tag in the
    // wrong section: E316 says so, and the line is parsed without it
    // (the grammar, and so the Parser's prompt, has no such flag).
    size_t first = frontend::stepLabelLength(line, /*markRequired=*/true);
    for (size_t i = first + 1; i < line.size();) {
      int type = line[i]->getType();
      if (type != PlateLexer::POSITIVE && type != PlateLexer::NEGATIVE) {
        ++i;
        continue;
      }
      std::string tag = type == PlateLexer::POSITIVE ? "positive" : "negative";
      std::string name = line[first]->getText();
      diags_.report(DiagId::ControlTagOnReagent, locator_.loc(line[i]), tag, name, tag, name);
      line.erase(line.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (auto *ctx = parseLine(line, &PlateParser::reagentLine))
      out.push_back(builder_.reagentLine(ctx));
  }
}

void ScriptParser::statementSection(const TokenList &body,
                                    std::vector<ast::Statement> &out) {
  struct Frame {
    std::vector<ast::Statement> *body;
    SourceLoc braceLoc;
    std::string name;
  };
  std::vector<Frame> stack;
  // Bodies of blocks whose header line had an error, and of blocks nested
  // past the limit: parsed for their errors, then dropped.
  std::deque<std::vector<ast::Statement>> scratch;
  bool nestingReported = false;

  auto current = [&]() -> std::vector<ast::Statement> & {
    return stack.empty() ? out : *stack.back().body;
  };
  auto openBlock = [&](std::vector<ast::Statement> *blockBody, SourceLoc brace,
                       std::string name) {
    stack.push_back({blockBody, brace, std::move(name)});
  };

  for (const TokenList &line : splitLines(body)) {
    // A word that is not a keyword and not a call is most likely a misspelt
    // statement (`dispence`); say so rather than "expected `(`".
    size_t first = frontend::stepLabelLength(line, false);
    if (first < line.size() && line[first]->getType() == PlateLexer::IDENT &&
        (first + 1 == line.size() ||
         line[first + 1]->getType() != PlateLexer::LPAREN) &&
        lineIsLexicallyClean(line, false)) {
      static const std::vector<std::string> kStatements = {
          "dispense", "aspirate", "remove",  "wash",    "incubate",
          "shake",    "mix",      "transfer", "magnet", "read",
          "analyze",  "wait",     "pause",   "note",    "repeat",
          "proc",     "use",      "prepare", "equilibrate"};
      std::string word = line[first]->getText();
      std::string hint = closestMatch(llvm::StringRef(word).lower(), kStatements);
      auto diag = hint.empty()
                      ? diags_.report(DiagId::UnknownStatement, locator_.loc(line[first]), word)
                      : diags_.report(DiagId::UnknownStatementTypo,
                                      locator_.loc(line[first]), word, hint);
      diag.step(stepOf(line, false));
      if (!hint.empty())
        diag.suggest(hint);
      continue;
    }
    auto *ctx = parseLine(line, &PlateParser::statementLine);
    if (!ctx) {
      // Keep blocks balanced when a header line had an error.
      if (line.back()->getType() == PlateLexer::LBRACE)
        openBlock(&scratch.emplace_back(), locator_.loc(line.back()),
                  line.front()->getText());
      else if (line.size() == 1 && line.back()->getType() == PlateLexer::RBRACE &&
               !stack.empty())
        stack.pop_back();
      continue;
    }
    StatementLine parsed = builder_.statementLine(ctx);
    switch (parsed.kind) {
    case StatementLine::Kind::Statement:
      current().push_back(std::move(parsed.statement));
      break;
    case StatementLine::Kind::BlockOpen: {
      if (stack.size() >= kMaxNesting) {
        if (!nestingReported)
          diags_.report(DiagId::NestingTooDeep, parsed.braceLoc, stack.size() + 1, kMaxNesting)
              .step(parsed.statement.stepLabel);
        nestingReported = true;
        openBlock(&scratch.emplace_back(), parsed.braceLoc, parsed.blockName);
        break;
      }
      std::vector<ast::Statement> &parent = current();
      parent.push_back(std::move(parsed.statement));
      auto &kind = parent.back().kind;
      std::vector<ast::Statement> *blockBody =
          std::holds_alternative<ast::Repeat>(kind)
              ? &std::get<ast::Repeat>(kind).body
              : &std::get<ast::ProcDef>(kind).body;
      openBlock(blockBody, parsed.braceLoc, parsed.blockName);
      break;
    }
    case StatementLine::Kind::BlockClose:
      if (stack.empty())
        diags_.report(DiagId::CloseWithoutBlock, parsed.braceLoc);
      else
        stack.pop_back();
      break;
    }
    // Scratch bodies of closed blocks are not needed any more.
    if (stack.empty())
      scratch.clear();
  }
  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    diags_.report(DiagId::UnclosedBlock, it->braceLoc, it->name);
}

} // namespace

ast::Script parseScript(SourceManager &sources, uint32_t fileId,
                        DiagnosticEngine &diags) {
  ScriptParser parser(sources, fileId, diags);
  return parser.run();
}

} // namespace plate
