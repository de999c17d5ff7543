//===- lsp_bench_main.cpp - plate_lsp_bench: the language server's latency ===//
//
// What a person typing waits for: one didChange notification of the IL-6
// example until its publishDiagnostics is written (message parsing,
// incremental edit, the whole compilation, diagnostics to JSON), in process
// with the output collected instead of written to a pipe. docs/lsp.md
// quotes the figures; the whole-request figure over a real pipe comes from
// test/clients/lsp-client.mjs --measure.
//
//===----------------------------------------------------------------------===//
#include "ir/SourceManager.h"
#include "tools/plate/LspServer.h"

#include <benchmark/benchmark.h>

#ifndef PLATE_SOURCE_DIR
#define PLATE_SOURCE_DIR "."
#endif

using namespace plate;
using namespace plate::lsp;

namespace {

constexpr const char *kUri = "file:///bench/il6_elisa.plate";

struct Session {
  size_t published = 0;
  std::string lastMessage;
  LspServer server{ServerOptions{}, [this](const Json &message) {
                     lastMessage = message.dump();
                     published += message.value("method", "") == "textDocument/publishDiagnostics";
                     return true;
                   }};
  int version = 1;

  bool open(const std::string &path) {
    std::optional<std::string> text = readWholeFile(path);
    if (!text)
      return false;
    server.handleBody(
        Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", Json::object()}}}}
            .dump());
    server.handleBody(Json{{"jsonrpc", "2.0"},
                           {"method", "textDocument/didOpen"},
                           {"params",
                            {{"textDocument",
                              {{"uri", kUri}, {"languageId", "plate"}, {"version", version}, {"text", *text}}}}}}
                          .dump());
    server.publishStale();
    return true;
  }
  /// One keystroke at (line, character): insert `text`, or delete one
  /// character when `text` is empty.
  void type(uint32_t line, uint32_t character, const std::string &text) {
    Json start{{"line", line}, {"character", character}};
    Json end{{"line", line}, {"character", character + (text.empty() ? 1 : 0)}};
    server.handleBody(Json{{"jsonrpc", "2.0"},
                           {"method", "textDocument/didChange"},
                           {"params",
                            {{"textDocument", {{"uri", kUri}, {"version", ++version}}},
                             {"contentChanges", Json::array({{{"range", {{"start", start}, {"end", end}}},
                                                              {"text", text}}})}}}}
                          .dump());
    server.publishStale();
  }
};

// Typing `x` after `detection_ab` on step 3 (line 25) and deleting it:
// every other edit makes an error and its quick fix, every other one is
// clean, as when a person types.
void BM_LspEditToDiagnostics(benchmark::State &state) {
  Session session;
  if (!session.open(std::string(PLATE_SOURCE_DIR) + "/docs/examples/il6_elisa.plate")) {
    state.SkipWithError("cannot read il6_elisa.plate");
    return;
  }
  bool inserted = false;
  for (auto _ : state) {
    session.type(24, 34, inserted ? "" : "x");
    inserted = !inserted;
  }
  state.counters["published"] = static_cast<double>(session.published);
}
BENCHMARK(BM_LspEditToDiagnostics)->Unit(benchmark::kMillisecond);

// A hover on an INSTRUMENT step: the step's ops lowered to commands.
void BM_LspHoverStep(benchmark::State &state) {
  Session session;
  if (!session.open(std::string(PLATE_SOURCE_DIR) + "/docs/examples/il6_elisa.plate")) {
    state.SkipWithError("cannot read il6_elisa.plate");
    return;
  }
  std::string hover = Json{{"jsonrpc", "2.0"},
                           {"id", 2},
                           {"method", "textDocument/hover"},
                           {"params",
                            {{"textDocument", {{"uri", kUri}}},
                             {"position", {{"line", 24}, {"character", 3}}}}}}
                          .dump();
  for (auto _ : state)
    session.server.handleBody(hover);
}
BENCHMARK(BM_LspHoverStep)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
