"""attention_cli config --config FILE: the canonical explorer config.

print_explorer_config(parse_explorer_config(x)) must be a fixed point: printing
the canonical form and parsing it again gives the same text, byte for byte.
The canonical form has every field (defaults filled in, from the core's
ExplorerConfig), and running it gives the same answer as the original config.
"""
import json
import sys

from cli_common import Checks, attend, run_cli

cli = sys.argv[1]
c = Checks("cli_config")

# Which fields each kind of config prints, in order: the field table's rows
# (`attention_cli fields`, docs/reference.md's), by the configs that take them. A new
# field joins by itself; the fields the chapter's configs always had must be there.
TABLE = [[cell.strip() for cell in line.split("|")[1:5]]
         for line in run_cli(cli, "fields").stdout.decode().splitlines() if line.startswith("| `")]
FIELDS = [(name.strip("`"), configs) for name, configs, _, _ in TABLE]
DEFAULTS = {name.strip("`"): json.loads(default.strip("`")) for name, _, _, default in TABLE if default != "(required)"}
TEXT_KEYS = [f for f, configs in FIELDS if configs in ("text (the input)", "text", "text, experiment")]
TRAINED_KEYS = [f for f, configs in FIELDS if configs != "experiment (the input)"]
EXPERIMENT_KEYS = [f for f, configs in FIELDS if configs in ("experiment (the input)", "text, experiment")]
c.check({"text", "d_model", "heads", "seed", "projection", "positions", "temperature", "scale", "mask"} <= set(TEXT_KEYS)
        and {"trained_steps", "trained_scaled", "trained_lr"} <= set(TRAINED_KEYS) - set(TEXT_KEYS)
        and {"experiment", "temperature", "scale", "mask"} <= set(EXPERIMENT_KEYS),
        "the field table names each config's fields", str(FIELDS))


def canonical(config):
    """Returns (exit code, stdout text, stderr text) of `config` on a config (dict or raw text)."""
    text = config if isinstance(config, str) else json.dumps(config, ensure_ascii=False)
    p = run_cli(cli, "config", "--config", "-", stdin=text.encode())
    return p.returncode, p.stdout.decode(), p.stderr.decode(errors="replace")


# (config, runs: whether attend accepts it too)
CONFIGS = [
    ({"text": "The cat sat on the mat"}, True),
    ({"text": "The cat sat on the mat", "d_model": 16, "heads": 2, "seed": 7, "projection": "identity",
      "positions": True, "temperature": 0.1, "scale": "none", "mask": "causal"}, True),
    ({"text": "自注意力很有用。", "positions": True, "temperature": 0.7}, True),
    ({"text": "a b c", "mask": {"pad": 3}}, True),
    ({"text": "a b c", "mask": {"pad": 0}}, True),
    ({"text": "a [PAD] c", "mask": "padding"}, True),
    ({"text": "a b c", "mask": "none", "scale": 0.3}, True),
    ({"text": "a b c", "mask": [[1, 0, 0], [True, True, False], [0, 0, 0]], "d_model": 8}, True),
    ({"text": "a b c", "projection": "chapter", "d_model": 32.0, "heads": 4.0}, True),
    ({"text": "quotes \" and \\ and \n newline", "seed": 18446744073709551615}, True),
    ({"text": "tiny temperature", "temperature": 1e-40}, False),  # parses; attend rejects it (T < 0.001)
    ({"text": "a b", "projection": "trained", "heads": 1, "trained_steps": 10, "trained_lr": 0.01}, True),
    ({"text": "a b", "projection": "trained", "trained_steps": 4000, "d_model": 64}, False),  # too slow to retrain
    ({"text": "a b", "heads": 5}, False),               # parses; heads must divide d_model
    ({"experiment": "fig41"}, True),
    ({"experiment": "causal", "mask": "causal", "temperature": 2.5, "scale": "none"}, True),
    ({"experiment": "fig41", "mask": [[1] * 8] * 8, "temperature": 3}, True),
]

for config, runs in CONFIGS:
    name = json.dumps(config, ensure_ascii=False)[:70]
    rc, out1, err = canonical(config)
    if not c.check(rc == 0 and out1.endswith("\n") and out1.count("\n") == 1, f"{name}: config prints one line",
                   f"rc={rc} {err[:200]}"):
        continue
    printed = json.loads(out1)
    keys = (EXPERIMENT_KEYS if "experiment" in config
            else TRAINED_KEYS if config.get("projection") == "trained" else TEXT_KEYS)
    c.check(list(printed) == keys, f"{name}: canonical form has every field, in order", str(list(printed)))
    for key, value in config.items():
        if key != "mask":
            c.check(printed[key] == value, f"{name}: {key} is kept", f"{printed[key]!r} != {value!r}")
    rc2, out2, err2 = canonical(out1)
    c.check(rc2 == 0 and out2 == out1, f"{name}: print(parse(print(parse(x)))) == print(parse(x))",
            f"{out1!r} -> {out2!r} {err2[:200]}")
    if runs:
        c.check(attend(cli, config) == attend(cli, printed), f"{name}: the canonical form computes the same answer")
    else:
        a = run_cli(cli, "attend", "--config", "-", stdin=out1.encode())
        c.check(a.returncode == 2, f"{name}: parses, but attend rejects it (exit 2)", a.stderr.decode()[:200])

# Defaults come from the core (ExplorerConfig), not from the API.
# The chapter's own fields by their known values; any other field prints its
# documented default (the table's).
def defaults_hold(printed, known):
    return all(printed.get(k) == v for k, v in known.items()) and all(
        printed[k] == DEFAULTS[k] for k in printed if k not in known)


rc, out, _ = canonical({"text": "x"})
c.check(defaults_hold(json.loads(out), {"text": "x", "d_model": 32, "heads": 4, "seed": 1, "projection": "random",
                                        "positions": False, "temperature": 1.0, "scale": "sqrt", "mask": "none"}),
        "text defaults: d_model 32, heads 4, seed 1, random, no positions, T 1, sqrt, no mask", out)
rc, out, _ = canonical({"experiment": "causal"})
c.check(defaults_hold(json.loads(out), {"experiment": "causal", "temperature": 1.0, "scale": "sqrt", "mask": "none"}),
        "experiment defaults", out)
# Mask spellings that mean the same thing print the same way.
same = {canonical({"text": "a b", "mask": m})[1] for m in ("padding", {"pad": 0})}
c.check(len(same) == 1 and '"mask":"padding"' in same.pop(), "{pad: 0} prints as \"padding\"")
c.check('"mask":{"pad":2}' in canonical({"text": "a b", "mask": {"pad": 2}})[1], "{pad: 2} prints as {\"pad\": 2}")
c.check('"mask":[[1,0],[1,1]]' in canonical({"text": "a b", "mask": [[True, False], [1, 1]]})[1],
        "a custom mask prints as 0/1 rows")
c.check('"temperature":0.1,' in canonical({"text": "a", "temperature": 0.1})[1],
        "temperature 0.1 prints as 0.1 (shortest float32 text)")

# Bad configs: exit 2, one line naming the field (parse errors only: config does not run the maths).
BAD = [
    ("not JSON", "{", "config"),
    ("an array", "[1]", "config"),
    ("no input", '{"mask": "causal"}', "text"),
    ("Q is not an explorer field", '{"Q": [[1]], "text": "a"}', "Q"),
    ("unknown projection", '{"text": "a", "projection": "learned"}', "projection"),
    ("positions as 1", '{"text": "a", "positions": 1}', "positions"),
    ("temperature 0", '{"text": "a", "temperature": 0}', "temperature"),
    ("seed in an experiment", '{"experiment": "fig41", "seed": 3}', "seed"),
    ("text and experiment", '{"experiment": "fig41", "text": "a"}', "text"),
    ("unknown experiment", '{"experiment": "fig42"}', "experiment"),
]
for what, text, field in BAD:
    rc, out, err = canonical(text)
    lines = err.splitlines()
    c.check(rc == 2 and out == "" and len(lines) == 1 and f"{field}:" in lines[0],
            f"config, {what}: exit 2, one line naming {field!r}", f"rc={rc} {err[:200]!r}")
p = run_cli(cli, "config")
c.check(p.returncode == 2 and b"config needs --config" in p.stderr, "config without --config: usage error")
c.exit()
