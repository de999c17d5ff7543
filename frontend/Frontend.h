//===- Frontend.h - Script text to AST to checked IR -----------------------===//
//
// The frontend's public surface. Only frontend/ sees ANTLR; callers get the
// project's own AST and IR types.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/AST.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "ir/Platform.h"

#include <optional>
#include <string>

namespace plate {

struct FrontendOptions {
  std::string stdlibDir;          ///< for `use` modules and platforms
  std::string layoutCsv;          ///< --layout FILE.csv (grid as CSV)
  std::string defaultPlatform = "bioforge1";
  /// Chosen on the command line: wins over `<PLATFORM>` and may name a
  /// description in a vendor folder (PlatformLookup::CommandLine).
  std::string platform;
};

/// Parses one buffer. Always returns a Script (possibly partial); syntax
/// errors go to `diags`, never to the console.
ast::Script parseScript(SourceManager &sources, uint32_t fileId,
                        DiagnosticEngine &diags);

/// Result of semantic analysis and IR generation.
struct CheckedProgram {
  ir::Module module;
  std::optional<Platform> platform;
};

/// Name resolution, dimension checks, layout expansion, well sets,
/// procedure checks; then IR generation (procedures and repeats expanded).
/// Returns nullopt when errors were reported.
std::optional<CheckedProgram> checkScript(const ast::Script &script,
                                      SourceManager &sources,
                                      DiagnosticEngine &diags,
                                      const FrontendOptions &options);

} // namespace plate
