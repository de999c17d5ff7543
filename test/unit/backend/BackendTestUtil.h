//===- BackendTestUtil.h - Shared fixtures of the backend tests -----------===//
//
// The BioForge-1 description from stdlib, loaded once per test binary.
//
//===----------------------------------------------------------------------===//
#ifndef PLATE_TEST_UNIT_BACKEND_BACKENDTESTUTIL_H
#define PLATE_TEST_UNIT_BACKEND_BACKENDTESTUTIL_H

#include "ir/Platform.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

namespace plate::test {

inline const Platform &bioforge() {
  static SourceManager sources;
  static DiagnosticEngine diags(sources);
  static std::optional<Platform> platform =
      loadPlatform("bioforge1", PLATE_STDLIB_DIR, diags, {});
  // A missing stdlib is a broken test setup, not a test result.
  if (!platform) {
    ADD_FAILURE() << "stdlib has no loadable bioforge1 under " << PLATE_STDLIB_DIR;
    std::abort();
  }
  return *platform;
}

} // namespace plate::test

#endif
