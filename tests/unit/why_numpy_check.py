#!/usr/bin/python3
"""The "why attention" layers' forward passes against numpy, written here from
their definitions (core/layers/recurrent.hpp, why_models.hpp) alone:

    tanh RNN: h_t = tanh(x_t Wx + h_{t-1} Wh + b), h_0 = 0
    GRU:      z = sigmoid(x_t Wz + h Uz + bz), r = sigmoid(x_t Wr + h Ur + br),
              n = tanh(x_t Wn + (r * h) Un + bn), h_t = (1 - z) n + z h
    attention (none: q = k = v = x; tied: q = k = x Wqk, v = x Wv; separate:
              q = x Wq, k = x Wk, v = x Wv): att = causal softmax(q k^T / sqrt(C)),
              out = att v; the read-out softmax(out_t Wo + bo) at the positions
              with a target, and their mean cross-entropy
    convolution (causal, kernel 3, ReLU, a stack): y_t = ReLU(b + sum_j x_{t-j} W_j),
              the positions before the first zeros; the same read-out

    why_numpy_check.py DUMP

DUMP is tests/unit/why_forward_dump (native) or its .js (wasm, run with node).
It prints its random inputs and weights with its float32 results; numpy
recomputes them in float64 and holds every state and gate to within 1e-5,
for three seeds.
"""
import json
import subprocess
import sys

import numpy as np

TOL = 1e-5


def run(dump, seed):
    command = ['node', dump] if dump.endswith('.js') else [dump]
    return json.loads(subprocess.run(command + [str(seed)], check=True, capture_output=True, text=True).stdout)


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def rnn(x, wx, wh, b):
    B, T, _ = x.shape
    hs = np.zeros((B, T + 1, wh.shape[0]))
    for t in range(T):
        hs[:, t + 1] = np.tanh(x[:, t] @ wx + hs[:, t] @ wh + b)
    return hs


def gru(x, w, u, b):
    B, T, _ = x.shape
    H = u.shape[0]
    hs = np.zeros((B, T + 1, H))
    gates = np.zeros((B, T, 3 * H))
    for t in range(T):
        h = hs[:, t]
        a = x[:, t] @ w + b
        z = sigmoid(a[:, :H] + h @ u[:, :H])
        r = sigmoid(a[:, H:2 * H] + h @ u[:, H:2 * H])
        n = np.tanh(a[:, 2 * H:] + (r * h) @ u[:, 2 * H:])
        hs[:, t + 1] = (1 - z) * n + z * h
        gates[:, t] = np.concatenate([z, r, n], axis=1)
    return hs, gates


def attention(a):
    B, T, C = a['B'], a['T'], a['C']
    x = np.array(a['x']).reshape(B, T, C)
    w = {k: np.array(a[k]).reshape(C, C) for k in ('wq', 'wk', 'wv', 'wqk') if k in a}
    if 'wq' in w:
        q, k, v = x @ w['wq'], x @ w['wk'], x @ w['wv']
    elif 'wqk' in w:
        q = k = x @ w['wqk']
        v = x @ w['wv']
    else:
        q = k = v = x
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(C)
    scores = np.where(np.tril(np.ones((T, T))) > 0, scores, -np.inf)
    att = np.exp(scores - scores.max(axis=2, keepdims=True))
    att /= att.sum(axis=2, keepdims=True)
    out = att @ v
    rows = np.array(a['rows']).astype(int)
    logits = out.reshape(B * T, C)[rows] @ np.array(a['wo']).reshape(C, -1) + np.array(a['bo'])
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    targets = np.array(a['targets']).astype(int)
    loss = float(np.mean(-np.log(probs[np.arange(len(rows)), targets])))
    return att, out, probs, loss


def readout(features, a):
    """The read-out's softmax at the rows with a target, and the mean cross-entropy."""
    rows = np.array(a['rows']).astype(int)
    C = a['C']
    logits = features.reshape(-1, C)[rows] @ np.array(a['wo']).reshape(C, -1) + np.array(a['bo'])
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    targets = np.array(a['targets']).astype(int)
    return probs, float(np.mean(-np.log(probs[np.arange(len(rows)), targets])))


def convolution(a):
    B, T, C, L, K = a['B'], a['T'], a['C'], a['layers'], 3
    y = np.array(a['x'], dtype=float).reshape(B, T, C)
    w = np.array(a['conv_w'], dtype=float).reshape(L, K, C, C)
    b = np.array(a['conv_b'], dtype=float).reshape(L, C)
    outputs = []
    for layer in range(L):
        z = np.tile(b[layer], (B, T, 1))
        for j in range(K):  # tap j: the input j positions back, zeros before the first
            z[:, j:, :] += y[:, :T - j, :] @ w[layer, j]
        y = np.maximum(z, 0.0)
        outputs.append(y)
    probs, loss = readout(y, a)
    return np.stack(outputs), probs, loss


def main():
    dump = sys.argv[1]
    failures = 0
    for seed in (1, 2, 3):
        d = run(dump, seed)
        B, T, C, H = d['B'], d['T'], d['C'], d['H']
        x = np.array(d['x']).reshape(B, T, C)
        r = d['rnn']
        want = rnn(x, np.array(r['wx']).reshape(C, H), np.array(r['wh']).reshape(H, H), np.array(r['b']))
        checks = [('tanh RNN states', want, np.array(r['hs']).reshape(B, T + 1, H))]
        g = d['gru']
        hs, gates = gru(x, np.array(g['w']).reshape(C, 3 * H), np.array(g['u']).reshape(H, 3 * H), np.array(g['b']))
        checks += [('GRU states', hs, np.array(g['hs']).reshape(B, T + 1, H)),
                   ('GRU gates', gates, np.array(g['gates']).reshape(B, T, 3 * H))]
        for variant, a in d['attention'].items():
            att, out, probs, loss = attention(a)
            B, T, C = a['B'], a['T'], a['C']
            checks += [(f'attention ({variant}) weights', att, np.array(a['att']).reshape(B, T, T)),
                       (f'attention ({variant}) outputs', out, np.array(a['out']).reshape(B, T, C)),
                       (f'attention ({variant}) read-out softmax', probs, np.array(a['probs']).reshape(probs.shape)),
                       (f'attention ({variant}) loss', np.array([loss]), np.array([a['loss']]))]
        a = d['cnn']
        conv, probs, loss = convolution(a)
        checks += [('convolution layers\' outputs', conv, np.array(a['conv']).reshape(conv.shape)),
                   ('convolution read-out softmax', probs, np.array(a['probs']).reshape(probs.shape)),
                   ('convolution loss', np.array([loss]), np.array([a['loss']]))]
        for name, expected, got in checks:
            worst = float(np.max(np.abs(expected - got)))
            ok = worst <= TOL and float(np.max(np.abs(expected))) > 0.1  # and not all near zero
            failures += not ok
            print(f"[{'PASS' if ok else 'FAIL'}] seed {seed}: {name} within {TOL} of numpy (worst {worst:.2e})")
    print('why_numpy_check:', 'OK' if failures == 0 else f'{failures} failure(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
