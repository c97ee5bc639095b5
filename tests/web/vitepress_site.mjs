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

// A height 'auto' figure as the page holds it and as its lab last laid it
// out: the iframe's height, the height the lab wants (CSS px), the size of the
// frame it last drew (CSS px) and where that frame's lowest plot or control ends.
export function laidOut(page, name) {
  return page.evaluate((s) => {
    const f = document.querySelector(s);
    const r = f.getBoundingClientRect();
    const layout = f.contentWindow.attentionLab.layout();
    const ratio = layout.device_pixel_ratio || 1;
    const rects = [...layout.heatmaps, ...Object.values(layout.controls ?? {})];
    return { height: r.height, width: r.width, top: r.top, viewport: innerHeight, wanted: layout.wanted_height / ratio,
             drawn: { w: layout.framebuffer.w / ratio, h: layout.framebuffer.h / ratio },
             bottom: Math.max(...rects.map((h) => h.css_y + h.css_h)), n: rects.length };
  }, FIGURES[name]);
}

// The height embed.js gives a figure whose lab wants `wanted` (AttentionLab.vue's bounds).
const told = (wanted) => Math.min(Math.max(Math.ceil(wanted), AUTO_HEIGHT.min), AUTO_HEIGHT.max);

// Whether the figure's lab has laid its content out at the figure's present
// size and the figure is as tall as that layout wants: what a reader sees
// once the lab and embed.js have done their part.
export const settledHeight = (f) => Math.abs(f.drawn.w - f.width) <= 1 && Math.abs(f.drawn.h - f.height) <= 1 &&
  Math.abs(f.height - told(f.wanted)) <= 1;

// The figure's height checked once it has settled (or the wait ran out):
// as tall as its content wants, within AttentionLab.vue's bounds, its
// heatmaps and controls all inside the iframe, and no more than a little
// empty space below them unless the bound cut it.
async function checkHeight(c, page, name, what) {
  const f = await until(() => laidOut(page, name), settledHeight, 60_000);
  const { min, max } = AUTO_HEIGHT;
  const atMax = f.height >= max - 0.5;
  c.check(f.n > 0 && settledHeight(f) && (f.bottom <= f.height + 0.5 || atMax) && (atMax || f.bottom >= f.height - 60),
          `${what}: the ${name} figure is as tall as its content wants (${f.height.toFixed(0)} px: the lab wants ` +
          `${f.wanted.toFixed(0)}, bounds ${min}..${max}; laid out at ${f.drawn.w.toFixed(0)}x${f.drawn.h.toFixed(0)}, ` +
          `its lowest plot or control ends at ${f.bottom.toFixed(0)})`);
  return f;
}

// height 'auto': each component figure, once its lab has laid its content out
// at the figure's size, is as tall as that content wants.
export async function autoHeights(c, page, what) {
  for (const name of ['fig42', 'mask']) await checkHeight(c, page, name, what);
}

// A figure below the screen whose width changes (a reader's window, a page's
// own layout) lays its content out again at once and tells the page the
// height that wants, so it is never cut off when the reader gets there: the
// mask figure narrowed while off-screen, and widened back.
export async function offScreenResize(c, page) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const before = await checkHeight(c, page, 'mask', 'before the width changes');
  for (const [width, what] of [['420px', 'narrowed to 420 px'], ['', 'widened back']]) {
    await page.evaluate((w) => { document.getElementById('fig-mask').style.maxWidth = w; }, width);
    const f = await checkHeight(c, page, 'mask', `off-screen, ${what}`);
    c.check(f.top > f.viewport, `... while below the screen (its top at ${f.top.toFixed(0)}, the window ${f.viewport} px tall)`);
    if (width) {
      c.check(f.height > before.height + 50, `... and, two panels to a row now, taller than before (${before.height.toFixed(0)} -> ` +
              `${f.height.toFixed(0)} px)`);
    } else {
      c.check(Math.abs(f.height - before.height) <= 1, `... and as tall as before again (${f.height.toFixed(0)} px)`);
    }
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
// compute() of what it shows (a blank or stale canvas fails). The shot is
// taken once the lab shows the result of the state the page set (its
// layout's config is its current config) and has drawn all it meant to, that
// frame on the screen (attentionLabFrames.idle()); the frame layout() names
// before and after the shot must be the same one.
export async function maskPixels(c, page, save) {
  await page.evaluate((s) => window.scrollTo(0, document.querySelector(s).getBoundingClientRect().top + window.scrollY - 80), FIGURES.mask);
  const shown = () => page.evaluate((s) => {
    const w = document.querySelector(s).contentWindow;
    const l = w.attentionLab.layout();
    // The same JSON whatever the order of its keys (layout() prints them sorted).
    const canon = (v) => v && typeof v === 'object' && !Array.isArray(v)
      ? Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') : JSON.stringify(v);
    return { idle: w.attentionLabFrames.idle(), current: canon(l.config) === canon(w.attentionLab.currentConfig()),
             mask: w.attentionLab.get().mask, frame: l.frame };
  }, FIGURES.mask);
  const settled = await until(shown, (s) => s.idle && s.current, 60_000);
  c.check(settled.idle && settled.current, 'the driven figure shows the state the page set, drawn and on the screen',
          JSON.stringify(settled));
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
  const after = await shown();
  if (save) await save('mask', png);
  const { checked, failures } = checkHeatmaps(PNG.sync.read(png), layout, result,
    (h) => ({ x: origin.x + h.css_x, y: origin.y + h.css_y, w: h.css_w, h: h.css_h }));
  c.check(after.frame === layout.frame && checked > 0 && failures.length === 0,
          `the figure the buttons drive, in the chapter (mask ${settled.mask}, frame ${layout.frame}): ${checked} heatmap cell ` +
          'centres have the colour of their value',
          [`frame ${layout.frame} described, ${after.frame} after the shot`, ...failures.slice(0, 6)].join('\n    '));
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
  // Off-screen figures draw nothing: each iframe's requestAnimationFrame
  // callbacks over 2 s at the top, counted once the frames that scrolling
  // them away asked for are drawn (off-screen a lab draws those, no more).
  // WebKit holds back animation frames in an off-screen iframe altogether,
  // so there a frame asked for may stay to come: the wait ends after 10 s
  // and says so, and the count below still has to be 0.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction((selectors) => Object.values(selectors).every((s) => {
    const f = document.querySelector(s);
    const r = f.getBoundingClientRect();
    const onScreen = r.bottom > 0 && r.top < innerHeight;
    return onScreen || f.contentWindow.attentionLabFrames?.stats().drawing === false;
  }), FIGURES, { timeout: 10_000 }).catch(() => console.log('  an off-screen figure still has a frame to come after 10 s ' +
                                                            '(the browser holds its animation frames back)'));
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
