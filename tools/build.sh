#!/usr/bin/env bash
# Sets up the machine (tools/setup.sh) and builds plate into build/.
# PLATE_BUILD_DIR and PLATE_CMAKE_ARGS override the defaults.
#
# A fresh tree is configured for a short cold build, which is what CI and a
# newcomer pay: a unity build (CMake batches of 8 sources; PLATE_UNITY=0 for
# one object per source, which rebuilds less after a one-file edit) and line
# tables instead of full debug info (backtraces and sanitizer reports keep
# file:line; full -g made every object about 40 % slower to compile).
# Measured on 2 cores, cold: 15 min before, 5 min 47 s after (docs/reliability.md, "CI time").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PLATE_BUILD_DIR:-$root/build}"
"$root/tools/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  # shellcheck disable=SC2086
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_UNITY_BUILD="$([ "${PLATE_UNITY:-1}" = 0 ] && echo OFF || echo ON)" \
    ${PLATE_CMAKE_ARGS:-} >/dev/null
fi
ninja -C "$build" >&2
