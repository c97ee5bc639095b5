"""attention_cli attend --config FILE|-: compute() against numpy.

Explicit Q/K/V: output == softmax(Q K^T * scale / T + mask) V, recomputed in
float64 from the same float32 inputs. Text configs: shapes, row sums, masks,
determinism and the head average (test_explorer.py recomputes text configs
from their definition: embeddings, projections, statistics).
"""
import json
import os
import sys
import tempfile

import numpy as np

from cli_common import Checks, attend, run_cli, shape_of, softmax_rows

cli = sys.argv[1]
c = Checks("cli_attend")
rng = np.random.default_rng(2024)
RESULT_KEYS = {"tokens", "scores", "scaled_scores", "weights", "output", "average"}
# Text and experiment configs (the explorer) add statistics and mask facts.
TEXT_KEYS = RESULT_KEYS | {"stats", "average_stats", "key_valid", "fully_masked", "top_keys"}


def matrix(rows, cols):
    # float32 values written as exact decimals, so C++ reads the same numbers.
    return rng.standard_normal((rows, cols)).astype(np.float32).astype(np.float64)


def check_explicit(name, Q, K, V, mask=None, scale=None, temperature=None, tol=1e-5):
    """tol: for weights/output; scores get 10x (float32 sums of d_k products)."""
    config = {"Q": Q.tolist(), "K": K.tolist(), "V": V.tolist()}
    allowed = np.ones((Q.shape[0], K.shape[0]), dtype=bool)
    factor = 1.0 / np.sqrt(Q.shape[1])
    if mask is not None:
        config["mask"] = mask
        if mask == "causal":
            allowed = np.tril(allowed)
        elif isinstance(mask, list):
            allowed = np.asarray(mask, dtype=bool)
    if scale is not None:
        config["scale"] = scale
        factor = 1.0 if scale == "none" else float(np.float32(scale))
    if temperature is not None:
        config["temperature"] = temperature
        factor /= float(np.float32(temperature))
    r = attend(cli, config)
    c.check(set(r) == RESULT_KEYS, f"{name}: result has exactly the documented keys", str(sorted(r)))
    weights = softmax_rows(Q @ K.T * factor, allowed)
    c.close(f"{name}: scores == Q K^T", r["scores"], Q @ K.T, 10 * tol)
    c.close(f"{name}: scaled_scores == Q K^T * scale / T", r["scaled_scores"], Q @ K.T * factor,
            10 * tol * max(1.0, float(np.max(np.abs(Q @ K.T * factor)))))
    c.close(f"{name}: weights == softmax", r["weights"], weights, tol)
    c.close(f"{name}: output == softmax(...) V", r["output"], weights @ V, tol)
    c.close(f"{name}: average == weights (one head)", r["average"], r["weights"], 0.0)
    c.check(bool(np.all(np.asarray(r["weights"])[~allowed] == 0.0)), f"{name}: masked weights are exactly 0")
    return r


Q, K, V = matrix(5, 8), matrix(5, 8), matrix(5, 3)
check_explicit("explicit 5x8", Q, K, V)
check_explicit("explicit causal", Q, K, V, mask="causal")
check_explicit("explicit scale none", Q, K, V, scale="none")
check_explicit("explicit scale 0.3", Q, K, V, scale=0.3)
check_explicit("explicit temperature 0.5", Q, K, V, temperature=0.5)
check_explicit("explicit temperature 4, scale none, causal", Q, K, V, mask="causal", scale="none", temperature=4)
custom = (rng.random((5, 5)) < 0.6).astype(int)
custom[:, 0] = 1  # every query keeps at least one key
check_explicit("explicit custom mask", Q, K, V, mask=custom.tolist())
check_explicit("explicit n_q != n_k", matrix(3, 4), matrix(6, 4), matrix(6, 2))
# Unscaled scores in the hundreds: softmax saturates but must stay finite and
# normalised (float32 rounding of scores ~100 is ~1e-5, hence the tolerance).
big = check_explicit("explicit 64x32 large scores", matrix(64, 32) * 5, matrix(64, 32) * 5, matrix(64, 16),
                     scale="none", tol=1e-4)
c.close("large scores: rows still sum to 1", np.sum(big["weights"], axis=1), np.ones(64), 1e-5)
c.check(float(np.mean(np.max(big["weights"], axis=1))) > 0.9, "large scores: softmax is saturated (peaks near 1)")

# A fully masked row means "attend to nothing": all zeros, never NaN.
r = attend(cli, {"Q": [[1.0]], "K": [[1.0]], "V": [[2.0]], "mask": [[0]]})
c.check(r["weights"] == [[0.0]] and r["output"] == [[0.0]], "fully masked row gives zero weights and output")

# ---- text configs --------------------------------------------------------------
text = "The cat sat on the mat because it was tired ."
base = {"text": text, "d_model": 16, "heads": 4, "seed": 3}
r = attend(cli, base)
n = len(r["tokens"])
c.check(r["tokens"][:3] == ["The", "cat", "sat"] and n == 11, "text is tokenized into words and punctuation",
        str(r["tokens"]))
c.check(set(r) == TEXT_KEYS, "text: result has exactly the documented keys", str(sorted(r)))
for k in ("scores", "scaled_scores", "weights"):
    c.check(shape_of(r[k]) == (4, n, n), f"text: {k} is [heads][n][n]", str(shape_of(r[k])))
c.check(shape_of(r["output"]) == (n, 16) and shape_of(r["average"]) == (n, n), "text: output [n][d_model], average [n][n]")
w = np.asarray(r["weights"], dtype=np.float64)
c.close("text: weights == softmax(scaled_scores) per head", w,
        np.stack([softmax_rows(s) for s in np.asarray(r["scaled_scores"], dtype=np.float64)]), 1e-5)
c.close("text: scaled_scores == scores / sqrt(d_head)", r["scaled_scores"],
        np.asarray(r["scores"]) / np.sqrt(16 / 4), 1e-5)
c.close("text: average == mean over heads", r["average"], w.mean(axis=0), 1e-6)
# Embeddings depend only on the token text: both "the"s are lowercase-distinct from "The",
# but a repeated token must give identical score rows.
r2 = attend(cli, {"text": "cat dog cat", "d_model": 8, "heads": 2, "seed": 5})
s2 = np.asarray(r2["scores"])
c.close("text: a repeated token gets identical score rows", s2[:, 0, :], s2[:, 2, :], 0.0)
c.check(attend(cli, base) == r, "text: same config gives the same result (deterministic)")
c.check(attend(cli, dict(base, seed=4))["weights"] != r["weights"], "text: a different seed gives different weights")

causal = attend(cli, dict(base, mask="causal"))
cw = np.asarray(causal["weights"])
c.check(all(bool(np.all(np.triu(cw[h], 1) == 0.0)) for h in range(4)), "text causal: upper triangles are exactly 0")
c.close("text causal: last row equals the unmasked last row", cw[:, -1, :], w[:, -1, :], 1e-6)

padded = attend(cli, dict(base, mask={"pad": 3}))
pt = padded["tokens"]
c.check(len(pt) == n + 3 and pt[-3:] == ["[PAD]"] * 3 and pt[:n] == r["tokens"], "{pad: 3} appends three [PAD] tokens")
pw = np.asarray(padded["weights"])
c.check(bool(np.all(pw[:, :, n:] == 0.0)), "{pad: 3}: nobody attends to the pad keys (columns exactly 0)")
c.close("{pad: 3}: rows still sum to 1", pw.sum(axis=2), np.ones((4, n + 3)), 1e-5)
c.close("{pad: 3}: real tokens' weights are unchanged by the padding", pw[:, :n, :n], w, 1e-6)

# "padding" masks whatever [PAD] tokens the token list already has.
pr = attend(cli, {"text": "the cat [PAD] [PAD]", "d_model": 8, "mask": "padding"})
pad_cols = [j for j, t in enumerate(pr["tokens"]) if t == "[PAD]"]
c.check(all(np.asarray(pr["weights"])[0][:, j].max() == 0.0 for j in pad_cols),
        f"\"padding\": pad token columns are exactly 0 ({len(pad_cols)} pad tokens in {pr['tokens']})")

# ---- file vs stdin ------------------------------------------------------------------
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump(base, f)
try:
    p = run_cli(cli, "attend", "--config", f.name)
    c.check(p.returncode == 0 and json.loads(p.stdout) == r, "--config FILE gives the same result as stdin")
finally:
    os.unlink(f.name)
c.exit()
