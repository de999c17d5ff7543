//===- ParseTestUtil.h - Helpers for the parser unit tests ----------------===//
#pragma once

#include "frontend/Frontend.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace plate::test {

/// A parsed buffer with its diagnostics; owns everything the AST refers to.
struct Parsed {
  SourceManager sources;
  std::unique_ptr<DiagnosticEngine> diags;
  ast::Script script;

  /// "LINE:COL CODE" for every diagnostic, in order.
  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const Diagnostic &d : diags->diagnostics())
      out.push_back(fmt::format("{}:{} {}", d.loc.line, d.loc.col,
                                diagInfo(d.id).code));
    return out;
  }
  std::string messages() const {
    std::string out;
    for (const Diagnostic &d : diags->diagnostics())
      out += renderText(d, sources, false);
    return out;
  }
  const ast::Section &instrument() const {
    for (const ast::Section &s : script.sections)
      if (s.kind == ast::SectionKind::Instrument)
        return s;
    ADD_FAILURE() << "no INSTRUMENT section";
    static ast::Section empty;
    return empty;
  }
};

inline std::unique_ptr<Parsed> parseText(std::string text,
                                         std::string name = "test.plate") {
  auto parsed = std::make_unique<Parsed>();
  uint32_t id = parsed->sources.addBuffer(std::move(name), std::move(text));
  parsed->diags = std::make_unique<DiagnosticEngine>(parsed->sources);
  parsed->diags->setErrorLimit(1000);
  parsed->script = parseScript(parsed->sources, id, *parsed->diags);
  return parsed;
}

/// Wraps statement lines in an INSTRUMENT section: the first statement is
/// on line 2.
inline std::unique_ptr<Parsed> parseStatements(const std::string &lines) {
  return parseText("<INSTRUMENT>\n" + lines + "\n</INSTRUMENT>\n");
}

/// The first statement of the INSTRUMENT section as kind T.
template <typename T> const T &first(const Parsed &parsed, size_t index = 0) {
  const auto &statements = parsed.instrument().statements;
  if (index >= statements.size()) {
    ADD_FAILURE() << "only " << statements.size() << " statements\n"
                  << parsed.messages();
    static T empty{};
    return empty;
  }
  const T *node = std::get_if<T>(&statements[index].kind);
  if (!node) {
    ADD_FAILURE() << "statement " << index << " has another kind\n"
                  << ast::dump(parsed.script);
    static T empty{};
    return empty;
  }
  return *node;
}

} // namespace plate::test
