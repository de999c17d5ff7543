#!/bin/sh
# ot2_corpus_sweep.sh - every test/corpus truth script through the OT-2
# backend (--manual-fallback) and Opentrons' own simulator, compared well by
# well with the BioForge-1 simulator (docs/porting.md). Too slow for the
# suite (about 2 s of Opentrons start-up per script); run by hand after a
# change to backend/ot2.
#
#   tools/ot2_corpus_sweep.sh [BUILD_DIR]     # one line per script
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
plate=$build/tools/plate
export OPENTRONS_SNAPSHOT="${OPENTRONS_SNAPSHOT:-$root/../shared/peers/opentrons}"
export PYTHONDONTWRITEBYTECODE=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for dir in "$root"/test/corpus/*/; do
  name=$(basename "$dir")
  script=$dir/truth.plate
  # BioForge-1's four channels hit every other row of a 384-well plate.
  stride=1
  grep -q "plate384" "$script" && stride=2
  if ! "$plate" compile "$script" --platform ot2 --manual-fallback -o "$out/$name.py" 2>"$out/$name.err"; then
    echo "$name refused: $(grep -o 'E[0-9]*\]' "$out/$name.err" | sort -u | tr -d ']' | tr '\n' ' ')"
    continue
  fi
  "$plate" compile "$script" --emit=bf1-json -o "$out/$name.jsonl" 2>/dev/null
  "$plate" run "$script" --out-dir "$out/$name" --no-journal --progress none \
    --state-out "$out/$name.state.json" >/dev/null 2>&1
  echo "$name $(/usr/bin/python3 "$root/test/lit/ot2/Inputs/compare_wells.py" "$out/$name.py" \
    "$out/$name.state.json" "$out/$name.jsonl" "$stride" 2>&1 | tail -1)"
done
