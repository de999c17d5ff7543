//===- CorpusSample.h - The share of a corpus a sanitized test walks -------===//
//
// A few tests compile every script of the repository (about 700). Under
// ASan+UBSan each compile is some twenty times slower, and the sanitizers
// look for memory and undefined-behaviour faults, which a quarter of the
// scripts reaches on the same code paths as all of them (the pipeline fuzz
// target also starts from every script). So a sanitized build walks every
// fourth script, always the same ones; the normal build walks all of them
// (docs/reliability.md, "CI time").
//
//===----------------------------------------------------------------------===//
#ifndef PLATE_TEST_UNIT_CORPUSSAMPLE_H
#define PLATE_TEST_UNIT_CORPUSSAMPLE_H

#include <cstddef>
#include <vector>

namespace plate::testcorpus {

#ifdef PLATE_TESTS_SANITIZED
inline constexpr std::size_t kStride = 4;
#else
inline constexpr std::size_t kStride = 1;
#endif

/// Every kStride-th element of a sorted list, from the first.
template <typename T> std::vector<T> sample(const std::vector<T> &all) {
  std::vector<T> taken;
  for (std::size_t i = 0; i < all.size(); i += kStride)
    taken.push_back(all[i]);
  return taken;
}

} // namespace plate::testcorpus

#endif // PLATE_TEST_UNIT_CORPUSSAMPLE_H
