#!/usr/bin/python3
"""The poem model's forward pass against numpy, written here from the
architecture (core/poem/gpt.hpp) and the file format (model_file.hpp) alone.

    poem_numpy_check.py DUMP [ATTENTION_CLI]

DUMP is tests/unit/poem_forward_dump (native) or its .js (wasm, run with node).
It writes a model with random weights; this script reads the file itself,
computes logits and every attention weight in float64, and holds DUMP's float32
fast path to them within 1e-5. With ATTENTION_CLI, `poem attend --json` on the
same model is checked too (its weights, its losses, its top-10 next characters).
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'cli'))
from cli_common import Checks  # noqa: E402

TOL = 1e-5


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def read_model(path, checks):
    data = open(path, 'rb').read()
    assert data[:8] == b'ATTNPOEM', 'magic'
    version, V, T, L, H, C = struct.unpack_from('<6I', data, 8)
    assert version in (1, 2)
    (info_len,) = struct.unpack_from('<I', data, 32)
    info = data[36:36 + info_len].decode('utf-8')
    pos = 36 + info_len
    vocab = []
    for _ in range(V):
        n = data[pos]
        vocab.append(data[pos + 1:pos + 1 + n].decode('utf-8'))
        pos += 1 + n
    (count,) = struct.unpack_from('<Q', data, pos)
    pos += 8
    encoding = 0  # version 1: float32; version 2: 1 int8 rows (a float32 scale a row), 2 float16
    if version == 2:
        (encoding,) = struct.unpack_from('<I', data, pos)
        pos += 4
    # The layout of param_tensors: wte, wpe, per layer 12 tensors, lnf.
    shapes = [('wte', (V, C)), ('wpe', (T, C))]
    for l in range(L):
        shapes += [(f'h{l}.ln1_w', (C,)), (f'h{l}.ln1_b', (C,)), (f'h{l}.qkv_w', (C, 3 * C)), (f'h{l}.qkv_b', (3 * C,)),
                   (f'h{l}.proj_w', (C, C)), (f'h{l}.proj_b', (C,)), (f'h{l}.ln2_w', (C,)), (f'h{l}.ln2_b', (C,)),
                   (f'h{l}.fc_w', (C, 4 * C)), (f'h{l}.fc_b', (4 * C,)), (f'h{l}.fcproj_w', (4 * C, C)),
                   (f'h{l}.fcproj_b', (C,))]
    shapes += [('lnf_w', (C,)), ('lnf_b', (C,))]
    p, off = {}, 0
    for name, shape in shapes:
        n = int(np.prod(shape))
        if len(shape) == 1 or encoding == 0:
            p[name] = np.frombuffer(data, dtype='<f4', count=n, offset=pos).astype(np.float64).reshape(shape)
            pos += 4 * n
        elif encoding == 1:
            rows, cols = shape
            m = np.empty(shape)
            for r in range(rows):
                (scale,) = struct.unpack_from('<f', data, pos)
                m[r] = np.frombuffer(data, dtype='i1', count=cols, offset=pos + 4).astype(np.float64) * np.float32(scale)
                pos += 4 + cols
            p[name] = m
        else:
            p[name] = np.frombuffer(data, dtype='<f2', count=n, offset=pos).astype(np.float64).reshape(shape)
            pos += 2 * n
        off += n
    (checksum,) = struct.unpack_from('<Q', data, pos)
    checks.check(checksum == fnv1a64(data[:pos]), 'the file\'s checksum is FNV-1a 64 of the bytes before it')
    checks.check(pos + 8 == len(data), 'the checksum ends the file')
    checks.check(off == count, f'the parameter count is the architecture\'s ({count})')
    return dict(V=V, T=T, L=L, H=H, C=C, vocab=vocab, p=p, info=info)


def layernorm(x, w, b):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * w + b


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def forward(m, ids):
    p, C, H = m['p'], m['C'], m['H']
    T, hs = len(ids), C // H
    x = p['wte'][ids] + p['wpe'][:T]
    causal = np.tril(np.ones((T, T), dtype=bool))
    atts = []
    for l in range(m['L']):
        h = layernorm(x, p[f'h{l}.ln1_w'], p[f'h{l}.ln1_b'])
        qkv = h @ p[f'h{l}.qkv_w'] + p[f'h{l}.qkv_b']
        q, k, v = qkv[:, :C], qkv[:, C:2 * C], qkv[:, 2 * C:]
        out, layer_att = np.zeros((T, C)), []
        for head in range(H):
            s = slice(head * hs, (head + 1) * hs)
            scores = np.where(causal, q[:, s] @ k[:, s].T / np.sqrt(hs), -np.inf)
            w = np.exp(scores - scores.max(-1, keepdims=True))
            w /= w.sum(-1, keepdims=True)
            layer_att.append(w)
            out[:, s] = w @ v[:, s]
        atts.append(np.array(layer_att))
        x = x + out @ p[f'h{l}.proj_w'] + p[f'h{l}.proj_b']
        h = layernorm(x, p[f'h{l}.ln2_w'], p[f'h{l}.ln2_b'])
        x = x + gelu(h @ p[f'h{l}.fc_w'] + p[f'h{l}.fc_b']) @ p[f'h{l}.fcproj_w'] + p[f'h{l}.fcproj_b']
    x = layernorm(x, p['lnf_w'], p['lnf_b'])
    return x @ p['wte'].T, atts


def run(program, *args):
    cmd = (['node', program] if program.endswith('.js') else [program]) + list(args)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise SystemExit(f'{" ".join(cmd)} failed ({r.returncode}): {r.stderr}')
    return r.stdout


def main():
    checks = Checks('poem_numpy_check')
    dump, cli = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    with tempfile.TemporaryDirectory() as tmp:
        # Version 2 files: the same forward pass on the weights as numpy decodes them.
        for encoding in ('int8', 'float16'):
            path = os.path.join(tmp, f'random_{encoding}.bin')
            run(dump, '--write', path, '7', encoding)
            m = read_model(path, checks)
            ids = [1] + list(np.random.RandomState(4).randint(0, m['V'], size=m['T'] - 1))
            got = json.loads(run(dump, path, ','.join(map(str, ids))))
            logits, atts = forward(m, ids)
            worst = np.abs(np.array(got['logits']) - logits).max()
            checks.check(worst <= TOL, f'a version 2 file ({encoding}): logits within {TOL} of numpy', f'worst {worst:.3g}')
        path = os.path.join(tmp, 'random.bin')
        run(dump, '--write', path, '7')
        m = read_model(path, checks)
        rng = np.random.RandomState(3)
        for T in (1, 5, m['T']):
            ids = [1] + list(rng.randint(0, m['V'], size=T - 1))
            got = json.loads(run(dump, path, ','.join(map(str, ids))))
            logits, atts = forward(m, ids)
            g_logits = np.array(got['logits'])
            worst = np.abs(g_logits - logits).max()
            checks.check(worst <= TOL, f'T={T}: logits ({logits.size}) within {TOL} of numpy', f'worst {worst:.3g}')
            worst_w, future = 0.0, 0
            for l in range(m['L']):
                g_att = np.array(got['att'][l]).reshape(m['H'], T, T)
                worst_w = max(worst_w, np.abs(g_att - atts[l]).max())
                future += int(np.count_nonzero(np.triu(g_att, 1)))
            checks.check(worst_w <= TOL, f'T={T}: every attention weight within {TOL} of numpy', f'worst {worst_w:.3g}')
            checks.check(future == 0, f'T={T}: future positions get exactly 0 weight', f'{future} nonzero')
            print(f'  T={T}: worst logit {worst:.2e}, worst weight {worst_w:.2e}, logits span '
                  f'{logits.min():.2f}..{logits.max():.2f}, weights up to {max(a.max() for a in atts):.3f}')

        if cli:
            text = '床前明月光，疑是地上'  # 10 characters and <poem>: inside the context of 12
            r = subprocess.run([cli, 'poem', 'attend', '--model', path, '--text', text, '--json'],
                               capture_output=True, text=True, timeout=120)
            checks.check(r.returncode == 0, 'attention_cli poem attend --json runs', r.stderr)
            out = json.loads(r.stdout)
            ids = [1] + [m['vocab'].index(ch) for ch in text]
            logits, atts = forward(m, ids)
            checks.check(out['tokens'] == ['<poem>'] + list(text), 'attend: the tokens are <poem> then the text')
            worst = max(np.abs(np.array(out['layers'][l]['heads']) - atts[l]).max() for l in range(m['L']))
            checks.check(worst <= TOL, f'attend: every layer\'s and head\'s weights within {TOL} of numpy', f'{worst:.3g}')
            logp = logits - logits.max(-1, keepdims=True)
            logp -= np.log(np.exp(logp).sum(-1, keepdims=True))
            loss = np.array([-logp[i, ids[i + 1]] for i in range(len(ids) - 1)])
            worst = np.abs(np.array(out['loss']) - loss).max()
            checks.check(len(out['loss']) == len(ids) - 1 and worst <= 1e-4, 'attend: loss[i] = -ln p(tokens[i+1] | ..i)',
                  f'{worst:.3g}')
            top = np.argsort(-logp[-1], kind='stable')[:10]
            checks.check([n['char'] for n in out['next']] == [m['vocab'][i] for i in top], 'attend: the top 10 next characters')
            worst = max(abs(n['p'] - np.exp(logp[-1, i])) for n, i in zip(out['next'], top))
            checks.check(worst <= 1e-6, 'attend: their probabilities', f'{worst:.3g}')
            r = subprocess.run([cli, 'poem', 'attend', '--model', path, '--text', '海' + '月' * 20, '--json'],
                               capture_output=True, text=True, timeout=120)
            out = json.loads(r.stdout)
            checks.check(r.returncode == 0 and len(out['tokens']) == m['T'] and out['unknown'] == [] and
                  'reads the last 12 of 22' in r.stderr, 'attend: a text over the context is windowed, with a notice',
                  r.stderr)
            r = subprocess.run([cli, 'poem', 'attend', '--model', path, '--text', '海月', '--json'],
                               capture_output=True, text=True, timeout=120)
            out = json.loads(r.stdout)
            checks.check(out['unknown'] == [1] and out['tokens'][1] == '海', 'attend: an unknown character is read as <unk> '
                  'and named', json.dumps(out.get('unknown')))
            r = subprocess.run([cli, 'poem', 'attend', '--model', path, '--text', ''], capture_output=True, text=True)
            checks.check(r.returncode == 2 and 'empty' in r.stderr, 'attend: empty text is a clear error', r.stderr)
    checks.exit()


if __name__ == '__main__':
    main()
