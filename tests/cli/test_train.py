"""attention_cli train: JSON shape (api/scaling/train_json.hpp), determinism, the loss
falls, the scaled model learns, and bad flags exit 2 with one line on stderr.
"""
import json
import sys

from cli_common import Checks, run_cli, run_json

cli = sys.argv[1]
c = Checks("cli_train")

# ---- JSON shape (api/scaling/train_json.hpp: the schema the browser's state() shares) ---------
args = ["train", "--task", "retrieve", "--dk", "32", "--scale", "sqrt", "--steps", "150",
        "--seed", "1", "--json"]
p0 = run_cli(cli, *args)
if p0.returncode != 0:
    raise SystemExit(f"FAIL: {' '.join(args)} exited {p0.returncode}: {p0.stderr.decode(errors='replace')}")
j = json.loads(p0.stdout)
for key in ("config", "steps", "first_loss", "loss", "accuracy", "grad_norm", "eval_accuracy", "history"):
    c.check(key in j, f"JSON has {key!r}")
CONFIG_KEYS = {"task", "d_k", "heads", "batch", "learning_rate", "seed", "scaled"}
c.check(set(j["config"]) == CONFIG_KEYS, "config has exactly the TrainConfig fields", str(sorted(j["config"])))
c.check(set(j["history"]) == {"loss", "accuracy", "grad_norm"}, "history has loss, accuracy, grad_norm")
cfg = j["config"]
c.check(cfg["task"] == "retrieve" and cfg["d_k"] == 32 and cfg["scaled"] is True and j["steps"] == 150,
        "JSON echoes task, d_k, scaled, steps", str({**cfg, "steps": j["steps"]}))
hist = j["history"]
for key in ("loss", "accuracy", "grad_norm"):
    c.check(isinstance(hist[key], list) and len(hist[key]) == 150, f"history.{key} has one entry per step",
            str(len(hist[key])))
c.check(all(0.0 <= a <= 1.0 for a in hist["accuracy"]), "accuracies in [0, 1]")
c.check(all(g >= 0.0 for g in hist["grad_norm"]), "gradient norms non-negative")
c.check(j["first_loss"] == hist["loss"][0] and j["loss"] == hist["loss"][-1]
        and j["accuracy"] == hist["accuracy"][-1] and j["grad_norm"] == hist["grad_norm"][-1],
        "first_loss is step 1's loss; loss, accuracy, grad_norm are the last step's")

# ---- learning ----------------------------------------------------------------------
first, last = sum(hist["loss"][:10]) / 10, sum(hist["loss"][-10:]) / 10
c.check(first > 1.5, "initial loss near log(8) = 2.08", f"{first}")
c.check(last < 0.1 * first, "loss falls by more than 10x in 150 steps", f"{first} -> {last}")
c.check(j["eval_accuracy"] >= 0.99, "scaled model, d_k 32: held-out accuracy >= 99 %",
        str(j["eval_accuracy"]))

# ---- determinism -------------------------------------------------------------------------
p1 = run_cli(cli, *args)  # the same run as the first one above
c.check(p1.returncode == 0 and p1.stdout == p0.stdout, "two identical runs print identical JSON")
other = run_json(cli, *[a if a != "1" else "2" for a in args])
c.check(other["history"]["loss"] != hist["loss"], "another seed gives another curve")
c.check(other["config"]["seed"] == 2, "the seed is echoed")

# ---- scaled vs unscaled at a large d_k -------------------------------------------------------
# A d_k 256 step costs ~100 d_k 32 steps; the race needs 40 of them (the unit
# tests run the same race, native and wasm).
big_steps = 40
big = ["train", "--dk", "256", "--steps", str(big_steps), "--seed", "1", "--json"]
scaled = run_json(cli, *big, "--scale", "sqrt")
raw = run_json(cli, *big, "--scale", "none")
c.check(scaled["config"]["scaled"] is True and raw["config"]["scaled"] is False, "--scale sets config.scaled")
c.check(scaled["steps"] == big_steps and raw["steps"] == big_steps and scaled["config"]["d_k"] == 256,
        f"d_k 256: both models train {big_steps} steps")
c.check(scaled["eval_accuracy"] > raw["eval_accuracy"] + 0.3,
        "d_k 256: the scaled model is far ahead of the unscaled one after 40 steps",
        f"{scaled['eval_accuracy']} vs {raw['eval_accuracy']}")

# ---- options -------------------------------------------------------------------------------
h = run_json(cli, "train", "--heads", "4", "--lr", "0.01", "--batch", "8", "--steps", "5", "--json")
hc = h["config"]
c.check(hc["heads"] == 4 and abs(hc["learning_rate"] - 0.01) < 1e-9 and hc["batch"] == 8
        and len(h["history"]["loss"]) == 5 and h["steps"] == 5,
        "--heads, --lr, --batch are taken", json.dumps({k: hc[k] for k in ("heads", "learning_rate", "batch")}))
defaults = run_json(cli, "train", "--steps", "2", "--json")
c.check(defaults["config"] == {"task": "retrieve", "d_k": 32, "heads": 1, "batch": 32, "learning_rate": 0.003,
                               "seed": 1, "scaled": True},
        "defaults: retrieve, d_k 32, 1 head, batch 32, lr 0.003, seed 1, scaled", json.dumps(defaults["config"]))
# 2^53 - 1 is the largest seed (exact in JSON); it comes back digit for digit.
top = run_cli(cli, "train", "--seed", "9007199254740991", "--steps", "1", "--json")
c.check(top.returncode == 0 and b'"seed":9007199254740991' in top.stdout, "seed 2^53 - 1 is echoed exactly")

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
    (["--seed", "9007199254740992"], "--seed"), (["--steps", "100001"], "--steps"),
    (["--heads", "65"], "--heads"), (["--batch", "4097"], "--batch"), (["--lr", "101"], "--lr"),
]
for extra, needle in BAD:
    p = run_cli(cli, "train", *extra, "--steps", "1") if "--steps" not in extra else run_cli(cli, "train", *extra)
    err = p.stderr.decode(errors="replace")
    lines = err.splitlines()
    c.check(p.returncode == 2 and len(lines) == 1 and needle in lines[0] and p.stdout == b"",
            f"train {' '.join(extra)}: exit 2, one line naming {needle!r}",
            f"rc={p.returncode} stderr={err[:200]!r}")
c.exit()
