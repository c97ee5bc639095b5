"""The head detectors (core/poem/head_detectors) against numpy.

    poem_detectors_check.py <poem_detectors_dump>

The dump prints hand-made attention on hand-made sequences and the C++
detectors' sums. Here each detector is computed again with numpy from its
definition (the weight on the keys a pattern names, and uniform attention's
weight there, over the queries it applies to), and the strongest detector is
chosen again by the same thresholds. Rows peaked on one pattern's key must
name that pattern: a detector that finds nothing proves nothing.
"""
import json
import subprocess
import sys

import numpy as np

NAMES = ["previous character", "same character", "first position", "punctuation", "couplet",
         "duplicate character", "induction", "couplet, one ahead"]
MIN_RATIO, MIN_WEIGHT = 3.0, 0.2
# The dump prints the weights to 9 significant digits: sums agree to about 1e-9 relative.


def couplet_keys(marks, ahead=0):
    """The same place in the previous line (ahead 0), or the place after it
    (ahead 1): lines start after <poem> (position 0) and after every mark; a
    mark ends its line."""
    keys = [-1] * len(marks)
    start, prev_start, prev_len = 1, -1, 0
    for t in range(1, len(marks)):
        if marks[t]:
            if t > start:
                prev_start, prev_len = start, t - start
            start = t + 1
        elif prev_start >= 0 and t - start + ahead < prev_len:
            keys[t] = prev_start + (t - start) + ahead
    return keys


def detectors(case):
    tokens, marks = case["tokens"], [bool(m) for m in case["marks"]]
    T = len(tokens)
    att = np.array(case["att"], dtype=np.float64).reshape(T, T)
    sums = {n: [0.0, 0.0, 0] for n in NAMES}

    def add(name, keys, t):
        if keys:
            sums[name][0] += att[t, keys].sum()
            sums[name][1] += len(keys) / (t + 1)
            sums[name][2] += 1

    if case["kind"] == "repeat":
        p = case["period"]
        for t in range(p + 1, T):
            add("induction", [t - p + 1], t)
        return sums
    couplet, ahead = couplet_keys(marks), couplet_keys(marks, 1)
    for t in range(1, T):
        add("previous character", [t - 1], t)
        add("same character", [t], t)
        add("first position", [0], t)
        add("punctuation", [k for k in range(t + 1) if marks[k]], t)
        if not marks[t]:
            add("duplicate character", [k for k in range(t) if tokens[k] == tokens[t]], t)
        if couplet[t] >= 0:
            add("couplet", [couplet[t]], t)
        if ahead[t] >= 0:
            add("couplet, one ahead", [ahead[t]], t)
    return sums


def strongest(sums):
    best, best_ratio = -1, 0.0
    for i, n in enumerate(NAMES):
        w, u, q = sums[n]
        ratio = w / u if u > 0 else 0.0
        if q and ratio >= MIN_RATIO and w / q >= MIN_WEIGHT and ratio > best_ratio:
            best, best_ratio = i, ratio
    return best


def main():
    out = subprocess.run([sys.argv[1], "7"], capture_output=True, text=True, check=True).stdout
    cases = json.loads(out)["cases"]
    failures = 0
    named = []
    for i, case in enumerate(cases):
        mine = detectors(case)
        for n in NAMES:
            w, u, q = case["scores"][n]
            ok = q == mine[n][2] and np.isclose(w, mine[n][0], rtol=1e-7, atol=1e-9) and \
                np.isclose(u, mine[n][1], rtol=1e-12, atol=0)
            if not ok:
                failures += 1
                print(f"[FAIL] case {i} {n}: C++ {w, u, q}, numpy {mine[n]}")
        if strongest(mine) != case["strongest"]:
            failures += 1
            print(f"[FAIL] case {i}: strongest {case['strongest']}, numpy {strongest(mine)}")
        named.append(NAMES[case["strongest"]] if case["strongest"] >= 0 else "none")
    # The dump peaks rows on: none, previous, first, couplet, self, couplet one ahead (poems, in turn),
    # then induction on every second repeated sequence.
    expected = (["none", "previous character", "first position", "couplet", "same character",
                 "couplet, one ahead"] * 2) + ["none", "induction"] * 2
    for i, (got, want) in enumerate(zip(named, expected)):
        if want != "none" and got != want:
            failures += 1
            print(f"[FAIL] case {i}: rows peaked on {want} were named {got}")
    checks = len(cases) * (len(NAMES) + 1)
    print(f"[{'FAIL' if failures else 'PASS'}] {len(cases)} hand-made heads: every detector's weight, uniform "
          f"baseline and query count equal numpy's, the strongest is numpy's, peaked rows are named "
          f"({checks} checks, {failures} failed)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
