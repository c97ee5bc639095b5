// The lab in the textbook's own kind of site: examples/vitepress built with
// VitePress under the base path /signal-to-intelligence/ (as on GitHub Pages),
// in Chromium (Firefox and WebKit: engines_e2e.mjs's "vitepress" section).
//  - the contents page's link opens the chapter client-side; the figures below
//    the fold load only when the wheel brings them near; all three run;
//  - no console error, no request outside the site;
//  - VitePress's appearance switch (clicked) changes every figure's theme;
//  - height 'auto': the component figures are as tall as their content wants,
//    and one below the screen follows a change of its width;
//  - the page's buttons drive a figure (set()); the wheel over a figure scrolls the page;
//  - Tab goes into a figure and out again;
//  - away and back (client-side): no iframe and no message listener left
//    behind, off-screen figures draw nothing;
//  - ?theme=auto and embed.js's theme 'host' on a plain page follow prefers-color-scheme;
//  - at 320 px wide: every figure runs, nothing wider than the screen.
// usage: node vitepress_e2e.mjs <web build dir> <artefacts dir> [--site <built site root>] [--at-root <the site built at />]
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';

import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS } from './lab.mjs';
import { Checks } from './pixels.mjs';
import { serveDirectory } from './static_server.mjs';
import { BASE, CHAPTER, FIGURES, autoHeights, awayAndBack, figures, maskButtons, maskPixels, offScreenResize, openChapter, scrollFiguresIn,
         siteFor, themeSwitch, until, wheelOverFigure } from './vitepress_site.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const atRoot = process.argv.includes('--at-root') ? process.argv[process.argv.indexOf('--at-root') + 1] : null;
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const sites = [];  // the servers' URLs: a request to anything else is outside the site
const VIEWPORT = { width: 1280, height: 800 };

// The page's 'message' listeners (embed.js adds one per figure), counted by DevTools.
async function messageListeners(cdp) {
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
  return listeners.filter((l) => l.type === 'message').length;
}

// Tab from the mask buttons goes into the figure below them, and the next Tab out of it.
async function tabInAndOut(c, page) {
  await page.evaluate(() => window.scrollTo(0, document.querySelector('.mask-buttons').offsetTop - 200));
  await page.focus('.mask-buttons button:last-of-type');
  const path = [];
  for (let i = 0; i < 4; ++i) {
    await page.keyboard.press('Tab');
    await sleep(200);
    path.push(await page.evaluate(() => {
      const a = document.activeElement;
      if (!a) return 'none';
      if (a.tagName === 'IFRAME') return a.closest('figure')?.id ?? 'iframe';
      return a.tagName.toLowerCase() + ':' + (a.textContent || '').trim().slice(0, 8);
    }));
  }
  const into = path.indexOf('fig-mask');
  c.check(into === 0, 'Tab from the last mask button moves the focus into the figure below it', path.join(' > '));
  c.check(into >= 0 && path.slice(into + 1).some((p) => p !== 'fig-mask'), 'the next Tab moves it out again', path.join(' > '));
}

// Outside VitePress: the lab at ?theme=auto follows the reader's
// prefers-color-scheme as it changes, and embed.js's theme 'host' on a page
// without a dark mode of its own does too, until the page's <html> says
// "dark" itself.
async function colorSchemes(c, page, url, root) {
  await writeFile(join(root, 'plain.html'), `<!doctype html><meta charset="utf-8"><title>plain</title>
<div id="fig" style="width:600px"></div>
<script src="${BASE}labs/attention/embed.js"></script>
<script>AttentionLab.embed(document.getElementById('fig'), { state: { view: 'heatmaps' }, controls: 'none', theme: 'host', loading: 'eager' });</script>`);
  const drawn = (frame) => page.evaluate((s) => {
    const w = s ? document.querySelector(s).contentWindow : window;
    return w.document.body.dataset.ready === '1' ? w.attentionLab.layout().theme : null;
  }, frame);
  for (const [what, path, frame] of [['the lab at ?theme=auto', `${BASE.slice(1)}labs/attention/index.html?view=chapter&theme=auto`, null],
                                     ['embed.js theme \'host\' on a page without a dark mode', 'plain.html', '#fig iframe']]) {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(url + path);
    const light = await until(() => drawn(frame), (t) => t === 'light', 60_000);
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await until(() => drawn(frame), (t) => t === 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    const back = await until(() => drawn(frame), (t) => t === 'light');
    c.check(light === 'light' && dark === 'dark' && back === 'light',
            `${what} follows prefers-color-scheme as it changes (${light} -> ${dark} -> ${back})`);
  }
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  const own = await until(() => drawn('#fig iframe'), (t) => t === 'dark');
  c.check(own === 'dark', `... and that page's own <html class="dark"> turns it dark (${own})`);
}

async function run(c, page, url, save, root) {
  const cdp = await page.context().newCDPSession(page);
  await page.goto(url + BASE.slice(1));
  const before = await messageListeners(cdp);
  await openChapter(c, page, url);
  await scrollFiguresIn(c, page, VIEWPORT.height);
  await autoHeights(c, page, '1280 px');
  await save('chapter', await page.screenshot({ fullPage: true }));
  await offScreenResize(c, page);
  const during = await messageListeners(cdp);
  await themeSwitch(c, page, save);
  await maskButtons(c, page);
  await maskPixels(c, page, save);
  await wheelOverFigure(c, page);
  await tabInAndOut(c, page);
  await awayAndBack(c, page, VIEWPORT.height);
  // Away a second time: what the two visits added is gone.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => history.back());
  await page.waitForFunction(() => !location.pathname.endsWith('self-attention.html'), null, { timeout: 15_000 });
  await sleep(500);
  const after = await messageListeners(cdp);
  c.check(during >= before + 2 && after === before,
          `the figures' message listeners go with them (${before} on the contents page, ${during} in the chapter, ${after} after)`);

  await colorSchemes(c, page, url, root);

  // The same site built at / (the textbook's second host), when given.
  if (atRoot) {
    const rootServed = await serveDirectory(atRoot);
    sites.push(rootServed.url);
    try {
      await page.goto(rootServed.url + CHAPTER);
      await scrollFiguresIn(c, page, VIEWPORT.height);
      const missing = rootServed.requests.filter(([status]) => status >= 400).map(([st, p]) => `${st} ${p}`);
      c.check(missing.length === 0, '... in the site built at /, with every file it asked for there', missing.join(', '));
    } finally {
      // Leave the site before its server goes: a figure still showing it would ask the
      // closed server for what a resize or a lazy load needs (ERR_CONNECTION_REFUSED).
      await page.goto('about:blank').catch(() => {});
      rootServed.server.close();
    }
  }

  // A phone: 320 px wide.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(url + BASE.slice(1) + CHAPTER);
  await page.evaluate(() => window.scrollTo(0, 0));
  await scrollFiguresIn(c, page, 640);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  c.check(wide <= 320, `at 320 px nothing is wider than the screen (the page is ${wide} px wide)`);
  const boxes = await figures(page);
  c.check(Object.values(boxes).every((f) => f.right - f.left <= 320 && f.left >= 0),
          'at 320 px every figure fits the width', JSON.stringify(boxes));
  await autoHeights(c, page, '320 px');
  await page.evaluate((s) => document.querySelector(s).scrollIntoView(), FIGURES.mask);
  await sleep(500);
  await save('chapter_320', await page.screenshot());
}

async function main() {
  const c = new Checks('vitepress_e2e');
  await mkdir(artefactsDir, { recursive: true });
  let root;
  try {
    root = await siteFor(webDir, process.argv);
  } catch (e) {
    c.check(false, 'the example site is built (examples/vitepress/build.mjs)', e.stderr || e.message);
    return c.finish();
  }
  const served = await serveDirectory(root);
  const profile = await mkdtemp(join(tmpdir(), 'attn-chromium-'));
  const errors = [], outside = [], log = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport: VIEWPORT, deviceScaleFactor: 1,
      locale: 'zh-CN', colorScheme: 'light',
    });
    await context.addInitScript(() => { window.attentionLabCheckGenerations = true; });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('console', (msg) => {
      log.push(`[${msg.type()}] ${msg.text()}`);
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    sites.push(served.url);
    page.on('request', (r) => { if (!sites.some((site) => r.url().startsWith(site)) && !r.url().startsWith('data:')) outside.push(r.url()); });
    const save = (name, png) => writeFile(join(artefactsDir, `vitepress_${name}.png`), png);
    await run(c, page, served.url, save, root);
    c.check(outside.length === 0, 'no request outside the site', outside.slice(0, 5).join('\n    '));
    const missing = served.requests.filter(([status]) => status >= 400).map(([s, p]) => `${s} ${p}`);
    c.check(missing.length === 0, 'every file the site asked for was there', missing.slice(0, 5).join('\n    '));
    c.check(errors.length === 0, 'no console errors or page errors', errors.join('\n    '));
  } catch (e) {
    c.check(false, 'the browser test ran to the end', e.stack ?? String(e));
    if (errors.length) console.log('  errors so far:\n    ' + errors.join('\n    '));
  } finally {
    await context?.close().catch(() => {});
    served.server.close();
    await rm(profile, { recursive: true, force: true });
    await writeFile(join(artefactsDir, 'vitepress_console.log'), log.join('\n') + '\n').catch(() => {});
  }
  return c.finish();
}

process.exit(await main());
