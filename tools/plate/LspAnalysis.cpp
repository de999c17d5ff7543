//===- LspAnalysis.cpp ----------------------------------------------------===//
#include "tools/plate/LspAnalysis.h"

#include "backend/Command.h"
#include "frontend/Layout.h"
#include "frontend/Sema.h"
#include "ir/Utf16.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <ostream>
#include <streambuf>

namespace plate::lsp {

namespace {

// LSP enumerations (3.17).
constexpr int kSeverityError = 1, kSeverityWarning = 2, kSeverityInformation = 3;
constexpr int kCompletionFunction = 3, kCompletionVariable = 6, kCompletionUnit = 11,
              kCompletionKeyword = 14, kCompletionConstant = 21;
constexpr int kSymbolNamespace = 3, kSymbolFunction = 12, kSymbolVariable = 13,
              kSymbolConstant = 14, kSymbolEvent = 24, kSymbolString = 15;

/// IR printed between passes goes nowhere: the server prints nothing.
class NullBuffer : public std::streambuf {
protected:
  int overflow(int c) override { return c; }
};

std::string_view sectionTag(ast::SectionKind kind) {
  return kind == ast::SectionKind::Manual ? "MANUAL" : "INSTRUMENT";
}

std::string trimmed(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos)
    return {};
  size_t end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

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
            addUse(node.reagent);
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

//===--- Hover ---------------------------------------------------------------===//

std::string Analysis::hoverName(const Occurrence &occurrence) const {
  const Declaration *declaration = declarationOf(occurrence);
  if (!declaration)
    return fmt::format("`{}`: not declared", occurrence.name);
  const SourceManager &sources = compilation_->sources();
  std::string text;
  if (declaration->kind == NameKind::Parameter)
    return fmt::format("parameter **{}**: {} of `proc {}` (line {}); its value is the call's argument",
                       declaration->param->name.text,
                       sema::paramTypeName(declaration->param->type),
                       declaration->procedure->name.text, declaration->loc.line);
  if (declaration->kind == NameKind::Procedure) {
    const ast::ProcDef &proc = *declaration->procedure;
    std::string params;
    for (const ast::Param &param : proc.params)
      params += fmt::format("{}{}: {}", params.empty() ? "" : ", ", param.name.text,
                            sema::paramTypeName(param.type));
    text = fmt::format("```plate\nproc {}({})\n```\nprocedure of {} statement{}, declared on line {}",
                       proc.name.text, params, proc.body.size(), proc.body.size() == 1 ? "" : "s",
                       declaration->loc.line);
    return text;
  }
  // What Sema made of the declaration (expanded wells, concentrations in
  // their unit, the reservoir position the loading plan chose), when the
  // script got that far; otherwise the declaration as written.
  const ir::Liquid *liquid = nullptr;
  std::optional<ir::ReservoirPos> position;
  if (compilation_->hasCheckedModule())
    for (const ir::Liquid &candidate : compilation_->checkedModule().liquids)
      if (candidate.name == occurrence.name)
        liquid = &candidate;
  if (liquid && compiled_) {
    const ir::Module &module = compilation_->module();
    for (const ir::ReservoirLoad &load : module.loadingPlan)
      if (load.liquid < module.liquids.size() && module.liquids[load.liquid].name == liquid->name)
        position = load.pos;
  }
  std::string role =
      declaration->kind == NameKind::Reagent ? "reagent" : written(declaration->roleLine->roleLoc);
  text = fmt::format("**{}** — {}", occurrence.name, liquid ? ir::roleName(liquid->role) : role);
  if (liquid && liquid->polarity != ir::Polarity::None)
    text += fmt::format(" ({})", ir::polarityName(liquid->polarity));
  text += "\n\n";
  if (liquid) {
    if (!liquid->wells.empty())
      text += fmt::format("- wells: {} ({} well{})\n", liquid->wells.str(), liquid->wells.size(),
                          liquid->wells.size() == 1 ? "" : "s");
    if (liquid->concentration)
      text += fmt::format("- concentration: {}\n", *liquid->concentration);
    if (liquid->dilution)
      text += fmt::format("- dilution: 1:{}\n", formatNumber(*liquid->dilution));
    if (liquid->series)
      text += fmt::format("- member {} of a 1:{} series made on the plate\n", liquid->series->index,
                          formatNumber(liquid->series->ratio));
    if (liquid->declaredVolume)
      text += fmt::format("- volume: {}\n", *liquid->declaredVolume);
    if (liquid->fixedPosition)
      text += fmt::format("- reservoir position: ({},{}) as declared\n", liquid->fixedPosition->row,
                          liquid->fixedPosition->col);
    else if (position)
      text += fmt::format("- reservoir position: ({},{}) from the loading plan\n", position->row,
                          position->col);
    else if (liquid->role == ir::LiquidRole::Reagent)
      text += liquid->pipettedByInstrument
                  ? "- reservoir position: not assigned (the script does not compile)\n"
                  : "- not in the reservoir: no INSTRUMENT step pipettes it\n";
    for (const std::string &flag : liquid->flags)
      text += fmt::format("- {}\n", flag);
  } else if (declaration->reagent && declaration->reagent->position) {
    text += fmt::format("- reservoir position: ({},{}) as declared\n",
                        declaration->reagent->position->first,
                        declaration->reagent->position->second);
  }
  text += fmt::format("\ndeclared on line {}:\n```plate\n{}\n```", declaration->loc.line,
                      trimmed(sources.lineText(fileId_, declaration->loc.line)));
  return text;
}

std::string Analysis::hoverQuantity(const ast::QuantityExpr &quantity) const {
  const Platform *platform = compilation_->loadedPlatform();
  switch (quantity.kind) {
  case ast::QuantityExpr::Kind::RoomTemp:
    return platform ? fmt::format("room temperature: **{} °C** on {}",
                                  formatNumber(platform->ambientCelsius), platform->name)
                    : "room temperature: the platform's ambient temperature";
  case ast::QuantityExpr::Kind::Overnight:
    return platform ? fmt::format("overnight: **{} h** ({} s) on {}",
                                  formatNumber(platform->overnightSeconds / 3600),
                                  formatNumber(platform->overnightSeconds), platform->name)
                    : "overnight: the platform's overnight duration";
  case ast::QuantityExpr::Kind::ColonRatio:
    return fmt::format("ratio 1:{}: a factor of **{}**", quantity.text, formatNumber(quantity.value));
  case ast::QuantityExpr::Kind::Param:
    return fmt::format("procedure parameter `{}`", quantity.param);
  case ast::QuantityExpr::Kind::Number:
    break;
  }
  if (quantity.unit.empty())
    return fmt::format("**{}** (a number without a unit)", quantity.text);
  if (quantity.unit == "x" || quantity.unit == "times" || quantity.unit == "×")
    return fmt::format("**{}** times (count)", formatNumber(quantity.value));
  std::optional<Unit> unit = lookupUnit(quantity.unit);
  if (!unit)
    return fmt::format("`{}`: not a unit plate knows", quantity.unit);
  Quantity written{quantity.value, *unit};
  Quantity canonical = written.canonical();
  std::string dimension(dimensionName(written.dimension()));
  if (written.isCanonical())
    return fmt::format("**{}** ({}, canonical unit)", canonical, dimension);
  return fmt::format("**{}** = {} ({}; canonical unit {})", written, canonical, dimension,
                     unitInfo(canonical.unit).symbol);
}

std::string Analysis::hoverStatement(const StatementEntry &entry) const {
  const ast::Statement &statement = *entry.statement;
  std::string label = statement.stepLabel.empty()
                          ? fmt::format("line {}", statement.loc.line)
                          : fmt::format("step {}", statement.stepLabel);
  if (entry.section == ast::SectionKind::Manual)
    return fmt::format("**{}** (MANUAL): done by a person; the robot gets no commands", label);
  if (!compiled_)
    return fmt::format("**{}** (INSTRUMENT): no commands while the script has errors", label);
  // The ops of this line: its own, or those it expands to (a call, a
  // repeat), or those of a procedure body line at every call. Lowering
  // them alone gives exactly their commands, each still carrying its
  // step label and script line.
  const ir::Module &module = compilation_->module();
  ir::Module selected = module;
  selected.ops.clear();
  uint32_t line = statement.loc.line;
  for (const ir::Op &op : module.ops)
    if (!op.manual && ((op.loc.fileId == fileId_ && op.loc.line == line) ||
                       (op.origin.fileId == fileId_ && op.origin.line == line)))
      selected.ops.push_back(op);
  std::vector<backend::Command> commands =
      backend::lowerToCommands(selected, compilation_->platform());
  if (commands.empty())
    return fmt::format("**{}** (INSTRUMENT): no robot commands (computed on the host)", label);
  unsigned tips = 0;
  for (const backend::Command &command : commands)
    if (command.fields.opcode == backend::Opcode::LH_PickTips)
      tips += static_cast<unsigned>(__builtin_popcountll(command.fields.maskBits));
  double seconds = backend::robotSeconds(commands, compilation_->platform());
  std::string text = fmt::format(
      "**{}** lowers to **{}** BioForge-1 command{} · robot time **{}** · **{}** tip{}\n\n```\n",
      label, commands.size(), commands.size() == 1 ? "" : "s", backend::formatDuration(seconds),
      tips, tips == 1 ? "" : "s");
  constexpr size_t kShown = 12;
  for (size_t i = 0; i < commands.size() && i < kShown; ++i)
    text += backend::commandToText(commands[i]) + "\n";
  if (commands.size() > kShown)
    text += fmt::format("… {} more\n", commands.size() - kShown);
  text += "```";
  return text;
}

Json Analysis::hover(Position position) const {
  Located at = locate(position);
  std::string text;
  SourceLoc where;
  if (const Occurrence *occurrence = occurrenceAt(at)) {
    text = hoverName(*occurrence);
    where = occurrence->loc;
  }
  if (text.empty())
    for (const ast::QuantityExpr *quantity : quantities_)
      if (covers(quantity->loc, at)) {
        text = hoverQuantity(*quantity);
        where = quantity->loc;
        break;
      }
  if (text.empty())
    for (const ast::ConcList *list : concLists_)
      for (size_t i = 0; i < list->valueLocs.size() && text.empty(); ++i)
        if (covers(list->valueLocs[i], at)) {
          ast::QuantityExpr value;
          value.value = list->values[i];
          value.text = formatNumber(list->values[i]);
          value.unit = list->unit;
          text = hoverQuantity(value);
          where = list->valueLocs[i];
        }
  if (text.empty())
    for (const StatementEntry &entry : statements_)
      if (entry.statement->loc.isValid() && entry.statement->loc.fileId == fileId_ &&
          entry.statement->loc.line == at.line &&
          !std::holds_alternative<ast::ProcDef>(entry.statement->kind)) {
        text = hoverStatement(entry);
        where = SourceLoc{};
        break;
      }
  if (text.empty())
    return nullptr;
  Json result{{"contents", {{"kind", "markdown"}, {"value", text}}}};
  if (where.isValid())
    result["range"] = range(where);
  return result;
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

//===--- Completion ----------------------------------------------------------===//

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
  for (const auto &[name, declaration] : liquids_)
    add(name, declaration.kind == NameKind::Reagent ? kCompletionVariable : kCompletionConstant,
        declaration.kind == NameKind::Reagent ? "reagent"
                                              : written(declaration.roleLine->roleLoc));
  return items;
}

//===--- Symbols ---------------------------------------------------------------===//

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
          std::string text = trimmed(sources.lineText(fileId_, line));
          if (!text.empty() && text.back() == '{')
            text = trimmed(text.substr(0, text.size() - 1));
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
