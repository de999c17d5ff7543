//===- McpServer.h - The Model Context Protocol over newline-delimited JSON ===//
//
// The protocol half of `plate mcp`: JSON-RPC 2.0 messages, one per line,
// the initialize/initialized lifecycle with version negotiation, ping, and
// the tools and resources methods over a table of tools and resources the
// caller supplies (tools/plate/McpTools.h holds plate's). Nothing here knows
// about scripts, and nothing here reads or writes a stream except
// serveLines(), so tests can drive handleLine() one message at a time.
//
// Every input gets an answer or, for a notification, silence: a line that
// is not JSON, a message that is not JSON-RPC, a method this server does
// not have, parameters of the wrong shape. Nothing a client sends ends the
// server except closing its input.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/plate/JsonRpcErrors.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace plate::mcp {

/// Ordered, so schemas and results read in the order they are written.
using Json = nlohmann::ordered_json;

/// JSON-RPC 2.0 error codes (and MCP's resource-not-found).
enum ErrorCode : int {
  ParseError = jsonrpc::kParseError,
  InvalidRequest = jsonrpc::kInvalidRequest,
  MethodNotFound = jsonrpc::kMethodNotFound,
  InvalidParams = jsonrpc::kInvalidParams,
  InternalError = jsonrpc::kInternalError,
  ResourceNotFound = -32002,
};

/// Protocol revisions this server speaks, newest first. The newest is the
/// one the official TypeScript SDK 1.32 asks for (its
/// LATEST_PROTOCOL_VERSION).
const std::vector<std::string> &supportedProtocolVersions();

/// What a tool returns. `structured` (an object, or null for none) goes out
/// as structuredContent and, serialized, as a text block; `text`, when not
/// empty, is a text block before it for a reader (diagnostics as `plate
/// check` prints them). `isError` marks a failure inside the tool (a
/// script with errors, no model configured) that the client's model should
/// read and act on.
struct ToolResult {
  Json structured = Json::object();
  std::string text;
  bool isError = false;

  /// A failure with nothing structured to say.
  static ToolResult failure(std::string message) {
    return ToolResult{Json(), std::move(message), true};
  }
};

/// Thrown by a tool when its arguments pass the schema but still make no
/// sense together (both `path` and `source`, neither); answered as the
/// schema's own failures are: by the negotiated revision (McpServer.cpp).
class InvalidArguments : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Reports how a tool call is going, as `notifications/progress` when the
/// client asked for them (a `progressToken` in the request's `_meta`);
/// otherwise it does nothing. Lets a client that resets its timeout on
/// progress wait out a long `translate`.
using ProgressFn = std::function<void(const std::string &message)>;

struct Tool {
  std::string name;
  std::string title;
  std::string description;
  Json inputSchema;  ///< type object; checked before `call` runs
  Json outputSchema; ///< what `structured` conforms to
  Json annotations = Json::object();
  std::function<ToolResult(const Json &arguments, const ProgressFn &progress)> call;
};

struct Resource {
  std::string uri;
  std::string name;
  std::string title;
  std::string description;
  std::string mimeType;
  std::function<std::string()> read;
};

struct ServerInfo {
  std::string name;
  std::string title;
  std::string version;
  std::string instructions;
};

/// Checks `value` against the subset of JSON Schema the tools' input
/// schemas use (type, properties, required, additionalProperties: false,
/// enum, minimum, maximum, minLength). Returns what is wrong, naming the
/// argument, or nullopt.
std::optional<std::string> schemaViolation(const Json &schema, const Json &value,
                                           const std::string &where = "arguments");

class Server {
public:
  Server(ServerInfo info, std::vector<Tool> tools, std::vector<Resource> resources);

  /// One line from the client; the line to send back (no newline), or
  /// nullopt for a notification, a response, or a blank line.
  std::optional<std::string> handleLine(std::string_view line);

  /// Where notifications go while a request runs (serveLines() sets it);
  /// returns false when the client has gone.
  void setNotifier(std::function<bool(const std::string &line)> notify) {
    notify_ = std::move(notify);
  }

  /// The revision agreed in initialize; empty before it.
  const std::string &protocolVersion() const { return protocolVersion_; }

private:
  Json dispatch(const std::string &method, const Json &params);
  Json initialize(const Json &params);
  Json listTools() const;
  Json callTool(const Json &params);
  Json listResources() const;
  Json readResource(const Json &params);
  /// The negotiated revision is at least `version` (dates compare as text).
  bool speaksAtLeast(std::string_view version) const;

  ServerInfo info_;
  std::vector<Tool> tools_;
  std::vector<Resource> resources_;
  std::string protocolVersion_;
  std::function<bool(const std::string &line)> notify_;
};

/// The largest message a client may send. A 10 MB script inside a
/// tools/call fits; a line longer than this is read to its end, dropped,
/// and answered with an error, so memory stays bounded.
constexpr size_t kMaxMessageBytes = 32u << 20;

/// Serves `server` on two file descriptors until the input closes (or the
/// output does): one message per line in, one per line out. Returns the
/// process exit code, 0 when the client closed its end.
int serveLines(Server &server, int inFd, int outFd);

} // namespace plate::mcp
