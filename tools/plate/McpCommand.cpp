//===- McpCommand.cpp - `plate mcp` ---------------------------------------===//
//
// stdout belongs to the protocol: a stray write there would be read as a
// broken message. So the protocol gets its own copy of the descriptor and
// descriptor 1 is pointed at stderr, where anything a library prints
// becomes a log line. A client that goes away makes writes fail with EPIPE
// instead of killing the server with SIGPIPE.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/McpCommand.h"

#include "ir/Platform.h"
#include "tools/plate/McpServer.h"
#include "tools/plate/McpTools.h"

#include <csignal>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace plate {

CLI::App *addMcpCommand(CLI::App &app, McpOptions &options) {
  CLI::App *command = app.add_subcommand(
      "mcp", "serve check, compile, run, align and translate to an MCP client (Model Context "
             "Protocol over stdio; docs/mcp.md)");
  command->add_option("--stdlib", options.stdlibDir,
                      "directory of platforms, labware and modules (default: $PLATE_STDLIB or "
                      "the built-in one)");
  return command;
}

int runMcpCommand(const McpOptions &options) {
  std::string stdlibDir = options.stdlibDir.empty() ? defaultStdlibDir() : options.stdlibDir;
  std::signal(SIGPIPE, SIG_IGN);
  std::fflush(stdout);
  std::cout.flush();
  int protocolOut = ::dup(STDOUT_FILENO);
  if (protocolOut < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("plate mcp: error: cannot set up stdout");
    return 1;
  }
  if (::isatty(STDIN_FILENO))
    std::cerr << "plate mcp: serving the Model Context Protocol on stdin/stdout, one JSON-RPC "
                 "message per line; an MCP client starts this command (docs/mcp.md). Ctrl-D "
                 "ends it.\n";
  mcp::Server server(mcp::plateServerInfo(), mcp::plateTools(stdlibDir),
                     mcp::plateResources(stdlibDir));
  int status = mcp::serveLines(server, STDIN_FILENO, protocolOut);
  ::close(protocolOut);
  return status;
}

} // namespace plate
