#!/usr/bin/env bash
# Puts the poem model's files, which the native build makes (scripts/poem_model.sh),
# beside the web app, which loads them only when the learned-heads view needs them:
#   poem_model.bin                 the weights
#   corpus/tang_train(.gz)         the slice of the training poems the page trains on
#
#   scripts/poem_web_files.sh NATIVE_BUILD_DIR WEB_DIR
set -euo pipefail
NATIVE="${1:?usage: poem_web_files.sh NATIVE_BUILD_DIR WEB_DIR}"
WEB="${2:?usage: poem_web_files.sh NATIVE_BUILD_DIR WEB_DIR}"
mkdir -p "$WEB/corpus"
cp "$NATIVE/tang_train" "$NATIVE/tang_train.gz" "$WEB/corpus/"
# The weights last and by renaming: a page that is being served meanwhile
# (scripts/run.sh) finds either no model or the whole of it.
cp "$NATIVE/poem_model.bin" "$WEB/poem_model.bin.tmp"
mv "$WEB/poem_model.bin.tmp" "$WEB/poem_model.bin"
# The model is in place: no training behind the page any more (scripts/run.sh).
rm -f "$WEB/poem_training.json"
