#!/usr/bin/env bash
# Sets up the machine (tools/setup.sh) and builds plate into build/.
# PLATE_BUILD_DIR and PLATE_CMAKE_ARGS override the defaults.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PLATE_BUILD_DIR:-$root/build}"
"$root/tools/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  # shellcheck disable=SC2086
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${PLATE_CMAKE_ARGS:-} >/dev/null
fi
ninja -C "$build" >&2
