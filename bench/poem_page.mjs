// Benchmark: the learned-heads view in headless Chromium, as a reader uses it
// (figures, not pass/fail; run on an otherwise idle machine):
//   - the view's first heatmap: from switching to it (the model not loaded
//     yet) to the first frame that draws a poem heatmap, on a local server;
//   - typing one character at the full context: the frame's own work (the
//     model's read of the text, every head's heatmap and the predictions);
//   - training in the page with one worker and with two: steps a second, the
//     time from Start until a previous-character head and a line-end head are
//     named, and the longest frame of the page's own work meanwhile.
//
//   node bench/poem_page.mjs <web build dir> [--seconds S]
//
// The web build dir holds poem_model.bin and corpus/ (scripts/poem_web_files.sh).
import { resolve } from 'node:path';
import { tmpdir } from 'node:os';

import { Lab, runBrowserTest } from '../tests/web/lab.mjs';

const webDir = resolve(process.argv[2] ?? 'build/wasm/web');
const at = process.argv.indexOf('--seconds');
const WINDOW_S = at > 0 ? Number(process.argv[at + 1]) : 20;  // steps/s over this window
const HEADS_TIMEOUT_S = 120;  // twice the goal's minute
const figures = {};
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const poem = (lab) => lab.state().then((s) => s.poem);
const named = (p, d) => (p.heads ?? []).some((h) => h.strongest === d);

async function firstHeatmap(page, url) {
  await page.goto(`${url}index.html?lang=zh`);
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: 120_000 });
  const lab = new Lab(page);
  await lab.settled();
  const ms = await page.evaluate(() => new Promise((done) => {
    const t0 = performance.now();
    window.attentionLab.set({ view: 'poem' });
    const look = () => {
      if (window.attentionLab.layout().heatmaps.some((h) => h.source === 'poem')) done(performance.now() - t0);
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }));
  const status = await page.evaluate(() => window.attentionLabPoem.status());
  const bytes = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((r) => /poem_model\.bin|attention_poem\.(js|wasm)|corpus\/tang300/.test(r.name))
    .map((r) => [r.name.split('/').pop(), r.encodedBodySize, r.decodedBodySize]));
  figures.first_heatmap_ms = Math.round(ms);
  figures.model_load_ms = status.ms;
  figures.download = bytes;
  return lab;
}

async function typing(lab, page) {
  // 63 characters: with <poem>, the whole context; each key adds one and the window moves on.
  const line = '床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n';
  let text = '';
  while (Array.from(text).length < 63) text += line;
  text = Array.from(text).slice(0, 63).join('');
  await page.evaluate((t) => window.attentionLab.set({ poem: -1, poem_text: t }), text);
  await lab.settled();
  await lab.click('poem_text');
  await page.keyboard.press('Control+End');
  await lab.settled();
  const frames = [];
  for (let i = 0; i < 20; ++i) {
    await page.evaluate(() => window.attentionLabFrames.stats({ reset: true }));
    await page.keyboard.type(i % 2 ? '月' : '花');
    await page.waitForFunction((n) => Array.from(window.attentionLab.state().poem.text).length === n, 64 + i);
    await lab.settled();
    frames.push((await page.evaluate(() => window.attentionLabFrames.stats({}))).longestFrameMs);
  }
  frames.sort((a, b) => a - b);
  figures.typing_frame_ms = { median: +frames[10].toFixed(2), max: +frames.at(-1).toFixed(2), edits: frames.length };
}

async function training(context, url, workers) {
  const page = await context.newPage();
  try {
    await page.addInitScript((n) => { window.attentionLabPoemWorkers = n; }, workers);
    await page.goto(`${url}index.html?view=poem&lang=zh`);
    await page.waitForFunction(() => window.attentionLab?.state().poem?.load === 'ready', null, { timeout: 120_000 });
    const lab = new Lab(page);
    await lab.settled();
    await lab.click('poem_train_start');
    const t0 = Date.now();
    await page.waitForFunction(() => window.attentionLab.state().poem.training?.steps >= 5, null, { timeout: 120_000 });
    await page.evaluate(() => window.attentionLabFrames.stats({ reset: true }));
    const s0 = (await poem(lab)).training.steps, w0 = Date.now();
    const out = { workers, trainer: await page.evaluate(() => window.attentionLabPoem.status().trainer) };
    // When a previous-character head (detector 0) and a line-end head (3) are
    // first named on the fixed poem: seconds after Start, and the step.
    const heads = { previous_character: null, line_end: null };
    for (;;) {
      await sleep(250);
      const p = await poem(lab);
      const seconds = (Date.now() - t0) / 1000;
      const at = { seconds: +seconds.toFixed(1), step: p.training.steps };
      if (!heads.previous_character && named(p, 0)) heads.previous_character = at;
      if (!heads.line_end && named(p, 3)) heads.line_end = at;
      if (out.steps_per_s === undefined && Date.now() - w0 >= WINDOW_S * 1000) {
        out.steps_per_s = +((p.training.steps - s0) / ((Date.now() - w0) / 1000)).toFixed(2);
        out.longest_frame_ms = +(await page.evaluate(() => window.attentionLabFrames.stats({}))).longestFrameMs.toFixed(2);
      }
      const found = heads.previous_character && heads.line_end;
      if ((found || seconds > HEADS_TIMEOUT_S || p.training?.finished) && out.steps_per_s !== undefined) break;
    }
    out.heads_named = heads;
    return out;
  } finally {
    await page.close();
  }
}

process.exitCode = await runBrowserTest({
  name: 'bench_poem_page', logName: 'bench_poem_page', webDir, artefactsDir: resolve(tmpdir(), 'bench_poem_page'),
  viewport: { width: 1280, height: 800 },
  run: async (c, page, url) => {
    const lab = await firstHeatmap(page, url);
    await typing(lab, page);
    figures.training = [await training(page.context(), url, 1), await training(page.context(), url, 2)];
    const [one, two] = figures.training;
    figures.two_workers_speedup = +(two.steps_per_s / one.steps_per_s).toFixed(2);
    c.check(true, 'figures measured');
    console.log(JSON.stringify(figures, null, 1));
  },
});
