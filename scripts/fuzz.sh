#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz) for as long as asked: builds them in the asan
# tree (clang 14, ASan + UBSan), then runs each target in turn, growing its corpus
# in build/asan/corpus/<target> from the seeds in tests/fuzz/corpus/<target>.
#
#   scripts/fuzz.sh                      60 s a target, every target
#   scripts/fuzz.sh 3600 fuzz_compute    an hour of one target
#   FUZZ_RUNS=10000000 scripts/fuzz.sh 7200 fuzz_state
#                                        stop at 10 million executions, or 2 h
#
# Prints each target's executions, and exits 1 when one crashed, leaked, timed
# out or broke a property: the input is saved as build/asan/fuzz-artifacts/
# <target>-crash-<sha1> (replay it: build/asan/tests/fuzz/<target> <file>).
# scripts/test.sh runs each for a fixed number of runs instead (ctest -L fuzz).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SECONDS_EACH="${1:-60}"
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(fuzz_compute fuzz_state fuzz_tokenizer fuzz_attention)

"$ROOT/scripts/setup.sh" || { echo "setup failed" >&2; exit 1; }
cmake --preset asan >/dev/null && cmake --build --preset asan --target fuzzers -j "${JOBS:-2}" || { echo "fuzz build failed" >&2; exit 1; }

status=0
for target in "${TARGETS[@]}"; do
  corpus="build/asan/corpus/$target"
  mkdir -p "$corpus" build/asan/fuzz-artifacts
  dict=()
  runs_limit=()
  [ -n "${FUZZ_RUNS:-}" ] && runs_limit=("-runs=$FUZZ_RUNS")
  [ -f "tests/fuzz/$target.dict" ] && dict=("-dict=tests/fuzz/$target.dict")
  log="build/asan/$target.log"
  echo "[fuzz] $target for $SECONDS_EACH s"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "build/asan/tests/fuzz/$target" "${dict[@]}" "${runs_limit[@]}" \
    -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=20 -print_final_stats=1 \
    -artifact_prefix="build/asan/fuzz-artifacts/$target-" "$corpus" "tests/fuzz/corpus/$target" >"$log" 2>&1
  code=$?
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  echo "[fuzz] $target: ${runs:-?} executions, exit $code, corpus $(ls "$corpus" | wc -l) inputs"
  if [ "$code" != 0 ]; then
    status=1
    grep -E 'ERROR|fuzz check failed|SUMMARY|Test unit written' "$log" | head -n 8
  fi
done
exit $status
