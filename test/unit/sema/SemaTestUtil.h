//===- SemaTestUtil.h - Build ASTs by hand for Sema unit tests ------------===//
//
// Sema's tests construct ast::Script values directly, so they pin Sema's
// behaviour independently of the grammar. Locations are (line, col) in a
// blank buffer; the tests check codes and positions, not quoted text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/Frontend.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <string>

namespace plate::test {

class SemaTest : public ::testing::Test {
protected:
  SemaTest() : diags(sources) {
    options.stdlibDir = PLATE_STDLIB_DIR;
    file = sources.addBuffer("test.plate", std::string(300, '\n'));
  }

  SourceLoc at(unsigned line, unsigned col = 1) { return {file, line, col, 0}; }

  ast::QuantityExpr q(double value, std::string unit, SourceLoc loc) {
    ast::QuantityExpr expr;
    expr.kind = ast::QuantityExpr::Kind::Number;
    expr.loc = loc;
    expr.value = value;
    expr.text = formatNumber(value);
    expr.unit = std::move(unit);
    expr.unitLoc = {loc.fileId, loc.line, loc.col + 4, 0};
    return expr;
  }
  ast::QuantityExpr p(std::string name, SourceLoc loc) {
    ast::QuantityExpr expr;
    expr.kind = ast::QuantityExpr::Kind::Param;
    expr.loc = loc;
    expr.param = std::move(name);
    return expr;
  }
  ast::QuantityExpr rt(SourceLoc loc) {
    ast::QuantityExpr expr;
    expr.kind = ast::QuantityExpr::Kind::RoomTemp;
    expr.loc = loc;
    return expr;
  }
  ast::QuantityExpr ratio(double factor, SourceLoc loc) {
    ast::QuantityExpr expr;
    expr.kind = ast::QuantityExpr::Kind::ColonRatio;
    expr.loc = loc;
    expr.value = factor;
    expr.text = formatNumber(factor);
    return expr;
  }

  static ast::WellItem item(ast::WellItem::Kind kind, SourceLoc loc, std::string a,
                            std::string b = {}) {
    return {kind, loc, std::move(a), std::move(b)};
  }
  ast::WellSetExpr ws(std::vector<ast::WellItem> items, SourceLoc loc,
                      std::vector<ast::WellItem> except = {}) {
    return {loc, std::move(items), std::move(except)};
  }
  ast::WellSetExpr block(std::string a, std::string b, SourceLoc loc) {
    return ws({item(ast::WellItem::Kind::Block, loc, a, b)}, loc);
  }
  ast::WellSetExpr named(std::string name, SourceLoc loc) {
    return ws({item(ast::WellItem::Kind::Name, loc, name)}, loc);
  }

  ast::Statement stmt(ast::StatementKind kind, SourceLoc loc, std::string label = {}) {
    ast::Statement s;
    s.loc = loc;
    s.stepLabel = std::move(label);
    s.kind = std::move(kind);
    return s;
  }

  ast::RoleLine role(ast::Role kind, std::string first, std::string last,
                     std::optional<ast::WellSetExpr> wells, SourceLoc loc) {
    ast::RoleLine line;
    line.loc = loc;
    line.role = kind;
    line.names.loc = loc;
    line.names.first = {std::move(first), loc};
    if (!last.empty())
      line.names.last = ast::Name{std::move(last), loc};
    line.wells = std::move(wells);
    return line;
  }

  ast::ReagentDecl reagent(std::string name, SourceLoc loc) {
    ast::ReagentDecl decl;
    decl.names.first = {std::move(name), loc};
    decl.names.loc = loc;
    return decl;
  }

  ast::Dispense dispense(double ul, std::string source, SourceLoc loc,
                         std::optional<ast::WellSetExpr> wells = std::nullopt) {
    ast::Dispense d;
    d.volume = q(ul, "uL", loc);
    d.source = {std::move(source), loc};
    d.sourceIsLayout = d.source.text == "layout";
    d.wells = std::move(wells);
    return d;
  }

  /// A script with `plate96`, blank B0 at A1..A2 and samples X1..X4 at
  /// A3..D3, a reagent `buf`, and an INSTRUMENT section.
  ast::Script basic() {
    ast::Script script;
    script.fileId = file;
    script.title = "test";
    ast::Layout layout;
    layout.loc = at(1);
    layout.plateType = ast::Name{"plate96", at(2)};
    layout.roles.push_back(
        role(ast::Role::Blank, "B0", "", block("A1", "A2", at(3, 10)), at(3)));
    layout.roles.push_back(
        role(ast::Role::Sample, "X1", "X4", block("A3", "D3", at(4, 10)), at(4)));
    script.layout = std::move(layout);
    script.reagents.push_back(reagent("buf", at(6)));
    script.hasReagents = true;
    script.sections.push_back({ast::SectionKind::Instrument, at(10), {}});
    return script;
  }
  std::vector<ast::Statement> &body(ast::Script &script) {
    return script.sections.back().statements;
  }

  std::optional<CheckedProgram> check(const ast::Script &script) {
    auto result = checkScript(script, sources, diags, options);
    if (result) {
      std::vector<std::string> problems = ir::verify(result->module);
      EXPECT_TRUE(problems.empty()) << (problems.empty() ? "" : problems.front());
    }
    return result;
  }

  /// Whether a diagnostic with `code` was reported at line:col.
  bool reported(std::string_view code, unsigned line, unsigned col = 1) const {
    for (const Diagnostic &d : diags.diagnostics())
      if (diagInfo(d.id).code == code && d.loc.line == line && d.loc.col == col)
        return true;
    return false;
  }
  std::string all() const {
    std::string out;
    for (const Diagnostic &d : diags.diagnostics())
      out += fmt::format("{}:{}: {} [{}]\n", d.loc.line, d.loc.col, d.message,
                         diagInfo(d.id).code);
    return out;
  }
  const Diagnostic *find(std::string_view code) const {
    for (const Diagnostic &d : diags.diagnostics())
      if (diagInfo(d.id).code == code)
        return &d;
    return nullptr;
  }

  const ir::Liquid *liquid(const ir::Module &module, std::string_view name) {
    for (const ir::Liquid &l : module.liquids)
      if (l.name == name)
        return &l;
    return nullptr;
  }

  SourceManager sources;
  DiagnosticEngine diags;
  FrontendOptions options;
  uint32_t file = 0;
};

} // namespace plate::test
