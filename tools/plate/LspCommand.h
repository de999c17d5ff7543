//===- LspCommand.h - `plate lsp`: the language server over stdio ---------===//
//
// Registers the subcommand; the server itself is tools/plate/LspServer.h
// and docs/lsp.md says how to hook it into an editor.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace plate {

struct LspOptions {
  std::string stdlibDir;
  bool logTiming = false;
};

CLI::App *addLspCommand(CLI::App &app, LspOptions &options);
/// Serves stdin/stdout until `exit` or the end of the input; the exit code
/// follows LSP (0 after shutdown and exit, 1 otherwise).
int runLspCommand(const LspOptions &options);

} // namespace plate
