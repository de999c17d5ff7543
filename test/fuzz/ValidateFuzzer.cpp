//===- ValidateFuzzer.cpp - libFuzzer target: generated scripts validate
//---===//
//
// The bytes choose a script that should compile (ScriptFromBytes.h: serial
// dilutions, shifts and scattered transfers, MANUAL work, washes,
// incubations, reads); every one the compiler accepts must lower to a
// stream that translation validation finds equal to the script. A
// difference is a compiler bug (the lowering changed what the script
// means), so the target aborts with the difference.
//
//===----------------------------------------------------------------------===//
#include "CompileAndValidate.h"
#include "FuzzCommon.h"
#include "ScriptFromBytes.h"

using namespace plate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text = fuzz::scriptFromBytes(data, size);
  fuzz::Compiled compiled = fuzz::compileAndValidate("generated.plate", text, fuzz::stdlibDir());
  if (compiled.accepted && compiled.validation.difference)
    fuzz::fuzzFailure("translation validation refused an accepted script: " +
                      *compiled.validation.difference + "\n--- script ---\n" + text);
  return 0;
}
