#!/usr/bin/env bash
# Builds plate and runs the whole test suite (GoogleTest + lit) with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PLATE_BUILD_DIR:-$root/build}"
"$root/tools/build.sh"
cd "$build"
ctest --output-on-failure -j2 "$@"
