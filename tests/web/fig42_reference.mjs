// An independent JavaScript reimplementation of Figure 4.2's statistics at
// one d_k, for the scaling lab's browser test: the generator (PCG32 XSH RR
// 64/32 as in pcg-c-basic, seeded with (seed, stream = d_k); Box-Muller in
// double, rounded to float32 once) and the statistics (population std in
// double, mean of max(softmax([score, 0])) over the first 50 draws) written
// from their definitions, not taken from the app. Same seed, same numbers:
// the app's displayed std must match to its 4 decimals.
const MASK64 = (1n << 64n) - 1n;
const PCG_MULT = 6364136223846793005n;

class Pcg32 {
  constructor(seed, stream) {
    this.state = 0n;
    this.inc = ((BigInt(stream) << 1n) | 1n) & MASK64;
    this.spare = null;
    this.nextU32();
    this.state = (this.state + BigInt(seed)) & MASK64;
    this.nextU32();
  }
  nextU32() {
    const old = this.state;
    this.state = (old * PCG_MULT + this.inc) & MASK64;
    const xorshifted = Number((((old >> 18n) ^ old) >> 27n) & 0xffffffffn);
    const rot = Number(old >> 59n);
    return ((xorshifted >>> rot) | (xorshifted << ((32 - rot) & 31))) >>> 0;
  }
  uniformDouble() {  // 27 + 26 random bits in [0, 1)
    const a = this.nextU32() >>> 5, b = this.nextU32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
  normal() {  // Box-Muller: two normals per pair of uniforms, the second kept
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return Math.fround(s);
    }
    const u1 = 1 - this.uniformDouble();
    const u2 = this.uniformDouble();
    const radius = Math.sqrt(-2 * Math.log(u1));
    const angle = 6.283185307179586 * u2;
    this.spare = radius * Math.sin(angle);
    return Math.fround(radius * Math.cos(angle));
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

// {raw_std, scaled_std, raw_peak, scaled_peak} for samples draws at d_k.
export function figure42Reference(dK, samples, seed = 0, peakSamples = 50) {
  const rng = new Pcg32(seed, dK);
  const scale = Math.fround(1 / Math.fround(Math.sqrt(dK)));
  const raw = new Float64Array(samples), scaled = new Float64Array(samples);
  const q = new Float64Array(dK), k = new Float64Array(dK);
  for (let s = 0; s < samples; s++) {
    for (let c = 0; c < dK; c++) q[c] = rng.normal();
    for (let c = 0; c < dK; c++) k[c] = rng.normal();
    let dot = 0;  // float products are exact in double; summed in double as the chapter's reference
    for (let c = 0; c < dK; c++) dot += q[c] * k[c];
    raw[s] = Math.fround(dot);
    scaled[s] = Math.fround(raw[s] * scale);
  }
  const peaks = Math.min(peakSamples, samples);
  let rawPeak = 0, scaledPeak = 0;
  for (let s = 0; s < peaks; s++) {
    rawPeak += twoWayPeak(raw[s]);
    scaledPeak += twoWayPeak(scaled[s]);
  }
  return {
    raw_std: Math.fround(populationStd(raw)),
    scaled_std: Math.fround(populationStd(scaled)),
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
