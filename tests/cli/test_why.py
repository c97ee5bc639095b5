"""attention_cli why: the recurrence and Q/K/V experiments headless. The
attention weights it prints are checked against their definition (causal,
rows summing to 1), the models' keys and claims on short runs, determinism
for a seed, --timing's rows, and bad input (one line, exit 2).
"""
import sys

import numpy as np

from cli_common import Checks, run_cli, run_json

cli = sys.argv[1]
c = Checks("cli_why")
# Short runs (the defaults are 600 steps).
STEPS = "150"

# ---- recurrence: copy the symbol 8 back ------------------------------------------------
j = run_json(cli, "why", "recurrence", "--distance", "8", "--steps", STEPS, "--json")
c.check(j["experiment"] == "recurrence" and j["distance"] == 8 and j["steps"] == int(STEPS) and j["seed"] == 1
        and j["conv_layers"] == 4, "recurrence: the settings are echoed")
c.check(all(k in j and 0 <= j[k]["accuracy"] <= 1 for k in ("rnn", "gru", "attention", "cnn")),
        "recurrence: rnn, gru, attention and cnn, each with its accuracy", str(list(j)))
cnn = j["cnn"]["gradient"]
c.check(all(v == 0 for v in cnn[:len(cnn) - 1 - 8]) and cnn[len(cnn) - 1 - 8] > 0,
        "cnn (4 layers of kernel 3): a gradient reaches the 8 positions before the query and nothing further")
two = run_json(cli, "why", "recurrence", "--distance", "8", "--layers", "2", "--steps", "3", "--json")
g2 = two["cnn"]["gradient"]
c.check(two["conv_layers"] == 2 and all(v == 0 for v in g2[:len(g2) - 1 - 4]) and g2[len(g2) - 1 - 4] > 0,
        "--layers 2: the convolution reaches 4 back")
att = np.array(j["attention"]["attention"])
T = int(round(len(att) ** 0.5))
att = att.reshape(T, T)
c.check(T == 65 and np.allclose(att.sum(axis=1), 1, atol=1e-5) and np.all(np.triu(att, 1) == 0),
        "the attention weights are causal and each row sums to 1", f"T {T}")
c.check(j["attention"]["accuracy"] > 0.9 and j["rnn"]["accuracy"] < j["attention"]["accuracy"],
        "attention names the symbol 8 back; the tanh RNN does worse",
        f"attention {j['attention']['accuracy']}, rnn {j['rnn']['accuracy']}")
c.check(int(np.argmax(att[T - 1])) == T - 1 - 8, "the query looks at the answer, 8 positions back",
        str(int(np.argmax(att[T - 1]))))
g = j["rnn"]["gradient"]
c.check(len(g) == T and abs(j["rnn"]["gradient_first_over_last"] - g[0] / g[-1]) <= 1e-9 * max(1.0, g[0] / g[-1]),
        "the gradient profile has a value per position; the ratio is first over last")

again = run_cli(cli, "why", "recurrence", "--distance", "8", "--steps", "20", "--json")
once = run_cli(cli, "why", "recurrence", "--distance", "8", "--steps", "20", "--json")
c.check(again.returncode == 0 and again.stdout == once.stdout, "deterministic for a seed")
other = run_cli(cli, "why", "recurrence", "--distance", "8", "--steps", "20", "--seed", "2", "--json")
c.check(other.returncode == 0 and other.stdout != once.stdout, "another seed trains another run")
mix = run_json(cli, "why", "recurrence", "--distance", "mix", "--steps", "5", "--json")
c.check(mix["distance"] == "mix" and len(mix["attention"]["by_distance"]) == 7,
        "--distance mix: accuracy at each of 1, 2, 4, ..., 64")

timing = run_json(cli, "why", "recurrence", "--steps", "0", "--timing", "--json")
rows = timing.get("forward", [])
c.check(sorted({(r["layer"], r["n"]) for r in rows}) ==
        sorted((layer, n) for layer in ("rnn", "gru", "attention", "cnn") for n in (16, 64, 256, 1024)),
        "--timing: a forward pass of each layer at n = 16, 64, 256 and 1024")
c.check(all(r["ms"] > 0 and r["gflops"] > 0 and
            r["dependent_steps"] == (1 if r["layer"] in ("attention", "cnn") else r["n"]) for r in rows),
        "... each with its time, GFLOP/s and dependent steps (n for a recurrence, 1 for attention or a convolution)")

# ---- Q/K/V -------------------------------------------------------------------------------
q = run_json(cli, "why", "qkv", "--steps", STEPS, "--json")
c.check(all(t in q and all(v in q[t] and 0 <= q[t][v]["accuracy"] <= 1 for v in ("none", "tied", "separate"))
            for t in ("previous", "lookup")),
        "qkv: previous and lookup, each with none, tied and separate and their accuracy")
c.check(q["previous"]["tied"]["asymmetry"] == 0 and q["previous"]["separate"]["asymmetry"] > 0,
        "W_Q = W_K: the score matrix is exactly symmetric; separate projections' is not")
c.check(q["previous"]["separate"]["accuracy"] > 0.9 and q["previous"]["tied"]["accuracy"] < 0.6 and
        q["previous"]["none"]["accuracy"] < 0.6,
        "previous symbol: separate projections learn it; tied and none do not",
        str({v: q["previous"][v]["accuracy"] for v in ("none", "tied", "separate")}))
only = run_json(cli, "why", "qkv", "--task", "previous", "--steps", "3", "--json")
c.check("previous" in only and "lookup" not in only, "--task previous runs only that task")

# ---- text and bad input ------------------------------------------------------------------
text = run_cli(cli, "why", "qkv", "--task", "lookup", "--steps", "3")
c.check(text.returncode == 0 and b"separate" in text.stdout and b"tied" in text.stdout, "text mode")
for args, want in ((["recurrence", "--distance", "0"], "--distance"), (["recurrence", "--distance", "65"], "--distance"),
                   (["recurrence", "--distance", "far"], "mix"), (["recurrence", "--lr", "nan"], "--lr"),
                   (["recurrence", "--layers", "0"], "--layers"), (["recurrence", "--layers", "17"], "--layers"),
                   (["recurrence", "--lr", "0"], "--lr"), (["qkv", "--task", "sort"], "previous or lookup"),
                   (["qkv", "--steps", "-1"], "--steps"), (["attend"], "unknown experiment"), ([], "usage")):
    p = run_cli(cli, "why", *args)
    err = p.stderr.decode()
    c.check(p.returncode == 2 and want in err and "Traceback" not in err and "internal" not in err,
            f"why {' '.join(args) or '(nothing)'}: exit 2, says {want!r}", f"{p.returncode} {err.strip()[:120]}")
c.exit()
