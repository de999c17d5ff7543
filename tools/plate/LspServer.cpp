//===- LspServer.cpp ------------------------------------------------------===//
#include "tools/plate/LspServer.h"

#include <fmt/format.h>

#include <csignal>
#include <iostream>
#include <limits>
#include <stdexcept>

namespace plate::lsp {

namespace {

/// Bodies above this are refused (and skipped) before being parsed. A
/// script is refused by the compiler at 4 MiB (E110); the margin lets a
/// larger document still arrive and get that diagnostic.
constexpr size_t kMaxMessageBytes = 64u << 20;

constexpr int kLogError = 1; // window/logMessage's MessageType.Error

/// A request whose params are not what the method takes.
struct InvalidParams : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const Json &member(const Json &object, const char *key) {
  if (!object.is_object())
    throw InvalidParams(fmt::format("expected an object with `{}`", key));
  auto found = object.find(key);
  if (found == object.end())
    throw InvalidParams(fmt::format("missing `{}`", key));
  return *found;
}

std::string stringMember(const Json &object, const char *key) {
  const Json &value = member(object, key);
  if (!value.is_string())
    throw InvalidParams(fmt::format("`{}` must be a string", key));
  return value.get<std::string>();
}

uint32_t unsignedMember(const Json &object, const char *key) {
  const Json &value = member(object, key);
  if (!value.is_number_integer() || value.get<int64_t>() < 0 ||
      value.get<int64_t>() > std::numeric_limits<uint32_t>::max())
    throw InvalidParams(fmt::format("`{}` must be a non-negative integer", key));
  return static_cast<uint32_t>(value.get<int64_t>());
}

Position positionMember(const Json &object, const char *key) {
  const Json &value = member(object, key);
  return Position{unsignedMember(value, "line"), unsignedMember(value, "character")};
}

Range rangeMember(const Json &object, const char *key) {
  const Json &value = member(object, key);
  return Range{positionMember(value, "start"), positionMember(value, "end")};
}

bool validId(const Json &id) { return id.is_number_integer() || id.is_string(); }

/// LSP messages nest a handful of levels. nlohmann::json parses any depth
/// but copies and prints recursively, so `[[[[...]]]]` 100,000 deep in a
/// request's params would overflow the stack; such a body is refused before
/// it is parsed.
constexpr size_t kMaxJsonDepth = 64;

bool nestsDeeperThan(std::string_view body, size_t limit) {
  size_t depth = 0;
  bool inString = false, escaped = false;
  for (char c : body) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

} // namespace

LspServer::LspServer(ServerOptions options, Sender send)
    : options_(std::move(options)), send_(std::move(send)) {}

LspServer::~LspServer() = default;

//===--- Output --------------------------------------------------------------===//

void LspServer::send(const Json &message) {
  if (!finished_ && !send_(message))
    finished_ = true; // the client closed its input: nobody is listening
}

void LspServer::reply(const Json &id, Json result) {
  send(Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void LspServer::replyError(const Json &id, ErrorCode code, const std::string &message) {
  send(Json{{"jsonrpc", "2.0"},
            {"id", id},
            {"error", {{"code", static_cast<int>(code)}, {"message", message}}}});
}

void LspServer::logMessage(int type, const std::string &message) {
  send(Json{{"jsonrpc", "2.0"},
            {"method", "window/logMessage"},
            {"params", {{"type", type}, {"message", message}}}});
}

//===--- Input ---------------------------------------------------------------===//

void LspServer::handleFrame(const Frame &frame) {
  switch (frame.kind) {
  case Frame::Kind::Message:
    handleBody(frame.body);
    return;
  case Frame::Kind::BadHeader:
  case Frame::Kind::TooLarge:
    // No id can be known: the body was never read as JSON.
    replyError(nullptr, ErrorCode::ParseError, frame.error);
    return;
  case Frame::Kind::End:
    return;
  }
}

void LspServer::handleBody(std::string_view body) {
  if (nestsDeeperThan(body, kMaxJsonDepth)) {
    replyError(nullptr, ErrorCode::ParseError,
               fmt::format("the message nests deeper than {} levels", kMaxJsonDepth));
    return;
  }
  Json message = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    replyError(nullptr, ErrorCode::ParseError, "the message is not JSON");
    return;
  }
  handleMessage(message);
}

void LspServer::handleMessage(const Json &message) {
  if (!message.is_object()) {
    // LSP has no batches; an array is as invalid as a number.
    replyError(nullptr, ErrorCode::InvalidRequest, "a message must be a JSON object");
    return;
  }
  auto idIt = message.find("id");
  bool hasId = idIt != message.end();
  Json id = hasId && validId(*idIt) ? *idIt : Json(nullptr);
  auto jsonrpc = message.find("jsonrpc");
  if (jsonrpc == message.end() || *jsonrpc != "2.0") {
    replyError(id, ErrorCode::InvalidRequest, "`jsonrpc` must be \"2.0\"");
    return;
  }
  auto method = message.find("method");
  if (method == message.end()) {
    // A response to a request of ours; the server sends none, so there
    // is nothing to match it with.
    if (!message.contains("result") && !message.contains("error"))
      replyError(id, ErrorCode::InvalidRequest, "a message needs a `method`");
    return;
  }
  if (!method->is_string()) {
    replyError(id, ErrorCode::InvalidRequest, "`method` must be a string");
    return;
  }
  if (hasId && !validId(*idIt)) {
    replyError(nullptr, ErrorCode::InvalidRequest, "`id` must be an integer or a string");
    return;
  }
  // A reference, not a copy: a didOpen's params hold the whole document.
  static const Json kNoParams;
  auto paramsIt = message.find("params");
  const Json &params = paramsIt == message.end() ? kNoParams : *paramsIt;
  if (!params.is_null() && !params.is_object() && !params.is_array()) {
    if (hasId)
      replyError(id, ErrorCode::InvalidRequest, "`params` must be an object or an array");
    return;
  }
  if (hasId)
    handleRequest(id, method->get<std::string>(), params);
  else
    handleNotification(method->get<std::string>(), params);
}

void LspServer::handleRequest(const Json &id, const std::string &method, const Json &params) {
  if (method == "initialize") {
    if (initialized_) {
      replyError(id, ErrorCode::InvalidRequest, "initialize was already sent");
      return;
    }
    initialized_ = true;
    reply(id, initialize(params));
    return;
  }
  if (!initialized_) {
    replyError(id, ErrorCode::ServerNotInitialized, "the first request must be initialize");
    return;
  }
  if (shutdown_) {
    replyError(id, ErrorCode::InvalidRequest, "the server is shutting down");
    return;
  }
  try {
    if (method == "shutdown") {
      shutdown_ = true;
      reply(id, nullptr);
    } else if (method == "textDocument/hover") {
      OpenDocument &doc = document(params);
      reply(id, analysisOf(doc).hover(positionMember(params, "position")));
    } else if (method == "textDocument/definition") {
      OpenDocument &doc = document(params);
      reply(id, analysisOf(doc).definition(positionMember(params, "position")));
    } else if (method == "textDocument/references") {
      OpenDocument &doc = document(params);
      Position position = positionMember(params, "position");
      bool includeDeclaration = true;
      if (params.contains("context")) {
        const Json &flag = member(member(params, "context"), "includeDeclaration");
        if (!flag.is_boolean())
          throw InvalidParams("`includeDeclaration` must be a boolean");
        includeDeclaration = flag.get<bool>();
      }
      reply(id, analysisOf(doc).references(position, includeDeclaration));
    } else if (method == "textDocument/completion") {
      OpenDocument &doc = document(params);
      Position position = positionMember(params, "position");
      reply(id, Json{{"isIncomplete", false},
                     {"items", analysisOf(doc).completion(position, doc.text)}});
    } else if (method == "textDocument/documentSymbol") {
      OpenDocument &doc = document(params);
      reply(id, analysisOf(doc).documentSymbols());
    } else if (method == "textDocument/codeAction") {
      OpenDocument &doc = document(params);
      reply(id, analysisOf(doc).codeActions(rangeMember(params, "range")));
    } else {
      replyError(id, ErrorCode::MethodNotFound, fmt::format("no method `{}`", method));
    }
  } catch (const InvalidParams &error) {
    replyError(id, ErrorCode::InvalidParams, error.what());
  } catch (const Json::exception &error) {
    replyError(id, ErrorCode::InvalidParams, error.what());
  } catch (const std::exception &error) {
    replyError(id, ErrorCode::InternalError, error.what());
  }
}

void LspServer::handleNotification(const std::string &method, const Json &params) {
  if (method == "exit") {
    finished_ = true;
    return;
  }
  // Before initialize every notification but exit is dropped, and after
  // shutdown there is nothing left to do.
  if (!initialized_ || shutdown_)
    return;
  try {
    if (method == "textDocument/didOpen") {
      const Json &item = member(params, "textDocument");
      std::string uri = stringMember(item, "uri");
      const Json &version = member(item, "version");
      if (!version.is_number_integer())
        throw InvalidParams("`version` must be an integer");
      std::string text = stringMember(item, "text"); // before a document exists
      OpenDocument &doc = documents_[uri];
      doc.uri = uri;
      doc.text.setText(std::move(text));
      doc.version = version.get<int64_t>();
      doc.analysis.reset();
      doc.publishedVersion.reset();
    } else if (method == "textDocument/didChange") {
      OpenDocument &doc = document(params);
      // The version first: a change that fails half way still leaves a
      // text the client did not send, and that version is published.
      const Json &version = member(member(params, "textDocument"), "version");
      if (!version.is_number_integer())
        throw InvalidParams("`version` must be an integer");
      doc.version = version.get<int64_t>();
      doc.analysis.reset();
      const Json &changes = member(params, "contentChanges");
      if (!changes.is_array())
        throw InvalidParams("`contentChanges` must be an array");
      // Each change applies to the text the previous one left.
      for (const Json &change : changes) {
        std::string text = stringMember(change, "text");
        if (change.contains("range")) {
          if (!doc.text.replace(rangeMember(change, "range"), text))
            throw InvalidParams("a change's range ends before it starts");
        } else {
          doc.text.setText(std::move(text));
        }
      }
    } else if (method == "textDocument/didClose") {
      std::string uri = stringMember(member(params, "textDocument"), "uri");
      if (documents_.erase(uri))
        send(Json{{"jsonrpc", "2.0"},
                  {"method", "textDocument/publishDiagnostics"},
                  {"params", {{"uri", uri}, {"diagnostics", Json::array()}}}});
    }
    // initialized, didSave, $/cancelRequest (requests are answered in
    // order within milliseconds), $/setTrace and unknown notifications
    // need nothing.
  } catch (const std::exception &error) {
    // A notification gets no reply; say what was wrong in the client's log.
    logMessage(kLogError, fmt::format("{}: {}", method, error.what()));
  }
}

Json LspServer::initialize(const Json &params) {
  (void)params; // UTF-16 positions are the protocol's default; nothing to negotiate
  Json capabilities{
      {"positionEncoding", "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 2 /* Incremental */}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"completionProvider", {{"triggerCharacters", Json::array({"<"})}}},
      {"documentSymbolProvider", true},
      {"codeActionProvider", {{"codeActionKinds", Json::array({"quickfix"})}}},
  };
  return Json{{"capabilities", std::move(capabilities)},
              {"serverInfo", {{"name", "plate"}, {"version", PLATE_VERSION}}}};
}

//===--- Documents -----------------------------------------------------------===//

LspServer::OpenDocument &LspServer::document(const Json &params) {
  std::string uri = stringMember(member(params, "textDocument"), "uri");
  auto found = documents_.find(uri);
  if (found == documents_.end())
    throw InvalidParams(fmt::format("`{}` is not open", uri));
  return found->second;
}

const Analysis &LspServer::analysisOf(OpenDocument &doc) {
  if (!doc.analysis) {
    doc.analysis = std::make_unique<Analysis>(doc.uri, pathOfUri(doc.uri), doc.text.text(),
                                              options_.stdlibDir);
    if (options_.logTiming)
      std::cerr << fmt::format("plate lsp: {} version {} compiled in {:.2f} ms\n", doc.uri,
                               doc.version, doc.analysis->compileMilliseconds());
  }
  if (doc.publishedVersion != doc.version)
    publish(doc);
  return *doc.analysis;
}

void LspServer::publish(OpenDocument &doc) {
  doc.publishedVersion = doc.version;
  send(Json{{"jsonrpc", "2.0"},
            {"method", "textDocument/publishDiagnostics"},
            {"params",
             {{"uri", doc.uri}, {"version", doc.version}, {"diagnostics", doc.analysis->diagnostics()}}}});
}

void LspServer::publishStale() {
  for (auto &[uri, doc] : documents_) {
    if (finished_)
      return;
    if (doc.analysis && doc.publishedVersion == doc.version)
      continue;
    try {
      analysisOf(doc);
    } catch (const std::exception &error) {
      // Nobody asked, so nobody gets an error reply; the version is marked
      // published so that the next idle moment does not fail the same way.
      doc.publishedVersion = doc.version;
      logMessage(kLogError, fmt::format("{}: cannot compile version {}: {}", uri, doc.version,
                                        error.what()));
    }
  }
}

//===--- The loop ------------------------------------------------------------===//

int runLspServer(int in, int out, ServerOptions options) {
  // A client that closes its end mid-reply must not kill the server with
  // SIGPIPE; the failed write ends the loop instead.
  std::signal(SIGPIPE, SIG_IGN);
  MessageReader reader(in, kMaxMessageBytes);
  LspServer server(std::move(options), [out](const Json &message) { return writeMessage(out, message); });
  while (!server.finished()) {
    if (!reader.inputPending())
      server.publishStale();
    if (server.finished())
      break;
    Frame frame = reader.next();
    if (frame.kind == Frame::Kind::End)
      break;
    server.handleFrame(frame);
  }
  return server.exitCode();
}

} // namespace plate::lsp
