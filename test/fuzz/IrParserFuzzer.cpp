//===- IrParserFuzzer.cpp - libFuzzer target: the textual IR reader --------===//
//
// ir::parseModule on arbitrary bytes: malformed IR text must be rejected
// with diagnostics, never crash. Text it accepts must print, and what it
// prints must parse again and print the same bytes: the printer and the
// parser agree on everything the parser lets through.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "ir/IRReader.h"

using namespace plate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t fileId =
      sources.addBuffer("fuzz.pir", std::string(reinterpret_cast<const char *>(data), size));
  std::optional<ir::Module> module = ir::parseModule(fileId, sources, diags);
  if (!module)
    return 0;
  std::string printed = ir::print(*module, sources);
  DiagnosticEngine again(sources);
  uint32_t printedId = sources.addBuffer("printed.pir", printed);
  std::optional<ir::Module> reparsed = ir::parseModule(printedId, sources, again);
  if (!reparsed)
    fuzz::fuzzFailure("the printed form of an accepted module does not parse:\n" + printed);
  if (ir::print(*reparsed, sources) != printed)
    fuzz::fuzzFailure("printing the reparsed module gives other text:\n" + printed);
  return 0;
}
