//===- McpServer.cpp - JSON-RPC dispatch and the MCP lifecycle ------------===//
//
// Two kinds of failure, as the MCP tools specification separates them: a
// request the protocol cannot serve (not JSON, no method, unknown method or
// tool, params of the wrong shape) is a JSON-RPC error; a tool that ran and
// failed is a result with isError. Arguments that do not fit a tool's input
// schema moved from the first kind to the second in revision 2025-11-25
// (SEP-1303: the model that wrote them should see why and correct them), so
// which one they get depends on the revision negotiated in initialize.
//
//===----------------------------------------------------------------------===//
#include "tools/plate/McpServer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <unistd.h>

namespace plate::mcp {

const std::vector<std::string> &supportedProtocolVersions() {
  static const std::vector<std::string> versions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                    "2024-11-05"};
  return versions;
}

namespace {

/// A request this server answers with a JSON-RPC error.
struct RpcError {
  int code;
  std::string message;
  Json data = Json();
};

/// Deeper JSON than any MCP message needs; deeper input is refused before
/// anything walks it recursively (dump, destruction, the schema check).
constexpr int kMaxJsonDepth = 64;
struct TooDeep {};

std::string dumpLine(const Json &json) {
  // Invalid UTF-8 from a script or a file echoed in a message must not
  // make the answer unprintable.
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json errorResponse(const Json &id, int code, const std::string &message,
                   const Json &data = Json()) {
  Json error{{"code", code}, {"message", message}};
  if (!data.is_null())
    error["data"] = data;
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

std::string_view typeName(const Json &value) {
  if (value.is_number_integer())
    return "integer";
  return value.type_name();
}

bool hasType(const Json &value, std::string_view type) {
  if (type == "string")
    return value.is_string();
  if (type == "integer")
    return value.is_number_integer() ||
           (value.is_number_float() && std::nearbyint(value.get<double>()) == value.get<double>());
  if (type == "number")
    return value.is_number();
  if (type == "boolean")
    return value.is_boolean();
  if (type == "object")
    return value.is_object();
  if (type == "array")
    return value.is_array();
  if (type == "null")
    return value.is_null();
  return true;
}

std::string names(const Json &object) {
  std::vector<std::string> keys;
  for (const auto &[key, value] : object.items())
    keys.push_back(key);
  return fmt::format("{}", fmt::join(keys, ", "));
}

/// The string parameter `key` of `method`, which a request must carry.
std::string requiredString(const Json &params, std::string_view method, const std::string &key) {
  if (!params.contains(key) || !params[key].is_string())
    throw RpcError{InvalidParams, fmt::format("`{}` needs `{}`, a string", method, key)};
  return params[key].get<std::string>();
}

} // namespace

std::optional<std::string> schemaViolation(const Json &schema, const Json &value,
                                           const std::string &where) {
  if (!schema.is_object())
    return std::nullopt;
  if (schema.contains("type") && schema["type"].is_string()) {
    std::string type = schema["type"];
    if (!hasType(value, type))
      return fmt::format("`{}` must be {} {}, not {}", where,
                         type == "integer" || type == "array" || type == "object" ? "an" : "a",
                         type, typeName(value));
  }
  if (schema.contains("enum") && schema["enum"].is_array()) {
    const Json &allowed = schema["enum"];
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
      std::vector<std::string> spelled;
      for (const Json &option : allowed)
        spelled.push_back(dumpLine(option));
      return fmt::format("`{}` must be one of {}, not {}", where, fmt::join(spelled, ", "),
                         dumpLine(value));
    }
  }
  if (value.is_number()) {
    double number = value.get<double>();
    if (schema.contains("minimum") && number < schema["minimum"].get<double>())
      return fmt::format("`{}` must be at least {}, not {}", where, dumpLine(schema["minimum"]),
                         dumpLine(value));
    if (schema.contains("maximum") && number > schema["maximum"].get<double>())
      return fmt::format("`{}` must be at most {}, not {}", where, dumpLine(schema["maximum"]),
                         dumpLine(value));
  }
  if (value.is_string() && schema.contains("minLength") &&
      value.get_ref<const std::string &>().size() < schema["minLength"].get<size_t>())
    return fmt::format("`{}` must not be empty", where);
  if (value.is_array() && schema.contains("items"))
    for (size_t i = 0; i < value.size(); ++i)
      if (auto problem = schemaViolation(schema["items"], value[i], fmt::format("{}[{}]", where, i)))
        return problem;
  if (value.is_object()) {
    Json properties = schema.value("properties", Json::object());
    if (schema.contains("required"))
      for (const Json &name : schema["required"])
        if (name.is_string() && !value.contains(name.get<std::string>()))
          return fmt::format("`{}` needs `{}`", where, name.get<std::string>());
    for (const auto &[key, item] : value.items()) {
      if (properties.contains(key)) {
        if (auto problem = schemaViolation(properties[key], item, where + "." + key))
          return problem;
      } else if (schema.value("additionalProperties", true) == false) {
        return fmt::format("`{}` has no property `{}`; the properties are {}", where, key,
                           names(properties));
      }
    }
  }
  return std::nullopt;
}

Server::Server(ServerInfo info, std::vector<Tool> tools, std::vector<Resource> resources)
    : info_(std::move(info)), tools_(std::move(tools)), resources_(std::move(resources)) {}

bool Server::speaksAtLeast(std::string_view version) const {
  return !protocolVersion_.empty() && protocolVersion_ >= version;
}

std::optional<std::string> Server::handleLine(std::string_view line) {
  size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos)
    return std::nullopt; // a blank line is no message
  Json message;
  try {
    message = Json::parse(line.begin(), line.end(),
                          [](int depth, Json::parse_event_t, Json &) {
                            if (depth > kMaxJsonDepth)
                              throw TooDeep{};
                            return true;
                          });
  } catch (const Json::parse_error &error) {
    return dumpLine(errorResponse(nullptr, ParseError, fmt::format("parse error: {}", error.what())));
  } catch (const TooDeep &) {
    return dumpLine(errorResponse(
        nullptr, ParseError, fmt::format("parse error: JSON nested deeper than {} levels", kMaxJsonDepth)));
  }
  if (!message.is_object())
    return dumpLine(errorResponse(
        nullptr, InvalidRequest,
        message.is_array() ? "a message must be one JSON object; batches are not supported"
                           : "a message must be a JSON object"));

  // The id, when it is one a response can carry back.
  Json id = nullptr;
  bool isRequest = message.contains("id");
  if (isRequest) {
    const Json &given = message["id"];
    if (!given.is_string() && !given.is_number())
      return dumpLine(errorResponse(nullptr, InvalidRequest,
                                    fmt::format("`id` must be a string or a number, not {}",
                                                typeName(given))));
    id = given;
  }
  if (message.value("jsonrpc", Json()) != "2.0")
    return dumpLine(errorResponse(id, InvalidRequest, "`jsonrpc` must be \"2.0\""));
  if (!message.contains("method")) {
    if (message.contains("result") || message.contains("error"))
      return std::nullopt; // a response; this server sends no requests
    return dumpLine(errorResponse(id, InvalidRequest, "a request needs `method`"));
  }
  if (!message["method"].is_string())
    return dumpLine(errorResponse(id, InvalidRequest, "`method` must be a string"));
  std::string method = message["method"];
  Json params = message.value("params", Json::object());

  if (!isRequest) {
    // Notifications are never answered. This server runs one request at a
    // time, so a cancellation always arrives after its request was
    // answered; `initialized` changes nothing either.
    return std::nullopt;
  }
  if (!params.is_object())
    return dumpLine(errorResponse(id, InvalidParams,
                                  fmt::format("`params` of `{}` must be an object, not {}", method,
                                              typeName(params))));
  try {
    Json result = dispatch(method, params);
    return dumpLine(Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
  } catch (const RpcError &error) {
    return dumpLine(errorResponse(id, error.code, error.message, error.data));
  } catch (const std::exception &error) {
    return dumpLine(errorResponse(id, InternalError,
                                  fmt::format("internal error in `{}`: {}", method, error.what())));
  }
}

Json Server::dispatch(const std::string &method, const Json &params) {
  if (method == "ping")
    return Json::object();
  if (method == "initialize")
    return initialize(params);
  static const std::vector<std::string> methods = {
      "initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/read",
      "resources/templates/list"};
  if (std::find(methods.begin(), methods.end(), method) == methods.end())
    throw RpcError{MethodNotFound, fmt::format("method `{}` not found; this server has {}", method,
                                               fmt::join(methods, ", "))};
  if (protocolVersion_.empty())
    throw RpcError{InvalidRequest,
                   fmt::format("`{}` before `initialize`; initialize the session first", method)};
  if (method.ends_with("/list") && params.contains("cursor"))
    throw RpcError{InvalidParams, "invalid `cursor`: this server returns every item on one page"};
  if (method == "tools/list")
    return listTools();
  if (method == "tools/call")
    return callTool(params);
  if (method == "resources/list")
    return listResources();
  if (method == "resources/templates/list")
    return Json{{"resourceTemplates", Json::array()}};
  return readResource(params);
}

Json Server::initialize(const Json &params) {
  if (!protocolVersion_.empty())
    throw RpcError{InvalidRequest, "the session is already initialized"};
  // The client's revision when this server speaks it; otherwise this
  // server's newest, and the client decides whether it can go on.
  std::string requested = requiredString(params, "initialize", "protocolVersion");
  const std::vector<std::string> &supported = supportedProtocolVersions();
  protocolVersion_ = std::find(supported.begin(), supported.end(), requested) != supported.end()
                         ? requested
                         : supported.front();
  Json serverInfo{{"name", info_.name}, {"version", info_.version}};
  if (speaksAtLeast("2025-06-18"))
    serverInfo["title"] = info_.title;
  Json result{{"protocolVersion", protocolVersion_},
              {"capabilities",
               {{"tools", {{"listChanged", false}}},
                {"resources", {{"subscribe", false}, {"listChanged", false}}}}},
              {"serverInfo", std::move(serverInfo)}};
  if (!info_.instructions.empty())
    result["instructions"] = info_.instructions;
  return result;
}

Json Server::listTools() const {
  Json tools = Json::array();
  for (const Tool &tool : tools_) {
    Json entry{{"name", tool.name}, {"description", tool.description},
               {"inputSchema", tool.inputSchema}};
    // Titles and structured output came with 2025-06-18, annotations with
    // 2025-03-26: an older client gets the tool as its revision defines it.
    if (speaksAtLeast("2025-06-18")) {
      entry["title"] = tool.title;
      entry["outputSchema"] = tool.outputSchema;
    }
    if (speaksAtLeast("2025-03-26"))
      entry["annotations"] = tool.annotations;
    tools.push_back(std::move(entry));
  }
  return Json{{"tools", std::move(tools)}};
}

Json Server::callTool(const Json &params) {
  std::string name = requiredString(params, "tools/call", "name");
  auto tool = std::find_if(tools_.begin(), tools_.end(),
                           [&](const Tool &candidate) { return candidate.name == name; });
  if (tool == tools_.end()) {
    std::vector<std::string> known;
    for (const Tool &candidate : tools_)
      known.push_back(candidate.name);
    throw RpcError{InvalidParams,
                   fmt::format("unknown tool `{}`; the tools are {}", name, fmt::join(known, ", "))};
  }
  Json arguments = params.value("arguments", Json::object());
  if (!arguments.is_object())
    throw RpcError{InvalidParams, fmt::format("`arguments` of `{}` must be an object, not {}", name,
                                              typeName(arguments))};

  auto badArguments = [&](const std::string &problem) -> Json {
    std::string message = fmt::format("invalid arguments for tool `{}`: {}", name, problem);
    if (!speaksAtLeast("2025-11-25"))
      throw RpcError{InvalidParams, message};
    return Json{{"content", {{{"type", "text"}, {"text", message}}}}, {"isError", true}};
  };
  if (auto problem = schemaViolation(tool->inputSchema, arguments))
    return badArguments(*problem);
  ProgressFn progress = [](const std::string &) {};
  Json meta = params.value("_meta", Json::object());
  if (notify_ && meta.is_object() && meta.contains("progressToken") &&
      (meta["progressToken"].is_string() || meta["progressToken"].is_number())) {
    progress = [this, token = meta["progressToken"], done = 0](const std::string &message) mutable {
      Json notification{{"jsonrpc", "2.0"},
                        {"method", "notifications/progress"},
                        {"params", {{"progressToken", token}, {"progress", ++done}}}};
      if (speaksAtLeast("2025-03-26")) // `message` came with 2025-03-26
        notification["params"]["message"] = message;
      notify_(dumpLine(notification));
    };
  }
  ToolResult result;
  try {
    result = tool->call(arguments, progress);
  } catch (const InvalidArguments &error) {
    return badArguments(error.what());
  }

  Json content = Json::array();
  if (!result.text.empty())
    content.push_back({{"type", "text"}, {"text", result.text}});
  Json out{{"isError", result.isError}};
  if (result.structured.is_object()) {
    // The specification asks for the structured result serialized in a
    // text block too, for clients that read only text.
    content.push_back({{"type", "text"}, {"text", result.structured.dump(
                                                      2, ' ', false, Json::error_handler_t::replace)}});
    if (speaksAtLeast("2025-06-18"))
      out["structuredContent"] = std::move(result.structured);
  }
  if (content.empty())
    content.push_back({{"type", "text"}, {"text", ""}});
  out["content"] = std::move(content);
  return out;
}

Json Server::listResources() const {
  Json resources = Json::array();
  for (const Resource &resource : resources_) {
    Json entry{{"uri", resource.uri},
               {"name", resource.name},
               {"description", resource.description},
               {"mimeType", resource.mimeType}};
    if (speaksAtLeast("2025-06-18"))
      entry["title"] = resource.title;
    resources.push_back(std::move(entry));
  }
  return Json{{"resources", std::move(resources)}};
}

Json Server::readResource(const Json &params) {
  std::string uri = requiredString(params, "resources/read", "uri");
  auto resource = std::find_if(resources_.begin(), resources_.end(),
                               [&](const Resource &candidate) { return candidate.uri == uri; });
  if (resource == resources_.end())
    throw RpcError{ResourceNotFound, fmt::format("resource `{}` not found; see resources/list", uri),
                   Json{{"uri", uri}}};
  return Json{{"contents",
               {{{"uri", resource->uri}, {"mimeType", resource->mimeType}, {"text", resource->read()}}}}};
}

namespace {

/// Writes all of `text`; false when the reader has gone.
bool writeAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    text.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

} // namespace

int serveLines(Server &server, int inFd, int outFd) {
  server.setNotifier([outFd](const std::string &notification) {
    return writeAll(outFd, notification + "\n");
  });
  std::string line;
  bool overflow = false; // the current line passed kMaxMessageBytes
  auto finishLine = [&]() -> bool {
    std::optional<std::string> reply;
    if (overflow)
      reply = dumpLine(errorResponse(
          nullptr, InvalidRequest,
          fmt::format("message longer than {} bytes; it was dropped", kMaxMessageBytes)));
    else
      reply = server.handleLine(line);
    line.clear();
    overflow = false;
    return !reply || writeAll(outFd, *reply + "\n");
  };

  std::vector<char> buffer(1 << 16);
  for (;;) {
    ssize_t got = ::read(inFd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    std::string_view chunk(buffer.data(), static_cast<size_t>(got));
    while (!chunk.empty()) {
      size_t newline = chunk.find('\n');
      std::string_view piece = chunk.substr(0, newline);
      if (!overflow && line.size() + piece.size() <= kMaxMessageBytes) {
        line.append(piece);
      } else if (!overflow) {
        overflow = true;
        std::string().swap(line); // give the memory back now
      }
      if (newline == std::string_view::npos)
        break;
      chunk.remove_prefix(newline + 1);
      if (!finishLine())
        return 0; // the client stopped reading: it is gone
    }
  }
  // A last message without its newline (the client closed mid-line) is
  // still answered if it parses; a reader that has gone costs nothing.
  if (!line.empty() || overflow)
    finishLine();
  return 0;
}

} // namespace plate::mcp
