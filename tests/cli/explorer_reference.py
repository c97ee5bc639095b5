"""An independent numpy twin of the explorer's set-up, for checking compute().

It re-derives every input from its definition instead of asking the C++ code:
the PCG32 generator and Box-Muller normals (src/core/base/rng.hpp documents them),
FNV-1a token seeds, the sinusoidal position encoding, the projection modes and
the chapter's two experiments; then multi-head attention, masks, temperature
and the statistics in float64. Inputs are rounded to float32 where the core
stores float32, so the only differences left are float32 rounding in the maths.
"""
import math

import numpy as np

M64 = (1 << 64) - 1
PAD = "[PAD]"


class Pcg32:
    """PCG32 (XSH RR 64/32, pcg-c-basic seeding) with Box-Muller normals that keep the spare."""

    def __init__(self, seed, stream=54):
        self.state = 0
        self.inc = ((stream << 1) | 1) & M64
        self.next_u32()
        self.state = (self.state + seed) & M64
        self.next_u32()
        self.spare = None

    def next_u32(self):
        old = self.state
        self.state = (old * 6364136223846793005 + self.inc) & M64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def uniform_double(self):
        a, b = self.next_u32() >> 5, self.next_u32() >> 6
        return (a * 67108864.0 + b) / 9007199254740992.0

    def normal(self):
        if self.spare is not None:
            value, self.spare = self.spare, None
            return np.float32(value)
        u1 = 1.0 - self.uniform_double()
        u2 = self.uniform_double()
        radius = math.sqrt(-2.0 * math.log(u1))
        angle = 6.283185307179586 * u2
        self.spare = radius * math.sin(angle)
        return np.float32(radius * math.cos(angle))

    def normal_matrix(self, rows, cols, stddev=1.0):
        """Row by row, each entry float32(stddev) * normal() in float32."""
        s = np.float32(stddev)
        return np.array([[s * self.normal() for _ in range(cols)] for _ in range(rows)], dtype=np.float32)


def fnv1a(text):
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 1099511628211) & M64
    return h


def sinusoidal_positions(n, d_model):
    pe = np.zeros((n, d_model), dtype=np.float32)
    for pos in range(n):
        for c in range(d_model):
            angle = pos / math.pow(10000.0, 2.0 * (c // 2) / d_model)
            pe[pos, c] = math.sin(angle) if c % 2 == 0 else math.cos(angle)
    return pe


def embed(tokens, d_model, seed, positions=False):
    """Row i ~ N(0, 1) from a generator seeded by hash(token) ^ seed (stream = seed)."""
    X = np.stack([Pcg32(fnv1a(t) ^ seed, seed).normal_matrix(1, d_model)[0] for t in tokens])
    return (X + sinusoidal_positions(len(tokens), d_model)).astype(np.float32) if positions else X


def projections(mode, d_model, heads, seed):
    """W_q, W_k, W_v, W_o (float32) for "random", "identity" or "chapter"."""
    eye = np.eye(d_model, dtype=np.float32)
    if mode == "identity":
        return eye, eye, eye, eye
    if mode == "chapter":
        W = np.zeros((d_model, d_model), dtype=np.float32)
        d_head = d_model // heads
        for h in range(heads):
            s = h * d_head
            W[s, s], W[s + 1, s + 1] = 2.0, 1.5
        return W, W, eye, eye
    assert mode == "random", mode
    rng = Pcg32(seed, 1)
    stddev = np.float32(1.0) / np.sqrt(np.float32(d_model))  # Xavier normal: var 1/d_model
    return tuple(rng.normal_matrix(d_model, d_model, stddev) for _ in range(4))


def masked_softmax(scores, allowed):
    """Row softmax over allowed keys; a fully masked row is all 0 (attends to nothing)."""
    out = np.zeros_like(scores)
    for i in range(scores.shape[0]):
        keep = allowed[i]
        if keep.any():
            s = scores[i, keep]
            e = np.exp(s - s.max())
            out[i, keep] = e / e.sum()
    return out


def entropy_rows(weights):
    p = np.where(weights > 0, weights, 1.0)
    return -np.sum(np.where(weights > 0, weights * np.log(p), 0.0), axis=1)


def attention(X, W, heads, scale="sqrt", temperature=1.0, allowed=None):
    """Multi-head attention in float64. Returns a dict shaped like compute()'s answer."""
    X = X.astype(np.float64)
    Wq, Wk, Wv, Wo = (w.astype(np.float64) for w in W)
    n, d_model = X.shape
    d_head = d_model // heads
    if allowed is None:
        allowed = np.ones((n, n), dtype=bool)
    factor = 1.0 / math.sqrt(d_head) if scale == "sqrt" else 1.0 if scale == "none" else float(np.float32(scale))
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores, scaled, weights, outputs = [], [], [], []
    for h in range(heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        raw = Q[:, cols] @ K[:, cols].T
        s = raw * factor / float(np.float32(temperature))
        w = masked_softmax(s, allowed)
        scores.append(raw)
        scaled.append(s)
        weights.append(w)
        outputs.append(w @ V[:, cols])
    weights = np.stack(weights)
    average = weights.mean(axis=0)

    def summary(w):
        return {"min": w.min(), "max": w.max(), "mean": w.mean(), "mean_entropy": entropy_rows(w).mean()}

    top_keys = []
    for q in range(n):
        order = sorted((j for j in range(n) if allowed[q, j]), key=lambda j: (-average[q, j], j))
        top_keys.append(order[:3])
    return {
        "scores": np.stack(scores), "scaled_scores": np.stack(scaled), "weights": weights,
        "output": np.concatenate(outputs, axis=1) @ Wo, "average": average,
        "stats": [dict(summary(w), head=h) for h, w in enumerate(weights)],
        "average_stats": summary(average), "top_keys": top_keys,
        "fully_masked": [q for q in range(n) if not allowed[q].any()],
    }


def figure41_input():
    """seq_len 8, d_model 32: [t/8, sin t, cos t, +-1, 0.05 N(0,1) x 28], np.random.seed(42) as the book."""
    X = np.zeros((8, 32), dtype=np.float32)
    for t in range(8):
        X[t, 0] = np.float32(t) / np.float32(8)
        X[t, 1], X[t, 2] = math.sin(t), math.cos(t)
        X[t, 3] = 1.0 if t % 2 else -1.0
    X[:, 4:] = 0.05 * np.random.RandomState(42).randn(8, 28)  # float64, then rounded once
    return X


def causal_companion():
    """8 tokens, d_model 16, np.random.seed(42): X = randn(8, 16), then W_q, W_k, W_v = 0.1 randn(16, 16); W_o = I."""
    rs = np.random.RandomState(42)
    X = rs.randn(8, 16).astype(np.float32)
    Wq, Wk, Wv = ((0.1 * rs.randn(16, 16)).astype(np.float32) for _ in range(3))
    return X, (Wq, Wk, Wv, np.eye(16, dtype=np.float32))
