#!/bin/sh
# ot2_corpus_sweep.sh - scripts through the OT-2 backend (--manual-fallback)
# and Opentrons' own simulator, compared well by well with the BioForge-1
# simulator (docs/porting.md). The test suite runs it on the corpus
# (test/lit/ot2/simulate-corpus.test); by hand it takes any scripts, such
# as the held-out truths:
#
#   tools/ot2_corpus_sweep.sh [BUILD_DIR [SCRIPT...]]   # one line per script
#   tools/ot2_corpus_sweep.sh build test/heldout/*/*/truth.plate
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- "$root"/test/corpus/*/truth.plate
export OPENTRONS_SNAPSHOT="${OPENTRONS_SNAPSHOT:-$root/../shared/peers/opentrons}"
export PYTHONDONTWRITEBYTECODE=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 "$root/test/lit/ot2/Inputs/ot2_sweep.py" "$build/tools/plate" "$out" "$@"
