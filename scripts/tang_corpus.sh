#!/usr/bin/env bash
# The Quan Tang Shi for the poem model, fetched once into the user's cache:
# npm's chinese-poetry 2.0.1 (MIT; the chinese-poetry project's data), checked
# against the integrity npm publishes for it, its Tang files only
# (dist/quantangshi/poet.tang.*.json, 57,607 poems in traditional characters),
# turned into simplified characters by Debian's opencc (t2s).
#
#   scripts/tang_corpus.sh            fetch and convert, unless done already
#   scripts/tang_corpus.sh --path     print where the corpus file is
#
# The result, ~/.cache/attention-lab/tang/quantangshi-2.0.1.txt, is a fortunes
# file as the core's parse_fortunes reads it: per poem a 《title》 line, an
# 作者：author line, the poem's lines as the data has them, then a "%" line.
# It is not cleaned: core/poem/tang_corpus.cpp cleans it (its rules are
# tested there). The package is not a dependency in package.json: every
# `npm ci` would unpack its 362 MB. Nothing of it is committed.
set -euo pipefail
VERSION=2.0.1
INTEGRITY='sha512-KtYARvV7CWNtax0na9+Jn6PlhGgSoid7PWyDzXI4KsCEm2odZcqEQyval5koaLygZnM/EQ3lfJ//25K8p3uHNg=='
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/attention-lab/tang"
OUT="$CACHE/quantangshi-$VERSION.txt"
if [ "${1:-}" = --path ]; then echo "$OUT"; exit 0; fi
if [ -s "$OUT" ]; then
  echo "[setup] the Quan Tang Shi present ($OUT)"
  exit 0
fi

echo "[setup] fetching the Quan Tang Shi (npm chinese-poetry $VERSION, 85 MB, once)"
mkdir -p "$CACHE"
work="$(mktemp -d "$CACHE/fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "chinese-poetry@$VERSION" --silent --loglevel=error >/dev/null)
tarball="$work/chinese-poetry-$VERSION.tgz"
python3 - "$tarball" "$INTEGRITY" <<'EOF'
import base64, hashlib, sys
digest = "sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode()
if digest != sys.argv[2]:
    sys.exit(f"tang_corpus.sh: {sys.argv[1]} is not the published package (integrity {digest})")
EOF
tar -xzf "$tarball" -C "$work" --wildcards 'package/dist/quantangshi/poet.tang.*.json'
# The files in the order of their numbers (poet.tang.0, .1000, .2000, ...), so
# the corpus is the same bytes on every machine.
python3 - "$work/package/dist/quantangshi" "$work/traditional.txt" <<'EOF'
import glob, json, os, sys
files = sorted(glob.glob(os.path.join(sys.argv[1], "poet.tang.*.json")), key=lambda f: int(f.split(".")[-2]))
poems = 0
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for f in files:
        for p in json.load(open(f, encoding="utf-8")):
            lines = [l for l in p["paragraphs"] if l.strip() != "%"]
            out.write("《%s》\n作者：%s\n%s\n%%\n" % (" ".join(p["title"].split()), p["author"], "\n".join(lines)))
            poems += 1
if poems < 50000:
    sys.exit(f"tang_corpus.sh: only {poems} poems in {len(files)} files")
print(f"[setup] {poems} poems from {len(files)} files")
EOF
opencc -c t2s.json -i "$work/traditional.txt" -o "$work/simplified.txt"
mv "$work/simplified.txt" "$OUT"
echo "[setup] the Quan Tang Shi in simplified characters: $OUT"
