// Pixel checks shared by the browser (e2e.mjs) and desktop (desktop.mjs) tests:
// does every heatmap cell on screen show the colour of its value?
//
// The colormaps come from outside the app, so a wrong lookup table in the app
// cannot also be the oracle: YlOrRd and RdBu_r from their published
// ColorBrewer anchors, viridis from matplotlib's own 256 entries
// (tests/golden/viridis_matplotlib.csv, written by tests/golden/make_colormaps.py).
// All are read as evenly spaced anchors and interpolated. The app picks one of 256 entries (index =
// floor(t * 256)) with bytes truncated, so its colours may differ from these
// continuous ones by a couple of levels per channel; the default tolerance
// (6/255) covers that and nothing more.
import { readFileSync } from 'node:fs';

const hex = (s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));

// [[r, g, b], ...] from a golden "index,r,g,b" CSV ('#' comments, one header).
function readGoldenColormap(file) {
  const text = readFileSync(new URL(`../golden/${file}`, import.meta.url), 'utf8');
  const rows = text.split('\n').filter((line) => /^\d/.test(line)).map((line) => line.split(',').map(Number));
  if (rows.length !== 256 || rows.some(([index, ...rgb], i) => index !== i || rgb.length !== 3))
    throw new Error(`${file}: expected rows 0..255 of index,r,g,b`);
  return rows.map(([, r, g, b]) => [r, g, b]);
}

// ColorBrewer YlOrRd, 9 classes, evenly spaced over [0, 1].
const YLORRD = ['#ffffcc', '#ffeda0', '#fed976', '#feb24c', '#fd8d3c',
                '#fc4e2a', '#e31a1c', '#bd0026', '#800026'].map(hex);
// matplotlib viridis: its 256-colour table (a 10-sample blend is off by up to 15 levels).
const VIRIDIS = readGoldenColormap('viridis_matplotlib.csv');
// ColorBrewer RdBu, 11 classes (red to blue), reversed as matplotlib's RdBu_r:
// blue for the most negative score, near white at 0, dark red for the largest
// (the app centres 0 with a symmetric range, so "lo" = -"hi").
const RDBU_R = ['#67001f', '#b2182b', '#d6604d', '#f4a582', '#fddbc7', '#f7f7f7',
                '#d1e5f0', '#92c5de', '#4393c3', '#2166ac', '#053061'].map(hex).reverse();
export const COLORMAPS = { ylorrd: YLORRD, viridis: VIRIDIS, rdbu_r: RDBU_R };

export const DEFAULT_TOLERANCE = 6;

// Colour of normalised value t in [0, 1]: linear interpolation between
// evenly spaced anchors. Returns float channels in 0..255.
export function colormapColor(name, t) {
  const anchors = COLORMAPS[name];
  if (!anchors) throw new Error(`unknown colormap ${name}`);
  const x = Math.min(Math.max(t, 0), 1) * (anchors.length - 1);
  const i = Math.min(Math.floor(x), anchors.length - 2);
  const f = x - i;
  return [0, 1, 2].map((ch) => anchors[i][ch] * (1 - f) + anchors[i + 1][ch] * f);
}

// matplotlib's Normalize: (v - lo) / (hi - lo), clamped; a constant image maps to 0.
export function normalise(v, lo, hi) {
  if (!(hi > lo)) return 0;
  return Math.min(Math.max((v - lo) / (hi - lo), 0), 1);
}

export function pixelAt(image, x, y) {
  const i = (y * image.width + x) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2]];
}

// How many different RGB colours the image has: a blank or failed render has
// one or two, a drawn UI with heatmaps has hundreds.
export function countDistinctColours(image) {
  const seen = new Set();
  for (let i = 0; i < image.data.length; i += 4)
    seen.add((image.data[i] << 16) | (image.data[i + 1] << 8) | image.data[i + 2]);
  return seen.size;
}

// The matrix a heatmap shows, from a compute() result: layout "source" names
// the result field ("average", "weights", "scores", "scaled_scores"), "head"
// the head ("filter": the fixed filter, from its definition). Sources compute() does not return (the step view's Q, K, V and
// per-head output) give null: those heatmaps are not pixel-checked.
export function heatmapValues(result, heatmap) {
  if (heatmap.source === 'average') return result.average;
  // The filters view's fixed filter (core/explorer/fixed_filter.hpp), from its
  // definition: 1/2 on the diagonal, 1/4 beside it, for as many tokens as the result has.
  if (heatmap.source === 'filter') {
    const n = result.tokens?.length ?? 0;
    return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 0.5 : Math.abs(i - j) === 1 ? 0.25 : 0)));
  }
  // The poem model's heads (compute({poem: {text}})): head = layer * heads + head.
  if (heatmap.source === 'poem') {
    const heads = result.layers?.[0]?.heads?.length ?? 0;
    return heads ? result.layers[Math.floor(heatmap.head / heads)]?.heads[heatmap.head % heads] ?? null : null;
  }
  // The why-attention view's (compute({why})): the recurrence panel's attention
  // model (head 0), or the Q/K/V variants none, tied, separate (heads 0-2), as flat T x T.
  if (heatmap.source === 'why') {
    const task = result.previous ?? result.lookup;
    const flat = (task ? task[['none', 'tied', 'separate'][heatmap.head]] : result.attention)?.attention;
    const T = Math.round(Math.sqrt(flat?.length ?? 0));
    return flat ? Array.from({ length: T }, (_, q) => flat.slice(q * T, (q + 1) * T)) : null;
  }
  // Weights given from outside (compute({given}) gives {given: {weights}}): rows x cols maps, head = row * cols + col.
  if (heatmap.source === 'given') {
    const grid = result.given?.weights;
    const cols = grid?.[0]?.length ?? 0;
    return cols ? grid[Math.floor(heatmap.head / cols)]?.[heatmap.head % cols] ?? null : null;
  }
  const m = result[heatmap.source];
  if (!['weights', 'scores', 'scaled_scores'].includes(heatmap.source) || !Array.isArray(m)) return null;
  // Explicit Q/K/V results have one [q][k] matrix, head configs [head][q][k].
  return Array.isArray(m?.[0]?.[0]) ? m[heatmap.head] : m;
}

// Is cell (q, k) hidden by the mask? The core sets masked weights to exactly 0.
function isMasked(result, heatmap, q, k) {
  const w = result.weights;
  const head = Array.isArray(w?.[0]?.[0]) ? w[Math.max(heatmap.head, 0)] : w;
  return head?.[q]?.[k] === 0;
}

// Checks the pixel at every cell centre of every heatmap.
//   image:  {width, height, data: RGBA bytes}
//   layout: {"heatmaps": [...]} as the app reports it
//   result: compute(layout.config)
//   rect:   (heatmap) => {x, y, w, h} of the cell area in image pixels
// Returns {checked, skipped, failures: [text]}. The heatmap shows rows x cols
// cells starting at matrix cell (row0, col0) (zoom); window cell (r, c) covers
// [x + c*w/cols, x + (c+1)*w/cols) x [y + r*h/rows, y + (r+1)*h/rows), row 0 on
// top. Heatmaps with "masked_color" draw masked cells in that colour.
export function checkHeatmaps(image, layout, result, rect, tolerance = DEFAULT_TOLERANCE) {
  const failures = [];
  let checked = 0, skipped = 0;
  for (const hm of layout.heatmaps) {
    const values = heatmapValues(result, hm);
    if (values === null) {
      skipped++;
      continue;
    }
    const row0 = hm.row0 ?? 0, col0 = hm.col0 ?? 0;
    if (!Array.isArray(values) || values.length < row0 + hm.rows || !(values[0]?.length >= col0 + hm.cols)) {
      failures.push(`${hm.name}: layout says ${hm.rows}x${hm.cols} at (${row0}, ${col0}) but the result has ` +
                    `${values?.length}x${values?.[0]?.length}`);
      continue;
    }
    if (!COLORMAPS[hm.colormap]) {
      failures.push(`${hm.name}: unknown colormap ${hm.colormap}`);
      continue;
    }
    const { x, y, w, h } = rect(hm);
    let bad = 0;
    for (let r = 0; r < hm.rows; r++) {
      for (let c = 0; c < hm.cols; c++) {
        const px = Math.floor(x + (c + 0.5) * w / hm.cols);
        const py = Math.floor(y + (r + 0.5) * h / hm.rows);
        if (px < 0 || py < 0 || px >= image.width || py >= image.height) {
          failures.push(`${hm.name}[${r}][${c}]: centre (${px}, ${py}) is outside the ${image.width}x${image.height} image`);
          bad++;
          continue;
        }
        const q = row0 + r, k = col0 + c;
        const masked = hm.masked_color && isMasked(result, hm, q, k);
        const want = masked ? hm.masked_color : colormapColor(hm.colormap, normalise(values[q][k], hm.lo, hm.hi));
        const got = pixelAt(image, px, py);
        const err = Math.max(...got.map((g, ch) => Math.abs(g - want[ch])));
        checked++;
        if (err > tolerance) {
          bad++;
          if (bad <= 5) // enough to diagnose without flooding the log
            failures.push(`${hm.name}[${q}][${k}] value ${values[q][k]}${masked ? ' (masked)' : ''} at (${px}, ${py}): ` +
                          `got rgb(${got}) want rgb(${want.map(Math.round)}) (off by ${err.toFixed(1)})`);
        }
      }
    }
    if (bad > 5) failures.push(`${hm.name}: ${bad - 5} more wrong cells`);
  }
  return { checked, skipped, failures };
}

// Pass/fail lines in the same format as the CLI tests.
export class Checks {
  constructor(name) { this.name = name; this.failures = 0; this.last = Date.now(); }
  // CHECK_TIMES=1 prefixes each line with the seconds since the previous one:
  // where a test spends its time.
  check(ok, what, detail = '') {
    const now = Date.now(), took = process.env.CHECK_TIMES ? `${((now - this.last) / 1000).toFixed(1).padStart(6)}s ` : '';
    this.last = now;
    console.log(`${took}[${ok ? 'PASS' : 'FAIL'}] ${what}${!ok && detail ? `: ${detail}` : ''}`);
    if (!ok) this.failures++;
    return ok;
  }
  finish() {
    console.log(`${this.name}: ${this.failures ? `${this.failures} failure(s)` : 'OK'}`);
    return this.failures ? 1 : 0;
  }
}
