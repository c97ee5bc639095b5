"""The docs' snippets that say where they come from are that file's own lines.

    doc_snippets.py

In every Markdown file of the project, a fenced block right after a
`<!-- from PATH -->` line must appear verbatim in PATH (relative to the
repository): the embedding guides show what the example VitePress site, which
the browser tests build and drive, really has.
"""
import re
import sys
from pathlib import Path

from markdown_files import ROOT, markdown_files


def main():
    failures = []
    count = 0
    for doc in markdown_files():
        blocks = re.findall(r"<!-- from (\S+) -->\n```\w*\n(.*?)```\n", doc.read_text(), re.S)
        count += len(blocks)
        for path, block in blocks:
            source = ROOT / path
            name = doc.relative_to(ROOT)
            if not source.is_file():
                failures.append(f"{name}: {path}: no such file")
            elif block not in source.read_text():
                failures.append(f"{name}: {path} does not hold:\n{block}")
    for f in failures:
        print("[FAIL]", f)
    # The README and both embedding guides carry such snippets: none found means the check broke.
    ok = not failures and count >= 7
    print(f"[{'PASS' if ok else 'FAIL'}] {count} snippets in the docs are their files' own lines")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
