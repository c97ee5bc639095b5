"""The built lab's files, packed for a notebook output.

The wheel holds the web app (attention_lab/lab/, put there by build_wheel.py).
A figure's output carries the files its view needs as one gzip'd archive in
base64; the browser unpacks it (web/notebook.js) into blob: URLs, so the
figure needs no server and no network, in Jupyter, JupyterLab, Colab and an
exported HTML file alike.

Archive: a 4-byte big-endian length, a JSON index [[name, size], ...], then
the files' bytes in that order; all of it gzip'd.
"""
import base64
import functools
import gzip
import hashlib
import io
import json
import os
import struct

# Every figure: the page, its scripts and styles, the main module and the
# deferred part of its code, the accessible copy.
CORE = ["index.html", "style.css", "utf16.js", "text_input.js", "frames.js", "messages.js", "fonts.js",
        "attention_web.js", "main.js", "attention_web.wasm", "attention_web.deferred.wasm", "attention_web.strings",
        "a11y.js", "a11y.css"]
# Chinese on the canvas (the interface in 中文, or Chinese text or tokens).
FONT = ["fonts/cjk.ttf.gz"]
# The views whose modules load on demand. The learned-heads view without its
# training slice (corpus/tang_train.gz, 1.7 MB more): with it, one output would
# pass Jupyter's default output rate (1 MB/s over 3 s) and be dropped; its
# Start and Step buttons say the slice is not there (HTTP 404).
VIEWS = {
    "poem": ["poem.js", "poem_worker.js", "attention_poem.js", "attention_poem.wasm", "poem_model.bin",
             "corpus/tang300"],
    "why": ["why.js", "why_worker.js", "attention_why.js", "attention_why.wasm"],
}
# The host's side, inlined into each output: AttentionLab.embed and the unpacker.
HOST = ["embed.js", "notebook.js"]


def lab_dir():
    """Where the lab's files are: $ATTENTION_LAB_FILES (a web build, for the lab's
    own tests and authors), else the wheel's copy."""
    return os.environ.get("ATTENTION_LAB_FILES") or os.path.join(os.path.dirname(__file__), "lab")


def read(name):
    path = os.path.join(lab_dir(), name)
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        raise RuntimeError(f"attention_lab: the lab's file {name} is missing ({error.strerror}): this package was "
                           "installed without the built lab; install the wheel scripts/build_wheel.sh makes") from None


def names_for(view, chinese):
    names = list(CORE)
    if chinese:
        names += FONT
    names += VIEWS.get(view, [])
    return [n for n in names if n in CORE or os.path.exists(os.path.join(lab_dir(), n))]


_archives = {}


def archive(names):
    """(digest, base64 text) of the gzip'd archive of these files; the digest
    names it in the page, so figures with the same files unpack it once."""
    key = (lab_dir(), tuple(names))
    if key not in _archives:
        blobs = [read(n) for n in names]
        index = json.dumps([[n.rsplit("/", 1)[-1], len(b)] for n, b in zip(names, blobs)]).encode()
        raw = io.BytesIO()
        # mtime 0: the same files give the same bytes (and the same saved notebook).
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as z:
            z.write(struct.pack(">I", len(index)) + index)
            for b in blobs:
                z.write(b)
        packed = raw.getvalue()
        _archives[key] = (hashlib.sha256(packed).hexdigest()[:16], base64.b64encode(packed).decode("ascii"))
    return _archives[key]


def host_script():
    return _host_script(lab_dir())


@functools.lru_cache(maxsize=None)
def _host_script(where):  # read once per folder, not once per figure
    return "\n".join(read(n).decode("utf-8") for n in HOST)
