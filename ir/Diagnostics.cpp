//===- Diagnostics.cpp - Diagnostic table, engine and renderers -----------===//
#include "ir/Diagnostics.h"

#include <llvm/ADT/StringRef.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>

namespace plate {

static const DiagInfo kDiagTable[] = {
#define DIAG(Name, Code, Sev, Cat, Format)                                     \
  {#Name, Code, Severity::Sev, Category::Cat, Format},
#include "ir/Diagnostics.def"
};

const DiagInfo &diagInfo(DiagId id) {
  return kDiagTable[static_cast<size_t>(id)];
}

const DiagInfo *diagInfoByCode(std::string_view code) {
  for (const DiagInfo &info : kDiagTable)
    if (code == info.code)
      return &info;
  return nullptr;
}

std::string_view categoryName(Category category) {
  switch (category) {
  case Category::Syntax: return "syntax";
  case Category::Type: return "type";
  case Category::Layout: return "layout";
  case Category::Parameter: return "parameter";
  case Category::Physical: return "physical";
  case Category::Capability: return "capability";
  case Category::Resource: return "resource";
  case Category::Completeness: return "completeness";
  case Category::Order: return "order";
  case Category::Io: return "io";
  }
  return "unknown";
}

std::string_view severityName(Severity severity) {
  switch (severity) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  }
  return "unknown";
}

InFlightDiagnostic::~InFlightDiagnostic() {
  if (engine_)
    engine_->commit(std::move(diagnostic_));
}

void DiagnosticEngine::commit(Diagnostic diagnostic) {
  if (diagnostic.severity == Severity::Warning && warningsAsErrors_)
    diagnostic.severity = Severity::Error;
  if (diagnostic.severity == Severity::Error) {
    if (errors_ >= errorLimit_) {
      if (limitReported_)
        return;
      limitReported_ = true;
      const DiagInfo &info = diagInfo(DiagId::TooManyErrors);
      diagnostic = Diagnostic{DiagId::TooManyErrors, info.severity,
                              info.category, diagnostic.loc, diagnostic.step,
                              fmt::format(fmt::runtime(info.format), errors_),
                              {}, {}};
    }
    ++errors_;
  } else if (diagnostic.severity == Severity::Warning) {
    ++warnings_;
  }
  diagnostics_.push_back(std::move(diagnostic));
  if (consumer_)
    consumer_(diagnostics_.back());
}

namespace {
struct Style {
  bool on;
  const char *bold() const { return on ? "\033[1m" : ""; }
  const char *red() const { return on ? "\033[1;31m" : ""; }
  const char *magenta() const { return on ? "\033[1;35m" : ""; }
  const char *green() const { return on ? "\033[1;32m" : ""; }
  const char *cyan() const { return on ? "\033[1;36m" : ""; }
  const char *reset() const { return on ? "\033[0m" : ""; }
};

std::string locPrefix(SourceLoc loc, const SourceManager &sources) {
  if (!loc.isValid())
    return loc.fileId ? sources.name(loc.fileId) + ": " : std::string("plate: ");
  return fmt::format("{}:{}:{}: ", sources.name(loc.fileId), loc.line, loc.col);
}

// Tabs are expanded to one space so the caret lines up with the echo.
std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    out.push_back(c == '\t' ? ' ' : c);
  return out;
}

void appendSnippet(std::string &out, SourceLoc loc, const std::string &fixit,
                   const SourceManager &sources, const Style &style) {
  std::string_view line = sources.lineText(loc.fileId, loc.line);
  if (!loc.isValid() || line.size() > 500)
    return;
  std::string gutter = fmt::format("{:>5}", loc.line);
  std::string blank(gutter.size(), ' ');
  out += fmt::format("{} | {}\n", gutter, printable(line));
  // The caret column counts bytes; multi-byte characters before it (µ, °)
  // would shift it, so count code points for the padding.
  size_t pad = 0;
  for (size_t i = 0; i + 1 < loc.col && i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80)
      ++pad;
  std::string marker = "^";
  if (loc.length > 1)
    marker += std::string(loc.length - 1, '~');
  out += fmt::format("{} | {}{}{}{}\n", blank, std::string(pad, ' '),
                     style.green(), marker, style.reset());
  if (!fixit.empty())
    out += fmt::format("{} | {}{}{}{}\n", blank, std::string(pad, ' '),
                       style.green(), fixit, style.reset());
}
} // namespace

std::string renderText(const Diagnostic &diagnostic,
                       const SourceManager &sources, bool color) {
  Style style{color};
  const DiagInfo &info = diagInfo(diagnostic.id);
  const char *severityColor =
      diagnostic.severity == Severity::Error ? style.red() : style.magenta();
  std::string out = fmt::format(
      "{}{}{}{}: {}{}{} [{}]{}\n", style.bold(), locPrefix(diagnostic.loc, sources),
      severityColor, severityName(diagnostic.severity), style.reset(),
      style.bold(), diagnostic.message, info.code, style.reset());
  appendSnippet(out, diagnostic.loc, diagnostic.suggestion, sources, style);
  for (const DiagNote &note : diagnostic.notes) {
    out += fmt::format("{}{}{}note: {}{}\n", style.bold(),
                       locPrefix(note.loc, sources), style.cyan(),
                       style.reset(), note.message);
    appendSnippet(out, note.loc, "", sources, style);
  }
  return out;
}

static nlohmann::json locationJson(SourceLoc loc, const SourceManager &sources) {
  nlohmann::json json;
  json["file"] = loc.fileId ? sources.name(loc.fileId) : "";
  json["line"] = loc.line;
  json["column"] = loc.col;
  return json;
}

std::string renderJson(const std::vector<Diagnostic> &diagnostics,
                       const SourceManager &sources) {
  nlohmann::json list = nlohmann::json::array();
  unsigned errors = 0, warnings = 0;
  for (const Diagnostic &diagnostic : diagnostics) {
    const DiagInfo &info = diagInfo(diagnostic.id);
    nlohmann::json json = locationJson(diagnostic.loc, sources);
    json["code"] = info.code;
    json["name"] = info.name;
    json["severity"] = severityName(diagnostic.severity);
    json["category"] = categoryName(diagnostic.category);
    json["step"] = diagnostic.step;
    json["message"] = diagnostic.message;
    if (!diagnostic.suggestion.empty())
      json["suggestion"] = diagnostic.suggestion;
    nlohmann::json notes = nlohmann::json::array();
    for (const DiagNote &note : diagnostic.notes) {
      nlohmann::json noteJson = locationJson(note.loc, sources);
      noteJson["message"] = note.message;
      notes.push_back(std::move(noteJson));
    }
    json["notes"] = std::move(notes);
    list.push_back(std::move(json));
    errors += diagnostic.severity == Severity::Error;
    warnings += diagnostic.severity == Severity::Warning;
  }
  nlohmann::json document{{"diagnostics", std::move(list)},
                          {"errors", errors},
                          {"warnings", warnings}};
  // Replace invalid UTF-8 (hostile input echoed in messages) instead of
  // throwing from dump().
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

std::string closestMatch(std::string_view word,
                         const std::vector<std::string> &candidates) {
  std::string best;
  unsigned bestDistance = ~0u;
  llvm::StringRef wordRef(word.data(), word.size());
  for (const std::string &candidate : candidates) {
    // edit_distance returns MaxEditDistance + 1 when it gives up early.
    constexpr unsigned kMaxDistance = 3;
    unsigned distance = wordRef.edit_distance(candidate, true, kMaxDistance);
    if (distance > kMaxDistance)
      continue;
    // Case-only differences count as the closest possible typo.
    if (wordRef.equals_insensitive(candidate))
      distance = 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  unsigned allowed = word.size() <= 2 ? 1 : (word.size() + 2) / 3;
  return bestDistance <= allowed ? best : std::string();
}

void internalError(const char *file, int line, const std::string &message) {
  std::fprintf(stderr,
               "plate: internal compiler error: %s\n  at %s:%d\n"
               "This is a bug in plate, not in your script; please report it "
               "with the input that triggered it.\n",
               message.c_str(), file, line);
  std::abort();
}

} // namespace plate
