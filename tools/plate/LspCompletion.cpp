//===- LspCompletion.cpp - Completion: keywords, names and units ----------===//
//
// What may come next is read from the line being typed, which is not in
// the AST yet; the names on offer and the section the line is in come
// from the AST of the last compilation.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/LspAnalysis.h"

#include "frontend/Sema.h"
#include "ir/Units.h"
#include "ir/Utf16.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace plate::lsp {

namespace {

// LSP's CompletionItemKind.
constexpr int kCompletionFunction = 3, kCompletionVariable = 6, kCompletionUnit = 11,
              kCompletionKeyword = 14, kCompletionConstant = 21;

/// Statement words for completion at the start of a step, with the shape
/// each takes (the grammar's statement rule, grammar/PlateParser.g4).
struct KeywordInfo {
  const char *word;
  const char *shape;
};
constexpr KeywordInfo kStatementKeywords[] = {
    {"dispense", "dispense VOLUME of SOURCE [to WELLS] [mix N x [VOLUME]]"},
    {"aspirate", "aspirate VOLUME|all from WELLS [to waste]"},
    {"wash", "wash N times with VOLUME of REAGENT [soak TIME] [WELLS]"},
    {"incubate", "incubate TIME [at TEMPERATURE] [shaking SPEED] [lid on|off] [dark]"},
    {"shake", "shake TIME at SPEED"},
    {"mix", "mix N x VOLUME in WELLS"},
    {"transfer", "transfer VOLUME from WELLS to WELLS [mix N x [VOLUME]]"},
    {"serial_dilution", "serial_dilution 1:N [across|down] WELLS transfer VOLUME [with DILUENT]"},
    {"magnet", "magnet TIME"},
    {"read", "read absorbance at WAVELENGTH [reference WAVELENGTH] [WELLS]"},
    {"analyze", "analyze standard_curve|competitive linear|4pl [at WAVELENGTH] [subtract blank]"},
    {"wait", "wait TIME"},
    {"pause", "pause \"MESSAGE\""},
    {"note", "note \"TEXT\""},
    {"prepare", "prepare REAGENT [from \"STOCK\"] [dilute 1:N] [VOLUME]"},
    {"equilibrate", "equilibrate all reagents|WELLS to TEMPERATURE [for TIME]"},
    {"use", "use \"MODULE\""},
    {"repeat", "repeat N { ... }"},
    {"proc", "proc NAME(PARAM: Type, ...) { ... }"},
};
constexpr const char *kLayoutKeywords[] = {"plate",   "blank", "calibrant", "sample", "control",
                                           "nsb",     "bmax",  "cutoff",    "positive",
                                           "negative"};
constexpr const char *kSectionTags[] = {"<KIT_TITLE>", "<PLATFORM>", "<LAYOUT>",
                                        "<REAGENTS>",  "<MANUAL>",   "<INSTRUMENT>"};

bool isWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

} // namespace

Json Analysis::completion(Position position, const TextDocument &document) const {
  std::string_view line = document.lineText(position.line);
  size_t cursor = std::min(byteOffsetOfUtf16(line, position.character), line.size());
  size_t wordStart = cursor;
  while (wordStart > 0 && isWordChar(line[wordStart - 1]))
    --wordStart;
  std::string_view before = line.substr(0, wordStart);
  size_t lastNonSpace = before.find_last_not_of(" \t");
  std::string_view head = lastNonSpace == std::string_view::npos ? std::string_view{}
                                                                   : before.substr(0, lastNonSpace + 1);

  // Which block the line is in: the last one opened at or before it.
  const ast::Script &script = compilation_->script();
  enum class Block { None, Layout, Reagents, Steps } block = Block::None;
  uint32_t opened = 0, lineNumber = position.line + 1;
  auto consider = [&](SourceLoc loc, Block kind) {
    if (loc.isValid() && loc.fileId == fileId_ && loc.line <= lineNumber && loc.line >= opened) {
      opened = loc.line;
      block = kind;
    }
  };
  if (script.layout)
    consider(script.layout->loc, Block::Layout);
  if (script.hasReagents)
    consider(script.reagentsLoc, Block::Reagents);
  for (const ast::Section &section : script.sections)
    consider(section.loc, Block::Steps);
  bool onOpeningLine = opened == lineNumber;

  Json items = Json::array();
  auto add = [&](std::string label, int kind, std::string detail) {
    items.push_back({{"label", std::move(label)}, {"kind", kind}, {"detail", std::move(detail)}});
  };
  // After a number: a unit.
  if (!head.empty() && std::isdigit(static_cast<unsigned char>(head.back()))) {
    for (const std::string &spelling : unitSpellings())
      if (std::optional<Unit> unit = lookupUnit(spelling))
        add(spelling, kCompletionUnit,
            fmt::format("{} ({})", dimensionName(unitInfo(*unit).dimension), unitInfo(*unit).symbol));
    return items;
  }
  if (!before.empty() && before.back() == '<') {
    for (const char *tag : kSectionTags)
      add(std::string(tag).substr(1), kCompletionKeyword, "section");
    return items;
  }
  // At the start of a line, after an optional step label (`3. `).
  bool atStatementStart =
      head.empty() || std::all_of(head.begin(), head.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == ')' || c == ':';
      });
  if (block == Block::None || (onOpeningLine && head.empty())) {
    for (const char *tag : kSectionTags)
      add(tag, kCompletionKeyword, "section");
    return items;
  }
  if (block == Block::Steps && atStatementStart) {
    for (const KeywordInfo &keyword : kStatementKeywords)
      add(keyword.word, kCompletionKeyword, keyword.shape);
    for (const auto &[name, declaration] : procedures_)
      add(name, kCompletionFunction, "procedure");
    return items;
  }
  if (block == Block::Layout && head.empty()) {
    for (const char *word : kLayoutKeywords)
      add(word, kCompletionKeyword, "layout line");
    return items;
  }
  if (block == Block::Reagents)
    return items; // a new name is being declared
  // Inside a procedure's body (up to the line after its last statement,
  // where the next one is typed): its parameters first.
  for (const auto &[key, declaration] : params_) {
    const ast::ProcDef &proc = *key.first;
    if (proc.name.loc.fileId != fileId_)
      continue;
    uint32_t last = proc.name.loc.line;
    for (const ast::Statement &statement : proc.body)
      last = std::max(last, statement.loc.line);
    if (lineNumber > proc.name.loc.line && lineNumber <= last + 1)
      add(key.second, kCompletionVariable,
          fmt::format("parameter ({})", sema::paramTypeName(declaration.param->type)));
  }
  for (const auto &[name, declaration] : liquids_)
    add(name, declaration.kind == NameKind::Reagent ? kCompletionVariable : kCompletionConstant,
        declaration.kind == NameKind::Reagent ? "reagent"
                                              : written(declaration.roleLine->roleLoc));
  return items;
}

} // namespace plate::lsp
