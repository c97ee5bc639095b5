// The example VitePress site (examples/vitepress), built under a base path,
// as a reader uses it: what vitepress_e2e.mjs (Chromium) and engines_e2e.mjs's
// "vitepress" section (Firefox, WebKit) share. The page is driven with real
// input (the mouse, the wheel, Tab); the figures are read only through the DOM
// and each lab's own attentionLab (same origin: the lab is under docs/public).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { PNG } from 'pngjs';

import { checkHeatmaps } from './pixels.mjs';

export const BASE = '/signal-to-intelligence/';  // the textbook's GitHub Pages path
export const CHAPTER = 'self-attention.html';
// The chapter's figures: a plain iframe (theme=host), and two <AttentionLab>
// components (embed.js: theme 'host', height 'auto' within 240..720, lazy).
export const FIGURES = { fig41: '#fig41', fig42: '#fig42 iframe', mask: '#fig-mask iframe' };
const AUTO_HEIGHT = { min: 240, max: 720 };  // AttentionLab.vue's defaults
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// Where the site is built for a web build: <web dir>/../vitepress/root holds
// it at root + BASE (the test server serves root). ctest builds it once
// (the vitepress_site fixture, tests/web/CMakeLists.txt) and passes
// `--site <root>`; without that, the test builds it first.
export const siteRoot = (webDir) => resolve(webDir, '..', 'vitepress', 'root');

export async function buildSite(webDir) {
  const root = siteRoot(webDir);
  const script = fileURLToPath(new URL('../../examples/vitepress/build.mjs', import.meta.url));
  const started = Date.now();
  await promisify(execFile)(process.execPath, [script, webDir, '--base', BASE, '--site', resolve(webDir, '..', 'vitepress', 'docs'),
    '--out', join(root, BASE)], { maxBuffer: 1 << 24 });
  console.log(`  the example site built in ${((Date.now() - started) / 1000).toFixed(1)} s (examples/vitepress/build.mjs)`);
  return root;
}

// The site to test: the one given (`--site <root>`), else one built now.
export async function siteFor(webDir, argv) {
  const given = argv.includes('--site') ? resolve(argv[argv.indexOf('--site') + 1]) : null;
  const root = given ?? await buildSite(webDir);
  if (!existsSync(join(root, BASE, CHAPTER))) throw new Error(`no ${BASE}${CHAPTER} in ${root}: the site was not built`);
  return root;
}

export async function until(get, done, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (done(value) || Date.now() > end) return value;
    await sleep(100);
  }
}

// Each figure as the page holds it: its iframe's place, src and size, whether
// its lab runs, and the theme it draws (layout().theme).
export function figures(page) {
  return page.evaluate((selectors) => Object.fromEntries(Object.entries(selectors).map(([name, s]) => {
    const f = document.querySelector(s);
    if (!f) return [name, null];
    const r = f.getBoundingClientRect();
    let ready = null, theme = null, font = null;
    try {
      ready = f.contentDocument?.body?.dataset.ready ?? null;
      if (ready === '1') theme = f.contentWindow.attentionLab.layout().theme;
      font = f.contentWindow.attentionLabFonts?.status().state ?? null;
    } catch (e) { /* not loaded yet */ }
    return [name, { src: f.getAttribute('src'), top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height,
                    ready, theme, font }];
  })), FIGURES);
}

// A click with a human hold on an element of the host page.
export async function clickElement(page, selector) {
  const r = await page.evaluate((s) => {
    const b = document.querySelector(s)?.getBoundingClientRect();
    return b && { x: b.left + b.width / 2, y: b.top + b.height / 2 };
  }, selector);
  if (!r) throw new Error(`${selector} is not on the page`);
  await page.mouse.move(r.x, r.y);
  await sleep(50);
  await page.mouse.down();
  await sleep(60);
  await page.mouse.up();
}

// The contents page, then the chapter by its link (VitePress's client-side
// navigation: the page is not loaded again).
export async function openChapter(c, page, url) {
  await page.goto(url + BASE.slice(1));
  // Hydrated (Vue marks its container): from then on VitePress's router takes the click.
  await page.waitForFunction(() => Boolean(document.querySelector('.vp-doc a[href$="self-attention.html"]') && document.getElementById('app')?.__vue_app__),
                             null, { timeout: 30_000 });
  await page.evaluate(() => { window.stayedLoaded = true; });
  await clickElement(page, '.vp-doc a[href$="self-attention.html"]');
  await page.waitForFunction(() => location.pathname.endsWith('/self-attention.html') && Boolean(document.getElementById('fig-mask')),
                             null, { timeout: 30_000 });
  c.check(await page.evaluate(() => window.stayedLoaded === true),
          'the contents page\'s link opens the chapter by client-side navigation (the page is not loaded again)');
}

// Lazy figures: at the top of the chapter the two embed.js figures below the
// fold have no src; the wheel (over the text) brings each within half a
// window of the screen, and only then does its lab load. Returns when all run.
export async function scrollFiguresIn(c, page, viewportHeight) {
  // The components make their iframes once mounted (and embed.js loaded).
  const start = await until(() => figures(page), (f) => Object.values(f).every(Boolean));
  // The plain iframe is the browser's own lazy loading (each has its own distance).
  const far = Object.entries(start).filter(([name, f]) => name !== 'fig41' && f && f.top > viewportHeight * 1.5);
  c.check(far.length >= 1 && far.every(([, f]) => !f.src),
          `figures more than half a window below the screen have not loaded (${far.map(([n]) => n).join(', ') || 'none that far'})`,
          JSON.stringify(start));
  const loadedAt = {};
  // Over the chapter's column (the sidebar scrolls itself); a figure passing under the mouse passes the wheel on.
  await page.mouse.move((start.fig41.left + start.fig41.right) / 2, viewportHeight / 2);
  for (let i = 0; i < 30; ++i) {
    const now = await figures(page);
    for (const [name, f] of Object.entries(now)) if (f.src && !(name in loadedAt)) loadedAt[name] = f.top;
    if (Object.values(now).every((f) => f.ready === '1')) break;
    if (Object.values(now).every((f) => f.src)) await sleep(500);  // all asked for: wait for them to run
    else await page.mouse.wheel(0, 300);
    await sleep(250);
  }
  const early = far.filter(([name]) => !(loadedAt[name] <= viewportHeight * 1.5 + 300 + 1));
  c.check(far.length > 0 && early.length === 0,
          'each loaded once the wheel brought it near: within half a window (and a wheel step) of the screen',
          JSON.stringify(loadedAt));
  // Running, with the Chinese font the figures ask for (fonts.js) in their glyphs.
  const ready = await until(() => figures(page), (all) => Object.values(all).every((f) => f.ready === '1' && f.font === 'loaded'), 120_000);
  c.check(Object.values(ready).every((f) => f.ready === '1' && f.font === 'loaded'),
          'every figure of the chapter runs, with its Chinese font', JSON.stringify(ready));
}

// The mean colour of a figure's inner margin (a few pixels inside its iframe)
// in a screenshot of the page: what the reader sees of its theme.
async function figureLuminance(page) {
  const png = PNG.sync.read(await page.screenshot());
  const boxes = await figures(page);
  const out = {};
  for (const [name, f] of Object.entries(boxes)) {
    const y0 = Math.max(0, Math.round(f.top) + 3), y1 = Math.min(png.height, Math.round(f.bottom) - 3);
    if (y1 - y0 < 6) continue;  // off-screen
    let sum = 0, n = 0;
    for (const y of [y0, y0 + 1, y1 - 2, y1 - 1]) {
      for (let x = Math.round(f.left) + 3; x < Math.round(f.left) + 40; ++x) {
        const i = (y * png.width + x) * 4;
        sum += 0.2126 * png.data[i] + 0.7152 * png.data[i + 1] + 0.0722 * png.data[i + 2];
        ++n;
      }
    }
    out[name] = n ? sum / n / 255 : null;
  }
  return out;
}

// VitePress's own appearance switch, clicked with the mouse: every figure
// follows (the labs' drawn theme, and the pixels of the ones on screen), and back.
export async function themeSwitch(c, page, save) {
  const themes = async () => Object.fromEntries(Object.entries(await figures(page)).map(([n, f]) => [n, f.theme]));
  const before = await until(() => themes(), (t) => Object.values(t).every((v) => v === 'light'));
  c.check(Object.values(before).every((v) => v === 'light'), 'in the light site every figure draws light', JSON.stringify(before));
  await page.evaluate(() => window.scrollTo(0, document.getElementById('fig42').offsetTop - 60));
  await sleep(400);
  const light = await figureLuminance(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await clickElement(page, '.VPNavBarAppearance .VPSwitchAppearance');
  const dark = await until(() => themes(), (t) => Object.values(t).every((v) => v === 'dark'));
  const html = await page.evaluate(() => document.documentElement.className);
  c.check(html.includes('dark') && Object.values(dark).every((v) => v === 'dark'),
          'VitePress\'s appearance switch (clicked) turns every figure dark: the plain iframe (theme=host) and both components',
          `${html}: ${JSON.stringify(dark)}`);
  await page.evaluate(() => window.scrollTo(0, document.getElementById('fig42').offsetTop - 60));
  // The labs draw the new theme in their next frames (WebKit on a loaded machine: seconds).
  const darkPixels = await until(() => figureLuminance(page), (l) => Object.values(l).every((v) => v < 0.35));
  if (save) await save('dark', await page.screenshot());
  const shown = Object.keys(darkPixels).filter((n) => light[n] !== undefined);
  c.check(shown.length >= 1 && shown.every((n) => light[n] > 0.6 && darkPixels[n] < 0.35),
          `... on screen too: the figures' margins go from light to dark (${shown.map((n) => `${n} ${light[n].toFixed(2)} -> ${darkPixels[n].toFixed(2)}`).join(', ')})`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await clickElement(page, '.VPNavBarAppearance .VPSwitchAppearance');
  const back = await until(() => themes(), (t) => Object.values(t).every((v) => v === 'light'));
  c.check(Object.values(back).every((v) => v === 'light'), 'clicked again, every figure is light again', JSON.stringify(back));
}

// height 'auto': each component figure is as tall as its lab's content wants,
// within AttentionLab.vue's bounds: its heatmaps all inside the iframe, and no
// more than a little empty space below them unless the bound cut it.
export async function autoHeights(c, page, what) {
  for (const name of ['fig42', 'mask']) {
    const info = await page.evaluate((s) => {
      const f = document.querySelector(s);
      const layout = f.contentWindow.attentionLab.layout();
      const rects = [...layout.heatmaps, ...Object.values(layout.controls ?? {})];
      return { height: f.getBoundingClientRect().height, wanted: layout.wanted_height / (layout.device_pixel_ratio || 1),
               bottom: Math.max(...rects.map((r) => r.css_y + r.css_h)), n: rects.length };
    }, FIGURES[name]);
    const { min, max } = AUTO_HEIGHT;
    const told = Math.min(Math.max(Math.ceil(info.wanted), min), max);
    const atMax = info.height >= max - 0.5;
    c.check(info.n > 0 && Math.abs(info.height - told) <= 1 && (info.bottom <= info.height + 0.5 || atMax) &&
            (atMax || info.bottom >= info.height - 60),
            `${what}: the ${name} figure is as tall as its content wants (${info.height.toFixed(0)} px: the lab wants ` +
            `${info.wanted.toFixed(0)}, bounds ${min}..${max}; its lowest plot or control ends at ${info.bottom.toFixed(0)})`);
  }
}

// The wheel over a figure scrolls the page (the figure was not clicked into).
export async function wheelOverFigure(c, page) {
  await page.evaluate(() => window.scrollTo(0, document.getElementById('fig-mask').offsetTop - 100));
  await sleep(300);
  const f = (await figures(page)).mask;
  await page.mouse.move((f.left + f.right) / 2, f.top + 100);
  const y0 = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, -300);
  const y1 = await until(() => page.evaluate(() => window.scrollY), (y) => y < y0 - 100, 10_000);
  c.check(y1 < y0 - 100, `the wheel over a figure scrolls the chapter (${y0} -> ${y1})`);
}

// The figure the page's buttons drive: each button (clicked) sets its mask.
export async function maskButtons(c, page) {
  for (const [label, mask] of [['无掩码', 'none'], ['因果掩码', 'causal']]) {
    const index = await page.evaluate((l) => Array.from(document.querySelectorAll('.mask-buttons button')).findIndex((b) => b.textContent === l), label);
    await page.evaluate(() => window.scrollTo(0, document.querySelector('.mask-buttons').offsetTop - 200));
    await sleep(200);
    await clickElement(page, `.mask-buttons button:nth-of-type(${index + 1})`);
    const got = await until(() => page.evaluate((s) => document.querySelector(s).contentWindow.attentionLab.get().mask, FIGURES.mask),
                            (m) => m === mask, 10_000);
    const status = await until(() => page.evaluate(() => document.getElementById('mask-status').textContent), (t) => t.includes(label), 10_000);
    const pressed = await page.evaluate((i) => document.querySelectorAll('.mask-buttons button')[i].getAttribute('aria-pressed'), index);
    c.check(got === mask && status.includes(label) && pressed === 'true',
            `the page's "${label}" button sets the figure's mask through set() (mask ${got}, "${status}", aria-pressed ${pressed})`);
  }
}

// The figure the buttons drive, as the chapter shows it: every heatmap cell
// in a screenshot of the page has the colour of its value in the lab's
// compute() of what it shows (a blank or stale canvas fails).
export async function maskPixels(c, page, save) {
  await page.evaluate((s) => window.scrollTo(0, document.querySelector(s).getBoundingClientRect().top + window.scrollY - 80), FIGURES.mask);
  // A screenshot can come before the lab drew its last change (WebKit on a
  // loaded machine): what stays wrong over three shots a second apart fails.
  for (let attempt = 1; ; ++attempt) {
    await sleep(attempt === 1 ? 600 : 1000);
    const failures = await maskShot(c, page, save, attempt === 3);
    if (!failures) return;
    console.log(`  [retake ${attempt}] the driven figure: ${failures}; shot again`);
  }
}

// One screenshot's check; returns the first failure when `final` is false, else checks.
async function maskShot(c, page, save, final) {
  const { layout, result, origin } = await page.evaluate((s) => {
    const iframe = document.querySelector(s);
    const lab = iframe.contentWindow.attentionLab;
    const l = lab.layout();
    const r = iframe.getBoundingClientRect();
    const canvas = iframe.contentDocument.querySelector('canvas').getBoundingClientRect();
    return { layout: l, result: lab.compute(JSON.stringify(l.config)),
             origin: { x: r.x + iframe.clientLeft + canvas.x, y: r.y + iframe.clientTop + canvas.y } };
  }, FIGURES.mask);
  const png = await page.screenshot();
  if (save) await save('mask', png);
  const { checked, failures } = checkHeatmaps(PNG.sync.read(png), layout, result,
    (h) => ({ x: origin.x + h.css_x, y: origin.y + h.css_y, w: h.css_w, h: h.css_h }));
  if (!final && (checked === 0 || failures.length)) return failures[0] ?? 'no cell checked';
  c.check(checked > 0 && failures.length === 0,
          `the figure the buttons drive, in the chapter: ${checked} heatmap cell centres have the colour of their value`,
          failures.slice(0, 6).join('\n    '));
}

// Away to the contents page by its nav link and back (both client-side): no
// iframe stays behind, and back in the chapter the figures off-screen draw
// no frames. Returns with the chapter open again, its figures running.
export async function awayAndBack(c, page, viewportHeight) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await clickElement(page, '.VPNavBarMenu a[href$="/signal-to-intelligence/"], .VPNavBarMenu a[href$="/signal-to-intelligence/index.html"]');
  await page.waitForFunction(() => !location.pathname.endsWith('self-attention.html'), null, { timeout: 15_000 });
  await sleep(500);
  const left = await page.evaluate(() => ({ iframes: document.querySelectorAll('iframe').length, stayed: window.stayedLoaded === true }));
  c.check(left.stayed && left.iframes === 0, 'on the contents page (client-side navigation) no iframe of the chapter is left', JSON.stringify(left));
  await page.evaluate(() => history.back());
  await page.waitForFunction(() => location.pathname.endsWith('self-attention.html') && Boolean(document.getElementById('fig-mask')),
                             null, { timeout: 15_000 });
  await sleep(300);
  await page.evaluate(() => window.scrollTo(0, 0));
  await scrollFiguresIn(c, page, viewportHeight);
  const count = await page.evaluate(() => document.querySelectorAll('iframe').length);
  c.check(count === 3, `back in the chapter: its three figures, once each (${count} iframes)`);
  // Off-screen figures draw nothing: each iframe's requestAnimationFrame callbacks over 2 s at the top.
  await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(800);
  await page.evaluate(() => {
    for (const f of document.querySelectorAll('iframe')) {
      const w = f.contentWindow;
      w.rafCallbacks = 0;
      const raf = w.requestAnimationFrame.bind(w);
      w.requestAnimationFrame = (cb) => raf((t) => { w.rafCallbacks++; cb(t); });
    }
  });
  await sleep(2000);
  const frames = await page.evaluate((selectors) => Object.fromEntries(Object.entries(selectors).map(([n, s]) => {
    const f = document.querySelector(s);
    const r = f.getBoundingClientRect();
    return [n, { callbacks: f.contentWindow.rafCallbacks, onScreen: r.bottom > 0 && r.top < innerHeight }];
  })), FIGURES);
  const offScreen = Object.entries(frames).filter(([, f]) => !f.onScreen);
  c.check(offScreen.length >= 1 && offScreen.every(([, f]) => f.callbacks === 0),
          `figures off-screen draw no frames in 2 s (${JSON.stringify(frames)})`);
}
