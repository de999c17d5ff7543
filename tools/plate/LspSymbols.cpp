//===- LspSymbols.cpp - The outline: sections, steps, declarations --------===//
#include "tools/plate/LspAnalysis.h"

#include "ir/Utf16.h"

#include <algorithm>
#include <functional>

namespace plate::lsp {

namespace {

// LSP's SymbolKind.
constexpr int kSymbolNamespace = 3, kSymbolFunction = 12, kSymbolVariable = 13,
              kSymbolConstant = 14, kSymbolString = 15, kSymbolEvent = 24;

std::string_view sectionTag(ast::SectionKind kind) {
  return kind == ast::SectionKind::Manual ? "MANUAL" : "INSTRUMENT";
}

} // namespace

Json Analysis::documentSymbols() const {
  const ast::Script &script = compilation_->script();
  const SourceManager &sources = compilation_->sources();
  auto lineRange = [&](uint32_t first, uint32_t last) {
    uint32_t end = utf16Length(sources.lineText(fileId_, last));
    return Json{{"start", {{"line", first - 1}, {"character", 0}}},
                {"end", {{"line", last - 1}, {"character", end}}}};
  };
  auto symbol = [&](std::string name, std::string detail, int kind, uint32_t first, uint32_t last,
                    SourceLoc selection, Json children) {
    Json whole = lineRange(first, std::max(first, last));
    Json selected = selection.isValid() && selection.fileId == fileId_ ? range(selection)
                                                                       : lineRange(first, first);
    if (name.empty())
      name = "(unnamed)"; // LSP requires a non-empty name
    Json json{{"name", std::move(name)}, {"kind", kind}, {"range", whole},
              {"selectionRange", selected}};
    if (!detail.empty())
      json["detail"] = std::move(detail);
    if (!children.empty())
      json["children"] = std::move(children);
    return json;
  };
  Json list = Json::array();
  if (script.title && script.titleLoc.isValid() && script.titleLoc.fileId == fileId_)
    list.push_back(symbol("KIT_TITLE", *script.title, kSymbolString, script.titleLoc.line,
                          script.titleLoc.line, script.titleLoc, Json::array()));
  if (script.layout && script.layout->loc.isValid()) {
    Json children = Json::array();
    uint32_t last = script.layout->loc.line;
    for (const ast::RoleLine &line : script.layout->roles) {
      if (!line.loc.isValid() || line.loc.fileId != fileId_)
        continue;
      std::string names = written(line.names.loc);
      children.push_back(symbol(names, written(line.roleLoc), kSymbolConstant,
                                line.loc.line, line.loc.line, line.names.loc, Json::array()));
      last = std::max(last, line.loc.line);
    }
    if (script.layout->grid)
      for (const ast::GridRow &row : script.layout->grid->rows)
        last = std::max(last, row.row.loc.line);
    list.push_back(symbol("LAYOUT", "", kSymbolNamespace, script.layout->loc.line, last,
                          script.layout->loc, std::move(children)));
  }
  if (script.hasReagents && script.reagentsLoc.isValid()) {
    Json children = Json::array();
    uint32_t last = script.reagentsLoc.line;
    for (const ast::ReagentDecl &reagent : script.reagents) {
      const ast::NameRange &names = reagent.names;
      if (!names.loc.isValid() || names.loc.fileId != fileId_)
        continue;
      children.push_back(symbol(names.first.text + (names.last ? ".." + names.last->text : ""),
                                "reagent", kSymbolVariable, names.loc.line, names.loc.line,
                                names.loc, Json::array()));
      last = std::max(last, names.loc.line);
    }
    list.push_back(symbol("REAGENTS", "", kSymbolNamespace, script.reagentsLoc.line, last,
                          script.reagentsLoc, std::move(children)));
  }
  // Steps, with the bodies of repeats and procedures under them.
  std::function<Json(const std::vector<ast::Statement> &, uint32_t &)> steps =
      [&](const std::vector<ast::Statement> &statements, uint32_t &last) {
        Json children = Json::array();
        for (const ast::Statement &statement : statements) {
          if (!statement.loc.isValid() || statement.loc.fileId != fileId_)
            continue;
          uint32_t line = statement.loc.line, end = line;
          Json body = Json::array();
          int kind = kSymbolEvent;
          if (const auto *repeat = std::get_if<ast::Repeat>(&statement.kind))
            body = steps(repeat->body, end);
          if (const auto *proc = std::get_if<ast::ProcDef>(&statement.kind)) {
            body = steps(proc->body, end);
            kind = kSymbolFunction;
          }
          std::string text = trimmedLine(line);
          if (!text.empty() && text.back() == '{') { // `repeat 2 {`: the brace is noise
            text.pop_back();
            text.erase(text.find_last_not_of(" \t") + 1);
          }
          children.push_back(symbol(text, "", kind, line, end, statement.loc, std::move(body)));
          last = std::max(last, end);
        }
        return children;
      };
  for (const ast::Section &section : script.sections) {
    if (!section.loc.isValid() || section.loc.fileId != fileId_)
      continue;
    uint32_t last = section.loc.line;
    Json children = steps(section.statements, last);
    list.push_back(symbol(std::string(sectionTag(section.kind)),
                          section.kind == ast::SectionKind::Manual ? "by a person" : "by the robot",
                          kSymbolNamespace, section.loc.line, last, section.loc,
                          std::move(children)));
  }
  return list;
}

} // namespace plate::lsp
