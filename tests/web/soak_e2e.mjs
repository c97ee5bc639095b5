// Soak: the page driven with random real input (typing English and Chinese,
// clicks on tabs, cells and presets, slider drags, the mask combo, the wheel,
// training start/pause, the language, the theme from a host page's set(), the
// window size) for a while, after a warm-up that visits the largest sizes.
// Fails on any console or page error, an abort, JS heap or wasm memory growth
// above 10 % after the warm-up, or a frame (attn_frame) longer than 250 ms.
//
//   node tests/web/soak_e2e.mjs <web build dir> <artefacts dir> [seconds]
//   (seconds: default 30, scripts/test.sh; SOAK_SECONDS=600 for the long run;
//    SOAK_SEED picks another sequence of actions)
import { join, resolve } from 'node:path';

import { Lab, dragSlider, openLab, runBrowserTest } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2, 4).map((p) => p && resolve(p));
const seconds = Number(process.argv[4] || process.env.SOAK_SECONDS || 30);
if (!webDir || !artefactsDir || !(seconds > 0)) {
  console.error('usage: node soak_e2e.mjs <web build dir> <artefacts dir> [seconds]');
  process.exit(2);
}
const MAX_GROWTH = 1.10, MAX_FRAME_MS = 250;

// A small seeded generator (mulberry32): a failure can be replayed with its SOAK_SEED.
const seed = Number(process.env.SOAK_SEED || 1);
let rngState = seed >>> 0;
function random() {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const WORDS = ['the', 'cat', 'sat', 'on', 'mat', 'attention', 'is', 'all', 'you', 'need', '我', '爱', '自然', '语言',
  '处理', '注意力', '机制', '猫', '坐', '在', '垫子', '上', '.', ','];

const stats = (page, reset = false) => page.evaluate((r) => window.attentionLabFrames.stats({ reset: r }), reset);
async function jsHeap(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}
async function controls(lab) {
  return Object.keys((await lab.layout()).controls ?? {});
}

async function typeText(lab, page, words) {
  await lab.click('sentence');
  await lab.chord('Control', 'a');
  await page.keyboard.type(words.join(' '), { delay: 5 });
  await page.keyboard.press('Enter');
  await lab.frames(3);
}

// Each action uses only what is on screen now; it returns false when it could not run.
const ACTIONS = {
  async type(lab, page) {
    if (!(await controls(lab)).includes('sentence')) return false;
    await typeText(lab, page, Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(WORDS)));
    return true;
  },
  tab: (lab) => clickOneOf(lab, (n) => n.startsWith('tab_')),
  async cell(lab) {
    const cell = await randomCell(lab);
    if (!cell) return false;
    await lab.clickAt(cell);
    return true;
  },
  async slider(lab, page) {
    const sliders = (await controls(lab)).filter((n) =>
      ['d_model', 'heads', 'temperature', 'scaling_dk', 'scaling_keys', 'train_lr'].includes(n));
    if (!sliders.length) return false;
    await dragSlider(lab, page, pick(sliders), 0.05 + 0.9 * random(), 0.05 + 0.9 * random(),
                     { steps: 4, framesPerStep: 1, settleFrames: 2 });
    return true;
  },
  preset: (lab) => clickOneOf(lab, (n) => n.startsWith('preset_')),
  async mask(lab) {
    if (!(await controls(lab)).includes('mask')) return false;
    await lab.click('mask');
    const items = (await controls(lab)).filter((n) => ['mask_item_none', 'mask_item_causal', 'mask_item_padding'].includes(n));
    if (items.length) await lab.click(pick(items));
    return true;
  },
  async training(lab) {
    const buttons = ['train_start', 'train_pause', 'train_step', 'train_reset'];
    // Its panel first, when another view is up (as a reader would go there).
    if (!(await controls(lab)).some((n) => buttons.includes(n)) &&
        !(await showControl(lab, ['tab_scaling', 'scaling_tab_training']))) return false;
    const here = await controls(lab);
    const button = pick(buttons.filter((n) => here.includes(n)));
    if (!button) return false;
    await lab.click(button);
    return true;
  },
  async language(lab) {
    await lab.click('language');
    const items = (await controls(lab)).filter((n) => n === 'language_en' || n === 'language_zh');
    if (!items.length) return false;
    await lab.click(pick(items));
    return true;
  },
  async theme(lab, page) {
    // No theme button on the page: a host page's set() is how it changes.
    const error = await page.evaluate((t) => window.attentionLab.set({ theme: t }), pick(['light', 'dark']));
    if (error) throw new Error('set({theme}) failed: ' + error);
    await lab.frames(3);
    return true;
  },
  async wheel(lab, page) {
    const cell = await randomCell(lab);
    if (!cell) return false;
    await page.mouse.move(cell.x, cell.y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, random() < 0.5 ? -120 : 120);
    await page.keyboard.up('Control');
    await lab.frames(3);
    return true;
  },
  async resize(lab, page) {
    await page.setViewportSize(pick([{ width: 1280, height: 800 }, { width: 1024, height: 700 },
                                      { width: 800, height: 600 }, { width: 414, height: 800 }]));
    await lab.frames(4);
    return true;
  },
};

// Clicks a random control on screen whose name passes `wanted`; false when there is none.
async function clickOneOf(lab, wanted) {
  const names = (await controls(lab)).filter(wanted);
  if (!names.length) return false;
  await lab.click(pick(names));
  return true;
}

// The centre of a random cell of a random heatmap on screen, bringing the
// heatmaps up first when another view shows none; null when it cannot.
async function randomCell(lab) {
  let layout = await lab.layout();
  if (!layout.heatmaps?.length) {
    if (!(await showControl(lab, ['tab_heatmaps']))) return null;
    layout = await lab.layout();
    if (!layout.heatmaps?.length) return null;
  }
  const hm = pick(layout.heatmaps);
  return lab.cellCentre(hm, hm.row0 + Math.floor(random() * hm.rows), hm.col0 + Math.floor(random() * hm.cols));
}

// Clicks the tabs in turn, when they are all on screen as each is reached.
async function showControl(lab, tabs) {
  for (const tab of tabs) {
    if (!(await controls(lab)).includes(tab)) return false;
    await lab.click(tab);
  }
  return true;
}

// The largest sizes the random phase can reach, once, so that memory the app
// keeps for them (wasm memory only grows) is there before the baseline.
async function warmUp(lab, page) {
  // Chinese on screen: the CJK font arrives and its atlas grows to the glyphs in use.
  await lab.click('language');
  await lab.click('language_zh');
  for (const preset of (await controls(lab)).filter((n) => n.startsWith('preset_'))) await lab.click(preset);
  await page.waitForFunction(() => ['loaded', 'failed'].includes(window.attentionLabFonts?.status().state));
  for (const size of [{ width: 414, height: 800 }, { width: 800, height: 600 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(size);
    await lab.frames(4);
  }
  // The longest sentence goes in with insertText (the browser's text
  // insertion, as an input method's result: real input, one event). Typed
  // key by key, its ~500 characters were a recompute and a frame each: half
  // of this test's time. The random phase below types with the keyboard.
  const longest = Array.from({ length: 120 }, (_, i) => WORDS[i % WORDS.length]).join(' ');
  await lab.click('sentence');
  await lab.chord('Control', 'a');
  await page.keyboard.insertText(longest);
  await page.waitForFunction((t) => {
    const config = window.attentionLab.currentConfig();
    return (typeof config === 'string' ? JSON.parse(config) : config).text === t;
  }, longest, { timeout: 60_000 });
  await page.keyboard.press('Enter');
  await lab.frames(3);
  await dragSlider(lab, page, 'd_model', 0.5, 1.0, { steps: 3, framesPerStep: 2, settleFrames: 20 });
  await dragSlider(lab, page, 'heads', 0.5, 1.0, { steps: 3, framesPerStep: 2, settleFrames: 20 });
  // A change at that size: the new result is computed while the last one stays on screen.
  for (const item of ['mask_item_causal', 'mask_item_padding', 'mask_item_none']) {
    await lab.click('mask');
    await lab.click(item);
    await lab.frames(20);
  }
  for (const tab of ['tab_stats', 'tab_steps', 'tab_lines', 'tab_focus', 'tab_chapter', 'tab_heatmaps']) await lab.click(tab);
  await lab.click('tab_scaling');
  for (const panel of ['scaling_tab_fig42', 'scaling_tab_saturation', 'scaling_tab_training']) await lab.click(panel);
  await lab.click('train_start');
  await page.waitForTimeout(3000);
  await lab.click('train_pause');
  await lab.click('tab_heatmaps');
  await lab.click('language');
  await lab.click('language_en');
  await lab.frames(10);
}

process.exitCode = await runBrowserTest({
  name: 'soak_e2e', logName: 'soak', webDir, artefactsDir, viewport: { width: 1280, height: 800 },
  run: async (c, page, url) => {
    const lab = await openLab(page, url, '?lang=en');
    const cdp = await page.context().newCDPSession(page);
    await warmUp(lab, page);
    const heap0 = await jsHeap(cdp), wasm0 = (await stats(page, true)).wasmBytes, frames0 = (await lab.state()).frames;
    const counts = {};
    let skipped = 0;
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const name = pick(Object.keys(ACTIONS));
      // A harness slip (a control that moved between layout() and the click)
      // is not the app's failure; the checks below and the console are.
      const ran = await ACTIONS[name](new Lab(page), page).catch((e) => (console.log(`  (${name}: ${e.message})`), false));
      if (ran) counts[name] = (counts[name] ?? 0) + 1;
      else ++skipped;
      if (await page.evaluate(() => document.body.dataset.ready) !== '1') break;
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await lab.frames(6);
    const heap1 = await jsHeap(cdp), after = await stats(page), frames = (await lab.state()).frames - frames0;
    const actions = Object.values(counts).reduce((a, b) => a + b, 0);
    const mb = (b) => (b / 1048576).toFixed(1) + ' MB';
    console.log(`soak: ${seconds} s (seed ${seed}), ${actions} actions ${JSON.stringify(counts)}, ${skipped} skipped, ` +
                `${frames} frames; JS heap ${mb(heap0)} -> ${mb(heap1)}, wasm memory ${mb(wasm0)} -> ` +
                `${mb(after.wasmBytes)}, longest frame ${after.longestFrameMs.toFixed(1)} ms`);
    await page.screenshot({ path: join(artefactsDir, 'soak_end.png') });
    c.check(await page.evaluate(() => document.body.dataset.ready) === '1', 'the lab is still running (no abort)');
    c.check(actions >= seconds / 3 && Object.keys(counts).length >= 8,
            `the soak ran (${actions} actions of ${Object.keys(counts).length} kinds in ${seconds} s)`);
    c.check(heap1 <= heap0 * MAX_GROWTH, `JS heap after warm-up ${mb(heap0)} -> ${mb(heap1)} (<= +10 %)`);
    c.check(after.wasmBytes <= wasm0 * MAX_GROWTH,
            `wasm memory after warm-up ${mb(wasm0)} -> ${mb(after.wasmBytes)} (<= +10 %)`);
    c.check(after.longestFrameMs <= MAX_FRAME_MS,
            `no frame longer than ${MAX_FRAME_MS} ms (longest ${after.longestFrameMs.toFixed(1)} ms)`);
  },
});
