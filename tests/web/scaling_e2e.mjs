// Browser end-to-end test of the scaling lab, driven by REAL input events
// (page.mouse, never the JS API) on the WebGL canvas.
//
//   node tests/web/scaling_e2e.mjs <web build dir> <artefacts dir>
//
// window.attentionLab is only read: layout().controls says where widgets are,
// state().scaling what the lab displays. The oracle for the statistics is an
// independent JavaScript reimplementation (fig42_reference.mjs).
// Checks:
//  1. the "Scaling lab" tab opens with a click; the lab shows d_k, samples and
//     the current statistics;
//  2. dragging the d_k slider (mouse down on it, move, up) changes d_k and the
//     displayed raw/scaled std and softmax peak; the displayed numbers equal
//     the reference recomputation (same seed) to their 4 decimals, raw std is
//     within sampling tolerance of sqrt(d_k) and scaled std of 1 (tolerance:
//     5 standard errors of a sample std, see stdTolerance);
//  3. the sample-count combo (mouse) recomputes with the new count, same checks;
//  4. Start trains both models without freezing the page (frames keep coming,
//     the per-frame training time stays within its budget); the scaled model's
//     loss falls (last < first); Pause stops, Step adds one step, Reset clears;
//  5. every panel at 1280x800 and 800x600: a screenshot in the artefacts dir
//     (scaling_<panel>_<size>.png; scaling_lab_1280x800.png is the trained lab);
//  6. ?view=scaling&panel=saturation&dk=512 opens the lab on that panel and d_k.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { figure42Reference, stdTolerance } from './fig42_reference.mjs';
import { checkPixels, dragSlider, Lab, READY_TIMEOUT_MS, runBrowserTest, pngFile } from './lab.mjs';
import { countDistinctColours } from './pixels.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node scaling_e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}
const SIZES = [{ width: 1280, height: 800 }, { width: 800, height: 600 }];
const PANELS = ['fig42', 'saturation', 'training'];
// The lab displays its statistics with 4 decimals: half a unit of the last
// digit, plus slack for float32 and for libm differences between the browser's
// Math.log/sin/cos and the wasm build's (a last-bit change in one draw).
const DISPLAY_TOLERANCE = 0.00005 + 2e-5;
const TRAIN_STEPS_WANTED = 100;  // both models learn the task within a few hundred steps
const TRAIN_TIMEOUT_MS = 120_000;

// The displayed statistics against the reference and against the theory.
function checkStatistics(c, s, what) {
  const { d_k: dK, samples } = s.scaling;
  const want = figure42Reference(dK, samples);
  const failures = [];
  for (const key of ['raw_std', 'scaled_std', 'raw_peak', 'scaled_peak']) {
    const got = s.scaling[key];
    if (typeof got !== 'number' || !(Math.abs(got - want[key]) <= DISPLAY_TOLERANCE))
      failures.push(`${key}: displayed ${got}, reference ${want[key].toFixed(6)}`);
  }
  c.check(failures.length === 0,
          `${what}: displayed std and softmax peak at d_k ${dK} (${samples} samples) equal the reference recomputation`,
          failures.join('\n    '));
  const tol = stdTolerance(dK, samples);
  const rawRatio = s.scaling.raw_std / Math.sqrt(dK);
  c.check(Math.abs(rawRatio - 1) <= tol,
          `${what}: raw std ${s.scaling.raw_std} is sqrt(${dK}) = ${Math.sqrt(dK).toFixed(4)} within ` +
          `${(tol * 100).toFixed(1)} % (5 standard errors)`, `ratio ${rawRatio}`);
  c.check(Math.abs(s.scaling.scaled_std - 1) <= tol,
          `${what}: scaled std ${s.scaling.scaled_std} is 1 within ${(tol * 100).toFixed(1)} %`);
  c.check(s.scaling.scaled_peak < s.scaling.raw_peak || dK === 1,
          `${what}: the raw softmax peak (${s.scaling.raw_peak}) is above the scaled one (${s.scaling.scaled_peak})`);
}

async function openLab(c, lab) {
  await lab.click('tab_scaling');
  await lab.frames(4);
  const s = await lab.state();
  c.check(s.view === 'scaling' && s.scaling.panel === 'fig42',
          'clicking the "Scaling lab" tab opens the lab on Figure 4.2', JSON.stringify({ view: s.view, panel: s.scaling?.panel }));
  c.check(typeof s.scaling.raw_std === 'number' && s.scaling.curve_points > 0,
          'the lab shows the current d_k\'s statistics', JSON.stringify(s.scaling).slice(0, 300));
  checkStatistics(c, s, `default d_k ${s.scaling.d_k}`);
  return s;
}

async function dragDk(c, lab, page) {
  const before = (await lab.state()).scaling;
  await dragSlider(lab, page, 'scaling_dk', 0.3, 0.78);
  const s = await lab.state();
  const after = s.scaling;
  c.check(after.d_k !== before.d_k && after.d_k > 64,
          `dragging the d_k slider to the right changes d_k (${before.d_k} -> ${after.d_k})`);
  c.check(after.raw_std !== before.raw_std && after.scaled_std !== before.scaled_std &&
          after.raw_peak !== before.raw_peak,
          'the displayed raw/scaled std and raw softmax peak change with d_k',
          JSON.stringify({ before, after }).slice(0, 400));
  checkStatistics(c, s, 'after the drag');
  // And back to the left: a small d_k.
  await dragSlider(lab, page, 'scaling_dk', 0.6, 0.2);
  const small = await lab.state();
  c.check(small.scaling.d_k < after.d_k, `dragging left lowers d_k (${after.d_k} -> ${small.scaling.d_k})`);
  checkStatistics(c, small, 'after dragging left');
}

async function changeSamples(c, lab) {
  await lab.click('scaling_samples');
  await lab.frames(2);
  await lab.click('scaling_samples_item_1000');
  const s = await lab.state();
  c.check(s.scaling.samples === 1000, 'the sample-count combo switches to 1000 with the mouse', String(s.scaling.samples));
  checkStatistics(c, s, '1000 samples');
  await lab.click('scaling_samples');
  await lab.frames(2);
  await lab.click('scaling_samples_item_4000');
  c.check((await lab.state()).scaling.samples === 4000, 'and back to the chapter\'s 4000');
}

async function training(c, lab, page) {
  await lab.click('scaling_tab_training');
  let s = await lab.state();
  c.check(s.scaling.panel === 'training' && s.scaling.training.steps === 0 && !s.scaling.training.running,
          'the training panel opens with both models untrained', JSON.stringify(s.scaling.training));
  await lab.click('train_start');
  const started = Date.now();
  // Frames must keep coming while it trains, with no input: the app's own frame count over half a second.
  const frames0 = (await lab.state()).frames;
  await page.waitForTimeout(500);
  s = await lab.state();
  c.check(s.scaling.training.running || s.scaling.training.stopped === 'converged', 'Start runs the training',
          JSON.stringify(s.scaling.training));
  // (Software GL draws a frame in ~100 ms, slower when the machine is busy: up to 3 s for 3 frames.)
  let drawn = s.frames - frames0;
  for (let waited = 500; drawn < 3 && waited < 3000; waited += 250) {
    await page.waitForTimeout(250);
    drawn = (await lab.state()).frames - frames0;
  }
  c.check(drawn >= 3, `the page keeps drawing while training, with no input (${drawn} frames in ` +
                      `${((Date.now() - started) / 1000).toFixed(1)} s)`);
  c.check(s.scaling.training.train_ms_last_frame < 60,
          `training is time-sliced (${s.scaling.training.steps_last_frame} step pairs in ` +
          `${s.scaling.training.train_ms_last_frame.toFixed(1)} ms last frame; budget 8 ms + one step)`);
  // It stops by itself: both models converged, or the step budget used up.
  while (s.scaling.training.running && Date.now() - started < TRAIN_TIMEOUT_MS) {
    await page.waitForTimeout(500);
    s = await lab.state();
  }
  c.check(!s.scaling.training.running && ['converged', 'budget'].includes(s.scaling.training.stopped),
          `training stops by itself (${s.scaling.training.stopped} at step ${s.scaling.training.steps})`);
  if (s.scaling.training.stopped === 'converged') {
    // training_converged: both models' mean batch accuracy over their last 100 steps is >= 0.99.
    const { scaled, unscaled } = s.scaling.training;
    c.check(scaled.accuracy >= 0.9 && unscaled.accuracy >= 0.9, 'converged: both models predict (nearly) every batch right',
            `${scaled.accuracy} / ${unscaled.accuracy}`);
  }
  const idle0 = s.frames;
  await page.waitForTimeout(1000);
  const idle1 = (await lab.state()).frames;
  c.check(idle1 - idle0 <= 1, `once stopped, the idle lab draws no frames (${idle1 - idle0} in 1 s)`);
  const t = s.scaling.training;
  c.check(t.steps >= TRAIN_STEPS_WANTED, `both models train (${t.steps} steps in ${Date.now() - started} ms)`);
  c.check(t.scaled.steps === t.unscaled.steps, 'both models take the same number of steps',
          `${t.scaled.steps} vs ${t.unscaled.steps}`);
  c.check(t.scaled.loss < t.scaled.first_loss,
          `the scaled model's loss falls (${t.scaled.first_loss.toFixed(4)} -> ${t.scaled.loss.toFixed(4)})`);
  await page.mouse.move(5, 5);
  await lab.frames(3);
  const png = await lab.screenshot();
  await writeFile(join(artefactsDir, 'scaling_lab_1280x800.png'), pngFile(png));
  c.check(countDistinctColours(png) >= 32, 'the trained lab screenshot is not blank');

  await lab.click('train_pause');
  const paused = (await lab.state()).scaling.training;
  await lab.frames(10);
  const later = (await lab.state()).scaling.training;
  c.check(!paused.running && later.steps === paused.steps, `Pause stops the training at step ${paused.steps}`,
          `${paused.steps} -> ${later.steps}`);
  await lab.click('train_step');
  const stepped = (await lab.state()).scaling.training;
  c.check(stepped.steps === paused.steps + 1 && !stepped.running, 'Step adds exactly one step',
          `${paused.steps} -> ${stepped.steps}`);
  return stepped.steps;
}

async function resetTraining(c, lab) {
  await lab.click('train_reset');
  const t = (await lab.state()).scaling.training;
  c.check(t.steps === 0 && !t.running && t.scaled.steps === 0, 'Reset clears both models', JSON.stringify(t));
}

async function screenshots(c, lab, page, size) {
  await page.setViewportSize(size);
  await lab.frames(6);
  for (const panel of PANELS) {
    await lab.click(`scaling_tab_${panel}`);
    await page.mouse.move(5, 5);
    await lab.frames(4);
    const s = await lab.state();
    c.check(s.scaling.panel === panel, `${size.width}x${size.height}: the ${panel} panel opens with a click`);
    const png = await lab.screenshot();
    await writeFile(join(artefactsDir, `scaling_${panel}_${size.width}x${size.height}.png`), pngFile(png));
    const colours = countDistinctColours(png);
    c.check(colours >= 32, `${size.width}x${size.height} ${panel}: the screenshot is not blank`, `${colours} colours`);
  }
}

// The explorer's "trained" projection takes the lab's scaled model (mouse only),
// and what it draws is what compute(its config) returns: the config retrains it.
async function useTrainedModel(c, lab) {
  const steps = (await lab.state()).scaling.training.scaled.steps;
  await lab.click('tab_heatmaps');
  await lab.frames(3);
  await lab.click('projection');
  await lab.frames(3);
  await lab.click('projection_item_trained');
  await lab.frames(4);
  const config = await lab.config();
  c.check(config.projection === 'trained' && config.trained_steps === steps && config.trained_scaled === true,
          `the explorer's projection combo picks the trained model (${steps} steps)`, JSON.stringify(config));
  await checkPixels(c, lab, 'trained projection');
  await lab.click('tab_scaling');
  await lab.frames(3);
}

async function run(c, page, url) {
  await page.goto(url + 'index.html');
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  const lab = new Lab(page);
  await lab.frames(4);
  const start = await lab.state();
  c.check(start.view === 'heatmaps' && start.scaling && start.scaling.raw_std === null,
          'the page starts on the explorer; the lab computes nothing until opened', JSON.stringify(start.scaling));
  await openLab(c, lab);
  await dragDk(c, lab, page);
  await changeSamples(c, lab);
  // The saturation panel at a large d_k (URL-free: the slider again).
  await lab.click('scaling_tab_saturation');
  await dragSlider(lab, page, 'scaling_dk', 0.5, 0.98);
  const sat = await lab.state();
  c.check(sat.scaling.panel === 'saturation' && sat.scaling.d_k >= 700,
          `the saturation panel at a large d_k (${sat.scaling.d_k})`);
  await training(c, lab, page);
  await useTrainedModel(c, lab);
  // Panels at both sizes (the training panel shows the paused, trained models).
  for (const size of SIZES) await screenshots(c, lab, page, size);
  await page.setViewportSize(SIZES[0]);
  await lab.frames(6);  // the canvas follows the new size before controls are located again
  await resetTraining(c, lab);

  await page.goto(url + 'index.html?view=scaling&panel=saturation&dk=512');
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  await lab.settled();  // the view's code comes after ready: until it is drawn, not a number of frames
  const fromUrl = await lab.state();
  c.check(fromUrl.view === 'scaling' && fromUrl.scaling.panel === 'saturation' && fromUrl.scaling.d_k === 512,
          '?view=scaling&panel=saturation&dk=512 opens the lab there',
          JSON.stringify({ view: fromUrl.view, panel: fromUrl.scaling.panel, d_k: fromUrl.scaling.d_k }));
  checkStatistics(c, fromUrl, 'd_k 512 from the URL (a chapter dim: the chapter\'s numbers)');
  const shown = ['raw_std', 'scaled_std', 'raw_peak', 'scaled_peak'].map((k) => fromUrl.scaling[k].toFixed(4)).join(' ');
  c.check(shown === '22.8585 1.0102 0.9626 0.6563', 'at d_k 512 the lab shows the book\'s printed numbers', shown);
}

process.exitCode = await runBrowserTest({ name: 'scaling_e2e', logName: 'scaling', webDir, artefactsDir, viewport: SIZES[0], run });
