//===- SemaFuzzer.cpp - libFuzzer target: script text -> checked IR --------===//
//
// Parser plus semantic analysis and IR generation (names, units, layout,
// well sets, procedure and repeat expansion with their bounds).
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "frontend/Frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  plate::SourceManager sources;
  plate::DiagnosticEngine diags(sources);
  uint32_t fileId =
      sources.addBuffer("fuzz.plate", std::string(reinterpret_cast<const char *>(data), size));
  plate::ast::Script script = plate::parseScript(sources, fileId, diags);
  if (diags.hasErrors())
    return 0;
  plate::FrontendOptions options;
  options.stdlibDir = plate::fuzz::stdlibDir();
  (void)plate::checkScript(script, sources, diags, options);
  return 0;
}
