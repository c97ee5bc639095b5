"""docs/reference.md's tables are copies of what the programs print.

    test_docs.py <attention_cli> [<attention_app>]

- The "Config fields" table equals `attention_cli fields`, which prints the
  one field table the config parser and printer read (core/explorer/explorer_fields.cpp).
- The ids listed for --view, --preset and --panel in `attention_app --help`
  (from the views, presets and panels tables) are the ones docs/reference.md
  lists, and its presets table has a row for each preset, no more.
- Every field of the table is one that `attention_cli config` accepts and
  prints back (the table is the parser's, not a description of it).
"""
import json
import re
import sys
from pathlib import Path

from cli_common import Checks, run_cli

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "reference.md"


def main():
    cli = sys.argv[1]
    app = sys.argv[2] if len(sys.argv) > 2 else None
    c = Checks("cli_docs")
    reference = REFERENCE.read_text()

    fields = run_cli(cli, "fields")
    table = fields.stdout.decode()
    c.check(fields.returncode == 0 and table.startswith("| field |"), "attention_cli fields prints a markdown table",
            fields.stderr.decode())
    c.check(table in reference, "docs/reference.md holds `attention_cli fields` verbatim (regenerate the Config fields table)")

    names = re.findall(r"^\| `(\w+)` \|", table, re.M)
    c.check(len(names) >= 13 and {"text", "experiment", "mask", "trained_steps"} <= set(names),
            f"the table lists every field ({len(names)})", str(names))
    # The canonical form of a trained text config prints every text field.
    canonical = run_cli(cli, "config", "--config", "-",
                        stdin=json.dumps({"text": "a b", "projection": "trained"}).encode())
    printed = json.loads(canonical.stdout) if canonical.returncode == 0 else {}
    c.check(set(printed) == set(names) - {"experiment"},
            "a trained text config prints exactly the table's text fields",
            f"printed {sorted(printed)}, table {sorted(names)}")

    if app:
        url_fields = run_cli(app, "--url-fields").stdout.decode()
        c.check(url_fields.startswith("| parameter |") and url_fields in reference,
                "docs/reference.md holds `attention_app --url-fields` verbatim (regenerate the URL parameters table)")
        help_text = run_cli(app, "--help").stdout.decode()
        for flag in ("view", "preset", "panel"):
            m = re.search(rf"--{flag} ID\s+.*?([a-z0-9_]+(?:\|[a-z0-9_]+)+)", help_text)
            ids = m.group(1) if m else None
            c.check(ids is not None and f"`{ids}`" in reference,
                    f"docs/reference.md lists the --{flag} ids of attention_app --help", f"{ids!r}")
            if flag == "preset" and ids:
                presets = reference[reference.find("## Presets"):reference.find("\n## ", reference.find("## Presets") + 3)]
                rows = re.findall(r"^\| `(\w+)` \|", presets, re.M)
                c.check(rows == ids.split("|"), "the presets table has one row per preset, in order", f"{rows}")
    c.exit()


if __name__ == "__main__":
    main()
