//===- gbench_main.cpp - plate_bench: Google Benchmark microbenchmarks ----===//
//
// The same workloads as plate_bench_report, under Google Benchmark's
// statistics (repetitions, --benchmark_format=json for tooling):
// end-to-end in-process compiles of the examples and of the synthetic
// series, the parser alone on that series, and the interpreter + simulator
// on a large stream
// (items_per_second is commands per second).
//
//===----------------------------------------------------------------------===//
#include "backend/bioforge1/Backend.h"
#include "bench/BenchLib.h"
#include "bench/ScriptGen.h"
#include "frontend/Frontend.h"

#include <benchmark/benchmark.h>

#ifndef PLATE_SOURCE_DIR
#define PLATE_SOURCE_DIR "."
#endif

using namespace plate;
using namespace plate::bench;

namespace {

void compileOrSkip(benchmark::State &state, const std::string &name, const std::string &text) {
  CompileRequest request;
  request.name = name;
  request.text = text;
  size_t commands = 0;
  for (auto _ : state) {
    CompileResult result = compileStaged(request);
    if (!result.ok) {
      state.SkipWithError(("does not compile: " + result.firstError).c_str());
      return;
    }
    commands = result.commandCount;
  }
  state.counters["commands"] = static_cast<double>(commands);
}

void BM_CompileExample(benchmark::State &state, const char *file) {
  std::string path = std::string(PLATE_SOURCE_DIR) + "/" + file;
  std::optional<std::string> text = readWholeFile(path);
  if (!text) {
    state.SkipWithError(("cannot read " + path).c_str());
    return;
  }
  compileOrSkip(state, path, *text);
}
BENCHMARK_CAPTURE(BM_CompileExample, bradford, "docs/examples/bradford.plate")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileExample, il6_elisa, "docs/examples/il6_elisa.plate")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileExample, elisa96_full, "bench/elisa96_full.plate")
    ->Unit(benchmark::kMillisecond);

void BM_CompileSynthetic(benchmark::State &state) {
  SyntheticSpec spec{state.range(0) == 384 ? "plate384" : "plate96",
                     static_cast<unsigned>(state.range(1))};
  compileOrSkip(state, "synthetic.plate", generateScript(spec));
  state.SetComplexityN(state.range(0) * state.range(1));
}
BENCHMARK(BM_CompileSynthetic)
    ->ArgsProduct({{96, 384}, {10, 100, 1000}})
    ->Unit(benchmark::kMillisecond)
    ->Complexity();

// The parser alone (lexing, line splitting, ANTLR, AST building): the
// stage that the frontend's changes move, measured without the rest.
void BM_ParseSynthetic(benchmark::State &state) {
  std::string text = generateScript({state.range(0) == 384 ? "plate384" : "plate96",
                                     static_cast<unsigned>(state.range(1))});
  size_t statements = 0;
  for (auto _ : state) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    uint32_t fileId = sources.addBuffer("synthetic.plate", text);
    ast::Script script = parseScript(sources, fileId, diags);
    if (diags.hasErrors()) {
      state.SkipWithError("does not parse");
      return;
    }
    statements = 0;
    for (const ast::Section &section : script.sections)
      statements += section.statements.size();
    benchmark::DoNotOptimize(script);
  }
  state.counters["statements"] = static_cast<double>(statements);
}
BENCHMARK(BM_ParseSynthetic)
    ->ArgsProduct({{96, 384}, {100, 1000}})
    ->Unit(benchmark::kMillisecond);

void BM_RunStream(benchmark::State &state) {
  CompileRequest request;
  request.name = "synthetic.plate";
  request.text = generateScript({"plate384", static_cast<unsigned>(state.range(0))});
  request.keepIR = true;
  CompileResult compiled = compileStaged(request);
  if (!compiled.ok) {
    state.SkipWithError(("does not compile: " + compiled.firstError).c_str());
    return;
  }
  const Platform &platform = benchPlatform();
  backend::RunSetup setup =
      backend::setupFromModule(*compiled.lowered, platform, compiled.commands);
  for (auto _ : state) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    backend::RunOptions options;
    options.writeFiles = false;
    backend::RunResult result =
        backend::runCommands(compiled.commands, setup, platform, options, sources, diags);
    if (!result.ok) {
      state.SkipWithError("run failed");
      return;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * compiled.commands.size()));
}
BENCHMARK(BM_RunStream)->Arg(300)->Arg(1000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
