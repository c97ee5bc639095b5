"""The chapter's numbers: attention_cli fig41, fig42 and causal against the
chapter scripts' recipes, computed here with Debian's numpy.

This is not the chapter's code: it follows each script's recipe (DESIGN.md,
"The chapter it serves") with the scripts' generator, np.random.seed(42) and
their draw order, and computes every table they print. The lab computes in
float32 (Figure 4.1, the causal demo) or float64 rounded to float32 (Figure
4.2's statistics), so values must agree within FLOAT32 and every printed
4-decimal value must be the same text. Another --seed is another draw of the
same generator: checked for each command with seed 7.
"""
import sys

import numpy as np

from cli_common import Checks, run_cli, run_json

cli = sys.argv[1]
c = Checks("cli_book")
FLOAT32 = 2e-6  # absolute, for weights and scores of magnitude <= ~5 in float32
REL32 = 1e-6    # relative, for Figure 4.2's float32 statistics


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def top3(w):
    return [list(np.argsort(-row, kind="stable")[:3]) for row in w]


def fig41(seed):
    np.random.seed(seed)
    T, D, H = 8, 32, 4
    X = np.zeros((T, D))
    t = np.arange(T)
    X[:, 0], X[:, 1], X[:, 2], X[:, 3] = t / T, np.sin(t), np.cos(t), np.where(t % 2 == 1, 1.0, -1.0)
    X[:, 4:] = 0.05 * np.random.randn(T, D - 4)
    W = np.zeros((D, D))
    for h in range(H):
        s = 8 * h
        W[s, s], W[s + 1, s + 1] = 2.0, 1.5
    Q = K = X @ W
    heads = [softmax(Q[:, 8 * h:8 * h + 8] @ K[:, 8 * h:8 * h + 8].T / np.sqrt(8)) for h in range(H)]
    average = np.mean(heads, axis=0)
    return heads, average


def fig42(seed):
    np.random.seed(seed)
    rows = []
    for d_k in [8, 32, 128, 512]:
        q, k = np.random.randn(4000, d_k), np.random.randn(4000, d_k)
        raw = (q * k).sum(axis=1)
        scaled = raw / np.sqrt(d_k)
        peak = lambda s: np.mean([softmax(np.array([x, 0.0])).max() for x in s[:50]])
        rows.append((d_k, raw.std(), scaled.std(), peak(raw), peak(scaled)))
    return rows


def causal(seed):
    np.random.seed(seed)
    X = np.random.randn(8, 16)
    W_q, W_k, W_v = (0.1 * np.random.randn(16, 16) for _ in range(3))
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    scores = Q @ K.T
    bi = softmax(scores / np.sqrt(16))
    mask = np.tril(np.ones((8, 8), dtype=bool))
    ca = softmax(np.where(mask, scores / np.sqrt(16), -np.inf))
    diff = np.linalg.norm(bi @ V - ca @ V, axis=1)
    return scores, bi, ca, diff


def close(what, got, want, tol=FLOAT32):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    err = float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf")
    c.check(err <= tol, f"{what} (worst {err:.2e}, tolerance {tol:g})")


def same_4dp(what, got, want):
    g, w = [f"{x:.4f}" for x in np.ravel(got)], [f"{x:.4f}" for x in np.ravel(want)]
    bad = [(a, b) for a, b in zip(g, w) if a != b]
    c.check(len(g) == len(w) and not bad, f"{what}: every value printed to 4 decimals is the book's", str(bad[:4]))


# ---- Figure 4.1 --------------------------------------------------------------
for seed in (42, 7):
    heads, average = fig41(seed)
    args = ["fig41", "--json"] + ([] if seed == 42 else ["--seed", str(seed)])
    f = run_json(cli, *args)
    tag = f"fig41 seed {seed}" + (" (the book's)" if seed == 42 else "")
    close(f"{tag}: every head's weights", f["heads"], heads)
    close(f"{tag}: the head average", f["average"], average)
    stats = [[s["min"], s["max"], s["mean"]] for s in f["stats"]]
    want = [[h.min(), h.max(), h.mean()] for h in heads]
    close(f"{tag}: per-head min/max/mean", stats, want)
    same_4dp(f"{tag}: per-head min/max/mean", stats, want)
    same_4dp(f"{tag}: the averaged matrix", f["average"], average)
    c.check(f["top_keys"] == [[int(k) for k in r] for r in top3(average)], f"{tag}: each position's top-3 keys",
            f"{f['top_keys']} vs {top3(average)}")
    if seed == 42:
        c.check(f"{heads[1].min():.4f}-{heads[1].max():.4f}" == "0.1248-0.1253",
                "the recipe reproduces the book: head 1 spans 0.1248-0.1253", f"{heads[1].min()}-{heads[1].max()}")
        text = run_cli(cli, "fig41").stdout.decode()
        for h, (lo, hi, mean) in enumerate(want):
            c.check(any(line.split() == [str(h), f"{lo:.4f}", f"{hi:.4f}", f"{mean:.4f}"] for line in text.splitlines()),
                    f"fig41 prints head {h}'s row as the book: {lo:.4f} {hi:.4f} {mean:.4f}")

# ---- Figure 4.2 --------------------------------------------------------------
for seed in (42, 7):
    rows = fig42(seed)
    args = ["fig42", "--json"] + ([] if seed == 42 else ["--seed", str(seed)])
    f = run_json(cli, *args)
    tag = f"fig42 seed {seed}" + (" (the book's)" if seed == 42 else "")
    c.check(f["dims"] == [r[0] for r in rows], f"{tag}: d_k 8, 32, 128, 512")
    got = np.array([f["raw_std"], f["scaled_std"], f["raw_peak"], f["scaled_peak"]]).T
    want = np.array([r[1:] for r in rows])
    err = float(np.max(np.abs(got - want) / np.abs(want)))
    c.check(err <= REL32, f"{tag}: std and peak of raw and scaled scores (worst relative {err:.1e})")
    same_4dp(f"{tag}: the std/peak table", got, want)
    if seed == 42:
        c.check(f"{rows[0][1]:.4f} {rows[0][2]:.4f} {rows[0][3]:.4f} {rows[0][4]:.4f}" == "2.8799 1.0182 0.8494 0.6953",
                "the recipe reproduces the book: d_k=8: raw std=2.8799, scaled std=1.0182, raw peak=0.8494, scaled peak=0.6953")
        text = run_cli(cli, "fig42").stdout.decode()
        for d_k, *v in rows:
            c.check(any(line.split()[:1] == [str(d_k)] and line.split()[2:] == [f"{x:.4f}" for x in v]
                        for line in text.splitlines()), f"fig42 prints d_k={d_k} as the book: " + " ".join(f"{x:.4f}" for x in v))

# ---- The causal companion ------------------------------------------------------
for seed in (42, 7):
    scores, bi, ca, diff = causal(seed)
    args = ["causal", "--json"] + ([] if seed == 42 else ["--seed", str(seed)])
    f = run_json(cli, *args)
    tag = f"causal seed {seed}" + (" (the book's)" if seed == 42 else "")
    close(f"{tag}: raw scores", f["scores"], scores)
    close(f"{tag}: bidirectional weights", f["bidirectional"], bi)
    close(f"{tag}: causal weights", f["causal"], ca)
    close(f"{tag}: output difference per position", f["output_diff"], diff)
    same_4dp(f"{tag}: the output differences", f["output_diff"], diff)
    c.check(f["top_keys"] == [[int(k) for k in r] for r in top3(ca)], f"{tag}: each position's top-3 keys",
            f"{f['top_keys']} vs {top3(ca)}")

c.check(run_cli(cli, "fig41", "--seed", "4294967296").returncode != 0, "--seed beyond numpy's 2^32 - 1 is refused")
c.exit()
