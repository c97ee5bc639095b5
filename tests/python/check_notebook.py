"""The saved notebook and its HTML export hold every figure.

    /usr/bin/python3 check_notebook.py EXECUTED.ipynb EXPECTED.json NOTEBOOK.html

Each figure is one text/html output with its own element, its script and
(embed "every") the lab's files; no cell raised; the export has them all.
"""
import json
import re
import sys

import nbformat


def main(executed, expected_file, html_file):
    nb = nbformat.read(executed, as_version=4)
    with open(expected_file, encoding="utf-8") as f:
        expected = json.load(f)
    figures, failures = [], []
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                failures.append(f"cell {i} raised {output.ename}: {output.evalue}")
            html = output.get("data", {}).get("text/html", "")
            figures += re.findall(r'<div id="(attention-lab-[0-9a-f]+)" class="attention-lab-figure"', html)
            if "attention-lab-figure" in html and 'class="attention-lab-files"' not in html:
                failures.append(f"cell {i}: a figure without the lab's files")
    if len(figures) != len(expected):
        failures.append(f"{len(figures)} figures in the saved notebook, {len(expected)} expected")
    with open(html_file, encoding="utf-8") as f:
        exported = f.read()
    missing = [f for f in figures if f'id="{f}"' not in exported]
    if missing:
        failures.append(f"the HTML export lacks figures {missing}")
    for failure in failures:
        print("[FAIL]", failure)
    print(f"[{'FAIL' if failures else 'PASS'}] {len(figures)} figures saved in the notebook and exported to HTML")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
