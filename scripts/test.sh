#!/usr/bin/env bash
# Runs the whole test suite: sets up what is missing, builds the native, the
# sanitised native (clang, AddressSanitizer + UndefinedBehaviorSanitizer: the
# unit and UI tests again, the CLI's input handling, and smoke runs of the libFuzzer
# targets in tests/fuzz) and the WebAssembly trees, runs every test through
# ctest (the browser tests in Chromium, Firefox ESR and WebKitGTK), prints a summary.
#
#   scripts/test.sh                       everything
#   scripts/test.sh -R unit               only tests whose name matches (passed to ctest)
#   PRESETS="native wasm" scripts/test.sh only these trees (default: native asan wasm)
#   CTEST_JOBS=N scripts/test.sh          tests run at once in a tree (default 3)
#   scripts/test.sh --under-load          everything, with one busy process per core beside
#                                         it for the whole run, as on a reader's busy laptop
#
# Budget: 20 minutes on a 2-core machine from a clean clone (packages present,
# compiler cache warm); docs/testing.md has the last run's figures. The
# summary ends with the time per tree and the 10 slowest tests.
# Long runs are not part of it: SOAK_SECONDS=600 for the 10-minute soak
# (tests/web/soak_e2e.mjs), scripts/fuzz.sh for long fuzzing.
#
# Artefacts (screenshots from the browser and desktop tests) land in build/artifacts/.
#
# No test waits on a number of frames or milliseconds, and none takes a failed
# check again, except where a driver cannot do what a reader's browser does
# (a key tap shorter than a frame on a busy machine): such a try is printed as
# a line starting "[retake] " naming that cause, and the summary counts them.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

under_load=0
if [ "${1:-}" = --under-load ]; then
  under_load=1
  shift
fi
JOBS="${JOBS:-2}"
CTEST_JOBS="${CTEST_JOBS:-3}"
PRESETS="${PRESETS:-native asan wasm}"

suite_start=$(date +%s)
"$ROOT/scripts/setup.sh" || { echo "setup failed" >&2; exit 1; }
if ((under_load)); then
  # One plain busy loop per core, at normal priority, until the suite ends.
  busy_pids=()
  for _ in $(seq "$(nproc)"); do
    bash -c 'while :; do :; done' &
    busy_pids+=($!)
  done
  trap 'kill "${busy_pids[@]}" 2>/dev/null' EXIT
  echo "[test] under load: ${#busy_pids[@]} busy processes beside the suite"
fi
source "$ROOT/scripts/build_env.sh"  # NODE_PATH for emcc, the compiler cache
setup_s=$(( $(date +%s) - suite_start ))

build() {  # build PRESET
  cmake --preset "$1" >/dev/null || return 1
  cmake --build --preset "$1" -j "$JOBS" || return 1
}

declare -A build_s test_s
for preset in $PRESETS; do
  t=$(date +%s)
  build "$preset" || { echo "$preset build failed" >&2; exit 1; }
  build_s[$preset]=$(( $(date +%s) - t ))
done

# The poem model's weights (trained by the native build, cached in ~/.cache)
# go beside the web app, which loads them only when a view needs them.
if [ -f build/native/poem_model.bin ] && [ -d build/wasm/web ]; then
  scripts/poem_web_files.sh build/native build/wasm/web
fi

passed=0; failed=0; status=0
for preset in $PRESETS; do
  log="build/ctest-$preset.log"
  t=$(date +%s)
  # Tests that must not share the machine (timings, frame budgets) say so with
  # RUN_SERIAL in their CMakeLists, the Chromium tests take one of two slots
  # (RESOURCE_GROUPS, tests/web/resources.json); the rest run CTEST_JOBS at once.
  ctest --preset "$preset" -j "$CTEST_JOBS" "$@" 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  test_s[$preset]=$(( $(date +%s) - t ))
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

echo
echo "[test] time per tree (s): set-up ${setup_s}"
printf '| %-6s | %7s | %7s |\n' tree build tests
printf '|--------|---------|---------|\n'
for preset in $PRESETS; do printf '| %-6s | %7s | %7s |\n' "$preset" "${build_s[$preset]}" "${test_s[$preset]}"; done
echo "[test] the 10 slowest tests (s):"
# ctest prints "  N/M Test  #K: name .....   Passed   12.34 sec" for each test.
for preset in $PRESETS; do
  sed -nE "s/.*Test +#[0-9]+: ([^ ]+) \.+.* ([0-9.]+) sec$/\2 \1 ($preset)/p" "build/ctest-$preset.log"
done | sort -rn | head -n 10 | awk '{printf "  %8.1f  %s %s\n", $1, $2, $3}'
# Tries taken again for a named environmental cause (see the top of this file).
retakes=$(for preset in $PRESETS; do
  grep -hE '^\s*\[retake\] ' "build/$preset/Testing/Temporary/LastTest.log" 2>/dev/null
done)
echo "[test] retakes for an environmental cause: $(grep -c . <<<"$retakes")"
[ -n "$retakes" ] && sed 's/^\s*/  /' <<<"$retakes"
((under_load)) && echo "[test] ran under load: one busy process per core"
# Figures are compared between machines only with the CPU they ran on.
cpu="$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1) (family $(sed -n 's/^cpu family\s*: //p' /proc/cpuinfo | head -1)), $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB"
echo "[test] total time $(( $(date +%s) - suite_start )) s (budget 1200 s) on $cpu"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$status" = 0 ]
