//===- gen_main.cpp - plate_bench_gen: print a synthetic script -----------===//
//
// `plate_bench_gen --plate plate384 --steps 1000 > big.plate`: the scripts
// the benchmarks compile, for inspection and for the lit tests that check
// that every size compiles without errors.
//
//===----------------------------------------------------------------------===//
#include "bench/ScriptGen.h"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char **argv) {
  CLI::App app{"Print a synthetic, valid .plate script of the given size"};
  plate::bench::SyntheticSpec spec;
  app.add_option("--plate", spec.plateType, "plate type")
      ->check(CLI::IsMember({"plate96", "plate384"}));
  app.add_option("--steps", spec.steps, "INSTRUMENT steps")->check(CLI::Range(1u, 100000u));
  CLI11_PARSE(app, argc, argv);
  std::cout << plate::bench::generateScript(spec);
  return 0;
}
