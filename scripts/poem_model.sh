#!/usr/bin/env bash
# Builds the poem model's weights: `attention_cli poem train` on the Quan Tang
# Shi (scripts/tang_corpus.sh) with the settings below, then copies the file to
# each OUT. Beside each OUT go tang_train and tang_train.gz: the slice of the
# training poems the learned-heads view trains on in the page
# (`attention_cli poem corpus --page-out`: every fourth training poem).
#
#   scripts/poem_model.sh ATTENTION_CLI [--progress FILE] OUT [OUT...]
#
# --progress FILE: while it trains, how far (attention_cli poem train
# --progress: {"state": "training", "step", "steps", "seconds"}, a second);
# scripts/run.sh serves the lab meanwhile and the learned-heads view shows it.
#
# ATTN_POEM_STEPS=N trains N steps instead of the default model's 14,000 (a
# quick, weaker model for trying the scripts; cached under its own key), and
# ATTN_POEM_CACHE=DIR keeps the models in DIR (tests start from an empty one).
#
# Trained once per corpus, code and settings: the result is kept in
# ~/.cache/attention-lab/poem/<key>.bin, the key a hash of the corpus files,
# the model's sources (src/core/poem, its layers and optimiser, the kernels, the CLI command), the
# compiler and the CPU's vector extensions (the kernels pick theirs at run
# time, so another CPU may give other last bits). Nothing trained is committed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: poem_model.sh ATTENTION_CLI [--progress FILE] OUT [OUT...]"
CLI="${1:?$usage}"
shift
PROGRESS=()
if [ "${1:-}" = --progress ]; then PROGRESS=(--progress "${2:?$usage}"); shift 2; fi
(($#)) || { echo "$usage" >&2; exit 2; }
CORPUS=/usr/share/games/fortunes
for f in tang300 song100 chinese; do
  [ -r "$CORPUS/$f" ] || { echo "poem_model.sh: $CORPUS/$f is missing: scripts/setup.sh installs fortunes-zh" >&2; exit 1; }
done

TANG="$("$ROOT/scripts/tang_corpus.sh" --path)"
[ -r "$TANG" ] || { echo "poem_model.sh: $TANG is missing: scripts/setup.sh fetches the Quan Tang Shi" >&2; exit 1; }
# The default model (docs/poem-model.md, the runs): the Quan Tang Shi, tang300
# held out, characters seen at least 10 times, 2 layers of 8 heads, every
# training window starting at a line boundary, 14,000 steps on every core, its
# matrices as int8 rows (weights file version 2: a quarter of the size).
SETTINGS=(--heads 8 --min-count 10 --modern no --dropout 0 --line-start-share 1 --steps "${ATTN_POEM_STEPS:-14000}" --report 1000 --encoding int8)

key=$( {
  echo "${SETTINGS[*]}"
  cat "$TANG" "$CORPUS/tang300" "$CORPUS/song100" "$CORPUS/chinese"
  cd "$ROOT" && find src/core/poem src/core/layers src/core/optim src/core/kernels src/core/masks.cpp src/core/masks.hpp src/core/base/rng.cpp \
    src/core/base/rng.hpp src/cli/poem.cpp -type f | LC_ALL=C sort | xargs cat
  c++ --version | head -n1
  grep -m1 -o -w -E 'avx512f|avx2' /proc/cpuinfo | sort -u | tr '\n' ' '
} | sha256sum | cut -c1-16)
CACHE="${ATTN_POEM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/attention-lab/poem}"
mkdir -p "$CACHE"
model="$CACHE/$key.bin"
if [ -s "$model" ]; then
  echo "[poem model] $model (cached: the corpus, code and settings are unchanged)"
else
  echo "[poem model] training (key $key; the log: $CACHE/$key.log)"
  start=$(date +%s)
  # Its report every 1,000 steps goes to the log and here (scripts/run.sh keeps this in build/poem_model.log).
  if ! "$CLI" poem train --tang "$TANG" "${SETTINGS[@]}" "${PROGRESS[@]}" --out "$model.tmp" 2>&1 | tee "$CACHE/$key.log"; then
    rm -f "$model.tmp"
    exit 1
  fi
  mv "$model.tmp" "$model"
  echo "[poem model] trained in $(( $(date +%s) - start )) s"
fi
slice="$CACHE/$key.tang_train"
if [ ! -s "$slice.gz" ]; then
  "$CLI" poem corpus --tang "$TANG" --page-out "$slice.tmp" > /dev/null
  mv "$slice.tmp" "$slice"
  gzip -9 -n -k -f "$slice"
fi
for out in "$@"; do
  mkdir -p "$(dirname "$out")"
  cp "$model" "$out"
  cp "$slice" "$(dirname "$out")/tang_train"
  cp "$slice.gz" "$(dirname "$out")/tang_train.gz"
done
