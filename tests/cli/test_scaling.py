"""attention_cli scaling: one attention row raw vs scaled, entropy and
softmax-Jacobian norm, the float32 naive softmax. Checked against numpy.
"""
import math
import sys

import numpy as np

from cli_common import Checks, run_cli, run_json, softmax_rows

cli = sys.argv[1]
c = Checks("cli_scaling")


def entropy(p):
    p = np.asarray(p, dtype=np.float64)
    p = p[p > 0]
    return float(-np.sum(p * np.log(p)))


def jacobian_norm(p):
    p = np.asarray(p, dtype=np.float64)
    return float(np.linalg.norm(np.diag(p) - np.outer(p, p)))


for dk in (4, 64, 1024):
    # --trials 1: the means are over the same single row that is printed.
    j = run_json(cli, "scaling", "--dk", str(dk), "--keys", "12", "--trials", "1", "--json")
    raw = np.asarray(j["raw_scores"], dtype=np.float64)
    c.check(j["dk"] == dk and j["keys"] == 12 and len(raw) == 12, f"d_k {dk}: shapes")
    c.close(f"d_k {dk}: raw weights = softmax(raw scores)", j["raw_weights"], softmax_rows([raw])[0], 1e-6)
    scaled = softmax_rows([raw / math.sqrt(dk)])[0]
    c.close(f"d_k {dk}: scaled weights = softmax(raw / sqrt(d_k))", j["scaled_weights"], scaled, 1e-6)
    c.close(f"d_k {dk}: entropies", [j["raw_entropy"], j["scaled_entropy"]],
            [entropy(j["raw_weights"]), entropy(j["scaled_weights"])], 1e-5)
    c.close(f"d_k {dk}: Jacobian norms", [j["raw_jacobian_norm"], j["scaled_jacobian_norm"]],
            [jacobian_norm(j["raw_weights"]), jacobian_norm(j["scaled_weights"])], 1e-5)
    c.close(f"d_k {dk}: stable float32 softmax = raw weights", j["stable_softmax"], j["raw_weights"], 1e-6)
    naive = j["naive_softmax"]
    finite = all(v is not None and math.isfinite(v) for v in naive)
    c.check(j["naive_finite"] == finite, f"d_k {dk}: naive_finite matches the values")
    # float32 exp overflows above ~88.72: the naive softmax is finite iff no score is that large.
    c.check(finite == bool(np.max(raw) < 88.72), f"d_k {dk}: overflow iff a score > 88.72")

# Saturation: the raw row's entropy and gradient collapse at large d_k, scaled ones do not.
small = run_json(cli, "scaling", "--dk", "4", "--keys", "16", "--trials", "300", "--json")
large = run_json(cli, "scaling", "--dk", "1024", "--keys", "16", "--trials", "300", "--json")
c.check(large["raw_entropy"] < 0.25 * small["raw_entropy"], "raw entropy collapses from d_k 4 to 1024",
        f"{small['raw_entropy']} -> {large['raw_entropy']}")
c.check(large["raw_jacobian_norm"] < 0.5 * small["raw_jacobian_norm"], "raw Jacobian norm collapses",
        f"{small['raw_jacobian_norm']} -> {large['raw_jacobian_norm']}")
c.check(abs(large["scaled_entropy"] - small["scaled_entropy"]) < 0.1, "scaled entropy stays put (0.1 nats)")
c.check(abs(large["scaled_jacobian_norm"] - small["scaled_jacobian_norm"]) < 0.05, "scaled Jacobian norm stays put")

p1 = run_cli(cli, "scaling", "--dk", "256", "--json")
p2 = run_cli(cli, "scaling", "--dk", "256", "--json")
c.check(p1.returncode == 0 and p1.stdout == p2.stdout, "deterministic")
t = run_cli(cli, "scaling", "--dk", "128")
c.check(t.returncode == 0 and b"entropy" in t.stdout, "text mode")

for extra, needle in [(["--dk", "0"], "--dk"), (["--keys", "x"], "--keys"), (["--trials", "0"], "--trials"),
                      (["--steps", "3"], "--steps"), (["--dk"], "--dk")]:
    p = run_cli(cli, "scaling", *extra)
    lines = p.stderr.decode(errors="replace").splitlines()
    c.check(p.returncode == 2 and len(lines) == 1 and needle in lines[0] and p.stdout == b"",
            f"scaling {' '.join(extra)}: exit 2, one line naming {needle!r}", repr(lines))
c.exit()
