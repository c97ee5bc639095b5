"""Shared helpers for the attention_cli tests: run the CLI, parse JSON, count failures.

Run with /usr/bin/python3 (Debian's, which has numpy); the tests recompute the
chapter's numbers with numpy so they do not trust the C++ code they check.
"""
import json
import subprocess
import sys

import numpy as np


class Checks:
    """Collects pass/fail lines; exit() returns non-zero if anything failed."""

    def __init__(self, name):
        self.name = name
        self.failures = 0

    def check(self, ok, what, detail=""):
        status = "PASS" if ok else "FAIL"
        print(f"[{status}] {what}" + (f": {detail}" if detail and not ok else ""))
        if not ok:
            self.failures += 1
        return ok

    def close(self, what, actual, expected, tol, detail=""):
        actual = np.asarray(actual, dtype=np.float64)
        expected = np.asarray(expected, dtype=np.float64)
        if actual.shape != expected.shape:
            return self.check(False, what, f"shape {actual.shape} != {expected.shape}")
        err = float(np.max(np.abs(actual - expected))) if actual.size else 0.0
        return self.check(err <= tol, what, f"max abs error {err:.3g} > {tol:g} {detail}")

    def exit(self):
        print(f"{self.name}: {'OK' if self.failures == 0 else str(self.failures) + ' failure(s)'}")
        sys.exit(1 if self.failures else 0)


def run_cli(cli, *args, stdin=None, timeout=120):
    return subprocess.run([cli, *args], input=stdin, capture_output=True, timeout=timeout)


def run_json(cli, *args, stdin=None):
    """Runs the CLI, requires exit 0 and a JSON object on stdout."""
    p = run_cli(cli, *args, stdin=stdin)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(args)} exited {p.returncode}: {p.stderr.decode(errors='replace')}")
    return json.loads(p.stdout)


def attend(cli, config):
    """compute() through `attention_cli attend --config -`."""
    return run_json(cli, "attend", "--config", "-", stdin=json.dumps(config).encode())


def softmax_rows(scores, allowed=None):
    """Row softmax; masked entries get exactly 0 (the chapter's convention)."""
    s = np.asarray(scores, dtype=np.float64)
    if allowed is None:
        allowed = np.ones_like(s, dtype=bool)
    s = np.where(allowed, s, -np.inf)
    m = np.max(s, axis=1, keepdims=True)
    e = np.where(allowed, np.exp(s - m), 0.0)
    return e / np.sum(e, axis=1, keepdims=True)


def shape_of(nested):
    return np.asarray(nested, dtype=np.float64).shape
