#!/usr/bin/env bash
# Builds plate and runs the whole test suite (GoogleTest + lit) with ctest.
#   PLATE_SANITIZE=1     ASan+UBSan build (build-asan/, -DPLATE_SANITIZE=ON)
#   PLATE_SANITIZE=fuzz  clang ASan+UBSan+libFuzzer build of everything
#                        (build-fuzz/, -DPLATE_FUZZ=ON)
#   PLATE_FUZZ_SECONDS=N afterwards, every fuzz target for N s (tools/fuzz.sh)
# Sanitizer reports abort the process, and a negative lit RUN line
# (%expect-exit CODE, %not) fails on an abort (docs/reliability.md);
# a sanitizer build has no benchmarks (docs/reliability.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${PLATE_SANITIZE:-}" in
  "" | 0) ;;
  fuzz)
    export PLATE_BUILD_DIR="${PLATE_BUILD_DIR:-$root/build-fuzz}" CC=clang CXX=clang++
    export PLATE_CMAKE_ARGS="${PLATE_CMAKE_ARGS:-} -DPLATE_FUZZ=ON" ;;
  *)
    export PLATE_BUILD_DIR="${PLATE_BUILD_DIR:-$root/build-asan}"
    export PLATE_CMAKE_ARGS="${PLATE_CMAKE_ARGS:-} -DPLATE_SANITIZE=ON" ;;
esac
if [ -n "${PLATE_SANITIZE:-}" ] && [ "${PLATE_SANITIZE}" != 0 ]; then
  # intercept_tls_get_addr=0: LLVM 14's runtime takes a dynamic TLS block
  # (libcurl's, dlopen'ed by the agent) for a pre-2.25 glibc one when its
  # address falls on a certain offset of a page, and LeakSanitizer's tracer
  # then dies reading it (google/sanitizers#1322; fixed after LLVM 16).
  # Leaks are still found: such a block is scanned as the heap chunk it is.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}"
fi
build="${PLATE_BUILD_DIR:-$root/build}"
"$root/tools/build.sh"
cd "$build"
ctest --output-on-failure -j2 "$@"
if [ -n "${PLATE_FUZZ_SECONDS:-}" ]; then
  if [ "${PLATE_SANITIZE:-}" = fuzz ]; then export PLATE_FUZZ_BUILD_DIR="$build"; fi
  "$root/tools/fuzz.sh" all "$PLATE_FUZZ_SECONDS"
fi
