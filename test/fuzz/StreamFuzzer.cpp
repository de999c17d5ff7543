//===- StreamFuzzer.cpp - libFuzzer target: .jsonl command-stream reader ---===//
//
// The stream reader, then the twin on whatever it accepted: a hostile
// stream must be rejected with diagnostics, never crash the checker.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/DeckState.h"

using namespace plate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DiagnosticEngine *platformDiags = nullptr;
  static SourceManager platformSources;
  static std::optional<Platform> platform;
  if (!platformDiags) {
    platformDiags = new DiagnosticEngine(platformSources);
    platform = loadPlatform("bioforge1", fuzz::stdlibDir(), *platformDiags, {});
    if (!platform)
      fuzz::fuzzFailure("cannot load the bioforge1 platform");
  }
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t fileId =
      sources.addBuffer("fuzz.jsonl", std::string(reinterpret_cast<const char *>(data), size));
  auto commands = backend::parseCommandStream(fileId, sources, diags);
  if (!commands)
    return 0;
  backend::RunSetup setup;
  const Labware *labware = platform->findLabware(setup.plateType);
  backend::DeckState twin(*platform, *labware, setup);
  for (const backend::Command &command : *commands) {
    if (twin.execute(command, /*commit=*/true))
      break; // the interpreter stops at the first violation too
    (void)backend::commandSeconds(command, *platform);
  }
  return 0;
}
