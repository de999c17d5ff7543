//===- McpTools.h - plate's tools and resources for `plate mcp` -----------===//
//
// The tools are the subcommands an agent needs, each over the same library
// calls as its command line: `check`, `compile` (IR, command summary,
// loading plan), `run` (the simulator: robot time, reads, analyses),
// `align` (a protocol text's steps beside a script's) and `translate` (the
// dual-agent loop, with the models of the server's environment). A script
// comes as `path` or as `source` text, compiled from memory. The resources
// are the language reference the Parser Agent is given and the platform
// descriptions of stdlib/platforms/.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/plate/McpServer.h"

#include <string>
#include <vector>

namespace plate::mcp {

/// Name, title, version and the instructions a client shows its model.
ServerInfo plateServerInfo();
/// The tools, with scripts and platforms read from `stdlibDir`.
std::vector<Tool> plateTools(const std::string &stdlibDir);
/// The language reference and one resource per platform description.
std::vector<Resource> plateResources(const std::string &stdlibDir);

} // namespace plate::mcp
