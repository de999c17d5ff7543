//===- McpCommand.h - `plate mcp`: the Model Context Protocol server ------===//
//
// Serves plate's tools and resources (tools/plate/McpTools.h) to an MCP
// client over stdio: one JSON-RPC message per line on stdin and stdout,
// logs on stderr. Exits 0 when the client closes stdin. docs/mcp.md says
// how to register it with a client.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace plate {

struct McpOptions {
  std::string stdlibDir;
};

CLI::App *addMcpCommand(CLI::App &app, McpOptions &options);
int runMcpCommand(const McpOptions &options);

} // namespace plate
