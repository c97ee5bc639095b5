// The learned-heads view's "watch it learn" in a headless Chromium page:
// trains a fresh model in the page from Start to the shipped
// model's step count and prints figures, not pass/fail:
//   - steps a second in the trainer (a Web Worker, web/poem_worker.js), and
//     how long the 1,100 steps take;
//   - the page's frames meanwhile (attn_frame's longest, and the frame
//     intervals' median and 95th percentile from requestAnimationFrame);
//   - when each head's punctuation ratio (its weight on punctuation over
//     punctuation's share of the characters) first reached 3x, on the fixed
//     held-out poem the view measures while it trains (the "line boundary"
//     pattern of the model issue), and the largest seen.
// Run it on an otherwise idle machine (timings are wall-clock):
//
//   node bench/poem_page.mjs build/wasm/web [--seconds 600] [--no-worker]
//
// --no-worker: a page whose browser gives no Worker, so training runs on the
// page's thread, time-sliced between frames (web/poem.js's fallback): the
// same figures, for a ratio measured on one machine in one sitting.
// The web build needs poem_model.bin beside it (scripts/test.sh copies the
// native build's; or cp build/native/poem_model.bin build/wasm/web/).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';

import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS, openLab } from '../tests/web/lab.mjs';
import { serveDirectory } from '../tests/web/static_server.mjs';

const args = process.argv.slice(2);
const webDir = args[0] && resolve(args[0]);
const seconds = Number(args.includes('--seconds') ? args[args.indexOf('--seconds') + 1] : 600);
const noWorker = args.includes('--no-worker');
if (!webDir || !existsSync(join(webDir, 'poem_model.bin')) || !(seconds > 0)) {
  console.error('usage: node bench/poem_page.mjs <web build dir with poem_model.bin> [--seconds S]');
  process.exit(2);
}

const cpu = os.cpus()[0]?.model ?? '?';
const { server, url } = await serveDirectory(webDir);
const profile = await mkdtemp(join(os.tmpdir(), 'attn-bench-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 800 },
});
try {
  const page = context.pages()[0] ?? await context.newPage();
  if (noWorker) await context.addInitScript(() => { delete window.Worker; });
  const lab = await openLab(page, url, '?view=poem&lang=zh');
  await page.waitForFunction(() => window.attentionLab.state().poem.load === 'ready', null, { timeout: 120_000 });
  // Frame intervals from requestAnimationFrame, from Start on.
  await page.evaluate(() => {
    window.benchIntervals = [];
    let last = performance.now();
    const tick = (now) => {
      window.benchIntervals.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    window.attentionLabFrames.stats({ reset: true });
  });
  await lab.click('poem_train_start');
  const started = Date.now();
  const firstAt3x = new Map();  // "layer.head" -> {seconds, step}
  let largest = 0, last = null, stepAt = [];
  for (;;) {
    await new Promise((ok) => setTimeout(ok, 1000));
    const p = (await lab.state()).poem;
    const elapsed = (Date.now() - started) / 1000;
    const steps = p.training?.steps ?? 0;
    stepAt.push([elapsed, steps]);
    for (const h of p.heads ?? []) {
      const ratio = Number((/的 ([0-9.]+) 倍/.exec(h.sentence) ?? [])[1]);
      if (!(ratio >= 0)) continue;
      largest = Math.max(largest, ratio);
      const key = `${h.layer + 1}.${h.head + 1}`;
      if (ratio >= 3 && !firstAt3x.has(key) && steps > 0) firstAt3x.set(key, { seconds: elapsed, step: steps });
    }
    last = p;
    if (p.training?.finished || elapsed > seconds || p.corpus === 'failed') break;
  }
  const elapsed = (Date.now() - started) / 1000;
  const frames = await page.evaluate(() => ({ stats: window.attentionLabFrames.stats({}), intervals: window.benchIntervals }));
  const sorted = frames.intervals.slice(5).sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const t = last.training ?? {};
  // Steps a second after the first 10 s (the corpus fetched, the untrained model scored).
  const from = stepAt.find(([s]) => s >= 10) ?? stepAt[0];
  const rate = (t.steps - from[1]) / (elapsed - from[0]);
  console.log(`# the learned-heads view's training in the page (${cpu}, ${os.cpus().length} cores, headless Chromium)`);
  console.log(`trainer: ${await page.evaluate(() => window.attentionLabPoem.status().trainer)}`);
  console.log(`steps: ${t.steps} of ${t.target} in ${elapsed.toFixed(1)} s${t.finished ? ' (finished)' : ''}; ` +
              `${rate.toFixed(2)} steps/s after the first 10 s`);
  console.log(`held-out loss: ${(t.eval_loss ?? []).map((x, i) => `${t.eval_steps[i]}: ${x.toFixed(2)}`).join(', ')}` +
              (t.finished ? `; the shipped model's ${t.shipped_loss.toFixed(2)}` : ''));
  console.log(`frames while training: interval median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, ` +
              `max ${sorted.at(-1)?.toFixed(1)} ms over ${sorted.length}; longest attn_frame ${frames.stats.longestFrameMs} ms`);
  console.log(`first head at >= 3x punctuation's share: ${firstAt3x.size
    ? [...firstAt3x].map(([k, v]) => `head ${k} at ${v.seconds.toFixed(0)} s (step ${v.step})`).join(', ')
    : 'none'}; the largest ratio seen ${largest.toFixed(1)}x`);
  console.log(`patterns at the end: ${(last.heads ?? []).map((h) => `${h.layer + 1}.${h.head + 1} ${h.pattern}`).join(', ')}`);
} finally {
  await context.close().catch(() => {});
  server.close();
  await rm(profile, { recursive: true, force: true });
}
