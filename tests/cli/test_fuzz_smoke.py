"""A small deterministic fuzz pass over `attend` and `config`: mutated configs
must give either a result (exit 0, a JSON object) or a one-line error (exit 2),
never a crash, a signal, a hang or any other exit code. When `config` accepts
one, its canonical form must be a fixed point of `config`.

Not a replacement for a coverage-guided fuzzer; it catches the easy crashes
(type confusion, unchecked sizes) on every test run.
"""
import json
import os
import random
import sys

from cli_common import Checks, run_cli

cli = sys.argv[1]
cases = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("FUZZ_SMOKE_CASES", 300))
c = Checks("cli_fuzz_smoke")
rnd = random.Random(41)

SEEDS = [
    {"Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1, 2], [3, 4]], "mask": "causal", "scale": 0.5},
    {"text": "The cat sat on the mat.", "d_model": 8, "heads": 2, "seed": 1, "mask": {"pad": 2}},
    {"text": "自注意力 is fun", "d_model": 4, "heads": 4, "mask": [[1, 0, 0, 0, 0, 0]] * 6, "scale": "none"},
    {"experiment": "fig41"},
    {"experiment": "causal", "mask": "causal", "temperature": 0.5, "scale": 2.0},
    {"text": "the cat sat", "d_model": 8, "heads": 2, "seed": 4, "projection": "identity", "positions": True,
     "temperature": 2.0, "mask": [[1, 0, 0], [1, 1, 0], [0, 0, 0]]},
    {"text": "a b c d", "d_model": 16, "heads": 2, "projection": "chapter", "mask": "padding"},
]
ODD_VALUES = [None, True, False, 0, -1, 1.5, 1e308, -1e-320, 1e-40, 2**64, -(2**63), "", "none", "causal", "padding",
              "sqrt", [], [[]], [[1]], {}, {"pad": 1}, "\u0000", "x" * 300, [[1, 2], [3]], [[float("1e38")] * 3],
              "random", "identity", "chapter", "trained", "fig41"]


def mutate(value, depth=0):
    """Returns a changed copy: swap a value, drop/add a key, resize a list."""
    if isinstance(value, dict) and value and rnd.random() < 0.8:
        value = dict(value)
        key = rnd.choice(list(value))
        roll = rnd.random()
        if roll < 0.15:
            del value[key]
        elif roll < 0.25:
            value[rnd.choice(["Q", "K", "V", "text", "heads", "d_model", "seed", "mask", "scale", "experiment",
                              "projection", "positions", "temperature", "zz"])] = \
                rnd.choice(ODD_VALUES)
        else:
            value[key] = mutate(value[key], depth + 1)
        return value
    if isinstance(value, list) and value and rnd.random() < 0.7:
        value = list(value)
        roll = rnd.random()
        i = rnd.randrange(len(value))
        if roll < 0.2:
            del value[i]
        elif roll < 0.35:
            value.append(value[i])
        else:
            value[i] = mutate(value[i], depth + 1)
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and rnd.random() < 0.6:
        # A plausible number keeps the config valid more often, so the maths runs too.
        return rnd.choice([rnd.randint(0, 64), round(rnd.uniform(-3, 3), 3)])
    return rnd.choice(ODD_VALUES)


def text_mutation(text):
    """Byte-level damage: truncate, duplicate or corrupt one character."""
    i = rnd.randrange(len(text) + 1)
    roll = rnd.random()
    if roll < 0.4:
        return text[:i]
    if roll < 0.7:
        return text[:i] + rnd.choice(['"', "[", "]", "{", "}", ",", ":", "1e999", "-", "\\", "\xff"]) + text[i:]
    return text[:i] + text[i:][1:]


bad = 0
for n in range(cases):
    config = rnd.choice(SEEDS)
    for _ in range(rnd.choice([1, 1, 1, 2, 3])):
        config = mutate(config)
    text = json.dumps(config)
    if rnd.random() < 0.3:
        text = text_mutation(text)
    p = run_cli(cli, "attend", "--config", "-", stdin=text.encode("utf-8", "surrogateescape"), timeout=60)
    lines = p.stderr.decode(errors="replace").splitlines()
    ok = (p.returncode == 0 and p.stdout.startswith(b"{")) or (p.returncode == 2 and len(lines) == 1)
    if not ok:
        bad += 1
        c.check(False, f"case {n}: exit 0 or a one-line exit 2", f"rc={p.returncode} stderr={lines[:3]} config={text[:300]}")
    # The same text through `config` (parse + print only).
    p = run_cli(cli, "config", "--config", "-", stdin=text.encode("utf-8", "surrogateescape"), timeout=60)
    lines = p.stderr.decode(errors="replace").splitlines()
    if p.returncode == 0:
        again = run_cli(cli, "config", "--config", "-", stdin=p.stdout, timeout=60)
        ok = again.returncode == 0 and again.stdout == p.stdout
    else:
        ok = p.returncode == 2 and len(lines) == 1
    if not ok:
        bad += 1
        c.check(False, f"case {n}: config gives a fixed point or a one-line exit 2",
                f"rc={p.returncode} stderr={lines[:3]} config={text[:300]}")
c.check(bad == 0, f"{cases} mutated configs: every answer is a result or a one-line error (attend and config)")
c.exit()
