// Benchmark: the scaling lab's training panel in headless Chromium, as a
// reader uses it (figures, not pass/fail; run on an otherwise idle machine):
// Start, timed from the click until both models stop (converged, or at the
// step budget), the steps taken, and the longest frame of the page's own work
// meanwhile. The tiny models train on the page's thread, about 8 ms of steps a
// frame (src/ui/scaling/schedule.cpp); this says whether that holds a frame.
//
//   node bench/scaling_page.mjs <web build dir>
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

import { Lab, runBrowserTest } from '../tests/web/lab.mjs';

const webDir = resolve(process.argv[2] ?? 'build/wasm/web');

process.exitCode = await runBrowserTest({
  name: 'scaling_page', logName: 'scaling_page', webDir, artefactsDir: resolve(tmpdir(), 'bench_scaling_page'),
  viewport: { width: 1280, height: 800 },
  run: async (c, page, url) => {
    await page.goto(`${url}index.html?view=scaling&panel=training`);
    await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: 120_000 });
    const lab = new Lab(page);
    await lab.settled();
    await page.evaluate(() => window.attentionLabFrames.stats({ reset: true }));
    const t0 = Date.now();
    await lab.click('train_start');
    await page.waitForFunction(() => !window.attentionLab.state().scaling.training.running, null,
                               { timeout: 300_000, polling: 100 });
    const training = (await lab.state()).scaling.training;
    const stats = await page.evaluate(() => window.attentionLabFrames.stats());
    c.check(true, 'figures measured');
    console.log(JSON.stringify({ seconds: (Date.now() - t0) / 1000, steps: training.steps, stopped: training.stopped,
                                 longest_frame_ms: +stats.longestFrameMs.toFixed(1) }));
  },
});
