//===- AstBuilder.cpp - ANTLR parse trees of single lines to AST nodes ----===//
//
// The grammar is deliberately permissive about the order of optional clauses
// (`incubate 1 h dark at 37 C` parses); a clause given twice is reported
// here. Everything that needs names, units or the plate is left to Sema.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstBuilder.h"
#include "frontend/Layout.h"
#include "frontend/ParseTreeDispatch.h"

#include "PlateLexer.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>

#include <fmt/format.h>

namespace plate::frontend {

using grammar::PlateLexer;
using grammar::PlateParser;
using antlr4::Token;
using antlr4::tree::TerminalNode;

// Every rule with labelled alternatives is built below through
// visitAlternative, which fails to compile when an alternative has no case.
// A rule that gains labels must be added here, and handled.
static_assert(sameRules(TypeList<PlateParser::LiteralQuantityContext, PlateParser::WellItemContext,
                                 PlateParser::WellSetItemContext,
                                 PlateParser::StatementContext, PlateParser::IncubateOptionContext,
                                 PlateParser::SeriesOptionContext, PlateParser::PrepareOptionContext,
                                 PlateParser::LayoutStatementContext,
                                 PlateParser::RoleClauseContext>{},
                        LabelledRules{}),
              "a rule of grammar/PlateParser.g4 has labelled alternatives that "
              "AstBuilder does not dispatch");

//===----------------------------------------------------------------------===//
// TokenLocator
//===----------------------------------------------------------------------===//

TokenLocator::TokenLocator(uint32_t fileId, std::string_view text)
    : fileId_(fileId), size_(static_cast<uint32_t>(text.size())) {
  lineStarts_.push_back(0);
  bool ascii = true;
  for (uint32_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n')
      lineStarts_.push_back(i + 1);
    if (static_cast<unsigned char>(text[i]) >= 0x80)
      ascii = false;
  }
  if (ascii)
    return;
  // ANTLR counts code points; our columns count bytes. The text was
  // validated as UTF-8 before lexing.
  codePointToByte_.reserve(text.size() + 1);
  for (uint32_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      codePointToByte_.push_back(i);
  codePointToByte_.push_back(size_);
}

uint32_t TokenLocator::byteOffset(size_t codePoint) const {
  if (codePointToByte_.empty())
    return static_cast<uint32_t>(std::min<size_t>(codePoint, size_));
  if (codePoint >= codePointToByte_.size())
    return size_;
  return codePointToByte_[codePoint];
}

SourceLoc TokenLocator::loc(const Token *token) const {
  if (!token)
    return {};
  size_t line = token->getLine();
  if (line == 0 || line > lineStarts_.size())
    return {fileId_, static_cast<uint32_t>(lineStarts_.size()), 1, 1};
  size_t start = token->getStartIndex();
  uint32_t col;
  if (start == INVALID_INDEX) {
    col = static_cast<uint32_t>(token->getCharPositionInLine()) + 1;
  } else {
    uint32_t byte = byteOffset(start);
    col = byte >= lineStarts_[line - 1] ? byte - lineStarts_[line - 1] + 1 : 1;
  }
  size_t stop = token->getStopIndex();
  uint32_t length = 1;
  if (token->getType() != Token::EOF && start != INVALID_INDEX &&
      stop != INVALID_INDEX && stop >= start)
    length = static_cast<uint32_t>(stop - start + 1);
  return {fileId_, static_cast<uint32_t>(line), col, length};
}

SourceLoc TokenLocator::span(const Token *first, const Token *last) const {
  SourceLoc begin = loc(first);
  if (!last || last->getLine() != first->getLine() ||
      last->getStopIndex() == INVALID_INDEX ||
      first->getStartIndex() == INVALID_INDEX ||
      last->getStopIndex() < first->getStartIndex())
    return begin;
  begin.length =
      static_cast<uint32_t>(last->getStopIndex() - first->getStartIndex() + 1);
  return begin;
}

SourceLoc TokenLocator::span(antlr4::ParserRuleContext *ctx) const {
  return span(ctx->getStart(), ctx->getStop());
}

//===----------------------------------------------------------------------===//
// Leaves
//===----------------------------------------------------------------------===//

double AstBuilder::number(Token *token) {
  std::string text = token->getText();
  double value = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(value)) {
    diags_.report(DiagId::NumberTooLarge, locator_.loc(token), text).step(step_);
    return 0;
  }
  return value;
}

ast::Name AstBuilder::name(PlateParser::NameContext *ctx) {
  return {ctx->getText(), locator_.span(ctx)};
}

ast::MixClause AstBuilder::mixClause(PlateParser::MixClauseContext *ctx) {
  ast::MixClause clause;
  clause.loc = locator_.span(ctx);
  clause.count = quantity(ctx->count()->quantity());
  if (ctx->volume())
    clause.volume = quantity(ctx->volume()->quantity());
  return clause;
}

std::string AstBuilder::unitText(PlateParser::UnitContext *ctx) {
  std::string unit;
  for (auto *atom : ctx->unitAtom()) {
    if (!unit.empty())
      unit += "/";
    for (char c : atom->getText())
      if (c != ' ' && c != '\t')
        unit.push_back(c);
  }
  return unit;
}

ast::Name AstBuilder::name(PlateParser::LiquidNameContext *ctx) {
  return {ctx->getText(), locator_.span(ctx)};
}

ast::NameRange AstBuilder::nameRange(PlateParser::NameRangeContext *ctx) {
  ast::NameRange names;
  names.loc = locator_.span(ctx);
  names.first = name(ctx->liquidName(0));
  if (ctx->RANGE())
    names.last = name(ctx->liquidName(1));
  return names;
}

ast::Name AstBuilder::name(TerminalNode *node) {
  return {node->getText(), locator_.loc(node->getSymbol())};
}

template <class T, class Build>
void AstBuilder::clauseOnce(std::optional<T> &slot, Token *keyword, Build &&build) {
  if (slot)
    duplicateClause(keyword);
  else
    slot = build();
}

void AstBuilder::duplicateClause(Token *keyword) {
  diags_.report(DiagId::ClauseTwice, locator_.loc(keyword), keyword->getText())
      .step(step_);
}

std::string AstBuilder::unquote(Token *token) {
  std::string text = token->getText();
  std::string out;
  // Strip the quotes; the lexer guarantees both are there.
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 2 < text.size()) {
      char next = text[i + 1];
      if (next == '"' || next == '\\') {
        out.push_back(next);
        ++i;
        continue;
      }
      SourceLoc loc = locator_.loc(token);
      loc.col += static_cast<uint32_t>(i);
      loc.length = 2;
      // A Windows path in a note ("\\core\data"): kept as written, with a
      // warning, as C compilers do with an unknown escape.
      diags_.report(DiagId::BackslashKept, loc, next).step(step_);
    }
    out.push_back(c);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Quantities and well sets
//===----------------------------------------------------------------------===//

ast::QuantityExpr
AstBuilder::literalQuantity(PlateParser::LiteralQuantityContext *ctx) {
  ast::QuantityExpr q;
  q.loc = locator_.span(ctx);
  visitAlternative(
      ctx,
      Overloaded{
          [&](PlateParser::NumberQuantityContext *num) {
            if (num->COLON()) {
              q.kind = ast::QuantityExpr::Kind::ColonRatio;
              double left = number(num->NUMBER(0)->getSymbol());
              double right = number(num->NUMBER(1)->getSymbol());
              // `1:20` is a factor of 20; `2:5` a factor of 2.5. A zero
              // left side is kept as 0 for Sema to reject as a ratio that
              // is not above 1.
              q.value = left != 0 ? right / left : 0;
              q.text = num->getText();
              return;
            }
            q.kind = ast::QuantityExpr::Kind::Number;
            q.text = num->NUMBER(0)->getText();
            q.value = number(num->NUMBER(0)->getSymbol());
            if (auto *unit = num->unit()) {
              // Concatenate the atoms: `ug / mL` and `° C` keep their
              // letters but not the blanks, so Sema sees one spelling.
              q.unit = unitText(unit);
              q.unitLoc = locator_.span(unit);
            }
          },
          [&](PlateParser::RoomTempContext *room) {
            q.kind = ast::QuantityExpr::Kind::RoomTemp;
            // `room temperature` may be written with any blanks between
            // the words.
            std::string text;
            for (size_t i = 0; i < room->children.size(); ++i) {
              if (i)
                text += " ";
              text += room->children[i]->getText();
            }
            q.text = text;
          },
          [&](PlateParser::OvernightContext *overnight) {
            q.kind = ast::QuantityExpr::Kind::Overnight;
            q.text = overnight->getText();
          },
      });
  return q;
}

ast::QuantityExpr AstBuilder::quantity(PlateParser::QuantityContext *ctx) {
  if (auto *literal = ctx->literalQuantity())
    return literalQuantity(literal);
  ast::QuantityExpr q;
  q.kind = ast::QuantityExpr::Kind::Param;
  q.loc = locator_.span(ctx);
  q.param = ctx->IDENT()->getText();
  q.text = q.param;
  return q;
}

ast::WellItem AstBuilder::wellItem(PlateParser::WellItemContext *ctx) {
  ast::WellItem item;
  item.loc = locator_.span(ctx);
  using K = ast::WellItem::Kind;
  visitAlternative(
      ctx, Overloaded{
               [&](PlateParser::WellOrBlockContext *w) {
                 item.a = w->WELL(0)->getText();
                 if (w->RANGE()) {
                   item.kind = K::Block;
                   item.b = w->WELL(1)->getText();
                 } else {
                   item.kind = K::Well;
                 }
               },
               [&](PlateParser::RowItemContext *r) {
                 item.kind = K::Row;
                 item.a = r->IDENT()->getText();
               },
               [&](PlateParser::RowsItemContext *rs) {
                 item.kind = K::Rows;
                 item.a = rs->IDENT(0)->getText();
                 item.b = rs->IDENT(1)->getText();
               },
               [&](PlateParser::ColItemContext *c) {
                 item.kind = K::Col;
                 item.a = c->NUMBER()->getText();
               },
               [&](PlateParser::ColsItemContext *cs) {
                 item.kind = K::Cols;
                 item.a = cs->NUMBER(0)->getText();
                 item.b = cs->NUMBER(1)->getText();
               },
               [&](PlateParser::AllItemContext *all) {
                 item.kind = K::All;
                 item.a = all->getText();
               },
               [&](PlateParser::ExplicitWellContext *e) {
                 item.kind = K::Well;
                 item.a = e->WELL()->getText();
                 item.wellWord = true;
               },
               [&](PlateParser::RoleNameItemContext *rn) {
                 item.kind = K::Name;
                 item.a = rn->wellSetName()->getText();
                 item.role = rn->role()->getText();
               },
               [&](PlateParser::NameRangeItemContext *nr) {
                 item.kind = K::NameRange;
                 item.a = nr->name(0)->getText();
                 item.b = nr->name(1)->getText();
               },
               [&](PlateParser::NameItemContext *n) {
                 item.kind = K::Name;
                 item.a = n->name()->getText();
               },
           });
  return item;
}

ast::WellSetExpr AstBuilder::wellSet(PlateParser::WellSetContext *ctx) {
  ast::WellSetExpr set;
  set.loc = locator_.span(ctx);
  size_t exceptIndex = ctx->EXCEPT() ? ctx->EXCEPT()->getSymbol()->getTokenIndex()
                                     : static_cast<size_t>(-1);
  for (auto *itemCtx : ctx->wellSetItem()) {
    std::vector<ast::WellItem> &into =
        itemCtx->getStart()->getTokenIndex() > exceptIndex ? set.except : set.items;
    visitAlternative(
        itemCtx,
        Overloaded{
            [&](PlateParser::SingleItemContext *single) {
              into.push_back(wellItem(single->wellItem()));
            },
            // `cols 1, 2, 5..7`: one item per column or span, as if
            // written `col 1, col 2, cols 5..7`.
            [&](PlateParser::ColsListContext *list) {
              for (auto *span : list->colSpan()) {
                ast::WellItem item;
                item.loc = locator_.span(span);
                item.a = span->NUMBER(0)->getText();
                item.kind = span->RANGE() ? ast::WellItem::Kind::Cols : ast::WellItem::Kind::Col;
                if (span->RANGE())
                  item.b = span->NUMBER(1)->getText();
                into.push_back(std::move(item));
              }
            },
        });
  }
  // `except col 1` alone means every layout well except column 1; Sema sees
  // the same tree as for `all except col 1`.
  if (set.items.empty()) {
    ast::WellItem all;
    all.kind = ast::WellItem::Kind::All;
    all.loc = locator_.loc(ctx->EXCEPT()->getSymbol());
    all.a = "all";
    set.items.push_back(std::move(all));
  }
  return set;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

static std::optional<ast::ParamType> paramTypeOf(llvm::StringRef text) {
  using T = ast::ParamType;
  static const std::pair<const char *, T> kTypes[] = {
      {"Volume", T::Volume},       {"Time", T::Time},
      {"Temperature", T::Temperature}, {"Speed", T::Speed},
      {"Wavelength", T::Wavelength}, {"Count", T::Count},
      {"Reagent", T::Reagent},     {"Wells", T::Wells},
  };
  for (auto &[spelling, type] : kTypes)
    if (text.equals_insensitive(spelling))
      return type;
  return std::nullopt;
}

ast::Statement AstBuilder::statement(PlateParser::StatementContext *ctx) {
  ast::Statement stmt;
  stmt.loc = locator_.loc(ctx->getStart());
  stmt.kind = visitAlternative(ctx, Overloaded{
      [&](PlateParser::DispenseStmtContext *d) -> ast::StatementKind {
        ast::Dispense node;
        node.volume = quantity(d->volume()->quantity());
        auto *source = d->dispenseSource();
        node.source = {source->getText(), locator_.span(source)};
        node.sourceIsLayout = source->LAYOUT() != nullptr;
        std::vector<PlateParser::NameRangeContext *> ranges;
        if (auto *names = source->sourceNames())
          ranges = names->nameRange();
        if (ranges.size() > 1 || (ranges.size() == 1 && ranges[0]->RANGE())) {
          std::vector<std::string> written;
          for (auto *range : ranges) {
            node.sourceNames.push_back(nameRange(range));
            written.push_back(range->getText());
          }
          node.source.text = fmt::format("{}", fmt::join(written, ", "));
        }
        if (d->wellSet())
          node.wells = wellSet(d->wellSet());
        if (auto *mix = d->mixClause())
          node.mix = mixClause(mix);
        return node;
      },
      [&](PlateParser::AspirateStmtContext *a) -> ast::StatementKind {
        ast::Aspirate node;
        if (a->volume())
          node.volume = quantity(a->volume()->quantity());
        else
          node.allLoc = locator_.loc(a->ALL()->getSymbol());
        node.wells = wellSet(a->wellSet());
        node.toWaste = a->WASTE() != nullptr;
        return node;
      },
      [&](PlateParser::WashStmtContext *w) -> ast::StatementKind {
        ast::Wash node;
        node.count = quantity(w->count()->quantity());
        node.volume = quantity(w->volume()->quantity());
        node.reagent = name(w->liquidName());
        if (w->duration())
          node.soak = quantity(w->duration()->quantity());
        if (w->wellSet())
          node.wells = wellSet(w->wellSet());
        return node;
      },
      [&](PlateParser::IncubateStmtContext *inc) -> ast::StatementKind {
        ast::Incubate node;
        node.time = quantity(inc->duration()->quantity());
        bool sawLid = false;
        for (auto *option : inc->incubateOption())
          visitAlternative(option, Overloaded{
              [&](PlateParser::IncubateAtContext *at) {
                clauseOnce(node.temperature, at->AT()->getSymbol(),
                           [&] { return quantity(at->temperature()->quantity()); });
              },
              [&](PlateParser::IncubateShakingContext *shaking) {
                clauseOnce(node.shaking, shaking->SHAKING()->getSymbol(),
                           [&] { return quantity(shaking->speed()->quantity()); });
              },
              [&](PlateParser::IncubateLidContext *lid) {
                if (sawLid)
                  duplicateClause(lid->getStart());
                sawLid = true;
                // `lid off`, `without` is not a form: only OFF, UNCOVERED
                // and UNSEALED take the lid off.
                node.lidOn = !(lid->OFF() || lid->UNCOVERED() || lid->UNSEALED());
                node.lidLoc = locator_.span(lid);
                node.lidText = writtenText(lid);
              },
              [&](PlateParser::IncubateDarkContext *dark) {
                if (node.dark)
                  duplicateClause(dark->getStart());
                node.dark = true;
              },
          });
        return node;
      },
      [&](PlateParser::ShakeStmtContext *s) -> ast::StatementKind {
        return ast::Shake{quantity(s->duration()->quantity()),
                          quantity(s->speed()->quantity())};
      },
      [&](PlateParser::MixStmtContext *m) -> ast::StatementKind {
        return ast::Mix{quantity(m->count()->quantity()),
                        quantity(m->volume()->quantity()), wellSet(m->wellSet())};
      },
      [&](PlateParser::TransferStmtContext *t) -> ast::StatementKind {
        ast::Transfer node{quantity(t->volume()->quantity()), wellSet(t->wellSet(0)),
                           wellSet(t->wellSet(1)), std::nullopt};
        if (auto *mix = t->mixClause())
          node.mix = mixClause(mix);
        return node;
      },
      [&](PlateParser::SerialDilutionStmtContext *s) -> ast::StatementKind {
        ast::SerialDilution node;
        node.ratio = quantity(s->ratio()->quantity());
        node.down = s->DOWN() != nullptr;
        node.wells = wellSet(s->wellSet());
        node.volume = quantity(s->volume()->quantity());
        for (auto *option : s->seriesOption())
          visitAlternative(option, Overloaded{
              [&](PlateParser::SeriesDiluentContext *with) {
                clauseOnce(node.diluent, with->WITH()->getSymbol(),
                           [&] { return name(with->name()); });
              },
              [&](PlateParser::SeriesMixContext *mix) {
                clauseOnce(node.mix, mix->getStart(),
                           [&] { return mixClause(mix->mixClause()); });
              },
              [&](PlateParser::SeriesDiscardContext *discard) {
                if (node.discard)
                  duplicateClause(discard->getStart());
                node.discard = true;
              },
          });
        return node;
      },
      [&](PlateParser::MagnetStmtContext *mg) -> ast::StatementKind {
        return ast::Magnet{quantity(mg->duration()->quantity())};
      },
      [&](PlateParser::AbsorbanceStmtContext *r) -> ast::StatementKind {
        ast::ReadAbsorbance node;
        node.wavelength = quantity(r->wavelength(0)->quantity());
        if (r->REFERENCE())
          node.reference = quantity(r->wavelength(1)->quantity());
        if (r->wellSet())
          node.wells = wellSet(r->wellSet());
        return node;
      },
      [&](PlateParser::FluorescenceStmtContext *f) -> ast::StatementKind {
        ast::ReadFluorescence node;
        node.excitation = quantity(f->wavelength(0)->quantity());
        node.emission = quantity(f->wavelength(1)->quantity());
        if (f->wellSet())
          node.wells = wellSet(f->wellSet());
        return node;
      },
      [&](PlateParser::AnalyzeStmtContext *an) -> ast::StatementKind {
        ast::Analyze node;
        antlr4::tree::TerminalNode *kind = an->COMPETITIVE() ? an->COMPETITIVE()
                                           : an->CUTOFF()    ? an->CUTOFF()
                                                             : an->STANDARD_CURVE();
        node.kind = an->COMPETITIVE() ? ast::Analyze::Kind::Competitive
                    : an->CUTOFF()    ? ast::Analyze::Kind::Cutoff
                                      : ast::Analyze::Kind::StandardCurve;
        node.kindLoc = locator_.loc(kind->getSymbol());
        node.model = an->FOURPL() ? ast::Analyze::Model::FourPL
                                  : ast::Analyze::Model::Linear;
        if (an->wavelength())
          node.wavelength = quantity(an->wavelength()->quantity());
        node.subtractBlank = an->SUBTRACT() != nullptr;
        return node;
      },
      [&](PlateParser::WaitStmtContext *wt) -> ast::StatementKind {
        return ast::Wait{quantity(wt->duration()->quantity())};
      },
      [&](PlateParser::PauseStmtContext *p) -> ast::StatementKind {
        return ast::Pause{unquote(p->STRING()->getSymbol())};
      },
      [&](PlateParser::NoteStmtContext *n) -> ast::StatementKind {
        return ast::Note{unquote(n->STRING()->getSymbol())};
      },
      [&](PlateParser::UseStmtContext *u) -> ast::StatementKind {
        return ast::Use{unquote(u->STRING()->getSymbol()),
                        locator_.loc(u->STRING()->getSymbol())};
      },
      [&](PlateParser::PrepareStmtContext *pr) -> ast::StatementKind {
        ast::Prepare node;
        for (auto *range : pr->nameRange()) {
          if (range == pr->nameRange(0))
            node.names = nameRange(range);
          else
            node.moreNames.push_back(nameRange(range));
        }
        for (auto *option : pr->prepareOption())
          visitAlternative(option, Overloaded{
              [&](PlateParser::PrepareFromContext *from) {
                clauseOnce(node.from, from->FROM()->getSymbol(),
                           [&] { return unquote(from->STRING()->getSymbol()); });
              },
              [&](PlateParser::PrepareDiluteContext *dilute) {
                clauseOnce(node.dilute, dilute->DILUTE()->getSymbol(),
                           [&] { return quantity(dilute->ratio()->quantity()); });
              },
              [&](PlateParser::PrepareVolumeContext *volume) {
                clauseOnce(node.volume, volume->getStart(),
                           [&] { return quantity(volume->volume()->quantity()); });
              },
          });
        return node;
      },
      [&](PlateParser::EquilibrateStmtContext *e) -> ast::StatementKind {
        ast::Equilibrate node;
        if (e->REAGENTS_WORD()) {
          node.allReagents = true;
          Token *first = e->ALL() ? e->ALL()->getSymbol() : e->REAGENTS_WORD()->getSymbol();
          node.reagentsLoc = locator_.span(first, e->REAGENTS_WORD()->getSymbol());
          node.reagentsText = e->ALL() ? "all reagents" : "reagents";
        } else {
          node.wells = wellSet(e->wellSet());
        }
        node.temperature = quantity(e->temperature()->quantity());
        if (e->duration())
          node.time = quantity(e->duration()->quantity());
        return node;
      },
      [&](PlateParser::CallStmtContext *c) -> ast::StatementKind { return call(c); },
  });
  return stmt;
}

ast::Call AstBuilder::call(PlateParser::CallStmtContext *ctx) {
  ast::Call node;
  node.callee = name(ctx->IDENT());
  for (auto *argCtx : ctx->callArg()) {
    ast::Arg arg;
    arg.loc = locator_.span(argCtx);
    if (argCtx->literalQuantity()) {
      arg.quantity = literalQuantity(argCtx->literalQuantity());
    } else {
      ast::WellSetExpr set;
      set.loc = arg.loc;
      auto items = argCtx->wellItem();
      set.items.push_back(wellItem(items[0]));
      if (items.size() > 1)
        set.except.push_back(wellItem(items[1]));
      // A bare name may be a parameter-like value (a reagent, or a
      // quantity parameter passed on); Sema picks by the callee's type.
      if (set.except.empty() &&
          (set.items[0].kind == ast::WellItem::Kind::Name ||
           (set.items[0].kind == ast::WellItem::Kind::Well && !set.items[0].wellWord)) &&
          set.items[0].role.empty()) {
        ast::QuantityExpr q;
        q.kind = ast::QuantityExpr::Kind::Param;
        q.loc = arg.loc;
        q.param = set.items[0].a;
        q.text = q.param;
        arg.quantity = std::move(q);
      }
      arg.wells = std::move(set);
    }
    node.args.push_back(std::move(arg));
  }
  return node;
}

namespace {
bool isMark(const Token *token) {
  int type = token->getType();
  return type == PlateLexer::DOT || type == PlateLexer::RPAREN || type == PlateLexer::COLON;
}

bool adjacent(const Token *before, const Token *after) {
  return after->getStartIndex() == before->getStopIndex() + 1;
}

/// A word label as statement lines allow it: `iv.`, `b)`, `Step C:`,
/// `(iii)`, `(2)`. Any word is taken here, as the grammar takes it; the
/// builder checks that it is a letter or a Roman numeral (E115).
size_t wordLabelLength(const std::vector<Token *> &line) {
  size_t i = 0;
  if (line.size() >= 3 && line[0]->getType() == PlateLexer::LPAREN &&
      (line[1]->getType() == PlateLexer::IDENT || line[1]->getType() == PlateLexer::NUMBER) &&
      line[2]->getType() == PlateLexer::RPAREN)
    return 3;
  if (i < line.size() && line[i]->getType() == PlateLexer::STEP)
    ++i;
  if (i + 1 < line.size() &&
      (line[i]->getType() == PlateLexer::IDENT || line[i]->getType() == PlateLexer::WELL) &&
      isMark(line[i + 1]) && adjacent(line[i], line[i + 1]))
    return i + 2;
  return 0;
}
} // namespace

bool isLabelWord(std::string_view word) {
  if (word.size() == 1)
    return std::isalpha(static_cast<unsigned char>(word[0])) != 0;
  // A part's letter and a step's number: `M1` (manual part), `R2` (robot
  // part), `A3`. One or two capitals, then up to three digits.
  size_t letters = 0;
  while (letters < word.size() && std::isupper(static_cast<unsigned char>(word[letters])))
    ++letters;
  size_t digits = word.size() - letters;
  if (letters >= 1 && letters <= 2 && digits >= 1 && digits <= 3 &&
      std::all_of(word.begin() + static_cast<std::ptrdiff_t>(letters), word.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }))
    return true;
  // A Roman numeral up to 39 in one case: kit inserts do not number further.
  bool lower = std::all_of(word.begin(), word.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
  bool upper = std::all_of(word.begin(), word.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); });
  if (!lower && !upper)
    return false;
  std::string folded(word);
  for (char &c : folded)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const char *const tens[] = {"", "x", "xx", "xxx"};
  static const char *const units[] = {"", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"};
  for (const char *ten : tens)
    for (const char *unit : units)
      if (folded == std::string(ten) + unit)
        return !folded.empty();
  return false;
}

size_t clockLabelLength(const std::vector<Token *> &line) {
  if (line.size() >= 3 && line[0]->getType() == PlateLexer::NUMBER &&
      line[1]->getType() == PlateLexer::COLON && line[2]->getType() == PlateLexer::NUMBER &&
      adjacent(line[0], line[1]) && adjacent(line[1], line[2]))
    return 3;
  return 0;
}

std::optional<std::string> clockLabelText(std::string_view hours, std::string_view minutes) {
  auto allDigits = [](std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  };
  if (hours.size() > 2 || minutes.size() != 2 || !allDigits(hours) || !allDigits(minutes))
    return std::nullopt;
  int h = std::stoi(std::string(hours)), m = std::stoi(std::string(minutes));
  if (h > 23 || m > 59)
    return std::nullopt;
  return std::string(hours) + ":" + std::string(minutes);
}

size_t stepLabelLength(const std::vector<Token *> &line, bool markRequired) {
  if (!markRequired) {
    if (size_t length = clockLabelLength(line))
      return length;
    if (size_t length = wordLabelLength(line))
      return length;
  }
  size_t i = 0;
  if (i < line.size() && line[i]->getType() == PlateLexer::STEP)
    ++i;
  size_t numbers = i;
  while (i < line.size() && line[i]->getType() == PlateLexer::NUMBER)
    ++i;
  if (i == numbers)
    return 0;
  if (i < line.size() && line[i]->getType() == PlateLexer::IDENT && adjacent(line[i - 1], line[i]))
    ++i;
  if (i < line.size() && isMark(line[i]))
    return i + 1;
  return markRequired ? 0 : i;
}

std::optional<std::string> stepLabelText(const std::vector<Token *> &tokens) {
  std::string text;
  for (size_t k = 0; k < tokens.size(); ++k) {
    if (k > 0 && tokens[k]->getStartIndex() != tokens[k - 1]->getStopIndex() + 1)
      return std::nullopt;
    text += tokens[k]->getText();
  }
  // digits ( `.` digits )* [letter]
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      ++i;
    return i > start;
  };
  if (!digits())
    return std::nullopt;
  while (i < text.size() && text[i] == '.') {
    ++i;
    if (!digits())
      return std::nullopt;
  }
  if (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])))
    ++i;
  if (i != text.size())
    return std::nullopt;
  return text;
}

std::string writtenText(antlr4::tree::ParseTree *tree) {
  std::string text;
  const Token *previous = nullptr;
  std::function<void(antlr4::tree::ParseTree *)> collect = [&](antlr4::tree::ParseTree *node) {
    if (auto *terminal = dynamic_cast<TerminalNode *>(node)) {
      const Token *token = terminal->getSymbol();
      if (previous && token->getStartIndex() != previous->getStopIndex() + 1)
        text += ' ';
      text += token->getText();
      previous = token;
      return;
    }
    for (auto *child : node->children)
      collect(child);
  };
  collect(tree);
  return text;
}

std::string AstBuilder::stepLabel(PlateParser::StepLabelContext *label) {
  if (auto *clock = label->clockLabel()) {
    std::vector<Token *> tokens = {clock->NUMBER(0)->getSymbol(), clock->COLON()->getSymbol(),
                                   clock->NUMBER(1)->getSymbol()};
    std::optional<std::string> text;
    if (clockLabelLength(tokens))
      text = clockLabelText(tokens[0]->getText(), tokens[2]->getText());
    if (text)
      return *text;
    diags_.report(DiagId::BadStepLabel, locator_.span(label), writtenText(label))
        .step(clock->getText());
    return clock->getText();
  }
  if (auto *number = label->labelNumber())
    return stepLabel(number, label);
  std::string word = label->labelWord()->getText();
  if (isLabelWord(word))
    return word;
  diags_.report(DiagId::BadStepLabel, locator_.span(label), writtenText(label)).step(word);
  return word;
}

std::string AstBuilder::stepLabel(PlateParser::LabelNumberContext *number,
                                  antlr4::ParserRuleContext *label) {
  std::vector<Token *> tokens;
  for (auto *node : number->NUMBER())
    tokens.push_back(node->getSymbol());
  if (number->IDENT())
    tokens.push_back(number->IDENT()->getSymbol());
  if (std::optional<std::string> text = stepLabelText(tokens))
    return *text;
  diags_.report(DiagId::BadStepLabel, locator_.span(label), writtenText(label))
      .step(number->getText());
  return number->getText();
}

StatementLine
AstBuilder::statementLine(PlateParser::StatementLineContext *ctx) {
  StatementLine line;
  step_.clear();
  if (auto *label = ctx->stepLabel())
    step_ = stepLabel(label);

  if (ctx->RBRACE()) {
    line.kind = StatementLine::Kind::BlockClose;
    line.braceLoc = locator_.loc(ctx->RBRACE()->getSymbol());
    if (ctx->stepLabel())
      diags_.report(DiagId::LabelBeforeClose, locator_.span(ctx->stepLabel()))
          .step(step_);
    return line;
  }

  ast::Statement &stmt = line.statement;
  if (auto *repeat = ctx->repeatHeader()) {
    line.kind = StatementLine::Kind::BlockOpen;
    stmt.loc = locator_.loc(repeat->getStart());
    ast::Repeat node;
    node.count = quantity(repeat->count()->quantity());
    stmt.kind = std::move(node);
    line.braceLoc = locator_.loc(repeat->LBRACE()->getSymbol());
    line.blockName = "repeat";
  } else if (auto *proc = ctx->procHeader()) {
    line.kind = StatementLine::Kind::BlockOpen;
    stmt.loc = locator_.loc(proc->getStart());
    ast::ProcDef node;
    node.name = name(proc->IDENT());
    for (auto *paramCtx : proc->param()) {
      ast::Param param;
      param.name = name(paramCtx->IDENT());
      param.typeLoc = locator_.span(paramCtx->paramType());
      std::string typeText = paramCtx->paramType()->getText();
      if (auto type = paramTypeOf(typeText)) {
        param.type = *type;
      } else {
        param.type = ast::ParamType::Wells;
        std::string hint = closestMatch(
            typeText, {"Volume", "Time", "Temperature", "Speed", "Wavelength",
                       "Count", "Reagent", "Wells"});
        auto diag = diags_.report(DiagId::UnknownParamType, param.typeLoc, typeText);
        diag.step(step_);
        if (!hint.empty())
          diag.suggest(hint);
      }
      node.params.push_back(std::move(param));
    }
    line.blockName = "proc " + node.name.text;
    stmt.kind = std::move(node);
    line.braceLoc = locator_.loc(proc->LBRACE()->getSymbol());
  } else {
    stmt = statement(ctx->statement());
  }
  stmt.stepLabel = step_;
  if (auto *tips = ctx->tipsClause()) {
    stmt.tipsLoc = locator_.span(tips);
    if (tips->NEW())
      stmt.tips = ast::TipPolicy::New;
    else if (tips->PER_SOURCE())
      stmt.tips = ast::TipPolicy::PerSource;
    else if (tips->PER_WELL())
      stmt.tips = ast::TipPolicy::PerWell;
    else
      stmt.tips = ast::TipPolicy::Reuse;
  }
  return line;
}

//===----------------------------------------------------------------------===//
// LAYOUT, REAGENTS, PLATFORM
//===----------------------------------------------------------------------===//

void AstBuilder::layoutLine(PlateParser::LayoutLineContext *ctx,
                            ast::Layout &layout) {
  step_.clear();
  if (auto *label = ctx->lineLabel())
    step_ = stepLabel(label->labelNumber(), label);
  visitAlternative(ctx->layoutStatement(),
                   Overloaded{
                       [&](PlateParser::PlateLineContext *c) { plateLine(c, layout); },
                       [&](PlateParser::RoleLineContext *c) { roleLine(c, layout); },
                       [&](PlateParser::GridHeaderContext *c) { gridHeader(c, layout); },
                       [&](PlateParser::GridRowContext *c) { gridRow(c, layout); },
                   });
}

void AstBuilder::plateLine(PlateParser::PlateLineContext *plate, ast::Layout &layout) {
  if (layout.plateType) {
    diags_.report(DiagId::SecondPlateLine, locator_.loc(plate->PLATE()->getSymbol()))
        .note(layout.plateType->loc, "the plate type is given here");
    return;
  }
  layout.plateType = name(plate->name());
}

void AstBuilder::roleLine(PlateParser::RoleLineContext *roleCtx, ast::Layout &layout) {
  ast::RoleLine role;
  role.loc = locator_.loc(roleCtx->getStart());
  auto *r = roleCtx->role();
  role.role = r->BLANK()       ? ast::Role::Blank
              : r->SAMPLE()    ? ast::Role::Sample
              : r->CONTROL()   ? ast::Role::Control
              : r->NSB()       ? ast::Role::Nsb
              : r->BMAX()      ? ast::Role::Bmax
              : r->CUTOFF()    ? ast::Role::Cutoff
                               : ast::Role::Calibrant;
  role.roleLoc = locator_.span(r);
  if (auto *polarity = roleCtx->polarity()) {
    role.polarity = polarity->POSITIVE() ? ast::Polarity::Positive : ast::Polarity::Negative;
    role.polarityLoc = locator_.span(polarity);
  }
  for (auto *range : roleCtx->nameRange()) {
    ast::NameRange names = nameRange(range);
    if (range == roleCtx->nameRange(0))
      role.names = std::move(names);
    else
      role.moreNames.push_back(std::move(names));
  }
  for (auto *clause : roleCtx->roleClause())
    visitAlternative(clause, Overloaded{
        [&](PlateParser::AtClauseContext *at) {
          clauseOnce(role.wells, at->AT()->getSymbol(), [&] { return wellSet(at->wellSet()); });
        },
        [&](PlateParser::ConcClauseContext *conc) {
          clauseOnce(role.conc, conc->CONC()->getSymbol(), [&] {
            ast::ConcList list;
            list.loc = locator_.span(conc);
            for (auto *value : conc->NUMBER()) {
              list.values.push_back(number(value->getSymbol()));
              list.valueLocs.push_back(locator_.loc(value->getSymbol()));
            }
            list.unit = unitText(conc->unit());
            list.unitLoc = locator_.span(conc->unit());
            return list;
          });
        },
        [&](PlateParser::ReplicatesClauseContext *rep) {
          clauseOnce(role.replicates, rep->REPLICATES()->getSymbol(), [&] {
            role.down = rep->DOWN() != nullptr;
            return quantity(rep->count()->quantity());
          });
        },
        [&](PlateParser::SeriesClauseContext *series) {
          clauseOnce(role.series, series->SERIES()->getSymbol(), [&] {
            ast::SeriesClause node;
            node.loc = locator_.span(series);
            node.ratio = quantity(series->ratio()->quantity());
            if (series->FROM()) {
              ast::ConcList top;
              top.loc = locator_.span(series->NUMBER()->getSymbol(), series->unit()->getStop());
              top.values.push_back(number(series->NUMBER()->getSymbol()));
              top.valueLocs.push_back(locator_.loc(series->NUMBER()->getSymbol()));
              top.unit = unitText(series->unit());
              top.unitLoc = locator_.span(series->unit());
              node.top = std::move(top);
            }
            return node;
          });
        },
        [&](PlateParser::DilutionClauseContext *dil) {
          clauseOnce(role.dilution, dil->DILUTION()->getSymbol(),
                     [&] { return quantity(dil->ratio()->quantity()); });
        },
    });
  layout.roles.push_back(std::move(role));
}

void AstBuilder::gridHeader(PlateParser::GridHeaderContext *header, ast::Layout &layout) {
  if (layout.grid) {
    diags_.report(DiagId::SecondGridHeader, locator_.span(header))
        .note(layout.grid->loc, "the grid starts here");
    return;
  }
  ast::Grid grid;
  grid.loc = locator_.span(header);
  for (auto *column : header->NUMBER()) {
    std::string text = column->getText();
    SourceLoc loc = locator_.loc(column->getSymbol());
    char *end = nullptr;
    unsigned long value = std::strtoul(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || text[0] == '-' || value == 0 ||
        value > 1000) {
      diags_.report(DiagId::BadGridColumn, loc, text);
      value = 0;
    }
    grid.columns.push_back(static_cast<unsigned>(value));
    grid.columnLocs.push_back(loc);
  }
  layout.grid = std::move(grid);
}

void AstBuilder::gridRow(PlateParser::GridRowContext *row, ast::Layout &layout) {
  ast::Name rowName = name(row->IDENT());
  if (!layout.grid) {
    diags_.report(DiagId::GridRowBeforeHeader, rowName.loc, rowName.text);
    return;
  }
  ast::GridRow gridRow;
  gridRow.row = rowName;
  for (auto *cell : row->gridCell())
    gridRow.cells.push_back({cell->getText(), locator_.span(cell)});
  layout.grid->rows.push_back(std::move(gridRow));
}

ast::ReagentDecl
AstBuilder::reagentLine(PlateParser::ReagentLineContext *ctx) {
  step_.clear();
  if (auto *label = ctx->lineLabel())
    stepLabel(label->labelNumber(), label); // checked; reagent lines carry no step
  auto *decl = ctx->reagentDecl();
  ast::ReagentDecl reagent;
  reagent.names = nameRange(decl->nameRange());
  // A word after the names continues the list when a comma or `..` says so
  // or when it is the next member of the family (`Stock1 Stock2`); the
  // first other word starts the flags (`tmb light_sensitive`).
  bool inFlags = false;
  std::string previous = reagent.names.last ? reagent.names.last->text : reagent.names.first.text;
  for (auto *more : decl->moreReagentName()) {
    ast::NameRange names = nameRange(more->nameRange());
    bool listed = !inFlags && (more->COMMA() || names.last ||
                               layout::sameNameFamily(previous, names.first.text));
    if (!listed) {
      inFlags = true;
      reagent.flags.push_back(names.first);
      if (names.last)
        reagent.flags.push_back(*names.last);
      continue;
    }
    previous = names.last ? names.last->text : names.first.text;
    reagent.moreNames.push_back(std::move(names));
  }
  if (decl->literalQuantity())
    reagent.volume = literalQuantity(decl->literalQuantity());
  if (auto *pos = decl->reservoirPos()) {
    reagent.positionLoc = locator_.span(pos);
    auto whole = [&](TerminalNode *node) -> unsigned {
      std::string text = node->getText();
      char *end = nullptr;
      unsigned long value = std::strtoul(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || text[0] == '-' || value > 1000) {
        diags_.report(DiagId::BadReservoirNumber, locator_.loc(node->getSymbol()), text);
        return 0;
      }
      return static_cast<unsigned>(value);
    };
    reagent.position = {whole(pos->NUMBER(0)), whole(pos->NUMBER(1))};
  }
  for (auto *flag : decl->reagentFlag())
    reagent.flags.push_back({flag->getText(), locator_.span(flag)});
  return reagent;
}

ast::Name AstBuilder::platformLine(PlateParser::PlatformLineContext *ctx) {
  return name(ctx->name());
}

} // namespace plate::frontend
