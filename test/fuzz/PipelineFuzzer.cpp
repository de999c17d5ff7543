//===- PipelineFuzzer.cpp - libFuzzer target: script -> commands -----------===//
//
// The whole compile pipeline to BioForge-1 commands, then the differential
// check of docs/reliability.md: a script the compiler accepts must lower
// to a stream that the interpreter's twin accepts command by command, and
// that survives emission and re-reading unchanged, and that translation
// validation finds equal to the script. Any failing is a compiler bug, so
// the target aborts.
//
//===----------------------------------------------------------------------===//
#include "CompileAndValidate.h"
#include "FuzzCommon.h"
#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/DeckState.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"

#include <sstream>

using namespace plate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Compiled compiled = fuzz::compileAndValidate(
      "fuzz.plate", std::string(reinterpret_cast<const char *>(data), size), fuzz::stdlibDir());
  if (!compiled.accepted)
    return 0;
  const Platform &platform = *compiled.program->platform;
  const std::vector<backend::Command> &commands = compiled.commands;
  // Validation replays the stream on the twin first: an illegal command
  // and a stream that does not mean the script both show here.
  if (compiled.validation.difference)
    fuzz::fuzzFailure("accepted script: " + *compiled.validation.difference);

  SourceManager sources;
  std::ostringstream jsonl;
  backend::emitJsonl(compiled.program->module, platform, jsonl, /*withPlan=*/true);
  uint32_t streamId = sources.addBuffer("fuzz.jsonl", jsonl.str());
  DiagnosticEngine streamDiags(sources);
  auto reread = backend::parseCommandStream(streamId, sources, streamDiags);
  if (!reread || reread->size() != commands.size())
    fuzz::fuzzFailure("emitted stream does not read back");
  for (size_t i = 0; i < commands.size(); ++i)
    if (backend::commandToJsonLine((*reread)[i]) != backend::commandToJsonLine(commands[i]))
      fuzz::fuzzFailure("command " + std::to_string(i + 1) + " changes on a round trip");
  return 0;
}
