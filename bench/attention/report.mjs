// Turns run.mjs's results into the markdown the benchmark prints: one table
// (rows per n and contestant) and the benchmark's goals as met / NOT met lines.
// The project's figure in every ratio and goal is its output-only row
// (keep_matrices = false, what the peers compute) with the ISA the build
// picks by default (the first of available_isas()).
import { TOLERANCE } from './common.mjs';

const PEERS = {
  wasm: ['onnxruntime-web', 'tfjs batched', 'tfjs per-head'],
  native: ['onnxruntime-node'],
};

const sig = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : '—');
const fixed = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

function finder(results) {
  const find = (pred) => results.cells.find((c) => pred(c) && !c.error && Number.isFinite(c.ms));
  const project = (where, n, isa = results[where]?.isas?.[0]) =>
    find((c) => c.where === where && c.contestant === 'project' && !c.keep_matrices && c.n === n && c.isa === isa);
  const peer = (where, name, n) => find((c) => c.where === where && c.contestant === name && c.n === n);
  const tfjsBest = (n) => {
    const both = ['tfjs batched', 'tfjs per-head'].map((name) => peer('wasm', name, n)).filter(Boolean);
    return both.sort((a, b) => a.ms - b.ms)[0];
  };
  return { project, peer, tfjsBest };
}

function label(c, results) {
  const v = results.versions;
  switch (c.contestant) {
    case 'project': return `project core, ${c.isa}, ${c.keep_matrices ? 'all matrices' : 'output only'}`;
    case 'onnxruntime-web': return `onnxruntime-web ${v['onnxruntime-web']} (wasm EP, 1 thread)`;
    case 'onnxruntime-node': return `onnxruntime-node ${v['onnxruntime-node']} (1 intra-op thread)`;
    case 'tfjs batched': return `tfjs-backend-wasm ${v['@tensorflow/tfjs-backend-wasm']}, batched matMul`;
    case 'tfjs per-head': return `tfjs-backend-wasm ${v['@tensorflow/tfjs-backend-wasm']}, 2-D matMul per head (Kᵀ by tf.transpose)`;
    default: return c.contestant;
  }
}

export function goals(results) {
  const { project, peer, tfjsBest } = finder(results);
  const out = [];
  const goal = (text, value, met) => out.push({ text, value, met });
  const ratioGoal = (text, mine, theirs, limit) => {
    const r = mine && theirs ? mine.ms / theirs.ms : NaN;
    goal(`${text} ≤ ${sig(limit)}`, Number.isFinite(r) ? `${sig(r)}×` : 'no figure', r <= limit);
  };
  const wasmIsa = results.wasm?.isas?.[0] ?? '?';
  const at512 = project('wasm', 512);
  goal(`wasm (${wasmIsa}) n = 512: ≥ 40 GFLOP/s`, at512 ? `${fixed(at512.gflops)} GFLOP/s` : 'no figure',
       at512 ? at512.gflops >= 40 : false);
  for (const n of results.config.sizes.filter((n) => n >= 256)) {
    ratioGoal(`wasm n = ${n}: project time ÷ onnxruntime-web time`, project('wasm', n), peer('wasm', 'onnxruntime-web', n), 0.75);
    const best = tfjsBest(n);
    ratioGoal(`wasm n = ${n}: project time ÷ tfjs best use (${best ? best.contestant.slice(5) : '?'}) time`,
              project('wasm', n), best, 0.5);
  }
  // Native: per ISA, the limit the issue sets for that class of machine.
  const limits = { avx512: 1, avx2: 1 / 0.7 };
  for (const [isa, limit] of Object.entries(limits)) {
    if (!results.native?.isas?.includes(isa)) {
      goal(`native ${isa}: project time ÷ onnxruntime-node time ≤ ${sig(limit)}`,
           `not measured (no ${isa} kernel on this CPU or build)`, null);
      continue;
    }
    for (const n of [512, 1024].filter((n) => results.config.sizes.includes(n)))
      ratioGoal(`native ${isa} n = ${n}: project time ÷ onnxruntime-node time`, project('native', n, isa),
                peer('native', 'onnxruntime-node', n), limit);
  }
  return out;
}

export function markdown(results) {
  const { project, tfjsBest } = finder(results);
  const m = results.machine;
  const lines = [
    `machine: ${m.cpu}, ${m.cores} cores, ${m.simd.join(' ') || 'no AVX'}; ${m.os}; node ${m.node}; ` +
    `Chromium ${m.chromium ?? '?'}; load average at start ${m.load_start.map((x) => x.toFixed(2)).join(' ')}, ` +
    `at end ${m.load_end.map((x) => x.toFixed(2)).join(' ')}`,
    `single thread, fp32, ${results.config.heads} heads × d_head ${results.config.d_head}, no mask; ` +
    `GFLOP/s = 4·n²·d·h per forward; median of ≥ 5 samples and ≥ ${results.config.min_seconds} s per cell; ` +
    `"project ÷ this" = the project core's time (output only, default ISA of the same platform) over this row's time`,
    '',
    '| n | where | contestant | ms | GFLOP/s | project ÷ this | max abs err | check |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const order = (c) => [c.where === 'wasm' ? 0 : 1, c.contestant === 'project' ? 0 : 1];
  const cells = [...results.cells].sort((a, b) => a.n - b.n || order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
  for (const c of cells) {
    const mine = project(c.where, c.n);
    const isPeer = PEERS[c.where]?.includes(c.contestant);
    const ratio = isPeer && mine && !c.error ? sig(mine.ms / c.ms, 2) : '';
    const check = c.error ? `FAILED: ${c.error.split('\n')[0].slice(0, 120)}` : c.ok ? 'ok' : `FAILED (> ${TOLERANCE})`;
    lines.push(`| ${c.n} | ${c.where} | ${label(c, results)}${tfjsBest(c.n) === c ? ' (best use)' : ''} | ${c.error ? '—' : sig(c.ms)} | ` +
               `${c.error ? '—' : fixed(c.gflops)} | ${ratio} | ${c.error ? '—' : sig(c.max_abs_err, 2)} | ${check} |`);
  }
  for (const [where, name] of [['wasm', 'WASM SIMD128 mul+add peak'], ['native', 'native peak']]) {
    const p = results[where]?.peak;
    if (p) lines.push(`| — | ${where} | ${name}: ${p.kernel ?? p.error} | — | ${fixed(p.gflops)} | | | |`);
  }
  lines.push('', 'goals:');
  for (const g of results.goals)
    lines.push(`- ${g.text}: ${g.value} — ${g.met === null ? 'n/a' : g.met ? 'met' : '**NOT met**'}`);
  const judged = results.goals.filter((g) => g.met !== null);
  const failures = results.cells.filter((c) => c.error || !c.ok);
  lines.push('', `${judged.filter((g) => g.met).length} of ${judged.length} goals met; ` +
             (failures.length ? `${failures.length} of ${results.cells.length} cells FAILED their run or check`
                              : `all ${results.cells.length} outputs within ${TOLERANCE} of the reference`));
  return lines.join('\n');
}
