#!/usr/bin/env bash
# Tries the README's two commands on a bare Debian bookworm, the way a new
# reader would: a debootstrap `minbase` system with only git, sudo and
# ca-certificates added, a non-root user with sudo, then
#
#   git clone <this repo> lab && cd lab && scripts/test.sh
#   scripts/run.sh            (must serve the app on http://127.0.0.1:8080)
#
# Slow (a Debian install, a full build and the whole suite: 10-15 minutes) and
# needs root on the host, so it is not part of scripts/test.sh; the fast
# guard that runs there is tests/setup/check_commands.py.
#
#   tests/setup/bare_debian.sh [--dir DIR] [--keep] [--rev REV]
#
#   --dir DIR   where the chroot goes (default /tmp/attn-bare-debian; an existing
#               base system there is reused, the clone and the user's files are not)
#   --keep      leave the chroot (and its mounts) for a look around
#   --rev REV   the commit to clone (default HEAD of this checkout: commit first)
#
# The chroot shares the host's network (so the port check reaches it) and gets
# the host's apt sources and local certificate authorities: a fresh Debian
# install has its mirror and security lines configured too, and package clients
# behind this machine's TLS proxy need its CA.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR=/tmp/attn-bare-debian
KEEP=0
REV=HEAD
while (($#)); do
  case "$1" in
    --dir) DIR="${2:?--dir needs a path}"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    --rev) REV="${2:?--rev needs a commit}"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "bare_debian.sh needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
log() { printf '[bare-debian] %s\n' "$*"; }
command -v debootstrap >/dev/null || {
  log "installing debootstrap"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

# The host's Debian mirror, read from its own apt sources (never hard-coded).
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || { echo "no Debian mirror found in the host's apt sources" >&2; exit 1; }

mounts=(proc sys dev dev/pts dev/shm)
unmount_all() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    mountpoint -q "$DIR/${mounts[i]}" && umount -l "$DIR/${mounts[i]}" || true
  done
}
cleanup() {
  [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null || true
  pkill -f -- "/home/reader/lab/" 2>/dev/null || true  # run.sh's server and anything it left training
  unmount_all
  ((KEEP)) || rm -rf "$DIR"
}
trap cleanup EXIT

if [ ! -x "$DIR/usr/bin/git" ]; then
  log "debootstrap --variant=minbase bookworm (+ git, sudo, ca-certificates) into $DIR"
  rm -rf "$DIR"
  debootstrap --variant=minbase --include=git,sudo,ca-certificates bookworm "$DIR" "$mirror" >"$DIR.debootstrap.log" 2>&1 ||
    { tail -n 20 "$DIR.debootstrap.log"; exit 1; }
fi
rm -f "$DIR/etc/apt/sources.list" "$DIR"/etc/apt/sources.list.d/*
cp -a /etc/apt/sources.list.d/. "$DIR/etc/apt/sources.list.d/" 2>/dev/null || true
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$DIR/etc/apt/sources.list"
cp -a /usr/local/share/ca-certificates/. "$DIR/usr/local/share/ca-certificates/" 2>/dev/null || true
cp /etc/resolv.conf /etc/hosts /etc/hostname "$DIR/etc/" 2>/dev/null || true  # sudo wants its host name resolvable
mount -t proc proc "$DIR/proc"
mount --rbind /sys "$DIR/sys"
mount --bind /dev "$DIR/dev"
mount --bind /dev/pts "$DIR/dev/pts"
mount -t tmpfs -o size=2g tmpfs "$DIR/dev/shm"
chroot "$DIR" update-ca-certificates >/dev/null

# A reader with sudo, as on a laptop; the clone is theirs.
chroot "$DIR" bash -c 'id reader >/dev/null 2>&1 || useradd -m -s /bin/bash reader
  echo "reader ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/reader; chmod 440 /etc/sudoers.d/reader
  rm -rf /home/reader/lab'
log "what the base system lacks: $(chroot "$DIR" bash -c 'for c in node npm cmake python3 curl chromium xvfb-run xauth; do command -v $c >/dev/null || printf "%s " $c; done')"
git -C "$ROOT" rev-parse --verify "$REV^{commit}" >/dev/null
git clone -q --no-local "$ROOT" "$DIR/home/reader/lab"
git -C "$DIR/home/reader/lab" checkout -q "$(git -C "$ROOT" rev-parse "$REV")"
chroot "$DIR" chown -R reader:reader /home/reader/lab
as_reader() { chroot "$DIR" sudo -u reader -H env -i HOME=/home/reader PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 bash -lc "cd ~/lab && $1"; }

log "node before set-up: $(chroot "$DIR" bash -c 'command -v node && node --version || echo none')"
log "reader runs: scripts/test.sh"
start=$(date +%s)
status=0
as_reader 'scripts/test.sh' 2>&1 | tee "$DIR.test.log" || status=$?
log "scripts/test.sh exited $status after $(( $(date +%s) - start )) s (log: $DIR.test.log)"
log "node after set-up: $(chroot "$DIR" node --version), npm $(chroot "$DIR" npm --version)"

log "reader runs: scripts/run.sh (must serve on 127.0.0.1:8080)"
if python3 -c 'import socket; socket.create_connection(("127.0.0.1", 8080), 1)' 2>/dev/null; then
  log "port 8080 is already taken on this machine: stop what serves it first"; exit 1
fi
as_reader 'scripts/run.sh' >"$DIR.run.log" 2>&1 &
server_pid=$!
served=0
for _ in $(seq 1 120); do
  if python3 - <<'EOF' 2>/dev/null; then served=1; break; fi
import urllib.request
page = urllib.request.urlopen('http://127.0.0.1:8080/', timeout=2).read().decode()
wasm = urllib.request.urlopen('http://127.0.0.1:8080/attention_web.wasm', timeout=5).read()
assert '<canvas' in page and wasm[:4] == b'\0asm'
EOF
  sleep 2
done
if ((served)); then log "scripts/run.sh serves the page and the wasm on 127.0.0.1:8080"
else log "scripts/run.sh did not serve on 127.0.0.1:8080:"; tail -n 20 "$DIR.run.log"; status=1; fi
exit "$status"
