"""attention_cli fig41 [--json] and {"experiment": "fig41"} against an independent
numpy computation of Figure 4.1's head 0.

Head 0 is noise-free: W_q = W_k are zero except W[0][0] = 2.0 and W[1][1] = 1.5,
so q_t = k_t = [2 * t/8, 1.5 * sin t, 0, ...] and, with d_head = 8,
weights = softmax(q k^T / sqrt(8)). W_v = W_o = I, so output columns 0..3 are
weights_0 @ [t/8, sin t, cos t, +-1] (the deterministic features of X).
"""
import sys

import numpy as np

from cli_common import Checks, attend, run_cli, run_json, shape_of, softmax_rows

cli = sys.argv[1]
c = Checks("cli_fig41")

fig = run_json(cli, "fig41", "--json")
c.check(set(fig) == {"heads", "average", "output", "stats", "top_keys", "tokens"},
        "fig41 --json has exactly the documented keys", str(sorted(fig)))
c.check(shape_of(fig["heads"]) == (4, 8, 8), "heads is [4][8][8]", str(shape_of(fig["heads"])))
c.check(shape_of(fig["average"]) == (8, 8), "average is [8][8]")
c.check(shape_of(fig["output"]) == (8, 32), "output is [8][32]")
c.check(fig["tokens"] == [f"t{i}" for i in range(8)], "tokens are t0..t7", str(fig["tokens"]))
c.check(len(fig["top_keys"]) == 8 and all(len(k) == 3 for k in fig["top_keys"]), "top_keys is [8][3]")
c.check(len(fig["stats"]) == 4 and all(set(s) == {"head", "min", "max", "mean"} for s in fig["stats"]),
        "stats has {head, min, max, mean} per head")

# ---- the independent computation ---------------------------------------------
t = np.arange(8, dtype=np.float64)
q = np.stack([2.0 * t / 8.0, 1.5 * np.sin(t)], axis=1)  # only features 0, 1 survive W_q
weights0 = softmax_rows(q @ q.T / np.sqrt(8.0))
heads = np.asarray(fig["heads"], dtype=np.float64)
c.close("head 0 weights == numpy softmax(q q^T / sqrt(8))", heads[0], weights0, 1e-5)
features = np.stack([t / 8.0, np.sin(t), np.cos(t), np.where(t % 2 == 1, 1.0, -1.0)], axis=1)
c.close("output[:, 0:4] == weights_0 @ X[:, 0:4]", np.asarray(fig["output"])[:, 0:4],
        weights0 @ features, 1e-5)

# ---- internal consistency ----------------------------------------------------
avg = np.asarray(fig["average"], dtype=np.float64)
c.close("every head's rows sum to 1", heads.sum(axis=2), np.ones((4, 8)), 1e-5)
c.close("average == mean over heads", avg, heads.mean(axis=0), 1e-6)
for h, s in enumerate(fig["stats"]):
    c.check(s["head"] == h, f"stats[{h}].head == {h}")
    c.close(f"stats[{h}] min/max/mean match head {h}", [s["min"], s["max"], s["mean"]],
            [heads[h].min(), heads[h].max(), heads[h].mean()], 1e-6)
for i, keys in enumerate(fig["top_keys"]):
    order = sorted(range(8), key=lambda j: (-avg[i, j], j))  # ties go to the lower index
    # Values tied to ~1 ulp may be ordered either way; compare the weights, not just indices.
    c.close(f"top_keys[{i}] are the 3 largest average weights", avg[i, keys], avg[i, order[:3]], 1e-7)

# ---- the same experiment through compute() ------------------------------------
api = attend(cli, {"experiment": "fig41"})
c.check(set(api) == {"tokens", "scores", "scaled_scores", "weights", "output", "average", "stats", "top_keys",
                     "average_stats", "key_valid", "fully_masked"},
        "experiment result has exactly the documented keys", str(sorted(api)))
c.check([{k: s[k] for k in ("head", "min", "max", "mean")} for s in api["stats"]] == fig["stats"],
        "experiment stats (head, min, max, mean) == fig41 --json stats")
c.check(all(set(s) == {"head", "min", "max", "mean", "mean_entropy"} for s in api["stats"]),
        "experiment stats also has mean_entropy per head")
c.close("experiment weights == fig41 heads", api["weights"], heads, 0.0)
c.close("experiment average == fig41 average", api["average"], avg, 0.0)
c.close("experiment scores[0] == q q^T", api["scores"][0], q @ q.T, 1e-5)
c.close("experiment scaled_scores == scores / sqrt(8)", api["scaled_scores"],
        np.asarray(api["scores"]) / np.sqrt(8.0), 1e-5)
c.check(api["top_keys"] == fig["top_keys"] and api["tokens"] == fig["tokens"],
        "experiment top_keys/tokens == fig41")

# ---- the console report --------------------------------------------------------
p = run_cli(cli, "fig41")
text = p.stdout.decode()
c.check(p.returncode == 0, "fig41 (text) exits 0")
for needle in ["Head-average", "Top-3 keys", "min", "max", "mean"]:
    c.check(needle in text, f"report mentions {needle!r}")
# The average table's rows are "t<i>" followed by 8 numbers with 4 decimals.
rows = [line.split() for line in text.splitlines() if line.split()[:1] and line.split()[0].startswith("t")
        and len(line.split()) == 9]
c.check(len(rows) == 8, "report prints the 8 x 8 head-average table", f"{len(rows)} rows")
if len(rows) == 8:
    c.close("report table == JSON average (4 decimals)", [[float(v) for v in r[1:]] for r in rows], avg, 5e-5)
c.exit()
