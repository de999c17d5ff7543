//===- CompileAndValidate.h - Compile a script in memory and validate it
//---===//
//
// What `plate run` does before its first command, without a file or a
// driver: parse, check, run the default pipeline, lower to commands and
// compare the stream with the script (backend/bioforge1/TranslationValidation.h).
// Shared by the `pipeline` and `validate` fuzz targets and the unit test
// that validates every script of the repository.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/bioforge1/Backend.h"
#include "backend/bioforge1/TranslationValidation.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"

#include <optional>
#include <string>
#include <vector>

namespace plate::fuzz {

struct Compiled {
  bool accepted = false; ///< compiled without errors to device commands
  std::optional<CheckedProgram> program;
  std::optional<ir::Module> checked; ///< the frontend's IR, before any pass
  std::vector<backend::Command> commands;
  backend::RunSetup setup;
  backend::Validation validation;
};

/// Compiles `text` (named `name` in diagnostics) with the stdlib in
/// `stdlibDir`; validates it when it was accepted.
inline Compiled compileAndValidate(const std::string &name, const std::string &text,
                                   const std::string &stdlibDir) {
  Compiled result;
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t fileId = sources.addBuffer(name, text);
  ast::Script script = parseScript(sources, fileId, diags);
  if (diags.hasErrors())
    return result;
  FrontendOptions frontendOptions;
  frontendOptions.stdlibDir = stdlibDir;
  result.program = checkScript(script, sources, diags, frontendOptions);
  if (!result.program || diags.hasErrors())
    return result;
  result.checked = result.program->module;
  PassManager manager = PassManager::defaultPipeline();
  PassContext context{diags, sources, *result.program->platform};
  ir::Module &module = result.program->module;
  if (!manager.run(module, context) || diags.hasErrors() || !module.lowered)
    return result;
  const Platform &platform = *result.program->platform;
  result.accepted = true;
  result.commands = backend::lowerToCommands(module, platform);
  result.setup = backend::setupFromModule(module, platform, result.commands);
  result.validation =
      backend::validateTranslation(*result.checked, result.commands, result.setup, platform);
  return result;
}

} // namespace plate::fuzz
