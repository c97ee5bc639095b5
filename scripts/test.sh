#!/usr/bin/env bash
# Runs the whole test suite: sets up what is missing, builds the native, the
# sanitised native (AddressSanitizer + UndefinedBehaviorSanitizer: the unit,
# UI, CLI and desktop tests again), the libFuzzer (smoke runs of tests/fuzz)
# and the WebAssembly trees, runs every test through ctest, prints a summary.
#
#   scripts/test.sh                       everything
#   scripts/test.sh -R unit               only tests whose name matches (passed to ctest)
#   PRESETS="native wasm" scripts/test.sh only these trees (default: native asan fuzz wasm)
#
# Artefacts (screenshots from the browser and desktop tests) land in build/artifacts/.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JOBS="${JOBS:-2}"
PRESETS="${PRESETS:-native asan fuzz wasm}"

"$ROOT/scripts/setup.sh" || { echo "setup failed" >&2; exit 1; }
source "$ROOT/scripts/build_env.sh"  # NODE_PATH for emcc, the compiler cache

build() {  # build PRESET
  cmake --preset "$1" >/dev/null || return 1
  cmake --build --preset "$1" -j "$JOBS" || return 1
}

start=$(date +%s)
for preset in $PRESETS; do
  build "$preset" || { echo "$preset build failed" >&2; exit 1; }
done
echo "[test] builds took $(( $(date +%s) - start )) s"

passed=0; failed=0; status=0
for preset in $PRESETS; do
  log="build/ctest-$preset.log"
  ctest --preset "$preset" "$@" 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  # ctest ends with "NN% tests passed, F tests failed out of T".
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n1)
  if [ -n "$line" ]; then
    f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
    t=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line")
    passed=$((passed + t - f)); failed=$((failed + f))
  elif ! grep -q 'No tests were found' "$log"; then
    status=1
  fi
done
echo "[test] total time $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$status" = 0 ]
