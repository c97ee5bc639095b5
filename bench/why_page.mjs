// Benchmark: the why-attention view in headless Chromium, as a reader uses it
// (figures, not pass/fail; run on an otherwise idle machine): each panel's
// default training (Start, until it pauses at its last step) timed from the
// click, its steps a second, and the longest frame meanwhile; once with the
// runs in the view's Web Worker (web/why_worker.js) and once on the page's
// thread (the worker's file answering 404, as a host without it), in one run
// so the two compare. Then the forward timings the view's "Time the forward
// passes" button measures (in the worker), and the longest frame meanwhile.
//
//   node bench/why_page.mjs <web build dir>
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

import { Lab, runBrowserTest } from '../tests/web/lab.mjs';

const webDir = resolve(process.argv[2] ?? 'build/wasm/web');
const figures = {};
const why = (page) => page.evaluate(() => window.attentionLab.state().why);

async function train(page, query, panel) {
  await page.goto(`${page.url().split('?')[0]}${query}`);
  await page.waitForFunction((p) => window.attentionLab?.state().why?.[p]?.reported_step === 0, panel, { timeout: 120_000 });
  const lab = new Lab(page);
  await lab.settled();
  await page.evaluate(() => window.attentionLabFrames.stats({ reset: true }));
  const t0 = Date.now();
  await lab.click('why_start');
  await page.waitForFunction((p) => window.attentionLab.state().why[p].finished, panel, { timeout: 600_000, polling: 100 });
  const s = (Date.now() - t0) / 1000;
  // The report of the last step follows the step (from the worker: after its last slice).
  await page.waitForFunction((p) => { const w = window.attentionLab.state().why; return w[p].reported_step === w.steps; },
                             panel, { timeout: 120_000 });
  const w = await why(page);
  const trainer = await page.evaluate(() => window.attentionLabWhy.status().trainer);
  const report = w[panel].report;
  return { panel, query, trainer, steps: w.steps, seconds: +s.toFixed(1), steps_per_s: +(w.steps / s).toFixed(1),
           longest_frame_ms: +(await page.evaluate(() => window.attentionLabFrames.stats({}))).longestFrameMs.toFixed(1),
           accuracy: Object.fromEntries(Object.entries(panel === 'qkv' ? report.previous ?? report.lookup : report)
             .filter(([, m]) => m && typeof m === 'object' && 'accuracy' in m).map(([k, m]) => [k, m.accuracy])) };
}

process.exitCode = await runBrowserTest({
  name: 'why_page', logName: 'why_page', webDir, artefactsDir: resolve(tmpdir(), 'bench_why_page'), viewport: { width: 1280, height: 800 },
  run: async (c, page, url) => {
    await page.goto(`${url}index.html`);
    const runs = async () => [await train(page, '?view=why', 'recurrence'),
                              await train(page, '?view=why&why_panel=qkv', 'qkv'),
                              await train(page, '?view=why&why_panel=qkv&why_task=lookup', 'qkv')];
    figures.worker = await runs();
    console.log('in the worker:', JSON.stringify(figures.worker, null, 1));
    await page.route('**/why_worker.js', (r) => r.fulfill({ status: 404, body: 'not here' }));
    figures.page_thread = await runs();
    console.log("on the page's thread:", JSON.stringify(figures.page_thread, null, 1));
    await page.unroute('**/why_worker.js');
    await page.goto(`${url}index.html?view=why`);  // a page with its worker again
    await page.waitForFunction(() => window.attentionLab?.state().why?.recurrence?.reported_step === 0, null,
                               { timeout: 120_000 });
    const lab = new Lab(page);
    await lab.settled();
    await page.evaluate(() => window.attentionLabFrames.stats({ reset: true }));
    await lab.click('why_measure');
    await page.waitForFunction(() => !window.attentionLab.state().why.measuring, null, { timeout: 120_000 });
    figures.forward = (await why(page)).timing;
    figures.forward_longest_frame_ms = +(await page.evaluate(() => window.attentionLabFrames.stats({}))).longestFrameMs.toFixed(1);
    c.check(true, 'figures measured');
    console.log(JSON.stringify(figures, null, 1));
  },
});
