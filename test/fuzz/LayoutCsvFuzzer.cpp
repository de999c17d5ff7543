//===- LayoutCsvFuzzer.cpp - libFuzzer target: `--layout` grid CSV --------===//
//
// The layout CSV reader on its own.
//
//===----------------------------------------------------------------------===//
#include "frontend/LayoutCsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  plate::SourceManager sources;
  plate::DiagnosticEngine diags(sources);
  uint32_t fileId =
      sources.addBuffer("fuzz.csv", std::string(reinterpret_cast<const char *>(data), size));
  (void)plate::parseLayoutCsv(sources, fileId, diags);
  return 0;
}
