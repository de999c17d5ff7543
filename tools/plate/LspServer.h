//===- LspServer.h - `plate lsp`: the language server ---------------------===//
//
// The protocol side of the language server (LSP 3.17): the lifecycle
// (initialize, shutdown, exit and the errors before and after them), the
// open documents with incremental sync, and the dispatch of requests to
// the per-version Analysis (tools/plate/LspAnalysis.h). It reads message
// bodies and sends JSON values through a callback, so tests and the
// benchmark drive it without pipes; runLspServer() wires it to the framing
// of tools/plate/JsonRpc.h on two file descriptors.
//
// Diagnostics are compiled lazily: a change marks its document stale, and
// the server compiles and publishes when it has caught up with its input
// (nothing more is waiting to be read) or when a request needs the new
// version. A burst of keystrokes therefore costs one compilation, not one
// per keystroke.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/plate/JsonRpc.h"
#include "tools/plate/LspAnalysis.h"
#include "tools/plate/LspDocument.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace plate::lsp {

struct ServerOptions {
  std::string stdlibDir; ///< empty: $PLATE_STDLIB or the built-in one
  /// Log each compilation's time to stderr (`plate lsp --log-timing`).
  bool logTiming = false;
};

class LspServer {
public:
  /// `send` writes one message; false when the client is gone.
  using Sender = std::function<bool(const Json &)>;
  LspServer(ServerOptions options, Sender send);
  ~LspServer();

  /// Handles one framed input (a body, or a framing error to report).
  void handleFrame(const Frame &frame);
  /// Handles one message body (JSON text as the client sent it).
  void handleBody(std::string_view body);
  /// Compiles every stale document and publishes its diagnostics.
  void publishStale();

  /// True once the server should stop: `exit`, or the output is gone.
  bool finished() const { return finished_; }
  /// LSP's rule: 0 after `shutdown` then `exit`, 1 otherwise.
  int exitCode() const { return shutdown_ ? 0 : 1; }

private:
  struct OpenDocument {
    std::string uri;
    TextDocument text;
    int64_t version = 0;
    std::unique_ptr<Analysis> analysis; ///< of `version`, or null when stale
    std::optional<int64_t> publishedVersion;
  };

  void handleMessage(const Json &message);
  void handleRequest(const Json &id, const std::string &method, const Json &params);
  void handleNotification(const std::string &method, const Json &params);
  Json initialize(const Json &params);

  OpenDocument &document(const Json &params);
  /// The analysis of the document's current text (compiled on demand; its
  /// diagnostics are published first).
  const Analysis &analysisOf(OpenDocument &document);
  void publish(OpenDocument &document);

  void send(const Json &message);
  void reply(const Json &id, Json result);
  void replyError(const Json &id, ErrorCode code, const std::string &message);
  void logMessage(int type, const std::string &message);

  ServerOptions options_;
  Sender send_;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool finished_ = false;
  std::map<std::string, OpenDocument> documents_;
};

/// Serves LSP over two file descriptors until `exit` or the end of the
/// input; returns the process exit code.
int runLspServer(int in, int out, ServerOptions options);

} // namespace plate::lsp
