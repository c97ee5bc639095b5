"""attention_cli causal [--json]: the causal-mask companion.

From the printed raw scores (one head, d_k = 16) the test recomputes both
weight matrices with numpy: bidirectional = softmax(S / 4); causal = the same
softmax restricted to keys j <= i. Masked weights must be exactly 0 and the
last position (which sees every key either way) must not change at all.
"""
import sys

import numpy as np

from cli_common import Checks, run_cli, run_json, shape_of, softmax_rows

cli = sys.argv[1]
c = Checks("cli_causal")
r = run_json(cli, "causal", "--json")
c.check(set(r) == {"scores", "bidirectional", "causal", "mask", "output_diff", "top_keys"},
        "causal --json has exactly the documented keys", str(sorted(r)))
for k in ("scores", "bidirectional", "causal", "mask"):
    c.check(shape_of(r[k]) == (8, 8), f"{k} is [8][8]", str(shape_of(r[k])))
c.check(len(r["output_diff"]) == 8, "output_diff has 8 entries")

scores = np.asarray(r["scores"], dtype=np.float64)
causal = np.asarray(r["causal"], dtype=np.float64)
lower = np.tril(np.ones((8, 8), dtype=bool))
c.check(np.array_equal(np.asarray(r["mask"]), lower.astype(int)), "mask is the lower triangle (j <= i) of 0/1")
c.check(bool(np.all(causal[~lower] == 0.0)), "upper triangle of causal weights is exactly 0")
c.close("bidirectional == softmax(scores / sqrt(16))", r["bidirectional"], softmax_rows(scores / 4.0), 1e-5)
c.close("causal == masked softmax(scores / sqrt(16))", causal, softmax_rows(scores / 4.0, lower), 1e-5)
c.close("causal rows sum to 1", causal.sum(axis=1), np.ones(8), 1e-5)
c.close("causal row 0 attends only to itself", causal[0], np.eye(8)[0], 0.0)
c.check(r["output_diff"][-1] == 0.0, "last position output_diff == 0", str(r["output_diff"][-1]))
c.check(all(d > 0 for d in r["output_diff"][:-1]), "earlier positions change under the mask", str(r["output_diff"]))

p = run_cli(cli, "causal")
text = p.stdout.decode()
c.check(p.returncode == 0 and "Causal mask" in text and "Bidirectional" in text, "causal (text) prints the matrices")
c.exit()
