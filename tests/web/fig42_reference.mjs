// An independent JavaScript reimplementation of Figure 4.2's statistics at
// one d_k, for the scaling lab's browser test, written from the chapter
// script's recipe and numpy's definitions, not taken from the app: numpy's
// legacy generator (np.random.seed: MT19937 with Knuth's seeding, 53-bit
// doubles, the polar Gaussian that keeps its second value), the script's
// stream (for each d_k of 8, 32, 128, 512 in turn: Q = randn(samples, d_k),
// then K; any other d_k starts at the seed), population std in double, and
// the mean of max(softmax([score, 0])) over the first 50 scores. Same seed,
// same numbers: the app's displayed std must match to its 4 decimals.
class NumpyRandom {
  constructor(seed) {
    this.key = new Uint32Array(624);
    let s = seed >>> 0;
    for (let i = 0; i < 624; i++) {
      this.key[i] = s;
      s = (Math.imul(1812433253, (s ^ (s >>> 30)) >>> 0) + i + 1) >>> 0;
    }
    this.pos = 624;
    this.gauss = null;
  }
  nextU32() {
    const mt = this.key;
    if (this.pos === 624) {
      for (let i = 0; i < 624; i++) {
        const y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7fffffff);
        mt[i] = mt[(i + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.pos = 0;
    }
    let y = mt[this.pos++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }
  randomSample() {  // 27 + 26 random bits in [0, 1)
    const a = this.nextU32() >>> 5, b = this.nextU32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
  randn() {
    if (this.gauss !== null) {
      const g = this.gauss;
      this.gauss = null;
      return g;
    }
    let x1, x2, r2;
    do {
      x1 = 2 * this.randomSample() - 1;
      x2 = 2 * this.randomSample() - 1;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1 || r2 === 0);
    const f = Math.sqrt(-2 * Math.log(r2) / r2);
    this.gauss = f * x1;
    return f * x2;
  }
}

function populationStd(values) {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let squares = 0;
  for (const v of values) squares += (v - mean) * (v - mean);
  return Math.sqrt(squares / values.length);
}

// max(softmax([s, 0])) = 1 / (1 + exp(-|s|)).
const twoWayPeak = (s) => 1 / (1 + Math.exp(-Math.abs(s)));
const CHAPTER_DIMS = [8, 32, 128, 512];

// {raw_std, scaled_std, raw_peak, scaled_peak} for samples draws at d_k.
export function figure42Reference(dK, samples, seed = 42, peakSamples = 50) {
  const rng = new NumpyRandom(seed);
  if (CHAPTER_DIMS.includes(dK))
    for (const before of CHAPTER_DIMS.slice(0, CHAPTER_DIMS.indexOf(dK)))
      for (let i = 0; i < 2 * samples * before; i++) rng.randn();
  const Q = new Float64Array(samples * dK), K = new Float64Array(samples * dK);
  for (let i = 0; i < Q.length; i++) Q[i] = rng.randn();
  for (let i = 0; i < K.length; i++) K[i] = rng.randn();
  const raw = new Float64Array(samples), scaled = new Float64Array(samples);
  for (let s = 0; s < samples; s++) {
    let dot = 0;
    for (let c = 0; c < dK; c++) dot += Q[s * dK + c] * K[s * dK + c];
    raw[s] = dot;
    scaled[s] = dot / Math.sqrt(dK);
  }
  const peaks = Math.min(peakSamples, samples);
  let rawPeak = 0, scaledPeak = 0;
  for (let s = 0; s < peaks; s++) {
    rawPeak += twoWayPeak(raw[s]);
    scaledPeak += twoWayPeak(scaled[s]);
  }
  return {
    raw_std: populationStd(raw),
    scaled_std: populationStd(scaled),
    raw_peak: rawPeak / peaks,
    scaled_peak: scaledPeak / peaks,
  };
}

// Sampling tolerance of a measured std: the sample std of n draws of a
// variable with kurtosis kappa has relative standard error about
// sqrt((kappa - 1) / (4 n)). q.k with q, k ~ N(0, I_dk) has kurtosis
// 3 + 6 / d_k (a sum of d_k products of two normals, each of kurtosis 9).
// Five standard errors: a correct lab fails this about once in 10^6 runs.
export function stdTolerance(dK, samples, sigmas = 5) {
  return sigmas * Math.sqrt((2 + 6 / dK) / (4 * samples));
}
