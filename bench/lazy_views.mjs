// Benchmark: opening a view whose code or module is not in the first
// download, in headless Chromium (figures, not pass/fail; run on an otherwise
// idle machine). On a fresh page for each view, its tab is clicked with the
// mouse either the moment the page says ready (the main module's deferred
// part still on its way) or once that part is there, and timed from the
// click's release to its first figure: the lab settled (web/frames.js: what
// the click asked for is on the screen) with the view's own work done (the
// chapter's Figure 4.1, the Scaling lab's curves, the why experiments' first
// report, the poem model read). Served from localhost: no network time.
//
//   node bench/lazy_views.mjs <web build dir> [repeats]
import { cpus, tmpdir } from 'node:os';
import { resolve } from 'node:path';

import { Lab, openLab, runBrowserTest } from '../tests/web/lab.mjs';

const webDir = resolve(process.argv[2] ?? 'build/wasm/web');
const repeats = Number(process.argv[3] ?? 3);
// Each view's first figure, as state() tells it once the lab has settled.
const VIEWS = {
  chapter: (s) => s.view === 'chapter',
  scaling: (s) => s.view === 'scaling',  // settled: its curves are computed (app_pending)
  why: (s) => s.view === 'why' && s.why.load === 'ready' && s.why.recurrence.reported_step === 0,
  poem: (s) => s.view === 'poem' && s.poem.load === 'ready' && Array.isArray(s.poem.heads),
};

async function open(page, url, tab, view, when) {
  await page.goto(`${url}index.html`);
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: 120_000 });
  if (when === 'code there') await page.waitForFunction(() => document.body.dataset.code === 'ready');
  const lab = new Lab(page);
  await page.mouse.move(tab.x, tab.y);
  await page.mouse.down();
  await new Promise((ok) => setTimeout(ok, 60));
  await page.mouse.up();
  const start = Date.now();
  for (;;) {
    await lab.settled();
    const state = await lab.state();
    if (VIEWS[view](state)) break;
    await page.waitForTimeout(20);  // the view's module answers later: look again
  }
  return Date.now() - start;
}

process.exitCode = await runBrowserTest({
  name: 'lazy_views', logName: 'lazy_views', webDir, artefactsDir: resolve(tmpdir(), 'bench_lazy_views'),
  viewport: { width: 1280, height: 800 },
  run: async (c, page, url) => {
    const warm = await openLab(page, url);
    const tabs = {};
    for (const view of Object.keys(VIEWS)) tabs[view] = await warm.controlCentre(`tab_${view}`);
    const figures = {};
    for (const when of ['at ready', 'code there']) {
      for (const view of Object.keys(VIEWS)) {
        const ms = [];
        for (let i = 0; i < repeats; ++i) ms.push(await open(page, url, tabs[view], view, when));
        ms.sort((a, b) => a - b);
        figures[`${view}, clicked ${when}`] = { median_ms: ms[ms.length >> 1], max_ms: ms.at(-1) };
      }
    }
    const browser = page.context().browser();
    console.log(`machine: ${cpus()[0].model}, ${cpus().length} cores; Chromium ${browser ? browser.version() : '(persistent context)'}`);
    console.log(JSON.stringify(figures, null, 1));
    c.check(true, 'figures measured');
  },
});
