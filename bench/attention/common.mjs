// Shared by the browser page (page.mjs) and the Node driver (run.mjs): the
// problem, its inputs, the double-precision reference and the timing policy,
// so every contestant is fed, checked and timed the same way.
export const HEADS = 8;
export const D_HEAD = 64;
export const TOLERANCE = 1e-4;  // max abs error against the reference

// FLOP of one forward over all heads: Q K^T and weights V, 2 n^2 d each.
export const flop = (n) => 4 * n * n * D_HEAD * HEADS;

// Q, K, V as [HEADS, n, D_HEAD] float32, from the LCG of
// tests/bench/bench_kernel.cpp (same seed, same order: Q, then K, then V), so
// the C++ kernel sees the same numbers. Exact in float: 24-bit integers / 2^24.
export function inputs(n) {
  let s = 42;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) / 16777216 * 2 - 1;
  };
  const tensor = () => {
    const a = new Float32Array(HEADS * n * D_HEAD);
    for (let i = 0; i < a.length; ++i) a[i] = next();
    return a;
  };
  const q = tensor(), k = tensor(), v = tensor();
  return { q, k, v };
}

// softmax(Q K^T / sqrt(d)) V per head in double precision, independent of
// every contestant (naive loops, max-subtracted softmax).
export function reference({ q, k, v }, n) {
  const d = D_HEAD, scale = 1 / Math.sqrt(d);
  const out = new Float64Array(HEADS * n * d);
  const w = new Float64Array(n);
  for (let h = 0; h < HEADS; ++h) {
    const base = h * n * d;
    for (let i = 0; i < n; ++i) {
      const qi = base + i * d;
      let max = -Infinity;
      for (let j = 0; j < n; ++j) {
        const kj = base + j * d;
        let dot = 0;
        for (let c = 0; c < d; ++c) dot += q[qi + c] * k[kj + c];
        w[j] = dot * scale;
        if (w[j] > max) max = w[j];
      }
      let sum = 0;
      for (let j = 0; j < n; ++j) sum += (w[j] = Math.exp(w[j] - max));
      for (let j = 0; j < n; ++j) {
        const p = w[j] / sum, vj = base + j * d;
        for (let c = 0; c < d; ++c) out[qi + c] += p * v[vj + c];
      }
    }
  }
  return out;
}

export function maxAbsError(got, want) {
  if (!got || got.length !== want.length) return Infinity;
  let err = 0;
  for (let i = 0; i < want.length; ++i) {
    const e = Math.abs(got[i] - want[i]);
    if (!(e <= err)) err = Number.isNaN(e) ? Infinity : e;  // a NaN counts as the largest error
  }
  return err;
}

// The timing policy of bench_kernel.cpp's measure(): warm up (>= 2 calls and
// 0.2 s, so optimising compilers have run), then samples of enough calls to
// last >= 20 ms (the browser's clock ticks in 0.1 ms) until >= 5 samples and
// minSeconds; the median ms per call. call() returns the output (or a promise
// of it); the last one is returned for the correctness check.
export async function measure(call, minSeconds) {
  const now = () => performance.now() / 1e3;
  let fastest = Infinity, output;
  const warmStart = now();
  for (let i = 0; i < 2 || now() - warmStart < 0.2; ++i) {
    const t0 = now();
    output = await call();
    fastest = Math.min(fastest, now() - t0);
  }
  const perSample = Math.max(1, Math.ceil(0.02 / Math.max(fastest, 1e-7)));
  const perCall = [];
  const start = now();
  while (perCall.length < 5 || now() - start < minSeconds) {
    const t0 = now();
    for (let i = 0; i < perSample; ++i) output = await call();
    perCall.push((now() - t0) / perSample);
  }
  perCall.sort((a, b) => a - b);
  return { ms: perCall[perCall.length >> 1] * 1e3, samples: perCall.length, calls_per_sample: perSample, output };
}

// One table cell from a measurement: figures plus the check against `want`.
export function cell(n, timing, want) {
  const err = maxAbsError(timing.output, want);
  return { n, ms: timing.ms, gflops: flop(n) / (timing.ms * 1e6), samples: timing.samples,
           calls_per_sample: timing.calls_per_sample, max_abs_err: err, ok: err <= TOLERANCE };
}
