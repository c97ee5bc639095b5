#!/usr/bin/env bash
# Runs the product.
#
#   scripts/run.sh             build the WebAssembly app and serve it on http://127.0.0.1:8080
#   scripts/run.sh --port N    another port
#   scripts/run.sh --frame-ancestors "'self' https://book.example"
#                              the pages that may embed the lab (its Content-Security-
#                              Policy's frame-ancestors; default *, any page)
#   scripts/run.sh --build-only
#                              build the web app with its poem weights into
#                              build/wasm/web (the folder to copy to a site) and stop
#   scripts/run.sh --desktop   build and start the native desktop app instead
#                              (extra arguments after --desktop go to the app,
#                               e.g. --screenshot out.png --frames 5)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PORT=8080
DESKTOP=0
BUILD_ONLY=0
FRAME_ANCESTORS='*'
while (($#)); do
  case "$1" in
    --desktop) DESKTOP=1; shift; break ;;
    --build-only) BUILD_ONLY=1; shift ;;
    --port) PORT="${2:?--port needs a number}"; shift 2 ;;
    --frame-ancestors) FRAME_ANCESTORS="${2:?--frame-ancestors needs a source list}"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
done

"$ROOT/scripts/setup.sh"
source "$ROOT/scripts/build_env.sh"  # NODE_PATH for emcc, the compiler cache

if ((DESKTOP)); then
  cmake --preset native >/dev/null
  cmake --build --preset native -j 2 --target attention_app
  exec "$ROOT/build/native/src/platform/attention_app" "$@"
fi

cmake --preset wasm >/dev/null
cmake --build --preset wasm -j 2 --target attention_web
WEB_DIR="$ROOT/build/wasm/web"
# The poem model's weights and training slice: trained natively once (some 5
# minutes on two cores, then cached in ~/.cache/attention-lab/poem), served
# beside the app.
cmake --preset native >/dev/null
cmake --build --preset native -j 2 --target poem_model
"$ROOT/scripts/poem_web_files.sh" "$ROOT/build/native" "$WEB_DIR"
if ((BUILD_ONLY)); then
  echo "The lab is built in $WEB_DIR: copy that folder to a site (docs/embedding.md)."
  exit 0
fi
echo
echo "Serving the attention lab at http://127.0.0.1:$PORT/  (Ctrl-C to stop)"
exec python3 "$ROOT/scripts/serve.py" "$WEB_DIR" --port "$PORT" --frame-ancestors "$FRAME_ANCESTORS"
