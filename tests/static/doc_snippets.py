"""The README's snippets that say where they come from are that file's own lines.

    readme_snippets.py [README.md]

A fenced block right after a `<!-- from PATH -->` line must appear verbatim in
PATH (relative to the repository): the VitePress section shows what the example
site, which the browser tests build and drive, really has.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main():
    readme = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "README.md"
    text = readme.read_text()
    blocks = re.findall(r"<!-- from (\S+) -->\n```\w*\n(.*?)```\n", text, re.S)
    failures = []
    for path, block in blocks:
        source = ROOT / path
        if not source.is_file():
            failures.append(f"{path}: no such file")
        elif block not in source.read_text():
            failures.append(f"{path} does not hold:\n{block}")
    for f in failures:
        print("[FAIL]", f)
    print(f"[{'FAIL' if failures or not blocks else 'PASS'}] {len(blocks)} README snippets are their files' own lines")
    return 1 if failures or not blocks else 0


if __name__ == "__main__":
    sys.exit(main())
