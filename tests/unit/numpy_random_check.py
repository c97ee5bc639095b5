"""NumpyRandom (src/core/base/numpy_random.cpp) against Debian's numpy, bit for bit.

Several seeds, thousands of draws, the three kinds of draw mixed, so the
polar method's kept value and the 53-bit doubles' two draws are checked where
they meet. usage: numpy_random_check.py <numpy_random_draws>
"""
import subprocess
import sys

import numpy as np

draws = sys.argv[1]
CASES = [
    (42, ['randn:5000']),
    (0, ['rand:3000', 'randn:3', 'u32:7', 'randn:1', 'rand:1', 'randn:2000']),
    (7, ['randn:1', 'rand:2', 'randn:1', 'u32:1', 'randn:999', 'rand:1']),
    (2**32 - 1, ['u32:1300', 'randn:1300']),  # past the 624-word state twice
    (1, ['randn:224', 'randn:4000']),  # Figure 4.1's 8x28 block, then more
]
failures = 0
for seed, ops in CASES:
    out = subprocess.run([draws, str(seed), *ops], capture_output=True, text=True, check=True).stdout.split()
    rs = np.random.RandomState(seed)
    want = []
    for op in ops:
        kind, n = op.split(':')
        if kind == 'randn':
            want += [float(x).hex() for x in rs.randn(int(n))]
        elif kind == 'rand':
            want += [float(x).hex() for x in rs.random_sample(int(n))]
        else:  # all 32 bits: numpy returns one raw MT19937 output per value
            want += [str(int(x)) for x in rs.randint(0, 2**32, size=int(n), dtype=np.uint64)]
    # C's %a and Python's float.hex() spell the same double differently; compare values.
    got = [str(int(g)) if not g.startswith(('0x', '-0x')) else float.fromhex(g).hex() for g in out]
    bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
    ok = len(got) == len(want) and not bad
    print(f"[{'PASS' if ok else 'FAIL'}] seed {seed}, {' '.join(ops)}: {len(got)} draws equal numpy's"
          + ('' if ok else f" (first difference at {bad[:1]}: {got[bad[0]] if bad else ''} vs {want[bad[0]] if bad else ''}, {len(got)} vs {len(want)})"))
    failures += not ok
print('numpy_random_check:', 'OK' if not failures else f'{failures} failure(s)')
sys.exit(1 if failures else 0)
