// The same reader's session in Chromium, Firefox ESR and WebKitGTK, with
// real input through each engine's driver (tests/web/engines/): pointer
// down/up, keys held and released, the wheel. attentionLab is only read
// (state, layout, compute as the oracle for the pixels); JS drives only what
// only JS can (losing the WebGL context, reading the DOM).
//
//   node tests/web/engines_e2e.mjs <web build dir> <artefacts dir> --engine chromium|firefox|webkit [--only section,...]
//                                  [--site <built VitePress site root>] [--notebook <exported notebook dir>]
//
// Sections (each starts from a fresh load, so one failure does not hide the rest):
//  load        the page gets ready; the canvas is drawn; heatmap pixels = compute()
//  views       every tab clicked with the mouse: a screenshot each, pixels checked
//  typing      ASCII and Chinese into the sentence box; insertText where the driver has it
//  quick taps  Backspace x3, Ctrl+A and ArrowDown x4 held 10-30 ms: every tap counts once
//  clipboard   Ctrl+C in a page field, Ctrl+V into the sentence box, and back out
//  zoom        the wheel over a heatmap zooms; a click selects a query
//  url         state made with the mouse -> the address bar -> a new load: same numbers
//  embed       the example chapter: figures load, its buttons drive a figure (embed.js,
//              postMessage), that figure's pixels, the wheel scrolls the chapter
//  csp         web/csp.txt's policy as a header: a session and the chapter without a violation
//  context     WebGL context lost and restored: the message, then the same pixels
//  a11y        the accessible copy's tables (DOM) against compute()
//  deferred    the rest of the lab's code held back after ready: an attentionLab call fetches it
//              at once (synchronously) and answers; the held fetch then completes
//  why         the why-attention module loads on demand and computes what the native CLI prints; its
//              view, opened from a link and trained with the mouse, shows those numbers
//  vitepress   the example VitePress site under its base path (tests/web/vitepress_site.mjs):
//              client-side navigation, lazy figures, VitePress's appearance switch,
//              the page's buttons, the wheel, away and back
//  notebook    (with --notebook DIR, tests/python/notebook_export.sh's output) the example
//              notebook executed by Jupyter, exported to HTML and opened from the disk: its
//              figures start from the files in it, hold the matrices given, their pixels;
//              keys stay in a figure (tests/web/notebook_figures.mjs)
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { PNG } from 'pngjs';

import { ENGINES, missingPrograms, openBrowser } from './engines/index.mjs';
import { sleep } from './engines/processes.mjs';
import { Lab, READY_TIMEOUT_MS, checkPixels, press, sameMatrix } from './lab.mjs';
import { phoneLayoutProblems } from './phone_layout.mjs';
import { Checks, checkHeatmaps, countDistinctColours } from './pixels.mjs';
import { checkNotebook, NOTEBOOK_TEMPLATE_NOISE } from './notebook_figures.mjs';
import { serveDirectory } from './static_server.mjs';
import { checkWhyModule, checkWhyView, WHY_VIEW_QUERY } from './why_module.mjs';
import { awayAndBack, maskButtons, maskPixels, openChapter, scrollFiguresIn, siteFor, themeSwitch, wheelOverFigure } from './vitepress_site.mjs';

const argv = process.argv.slice(2);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const engine = option('--engine');
const only = option('--only')?.split(',');
const [webDir, artefactsDir] = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--')).map((p) => resolve(p));
if (!webDir || !artefactsDir || !ENGINES.includes(engine)) {
  console.error(`usage: node engines_e2e.mjs <web build dir> <artefacts dir> --engine ${ENGINES.join('|')}`);
  process.exit(2);
}
const VIEWPORT = { width: 1280, height: 800 };
const DEADLINE_MS = 10 * 60_000;  // the whole run; ctest's TIMEOUT (900 s) is above it
const SENTENCE = 'we saw a cat sit on my red mat';  // 9 tokens; each key costs a frame, so short
const CHINESE = '我爱自然语言处理';

const chars = (text) => Array.from(text);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const save = (name, png) => writeFile(join(artefactsDir, `engines_${engine}_${name}.png`), png);
const text = async (lab) => (await lab.config()).text;

// A fresh load, once the lab has drawn its first frames and gone idle: ImGui
// lays its windows out over the first few frames, and lab.frames() counts
// the browser's animation frames, not the lab's (WebKit gave 4 of those
// before the lab's 5th frame, with the tab bar not yet in the layout). A lab
// that failed to start says why at once (no waiting for the timeout).
// The old document is marked first: a driver's goto may return before the new
// document replaces it (Firefox once read the old lab's "ready", then found
// no body in the new one).
async function open(page, base, query = '') {
  await page.evaluate(() => { window.engineLeaving = true; }).catch(() => {});  // no document yet: nothing to mark
  await page.goto(`${base}index.html${query}`);
  await page.waitForFunction(() => !window.engineLeaving && ['1', 'error'].includes(document.body?.dataset.ready), null,
                             { timeout: READY_TIMEOUT_MS });
  const failed = await page.evaluate(() => document.body.dataset.ready === 'error' && document.getElementById('status-text').textContent);
  if (failed) throw new Error(`the lab did not start: ${failed}`);
  const lab = new Lab(page);
  await until(async () => {
    const frames = (await lab.state()).frames;
    await lab.frames(3);
    return frames > 3 && (await lab.state()).frames === frames;
  }, true, 30_000);
  return lab;
}

// Polls get() until it gives `want` (compared as JSON) or `ms` pass; returns
// the last value. Keys and text reach ImGui over the next frames (a key
// changes at most once a frame), so what was typed is awaited, not assumed.
// `done` (optional) replaces the comparison with `want`.
async function until(get, want, ms = 15_000, done = (value) => same(value, want)) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (done(value) || Date.now() > end) return value;
    await sleep(50);
  }
}
const textIs = (lab, want) => until(() => text(lab), want);

// Click the sentence box and select all (keys held a frame each).
async function selectSentence(lab) {
  await lab.click('sentence');
  await press(lab, 'a', 'Control');
}

// Types `typed` over the selected sentence; the box's text once it is there (or after 15 s).
async function typeInto(lab, typed) {
  await selectSentence(lab);
  await lab.page.keyboard.type(typed, { delay: 15 });
  return textIs(lab, typed);
}

// ---- load and views -------------------------------------------------------------------
async function load(c, page, { url }) {
  const lab = await open(page, url, '?debug=1');
  c.check(await page.evaluate(() => typeof window.attentionLab?.compute === 'function'), 'the page is ready and has attentionLab');
  // The accessible copy's stylesheet comes after ready: with or without it the
  // canvas stays where it was, so a click aimed from the layout lands there.
  await page.waitForFunction(() => [...document.styleSheets].some((s) => s.href?.endsWith('a11y.css')), null,
                             { timeout: 30_000 }).catch(() => {});
  const tops = await page.evaluate(() => {
    const top = () => document.getElementById('canvas').getBoundingClientRect().top;
    const sheet = [...document.styleSheets].find((s) => s.href?.endsWith('a11y.css'));
    if (!sheet) return null;
    sheet.disabled = true;
    const without = top();
    sheet.disabled = false;
    return [without, top()];
  });
  c.check(tops !== null && tops[0] === 0 && tops[1] === 0, 'the canvas does not move when a11y.css applies',
          `canvas top without, with it: ${JSON.stringify(tops)}`);
  const png = await page.screenshot();
  await save('load', png);
  const colours = countDistinctColours(PNG.sync.read(png));
  c.check(colours >= 64, `the canvas is drawn (${colours} colours)`);
  await checkPixels(c, lab, 'first view');
}

async function views(c, page, { url }) {
  const lab = await open(page, url, '?debug=1');
  for (const view of (await lab.state()).views.filter((v) => v.always || v.debug_only).map((v) => v.id)) {  // every view, from the app's own table
    await lab.click(`tab_${view}`);
    await lab.frames(3);
    // The learned-heads view loads its model first (its own section checks it further).
    if (view === 'poem') await until(async () => (await poemState(lab)).load, 'ready', 60_000);
    if (view === 'why') await until(async () => (await lab.state()).why.load, 'ready', 60_000);
    await lab.frames(3);
    const shown = (await lab.state()).view;
    const file = await page.screenshot();
    await save(view, file);
    const png = PNG.sync.read(file);
    const colours = countDistinctColours(png);
    c.check(shown === view && colours >= 32, `clicking the ${view} tab shows it, drawn (${colours} colours)`, shown);
    await checkPixels(c, lab, view, png);
  }
  // Shuffle with the mouse: the tokens move, the weights without positions
  // are the original's moved with them (the lab's measure), the heatmaps drawn.
  await lab.click('tab_heatmaps');
  const before = (await lab.state()).tokens;
  await lab.click('shuffle');
  const s = await lab.state();
  const order = s.order?.order ?? [];
  c.check(order.length === before.length && s.tokens.every((t, i) => t === before[order[i]]) &&
          s.order.weights_without <= 1e-6 && s.order.weights_with > 1e-2,
          'a click on "Shuffle the tokens" permutes them; without positions the weights only move with them',
          JSON.stringify(s.order));
  await checkPixels(c, lab, 'shuffled');
}

// ---- a phone ----------------------------------------------------------------------------
// Every view at 390x844 in Chinese, picked with the mouse from the view list
// that replaces the tabs there: screenshotted, its heatmaps' pixels checked,
// and its layout() by the phone rules (phone_layout.mjs), as phone_e2e checks
// them in Chromium at every phone size.
// WebKit's MiniBrowser window is never narrower than about 447 CSS px (its
// toolbar): there the section runs at the narrowest width it gets, and says so.
async function phone(c, page, { url }) {
  let size = { width: 390, height: 844 };
  await page.setViewportSize(size).catch(async (e) => {
    const [width, height] = await page.evaluate(() => [innerWidth, innerHeight]);
    console.log(`[NOTE] phone: ${e.message}; the views are checked at ${width}x${height}`);
    size = { width, height };
  });
  const lab = await open(page, url, '?lang=zh&debug=1');
  for (const view of (await lab.state()).views.filter((v) => v.always || v.debug_only).map((v) => v.id)) {
    await lab.click('tab_combo');
    await until(async () => Boolean((await lab.layout()).controls[`tab_${view}`]), true);
    await lab.click(`tab_${view}`);
    await page.mouse.move(size.width - 4, size.height - 4);  // off the view's help marks, as a finger lifts
    if (view === 'poem') await until(async () => (await poemState(lab)).load, 'ready', 60_000);
    if (view === 'why') await until(async () => (await lab.state()).why.load, 'ready', 60_000);
    await lab.settled();
    await lab.frames(3);  // the list closed in the page's last frame: on the screen too
    const file = await page.screenshot();
    await save(`phone_${view}`, file);
    const png = PNG.sync.read(file);
    c.check((await lab.state()).view === view && countDistinctColours(png) >= 24, `phone: picking ${view} from the list shows it, drawn`);
    const { layout } = await checkPixels(c, lab, `phone ${view}`, png);
    const problems = phoneLayoutProblems(layout, size);
    c.check(problems.length === 0, `phone ${view}: nothing overlaps, nothing is cut, panels fit, cells >= 24 px`,
            problems.slice(0, 6).join('\n    '));
  }
}

// ---- typing ---------------------------------------------------------------------------
async function typing(c, page, { url }) {
  const lab = await open(page, url);
  await typeInto(lab, SENTENCE);
  let s = await until(async () => (await lab.state()).tokens.length, 9).then(() => lab.state());
  c.check(s.config.text === SENTENCE && s.tokens.length === 9, 'typed ASCII reaches config.text and the tokens',
          `"${s.config.text}" ${JSON.stringify(s.tokens)}`);
  await typeInto(lab, CHINESE);
  await page.waitForFunction(() => ['loaded', 'failed'].includes(window.attentionLabFonts?.status().state), null,
                             { timeout: 30_000 }).catch(() => {});
  s = await until(async () => (await lab.state()).tokens, chars(CHINESE)).then(() => lab.state());
  const font = await page.evaluate(() => window.attentionLabFonts?.status().state);
  c.check(s.config.text === CHINESE && same(s.tokens, chars(CHINESE)) && font === 'loaded',
          'typed Chinese: one token a character, the CJK font loaded', `"${s.config.text}", font ${font}`);
  await save('typed_chinese', await page.screenshot());
  await checkPixels(c, lab, 'after typing Chinese');
  if (!page.can.insertText) {
    console.log(`[SKIP] keyboard.insertText: ${engine}'s driver has no text insertion (key actions only)`);
    return;
  }
  await selectSentence(lab);
  await page.keyboard.insertText('自注意力机制');
  const inserted = await textIs(lab, '自注意力机制');
  c.check(inserted === '自注意力机制', 'insertText replaces the selection', inserted);
}

// ---- quick taps -----------------------------------------------------------------------
// Read only: when each key went down and up, and when frames were drawn. Dear
// ImGui 1.86 sees a key only through a frame drawn while it is down, so this
// says why a tap was lost.
function installTapProbe() {
  if (window.tapProbe) return;
  const probe = window.tapProbe = { keys: [], frames: [] };
  for (const type of ['keydown', 'keyup']) window.addEventListener(type, (e) => probe.keys.push([type, e.key, performance.now()]), true);
  window.attentionLabFrames.onFrame(() => probe.frames.push(performance.now()));
}

// Dear ImGui 1.86's io.KeyRepeatDelay: a key the page saw down longer than
// this repeats, as it should. A tap "held 10-30 ms" that the page saw held
// longer was not delivered as a quick tap: on a busy machine the driver
// delivers the key's up late (one Backspace the page saw held 449 ms in a
// full suite). The page measures that, and such a try is retaken: a limit
// of the environment, printed as one [retake] line, at most TRIES tries.
const KEY_REPEAT_DELAY_MS = 275;
const TRIES = 3;

// Taps `key` `count` times (through `taps`) and reports what the page saw,
// once it saw every one of them released.
async function probed(page, key, count, taps) {
  await page.evaluate(installTapProbe);
  await page.evaluate(() => { window.tapProbe.keys.length = 0; window.tapProbe.frames.length = 0; });
  await taps();
  await page.waitForFunction(([k, n]) => window.tapProbe.keys.filter(([type, key]) => type === 'keyup' &&
                               key.toLowerCase() === k).length >= n, [key.toLowerCase(), count], { timeout: 10_000 })
    .catch(() => {});  // a key up the page never saw shows in the report below
  const { keys, frames } = await page.evaluate(() => window.tapProbe);
  const out = [];
  for (const [type, k, t] of keys) {
    if (k.toLowerCase() !== key.toLowerCase()) continue;
    if (type === 'keydown') out.push({ down: t });
    else if (out.length && out[out.length - 1].up === undefined) out[out.length - 1].up = t;
  }
  const taken = out.map(({ down, up }) => ({ held: Math.round(up - down), frames: frames.filter((f) => f > down && f < up).length }));
  const unseen = taken.filter((t) => t.frames === 0).length;
  console.log(`  ${key} x${taken.length}: held ${taken.map((t) => t.held).join(', ')} ms in the page; frames drawn while down: ` +
              `${taken.map((t) => t.frames).join(', ')} (${unseen} tap(s) no frame saw: keys read once a frame lose those)`);
  return {
    // Held past the repeat delay, as the page measured it: the only reason to retake.
    quick: !taken.some((t) => t.held >= KEY_REPEAT_DELAY_MS),
    // Every tap went down and up in the page.
    seen: taken.length === count && taken.every((t) => Number.isFinite(t.held)),
    longest: Math.max(0, ...taken.map((t) => t.held).filter(Number.isFinite)),
    detail: `held ${taken.map((t) => t.held).join(', ')} ms; frames drawn while down: ${taken.map((t) => t.frames).join(', ')}`,
  };
}

// Tap `key` once per hold (ms), `gap` ms apart: down, hold, up.
async function tap(page, key, holds, gap = 20) {
  for (const hold of holds) {
    await page.keyboard.press(key, { delay: hold });
    await sleep(gap);
  }
}

// One check of quick taps: `attempt` sets up, taps (through probed) and
// returns { ok, detail, probe }; retaken while the page saw a tap held past
// the repeat delay, so the check is of quick taps, not of a starved sender.
async function quickCheck(c, what, attempt) {
  let result;
  for (let i = 1; i <= TRIES; ++i) {
    result = await attempt();
    if (result.probe.quick || i === TRIES) break;
    console.log(`[retake] engines_${engine} quick taps: driver held a tap ${result.probe.longest} ms ` +
                `(> key-repeat ${KEY_REPEAT_DELAY_MS} ms), an environmental limit (${what}: ${result.probe.detail})`);
  }
  c.check(result.probe.quick && result.probe.seen, `${what}: every tap reached the page as a quick one`, result.probe.detail);
  c.check(result.ok, what, `${result.detail} (${result.probe.detail})`);
}

async function quickTaps(c, page, { url }) {
  let lab = await open(page, url);  // typeInto sets the sentence for each try
  await quickCheck(c, 'three quick Backspace taps (held 10-30 ms, 20 ms apart) delete exactly three characters', async () => {
    const typed = await typeInto(lab, 'abc def');
    c.check(typed === 'abc def', 'typed "abc def" into the sentence box', typed);
    const probe = await probed(page, 'Backspace', 3, () => tap(page, 'Backspace', [10, 20, 30]));
    const left = await textIs(lab, 'abc ');
    return { ok: left === 'abc ', detail: `"${typed}" -> "${left}"`, probe };
  });

  await quickCheck(c, 'a quick Ctrl+A (held 20 ms) then typing replaces the text', async () => {
    const before = await typeInto(lab, 'abc def');
    const probe = await probed(page, 'a', 1, async () => {
      await page.keyboard.down('Control');
      await page.keyboard.press('a', { delay: 20 });
      await page.keyboard.up('Control');
      await sleep(20);
    });
    await page.keyboard.type('xyz', { delay: 15 });
    const replaced = await textIs(lab, 'xyz');
    return { ok: replaced === 'xyz', detail: `"${before}" -> "${replaced}"`, probe };
  });

  await quickCheck(c, 'four quick ArrowDown taps on the canvas move the selected query by exactly four', async () => {
    lab = await open(page, url, `?text=${encodeURIComponent(SENTENCE)}`);
    const average = (await lab.layout()).heatmaps.find((h) => h.name === 'average');
    await lab.clickAt(await lab.cellCentre(average, 0, 1));  // selects query 0; the canvas has the keyboard
    const from = (await lab.state()).selected_query;
    const probe = await probed(page, 'ArrowDown', 4, () => tap(page, 'ArrowDown', [10, 15, 20, 30]));
    const to = await until(async () => (await lab.state()).selected_query, 4);
    return { ok: from === 0 && to === 4, detail: `query ${from} -> ${to}`, probe };
  });
}

// ---- clipboard ------------------------------------------------------------------------
const PAGE_FIELD = 'engines-page-field';
async function addPageField(page, value) {
  await page.evaluate(([id, v]) => {
    const input = Object.assign(document.createElement('input'), { id, value: v });
    input.style.cssText = 'position:fixed;right:8px;bottom:8px;width:220px;z-index:20';
    document.body.appendChild(input);
  }, [PAGE_FIELD, value]);
  const r = await page.evaluate((id) => JSON.parse(JSON.stringify(document.getElementById(id).getBoundingClientRect())), PAGE_FIELD);
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

async function clipboard(c, page, { url }) {
  const lab = await open(page, url);
  const copied = '注意力 paste 42';
  const field = await addPageField(page, copied);
  await lab.clickAt(field);
  await press(lab, 'a', 'Control');
  await press(lab, 'c', 'Control');
  await selectSentence(lab);
  await press(lab, 'v', 'Control');
  const pasted = await textIs(lab, copied);
  c.check(pasted === copied, 'Ctrl+C in a page field, then Ctrl+V in the sentence box pastes it once', pasted);
  // And out again: the sentence copied with Ctrl+C, pasted into the page's field.
  await typeInto(lab, 'copy me out');
  await press(lab, 'a', 'Control');
  await press(lab, 'c', 'Control');
  await lab.clickAt(field);
  await press(lab, 'a', 'Control');
  await press(lab, 'v', 'Control');
  const value = await until(() => page.evaluate((id) => document.getElementById(id).value, PAGE_FIELD), 'copy me out', 5000);
  c.check(value === 'copy me out', 'Ctrl+C in the sentence box, then Ctrl+V in a page field pastes the sentence', value);
}

// ---- wheel zoom and a click -----------------------------------------------------------
async function zoom(c, page, { url }) {
  const lab = await open(page, url, `?text=${encodeURIComponent(SENTENCE)}`);
  const n = (await lab.state()).tokens.length;
  let hm = (await lab.layout()).heatmaps.find((h) => h.name === 'head0');
  const p = await lab.cellCentre(hm, 2, 1);
  await page.mouse.move(p.x, p.y);
  await lab.frames(2);
  await page.mouse.wheel(0, -300);
  await lab.frames(4);
  hm = (await lab.layout()).heatmaps.find((h) => h.name === 'head0');
  c.check(hm.rows < n && hm.cols === hm.rows, `the wheel over a heatmap zooms in (${n} -> ${hm.rows} rows)`, JSON.stringify(hm));
  const q = hm.row0 + 1;
  await lab.clickAt(await lab.cellCentre(hm, q, hm.col0));
  await page.mouse.move(5, 5);
  const s = await lab.state();
  c.check(s.selected_query === q && s.selected_head === 0, `a click on a zoomed cell selects its query (${q})`,
          `selected ${s.selected_query}, head ${s.selected_head}`);
  await checkPixels(c, lab, 'zoomed');
}

// ---- the URL is the state -------------------------------------------------------------
async function urlState(c, page, { url }) {
  const lab = await open(page, url);
  await typeInto(lab, 'the dog saw the cat run');
  await lab.click('mask');
  await lab.click('mask_item_causal');
  await lab.click('positions');
  const average = (await lab.layout()).heatmaps.find((h) => h.name === 'average');
  await lab.clickAt(await lab.cellCentre(average, 3, 1));
  await lab.click('tab_steps');
  await page.waitForFunction(() => /mask=causal/.test(location.search) && /view=steps/.test(location.search) &&
                                   /query=3/.test(location.search), null, { timeout: 10_000 }).catch(() => {});
  const address = await page.url();
  const fields = await page.evaluate(() => window.attentionLab.get());
  const numbers = JSON.stringify(await lab.compute(await lab.config()));
  c.check(fields.mask === 'causal' && fields.positions === true && fields.query === 3 && fields.view === 'steps' &&
          fields.text === 'the dog saw the cat run', 'the mouse and keyboard set text, mask, positions, query and view',
          JSON.stringify(fields));
  const [base, query] = address.split('index.html');
  const again = await open(page, base, query);
  const fieldsAgain = await page.evaluate(() => window.attentionLab.get());
  const numbersAgain = JSON.stringify(await again.compute(await again.config()));
  c.check(same(fieldsAgain, fields) && numbersAgain === numbers, 'a new load of the address bar\'s URL has the same fields and numbers',
          `${address}\n    ${JSON.stringify(fieldsAgain)}`);
  await checkPixels(c, again, 'reloaded from the URL');
}

// ---- the example chapter (embed.js, postMessage) --------------------------------------
const FRAMES = ['#fig41', '#fig42 iframe', '#fig-mask iframe'];
// '1' once every figure runs, 'error' as soon as one failed to start, else ''.
const framesReady = (selectors) => {
  const states = selectors.map((s) => document.querySelector(s)?.contentDocument?.body?.dataset.ready);
  return states.includes('error') ? 'error' : states.every((r) => r === '1') ? '1' : '';
};
// attentionLab[method](arg) inside a same-origin frame, as JSON.
const inFrame = (page, selector, method, arg) => page.evaluate(([s, m, a]) =>
  JSON.stringify(document.querySelector(s).contentWindow.attentionLab[m](a)), [selector, method, arg]).then(JSON.parse);

// Scrolls the chapter with the wheel (over the margin, not a figure) until each lazy figure has loaded.
async function loadChapter(page, base) {
  await page.goto(base + 'textbook.html');
  await page.mouse.move(8, 400);
  for (let i = 0; i < 20 && !await page.evaluate(framesReady, FRAMES); i++) {
    await page.mouse.wheel(0, 400);
    await sleep(300);
  }
  await page.waitForFunction(framesReady, FRAMES, { timeout: READY_TIMEOUT_MS });
  if (await page.evaluate(framesReady, FRAMES) === 'error') throw new Error('a figure of the chapter did not start');
}

async function rectOf(page, selector) {
  return page.evaluate((s) => JSON.parse(JSON.stringify(document.querySelector(s).getBoundingClientRect())), selector);
}

// The wheel over the margin until `selector` is inside the viewport.
async function scrollTo(page, selector) {
  await page.mouse.move(8, 400);
  for (let i = 0; i < 20; i++) {
    const r = await rectOf(page, selector);
    if (r.top >= 0 && r.bottom <= VIEWPORT.height) return r;
    await page.mouse.wheel(0, Math.sign(r.top) * Math.min(400, Math.abs(r.top - 100)) || 100);
    await sleep(300);
  }
  return rectOf(page, selector);
}

async function embed(c, page, { url }) {
  await loadChapter(page, url);
  c.check(true, 'the chapter\'s three figures load (scrolled into view with the wheel)');
  const figure = '#fig-mask iframe';
  for (const [mask, name] of [['none', '无掩码'], ['causal', '因果掩码']]) {
    const r = await scrollTo(page, `button[data-mask='"${mask}"']`);
    await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForFunction(([s, m]) => document.querySelector(s).contentWindow.attentionLab.get().mask === m,
                               [figure, mask], { timeout: 10_000 }).catch(() => {});
    // The status line follows the figure's postMessage reply: awaited, not slept for (a loaded Firefox took longer than 300 ms).
    const status = await until(() => page.evaluate(() => document.getElementById('mask-status').textContent),
                               null, 10_000, (text) => text.includes(name));
    const got = (await inFrame(page, figure, 'get')).mask;
    c.check(got === mask && status.includes(name), `the chapter's "${name}" button sets the figure's mask (embed.js set, postMessage reply)`,
            `mask ${got}, status "${status}"`);
  }
  // The figure's heatmaps in the chapter's own screenshot.
  await scrollTo(page, figure);
  await sleep(500);
  const layout = await inFrame(page, figure, 'layout');
  const result = await inFrame(page, figure, 'compute', JSON.stringify(layout.config));
  const frame = await rectOf(page, figure);
  // Where the figure's canvas is in the chapter's viewport: the iframe's content box, then the canvas in it.
  const origin = await page.evaluate((s) => {
    const iframe = document.querySelector(s);
    const r = iframe.getBoundingClientRect();
    const canvas = iframe.contentDocument.querySelector('canvas').getBoundingClientRect();
    return { x: r.x + iframe.clientLeft + canvas.x, y: r.y + iframe.clientTop + canvas.y };
  }, figure);
  const png = await page.screenshot();
  await save('chapter', png);
  const { checked, failures } = checkHeatmaps(PNG.sync.read(png), layout, result,
    (h) => ({ x: origin.x + h.css_x, y: origin.y + h.css_y, w: h.css_w, h: h.css_h }));
  c.check(checked > 0 && failures.length === 0, `the causal figure in the chapter: ${checked} cell centres have the colour of their value`,
          failures.slice(0, 6).join('\n    '));
  // The wheel over a figure scrolls the chapter (the figure was not clicked into).
  await page.mouse.move(frame.x + frame.width / 2, frame.y + frame.height / 2);
  const y0 = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, -300);
  const y1 = await until(() => page.evaluate(() => window.scrollY), null, 10_000, (y) => y < y0 - 100);
  c.check(y1 < y0 - 100, `the wheel over a figure scrolls the chapter (${y0} -> ${y1})`);
}

// ---- Content-Security-Policy ----------------------------------------------------------
function recordViolations() {
  for (const w of [window, ...Array.from(document.querySelectorAll('iframe'), (f) => f.contentWindow)]) {
    if (w.cspViolations) continue;
    w.cspViolations = [];
    w.document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  }
}
const violations = () => [window, ...Array.from(document.querySelectorAll('iframe'), (f) => f.contentWindow)]
  .flatMap((w) => w.cspViolations ?? []);

async function csp(c, page, { cspUrl, cspServed }) {
  // Events are seen from the moment the listener is in (after the load); the
  // server's reports (report-uri) see everything, the load included.
  const lab = await open(page, cspUrl);
  await page.evaluate(recordViolations);
  await typeInto(lab, CHINESE);
  await until(async () => (await lab.state()).tokens, chars(CHINESE));
  await page.waitForFunction(() => ['loaded', 'failed'].includes(window.attentionLabFonts?.status().state), null, { timeout: 30_000 })
    .catch(() => {});
  await lab.click('tab_stats');
  await lab.click('tab_heatmaps');
  await lab.click('mask');
  await lab.click('mask_item_causal');
  const s = await lab.state();
  const font = await page.evaluate(() => window.attentionLabFonts.status().state);
  c.check(same(s.tokens, chars(CHINESE)) && font === 'loaded' && s.config.mask === 'causal',
          'under the policy: typed Chinese (the CJK font loads), tabs and the mask combo work', `font ${font}, ${s.tokens}`);
  c.check((await page.evaluate(violations)).length === 0, 'the lab: no securitypolicyviolation event', (await page.evaluate(violations)).join(', '));
  await loadChapter(page, cspUrl);
  await page.evaluate(recordViolations);
  await sleep(1000);
  c.check((await page.evaluate(violations)).length === 0 && cspServed.reports.length === 0,
          'the chapter and its figures under the policy: no violation event; no report all session', cspServed.reports.join('\n    '));
  // The policy holds (so no report means none was due): an inline script is
  // refused and reported (the browser's console message about it is expected).
  const errorsBefore = page.log.errors.length;
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true;';
    document.head.appendChild(script);
    return window.inlineRan === true;
  });
  for (let i = 0; i < 50 && cspServed.reports.length === 0; i++) await sleep(100);
  // The console message may come after the report (a loaded Firefox logged it
  // once the check below had run): awaited for up to 3 s, then taken out.
  const cspMessage = () => page.log.errors.slice(errorsBefore).some((e) => /Content.Security.Policy/i.test(e));
  for (let i = 0; i < 30 && !cspMessage(); i++) {
    await page.flushLog();
    await sleep(100);
  }
  page.log.errors.splice(errorsBefore).filter((e) => !/Content.Security.Policy/i.test(e)).forEach((e) => page.log.errors.push(e));
  c.check(!ran && cspServed.reports.length === 1 && (await page.evaluate(violations)).length === 1,
          'the policy holds: an inline script is refused, seen as an event and reported',
          `ran ${ran}, reports ${cspServed.reports.length}, events ${JSON.stringify(await page.evaluate(violations))}`);
}

// ---- WebGL context loss ---------------------------------------------------------------
async function contextLoss(c, page, { url }) {
  const lab = await open(page, url);
  const supported = await page.evaluate(() => {
    window.loseContext = document.querySelector('canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
    return !!window.loseContext;
  });
  if (!supported) {
    console.log(`[SKIP] WebGL context loss: ${engine} has no WEBGL_lose_context`);
    return;
  }
  const before = await page.evaluate(() => window.attentionLab.get());
  await page.evaluate(() => window.loseContext.loseContext());
  await page.waitForFunction(() => document.body.dataset.context === 'lost', null, { timeout: 10_000 });
  const message = await page.evaluate(() => !document.getElementById('status').classList.contains('hidden') &&
                                            document.getElementById('status-text').textContent);
  c.check(typeof message === 'string' && message.startsWith('The graphics context was lost'), 'a lost context shows the message',
          String(message));
  await page.mouse.move(300, 300);  // input while it is lost breaks nothing
  await page.evaluate(() => window.loseContext.restoreContext());
  await page.waitForFunction(() => document.body.dataset.context === 'ok', null, { timeout: 10_000 });
  await lab.frames(8);
  await page.mouse.move(5, 5);
  c.check(same(await page.evaluate(() => window.attentionLab.get()), before) &&
          await page.evaluate(() => document.getElementById('status').classList.contains('hidden')),
          'after the restore the message is gone and the state is the same');
  const { png } = await checkPixels(c, lab, 'after the context was restored');
  await save('context_restored', PNG.sync.write(png));
}

// ---- the accessible copy --------------------------------------------------------------
// The copy's tables as text ([header row, ...rows] of cell texts), read from the DOM.
const readCopy = () => ({
  view: document.getElementById('a11y').dataset.view,
  tables: Array.from(document.querySelectorAll('#a11y-tables table'), (t) => ({
    heatmap: t.dataset.heatmap || '', caption: t.caption?.textContent ?? '',
    rows: Array.from(t.rows, (r) => Array.from(r.cells, (cell) => cell.textContent)),
  })),
});

async function a11y(c, page, { url }) {
  const lab = await open(page, url);
  await page.waitForFunction(() => document.querySelector('#a11y-tables table[data-heatmap="average"]'), null, { timeout: 30_000 });
  const result = await lab.compute(await lab.config());
  let copy = await page.evaluate(readCopy);
  const average = copy.tables.find((t) => t.heatmap === 'average');
  c.check(average && !sameMatrix(average, result.average), 'the accessible copy\'s head-average table is compute()\'s, to 4 decimals',
          average ? sameMatrix(average, result.average) : JSON.stringify(copy).slice(0, 300));
  await lab.click('tab_stats');
  await page.waitForFunction(() => document.getElementById('a11y').dataset.view === 'stats', null, { timeout: 10_000 });
  await sleep(300);
  copy = await page.evaluate(readCopy);
  const expected = [...result.stats, result.average_stats].map((st) => [st.min, st.max, st.mean, st.mean_entropy]);
  const table = copy.tables[0];
  const diff = table ? sameMatrix({ rows: table.rows.slice(0, expected.length + 1) }, expected, 0.5e-3 + 1e-7) : 'no table';
  c.check(!diff, 'the accessible copy\'s statistics table is compute()\'s min, max, mean and entropy', `${diff} ${JSON.stringify(table?.rows)}`);
}

// ---- the learned-heads view (the poem model, its own module, loaded when opened) -------
async function poemState(lab) {
  return (await lab.state()).poem;
}

async function poemView(c, page, { url }) {
  const lab = await open(page, url, '?view=poem');
  const loaded = await until(async () => (await poemState(lab)).load, 'ready', 60_000);
  if (!c.check(loaded === 'ready', 'the learned-heads view loads the poem model', JSON.stringify(await poemState(lab)))) return;
  await lab.frames(4);
  await checkPixels(c, lab, 'learned heads, held-out poem 0');
  // Typed into the view's own text box with the keyboard.
  await lab.click('poem_text');
  await press(lab, 'a', 'Control');
  await page.keyboard.type('床前明月光', { delay: 15 });
  const tokens = await until(async () => (await poemState(lab)).tokens, ['<poem>', ...chars('床前明月光')]);
  c.check(same(tokens, ['<poem>', ...chars('床前明月光')]), 'typed Chinese is read by the poem model', JSON.stringify(tokens));
  await checkPixels(c, lab, 'learned heads, typed line');
  // The sink probe picked with the mouse: the line read again without <poem>.
  await lab.click('poem_start');
  await lab.click('poem_start_1');
  const sink = await until(async () => (await poemState(lab)).sink?.tokens, chars('床前明月光'), 10_000);
  c.check(same(sink, chars('床前明月光')), '"without <poem>" reads the line again without it (the sink probe)', JSON.stringify(sink));
  await lab.click('poem_start');
  await lab.click('poem_start_0');
  // 续写 twice from the same prompt and seed: the same characters.
  const continued = [];
  for (let i = 0; i < 2; ++i) {
    await lab.click('poem_text');
    await press(lab, 'a', 'Control');
    await page.keyboard.type('春眠', { delay: 15 });
    await until(async () => (await poemState(lab)).text, '春眠');
    await lab.click('poem_continue');
    await until(async () => (await poemState(lab)).sampling, false, 30_000);
    await lab.frames(3);
    continued.push((await poemState(lab)).text);
  }
  c.check(continued[0] === continued[1] && continued[0].startsWith('春眠') && continued[0].length > 2,
          '续写 from the same prompt and seed gives the same continuation', JSON.stringify(continued));
  // Step: the trainers start in this engine's two Web Workers (poem_worker.js),
  // score the untrained model and take one step data-parallel (the halves'
  // gradients cross a MessageChannel); the heatmaps show that model, and
  // compute() asks the first worker for the same numbers.
  await page.evaluate(() => { window.attentionLabPoemWorkers = 2; });  // two even where the cores are few
  await lab.click('poem_train_step');
  const stepped = await until(async () => (await poemState(lab)).training?.steps, 1, 180_000);
  const trainer = await page.evaluate(() => window.attentionLabPoem.status().trainer);
  const replicas = (await poemState(lab)).training?.replicas;
  c.check(stepped === 1 && trainer === 'workers' && replicas === 2, 'Step trains one step in two Web Workers, half the batch each',
          `steps ${stepped}, trainer ${trainer}, replicas ${replicas}`);
  const sums = await page.evaluate(() => window.attentionLabPoem.checksums());
  c.check(sums.length === 2 && sums[0].steps === 1 && sums[0].hash === sums[1].hash && sums[0].hash.length === 16,
          'both workers hold the same weights after the step (the same bits)', JSON.stringify(sums));
  await until(async () => (await poemState(lab)).trained, true, 10_000);
  await checkPixels(c, lab, 'learned heads, the model being trained');
}

// ---- the why-attention module ----------------------------------------------------------
// The main module's deferred part (scripts/split_wasm.mjs), its fetch held
// back by the server: attentionLab.state() needs it, so the glue fetches it at
// once through main.js's synchronous path (the held fetch is still waiting
// when the call has answered); then the held one completes and says so.
async function deferredCode(c, page, { url, served }) {
  const release = served.hold('/attention_web.deferred.wasm');
  try {
    await page.evaluate(() => { window.engineLeaving = true; }).catch(() => {});
    await page.goto(`${url}index.html`);
    await page.waitForFunction(() => !window.engineLeaving && document.body?.dataset.ready === '1', null,
                               { timeout: READY_TIMEOUT_MS });
    const answer = await page.evaluate(() => {
      const heldBack = document.body.dataset.code !== 'ready';
      const state = window.attentionLab.state();
      // (tokens may still be [] here: the first result can take a few frames)
      return { heldBack, view: state.view, tokens: Array.isArray(state.tokens), still: document.body.dataset.code !== 'ready' };
    });
    c.check(answer.heldBack && answer.still && answer.view === 'heatmaps' && answer.tokens,
            'with the deferred part held back, state() fetches it at once and answers', JSON.stringify(answer));
  } finally {
    release();
  }
  await page.waitForFunction(() => document.body.dataset.code === 'ready', null, { timeout: READY_TIMEOUT_MS });
  const lab = new Lab(page);
  c.check((await lab.state()).views_code.load === 'ready', 'the held fetch completes and the lab says its code is there');
}

async function whyModule(c, page, { url }) {
  await open(page, url);
  await checkWhyModule(c, page);
  await checkWhyView(c, await open(page, url, WHY_VIEW_QUERY), save);
}

// ---- the example VitePress site --------------------------------------------------------
async function vitepress(c, page) {
  const site = await serveDirectory(await siteFor(webDir, argv));
  try {
    await openChapter(c, page, site.url);
    await scrollFiguresIn(c, page, VIEWPORT.height);
    await themeSwitch(c, page, (name, png) => save(`vitepress_${name}`, png));
    await maskButtons(c, page);
    await maskPixels(c, page, (name, png) => save(`vitepress_${name}`, png));
    await wheelOverFigure(c, page);
    await awayAndBack(c, page, VIEWPORT.height);
  } finally {
    site.server.close();
  }
}

const notebook = (c, page, context) => checkNotebook(c, page, { ...context, viewport: VIEWPORT, save });
const SECTIONS = { load, views, phone, typing, poem: poemView, 'quick taps': quickTaps, clipboard, zoom, url: urlState, embed, csp,
                   context: contextLoss, a11y, deferred: deferredCode, why: whyModule, vitepress,
                   ...(option('--notebook') ? { notebook } : {}) };

// ---- the run --------------------------------------------------------------------------
const SKIPPED = 77;  // ctest: SKIP_RETURN_CODE

async function main() {
  const missing = missingPrograms(engine);
  if (missing.length) {
    console.log(`[SKIP] ${engine}: not installed here: ${missing.join(', ')} (scripts/setup.sh installs them)`);
    return SKIPPED;
  }
  const c = new Checks(`engines_e2e ${engine}`);
  if (!c.check(existsSync(join(webDir, 'index.html')), `web build found in ${webDir}`)) return c.finish();
  await mkdir(artefactsDir, { recursive: true });
  const policy = [...readFileSync(join(webDir, 'csp.txt'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')),
                  "frame-ancestors 'self'", 'report-uri /csp-report'].join('; ');
  const served = await serveDirectory(webDir);
  const cspServed = await serveDirectory(webDir, { headers: { 'Content-Security-Policy': policy } });
  const notebookDir = option('--notebook') && resolve(option('--notebook'));
  const context = { url: served.url, served, cspUrl: cspServed.url, cspServed, notebookDir };
  const timings = [];
  let page = null;
  const started = Date.now();
  const deadline = setTimeout(async () => {
    console.log(`[FAIL] the run took over ${DEADLINE_MS / 60_000} minutes: stopped`);
    await page?.close().catch(() => {});
    process.exit(1);
  }, DEADLINE_MS);
  try {
    page = await openBrowser(engine, { viewport: VIEWPORT, locale: 'en-US' });
    console.log(`${engine} ${page.version}, opened in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    for (const [name, section] of Object.entries(SECTIONS).filter(([n]) => !only || only.includes(n))) {
      const t = Date.now(), errorsBefore = page.log.errors.length;
      try {
        await page.setViewportSize(VIEWPORT);
        await section(c, page, context);
      } catch (e) {
        c.check(false, `${name}: ran to the end`, e.stack ?? String(e));
      }
      // Errors say which section they arose in (WebKit's are read, not sent).
      await page.flushLog();
      for (let i = errorsBefore; i < page.log.errors.length; i++) page.log.errors[i] = `${name}: ${page.log.errors[i]}`;
      timings.push(`${name} ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    await page.flushLog();
    const errors = page.log.errors.filter((e) => !NOTEBOOK_TEMPLATE_NOISE.test(e));
    c.check(errors.length === 0, 'no console errors or page errors', errors.join('\n    '));
  } catch (e) {
    c.check(false, `${engine} opens and runs`, e.stack ?? String(e));
  } finally {
    clearTimeout(deadline);
    await page?.close().catch((e) => console.log(`closing: ${e.message}`));
    served.server.close();
    cspServed.server.close();
    if (page) await writeFile(join(artefactsDir, `engines_${engine}_console.log`), page.log.lines.join('\n') + '\n');
  }
  console.log(`times: ${timings.join(', ')}; total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return c.finish();
}

process.exitCode = await main();
