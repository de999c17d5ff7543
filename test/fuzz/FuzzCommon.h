//===- FuzzCommon.h - Shared set-up of the libFuzzer targets ---------------===//
//
// Every target registers the fuzz input as a buffer, runs one reader or
// one pipeline stage over it and discards the diagnostics: a target fails
// only by crashing, hanging, leaking or tripping a sanitizer. Invariants
// that must hold whatever the input (a stream the compiler accepted is
// legal for the twin) abort with a message so libFuzzer keeps the input.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Platform.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace plate::fuzz {

/// The stdlib the targets load platforms and modules from: $PLATE_STDLIB
/// when set, else the source tree's.
inline const std::string &stdlibDir() {
  static const std::string dir = [] {
    if (const char *env = std::getenv("PLATE_STDLIB"))
      return std::string(env);
    return std::string(PLATE_STDLIB_DIR);
  }();
  return dir;
}

[[noreturn]] inline void fuzzFailure(const std::string &what) {
  std::fprintf(stderr, "plate fuzz invariant broken: %s\n", what.c_str());
  std::abort();
}

} // namespace plate::fuzz
