#!/usr/bin/env bash
# Installs everything the project needs, from Debian packages and npm only
# (see shared/TOOLCHAIN.md). Idempotent: a second run with everything present
# only checks and returns in seconds.
#
#   scripts/setup.sh            install what is missing
#
# Results:
#   system packages      emscripten, binaryen, eigen, glfw, doctest, stb, json, chromium, xvfb
#   third_party/imgui    Dear ImGui 1.86 sources from Debian's `imgui` source package (git-ignored)
#   node_modules/        playwright-core, pngjs (git-ignored)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log() { printf '[setup] %s\n' "$*"; }

# ---- Debian packages -------------------------------------------------------
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  emscripten binaryen
  libeigen3-dev libglfw3-dev libgl-dev doctest-dev libstb-dev nlohmann-json3-dev
  chromium xvfb xauth
  python3-numpy
  dpkg-dev xz-utils
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  log "Debian packages present"
fi

# ---- Dear ImGui 1.86 sources (Debian source package, private apt lists) ------
IMGUI_DIR="$ROOT/third_party/imgui"
if [ ! -f "$IMGUI_DIR/imgui.h" ]; then
  log "fetching Dear ImGui sources from Debian's imgui source package"
  work="$ROOT/third_party/.apt"
  rm -rf "$work"; mkdir -p "$work/lists/partial" "$work/download"
  # A deb-src list derived from the machine's own sources: /etc/apt stays untouched.
  : > "$work/sources.list"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types: deb$/Types: deb-src/' "$f" > "$work/$(basename "$f")"
  done
  if [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >> "$work/sources.list" || true
  fi
  opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work"
        -o "Dir::State::Lists=$work/lists" -o "Debug::NoLocking=1")
  apt-get "${opts[@]}" update -qq
  (cd "$work/download" && apt-get "${opts[@]}" source --download-only imgui)
  tarball="$(ls "$work"/download/imgui_*.orig.tar.* | head -n1)"
  rm -rf "$IMGUI_DIR"; mkdir -p "$IMGUI_DIR"
  tar -xf "$tarball" -C "$IMGUI_DIR" --strip-components=1
  rm -rf "$work"
  [ -f "$IMGUI_DIR/imgui.h" ] || { echo "imgui.h not found after extraction" >&2; exit 1; }
else
  log "Dear ImGui sources present ($IMGUI_DIR)"
fi

# ---- npm packages for browser tests -----------------------------------------
if [ ! -d "$ROOT/node_modules/playwright-core" ] || [ ! -d "$ROOT/node_modules/pngjs" ]; then
  log "installing npm packages"
  npm install --no-audit --no-fund --loglevel=error
else
  log "npm packages present"
fi
log "done"
