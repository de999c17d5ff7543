//===- McpFuzzer.cpp - libFuzzer target: the MCP server's input -----------===//
//
// The bytes are what a client writes to `plate mcp`: lines of JSON-RPC,
// each handed to the same mcp::Server as `plate mcp` builds, after an
// `initialize`. Whatever a line holds, the answer is one JSON-RPC message
// (a response with exactly one of result and error) or nothing for a
// notification, never a crash. The tools that write files (`run` with an
// out_dir) or reach the network (`translate`) are left out: a fuzzer must
// not write where its input says.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "tools/plate/McpTools.h"

#include <algorithm>

using namespace plate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<mcp::Tool> tools = mcp::plateTools(fuzz::stdlibDir());
  tools.erase(std::remove_if(tools.begin(), tools.end(),
                             [](const mcp::Tool &tool) {
                               return tool.name == "run" || tool.name == "translate";
                             }),
              tools.end());
  mcp::Server server(mcp::plateServerInfo(), std::move(tools),
                     mcp::plateResources(fuzz::stdlibDir()));
  server.setNotifier([](const std::string &) { return true; });
  auto check = [](const std::optional<std::string> &reply) {
    if (!reply)
      return;
    mcp::Json back = mcp::Json::parse(*reply, nullptr, false);
    bool response = back.is_object() && back.contains("id") &&
                    back.contains("result") != back.contains("error");
    if (back.is_discarded() || back.value("jsonrpc", "") != "2.0" || !response)
      fuzz::fuzzFailure("not a JSON-RPC response: " + *reply);
  };
  check(server.handleLine(
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}})"));
  std::string_view input(reinterpret_cast<const char *>(data), size);
  while (!input.empty()) {
    size_t end = input.find('\n');
    std::string_view line = input.substr(0, end);
    check(server.handleLine(line));
    if (end == std::string_view::npos)
      break;
    input.remove_prefix(end + 1);
  }
  return 0;
}
