//===- PipelineFuzzer.cpp - libFuzzer target: script -> commands -----------===//
//
// The whole compile pipeline to BioForge-1 commands, then the differential
// check of docs/reliability.md: a script the compiler accepts must lower
// to a stream that the interpreter's twin accepts command by command, and
// that survives emission and re-reading unchanged. Either failing is a
// compiler bug, so the target aborts.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "backend/Backend.h"
#include "backend/DeckState.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"

#include <sstream>

using namespace plate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t fileId =
      sources.addBuffer("fuzz.plate", std::string(reinterpret_cast<const char *>(data), size));
  ast::Script script = parseScript(sources, fileId, diags);
  if (diags.hasErrors())
    return 0;
  FrontendOptions frontendOptions;
  frontendOptions.stdlibDir = fuzz::stdlibDir();
  auto program = checkScript(script, sources, diags, frontendOptions);
  if (!program || diags.hasErrors())
    return 0;
  PassManager manager = PassManager::defaultPipeline();
  PassContext context{diags, sources, *program->platform};
  if (!manager.run(program->module, context) || diags.hasErrors() || !program->module.lowered)
    return 0;

  const Platform &platform = *program->platform;
  std::vector<backend::Command> commands = backend::lowerToCommands(program->module, platform);
  backend::RunSetup setup = backend::setupFromModule(program->module, platform, commands);
  const Labware *labware = platform.findLabware(setup.plateType);
  if (!labware)
    fuzz::fuzzFailure("accepted script names no known labware");
  backend::DeckState twin(platform, *labware, setup);
  for (const backend::Command &command : commands) {
    twin.applyManualFills(command.seq);
    if (auto violation = twin.execute(command, /*commit=*/true))
      fuzz::fuzzFailure("accepted script lowers to an illegal command " +
                        backend::commandToText(command) + ": " + violation->message);
  }

  std::ostringstream jsonl;
  backend::emitJsonl(program->module, platform, jsonl, /*withPlan=*/true);
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
