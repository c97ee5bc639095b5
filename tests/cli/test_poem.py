#!/usr/bin/python3
"""attention_cli poem: the built model's eval against numbers computed here.

    test_poem.py ATTENTION_CLI MODEL_FILE

From the fortunes-zh files this script parses the poems itself, makes the
split (tang300 index % 10 == 0 held out), builds the vocabulary, and computes
the unigram and interpolated-bigram baselines and the model's held-out loss
and punctuation accuracy with a numpy forward pass (tests/unit/
poem_numpy_check.py's). `poem eval --json` must print the same numbers and
meet the issue's goals. Then the commands' bad input: damaged model files,
empty text, unknown subcommands.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'unit'))
from poem_numpy_check import forward, read_model  # noqa: E402
from cli_common import Checks  # noqa: E402

CORPUS = '/usr/share/games/fortunes'
PUNCTUATION = set('，。？！；：、,.?!;:')

def entries(path):
    # As parse_fortunes: ESC [, then anything up to and including a letter (or the line's end).
    text = re.sub(r'\x1b\[[^A-Za-z\n]*[A-Za-z]?', '', open(path, encoding='utf-8').read())
    out = []
    for block in re.split(r'^[ \t\r]*%[ \t\r]*$', text, flags=re.M):
        lines = [l.strip(' \t\r') for l in block.split('\n')]  # ASCII blanks only: 　 (U+3000) is text
        # Titles (tang300's 《...》, song100's 题目:《...》), authors, attributions, and a part's number (其一).
        lines = [l for l in lines if l and not l.startswith(('《', '题目', '作者', '--'))
                 and not re.fullmatch('其[一二三四五六七八九十]{1,3}', l)]
        if lines:
            out.append('\n'.join(lines))
    return out


def encode_poem(ids, poem, start=1):
    return [start] + [2 if ch == '\n' else ids.get(ch, 0) for ch in poem] + [2]


def baselines(poem_ids, modern_ids, share, poems, V):
    """Unigram (add-one) and bigram interpolated with it; counts weighted as the batches drew the two streams."""
    total = len(poem_ids) + len(modern_ids)
    streams = [(poem_ids, (1 - share) * total / len(poem_ids) if modern_ids else 1.0)]
    if modern_ids:
        streams.append((modern_ids, share * total / len(modern_ids)))
    # Pairs as one number each (a * V + b): their weighted counts by bincount.
    keys = [np.array(ids[:-1], dtype=np.int64) * V + np.array(ids[1:], dtype=np.int64) for ids, _ in streams]
    uniq, where = np.unique(np.concatenate(keys), return_inverse=True)
    weight_of = np.concatenate([np.full(len(k), w) for k, (_, w) in zip(keys, streams)])
    pair_count = np.bincount(where, weights=weight_of, minlength=len(uniq))
    uni, row, N = np.zeros(V), np.zeros(V), 0.0
    for ids, w in streams:
        np.add.at(uni, ids, w)
        N += w * len(ids)
        np.add.at(row, ids[:-1], w)
    pairs = dict(zip(uniq.tolist(), pair_count.tolist()))

    def p(a, b, lam, leave):
        p1 = (uni[b] - leave + 1) / (N - leave + V)
        rest = row[a] - leave
        return p1 if rest <= 1e-9 else lam * max(0.0, pairs.get(a * V + b, 0.0) - leave) / rest + (1 - lam) * p1

    # Leave-one-out probabilities of every training pair, as arrays: the lambda search is then 19 sums.
    weights, p1s, p2s, has_row = [], [], [], []
    start = 0
    for ids, w in streams:
        a, b = np.array(ids[:-1]), np.array(ids[1:])
        pair = pair_count[where[start:start + len(a)]]
        start += len(a)
        rest = row[a] - w
        weights.append(np.full(len(a), w))
        p1s.append((uni[b] - w + 1) / (N - w + V))
        has_row.append(rest > 1e-9)
        p2s.append(np.where(rest > 1e-9, np.maximum(0.0, pair - w) / np.where(rest > 1e-9, rest, 1), 0.0))
    weights, p1s, p2s, has_row = map(np.concatenate, (weights, p1s, p2s, has_row))
    best, lam = -math.inf, 0
    for k in range(1, 20):
        mix = np.where(has_row, 0.05 * k * p2s + (1 - 0.05 * k) * p1s, p1s)
        ll = float(np.sum(weights * np.log(mix)))
        if ll > best:
            best, lam = ll, 0.05 * k
    targets = [(poem[i - 1], poem[i]) for poem in poems for i in range(1, len(poem))]
    unigram = -sum(math.log((uni[b] + 1) / (N + V)) for _, b in targets) / len(targets)
    bigram = -sum(math.log(p(a, b, lam, 0)) for a, b in targets) / len(targets)
    return unigram, bigram, lam


def score(m, poems, punct_ids):
    """The held-out loss and punctuation accuracy, windows as score_poems reads them."""
    T = m['T']
    total, n, punct, hits = 0.0, 0, 0, 0
    for poem in poems:
        counted, s = 0, 0
        while counted < len(poem) - 1:
            end = min(s + T, len(poem) - 1)
            if end > counted:
                logits, _ = forward(m, poem[s:end])
                logp = logits - logits.max(-1, keepdims=True)
                logp -= np.log(np.exp(logp).sum(-1, keepdims=True))
                for i in range(s, end):
                    if i + 1 <= counted:
                        continue
                    target = poem[i + 1]
                    total -= logp[i - s, target]
                    n += 1
                    if target in punct_ids:
                        punct += 1
                        hits += int(np.argmax(logp[i - s]) in punct_ids)
                counted = end
            s += max(1, T // 2)
    return total / n, n, hits / punct


def run(cli, *args, **kw):
    return subprocess.run([cli, *args], capture_output=True, text=True, timeout=kw.get('timeout', 300))


def main():
    checks = Checks('cli_poem')
    cli, model_path = sys.argv[1], sys.argv[2]
    checks.check(os.path.exists(model_path), f'the build made the model ({model_path})')
    m = read_model(model_path, checks)
    r = run(cli, 'poem', 'eval', '--model', model_path, '--json')
    checks.check(r.returncode == 0, 'poem eval --json runs', r.stderr)
    ev = json.loads(r.stdout)

    tang = entries(f'{CORPUS}/tang300')
    checks.check(len(tang) == 313, f'tang300 has 313 poems ({len(tang)})')
    info = json.loads(m['info'])
    min_count = info.get('min_count', 1)
    if info.get('tang'):
        # The Quan Tang Shi's split (cli_tang_corpus checks it from outside); all of tang300
        # held out, each poem read in its first context.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'train.txt')
            r = run(cli, 'poem', 'corpus', '--tang', 'default', '--train-out', path)
            checks.check(r.returncode == 0, 'poem corpus --train-out writes the training poems', r.stderr)
            train_poems = [p for p in open(path, encoding='utf-8').read().split('\n%\n') if p.strip()]
        held = tang
    else:
        held = [p for i, p in enumerate(tang) if i % 10 == 0]
        train_poems = [p for i, p in enumerate(tang) if i % 10 != 0] + entries(f'{CORPUS}/song100')
    modern = entries(f'{CORPUS}/chinese') if info.get('modern') else []
    counts = {}
    for t in train_poems + modern:
        for ch in t:
            if ch != '\n':
                counts[ch] = counts.get(ch, 0) + 1
    vocab = ['<unk>', '<poem>', '\n', '<text>'] + sorted(ch for ch, n in counts.items() if n >= min_count)
    checks.check(vocab == m['vocab'], f'the model\'s vocabulary is the training characters seen at least {min_count} '
                 f'times ({len(vocab)}) and the specials')
    ids = {ch: i for i, ch in enumerate(vocab)}
    poem_ids = [i for t in train_poems for i in encode_poem(ids, t)]
    modern_ids = [i for t in modern for i in encode_poem(ids, t, 3)]
    poems = [encode_poem(ids, p) for p in held]
    if info.get('tang'):
        poems = [p[:m['T']] for p in poems]

    unigram, bigram, lam = baselines(poem_ids, modern_ids, info.get('modern_share', 0.0) * info.get('modern_until', 1.0), poems, len(vocab))
    print(f'  numpy: unigram {unigram:.4f}, bigram {bigram:.4f} (lambda {lam:.2f}); '
          f'eval: {ev["unigram"]:.4f}, {ev["bigram"]:.4f} ({ev["bigram_lambda"]:.2f})')
    checks.check(abs(ev['unigram'] - unigram) < 1e-5 and abs(ev['bigram'] - bigram) < 1e-5 and
          abs(ev['bigram_lambda'] - lam) < 1e-6, 'the baselines equal numpy\'s on the same split')
    loss, n, accuracy = score(m, poems, {ids[c] for c in PUNCTUATION if c in ids})
    print(f'  numpy: held-out loss {loss:.4f} over {n} characters, punctuation top-1 {accuracy:.4f}; '
          f'eval: {ev["loss"]:.4f} over {ev["predicted"]}, {ev["punctuation_accuracy"]:.4f}')
    checks.check(ev['predicted'] == n and abs(ev['loss'] - loss) < 1e-4, 'the held-out loss equals numpy\'s forward pass')
    # eval prints the share as a float (7 digits): compare the hits it stands for.
    targets = ev['punctuation_targets']
    checks.check(round(ev['punctuation_accuracy'] * targets) == round(accuracy * targets) and
          abs(ev['punctuation_accuracy'] - accuracy) < 1e-6, 'the punctuation accuracy equals numpy\'s')

    # The goals: eval's flags must follow from its numbers; which are met is
    # measured and stated in docs/poem-model.md, and printed here, not failed,
    # so the suite stays a check of what the code does.
    goals = ev['goals']
    detected = {h['strongest'] for h in ev['heads'] if h['strongest']}
    if info.get('tang'):
        checks.check(goals['protocol'] == 'tang' and goals['loss'] == (ev['loss'] <= ev['bigram'] - 0.7) and
                     goals['lines'] == (ev['sample_lines_5_or_7'] >= 0.97) and
                     goals['couplets'] == (ev['sample_couplets_equal'] >= 0.97) and
                     goals['heads'] == (len(detected) >= 4 and
                                        bool({'couplet', 'couplet, one ahead'} & detected)),
                     'eval\'s goal flags follow from its numbers')
        checks.check(len(detected) >= 2, f'at least two heads show different patterns ({sorted(detected)})')
        print(f'  [{"met" if goals["loss"] else "NOT met"}] goal: loss {ev["loss"]:.3f} <= bigram {ev["bigram"]:.3f} - 0.7')
        print(f'  [{"met" if goals["lines"] else "NOT met"}] goal: {ev["sample_lines_5_or_7"]:.3f} of sample lines have 5 '
              'or 7 characters (>= 0.97)')
        print(f'  [{"met" if goals["couplets"] else "NOT met"}] goal: {ev["sample_couplets_equal"]:.3f} of sample couplets '
              'have equal halves (>= 0.97)')
        print(f'  [{"met" if goals["heads"] else "NOT met"}] goal: patterns detected {sorted(detected)} (>= 4, a couplet)')
    else:
        checks.check(ev['punctuation_accuracy'] >= 0.8 and goals['punctuation'],
              f'goal: punctuation top-1 {ev["punctuation_accuracy"]:.3f} >= 0.8')
        patterns = {h['pattern'] for h in ev['heads']}
        boundary = [h for h in ev['heads'] if h['punctuation_weight'] >= 3 * h['punctuation_share']]
        checks.check(goals['loss'] == (ev['loss'] <= ev['bigram'] - 0.3) and goals['lines'] == (ev['sample_lines_5_or_7'] >= 0.7)
              and goals['heads'] == (len(patterns) >= 2 and bool(boundary)), 'eval\'s goal flags follow from its numbers')
    checks.check(ev['loss'] < ev['bigram'] < ev['unigram'], 'the model beats the bigram, the bigram the unigram')
    for h in ev['heads']:
        print(f'  layer {h["layer"]} head {h["head"]}: {h["summary"]}')

    # Sampling is deterministic for a seed.
    a = run(cli, 'poem', 'sample', '--model', model_path, '--prompt', '春', '--length', '24', '--seed', '3')
    b = run(cli, 'poem', 'sample', '--model', model_path, '--prompt', '春', '--length', '24', '--seed', '3')
    checks.check(a.returncode == 0 and a.stdout == b.stdout and a.stdout.startswith('春'), 'poem sample: the same seed, the '
          'same poem', a.stdout.strip())

    # Bad input: each a clear message and exit code 2.
    data = open(model_path, 'rb').read()
    with tempfile.TemporaryDirectory() as tmp:
        def damaged(name, content, needle):
            path = os.path.join(tmp, name)
            open(path, 'wb').write(content)
            r = run(cli, 'poem', 'attend', '--model', path, '--text', '床前明月光')
            checks.check(r.returncode == 2 and needle in r.stderr, f'a {name} model file: "{needle}"', r.stderr.strip())
        damaged('truncated', data[:len(data) // 2], 'truncated')
        damaged('empty', b'', 'too short')
        flipped = bytearray(data)
        flipped[len(data) // 2] ^= 1
        damaged('corrupt', bytes(flipped), 'bad checksum')
        newer = bytearray(data)
        newer[8] = 9
        damaged('newer', bytes(newer), 'version 9')
        damaged('foreign', b'PK\x03\x04' + data[4:], 'not a poem model')
    r = run(cli, 'poem', 'attend', '--model', '/nonexistent/model.bin', '--text', '月')
    checks.check(r.returncode == 2 and '/nonexistent/model.bin' in r.stderr, 'a missing model file is named', r.stderr.strip())
    r = run(cli, 'poem', 'attend', '--model', model_path, '--text', '')
    checks.check(r.returncode == 2 and 'empty' in r.stderr, 'empty text is a clear error', r.stderr.strip())
    r = run(cli, 'poem', 'fly')
    checks.check(r.returncode == 2 and 'unknown subcommand' in r.stderr, 'an unknown subcommand', r.stderr.strip())
    r = run(cli, 'poem', 'train', '--steps', '5')
    checks.check(r.returncode == 2 and '--out' in r.stderr, 'train without --out says so', r.stderr.strip())
    r = run(cli, 'poem', 'train', '--heads', '3', '--d-model', '64', '--out', '/dev/null')
    checks.check(r.returncode == 2 and 'multiple of heads' in r.stderr, 'heads that do not divide d_model', r.stderr.strip())
    r = run(cli, 'poem', 'train', '--steps', '2', '--corpus', '/nonexistent', '--out', '/dev/null')
    checks.check(r.returncode == 2 and 'fortunes-zh' in r.stderr, 'a missing corpus names its package', r.stderr.strip())
    checks.exit()


if __name__ == '__main__':
    main()
