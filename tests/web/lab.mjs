// Shared helpers for the browser tests that drive the lab with REAL input
// events (page.mouse / page.keyboard): the Chromium flags that work here, and
// a Lab wrapper that reads window.attentionLab (layout() says where widgets
// are, state() what the UI holds) and clicks/drags widgets by name.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

import { Checks, checkHeatmaps } from './pixels.mjs';
import { serveDirectory } from './static_server.mjs';

export const READY_TIMEOUT_MS = 120_000;  // shaders compile slowly on a busy machine
// WebGL on Mesa's llvmpipe (ANGLE over EGL, the GL the desktop tests and
// Firefox/WebKit use) with the page composited in software: the GPU process
// spent 36 CPU-s on explorer_e2e this way, 69 with SwiftShader (its default
// here, composited or not). The networking flags keep Chromium off outside hosts.
// --enable-logging: the browser's log goes to chrome_debug.log in the
// profile, printed when a test fails (it says why a renderer died).
export const CHROMIUM_ARGS = ['--no-sandbox', '--use-angle=gl-egl', '--ignore-gpu-blocklist', '--disable-gpu-compositing',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-logging'];

// The last lines of a profile's browser log (CHROMIUM_ARGS: --enable-logging).
export async function printBrowserLog(profile, lines = 40) {
  const text = await readFile(join(profile, 'chrome_debug.log'), 'utf8').catch(() => '');
  const last = text.trimEnd().split('\n').filter((l) => !/dbus|D-Bus/.test(l)).slice(-lines).join('\n    ');  // no D-Bus here: noise
  console.log(`  the browser's log (last ${lines} lines):\n    ${last || '(empty)'}`);
}

// compute()/layout()/state() may hand back JSON text or an object; the tests want objects.
export const asObject = (v) => (typeof v === 'string' ? JSON.parse(v) : v);

// A page that draws no frame at all (hidden, or its lab stalled) would keep a
// wait on frames from ever returning, and the test would end at its ctest
// timeout saying nothing. Far beyond any frame's time on a loaded machine,
// the wait fails instead, with what the page's frame scheduler says about why
// (web/frames.js stats()).
const FRAMES_CEILING_MS = 180_000;
// A page whose renderer process died answers nothing more: a wait on it
// fails at once, saying so, rather than at the ceiling. (The three engines'
// pages, tests/web/engines/, are adapters with no crash event: their waits
// end at the ceiling.)
const crashes = new WeakMap();
const never = new Promise(() => {});
function crashOf(page) {
  if (typeof page.once !== 'function') return never;
  if (!crashes.has(page)) {
    crashes.set(page, new Promise((_, fail) => page.once('crash', () => fail(new Error(
      `the page's renderer process crashed (${page.url()}); the browser's log follows the checks`)))));
    crashes.get(page).catch(() => {});  // a page that never crashes never rejects; one that does is reported by its wait
  }
  return crashes.get(page);
}
export async function untilDrawn(page, what, waiting) {
  let timer;
  const ceiling = new Promise((_, fail) => {
    timer = setTimeout(async () => {
      const why = await Promise.race([
        page.evaluate(() => JSON.stringify({ visibility: document.visibilityState, hasFocus: document.hasFocus(),
                                             frames: window.attentionLabFrames?.stats() })).catch((e) => e.message),
        new Promise((ok) => setTimeout(() => ok('the page does not answer either'), 10_000))]);
      fail(new Error(`no frame drawn for ${what} in ${FRAMES_CEILING_MS / 1000} s: ${why}`));
    }, FRAMES_CEILING_MS);
  });
  try {
    return await Promise.race([waiting, ceiling, crashOf(page)]);
  } finally {
    clearTimeout(timer);
  }
}

export class Lab {
  constructor(page) { this.page = page; }
  state() { return this.page.evaluate(() => window.attentionLab.state()).then(asObject); }
  layout() { return this.page.evaluate(() => window.attentionLab.layout()).then(asObject); }
  config() { return this.page.evaluate(() => window.attentionLab.currentConfig()).then(asObject); }
  // Handed over as JSON text: Playwright's own transfer of nested arrays took
  // 151 s for a 512-token, 16-head result (13 s as text).
  compute(config) {
    return this.page.evaluate(async (t) => {
      // A Promise for the model being trained ({poem: {model: 'training'}}: its worker answers).
      const result = await window.attentionLab.compute(t);
      return typeof result === 'string' ? result : JSON.stringify(result);
    }, JSON.stringify(config)).then(JSON.parse);
  }
  // A few animation frames: ImGui reacts to an event on the next frame and
  // some widgets (combo popups, tabs) need one more to settle.
  frames(n = 3) {
    return untilDrawn(this.page, `${n} animation frames`, this.page.evaluate((count) => new Promise((ok) => {
      const step = (k) => (k ? requestAnimationFrame(() => step(k - 1)) : ok());
      step(count);
    }), n));
  }
  // Until the lab has drawn everything asked for so far: the input given, a
  // recompute spread over frames, a tab switch (web/frames.js settled()).
  settled() {
    return untilDrawn(this.page, 'settled()', this.page.evaluate(() => window.attentionLabFrames.settled()));
  }
  async canvasOffset() {
    return this.page.evaluate(() => {
      const r = document.querySelector('canvas').getBoundingClientRect();
      return { left: r.left, top: r.top };
    });
  }
  // A control's CSS rect in page coordinates (from layout().controls).
  async controlRect(name) {
    const layout = await this.layout();
    const r = layout.controls?.[name];
    if (!r) throw new Error(`control ${name} is not on screen; controls: ${Object.keys(layout.controls ?? {})}`);
    const o = await this.canvasOffset();
    return { x: o.left + r.css_x, y: o.top + r.css_y, w: r.css_w, h: r.css_h };
  }
  // Centre of a control in page coordinates.
  async controlCentre(name) {
    const r = await this.controlRect(name);
    return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
  }
  async click(name) {
    await this.clickAt(await this.controlCentre(name));
  }
  // A mouse click with a human hold: move (and let ImGui see the hover), press,
  // hold 60 ms, release. A hold counted in frames would be longer than ImGui's
  // button repeat delay (0.275 s) on a loaded machine, and click "+" twice.
  async clickAt(p) {
    await this.page.mouse.move(p.x, p.y);
    await this.frames(2);
    await this.page.mouse.down();
    await new Promise((ok) => setTimeout(ok, 60));
    await this.page.mouse.up();
    await this.settled();  // what the click started (a recompute may span frames on a busy machine)
  }
  async cellCentre(hm, q, k) {
    const o = await this.canvasOffset();
    return { x: o.left + hm.css_x + (k - hm.col0 + 0.5) * hm.css_w / hm.cols,
             y: o.top + hm.css_y + (q - hm.row0 + 0.5) * hm.css_h / hm.rows };
  }
  // Keys pressed together: `keys` like ['Control', 'a']. The modifiers go
  // down 20 ms apart; the last key is a quick tap, its down and up sent
  // together, which the lab's input queue (src/platform/input_queue.hpp) shows
  // ImGui in two frames: one press. A hold timed here is not what the browser
  // sees when the machine is busy: this process woke 300+ ms late under a
  // full suite, and ImGui rightly repeated the "held" key (ArrowDown moved
  // twice). engines_e2e's quick taps hold keys for 10-30 ms.
  async chord(...keys) {
    const modifiers = keys.slice(0, -1), key = keys.at(-1);
    for (const m of modifiers) {
      await this.page.keyboard.down(m);
      await new Promise((ok) => setTimeout(ok, 20));
    }
    const { keyboard } = this.page;  // WebKit's driver takes one action at a time: its tap is one sequence
    await (keyboard.tap ? keyboard.tap(key) : Promise.all([keyboard.down(key), keyboard.up(key)]));
    for (const m of [...modifiers].reverse()) await this.page.keyboard.up(m);
    await this.settled();
  }
  // The screenshot decoded; the PNG file the browser encoded stays with it
  // (png.file), so saving it (pngFile) needs no second encoding: pngjs took
  // ~1 s for a 1920x1080 image, ~0.5 s for 1280x800, on the critical path.
  // scale 'css': one pixel per CSS pixel on a page with device scale 2
  // (layout()'s css_* then address it, as at scale 1).
  async screenshot(scale = undefined) {
    const file = await this.page.screenshot({ type: 'png', ...(scale ? { scale } : {}) });
    return Object.defineProperty(PNG.sync.read(file), 'file', { value: file });
  }
}

// A screenshot's PNG file: the browser's own bytes when it came from
// Lab.screenshot() (no test draws on a screenshot), else encoded here.
export const pngFile = (png) => png.file ?? PNG.sync.write(png);

// A real key press with modifiers held: lab.chord(...modifiers, key).
export const press = (lab, key, ...modifiers) => lab.chord(...modifiers, key);

// A table's numbers (rows after the header row, cells after the row header).
export const values = (table) => table.rows.slice(1).map((r) => r.slice(1).map(Number));
export function sameMatrix(table, expected, tolerance = 0.5e-4 + 1e-7) {
  const got = values(table);
  if (got.length !== expected.length) return `rows ${got.length} != ${expected.length}`;
  for (let i = 0; i < got.length; ++i) {
    if (got[i].length !== expected[i].length) return `row ${i}: ${got[i].length} cells != ${expected[i].length}`;
    for (let j = 0; j < got[i].length; ++j)
      if (!(Math.abs(got[i][j] - expected[i][j]) <= tolerance)) return `cell ${i},${j}: ${got[i][j]} != ${expected[i][j]}`;
  }
  return '';
}

// Mouse down inside slider `name` at `from` (fraction of its width), move to `to`
// in `steps` moves with `framesPerStep` frames each, release, then wait until the lab has settled (settleFrames 0: not).
export async function dragSlider(lab, page, name, from, to, { steps = 8, framesPerStep = 2, settleFrames = 3 } = {}) {
  const r = await lab.controlRect(name);
  const y = r.y + r.h / 2;
  await page.mouse.move(r.x + r.w * from, y);
  await lab.frames(2);
  await page.mouse.down();
  await lab.frames(2);
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(r.x + r.w * (from + (to - from) * i / steps), y);
    await lab.frames(framesPerStep);
  }
  await page.mouse.up();
  if (settleFrames) await lab.settled();
}

// Opens the lab (url + query), waits until it runs and has settled (settleFrames 0: not).
export async function openLab(page, url, query = '', settleFrames = 4) {
  await page.goto(`${url}index.html${query}`);
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  const lab = new Lab(page);
  if (settleFrames) await lab.settled();
  return lab;
}

// Runs one browser test: serves webDir (serverOptions: serveDirectory's), opens
// a fresh headless Chromium at `viewport`, calls run(checks, page, url, served
// = serveDirectory's result), fails on any console or page
// error, saves the console log as <logName>_console.log beside the
// screenshots; with logRequests, the log ends with every request the page
// made and its status (shows what a page loads, e.g. nothing from outside).
// Returns the process exit code.
export async function runBrowserTest({ name, logName, webDir, artefactsDir, viewport, run, logRequests = false,
                                       locale = 'en-US', contextOptions = {}, serverOptions = {} }) {
  const c = new Checks(name);
  if (!existsSync(join(webDir, 'index.html'))) {
    c.check(false, `web build found in ${webDir}`, 'index.html is missing (build target attention_web first)');
    return c.finish();
  }
  await mkdir(artefactsDir, { recursive: true });
  const served = await serveDirectory(webDir, serverOptions);
  const { server, url, requests } = served;
  const profile = await mkdtemp(join(tmpdir(), 'attn-chromium-'));
  const errors = [];
  const log = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport, deviceScaleFactor: 1,
      locale,  // navigator.language: the page picks its interface language from it
      ...contextOptions,  // e.g. {hasTouch: true, isMobile: true} for a phone
    });
    // The lab then checks its own change tracking on every frame: a URL or an
    // accessible copy that changed without a new generation is a console error
    // (src/platform/web_app.hpp), which fails the test below.
    await context.addInitScript(() => { window.attentionLabCheckGenerations = true; });
    const watchCrash = (p) => p.on('crash', () => errors.push(`a page's renderer crashed: ${p.url()}`));
    context.pages().forEach(watchCrash);
    context.on('page', watchCrash);
    const page = context.pages()[0] ?? await context.newPage();
    page.on('console', (msg) => {
      log.push(`[${msg.type()}] ${msg.text()}`);
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await run(c, page, url, served);
    c.check(errors.length === 0, 'no console errors or page errors', errors.join('\n    '));
  } catch (e) {
    c.check(false, 'the browser test ran to the end', e.stack ?? String(e));
    if (errors.length) console.log('  errors so far:\n    ' + errors.join('\n    '));
  } finally {
    if (c.failures) await printBrowserLog(profile);
    await context?.close().catch(() => {});
    server.close();
    await rm(profile, { recursive: true, force: true });
    const requestLog = logRequests ? '\nrequests:\n' + requests.map((r) => r.join(' ')).join('\n') + '\n' : '';
    await writeFile(join(artefactsDir, `${logName}_console.log`), log.join('\n') + '\n' + requestLog).catch(() => {});
  }
  return c.finish();
}

// checkHeatmaps on each heatmap of a page screenshot on its own:
// [{hm, checked, skipped, failures}]. Layout css_* are relative to the
// canvas, the screenshot is of the whole page.
export async function checkEachHeatmap(lab, png, layout, result) {
  const o = await lab.canvasOffset();
  return layout.heatmaps.map((hm) => ({ hm, ...checkHeatmaps(png, { heatmaps: [hm] }, result,
    (h) => ({ x: o.left + h.css_x, y: o.top + h.css_y, w: h.css_w, h: h.css_h })) }));
}

// Every heatmap on screen against compute(layout.config), once the lab has
// drawn everything asked for (a screenshot taken earlier may show a frame
// from before the change that layout() already describes).
// scale: the screenshot's (Lab.screenshot); a page at device scale 2 checked
// at 'css'. With it, the lab must draw no frame between the layout read and
// the screenshot (a settled lab draws none): checked, so that a mismatch says so.
export async function checkPixels(c, lab, what, png = null, scale = undefined) {
  if (!png) await lab.settled();
  const layout = await lab.layout();
  png ??= await lab.screenshot(scale);
  if (scale) {
    const frame = (await lab.layout()).frame;
    c.check(frame === layout.frame, `${what}: the screenshot is of the frame layout() described`, `frames ${layout.frame} and ${frame}`);
  }
  const result = await lab.compute(layout.config);
  if (!c.check(!result.error, `${what}: compute(layout.config) succeeds`, result.error)) return { layout, png, result };
  const each = await checkEachHeatmap(lab, png, layout, result);
  const checked = each.reduce((n, r) => n + r.checked, 0);
  const failures = each.flatMap((r) => r.failures);
  c.check(failures.length === 0 && (checked > 0 || layout.heatmaps.every((h) => !['average', 'weights', 'scores', 'scaled_scores'].includes(h.source))),
          `${what}: ${checked} heatmap cell centres in ${layout.heatmaps.length} heatmaps have the colour of their value`,
          failures.slice(0, 8).join('\n    '));
  return { layout, png, result };
}
