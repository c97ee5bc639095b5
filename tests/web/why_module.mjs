// The why-attention experiments' module in a browser (web/why.js,
// src/platform/why_module.cpp), against the native attention_cli: the same
// experiments, trained in the browser's wasm, must print the CLI's numbers
// exactly (the core's arithmetic is the same bits everywhere). Also: it is
// not part of the first download, it loads on loadWhy(), the view's runs
// (trained in slices in the worker, or on the page's thread without it) reach
// the same numbers, bad settings get a clear message, and the forward
// timings have a row per layer and length.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { asObject, checkPixels, Lab, pngFile } from './lab.mjs';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'native', 'src', 'cli', 'attention_cli');

// JSON with every object's keys sorted: drivers hand objects back in their own key order.
const canonical = (v) => JSON.stringify(v, (key, value) => (value && typeof value === 'object' && !Array.isArray(value)
  ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]])) : value));

// What the CLI prints for the same settings (the README's first command builds it).
function cliJson(args) {
  return JSON.parse(execFileSync(CLI, ['why', ...args, '--json'], { encoding: 'utf8', maxBuffer: 1 << 24 }));
}

// The view's link for checkWhyView: short runs, so a test trains them to the end.
export const WHY_VIEW_QUERY = '?view=why&why_distance=8&why_steps=12&why_seed=3';

// Until the panel's run is fresh and reported ('ready'), or trained to its last step and reported ('finished').
function untilWhy(page, panel, phase) {
  return page.waitForFunction(([panel, phase]) => {
    const s = window.attentionLab.state();
    const why = (typeof s === 'string' ? JSON.parse(s) : s).why;
    const run = why[panel];
    return phase === 'ready' ? why.load === 'ready' && run.reported_step === 0 && !run.running
                             : run.finished && run.reported_step === why.steps;
  }, [panel, phase], { timeout: 120_000 });
}

// The panel's run, trained to its end with a mouse click on Start, against
// compute() for its settings and step (the CLI's document, which why_run_check
// and checkWhyModule hold to the native CLI), its heatmaps' pixels against
// those numbers, and the accessible copy's summary.
async function trainPanel(c, lab, panel, what, save) {
  const page = lab.page;
  await untilWhy(page, panel, 'ready');
  await lab.click('why_start');
  await untilWhy(page, panel, 'finished');
  await lab.settled();
  const { layout, png, result } = await checkPixels(c, lab, what);
  await save?.(`why_${panel}`, pngFile(png));
  const why = asObject(await lab.state()).why;
  const report = { ...why[panel].report };
  delete report.finished;
  c.check(canonical(report) === canonical(result) && report.steps === why.steps,
          `${what}: the view's numbers at step ${why.steps} are compute(layout().config)'s, number for number`,
          `${JSON.stringify(layout.config)}: view ${JSON.stringify(report).slice(0, 160)}\n    compute ${JSON.stringify(result).slice(0, 160)}`);
  const heatmaps = layout.heatmaps.filter((h) => h.source === 'why').length;
  c.check(heatmaps === (panel === 'qkv' ? 3 : 1), `${what}: the attention heatmaps are drawn (${heatmaps})`);
  // The accessible copy follows the frames (web/a11y.js): wait for this run's summary.
  const marker = panel === 'qkv' ? 'W_Q = W_K' : 'distance';
  await page.waitForFunction(([steps, marker]) => {
    const text = document.getElementById('a11y-summary')?.textContent ?? '';
    return text.startsWith(`After ${steps} steps`) && text.includes(marker);
  }, [why.steps, marker], { timeout: 30_000 }).catch(() => {});  // the checks below say what it held
  const summary = await page.evaluate(() => document.getElementById('a11y-summary')?.textContent ?? '');
  return { why, report, summary };
}

// The view as a reader uses it: opened from a link (WHY_VIEW_QUERY), each
// panel trained with the mouse, both panels' numbers, pixels and copy.
// lab: tests/web/lab.mjs's Lab on that link; save(name, pngBytes): keeps a screenshot.
export async function checkWhyView(c, lab, save) {
  const rec = await trainPanel(c, lab, 'recurrence', 'why attention, recurrence vs attention', save);
  const percent = (v) => (v * 100).toFixed(1);
  c.check(rec.why.distance === 8 && rec.why.seed === 3 &&
          rec.summary.includes(`After 12 steps at distance 8: attention ${percent(rec.report.attention.accuracy)} %`),
          "the link's settings hold, and the accessible copy's summary says the run's numbers", rec.summary);
  await lab.click('why_panel_1');
  await lab.click('why_task_1');
  const qkv = await trainPanel(c, lab, 'qkv', 'why attention, Q/K/V on lookup', save);
  const tied = qkv.report.lookup?.tied;
  c.check(qkv.why.task === 'lookup' && tied?.asymmetry < 1e-5 && qkv.summary.includes(`separate ${percent(qkv.report.lookup.separate.accuracy)} %`) &&
          qkv.summary.includes('max|S - S^T| / max|S|'),
          'clicking Q/K/V and lookup trains that task; the copy says the tied scores are symmetric, with the numbers',
          `${qkv.why.task} ${tied?.asymmetry} ${qkv.summary}`);
  c.check(asObject(await lab.state()).why.recurrence.step === 12, 'the recurrence run stays as it was meanwhile');
  c.check(rec.report.cnn && rec.summary.includes(`The CNN (4 layers of kernel 3) reaches 8 positions back: ${percent(rec.report.cnn.accuracy)} %`),
          'the CNN trains beside them, and the copy says how far it reaches, with its accuracy', rec.summary);
  // The CNN's depth with the mouse: a click at the slider's left end sets its
  // least, 1 layer (reaching 2 back), and starts a fresh run.
  await lab.click('why_panel_0');
  const rect = await lab.controlRect('why_layers');
  await lab.clickAt({ x: rect.x + 2, y: rect.y + rect.h / 2 });
  await untilWhy(lab.page, 'recurrence', 'ready');
  const shallower = asObject(await lab.state()).why;
  const g = shallower.recurrence.report?.cnn?.gradient ?? [];
  c.check(shallower.conv_layers === 1 && shallower.recurrence.step === 0 && shallower.recurrence.report?.conv_layers === 1 &&
          g.length > 3 && g.slice(0, g.length - 3).every((v) => v === 0) && g[g.length - 3] > 0 &&
          (await lab.page.evaluate(() => window.attentionLab.get())).why_layers === 1,
          'a click at the left end of the CNN layers slider starts a fresh run of a 1-layer CNN: its gradient reaches 2 back, no further (why_layers=1 in the URL)',
          JSON.stringify({ layers: shallower.conv_layers, step: shallower.recurrence.step, report: shallower.recurrence.report?.conv_layers }));
}

// Start, Pause, Step and Reset with the mouse on a run long enough to be
// caught mid-way (WHY_CONTROLS_QUERY), trained in the view's worker: Pause
// stops it where it is, Step takes exactly one step more, and the numbers at
// that step are a fresh run's to the same step, so no step was lost or taken
// twice between the threads. Reset starts again at step 0.
export const WHY_CONTROLS_QUERY = '?view=why&why_distance=8&why_steps=2000&why_seed=3';
export async function checkWhyControls(c, lab) {
  const page = lab.page;
  await untilWhy(page, 'recurrence', 'ready');
  const run = async () => asObject(await lab.state()).why.recurrence;
  await lab.click('why_start');
  c.check((await run()).running, 'Start: the run is training as soon as the click is drawn');
  await page.waitForFunction(() => window.attentionLab.state().why.recurrence.step >= 3, null, { timeout: 120_000 });
  await lab.click('why_pause');
  const paused = await run();
  c.check(!paused.running && paused.step >= 3 && paused.step < 2000 && paused.reported_step === paused.step,
          'Pause: the run stops where it is, and its report is of that step',
          JSON.stringify({ running: paused.running, step: paused.step, reported: paused.reported_step }));
  await lab.click('why_step');
  const stepped = await run();
  c.check(!stepped.running && stepped.step === paused.step + 1 && stepped.reported_step === stepped.step,
          'Step: exactly one step more (the worker trained nothing after Pause)', `${paused.step} -> ${stepped.step}`);
  const { result } = await checkPixels(c, lab, `why attention paused at step ${stepped.step}`);
  const report = { ...stepped.report };
  delete report.finished;
  c.check(canonical(report) === canonical(result),
          `... and its numbers are a fresh run's to step ${stepped.step}, number for number`,
          `view ${JSON.stringify(report).slice(0, 160)}\n    compute ${JSON.stringify(result).slice(0, 160)}`);
  await lab.click('why_reset');
  const reset = await run();
  c.check(reset.step === 0 && reset.reported_step === 0 && !reset.running, 'Reset: the run starts again at step 0',
          JSON.stringify({ step: reset.step, reported: reset.reported_step }));
  // The forward timings, measured in the worker a length at a time (the click
  // waits until the view has them all: settled() waits while it measures).
  await lab.click('why_measure');
  const why = asObject(await lab.state()).why;
  const rows = why.timing ?? [];
  const trainer = await page.evaluate(() => window.attentionLabWhy.status().trainer);
  c.check(trainer === 'worker' && !why.measuring && rows.length === 16 && rows.every((r) => r.ms > 0) &&
          rows.filter((r) => r.n === 1024).map((r) => `${r.layer} ${r.dependent_steps}`).join() ===
            'rnn 1024,gru 1024,attention 1,cnn 1',
          '"Time the forward passes": a row per layer and length, timed in the worker',
          `${trainer}: ${JSON.stringify(rows.slice(0, 3))}`);
}

// Without its worker (why_worker.js answers 404, as a host that did not copy
// it) the view trains on the page's thread, to the same numbers.
export async function checkWhyWithoutWorker(c, context, url) {
  const page = await context.newPage();
  await page.bringToFront();  // the page behind is another tab, which the browser may stop drawing
  const warnings = [];
  page.on('console', (m) => warnings.push(m.text()));
  try {
    await page.route('**/why_worker.js', (r) => r.fulfill({ status: 404, body: 'not here' }));
    await page.goto(`${url}index.html${WHY_VIEW_QUERY}`);
    await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: 120_000 });
    const lab = new Lab(page);
    await trainPanel(c, lab, 'recurrence', 'why attention without its worker (why_worker.js: 404)');
    const status = await page.evaluate(() => window.attentionLabWhy.status());
    c.check(status.trainer === 'page' && warnings.some((w) => w.includes("trains on the page's thread")),
            '... trained on the page\'s thread, and the console says why', JSON.stringify(status));
  } finally {
    await page.close();
  }
}

// checks: tests/web/lab.mjs's Checks; page: a Playwright page with the lab ready.
export async function checkWhyModule(c, page) {
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  c.check(!fetched.some((n) => n.includes('attention_why') || n.endsWith('/why.js')),
          'the why-attention module is not part of the first download');
  c.check(await page.evaluate(() => window.attentionLab.compute({ why: {} }).error?.includes('loadWhy()')),
          'before loadWhy(), compute({why}) says how to load the module');
  await page.evaluate(() => window.attentionLab.loadWhy());
  const status = await page.evaluate(() => window.attentionLabWhy.status());
  c.check(status.state === 'loaded' && status.trainer === 'worker',
          "loadWhy() loads it, and the view's runs will train in a Web Worker (why_worker.js)", JSON.stringify(status));
  if (!c.check(existsSync(CLI), `the native CLI to compare with is built (${CLI})`)) return;

  const runs = [
    [{ experiment: 'recurrence', distance: 8, steps: 25, batch: 8, seed: 3 },
      ['recurrence', '--distance', '8', '--steps', '25', '--batch', '8', '--seed', '3']],
    [{ experiment: 'qkv', task: 'lookup', steps: 25, batch: 8, seed: 7, lr: 0.02 },
      ['qkv', '--task', 'lookup', '--steps', '25', '--batch', '8', '--seed', '7', '--lr', '0.02']],
  ];
  for (const [settings, args] of runs) {
    const browser = await page.evaluate((s) => window.attentionLab.compute({ why: s }), settings);
    const native = cliJson(args);
    c.check(canonical(browser) === canonical(native),
            `compute({why: ${JSON.stringify(settings)}}) is attention_cli why ${args.join(' ')} --json, number for number`,
            `browser ${JSON.stringify(browser).slice(0, 200)}\n    CLI ${JSON.stringify(native).slice(0, 200)}`);
  }

  // Bad settings (the view's own requests are held to the same checks natively:
  // tests/ui/test_why_lab.cpp, "the module answers bad requests").
  const bad = await page.evaluate(() => [
    window.attentionLab.compute({ why: { experiment: 'recurrence', distance: 65 } }).error,
    window.attentionLab.compute({ why: { lr: NaN } }).error,
    window.attentionLab.compute({ why: { batch: 0 } }).error,
    window.attentionLab.compute({ why: { experiment: 'qkv', task: 'copy' } }).error,
    window.attentionLab.compute({ why: { colour: 1 } }).error,
    window.attentionLab.compute({ why: { steps: -1 } }).error,
  ]);
  c.check(bad[0]?.includes('distance') && bad[1]?.includes('lr') && bad[2]?.includes('batch') &&
          bad[3]?.includes('task') && bad[4]?.includes('unknown key') && bad[5]?.includes('steps'),
          'bad settings get a message naming what is wrong (k beyond the sequence, NaN learning rate, ...)', JSON.stringify(bad));
}
