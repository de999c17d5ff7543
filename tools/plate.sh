#!/usr/bin/env bash
# Builds plate if needed, then runs it with the given arguments:
#   tools/plate.sh run docs/examples/bradford.plate
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/tools/build.sh" >/dev/null
exec "${PLATE_BUILD_DIR:-$root/build}/tools/plate" "$@"
