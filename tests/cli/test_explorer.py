"""compute() for explorer configs (text and experiments) against numpy.

Every input is re-derived independently (explorer_reference.py: the seeded
embeddings, the projection modes, the chapter's experiments), then attention,
masks, temperature and the statistics are recomputed in float64 and compared
with `attention_cli attend`: projections random/identity/chapter, positions,
temperature, scale, causal/padding/{"pad": k}/custom masks with a fully
masked row, both experiments, the defaults, and the size limit.
"""
import json
import sys

import numpy as np

import explorer_reference as ref
from cli_common import Checks, attend, run_cli, run_json, shape_of

cli = sys.argv[1]
c = Checks("cli_explorer")
RESULT_KEYS = {"tokens", "scores", "scaled_scores", "weights", "output", "average", "stats",
               "average_stats", "key_valid", "fully_masked", "top_keys"}
STAT_KEYS = ("min", "max", "mean", "mean_entropy")


def compare(name, r, expected, tokens, key_valid=None, tol=1e-5):
    """All of compute()'s answer against the numpy twin. tol is for weights; scores get 10x."""
    c.check(set(r) == RESULT_KEYS, f"{name}: result has exactly the documented keys", str(sorted(r)))
    c.check(r["tokens"] == tokens, f"{name}: tokens", f"{r['tokens']} != {tokens}")
    c.check(r["key_valid"] == (key_valid if key_valid is not None else [True] * len(tokens)),
            f"{name}: key_valid", str(r["key_valid"]))
    c.check(r["fully_masked"] == expected["fully_masked"], f"{name}: fully_masked == {expected['fully_masked']}",
            str(r["fully_masked"]))
    scale = max(1.0, float(np.max(np.abs(expected["scores"]))))
    c.close(f"{name}: scores == Q_h K_h^T", r["scores"], expected["scores"], 10 * tol * scale)
    c.close(f"{name}: scaled_scores == scores x scale / T", r["scaled_scores"], expected["scaled_scores"],
            10 * tol * max(1.0, float(np.max(np.abs(expected["scaled_scores"])))))
    c.close(f"{name}: weights == masked softmax", r["weights"], expected["weights"], tol)
    c.close(f"{name}: average == head mean", r["average"], expected["average"], tol)
    c.close(f"{name}: output == concat(weights V) W_o", r["output"], expected["output"],
            10 * tol * max(1.0, float(np.max(np.abs(expected["output"])))))
    c.check([s["head"] for s in r["stats"]] == list(range(len(expected["stats"]))), f"{name}: stats has one entry per head")
    c.close(f"{name}: stats min/max/mean/mean_entropy", [[s[k] for k in STAT_KEYS] for s in r["stats"]],
            [[s[k] for k in STAT_KEYS] for s in expected["stats"]], 10 * tol)
    c.close(f"{name}: average_stats", [r["average_stats"][k] for k in STAT_KEYS],
            [expected["average_stats"][k] for k in STAT_KEYS], 10 * tol)
    avg = np.asarray(expected["average"])
    # Weights tied to ~1 ulp may be ordered either way: compare the weights the keys point at.
    same_top = all(len(got) == len(want) and np.allclose(avg[q, got], avg[q, want], atol=1e-6)
                   for q, (got, want) in enumerate(zip(r["top_keys"], expected["top_keys"])))
    c.check(len(r["top_keys"]) == len(tokens) and same_top, f"{name}: top_keys", str(r["top_keys"])[:200])


def text_case(name, config, pads=0, allowed=None, tol=1e-5):
    """Runs a text config and its numpy twin; the text must be plain space-separated words."""
    full = dict({"d_model": 32, "heads": 4, "seed": 1, "projection": "random", "positions": False,
                 "temperature": 1.0, "scale": "sqrt"}, **config)
    tokens = config["text"].split() + [ref.PAD] * pads
    X = ref.embed(tokens, full["d_model"], full["seed"], full["positions"])
    W = ref.projections(full["projection"], full["d_model"], full["heads"], full["seed"])
    expected = ref.attention(X, W, full["heads"], full["scale"], full["temperature"], allowed)
    r = attend(cli, config)
    compare(name, r, expected, tokens, [t != ref.PAD for t in tokens], tol)
    return r, expected


sentence = "the cat sat on the mat because it was tired"
n = len(sentence.split())

# ---- projections and positions ---------------------------------------------------
r, _ = text_case("random 16x4 seed 3", {"text": sentence, "d_model": 16, "heads": 4, "seed": 3})
c.close("random: the two 'the's have identical score columns", np.asarray(r["scores"])[:, :, 0],
        np.asarray(r["scores"])[:, :, 4], 0.0)
text_case("defaults (d_model 32, heads 4, seed 1, random)", {"text": sentence})
r, _ = text_case("identity 8x2", {"text": sentence, "d_model": 8, "heads": 2, "projection": "identity"})
w = np.asarray(r["weights"])
c.check(bool(np.all(w[:, :, 0] == w[:, :, 4])), "identity: every query weighs the two 'the's equally")
text_case("chapter 16x2", {"text": sentence, "d_model": 16, "heads": 2, "projection": "chapter"})
text_case("chapter 32x4 seed 9", {"text": sentence, "projection": "chapter", "seed": 9})
text_case("positions, random 16x2", {"text": sentence, "d_model": 16, "heads": 2, "positions": True})
r, _ = text_case("positions, identity 8x1", {"text": "cat cat cat", "d_model": 8, "heads": 1,
                                             "projection": "identity", "positions": True})
c.check(r["weights"][0][0] != r["weights"][0][1], "positions: repeated words no longer look alike")
c.check(attend(cli, {"text": sentence, "seed": 2})["weights"] != attend(cli, {"text": sentence})["weights"],
        "a different seed gives different weights")

# ---- temperature and scale ------------------------------------------------------------
base = {"text": sentence, "d_model": 16, "heads": 2, "seed": 5}
plain, _ = text_case("temperature 1", dict(base, temperature=1))
for T in (0.1, 0.5, 3.0):
    r, _ = text_case(f"temperature {T}", dict(base, temperature=T))
    c.close(f"temperature {T}: scaled_scores == scores / sqrt(8) / T", r["scaled_scores"],
            np.asarray(r["scores"]) / np.sqrt(8.0) / T, 1e-4)
    c.close(f"temperature {T}: scores do not depend on T", r["scores"], plain["scores"], 0.0)
flat = attend(cli, dict(base, temperature=1e3))  # the largest T allowed
c.close("temperature 1e3: weights are near uniform", flat["weights"], np.full((2, n, n), 1.0 / n), 1e-3)
c.close("temperature 1e3: mean entropy near log(n)", [s["mean_entropy"] for s in flat["stats"]],
        [np.log(n)] * 2, 1e-3)
sharp = attend(cli, dict(base, temperature=1e-3))
# The two "the"s share a key vector: a one-hot row is split between them.
peaks = np.asarray(sharp["weights"]).max(axis=2)
c.check(bool(np.all(peaks > 0.49)), "temperature 1e-3: every row puts (nearly) all weight on its top key(s)",
        str(peaks.min()))
text_case("scale none, temperature 4", dict(base, scale="none", temperature=4))
text_case("scale 0.3, temperature 0.7", dict(base, scale=0.3, temperature=0.7))

# ---- masks ------------------------------------------------------------------------------
lower = np.tril(np.ones((n, n), dtype=bool))
r, _ = text_case("causal", dict(base, mask="causal"), allowed=lower)
c.check(bool(np.all(np.asarray(r["weights"])[:, ~lower] == 0.0)), "causal: the future has weight exactly 0")

for k in (1, 3):
    m = n + k
    valid = np.array([True] * n + [False] * k)
    r, _ = text_case(f"{{pad: {k}}}", dict(base, mask={"pad": k}), pads=k, allowed=np.tile(valid, (m, 1)))
    pw = np.asarray(r["weights"])
    c.check(bool(np.all(pw[:, :, n:] == 0.0)), f"{{pad: {k}}}: pad columns are exactly 0")
    c.close(f"{{pad: {k}}}: the real tokens' weights equal the unpadded sentence's", pw[:, :n, :n],
            plain["weights"], 1e-6)

typed = "the cat [PAD] sat [PAD]"
typed_valid = np.array([t != ref.PAD for t in typed.split()])
text_case("\"padding\" masks typed [PAD] tokens", {"text": typed, "d_model": 8, "heads": 2, "mask": "padding"},
          allowed=np.tile(typed_valid, (5, 1)))
c.check(attend(cli, {"text": typed, "mask": {"pad": 0}}) == attend(cli, {"text": typed, "mask": "padding"}),
        "{pad: 0} is \"padding\"")

rng = np.random.default_rng(7)
custom = rng.random((n, n)) < 0.5
custom[np.arange(n), np.arange(n)] = True
custom[3, :] = False  # query 3 may look at nothing
r, _ = text_case("custom mask with a fully masked row", dict(base, mask=custom.astype(int).tolist()), allowed=custom)
cw = np.asarray(r["weights"])
c.check(bool(np.all(cw[:, ~custom] == 0.0)), "custom: masked cells are exactly 0")
c.check(r["fully_masked"] == [3] and bool(np.all(cw[:, 3, :] == 0.0)) and r["top_keys"][3] == [],
        "custom: the fully masked row is reported, all 0 (never NaN) and has no top keys")
c.check(attend(cli, dict(base, mask=custom.tolist())) == r, "custom: true/false gives the same as 1/0")

# ---- the experiments ------------------------------------------------------------------------
fig = run_json(cli, "fig41", "--json")
X41 = ref.figure41_input()
W41 = ref.projections("chapter", 32, 4, 0)
tokens8 = [f"t{i}" for i in range(8)]
r = attend(cli, {"experiment": "fig41"})
compare("experiment fig41", r, ref.attention(X41, W41, 4), tokens8, tol=1e-5)
c.check(r["weights"] == fig["heads"] and r["average"] == fig["average"] and r["top_keys"] == fig["top_keys"],
        "experiment fig41 == attention_cli fig41 --json")
c.check([{k: s[k] for k in ("head", "min", "max", "mean")} for s in r["stats"]] == fig["stats"],
        "experiment fig41 stats == fig41 --json stats")
compare("experiment fig41, causal, T 2", attend(cli, {"experiment": "fig41", "mask": "causal", "temperature": 2}),
        ref.attention(X41, W41, 4, temperature=2.0, allowed=np.tril(np.ones((8, 8), dtype=bool))), tokens8)

Xc, Wc = ref.causal_companion()
companion = run_json(cli, "causal", "--json")
lower8 = np.tril(np.ones((8, 8), dtype=bool))
bi = attend(cli, {"experiment": "causal"})
compare("experiment causal, no mask", bi, ref.attention(Xc, Wc, 1), tokens8)
causal = attend(cli, {"experiment": "causal", "mask": "causal"})
compare("experiment causal, causal mask", causal, ref.attention(Xc, Wc, 1, allowed=lower8), tokens8)
c.check(bi["weights"][0] == companion["bidirectional"] and causal["weights"][0] == companion["causal"]
        and bi["scores"][0] == companion["scores"], "experiment causal == attention_cli causal --json")
c.close("experiment causal: per-position output change == output_diff",
        np.linalg.norm(np.asarray(bi["output"]) - np.asarray(causal["output"]), axis=1), companion["output_diff"], 1e-5)

# ---- sizes: the UI's largest view (512 tokens x 16 heads) is reproducible ------------------
big = " ".join(f"w{i}" for i in range(512))
p = run_cli(cli, "attend", "--config", "-", stdin=json.dumps({"text": big, "d_model": 64, "heads": 16}).encode(),
            timeout=240)
ok = p.returncode == 0
c.check(ok, "512 tokens x 16 heads: accepted", p.stderr.decode(errors="replace")[:200])
if ok:
    r = json.loads(p.stdout)
    c.check(shape_of(r["weights"]) == (16, 512, 512) and shape_of(r["output"]) == (512, 64),
            "512 x 16: weights [16][512][512], output [512][64]")
    c.close("512 x 16: every row sums to 1", np.asarray(r["weights"][15]).sum(axis=1), np.ones(512), 1e-4)
    del r
p = run_cli(cli, "attend", "--config", "-", stdin=json.dumps({"text": big + " w512", "d_model": 64, "heads": 16}).encode())
c.check(p.returncode == 2 and b"heads:" in p.stderr and b"4194304" in p.stderr,
        "513 tokens x 16 heads: over the 2^22 weights limit, naming heads", p.stderr.decode(errors="replace")[:200])
c.exit()
