#!/usr/bin/env bash
# Runs the product.
#
#   scripts/run.sh             build the WebAssembly app and serve it on http://127.0.0.1:8080
#                              as soon as it is built; the poem model trains behind it the
#                              first time (some 5 minutes; the learned-heads view shows
#                              how far, and opens the model when it lands), log in
#                              build/poem_model.log
#   scripts/run.sh --port N    another port
#   scripts/run.sh --frame-ancestors "'self' https://book.example"
#                              the pages that may embed the lab (its Content-Security-
#                              Policy's frame-ancestors; default *, any page)
#   scripts/run.sh --out DIR   build into (and serve) DIR instead of build/wasm/web
#   scripts/run.sh --build-only
#                              build the web app with its poem weights (waiting for
#                              them) into build/wasm/web, the folder to copy to a site,
#                              and stop
#   scripts/run.sh --wheel     as --build-only, then the Python package for notebooks with
#                              that folder in it: build/wheel/attention_lab-*.whl
#                              (docs/notebooks.md)
#   scripts/run.sh --desktop   build and start the native desktop app instead
#                              (extra arguments after --desktop go to the app,
#                               e.g. --screenshot out.png --frames 5)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PORT=8080
DESKTOP=0
BUILD_ONLY=0
WHEEL=0
OUT=""
FRAME_ANCESTORS='*'
while (($#)); do
  case "$1" in
    --desktop) DESKTOP=1; shift; break ;;
    --build-only) BUILD_ONLY=1; shift ;;
    --wheel) BUILD_ONLY=1; WHEEL=1; shift ;;
    --port) PORT="${2:?--port needs a number}"; shift 2 ;;
    --out) OUT="${2:?--out needs a folder}"; shift 2 ;;
    --frame-ancestors) FRAME_ANCESTORS="${2:?--frame-ancestors needs a source list}"; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
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
if [ -n "$OUT" ]; then
  mkdir -p "$OUT"
  cp -R "$WEB_DIR/." "$OUT/"
  WEB_DIR="$(cd "$OUT" && pwd)"
fi

# The poem model's weights and training slice: trained natively once (some 5
# minutes on two cores, then cached in ~/.cache/attention-lab/poem) and put
# beside the app (scripts/poem_model.sh, poem_web_files.sh).
PROGRESS="$WEB_DIR/poem_training.json"
poem_model() {  # [--progress FILE]
  cmake --preset native >/dev/null &&
    cmake --build --preset native -j 2 --target attention_cli &&
    "$ROOT/scripts/poem_model.sh" "$ROOT/build/native/src/cli/attention_cli" "$@" "$ROOT/build/native/poem_model.bin" &&
    "$ROOT/scripts/poem_web_files.sh" "$ROOT/build/native" "$WEB_DIR"
}
if ((BUILD_ONLY)); then
  poem_model
  if ((WHEEL)); then
    # Debian's python3 (with numpy), not another first on PATH.
    wheel=$(/usr/bin/python3 "$ROOT/python/build_wheel.py" "$WEB_DIR" "$ROOT/build/wheel")
    echo "The notebook package is $wheel: pip install it where Jupyter runs (docs/notebooks.md)."
    exit 0
  fi
  echo "The lab is built in $WEB_DIR: copy that folder to a site (docs/embedding.md)."
  exit 0
fi

# Serving does not wait for the model: eight of the nine views do not need it.
# Until it lands, poem_training.json says how far it is (web/poem.js polls it:
# the view shows the step and the time left, then opens the model by itself);
# the weights arrive last and whole (poem_web_files.sh renames them into place)
# and the file goes. A model from an earlier build could be stale: it goes first.
LOG="$ROOT/build/poem_model.log"
rm -f "$WEB_DIR/poem_model.bin"
echo '{"state": "preparing"}' > "$PROGRESS"
set -m  # the training in a process group of its own, so that stopping the server stops all of it
(
  if poem_model --progress "$PROGRESS" > "$LOG" 2>&1; then
    echo "[poem model] in place: the learned-heads view opens it" >> "$LOG"
  else
    echo '{"state": "failed", "log": "build/poem_model.log"}' > "$PROGRESS"
  fi
) &
trainer=$!
set +m
echo
echo "Serving the attention lab at http://127.0.0.1:$PORT/  (Ctrl-C to stop)"
echo "The poem model for the learned-heads view is prepared behind it (a few minutes the"
echo "first time, then cached); its log: $LOG"
python3 "$ROOT/scripts/serve.py" "$WEB_DIR" --port "$PORT" --frame-ancestors "$FRAME_ANCESTORS" &
server=$!
# Ctrl-C (or a kill) stops the server and the training; an unfinished model
# leaves no progress file behind.
trap 'kill "$server" 2>/dev/null; kill -- -"$trainer" 2>/dev/null; [ -f "$WEB_DIR/poem_model.bin" ] || rm -f "$PROGRESS"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
wait "$server"
