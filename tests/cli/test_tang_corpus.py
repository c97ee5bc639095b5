"""The Quan Tang Shi as the poem model would learn from it, checked from outside.

    test_tang_corpus.py <attention_cli>

`attention_cli poem corpus --tang default` cleans the corpus that
scripts/tang_corpus.sh fetched and splits it; --train-out writes the training
poems. Read independently of the C++ code:

- no clause of 4 or more characters of any tang300 poem (the poems a reader is
  shown as never seen) occurs anywhere in the training text, so no training
  window holds one;
- the training poems hold only ideographs, a poem's punctuation and line
  breaks (the cleaning left no note, bracket, lost character or Latin), and no
  two are the same;
- the counts add up: every poem read is kept or left out for one reason, and
  every kept poem trains, validates or is excluded; the validation set is
  about 1 % of the rest; the test set is all 313 tang300 poems.
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from cli_common import Checks

TANG300 = Path("/usr/share/games/fortunes/tang300")
MARKS = "，。？！；：、"


def tang300_clauses():
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", TANG300.read_text(encoding="utf-8"))
    clauses = set()
    for entry in text.split("\n%\n"):
        for line in entry.split("\n"):
            line = line.strip()
            if not line or line.startswith(("《", "作者", "题目", "--")):
                continue
            clauses.update(c for c in re.split(r"[，。？！；：、,.?!;:]", line) if len(c) >= 4)
    return clauses


def ideograph(ch):
    c = ord(ch)
    return 0x4E00 <= c <= 0x9FFF or 0x3400 <= c <= 0x4DBF or 0xF900 <= c <= 0xFAFF or 0x20000 <= c <= 0x3134F


def main():
    cli = sys.argv[1]
    c = Checks("cli_tang_corpus")
    with tempfile.TemporaryDirectory() as tmp:
        train_file = Path(tmp) / "train.txt"
        r = subprocess.run([cli, "poem", "corpus", "--tang", "default", "--min-count", "10", "--train-out",
                            str(train_file), "--json"], capture_output=True)
        if not c.check(r.returncode == 0, "poem corpus --tang default runs", r.stderr.decode()[:500]):
            return c.exit()
        report = json.loads(r.stdout)
        poems = [p for p in train_file.read_text(encoding="utf-8").split("\n%\n") if p.strip()]

    tang, train = report["tang"], report["train"]
    c.check(tang["poems"] > 57000, f"the corpus has the Quan Tang Shi's poems ({tang['poems']})")
    c.check(tang["kept"] + sum(tang["dropped"].values()) == tang["poems"],
            "every poem read is kept or left out for one reason", json.dumps(tang, ensure_ascii=False))
    rest = train["poems"] + report["validation"]["poems"]
    c.check(rest + tang["excluded_sharing_a_clause"] == tang["kept"], "every kept poem trains, validates or is excluded")
    c.check(0.008 < report["validation"]["poems"] / rest < 0.012,
            f"validation is about 1 % ({report['validation']['poems']} of {rest})")
    c.check(report["test"]["poems"] == 313, f"the test set is tang300's 313 poems ({report['test']['poems']})")
    c.check(len(poems) == train["poems"], f"--train-out holds the training poems ({len(poems)})")
    c.check(len(set(poems)) == len(poems), "no two training poems are the same")

    bad = [p for p in poems if not all(ideograph(ch) or ch in MARKS or ch == "\n" for ch in p)]
    c.check(not bad, "the training poems hold only ideographs, punctuation and line breaks",
            repr(bad[:3]))
    text = "\n".join(poems)
    clauses = tang300_clauses()
    found = sorted(cl for cl in clauses if cl in text)
    c.check(len(clauses) > 3000 and not found,
            f"none of tang300's {len(clauses)} clauses of 4+ characters is in the training text", repr(found[:10]))
    chars = sum(len(p.replace("\n", "")) for p in poems)
    c.check(chars == train["characters"], f"the characters add up ({chars})")
    c.exit()


if __name__ == "__main__":
    main()
