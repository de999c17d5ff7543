//===- LspAnalysis.cpp ----------------------------------------------------===//
#include "tools/plate/LspAnalysis.h"

#include "frontend/Frontend.h"
#include "frontend/Layout.h"
#include "ir/Utf16.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ostream>
#include <streambuf>

namespace plate::lsp {

namespace {

// LSP's DiagnosticSeverity.
constexpr int kSeverityError = 1, kSeverityWarning = 2, kSeverityInformation = 3;

/// IR printed between passes goes nowhere: the server prints nothing.
class NullBuffer : public std::streambuf {
protected:
  int overflow(int c) override { return c; }
};

} // namespace

std::string pathOfUri(const std::string &uri) {
  constexpr std::string_view kFile = "file://";
  if (uri.compare(0, kFile.size(), kFile) != 0)
    return uri;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  };
  std::string path;
  for (size_t i = kFile.size(); i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      path += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else {
      path += uri[i];
    }
  }
  return path;
}

Analysis::Analysis(std::string uri, const std::string &path, std::string text,
                   const std::string &stdlibDir)
    : uri_(std::move(uri)) {
  CompileOptions options;
  options.input = path;
  options.source = std::move(text);
  options.stdlibDir = stdlibDir;
  options.diagnosticsFormat = DiagnosticsFormat::Collect;
  auto start = std::chrono::steady_clock::now();
  compilation_ = std::make_unique<Compilation>(std::move(options));
  NullBuffer nowhere;
  std::ostream dump(&nowhere);
  compiled_ = compilation_->compile(dump);
  compileMs_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // parse() registers the script first, so it always has a Script, partial
  // after syntax errors.
  fileId_ = compilation_->script().fileId;
  index();
}

Analysis::~Analysis() = default;

//===--- Positions ---------------------------------------------------------===//

Analysis::Located Analysis::locate(Position position) const {
  std::string_view line = compilation_->sources().lineText(fileId_, position.line + 1);
  return {position.line + 1,
          static_cast<uint32_t>(byteOffsetOfUtf16(line, position.character)) + 1};
}

bool Analysis::covers(SourceLoc loc, Located at) const {
  if (!loc.isValid() || loc.fileId != fileId_ || loc.line != at.line || at.byteCol < loc.col)
    return false;
  // The length counts characters; walk them to find the end in bytes. A
  // cursor just after the last character is still on the word, as in
  // every editor.
  std::string_view line = compilation_->sources().lineText(fileId_, loc.line);
  size_t end = loc.col - 1;
  for (uint32_t n = 0; n < std::max<uint32_t>(loc.length, 1) && end < line.size(); ++n)
    end += utf8CharAt(line, end).bytes;
  return at.byteCol - 1 <= end;
}

std::string Analysis::trimmedLine(uint32_t line) const {
  std::string_view text = compilation_->sources().lineText(fileId_, line);
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos)
    return {};
  size_t end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

std::string Analysis::written(SourceLoc loc) const {
  if (!loc.isValid() || loc.fileId != fileId_ || loc.col == 0)
    return {};
  std::string_view line = compilation_->sources().lineText(fileId_, loc.line);
  size_t begin = std::min<size_t>(loc.col - 1, line.size()), end = begin;
  for (uint32_t n = 0; n < loc.length && end < line.size(); ++n)
    end += utf8CharAt(line, end).bytes;
  return std::string(line.substr(begin, end - begin));
}

Json Analysis::range(SourceLoc loc) const {
  std::optional<Utf16Span> span = utf16Span(loc, compilation_->sources());
  if (!span)
    return Json{{"start", {{"line", 0}, {"character", 0}}},
                {"end", {{"line", 0}, {"character", 0}}}};
  uint32_t line = loc.line - 1;
  uint32_t start = std::min(span->start, span->lineEnd) - 1;
  uint32_t end = std::max(start, std::min(span->end, span->lineEnd) - 1);
  return Json{{"start", {{"line", line}, {"character", start}}},
              {"end", {{"line", line}, {"character", end}}}};
}

Json Analysis::location(SourceLoc loc) const {
  std::string uri = loc.fileId == fileId_ ? uri_ : artifactUri(compilation_->sources().name(loc.fileId));
  return Json{{"uri", uri}, {"range", range(loc)}};
}

//===--- The index ---------------------------------------------------------===//

void Analysis::declare(const std::string &name, SourceLoc loc, Declaration declaration) {
  declaration.loc = loc;
  bool procedure = declaration.kind == NameKind::Procedure;
  occurrences_.push_back({loc, name, true, procedure, nullptr});
  // The first declaration wins, as in Sema (a second is E-duplicate).
  (procedure ? procedures_ : liquids_).emplace(name, declaration);
}

void Analysis::addUse(const ast::Name &name, bool procedure) {
  if (procedure) {
    if (name.loc.isValid() && !name.text.empty())
      occurrences_.push_back({name.loc, name.text, false, true, nullptr});
    return;
  }
  addUse(name.text, name.loc);
}

void Analysis::addUse(const std::string &name, SourceLoc loc, bool wellLike) {
  if (!loc.isValid() || name.empty())
    return;
  const ast::ProcDef *scope =
      indexing_ && params_.count({indexing_, name}) ? indexing_ : nullptr;
  occurrences_.push_back({loc, name, false, false, scope, wellLike});
}

void Analysis::indexQuantity(const ast::QuantityExpr &quantity) {
  if (!quantity.loc.isValid())
    return;
  if (quantity.kind == ast::QuantityExpr::Kind::Param)
    addUse(quantity.param, quantity.loc);
  else
    quantities_.push_back(&quantity);
}

void Analysis::indexWells(const ast::WellSetExpr &wells) {
  auto item = [&](const ast::WellItem &item) {
    // `Std1..Std6`: both ends are uses of their names (names are ASCII).
    if (item.kind == ast::WellItem::Kind::NameRange && item.loc.isValid() &&
        item.loc.length >= item.a.size() + item.b.size()) {
      SourceLoc first = item.loc, last = item.loc;
      first.length = static_cast<uint32_t>(item.a.size());
      last.col += item.loc.length - static_cast<uint32_t>(item.b.size());
      last.length = static_cast<uint32_t>(item.b.size());
      addUse(item.a, first);
      addUse(item.b, last);
      return;
    }
    // A bare `D1` may be a liquid named like a well; `well D1` never is.
    bool named = item.kind == ast::WellItem::Kind::Name ||
                 (item.kind == ast::WellItem::Kind::Well && !item.wellWord);
    if (!named || item.a.empty() || !item.loc.isValid())
      return;
    SourceLoc loc = item.loc;
    if (!item.role.empty() && loc.length > item.a.size()) {
      // `sample D1`: the name is the end of the item (names are ASCII).
      uint32_t skip = loc.length - static_cast<uint32_t>(item.a.size());
      loc.col += skip;
      loc.length -= skip;
    }
    addUse(item.a, loc, item.kind == ast::WellItem::Kind::Well);
  };
  for (const ast::WellItem &each : wells.items)
    item(each);
  for (const ast::WellItem &each : wells.except)
    item(each);
}

void Analysis::indexStatements(const std::vector<ast::Statement> &statements,
                               ast::SectionKind section, bool inProcedure) {
  for (const ast::Statement &statement : statements) {
    statements_.push_back({&statement, section, inProcedure});
    auto quantity = [&](const auto &q) {
      if constexpr (std::is_same_v<std::decay_t<decltype(q)>, ast::QuantityExpr>)
        indexQuantity(q);
      else if (q)
        indexQuantity(*q);
    };
    auto wells = [&](const auto &w) {
      if constexpr (std::is_same_v<std::decay_t<decltype(w)>, ast::WellSetExpr>)
        indexWells(w);
      else if (w)
        indexWells(*w);
    };
    auto mix = [&](const std::optional<ast::MixClause> &clause) {
      if (clause) {
        quantity(clause->count);
        quantity(clause->volume);
      }
    };
    std::visit(
        [&](const auto &node) {
          using T = std::decay_t<decltype(node)>;
          if constexpr (std::is_same_v<T, ast::Dispense>) {
            quantity(node.volume);
            if (!node.sourceIsLayout)
              addUse(node.source);
            wells(node.wells);
            mix(node.mix);
          } else if constexpr (std::is_same_v<T, ast::Aspirate>) {
            quantity(node.volume);
            wells(node.wells);
          } else if constexpr (std::is_same_v<T, ast::Wash>) {
            quantity(node.count);
            quantity(node.volume);
            addUse(node.reagent);
            quantity(node.soak);
            wells(node.wells);
          } else if constexpr (std::is_same_v<T, ast::Incubate>) {
            quantity(node.time);
            quantity(node.temperature);
            quantity(node.shaking);
          } else if constexpr (std::is_same_v<T, ast::Shake>) {
            quantity(node.time);
            quantity(node.speed);
          } else if constexpr (std::is_same_v<T, ast::Mix>) {
            quantity(node.count);
            quantity(node.volume);
            wells(node.wells);
          } else if constexpr (std::is_same_v<T, ast::Transfer>) {
            quantity(node.volume);
            wells(node.from);
            wells(node.to);
            mix(node.mix);
          } else if constexpr (std::is_same_v<T, ast::SerialDilution>) {
            quantity(node.ratio);
            wells(node.wells);
            quantity(node.volume);
            if (node.diluent)
              addUse(*node.diluent);
            mix(node.mix);
          } else if constexpr (std::is_same_v<T, ast::Magnet> || std::is_same_v<T, ast::Wait>) {
            quantity(node.time);
          } else if constexpr (std::is_same_v<T, ast::ReadAbsorbance>) {
            quantity(node.wavelength);
            quantity(node.reference);
            wells(node.wells);
          } else if constexpr (std::is_same_v<T, ast::ReadFluorescence>) {
            quantity(node.excitation);
            quantity(node.emission);
            wells(node.wells);
          } else if constexpr (std::is_same_v<T, ast::Analyze>) {
            quantity(node.wavelength);
          } else if constexpr (std::is_same_v<T, ast::Prepare>) {
            auto used = [&](const ast::NameRange &range) {
              addUse(range.first);
              if (range.last)
                addUse(*range.last);
            };
            used(node.names);
            for (const ast::NameRange &more : node.moreNames)
              used(more);
            quantity(node.dilute);
            quantity(node.volume);
          } else if constexpr (std::is_same_v<T, ast::Equilibrate>) {
            wells(node.wells);
            quantity(node.temperature);
            quantity(node.time);
          } else if constexpr (std::is_same_v<T, ast::Call>) {
            addUse(node.callee, true);
            for (const ast::Arg &arg : node.args) {
              quantity(arg.quantity);
              wells(arg.wells);
            }
          } else if constexpr (std::is_same_v<T, ast::Repeat>) {
            quantity(node.count);
            indexStatements(node.body, section, inProcedure);
          } else if constexpr (std::is_same_v<T, ast::ProcDef>) {
            Declaration declaration{NameKind::Procedure, {}, nullptr, nullptr, &node, nullptr};
            if (!node.name.text.empty())
              declare(node.name.text, node.name.loc, declaration);
            for (const ast::Param &param : node.params) {
              if (param.name.text.empty() || !param.name.loc.isValid())
                continue;
              params_.emplace(std::pair(&node, param.name.text),
                              Declaration{NameKind::Parameter, param.name.loc, nullptr, nullptr,
                                          &node, &param});
              occurrences_.push_back({param.name.loc, param.name.text, true, false, &node});
            }
            // Procedures nest no procedures (the grammar has them at the
            // top level), so one pointer is the whole scope chain.
            const ast::ProcDef *outer = indexing_;
            indexing_ = &node;
            indexStatements(node.body, section, true);
            indexing_ = outer;
          }
          // Pause, Note and Use name nothing and measure nothing.
        },
        statement.kind);
  }
}

void Analysis::index() {
  const ast::Script &script = compilation_->script();
  if (script.layout) {
    for (const ast::RoleLine &line : script.layout->roles) {
      auto declareRange = [&](const ast::NameRange &names) {
        Declaration declaration{NameKind::LayoutName, {}, &line, nullptr, nullptr, nullptr};
        if (!names.last) {
          declare(names.first.text, names.first.loc, declaration);
          return;
        }
        // `S1..S7`: S1 and S7 are declared where they are written, the
        // names between them by the range.
        std::optional<std::vector<std::string>> expanded =
            layout::expandNameRange(names.first.text, names.last->text);
        declare(names.first.text, names.first.loc, declaration);
        if (expanded)
          for (size_t i = 1; i + 1 < expanded->size(); ++i)
            declare((*expanded)[i], names.loc, declaration);
        declare(names.last->text, names.last->loc, declaration);
      };
      declareRange(line.names);
      for (const ast::NameRange &more : line.moreNames)
        declareRange(more);
      if (line.wells)
        indexWells(*line.wells);
      if (line.conc)
        concLists_.push_back(&*line.conc);
      if (line.replicates)
        indexQuantity(*line.replicates);
      if (line.dilution)
        indexQuantity(*line.dilution);
      if (line.series) {
        indexQuantity(line.series->ratio);
        if (line.series->top)
          concLists_.push_back(&*line.series->top);
      }
    }
    if (script.layout->grid)
      for (const ast::GridRow &row : script.layout->grid->rows)
        for (const ast::GridCell &cell : row.cells)
          if (cell.text != ".")
            addUse(cell.text, cell.loc);
  }
  for (const ast::ReagentDecl &reagent : script.reagents) {
    auto declareRange = [&](const ast::NameRange &names) {
      Declaration declaration{NameKind::Reagent, {}, nullptr, &reagent, nullptr, nullptr};
      declare(names.first.text, names.first.loc, declaration);
      if (!names.last)
        return;
      if (std::optional<std::vector<std::string>> expanded =
              layout::expandNameRange(names.first.text, names.last->text))
        for (size_t i = 1; i + 1 < expanded->size(); ++i)
          declare((*expanded)[i], names.loc, declaration);
      declare(names.last->text, names.last->loc, declaration);
    };
    declareRange(reagent.names);
    for (const ast::NameRange &more : reagent.moreNames)
      declareRange(more);
    if (reagent.volume)
      indexQuantity(*reagent.volume);
  }
  for (const ast::Section &section : script.sections)
    indexStatements(section.statements, section.kind, false);
  indexModules();
}

void Analysis::indexModules() {
  // Sema registered every module it read in the same SourceManager; the
  // frontend keeps their ASTs to itself, so they are parsed again here
  // (one more parse of a small file, only for scripts with `use`) for
  // where each procedure is declared. Their diagnostics were reported by
  // Sema.
  SourceManager &sources = compilation_->sources();
  for (uint32_t id = 1; sources.lineCount(id) > 0; ++id) {
    std::string_view name = sources.name(id);
    if (id == fileId_ || name.size() < 6 || name.substr(name.size() - 6) != ".plate")
      continue;
    DiagnosticEngine ignored(sources);
    modules_.push_back(std::make_unique<ast::Script>(parseScript(sources, id, ignored)));
    for (const ast::Section &section : modules_.back()->sections)
      for (const ast::Statement &statement : section.statements)
        if (const auto *proc = std::get_if<ast::ProcDef>(&statement.kind))
          if (!proc->name.text.empty() && !procedures_.count(proc->name.text))
            procedures_.emplace(proc->name.text, Declaration{NameKind::Procedure, proc->name.loc,
                                                             nullptr, nullptr, proc, nullptr});
  }
}

const Occurrence *Analysis::occurrenceAt(Located at) const {
  // The narrowest one: `S4` of `S1..S4` rather than the range that
  // declares S2 and S3.
  const Occurrence *best = nullptr;
  for (const Occurrence &occurrence : occurrences_)
    if (covers(occurrence.loc, at) && (!occurrence.wellLike || declarationOf(occurrence)) &&
        (!best || occurrence.loc.length < best->loc.length))
      best = &occurrence;
  return best;
}

const Declaration *Analysis::declarationOf(const Occurrence &occurrence) const {
  if (occurrence.scope) {
    auto found = params_.find({occurrence.scope, occurrence.name});
    return found == params_.end() ? nullptr : &found->second;
  }
  const auto &table = occurrence.procedure ? procedures_ : liquids_;
  auto found = table.find(occurrence.name);
  return found == table.end() ? nullptr : &found->second;
}

//===--- Diagnostics and fixes ----------------------------------------------===//

Json Analysis::diagnosticJson(const Diagnostic &diagnostic) const {
  const DiagInfo &info = diagInfo(diagnostic.id);
  std::string message = diagnostic.message;
  SourceLoc loc = diagnostic.loc;
  if (loc.fileId != fileId_ && loc.isValid()) {
    // Raised in another file (a `use` module): shown on the script's first
    // line, with where it really is.
    message = fmt::format("{}:{}:{}: {}", compilation_->sources().name(loc.fileId), loc.line,
                          loc.col, message);
    loc = SourceLoc{};
  }
  Json json{{"range", range(loc)},
            {"severity", diagnostic.severity == Severity::Error     ? kSeverityError
                         : diagnostic.severity == Severity::Warning ? kSeverityWarning
                                                                    : kSeverityInformation},
            {"code", info.code},
            {"source", "plate"},
            {"message", message}};
  Json data{{"name", info.name}, {"category", categoryName(diagnostic.category)}};
  if (!diagnostic.step.empty())
    data["step"] = diagnostic.step;
  if (!diagnostic.suggestion.empty())
    data["suggestion"] = diagnostic.suggestion;
  json["data"] = std::move(data);
  if (!diagnostic.notes.empty()) {
    Json related = Json::array();
    for (const DiagNote &note : diagnostic.notes) {
      // A note without a place still explains the error: it points at the
      // diagnostic's own place.
      SourceLoc where = note.loc.isValid() && note.loc.fileId ? note.loc : loc;
      related.push_back({{"location", location(where)}, {"message", note.message}});
    }
    json["relatedInformation"] = std::move(related);
  }
  return json;
}

Json Analysis::diagnostics() const {
  Json list = Json::array();
  for (const Diagnostic &diagnostic : compilation_->diags().diagnostics())
    list.push_back(diagnosticJson(diagnostic));
  return list;
}

Json Analysis::codeActions(Range wanted) const {
  Json actions = Json::array();
  for (const Diagnostic &diagnostic : compilation_->diags().diagnostics()) {
    if (diagnostic.suggestion.empty() || diagnostic.loc.fileId != fileId_ ||
        !diagnostic.loc.isValid())
      continue;
    Json where = range(diagnostic.loc);
    Position start{where["start"]["line"].get<uint32_t>(), where["start"]["character"].get<uint32_t>()};
    Position end{where["end"]["line"].get<uint32_t>(), where["end"]["character"].get<uint32_t>()};
    if (end < wanted.start || wanted.end < start)
      continue;
    Json edit{{"range", where}, {"newText", diagnostic.suggestion}};
    actions.push_back({{"title", fmt::format("replace with `{}`", diagnostic.suggestion)},
                       {"kind", "quickfix"},
                       {"diagnostics", Json::array({diagnosticJson(diagnostic)})},
                       {"isPreferred", true},
                       {"edit", {{"changes", {{uri_, Json::array({edit})}}}}}});
  }
  return actions;
}

//===--- Navigation ----------------------------------------------------------===//

Json Analysis::definition(Position position) const {
  const Occurrence *occurrence = occurrenceAt(locate(position));
  if (!occurrence)
    return Json::array();
  const Declaration *declaration = declarationOf(*occurrence);
  if (!declaration)
    return Json::array();
  return Json::array({location(declaration->loc)});
}

Json Analysis::references(Position position, bool includeDeclaration) const {
  const Occurrence *at = occurrenceAt(locate(position));
  Json list = Json::array();
  if (!at)
    return list;
  for (const Occurrence &occurrence : occurrences_)
    if (occurrence.name == at->name && occurrence.procedure == at->procedure &&
        occurrence.scope == at->scope && (includeDeclaration || !occurrence.declaration))
      list.push_back(location(occurrence.loc));
  return list;
}

} // namespace plate::lsp
