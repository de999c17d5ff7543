//===- LspCommand.cpp -----------------------------------------------------===//
#include "tools/plate/LspCommand.h"

#include "tools/plate/LspServer.h"

#include <unistd.h>

namespace plate {

CLI::App *addLspCommand(CLI::App &app, LspOptions &options) {
  CLI::App *command = app.add_subcommand(
      "lsp", "serve the Language Server Protocol (3.17) on stdin/stdout for editors "
             "(diagnostics, hover, go to definition, references, completion, symbols, quick fixes)");
  command->add_option("--stdlib", options.stdlibDir,
                      "directory of platforms, labware and modules (default: $PLATE_STDLIB or the built-in one)");
  command->add_flag("--log-timing", options.logTiming,
                    "log each compilation's time to stderr");
  return command;
}

int runLspCommand(const LspOptions &options) {
  lsp::ServerOptions server;
  server.stdlibDir = options.stdlibDir;
  server.logTiming = options.logTiming;
  return lsp::runLspServer(STDIN_FILENO, STDOUT_FILENO, std::move(server));
}

} // namespace plate
