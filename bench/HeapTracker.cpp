//===- HeapTracker.cpp - Heap high-water mark for the benchmarks ----------===//
//
// Replaces the global operator new/delete of the benchmark executables so
// that peak memory can be stated per compilation rather than per process
// (getrusage's maxrss only ever grows). Sizes come from
// malloc_usable_size, so a block is counted the same on both sides.
// Allocations that bypass operator new (ANTLR's and libc's own malloc
// calls) are not counted; almost everything the compiler allocates goes
// through the C++ containers.
//
//===----------------------------------------------------------------------===//
#include "bench/BenchLib.h"

#include <atomic>
#include <cstdlib>
#include <malloc.h>
#include <new>

namespace {
std::atomic<size_t> liveBytes{0};
std::atomic<size_t> peakBytes{0};
std::atomic<size_t> baseBytes{0};

void *allocate(size_t size, size_t alignment = 0) {
  if (size == 0)
    size = 1;
  void *block = nullptr;
  if (alignment > alignof(std::max_align_t)) {
    if (posix_memalign(&block, alignment, size) != 0)
      block = nullptr;
  } else {
    block = std::malloc(size);
  }
  if (!block)
    throw std::bad_alloc();
  size_t live = liveBytes.fetch_add(malloc_usable_size(block)) + malloc_usable_size(block);
  size_t peak = peakBytes.load(std::memory_order_relaxed);
  while (live > peak && !peakBytes.compare_exchange_weak(peak, live))
    ;
  return block;
}

void release(void *block) {
  if (!block)
    return;
  liveBytes.fetch_sub(malloc_usable_size(block));
  std::free(block);
}
} // namespace

void *operator new(size_t size) { return allocate(size); }
void *operator new[](size_t size) { return allocate(size); }
void *operator new(size_t size, std::align_val_t align) {
  return allocate(size, static_cast<size_t>(align));
}
void *operator new[](size_t size, std::align_val_t align) {
  return allocate(size, static_cast<size_t>(align));
}
void *operator new(size_t size, const std::nothrow_t &) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void *operator new[](size_t size, const std::nothrow_t &) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void *block) noexcept { release(block); }
void operator delete[](void *block) noexcept { release(block); }
void operator delete(void *block, size_t) noexcept { release(block); }
void operator delete[](void *block, size_t) noexcept { release(block); }
void operator delete(void *block, std::align_val_t) noexcept { release(block); }
void operator delete[](void *block, std::align_val_t) noexcept { release(block); }
void operator delete(void *block, size_t, std::align_val_t) noexcept { release(block); }
void operator delete[](void *block, size_t, std::align_val_t) noexcept { release(block); }

namespace plate::bench {

void heapResetPeak() {
  size_t live = liveBytes.load();
  baseBytes.store(live);
  peakBytes.store(live);
}

size_t heapPeakBytes() { return peakBytes.load() - baseBytes.load(); }

} // namespace plate::bench
