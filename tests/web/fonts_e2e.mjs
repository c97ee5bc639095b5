// Browser test of the CJK font: fetched only when needed, and every
// character renders (src/platform/fonts.hpp, web/fonts.js).
//
//   node tests/web/fonts_e2e.mjs <web build dir> <artefacts dir>
//
// Checks:
//  1. an English page does not fetch the font at all (its first download is
//     counted by first_download_e2e.mjs);
//  2. with ?text=我爱自然语言处理 the font is fetched, and the head-average
//     heatmap's query labels are the glyphs: each label's pixels differ from
//     the app's own "?" and from its missing-glyph box, and different
//     characters give different pixels. The references come from the page
//     with ?text=? □ 😀 我: "?", the box (U+25A1, which is also the fallback
//     glyph), an emoji the font lacks (must be drawn as that same box) and 我
//     (must be pixel-equal to 我 in the first page: the comparison works);
//  3. the same at devicePixelRatio 1.5 and 2 with the Chinese interface.
// Screenshots of each page go to the artefacts dir.
//
// The label helpers are exported for tests/desktop/desktop.mjs, which checks
// the desktop app's labels the same way.
import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { PNG } from 'pngjs';

export const CJK_SENTENCE = '我爱自然语言处理';
// '?' (ASCII), the box itself, an emoji (beyond the 16-bit ImWchar: the
// fallback box), and a hanzi the first sentence also has.
export const REFERENCE_SENTENCE = '? □ 😀 我';
export const REFERENCE_TOKENS = ['?', '□', '😀', '我'];
export const SAME = 0.05, DIFFERENT = 0.2;  // inkDistance thresholds

// ---- label pixels (shared with the desktop test) ----------------------------------

// The ink of query label `row` of a heatmap: labels are right-aligned at
// pad = floor(0.4 * font) left of the cells (src/ui/widgets/plot.cpp draw_token_labels)
// and vertically centred on their row. `cells` = {x, y, w, h, rows, row0} in
// image pixels, `scale` = pixels per UI unit (the font is round(13 * scale)
// px, CJK round(14 * scale) px per em). Returns {w, h, ink: Float32Array, sum}:
// each pixel's largest channel difference from the background (0..1),
// cropped to the pixels that clearly differ.
export function rowLabelInk(png, cells, row, scale) {
  const font = Math.round(13 * scale), pad = Math.floor(font * 0.4), em = Math.round(14 * scale);
  const cell = cells.h / cells.rows;
  const cy = cells.y + (row - cells.row0 + 0.5) * cell;
  // Right of x1 are the selected-row marker (from x - 5) and the cells; left
  // of x0, beyond one em, the query axis title.
  const x1 = Math.round(cells.x) - pad, x0 = x1 - em - Math.floor(pad / 2);
  const y0 = Math.max(Math.round(cy - cell / 2), Math.floor(cy - font / 2) - 2);
  const y1 = Math.min(Math.round(cy + cell / 2), Math.floor(cy - font / 2) + font + 2);
  const at = (x, y) => {
    const i = (y * png.width + x) * 4;
    return [png.data[i], png.data[i + 1], png.data[i + 2]];
  };
  const background = at(x0, y0);  // the panel's flat colour
  const diff = (x, y) => Math.max(...at(x, y).map((v, ch) => Math.abs(v - background[ch]))) / 255;
  let bx0 = Infinity, by0 = Infinity, bx1 = -1, by1 = -1;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      if (diff(x, y) > 0.2) {
        bx0 = Math.min(bx0, x); by0 = Math.min(by0, y); bx1 = Math.max(bx1, x); by1 = Math.max(by1, y);
      }
  if (bx1 < 0) return { w: 0, h: 0, ink: new Float32Array(0), sum: 0, window: [x0, y0, x1, y1] };
  const w = bx1 - bx0 + 1, h = by1 - by0 + 1;
  const ink = new Float32Array(w * h);
  let sum = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) sum += ink[y * w + x] = diff(bx0 + x, by0 + y);
  return { w, h, ink, sum, window: [x0, y0, x1, y1] };
}

// 0 for the same pixels, 1 for no overlap: sum |a - b| / (sum a + sum b) at the
// best of the nine one-pixel shifts (labels of different runs may land a
// pixel apart); crops of clearly different sizes count as different glyphs.
export function inkDistance(a, b) {
  if (!a.sum || !b.sum) return a.sum === b.sum ? 0 : 1;
  if (Math.abs(a.w - b.w) > 1 || Math.abs(a.h - b.h) > 1) return 1;
  const value = (g, x, y) => (x >= 0 && y >= 0 && x < g.w && y < g.h ? g.ink[y * g.w + x] : 0);
  let best = 1;
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) {
      let sum = 0;
      for (let y = -1; y <= Math.max(a.h, b.h); y++)
        for (let x = -1; x <= Math.max(a.w, b.w); x++) sum += Math.abs(value(a, x, y) - value(b, x + dx, y + dy));
      best = Math.min(best, sum / (a.sum + b.sum));
    }
  return best;
}

// The label checks on two renderings: `cjk` of CJK_SENTENCE, `ref` of
// REFERENCE_SENTENCE, each {png, cells, scale, tokens}.
export function checkLabels(c, what, cjk, ref) {
  const tokensOk = c.check(JSON.stringify(cjk.tokens) === JSON.stringify([...CJK_SENTENCE]) &&
                           JSON.stringify(ref.tokens) === JSON.stringify(REFERENCE_TOKENS),
                           `${what}: one token per character`, JSON.stringify([cjk.tokens, ref.tokens]));
  const font = Math.round(13 * cjk.scale);
  if (!tokensOk || !c.check(cjk.cells.h / cjk.cells.rows >= font && ref.cells.h / ref.cells.rows >= font,
                            `${what}: rows are at least a line high (every label is drawn)`)) return;
  const labels = cjk.tokens.map((_, r) => rowLabelInk(cjk.png, cjk.cells, r, cjk.scale));
  const [question, box, emoji, wo] = ref.tokens.map((_, r) => rowLabelInk(ref.png, ref.cells, r, ref.scale));
  const d = (a, b) => inkDistance(a, b).toFixed(3);
  c.check(question.sum > 0 && box.sum > 0 && inkDistance(question, box) > DIFFERENT,
          `${what}: the references "?" and the box are drawn and differ (distance ${d(question, box)})`);
  c.check(inkDistance(emoji, box) < SAME,
          `${what}: a character the font lacks (U+1F600) is drawn as the box, not "?" (distance to the box ${d(emoji, box)}, to "?" ${d(emoji, question)})`);
  c.check(inkDistance(wo, labels[0]) < SAME,
          `${what}: 我 gives the same pixels in both pages (distance ${d(wo, labels[0])}): the comparison is sound`);
  const bad = labels.flatMap((ink, r) => {
    const problems = [];
    if (ink.sum < 4) problems.push('blank');
    if (inkDistance(ink, question) < DIFFERENT) problems.push(`like "?" (${d(ink, question)})`);
    if (inkDistance(ink, box) < DIFFERENT) problems.push(`like the box (${d(ink, box)})`);
    return problems.length ? [`${cjk.tokens[r]} (row ${r}, window ${ink.window}): ${problems.join(', ')}`] : [];
  });
  c.check(bad.length === 0, `${what}: each of ${labels.length} hanzi labels is a glyph, neither "?" nor the box`,
          bad.join('\n    '));
  let closest = { distance: 1 };
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++) {
      const distance = inkDistance(labels[i], labels[j]);
      if (distance < closest.distance) closest = { distance, pair: cjk.tokens[i] + cjk.tokens[j] };
    }
  c.check(closest.distance > DIFFERENT,
          `${what}: different characters give different pixels (closest pair ${closest.pair}: ${closest.distance.toFixed(3)})`);
}

// ---- the browser test --------------------------------------------------------------

const isFont = (u) => new URL(u).pathname.includes('/fonts/');

async function waitReady(page, timeout) {
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout });
}

// Loads `query`, waits for the font (when `font`) and returns the rendering
// of the head-average heatmap's labels plus what the page fetched.
async function labelsPage(lab, page, url, query, { font = true, shot, artefactsDir, timeout }) {
  const requests = [];
  const listener = (r) => requests.push(r.url());
  page.on('request', listener);
  await page.goto(url + 'index.html?' + query);
  await waitReady(page, timeout);
  if (font)
    await page.waitForFunction(() => ['loaded', 'failed'].includes(window.attentionLabFonts?.status().state), null,
                               { timeout });
  await page.mouse.move(1, 1);  // no hover outline or tooltip over the heatmaps
  await lab.frames(4);
  page.off('request', listener);
  const [layout, state, png, o] = [await lab.layout(), await lab.state(), await lab.screenshot(), await lab.canvasOffset()];
  const fonts = await page.evaluate(() => ({ status: window.attentionLabFonts.status(), atlas: window.attentionLabFonts.atlas() }));
  if (shot) await writeFile(join(artefactsDir, shot), PNG.sync.write(png));
  const scale = layout.device_pixel_ratio ?? 1;
  const hm = layout.heatmaps.find((h) => h.name === 'average');
  const cells = hm && { x: o.left * scale + hm.x, y: o.top * scale + hm.y, w: hm.w, h: hm.h, rows: hm.rows, row0: hm.row0 };
  return { png, cells, scale, tokens: state.tokens, requests, fonts };
}

// Both sentences at one devicePixelRatio, label checks included.
async function cjkAndReference(c, lab, page, url, what, lang, artefactsDir, timeout) {
  const suffix = what.replace(/[^a-z0-9.]+/gi, '_');
  const cjk = await labelsPage(lab, page, url, `${lang}text=${encodeURIComponent(CJK_SENTENCE)}`,
                               { shot: `fonts_cjk_${suffix}.png`, artefactsDir, timeout });
  const fetched = cjk.requests.filter(isFont).map((u) => new URL(u).pathname);
  c.check(fetched.length === 1 && /\/fonts\/cjk\.ttf(\.gz)?$/.test(fetched[0]) && cjk.fonts.status.state === 'loaded',
          `${what}: a Chinese sentence fetches the font once (${fetched.join(', ')}, ${cjk.fonts.status.transferred} bytes ` +
          `transferred, ${cjk.fonts.status.bytes} unpacked, ${cjk.fonts.status.ms} ms)`, JSON.stringify(cjk.fonts));
  const atlas = cjk.fonts.atlas;
  c.check(atlas?.cjk === 'loaded' && atlas.cjk_chars >= CJK_SENTENCE.length,
          `${what}: the atlas holds the characters in use (${atlas?.cjk_chars} beyond Latin-1, ${atlas?.glyphs} glyphs, ` +
          `${atlas?.atlas?.join('x')} texture, ${atlas?.builds} builds, the last in ${atlas?.build_ms} ms)`, JSON.stringify(atlas));
  if (!c.check(!!cjk.cells, `${what}: the head-average heatmap is on screen`)) return;
  const ref = await labelsPage(lab, page, url, `${lang}text=${encodeURIComponent(REFERENCE_SENTENCE)}`,
                               { shot: `fonts_reference_${suffix}.png`, artefactsDir, timeout });
  if (!c.check(!!ref.cells, `${what}: the reference heatmap is on screen`)) return;
  checkLabels(c, what, cjk, ref);
}

// An English page: the font is never fetched, at ready or later.
async function englishPage(c, lab, page, url, timeout) {
  const requests = [];
  const listener = (r) => requests.push(r.url());
  page.on('request', listener);
  await page.goto(url + 'index.html');
  await waitReady(page, timeout);
  // Some time for anything late: the font must not come at all.
  await page.mouse.move(1, 1);
  await lab.frames(30);
  await page.waitForTimeout(500);
  page.off('request', listener);
  const state = await page.evaluate(() => window.attentionLabFonts.status().state);
  c.check(!requests.some(isFont) && state === 'idle', `English page: the CJK font is not fetched (loader ${state})`,
          requests.filter(isFont).join(', '));
}

async function main() {
  const [{ chromium }, { CHROMIUM_ARGS, Lab, READY_TIMEOUT_MS, runBrowserTest }] =
    await Promise.all([import('playwright-core'), import('./lab.mjs')]);
  const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
  if (!webDir || !artefactsDir) {
    console.error('usage: node fonts_e2e.mjs <web build dir> <artefacts dir>');
    process.exit(2);
  }
  const viewport = { width: 1280, height: 800 };
  async function run(c, page, url) {
    const lab = new Lab(page);
    await englishPage(c, lab, page, url, READY_TIMEOUT_MS);
    await cjkAndReference(c, lab, page, url, 'dpr 1', '', artefactsDir, READY_TIMEOUT_MS);
    // HiDPI, with the Chinese interface: a browser of its own (the shared
    // runner's context is fixed at devicePixelRatio 1).
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    try {
      for (const deviceScaleFactor of [1.5, 2]) {
        const context = await browser.newContext({ viewport, deviceScaleFactor, locale: 'en-US' });
        const hidpi = await context.newPage();
        const errors = [];
        hidpi.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        hidpi.on('pageerror', (e) => errors.push(e.message));
        await cjkAndReference(c, new Lab(hidpi), hidpi, url, `dpr ${deviceScaleFactor}`, 'lang=zh&', artefactsDir,
                              READY_TIMEOUT_MS);
        c.check(errors.length === 0, `dpr ${deviceScaleFactor}: no console errors or page errors`, errors.join('\n    '));
        await context.close();
      }
    } finally {
      await browser.close();
    }
  }
  process.exitCode = await runBrowserTest({
    name: 'fonts_e2e', logName: 'fonts', webDir, artefactsDir, viewport, run, logRequests: true,
  });
}

// Run as a script (not when desktop.mjs imports the helpers). Node names the
// main module by its real path, so the script's path is resolved the same way.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(resolve(process.argv[1]))).href) await main();
