//===- JsonRpcErrors.h - The error codes JSON-RPC 2.0 itself defines ------===//
//
// One table for both servers: `plate lsp` (tools/plate/JsonRpc.h) and
// `plate mcp` (tools/plate/McpServer.h) frame messages differently but
// share JSON-RPC 2.0's reserved codes. Each protocol adds its own codes in
// its own enum, and those may collide by number (-32002 is LSP's
// ServerNotInitialized and MCP's resource-not-found), so only these five
// live here.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace plate::jsonrpc {

inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

} // namespace plate::jsonrpc
