// Browser end-to-end test of the web build.
//
//   node tests/web/e2e.mjs <web build dir> <artefacts dir>
//
// Serves the build (index.html + attention_web.js/.wasm) on 127.0.0.1, opens
// it in headless Chromium (Debian's, SwiftShader WebGL2) at 1280x800, and
// checks: the page reports ready with no console or page errors; the canvas
// shows a drawn UI; window.attentionLab.compute() answers configs and
// returns {"error"} for bad ones; and every heatmap cell listed by
// window.attentionLab.layout() has the colour of its value in
// compute(layout.config). Saves the screenshot and layout to the artefacts dir.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

import { Checks, checkHeatmaps, countDistinctColours } from './pixels.mjs';
import { serveDirectory } from './static_server.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}
const VIEWPORT = { width: 1280, height: 800 };
const READY_TIMEOUT_MS = 120_000;  // SwiftShader compiles shaders slowly on a busy machine
const CHROMIUM_ARGS = ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

// compute()/layout() may hand back JSON text or an object; the tests want objects.
const asObject = (v) => (typeof v === 'string' ? JSON.parse(v) : v);
const labCompute = async (page, config) =>
  asObject(await page.evaluate((text) => window.attentionLab.compute(text), JSON.stringify(config)));
const labLayout = async (page) => asObject(await page.evaluate(() => window.attentionLab.layout()));
const nextFrames = (page) => page.evaluate(
  () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));

async function run(c, page, url, errors) {
  await page.goto(url + 'index.html');
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  c.check(true, 'page reports document.body.dataset.ready == "1"');
  c.check(await page.evaluate(() => typeof window.attentionLab?.compute === 'function' &&
                                    typeof window.attentionLab?.layout === 'function'),
          'window.attentionLab has compute() and layout()');
  await nextFrames(page);

  // ---- compute(): good and bad configs --------------------------------------------
  const fig = await labCompute(page, { experiment: 'fig41' });
  c.check(['tokens', 'scores', 'scaled_scores', 'weights', 'output', 'average', 'stats', 'top_keys']
            .every((k) => k in fig) && fig.weights.length === 4 && fig.average.length === 8,
          'compute({experiment: "fig41"}) returns 4 heads of 8x8 weights and the average',
          JSON.stringify(fig).slice(0, 200));
  const text = await labCompute(page, { text: 'The cat sat on the mat', d_model: 8, heads: 2, mask: 'causal' });
  c.check(text.tokens?.length === 6 && text.weights?.[0]?.[0]?.[1] === 0,
          'compute(text, causal) tokenizes and masks the future', JSON.stringify(text).slice(0, 200));
  for (const [what, bad, field] of [
    ['heads not dividing d_model', { text: 'a b', d_model: 32, heads: 5 }, 'heads'],
    ['unknown field', { text: 'a b', colour: 1 }, 'colour'],
    ['ragged Q', { Q: [[1, 2], [3]], K: [[1, 2]], V: [[1]] }, 'Q'],
  ]) {
    const r = await labCompute(page, bad);
    c.check(typeof r.error === 'string' && r.error.includes(field), `compute(${what}) returns {"error"} naming ${field}`,
            JSON.stringify(r));
  }
  const notJson = asObject(await page.evaluate(() => window.attentionLab.compute('{"Q": [[1e999]]')));
  c.check(typeof notJson.error === 'string', 'compute(invalid JSON text) returns {"error"}', JSON.stringify(notJson));

  // ---- the picture -------------------------------------------------------------------
  const layoutBefore = await labLayout(page);
  const png = PNG.sync.read(await page.screenshot({ type: 'png' }));
  const layout = await labLayout(page);
  await writeFile(join(artefactsDir, 'web_screenshot.png'), PNG.sync.write(png));
  await writeFile(join(artefactsDir, 'web_layout.json'), JSON.stringify(layout, null, 2));
  c.check(png.width === VIEWPORT.width && png.height === VIEWPORT.height,
          `screenshot is ${VIEWPORT.width}x${VIEWPORT.height}`, `${png.width}x${png.height}`);
  const colours = countDistinctColours(png);
  c.check(colours >= 64, 'the canvas is not blank (many distinct colours)', `${colours} colours`);
  c.check(JSON.stringify(layoutBefore) === JSON.stringify(layout), 'layout is stable across the screenshot');

  // ---- every heatmap cell has the colour of its value -------------------------------
  c.check(Array.isArray(layout?.heatmaps) && layout.heatmaps.length > 0, 'layout() lists heatmaps',
          JSON.stringify(layout).slice(0, 200));
  if (!layout?.heatmaps?.length) return;
  const result = await labCompute(page, layout.config);
  c.check(!result.error, 'compute(layout.config) succeeds', result.error);
  // css_* are relative to the canvas; the screenshot is of the whole page.
  const canvas = await page.evaluate(() => {
    const r = document.querySelector('canvas')?.getBoundingClientRect();
    return r ? { left: r.left, top: r.top } : null;
  });
  c.check(canvas !== null, 'the page has a canvas');
  const offset = canvas ?? { left: 0, top: 0 };
  for (const hm of layout.heatmaps) {
    const { checked, skipped, failures } = checkHeatmaps(png, { heatmaps: [hm] }, result,
      (h) => ({ x: offset.left + h.css_x, y: offset.top + h.css_y, w: h.css_w, h: h.css_h }));
    if (skipped) continue;  // a source compute() does not return
    c.check(failures.length === 0 && checked === hm.rows * hm.cols,
            `heatmap ${hm.name} (${hm.source}${hm.head >= 0 ? ' ' + hm.head : ''}, ${hm.colormap}): ` +
            `${checked} cell centres have the colormap colour of their value`, failures.join('\n    '));
  }
  c.check(errors.length === 0, 'no console errors or page errors', errors.join('\n    '));
}

async function main() {
  const c = new Checks('web_e2e');
  if (!existsSync(join(webDir, 'index.html'))) {
    c.check(false, `web build found in ${webDir}`, 'index.html is missing (build target attention_web first)');
    return c.finish();
  }
  await mkdir(artefactsDir, { recursive: true });
  const { server, url, requests } = await serveDirectory(webDir);
  const profile = await mkdtemp(join(tmpdir(), 'attn-chromium-'));
  const errors = [];
  const log = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS,
      viewport: VIEWPORT, deviceScaleFactor: 1,
    });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('console', (msg) => {
      log.push(`[${msg.type()}] ${msg.text()}`);
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await run(c, page, url, errors);
  } catch (e) {
    c.check(false, 'the browser test ran to the end', e.stack ?? String(e));
    if (errors.length) console.log('  errors so far:\n    ' + errors.join('\n    '));
  } finally {
    await context?.close().catch(() => {});
    server.close();
    await rm(profile, { recursive: true, force: true });
    await writeFile(join(artefactsDir, 'web_console.log'),
                    log.join('\n') + '\n\nrequests:\n' + requests.map((r) => r.join(' ')).join('\n') + '\n')
      .catch(() => {});
  }
  return c.finish();
}

process.exitCode = await main();
