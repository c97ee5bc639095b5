#!/usr/bin/env bash
# The notebook test's first half, with Debian's Jupyter: the wheel built from
# the web build, installed offline into a fresh virtual environment, and the
# example notebook (with the test's cells: make_notebook.py) executed by a
# kernel of that environment, saved with its outputs, then exported to HTML
# from the saved file (a notebook opened again). The browsers' half,
# tests/web/notebook_figures.mjs, opens OUT/notebook.html.
#
#   tests/python/notebook_export.sh WEB_BUILD_DIR OUT_DIR ATTENTION_CLI
set -euo pipefail
WEB="${1:?usage: notebook_export.sh WEB_BUILD_DIR OUT_DIR ATTENTION_CLI}"
OUT="${2:?usage: notebook_export.sh WEB_BUILD_DIR OUT_DIR ATTENTION_CLI}"
CLI="${3:?usage: notebook_export.sh WEB_BUILD_DIR OUT_DIR ATTENTION_CLI}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PY=/usr/bin/python3  # Debian's, with numpy and Jupyter (not another python3 first on PATH)
[ -x "$CLI" ] || { echo "notebook_export: $CLI is not built (the native preset's attention_cli)" >&2; exit 1; }
CLI="$(cd "$(dirname "$CLI")" && pwd)/$(basename "$CLI")"  # the kernel runs in the notebook's folder

rm -rf "$OUT"
mkdir -p "$OUT"
wheel=$("$PY" "$ROOT/python/build_wheel.py" "$WEB" "$OUT/dist")
echo "wheel: $wheel ($(du -k "$wheel" | cut -f1) KiB)"

# Offline: no index, no dependencies fetched (numpy is the system's).
"$PY" -m venv --system-site-packages "$OUT/venv"
"$OUT/venv/bin/pip" install --no-index --no-deps --disable-pip-version-check --quiet "$wheel"
"$OUT/venv/bin/python" - <<'PY'
import sys, attention_lab
assert attention_lab.__file__.startswith(sys.prefix), f"attention_lab came from {attention_lab.__file__}, not the venv"
print(f"attention_lab {attention_lab.__version__} installed in {sys.prefix}")
PY
# A kernel of that environment, found through JUPYTER_PATH only.
"$OUT/venv/bin/python" -m ipykernel install --prefix "$OUT/venv" --name attention-lab-test >/dev/null
export JUPYTER_PATH="$OUT/venv/share/jupyter"

"$PY" "$ROOT/tests/python/make_notebook.py" "$ROOT/examples/notebook/attention_lab.ipynb" "$OUT/test.ipynb"
ATTENTION_CLI="$CLI" EXPECTED="$OUT/expected.json" \
  "$PY" -m nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=attention-lab-test \
  --ExecutePreprocessor.timeout=120 --output executed.ipynb --output-dir "$OUT" "$OUT/test.ipynb"
"$PY" -m nbconvert --to html --output notebook.html --output-dir "$OUT" "$OUT/executed.ipynb"
"$PY" "$ROOT/tests/python/check_notebook.py" "$OUT/executed.ipynb" "$OUT/expected.json" "$OUT/notebook.html"
