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
cp "$NATIVE/poem_model.bin" "$WEB/poem_model.bin"
cp "$NATIVE/tang_train" "$NATIVE/tang_train.gz" "$WEB/corpus/"
