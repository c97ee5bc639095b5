"""Writes the attention_lab wheel: this package and the built lab's files.

    /usr/bin/python3 python/build_wheel.py WEB_BUILD_DIR OUT_DIR

A wheel is a zip with a fixed layout (PEP 427): the package, then
attention_lab-<version>.dist-info/ with METADATA, WHEEL and RECORD. It is
written here with the standard library alone, so building it needs neither
the network nor pip's build tools. The lab's files go to attention_lab/lab/:
every file a figure may carry (_files.py lists them), not the example chapter.
"""
import base64
import hashlib
import os
import re
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attention_lab import _files  # noqa: E402  (after the path: the source tree's package)

NAME = "attention_lab"


def version():
    with open(os.path.join(HERE, NAME, "__init__.py"), encoding="utf-8") as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def main(web_dir, out_dir):
    v = version()
    lab_files = _files.CORE + _files.FONT + [n for names in _files.VIEWS.values() for n in names] + _files.HOST
    missing = [n for n in _files.CORE + _files.FONT + _files.HOST if not os.path.exists(os.path.join(web_dir, n))]
    if missing:
        sys.exit(f"build_wheel: {web_dir} is not a built web app (missing {', '.join(missing)})")
    entries = []  # (path in the wheel, bytes)
    for name in sorted(os.listdir(os.path.join(HERE, NAME))):
        if name.endswith(".py"):
            with open(os.path.join(HERE, NAME, name), "rb") as f:
                entries.append((f"{NAME}/{name}", f.read()))
    for name in lab_files:
        path = os.path.join(web_dir, name)
        if os.path.exists(path):  # the poem model is there once trained (scripts/poem_web_files.sh)
            with open(path, "rb") as f:
                entries.append((f"{NAME}/lab/{name}", f.read()))
    info = f"{NAME}-{v}.dist-info"
    entries.append((f"{info}/METADATA", (
        "Metadata-Version: 2.1\n"
        f"Name: attention-lab\nVersion: {v}\n"
        "Summary: The self-attention lab inline in Jupyter and Colab: any view, and your own attention weights\n"
        "Requires-Python: >=3.8\nRequires-Dist: numpy\n").encode()))
    entries.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: attention_lab build_wheel.py\n"
                                     b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    record = [record_line(p, d) for p, d in entries] + [f"{info}/RECORD,,"]
    entries.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    os.makedirs(out_dir, exist_ok=True)
    wheel = os.path.join(out_dir, f"{NAME}-{v}-py3-none-any.whl")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in entries:
            info_ = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))  # the same files, the same wheel
            info_.compress_type = zipfile.ZIP_DEFLATED
            info_.external_attr = 0o644 << 16
            z.writestr(info_, data)
    print(wheel)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build_wheel.py WEB_BUILD_DIR OUT_DIR")
    main(sys.argv[1], sys.argv[2])
