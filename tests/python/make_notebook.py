"""The notebook the notebook test executes: examples/notebook/attention_lab.ipynb
and, after its cells, the test's own: Figure 4.1's weights from the lab's CLI,
a bad state field, then what every figure must show. (Bad weights: the
example's own last cell; NaN and the rest: docs/bad-input.md's table.)

    /usr/bin/python3 make_notebook.py EXAMPLE.ipynb OUT.ipynb

The expectations are written by the notebook itself (to $EXPECTED), from the
very arrays it gave the lab, in the order of the figures; the browsers'
check (tests/web/notebook_figures.mjs) compares each figure with them.
"""
import sys

import nbformat

TEST_CELLS = [
    '''# Figure 4.1 as the lab's own CLI computes it, drawn back as given weights.
import json, os, subprocess
run = subprocess.run([os.environ["ATTENTION_CLI"], "attend", "--config", "-"], input='{"experiment": "fig41"}',
                     capture_output=True, text=True, check=True)
fig41 = json.loads(run.stdout)
fig41_weights = np.array(fig41["weights"])  # heads x queries x keys
attention_lab.show_heatmaps(fig41_weights, tokens=fig41["tokens"],
                            titles=[f"head {h + 1}" for h in range(len(fig41_weights))], lang="en")''',
    '''attention_lab.show(text="a cat sat", mask="sideways")''',
    '''# Each figure, in order: the state it must have (given: rows x cols x queries x keys),
# or the words of the message it must show.
expected = [
    {"fields": {"text": "我爱自然语言处理", "mask": "causal", "heads": 2}},
    {"given": [[weights.tolist()]], "tokens": tokens},
    {"given": [a[0].tolist() for a in attentions], "tokens": words},
    {"notice": "weights[0]: the row sums to 0.7, not 1"},
    {"given": [fig41_weights.tolist()], "tokens": fig41["tokens"]},
    {"notice": "mask"},
]
with open(os.environ["EXPECTED"], "w", encoding="utf-8") as f:
    json.dump(expected, f, ensure_ascii=False)''',
]


def main(example, out):
    nb = nbformat.read(example, as_version=4)
    nb.cells += [nbformat.v4.new_code_cell(source) for source in TEST_CELLS]
    nbformat.write(nb, out)


if __name__ == "__main__":
    main(*sys.argv[1:])
