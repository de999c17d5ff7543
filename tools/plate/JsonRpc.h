//===- JsonRpc.h - The LSP base protocol: Content-Length framing ----------===//
//
// Reads and writes JSON-RPC messages framed the way LSP 3.17 frames them: a
// header block of `Name: value` lines (Content-Length required, counted in
// bytes), an empty line, then the UTF-8 body. Only the framing lives here;
// what a body means is the server's business (tools/plate/LspServer.h).
//
// The reader never trusts its input: a header block it cannot read is
// reported and skipped so that the next message can still be served, a
// body larger than the limit is read past without being held in memory,
// and the end of the input in the middle of a message is just the end.
// (MCP's stdio transport frames by newline instead; the two do not share a
// reader on purpose, see ../shared/reference/wire.md §6.)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/plate/JsonRpcErrors.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace plate::lsp {

/// What the next read of the input gave.
struct Frame {
  enum class Kind {
    Message,   ///< `body` holds one message body (not yet parsed as JSON)
    BadHeader, ///< a header block that names no usable length; `error` says why
    TooLarge,  ///< a body over the limit, skipped; `error` says how large
    End,       ///< the input closed (possibly in the middle of a message)
  };
  Kind kind = Kind::End;
  std::string body;
  std::string error;
};

class MessageReader {
public:
  /// Bodies above `maxBodyBytes` are skipped and reported as TooLarge.
  MessageReader(int fd, size_t maxBodyBytes);

  Frame next();
  /// True when more input can be read without blocking (buffered bytes or
  /// a readable descriptor): the server then catches up before it spends
  /// time on work a later message would make stale.
  bool inputPending() const;

private:
  /// Reads more bytes into the buffer; false at the end of the input.
  bool fill();
  /// One header line without its terminator; false at the end of the
  /// input. A line longer than the limit is consumed and marked `tooLong`.
  bool readLine(std::string &line, bool &tooLong);

  int fd_;
  size_t maxBodyBytes_;
  std::string buffer_;
  size_t pos_ = 0;
  bool eof_ = false;
};

/// Writes one message with its Content-Length header. Strings that are not
/// valid UTF-8 (a document of binary garbage quoted in a message) are
/// written with U+FFFD in place of the bad bytes. False when the output is
/// gone (the client closed it).
bool writeMessage(int fd, const nlohmann::json &message);

/// The JSON-RPC error codes of LSP 3.17 that the server sends.
enum class ErrorCode : int {
  ParseError = jsonrpc::kParseError,
  InvalidRequest = jsonrpc::kInvalidRequest,
  MethodNotFound = jsonrpc::kMethodNotFound,
  InvalidParams = jsonrpc::kInvalidParams,
  InternalError = jsonrpc::kInternalError,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
};

} // namespace plate::lsp
