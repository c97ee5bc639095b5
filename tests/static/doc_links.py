"""The docs' links lead somewhere, and the docs speak of the project only.

    doc_links.py

- Every relative link or image in every Markdown file of the project names a
  file or folder that exists, and a link's #anchor names a heading of its
  target (GitHub's anchors: lower case, punctuation dropped, spaces as '-').
- README.md fits a reader's first look: at most 150 lines.
- The README, ARCHITECTURE.md and docs/ speak of the project, not of how it
  was made: no issue numbers, no "this session", no "this change".
"""
import re
import sys
from pathlib import Path

from markdown_files import ROOT, markdown_files

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
HISTORY = re.compile(r"\bissues? #?\d+|#\d{2,}\b|\b(this|last|next|earlier|previous|\w+th) session\b|"
                     r"\b(this|until this|since this|before this) change\b", re.I)
README_MAX_LINES = 150


def without_code(text):
    """The text with fenced blocks and code spans blanked (a link inside them is an example)."""
    text = re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "``", text)


def anchors(path):
    """The anchors of a file's headings (a code span's text is part of its anchor)."""
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    seen, result = {}, set()
    for line in text.split("\n"):
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            result.add(slug if n == 0 else f"{slug}-{n}")
    return result


def main():
    failures = []
    links = 0
    docs = markdown_files()
    for doc in docs:
        name = doc.relative_to(ROOT)
        for target in LINK.findall(without_code(doc.read_text())):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto: lead outside the project
            links += 1
            path_part, _, anchor = target.partition("#")
            dest = (doc.parent / path_part).resolve() if path_part else doc
            if not dest.exists():
                failures.append(f"{name}: ({target}): {path_part} does not exist")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                failures.append(f"{name}: ({target}): {dest.relative_to(ROOT)} has no heading #{anchor}")
        if name.parts[0] in ("docs",) or name.name.startswith("README") or name.name == "ARCHITECTURE.md":
            for number, line in enumerate(doc.read_text().split("\n"), 1):
                if HISTORY.search(line):
                    failures.append(f"{name}:{number}: speaks of the project's history: {line.strip()[:120]}")
    readme_lines = (ROOT / "README.md").read_text().count("\n")
    if readme_lines > README_MAX_LINES:
        failures.append(f"README.md: {readme_lines} lines; at most {README_MAX_LINES}")
    for f in failures:
        print("[FAIL]", f)
    ok = not failures and links >= 20
    print(f"[{'PASS' if ok else 'FAIL'}] {links} relative links in {len(docs)} Markdown files lead somewhere; "
          f"README.md has {readme_lines} lines; the docs speak of the project only")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
