#!/usr/bin/env bash
# Installs everything the project needs, from Debian packages and npm only.
# Idempotent: a second run with everything present only checks and returns in
# about a second. Installing needs root or sudo (apt-get); nothing else does.
#
#   scripts/setup.sh                  install what is missing
#   scripts/setup.sh --list-packages  print the Debian packages it installs, one a line
#                                     (tests/setup/check_commands.py reads this list)
#
# Results:
#   system packages      see PACKAGES below: compilers and build tools, Emscripten,
#                        the C++ libraries, Node.js + npm, Chromium, Xvfb, Python + numpy
#   third_party/imgui    Dear ImGui 1.86 sources from Debian's `imgui` source package (git-ignored)
#   node_modules/        exactly what package-lock.json pins (`npm ci`; git-ignored)
#   ~/.cache/attention-lab/tang/
#                        the Quan Tang Shi the poem model trains on (scripts/tang_corpus.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log() { printf '[setup] %s\n' "$*"; }

# ---- Debian packages -------------------------------------------------------
# Every program that the scripts and tests call comes from one of these or from
# a minimal Debian bookworm (bash, coreutils, sed, grep, tar, apt, dpkg);
# tests/setup/check_commands.py fails when a new one is not covered.
PACKAGES=(
  build-essential cmake ninja-build pkg-config   # native build (g++, make, ninja)
  clang-14 libclang-rt-14-dev                    # the asan preset: ASan, UBSan, libFuzzer (tests/fuzz)
  clang-tidy-14                                  # static checks (tests/static, .clang-tidy)
  emscripten binaryen                            # the wasm build (emcc runs on node)
  libeigen3-dev libglfw3-dev libgl-dev doctest-dev libstb-dev nlohmann-json3-dev
  nodejs npm                                     # browser and desktop tests, emcc
  chromium xvfb xauth                            # headless browser; X server for the desktop test
  libegl-mesa0 libgl1-mesa-dri                   # Mesa's llvmpipe: WebGL in the browser tests, GL under Xvfb
  firefox-esr webkit2gtk-driver                  # Firefox (WebDriver BiDi) and WebKitGTK (WebKitWebDriver + MiniBrowser), headful under Xvfb
  ccache                                         # compiler cache in ~/.cache/ccache: a rebuild from a clean clone is fast
  python3 python3-numpy                          # CLI tests against numpy; run.sh's web server
  ca-certificates                                # npm's TLS
  dpkg-dev xz-utils                              # apt-get source for Dear ImGui, its .tar.xz
  fonts-wqy-microhei python3-fonttools           # the CJK font, subset at build time (pyftsubset)
  fortunes-zh                                    # tang300: the poems the learned-heads view shows (its test set)
  opencc                                         # the Quan Tang Shi into simplified characters (scripts/tang_corpus.sh)
  jupyter-nbconvert python3-nbconvert python3-ipykernel  # the notebook test: a notebook executed and exported (python/)
  python3-venv                                   # the wheel installed into a fresh virtual environment, offline
)
if [ "${1:-}" = --list-packages ]; then printf '%s\n' "${PACKAGES[@]}"; exit 0; fi

# A package counts as present when dpkg has it installed. npm is the exception:
# other Node.js builds (e.g. NodeSource's `nodejs`) bundle npm and conflict with
# Debian's npm package, so an npm command on PATH is enough.
present() {
  [ "$1" = npm ] && command -v npm >/dev/null && return 0
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
missing=()
for p in "${PACKAGES[@]}"; do present "$p" || missing+=("$p"); done
if ((${#missing[@]})); then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: installing ${missing[*]} needs root: run as root or install sudo" >&2; exit 1; }
    SUDO="sudo"
  fi
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  log "Debian packages present"
fi
# Debian bookworm ships Node.js 18; the npm pins in package.json hold for 18 and later.
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 18)) || { echo "setup: Node.js $(node --version) is too old: 18 or later is needed" >&2; exit 1; }

# ---- Dear ImGui 1.86 sources (Debian source package, private apt lists) ------
IMGUI_DIR="$ROOT/third_party/imgui"
if [ ! -f "$IMGUI_DIR/imgui.h" ]; then
  log "fetching Dear ImGui sources from Debian's imgui source package"
  work="$ROOT/third_party/.apt"
  rm -rf "$work"; mkdir -p "$work/lists/partial" "$work/cache" "$work/download"
  # A deb-src list derived from the machine's own sources: /etc/apt stays untouched.
  : > "$work/sources.list"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types: deb$/Types: deb-src/' "$f" > "$work/$(basename "$f")"
  done
  if [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >> "$work/sources.list" || true
  fi
  opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work"
        -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "Debug::NoLocking=1")
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
# `npm ci` installs exactly the lockfile; it runs again only when the lockfile
# changed since the last install (its hash is kept beside the packages).
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp="$ROOT/node_modules/.attn-package-lock.sha256"
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]; then
  log "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > "$stamp"
else
  log "npm packages present"
fi

# ---- the poem model's corpus -------------------------------------------------
"$ROOT/scripts/tang_corpus.sh"
log "done"
