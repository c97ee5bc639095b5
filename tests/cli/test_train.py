"""attention_cli train: JSON shape, determinism, the loss falls, the scaled
model learns, and bad flags exit 2 with one line on stderr.
"""
import json
import sys

from cli_common import Checks, run_cli, run_json

cli = sys.argv[1]
c = Checks("cli_train")

# ---- JSON shape ------------------------------------------------------------------
args = ["train", "--task", "retrieve", "--dk", "32", "--scale", "sqrt", "--steps", "150",
        "--seed", "1", "--json"]
j = run_json(cli, *args)
for key in ("task", "dk", "scale", "steps", "loss", "accuracy", "grad_norm", "final_accuracy"):
    c.check(key in j, f"JSON has {key!r}")
c.check(j["task"] == "retrieve" and j["dk"] == 32 and j["scale"] == "sqrt" and j["steps"] == 150,
        "JSON echoes task, dk, scale, steps", str({k: j.get(k) for k in ("task", "dk", "scale", "steps")}))
for key in ("loss", "accuracy", "grad_norm"):
    c.check(isinstance(j[key], list) and len(j[key]) == 150, f"{key} has one entry per step",
            str(len(j[key])))
c.check(all(0.0 <= a <= 1.0 for a in j["accuracy"]), "accuracies in [0, 1]")
c.check(all(g >= 0.0 for g in j["grad_norm"]), "gradient norms non-negative")

# ---- learning ----------------------------------------------------------------------
first, last = sum(j["loss"][:10]) / 10, sum(j["loss"][-10:]) / 10
c.check(first > 1.5, "initial loss near log(8) = 2.08", f"{first}")
c.check(last < 0.1 * first, "loss falls by more than 10x in 150 steps", f"{first} -> {last}")
c.check(j["final_accuracy"] >= 0.99, "scaled model, d_k 32: held-out accuracy >= 99 %",
        str(j["final_accuracy"]))

# ---- determinism -------------------------------------------------------------------------
p1, p2 = run_cli(cli, *args), run_cli(cli, *args)
c.check(p1.returncode == 0 and p1.stdout == p2.stdout, "two identical runs print identical JSON")
other = run_json(cli, *[a if a != "1" else "2" for a in args])
c.check(other["loss"] != j["loss"], "another seed gives another curve")

# ---- scaled vs unscaled at a large d_k -------------------------------------------------------
big = ["train", "--dk", "256", "--steps", "40", "--seed", "1", "--json"]
scaled = run_json(cli, *big, "--scale", "sqrt")
raw = run_json(cli, *big, "--scale", "none")
c.check(scaled["final_accuracy"] > raw["final_accuracy"] + 0.3,
        "d_k 256: the scaled model is far ahead of the unscaled one after 40 steps",
        f"{scaled['final_accuracy']} vs {raw['final_accuracy']}")

# ---- options -------------------------------------------------------------------------------
h = run_json(cli, "train", "--heads", "4", "--lr", "0.01", "--batch", "8", "--steps", "5", "--json")
c.check(h["heads"] == 4 and abs(h["lr"] - 0.01) < 1e-9 and h["batch"] == 8 and len(h["loss"]) == 5,
        "--heads, --lr, --batch are taken", json.dumps({k: h[k] for k in ("heads", "lr", "batch")}))
defaults = run_json(cli, "train", "--steps", "2", "--json")
c.check(defaults["task"] == "retrieve" and defaults["dk"] == 32 and defaults["scale"] == "sqrt",
        "defaults: retrieve, d_k 32, sqrt")

# ---- text mode -------------------------------------------------------------------------------
p = run_cli(cli, "train", "--steps", "50")
text = p.stdout.decode()
rows = [line for line in text.splitlines() if line.strip() and line.split()[0].isdigit()]
c.check(p.returncode == 0 and 10 <= len(rows) <= 12, "text mode: a table row every ~10 % of steps",
        f"{len(rows)} rows")
c.check("accuracy" in text, "text mode names its columns")

# ---- bad flags --------------------------------------------------------------------------------
BAD = [
    (["--dk", "0"], "--dk"), (["--dk", "abc"], "--dk"), (["--dk", "2000"], "--dk"),
    (["--dk", "32.5"], "--dk"), (["--scale", "log"], "--scale"), (["--steps", "0"], "--steps"),
    (["--steps", "-5"], "--steps"), (["--task", "reverse"], "--task"), (["--heads", "3"], "heads"),
    (["--heads", "0"], "--heads"), (["--lr", "-1"], "--lr"), (["--lr", "nan"], "--lr"),
    (["--lr", "inf"], "--lr"), (["--lr", ""], "--lr"), (["--seed", "-1"], "--seed"),
    (["--bogus"], "--bogus"), (["--dk"], "--dk"), (["--dk", "32", "--dk", "64"], "twice"),
    (["--batch", "0"], "--batch"), (["--config", "x"], "--config"),
]
for extra, needle in BAD:
    p = run_cli(cli, "train", *extra, "--steps", "1") if "--steps" not in extra else run_cli(cli, "train", *extra)
    err = p.stderr.decode(errors="replace")
    lines = err.splitlines()
    c.check(p.returncode == 2 and len(lines) == 1 and needle in lines[0] and p.stdout == b"",
            f"train {' '.join(extra)}: exit 2, one line naming {needle!r}",
            f"rc={p.returncode} stderr={err[:200]!r}")
c.exit()
