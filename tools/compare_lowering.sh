#!/bin/sh
# compare_lowering.sh - snapshot or compare what `plate compile` emits for
# every script the lowering passes are pinned by: test/corpus, docs/examples,
# bench/elisa96_full.plate, the .plate files under test/lit and the synthetic
# series of the compile report. Used to prove that a speed-up of a pass
# leaves its output byte-identical.
#
#   tools/compare_lowering.sh BUILD_DIR snapshot DIR   # write outputs to DIR
#   tools/compare_lowering.sh BUILD_DIR compare DIR    # diff against DIR
#
# Each script is compiled with --emit=ir (the passes' output, independent of
# the backend) and --emit=bf1-json; stdout, stderr and the exit code are kept.
set -eu
build=$1 mode=$2 dir=$3
root=$(cd "$(dirname "$0")/.." && pwd)
# Absolute: each script is compiled from its own directory, where a relative
# BUILD_DIR names nothing (and every run would "succeed" identically with
# `not found`).
build=$(cd "$build" && pwd)
plate=$build/tools/plate
gen=$build/bench/plate_bench_gen
for tool in "$plate" "$gen"; do
  [ -x "$tool" ] || { echo "compare_lowering.sh: $tool is not built" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for plateType in plate96 plate384; do
  for steps in 10 30 100 300 1000; do
    "$gen" --plate "$plateType" --steps "$steps" >"$work/${plateType}x$steps.plate"
  done
done
out=$work/out
mkdir -p "$out"
find "$root/test/corpus" "$root/docs/examples" "$root/test/lit" "$root/bench" "$work" \
    -name '*.plate' | sort | while read -r f; do
  key=$(echo "${f#"$root"/}" | sed "s|^$work/|synthetic/|; s|/|__|g")
  layout=
  [ -f "${f%.plate}.csv" ] && layout="--layout ${f%.plate}.csv"
  for emit in ir bf1-json; do
    (cd "$(dirname "$f")" && "$plate" compile $layout --emit=$emit "$f" \
        >"$out/$key.$emit" 2>"$out/$key.$emit.err"; echo $? >"$out/$key.$emit.rc") || true
  done
done
# Paths in diagnostics name the temporary directory; make them stable.
sed -i "s|$work/||g" "$out"/*
case $mode in
  snapshot) rm -rf "$dir"; cp -r "$out" "$dir"; echo "$(ls "$out" | wc -l) files in $dir" ;;
  compare)
    # A snapshot taken when plate could not run proves nothing.
    if grep -qx 127 "$dir"/*.rc; then
      echo "compare_lowering.sh: $dir holds runs where plate did not start (exit 127); snapshot again" >&2
      exit 2
    fi
    diff -r -q "$dir" "$out" && echo "identical: $(ls "$out" | wc -l) files" ;;
  *) echo "mode: snapshot or compare" >&2; exit 2 ;;
esac
