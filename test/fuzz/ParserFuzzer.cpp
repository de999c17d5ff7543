//===- ParserFuzzer.cpp - libFuzzer target: script text -> AST -------------===//
//
// The parser alone: prescan bounds (file size, line length, UTF-8), the
// ANTLR grammar, AST building and the nesting bound.
//
//===----------------------------------------------------------------------===//
#include "frontend/Frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  plate::SourceManager sources;
  plate::DiagnosticEngine diags(sources);
  uint32_t fileId =
      sources.addBuffer("fuzz.plate", std::string(reinterpret_cast<const char *>(data), size));
  (void)plate::parseScript(sources, fileId, diags);
  return 0;
}
