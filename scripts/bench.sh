#!/usr/bin/env bash
# Benchmarks that compare the project with other libraries (not part of the
# test suite: figures, not pass/fail). Takes a few minutes; run it on an
# otherwise idle machine, timings are wall-clock.
#
#   scripts/bench.sh attention [--json FILE] [--sizes 64,256,512,1024] [--min-seconds 0.5]
#
# attention: the attention kernel (tests/bench/bench_kernel.cpp) against
# onnxruntime-web, tfjs-backend-wasm (headless Chromium) and onnxruntime-node,
# plus the measured SIMD peaks; prints a markdown table with the
# goals met / NOT met, writes the JSON (default build/bench/attention.json).
#
# Environment: BENCH_NATIVE_BUILD, BENCH_WASM_BUILD (build trees, default
# build/native and build/wasm: configured with the presets when missing),
# BENCH_OUT (model, page links, JSON; default build/bench), JOBS (default 2).
# Installs what is missing first: scripts/setup.sh, Debian's python3-onnx (the
# model generator), the peer npm packages of bench/peers/package-lock.json.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
log() { printf '[bench] %s\n' "$*" >&2; }

what="${1:-}"
[ "$what" = attention ] || { echo "usage: scripts/bench.sh attention [--json FILE] [--sizes LIST] [--min-seconds S]" >&2; exit 2; }
shift
NATIVE="$(realpath -m "${BENCH_NATIVE_BUILD:-build/native}")"
WASM="$(realpath -m "${BENCH_WASM_BUILD:-build/wasm}")"
OUT="$(realpath -m "${BENCH_OUT:-build/bench}")"
JOBS="${JOBS:-2}"
source "$ROOT/scripts/build_env.sh"  # NODE_PATH for emcc, the compiler cache

# ---- what the benchmark needs beyond the project's set-up ---------------------
"$ROOT/scripts/setup.sh" >&2
if ! /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "bench: installing python3-onnx needs root: run as root or install sudo" >&2; exit 1; }
    SUDO="sudo"
  fi
  log "installing Debian's python3-onnx (writes the ONNX model)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-onnx
fi
# Exactly what the lockfile pins, again only when it changed. --ignore-scripts:
# onnxruntime-node's install script would download a GPU build; the CPU
# library it needs ships inside the package.
lock_hash=$(sha256sum bench/peers/package-lock.json | cut -d' ' -f1)
stamp="bench/peers/node_modules/.attn-package-lock.sha256"
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]; then
  log "installing the peer packages (npm ci in bench/peers)"
  (cd bench/peers && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
  echo "$lock_hash" > "$stamp"
fi

# ---- builds ------------------------------------------------------------------
# A missing tree is configured like the presets (the default paths are the
# presets' own); only bench_kernel and the core it links are built.
configure() {  # configure DIR PRESET
  [ -f "$1/CMakeCache.txt" ] && return 0
  if [ "$1" = "$ROOT/build/$2" ]; then
    cmake --preset "$2" >&2
  elif [ "$2" = wasm ]; then
    emcmake cmake -S "$ROOT" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTN_BUILD_APP=OFF >&2
  else
    cmake -S "$ROOT" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTN_BUILD_APP=OFF >&2
  fi
}
configure "$NATIVE" native
configure "$WASM" wasm
log "building bench_kernel in $NATIVE and $WASM"
cmake --build "$NATIVE" --target bench_kernel -j "$JOBS" >&2
cmake --build "$WASM" --target bench_kernel -j "$JOBS" >&2

# ---- run -----------------------------------------------------------------------
mkdir -p "$OUT"
/usr/bin/python3 bench/peers/make_model.py "$OUT/attention.onnx"
exec node bench/attention/run.mjs --native "$NATIVE/tests/bench/bench_kernel" --wasm-dir "$WASM/tests/bench" \
  --model "$OUT/attention.onnx" --out "$OUT" "$@"
