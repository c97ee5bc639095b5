// Browser test of the lab's first download and of what comes after it: the
// main module in two parts (scripts/split_wasm.mjs), the views' own modules.
//
//   node tests/web/first_download_e2e.mjs <web build dir> <artefacts dir>
//
// Checks:
//  1. an English page fetches at most 350 KiB (358,400 bytes) until it says
//     ready: every response whose fetch began before main.js set
//     body.dataset.ready, each gzipped at level 9 as a static host serves it
//     (the CJK font excluded: an English page never asks for it). The count
//     is printed in bytes; above the budget, with its ten largest
//     contributors: the files, and the main module's sections and largest
//     functions (size_report.mjs).
//  2. the main module's deferred part is fetched after ready, once, and the
//     lab says so (body.dataset.code, state().views_code).
//  3. the deferred part held back, as on a slow connection: the first view
//     works (a click on a heatmap cell selects its query); a click on the
//     Scaling lab's tab shows the loading state at once and the lab keeps
//     drawing; once the part arrives the figure is drawn, at the d_k the
//     URL asked for.
//  4. the why-attention view opened by a URL while its module is held back:
//     the accessible copy names the view and says it is loading, and the
//     URL's settings stand (get()); once the module arrives, the view runs.
import { realpathSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Lab, openLab, runBrowserTest } from './lab.mjs';
import { gzipBytes, sizeReport } from './size_report.mjs';

const BUDGET_BYTES = 350 * 1024;  // 358,400 bytes
const isFont = (u) => /\/fonts\//.test(new URL(u).pathname);

// A request held until release(): a slow connection, for one file.
async function holdBack(page, pattern) {
  let release;
  const released = new Promise((ok) => { release = ok; });
  let asked = 0;
  await page.route(pattern, async (route) => {
    ++asked;
    await released;
    await route.continue();
  });
  return { release, asked: () => asked, done: () => page.unroute(pattern) };
}

// The ink of a region of a screenshot: the share of pixels that differ from
// its most common colour (the panel's background).
function ink(png, { x, y, w, h }) {
  const counts = new Map();
  const x0 = Math.max(0, Math.round(x)), y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(png.width, Math.round(x + w)), y1 = Math.min(png.height, Math.round(y + h));
  for (let yy = y0; yy < y1; ++yy) {
    for (let xx = x0; xx < x1; ++xx) {
      const i = (yy * png.width + xx) * 4;
      const key = (png.data[i] << 16) | (png.data[i + 1] << 8) | png.data[i + 2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const total = (x1 - x0) * (y1 - y0);
  return total ? 1 - Math.max(...counts.values()) / total : 0;
}

async function firstDownload(c, page, url, webDir, artefactsDir) {
  const requests = [];
  const listener = (r) => requests.push(r.url());
  page.on('request', listener);
  await page.goto(url + 'index.html');
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: 120_000 });
  const readyAt = await page.evaluate(() => Number(document.body.dataset.readyAt));
  await page.waitForFunction(() => document.body.dataset.code === 'ready', null, { timeout: 120_000 });
  page.off('request', listener);
  const started = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => [e.name, e.startTime]));
  const before = new Set(started.filter(([, t]) => t <= readyAt).map(([name]) => name));
  const path = (u) => decodeURIComponent(new URL(u).pathname).replace(/^\//, '').replace(/\/$/, '/index.html') || 'index.html';
  const own = requests.filter((u) => new URL(u).origin === new URL(url).origin);
  c.check(own.length === requests.length, 'the page fetches only from its own host',
          requests.filter((u) => !own.includes(u)).join(', '));
  const first = own.filter((u) => (before.has(u) || path(u) === 'index.html') && !isFont(u));
  const files = first.map(path);
  const total = files.reduce((sum, file) => sum + gzipBytes(readFileSync(join(webDir, file))), 0);
  const report = sizeReport(webDir, files, 10);
  await writeFile(join(artefactsDir, 'first_download.txt'), report.join('\n') + '\n');
  console.log(`first download: ${total} bytes gzipped (budget ${BUDGET_BYTES}) in ${files.length} responses`);
  c.check(total <= BUDGET_BYTES, `an English page's first download is ${total} bytes gzipped, within ${BUDGET_BYTES}`,
          'its largest contributors:\n    ' + report.join('\n    '));
  c.check(!own.some(isFont), 'an English page does not fetch the CJK font', own.filter(isFont).join(', '));

  const deferred = own.filter((u) => path(u) === 'attention_web.deferred.wasm');
  c.check(deferred.length === 1 && !first.includes(deferred[0]),
          'the main module\'s deferred part is fetched once, after ready',
          `fetched ${deferred.length} times; before ready: ${files.join(', ')}`);
  const state = await page.evaluate(() => window.attentionLab.state());
  c.check(state.views_code.load === 'ready', 'the lab knows its views\' code is there', JSON.stringify(state.views_code));
}

async function slowScalingLab(c, lab, page, url, artefactsDir) {
  // Where the tab and a heatmap cell are, from a page with all its code.
  const query = '?dk=256';
  const full = await openLab(page, url, query);
  const tab = await full.controlCentre('tab_scaling');
  const layout = await full.layout();
  const heatmap = layout.heatmaps.find((h) => h.head === -1) ?? layout.heatmaps[0];
  const cell = await full.cellCentre(heatmap, 2, 1);
  const o = await full.canvasOffset();
  // Where the head average's cells are: the heatmap's colours now, the
  // Scaling lab's plots later, nothing but the panel's background between.
  const area = { x: o.left + heatmap.css_x, y: o.top + heatmap.css_y, w: heatmap.css_w, h: heatmap.css_h };

  const held = await holdBack(page, '**/attention_web.deferred.wasm');
  try {
    await page.goto(`${url}index.html${query}`);
    await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: 120_000 });
    await lab.settled();
    const before = await lab.screenshot();
    c.check(ink(before, area) > 0.5, 'before its deferred part arrives: the heatmaps are drawn',
            `ink ${ink(before, area).toFixed(3)}`);
    await lab.clickAt(cell);  // state() below tells whether it selected query 2
    // The tab, clicked as clickAt does; the lab is not settled until the view
    // is drawn, so the wait is for its loading state on the screen.
    await page.mouse.move(tab.x, tab.y);
    await page.mouse.down();
    await new Promise((ok) => setTimeout(ok, 60));
    await page.mouse.up();
    let loading = await lab.screenshot();
    const deadline = Date.now() + 180_000;
    while (ink(loading, area) >= 0.02 && Date.now() < deadline) loading = await lab.screenshot();
    await writeFile(join(artefactsDir, 'first_download_loading.png'), loading.file);
    c.check(held.asked() >= 1, 'the deferred part was asked for (and is held back)', `asked ${held.asked()} times`);
    c.check(ink(loading, area) < 0.02, 'the Scaling lab opens on its loading state at once',
            `ink ${ink(loading, area).toFixed(3)} where the heatmap was (${ink(before, area).toFixed(3)} before)`);
  } finally {
    held.release();
  }
  await page.waitForFunction(() => document.body.dataset.code === 'ready', null, { timeout: 120_000 });
  await lab.settled();
  const drawn = await lab.screenshot();
  await writeFile(join(artefactsDir, 'first_download_scaling.png'), drawn.file);
  const state = await lab.state();
  c.check(state.selected_query === 2, 'the first view took a click while the rest of the code was on its way',
          `selected query ${state.selected_query}`);
  c.check(state.view === 'scaling' && state.scaling.d_k === 256,
          'once its code arrives, the Scaling lab is drawn, at the d_k the URL asked for',
          JSON.stringify({ view: state.view, d_k: state.scaling.d_k }));
  c.check(ink(drawn, area) > 0.05, 'the Scaling lab\'s figure is drawn', `ink ${ink(drawn, area).toFixed(3)}`);
  await held.done();
}

async function slowWhyView(c, lab, page, url) {
  const held = await holdBack(page, '**/attention_why.wasm');
  try {
    await page.goto(`${url}index.html?view=why&why_panel=qkv&why_seed=7`);
    await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: 120_000 });
    await page.waitForFunction(() => document.getElementById('a11y-summary')?.textContent, null, { timeout: 120_000 });
    const copy = await page.evaluate(() => ({
      title: document.getElementById('a11y-title').textContent,
      summary: document.getElementById('a11y-summary').textContent,
    }));
    c.check(/Why attention/.test(copy.title) && /Loading the experiments/.test(copy.summary),
            'the accessible copy names the why view and says its module is loading', JSON.stringify(copy));
    const fields = await page.evaluate(() => window.attentionLab.get());
    c.check(fields.view === 'why' && fields.why_panel === 'qkv' && fields.why_seed === 7,
            'the URL\'s settings of the why view stand before its module loads',
            JSON.stringify({ view: fields.view, why_panel: fields.why_panel, why_seed: fields.why_seed }));
  } finally {
    held.release();
  }
  await page.waitForFunction(() => window.attentionLab.state().why.load === 'ready', null, { timeout: 120_000 });
  await lab.settled();
  const summary = await page.evaluate(() => document.getElementById('a11y-summary').textContent);
  c.check(!/Loading/.test(summary), 'once its module arrives, the why view runs', summary);
  await held.done();
}

async function main() {
  const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
  if (!webDir || !artefactsDir) {
    console.error('usage: node first_download_e2e.mjs <web build dir> <artefacts dir>');
    process.exit(2);
  }
  process.exitCode = await runBrowserTest({
    name: 'first_download_e2e', logName: 'first_download', webDir, artefactsDir, viewport: { width: 1280, height: 800 },
    logRequests: true,
    run: async (c, page, url) => {
      const lab = new Lab(page);
      await firstDownload(c, page, url, webDir, artefactsDir);
      await slowScalingLab(c, lab, page, url, artefactsDir);
      await slowWhyView(c, lab, page, url);
    },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(resolve(process.argv[1]))).href) await main();
