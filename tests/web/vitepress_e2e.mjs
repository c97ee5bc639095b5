// The lab in the textbook's own kind of site: examples/vitepress built with
// VitePress under the base path /signal-to-intelligence/ (as on GitHub Pages),
// in Chromium (Firefox and WebKit: engines_e2e.mjs's "vitepress" section).
//  - the contents page's link opens the chapter client-side; the figures below
//    the fold load only when the wheel brings them near; all three run;
//  - no console error, no request outside the site;
//  - VitePress's appearance switch (clicked) changes every figure's theme;
//  - height 'auto': the component figures are as tall as their content wants;
//  - the page's buttons drive a figure (set()); the wheel over a figure scrolls the page;
//  - Tab goes into a figure and out again;
//  - away and back (client-side): no iframe and no message listener left
//    behind, off-screen figures draw nothing;
//  - at 320 px wide: every figure runs, nothing wider than the screen.
// usage: node vitepress_e2e.mjs <web build dir> <artefacts dir> [--site <built site root>]
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';

import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS } from './lab.mjs';
import { Checks } from './pixels.mjs';
import { serveDirectory } from './static_server.mjs';
import { BASE, CHAPTER, FIGURES, autoHeights, awayAndBack, figures, maskButtons, openChapter, scrollFiguresIn, siteFor,
         themeSwitch, wheelOverFigure } from './vitepress_site.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
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

async function run(c, page, url, save) {
  const cdp = await page.context().newCDPSession(page);
  await page.goto(url + BASE.slice(1));
  const before = await messageListeners(cdp);
  await openChapter(c, page, url);
  await scrollFiguresIn(c, page, VIEWPORT.height);
  await autoHeights(c, page, '1280 px');
  await save('chapter', await page.screenshot({ fullPage: true }));
  const during = await messageListeners(cdp);
  await themeSwitch(c, page, save);
  await maskButtons(c, page);
  await wheelOverFigure(c, page);
  await tabInAndOut(c, page);
  await awayAndBack(c, page, VIEWPORT.height);
  // Away once more: what the two visits added is gone.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => history.back());
  await page.waitForFunction(() => !location.pathname.endsWith('self-attention.html'), null, { timeout: 15_000 });
  await sleep(500);
  const after = await messageListeners(cdp);
  c.check(during >= before + 2 && after === before,
          `the figures' message listeners go with them (${before} on the contents page, ${during} in the chapter, ${after} after)`);

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
    page.on('request', (r) => { if (!r.url().startsWith(served.url) && !r.url().startsWith('data:')) outside.push(r.url()); });
    const save = (name, png) => writeFile(join(artefactsDir, `vitepress_${name}.png`), png);
    await run(c, page, served.url, save);
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
