// Browser end-to-end test of the export popup (ui/shell/export.hpp), with real
// mouse clicks and real downloads.
//
//   node tests/web/export_e2e.mjs <web build dir> <artefacts dir>
//
// Checks, on "The cat sat on the mat" with a causal mask and 4 heads:
//  1. the tab bar's Export button opens the popup (screenshots in en and zh:
//     export_popup_<lang>.png, look at them);
//  2. every matrix's CSV and JSON download has the documented name
//     (<id>_causal.csv / .json) and reads back equal to
//     compute(currentConfig()) where compute() has the matrix (tokens,
//     scores, scaled scores, weights, output, head average: every number the
//     same float32); the mask is the causal triangle; the X/Q/K/V/W_o exports
//     redo the chapter's steps (Q_h K_h^T = scores[h], concat_h(weights_h V_h)
//     W_o = output, within 1e-4 relative);
//  3. "PNG (2x)" downloads view_<view>_causal.png of exactly 2x the view
//     area's CSS size (devicePixelRatio 1), drawn, not blank, with every
//     heatmap cell centre in the colour of its value (export_view_*.png in the
//     artefacts dir: look at them), for the heatmaps and the steps view.
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { PNG } from 'pngjs';

import { checkHeatmaps, countDistinctColours } from './pixels.mjs';
import { openLab as open, runBrowserTest } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node export_e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}
const VIEWPORT = { width: 1280, height: 800 };
const HEADS = 4;
const LAYER = ['tokens', 'x', 'mask', 'output', 'average', 'w_o'];
const PER_HEAD = ['q', 'k', 'v', 'scores', 'scaled_scores', 'weights'];

// Clicks a control and returns the download it starts: {name, bytes}.
async function download(lab, control) {
  const [file] = await Promise.all([lab.page.waitForEvent('download', { timeout: 60_000 }), lab.click(control)]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

// RFC 4180 CSV -> rows of fields (quoted fields may hold commas, quotes, line breaks).
function parseCsv(text) {
  const rows = [['']];
  let quoted = false;
  for (let i = 0; i < text.length; ++i) {
    const ch = text[i];
    const row = rows[rows.length - 1];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') row[row.length - 1] += text[++i];
      else if (ch === '"') quoted = false;
      else row[row.length - 1] += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push('');
    else if (ch === '\n') rows.push(['']);
    else row[row.length - 1] += ch;
  }
  if (rows.at(-1).length === 1 && rows.at(-1)[0] === '') rows.pop();
  return rows;
}

// {rows, cols, data} from either format; numbers as float32.
function readTable(name, bytes) {
  const text = bytes.toString('utf8');
  if (name.endsWith('.json')) {
    const doc = JSON.parse(text);
    return { name: doc.name, rows: doc.rows, cols: doc.cols, data: doc.data.map((r) => r.map((v) => Math.fround(v))) };
  }
  const rows = parseCsv(text);
  return { rows: rows.slice(1).map((r) => r[0]), cols: rows[0].slice(1),
           data: rows.slice(1).map((r) => r.slice(1).map((v) => Math.fround(Number(v)))) };
}

// Every cell the same float32 (compute() prints the shortest text that reads back exactly).
function sameMatrix(got, want) {
  if (got.length !== want.length) return `${got.length} rows, want ${want.length}`;
  for (let i = 0; i < want.length; ++i) {
    if (got[i].length !== want[i].length) return `row ${i}: ${got[i].length} columns, want ${want[i].length}`;
    for (let j = 0; j < want[i].length; ++j)
      if (got[i][j] !== Math.fround(want[i][j])) return `[${i}][${j}] = ${got[i][j]}, want ${want[i][j]}`;
  }
  return '';
}

const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((s, v, k) => s + v * b[k][j], 0)));
const transpose = (a) => a[0].map((_, j) => a.map((row) => row[j]));
const norm = (a) => Math.sqrt(a.flat().reduce((s, v) => s + v * v, 0));
const relativeError = (a, b) => norm(a.map((row, i) => row.map((v, j) => v - b[i][j]))) / norm(b);
const features = (n) => Array.from({ length: n }, (_, j) => `d${j}`);

async function popupScreenshot(c, lab, page, lang) {
  await lab.click('export');
  await lab.frames(3);
  const layout = await lab.layout();
  c.check(layout.controls.export_png && layout.controls.export_weights_head3_json,
          `${lang}: the Export button opens the popup with the PNG and every matrix`,
          Object.keys(layout.controls).filter((k) => k.startsWith('export')).join(' '));
  await writeFile(join(artefactsDir, `export_popup_${lang}.png`), await page.screenshot({ type: 'png' }));
}

async function checkMatrices(c, lab) {
  const config = await lab.config();
  const result = await lab.compute(config);
  if (!c.check(!result.error, 'compute(currentConfig()) succeeds', result.error)) return;
  const n = result.tokens.length;
  const tables = {};
  for (const id of [...LAYER, ...PER_HEAD.flatMap((k) => Array.from({ length: HEADS }, (_, h) => `${k}_head${h}`))]) {
    for (const format of ['csv', 'json']) {
      const file = await download(lab, `export_${id}_${format}`);
      const want = `${id}_causal.${format}`;
      if (!c.check(file.name === want, `${id} ${format}: the download is called ${want}`, file.name)) continue;
      const table = readTable(file.name, file.bytes);
      if (format === 'json') c.check(table.name === `${id}_causal`, `${want}: "name" is ${id}_causal`, table.name);
      const squareByTokens = ['mask', 'average'].includes(id) || /^(scores|scaled_scores|weights)_head/.test(id);
      const wantCols = id === 'tokens' ? ['key_valid'] : squareByTokens ? result.tokens : null;
      c.check(JSON.stringify(table.rows) === JSON.stringify(id === 'w_o' ? features(table.rows.length) : result.tokens),
              `${want}: the row labels are the tokens`, JSON.stringify(table.rows));
      c.check(JSON.stringify(table.cols) === JSON.stringify(wantCols ?? features(table.cols.length)),
              `${want}: the column labels are ${wantCols ? 'the key tokens' : 'd0, d1, ...'}`, JSON.stringify(table.cols));
      if (format === 'csv') tables[id] = table.data;
      else if (tables[id]) c.check(sameMatrix(table.data, tables[id]) === '', `${want}: the same numbers as the CSV`);
    }
  }
  // 2a. What compute() has: the same float32 numbers.
  const fromCompute = {
    tokens: result.key_valid.map((v) => [v ? 1 : 0]), output: result.output, average: result.average,
  };
  for (let h = 0; h < HEADS; ++h)
    for (const k of ['scores', 'scaled_scores', 'weights']) fromCompute[`${k}_head${h}`] = result[k][h];
  for (const [id, want] of Object.entries(fromCompute)) {
    const problem = tables[id] ? sameMatrix(tables[id], want) : 'not downloaded';
    c.check(problem === '', `${id}: the export equals compute() exactly`, problem);
  }
  // 2b. The mask: the causal triangle, and masked weights are 0.
  const triangle = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? 1 : 0)));
  c.check(tables.mask && sameMatrix(tables.mask, triangle) === '', 'mask: 1 where j <= i (causal), else 0');
  // 2c. The steps, redone from the exports.
  const concat = Array.from({ length: n }, () => []);
  for (let h = 0; h < HEADS; ++h) {
    const [Q, K, V, W] = ['q', 'k', 'v', 'weights'].map((k) => tables[`${k}_head${h}`]);
    if (!Q || !K || !V || !W) continue;
    const e = relativeError(matmul(Q, transpose(K)), result.scores[h]);
    c.check(e <= 1e-4, `head ${h}: Q_h K_h^T of the exports equals compute().scores[${h}]`, `relative error ${e}`);
    matmul(W, V).forEach((row, i) => concat[i].push(...row));
  }
  if (tables.w_o && tables.x) {
    c.check(tables.x.length === n && tables.x[0].length === tables.w_o.length, 'X is n x d_model');
    const e = relativeError(matmul(concat, tables.w_o), result.output);
    c.check(e <= 1e-4, 'concat_h(weights_h V_h) W_o of the exports equals compute().output', `relative error ${e}`);
  }
}

async function checkPng(c, lab, view) {
  await lab.click(`tab_${view}`);  // the first click may only close an open popup
  await lab.click(`tab_${view}`);
  await lab.frames(4);
  const before = await lab.layout();
  const area = before.controls.view_area;
  if (!c.check(area, `${view}: the view area is in layout().controls`)) return;
  const result = await lab.compute(before.config);
  await lab.click('export');
  await lab.frames(3);
  const file = await download(lab, 'export_png');
  c.check(file.name === `view_${view}_causal.png`, `${view}: the PNG is called view_${view}_causal.png`, file.name);
  const png = PNG.sync.read(file.bytes);
  await writeFile(join(artefactsDir, `export_${file.name}`), file.bytes);
  c.check(png.width === Math.round(2 * area.css_w) && png.height === Math.round(2 * area.css_h),
          `${view}: the PNG is exactly 2x the view area's CSS size (${2 * area.css_w}x${2 * area.css_h})`,
          `${png.width}x${png.height}`);
  const colours = countDistinctColours(png);
  c.check(colours >= 32, `${view}: the PNG is drawn, not blank`, `${colours} colours`);
  // Cells where the screen has them, at twice the size: their colours are the values'.
  const inView = before.heatmaps.filter((h) => h.css_x >= area.css_x && h.css_y >= area.css_y);
  const pixels = checkHeatmaps(png, { heatmaps: inView }, result,
    (h) => ({ x: 2 * (h.css_x - area.css_x), y: 2 * (h.css_y - area.css_y), w: 2 * h.css_w, h: 2 * h.css_h }));
  c.check(pixels.failures.length === 0 && (pixels.checked > 0 || inView.length === 0),
          `${view}: ${pixels.checked} heatmap cell centres in the PNG have the colour of their value`,
          pixels.failures.slice(0, 8).join('\n    '));
  const after = await lab.layout();
  c.check(JSON.stringify(after.controls.view_area) === JSON.stringify(area),
          `${view}: the page is laid out as before the PNG`, JSON.stringify(after.controls.view_area));
}

async function run(c, page, url) {
  let lab = await open(page, url, '?lang=zh&mask=causal');
  await popupScreenshot(c, lab, page, 'zh');
  lab = await open(page, url, '?lang=en&mask=causal');
  const s = await lab.state();
  c.check(s.heads === HEADS && s.config.mask === 'causal', `the page shows ${HEADS} heads with a causal mask`,
          JSON.stringify(s.config));
  await popupScreenshot(c, lab, page, 'en');
  await checkMatrices(c, lab);
  await checkPng(c, lab, 'heatmaps');
  await checkPng(c, lab, 'steps');
}

process.exitCode = await runBrowserTest({ name: 'export_e2e', logName: 'export', webDir, artefactsDir,
                                          viewport: VIEWPORT, run });
