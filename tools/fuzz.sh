#!/usr/bin/env bash
# Fuzzes one libFuzzer target for a given time: tools/fuzz.sh TARGET SECONDS
#   TARGET: parser sema pipeline stream reader_csv layout_csv verdict validate align lsp mcp ir (or all)
# Builds the targets with clang (-fsanitize=fuzzer,address,undefined) into
# $PLATE_FUZZ_BUILD_DIR (default build-fuzz/), seeds the corpus from the
# tests and examples, keeps what libFuzzer finds in build-fuzz/corpus/TARGET
# and writes crashes to build-fuzz/artifacts/TARGET/. Exits non-zero when a
# crash, leak, timeout or sanitizer report was found. Extra arguments after
# SECONDS go to libFuzzer (e.g. -jobs=2).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PLATE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
targets=(parser sema pipeline stream reader_csv layout_csv verdict validate align lsp mcp ir)

if [ $# -lt 2 ]; then
  echo "usage: tools/fuzz.sh TARGET SECONDS [libFuzzer options]; TARGET: ${targets[*]} all" >&2
  exit 2
fi
target="$1" seconds="$2"
shift 2
if [ "$target" = all ]; then
  for each in "${targets[@]}"; do "$0" "$each" "$seconds" "$@"; done
  exit 0
fi
case " ${targets[*]} " in *" $target "*) ;; *)
  echo "fuzz: unknown target '$target'; targets: ${targets[*]}" >&2; exit 2;; esac

"$root/tools/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPLATE_FUZZ=ON >/dev/null
fi
ninja -C "$build" "plate_fuzz_$target" >&2

# Seeds: every input of the kind the target reads that the tests use.
seeds="$build/seeds/$target"
rm -rf "$seeds" && mkdir -p "$seeds"
copy_seeds() { # copies files matching find(1) arguments, numbered to avoid clashes
  local n=0
  while IFS= read -r -d '' file; do
    n=$((n + 1)); cp "$file" "$seeds/$n-$(basename "$file")"
  done < <(find "$@" -type f -size -1024k -print0 2>/dev/null)
}
case "$target" in
  parser|sema|pipeline)
    copy_seeds "$root/test" "$root/docs/examples" "$root/stdlib/modules" -name '*.plate' ;;
  stream)
    copy_seeds "$root/test" -name '*.jsonl' ;;
  ir)
    # IR text: the lit tests of `plate opt` and of each pass from IR.
    copy_seeds "$root/test/lit" -name '*.pir' ;;
  reader_csv)
    copy_seeds "$root/test/lit/backend" -name '*.csv' ;;
  layout_csv)
    copy_seeds "$root/test/lit/sema" -name '*.csv' ;;
  align)
    # Protocol texts: the corpus's and the lit tests' (never the held-out
    # ones: they are not to be read).
    copy_seeds "$root/test/corpus" "$root/test/lit/agent/Inputs" "$root/test/lit/align/Inputs" -name '*.txt' ;;
  validate)
    # The bytes are choices (test/fuzz/ScriptFromBytes.h): a few fixed
    # seeds of varied lengths start it off.
    for n in 1 2 3 4 5 6 7 8; do seq -s, "$n" 7 $((n * 40)) >"$seeds/$n.bin"; done ;;
  lsp)
    # The byte streams the language server's lit tests send it (the 10 MB
    # document of one of them is left out by the size limit below).
    for test in "$root"/test/lit/lsp/*.test; do
      script="$root/docs/examples/il6_elisa.plate"
      case "$test" in *navigation*) script="$root/test/lit/lsp/Inputs/procedures.plate" ;; esac
      python3 "$root/test/lit/lsp/Inputs/lsp_frames.py" "$test" "$script" >"$seeds/$(basename "$test").bin"
    done
    find "$seeds" -type f \( -size +1024k -o -empty \) -delete ;;
  mcp)
    # A session of the requests the MCP lit tests make, one message per
    # line, on the examples.
    python3 - "$root" "$seeds" <<'PY'
import json, pathlib, sys
root, seeds = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for n, name in enumerate(['bradford', 'il6_elisa']):
    source = (root / 'docs' / 'examples' / (name + '.plate')).read_text()
    calls = [('tools/list', {}), ('resources/list', {}),
             ('resources/read', {'uri': 'plate://platforms/bioforge1'}),
             ('tools/call', {'name': 'check', 'arguments': {'source': source}}),
             ('tools/call', {'name': 'compile', 'arguments': {'source': source}}),
             ('tools/call', {'name': 'align', 'arguments': {'source': source, 'protocol_text': 'Add 10 ul of dye to each well. Read at 595 nm.'}}),
             ('ping', {})]
    lines = [json.dumps({'jsonrpc': '2.0', 'method': 'notifications/initialized'})]
    lines += [json.dumps({'jsonrpc': '2.0', 'id': i + 1, 'method': m, 'params': p})
              for i, (m, p) in enumerate(calls)]
    (seeds / f'{n}.jsonl').write_text('\n'.join(lines) + '\n')
PY
    ;;
  verdict)
    # The validator replies the agent tests script into the stub server.
    python3 - "$root/test/lit/agent/Inputs" "$seeds" <<'PY'
import json, pathlib, sys
n = 0
for path in pathlib.Path(sys.argv[1]).glob('*.json'):
    try:
        data = json.loads(path.read_text())
    except ValueError:
        continue
    for reply in data.get('anthropic', []) if isinstance(data, dict) else []:
        if isinstance(reply, dict) and isinstance(reply.get('text'), str):
            n += 1
            (pathlib.Path(sys.argv[2]) / f'{n}.txt').write_text(reply['text'])
PY
    ;;
esac

if [ -z "$(ls -A "$seeds")" ]; then
  echo "fuzz: no seeds for $target in $seeds; the tests' inputs should be there" >&2
  exit 1
fi
# libFuzzer runs every seed before it looks at the clock: the pipeline's
# 680 scripts took 90 s of a 5 s run on CI. A short run (under 30 s, as CI's
# smoke run of every target) starts from an even sample of at most 200
# seeds (most of which the sanitized lit suite runs anyway); a longer run keeps
# them all (docs/reliability.md, "CI time").
if [ "$seconds" -lt 30 ]; then
  count=$(find "$seeds" -type f | wc -l)
  if [ "$count" -gt 200 ]; then
    stride=$(((count + 199) / 200))
    find "$seeds" -type f | sort | awk -v s="$stride" 'NR % s != 1 && s > 1' | xargs -r rm -f
  fi
fi
corpus="$build/corpus/$target"
artifacts="$build/artifacts/$target"
mkdir -p "$corpus" "$artifacts"
case "$target" in
  parser|sema|pipeline) dict=(-dict="$root/test/fuzz/plate.dict") ;;
  stream|verdict|lsp|mcp) dict=(-dict="$root/test/fuzz/json.dict") ;;
  reader_csv|layout_csv) dict=(-dict="$root/test/fuzz/csv.dict") ;;
  *) dict=() ;;
esac
export PLATE_STDLIB="$root/stdlib"
# intercept_tls_get_addr=0: see tools/test.sh.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
log="$build/fuzz-$target.log"
echo "fuzz: $target for ${seconds}s (log $log)" >&2
status=0
"$build/fuzz/plate_fuzz_$target" "$corpus" "$seeds" "${dict[@]}" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" >"$log" 2>&1 || status=$?
grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+.*DONE' "$log" >&2 || true
if [ "$status" -ne 0 ]; then
  echo "fuzz: $target FAILED (exit $status); last lines of $log:" >&2
  tail -40 "$log" >&2
  exit "$status"
fi
echo "fuzz: $target ok" >&2
