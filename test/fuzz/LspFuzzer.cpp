//===- LspFuzzer.cpp - libFuzzer target: the language server's input ------===//
//
// The bytes are what a client writes to `plate lsp`: framing, JSON-RPC,
// params and document text, read through the same MessageReader and handed
// to the same LspServer as in `runLspServer`, with every stale document
// compiled after each message (so edits reach the compiler and the index).
// A hostile client must get protocol errors or diagnostics, never a crash.
// An `initialize` goes first so that the requests in the input are served
// rather than refused.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "tools/plate/LspServer.h"

#include <sys/mman.h>
#include <unistd.h>

using namespace plate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string initialize = [] {
    std::string body = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}})";
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }();
  // A memory file stands in for the pipe: the reader reads a descriptor.
  int fd = ::memfd_create("lsp-fuzz", 0);
  if (fd < 0)
    fuzz::fuzzFailure("memfd_create failed");
  std::string input = initialize + std::string(reinterpret_cast<const char *>(data), size);
  for (size_t written = 0; written < input.size();) {
    ssize_t n = ::write(fd, input.data() + written, input.size() - written);
    if (n <= 0)
      fuzz::fuzzFailure("cannot write the memory file");
    written += static_cast<size_t>(n);
  }
  ::lseek(fd, 0, SEEK_SET);

  lsp::ServerOptions options;
  options.stdlibDir = fuzz::stdlibDir();
  size_t replies = 0;
  lsp::LspServer server(std::move(options), [&](const lsp::Json &message) {
    // Whatever the input, each message out is JSON-RPC: a response with
    // exactly one of result and error, or a notification.
    lsp::Json back = lsp::Json::parse(
        message.dump(-1, ' ', false, lsp::Json::error_handler_t::replace), nullptr, false);
    bool response = back.is_object() && back.contains("id") &&
                    back.contains("result") != back.contains("error");
    bool notification = back.is_object() && !back.contains("id") && back.contains("method");
    if (back.value("jsonrpc", "") != "2.0" || !(response || notification))
      fuzz::fuzzFailure("not a JSON-RPC message: " + back.dump());
    ++replies;
    return true;
  });
  lsp::MessageReader reader(fd, 1u << 20);
  while (!server.finished()) {
    lsp::Frame frame = reader.next();
    if (frame.kind == lsp::Frame::Kind::End)
      break;
    server.handleFrame(frame);
    server.publishStale();
  }
  ::close(fd);
  if (replies == 0)
    fuzz::fuzzFailure("initialize got no reply");
  return 0;
}
