// The first run: scripts/run.sh serves the lab as soon as the web app is built
// and trains the poem model behind it. With an empty model cache
// (ATTN_POEM_CACHE) and a short model (ATTN_POEM_STEPS), into a folder of its
// own (--out), this test:
//   - holds the training behind it (SIGSTOP to its process group) before it
//     has begun and again once it has taken steps, so what the page sees
//     does not depend on how fast the machine is;
//   - checks the explorer is served and drawn meanwhile (pixels against compute());
//   - opens the learned-heads view with a real click and reads, in the view's
//     accessible copy, "preparing", then the step it stopped at of the steps
//     and the time left;
//   - lets the trainer go and waits for the view to open the model by itself
//     (no reload), its heatmaps' pixels against compute();
//   - checks the progress file is gone, the weights are the cache's, and
//     stopping run.sh stops the server.
//
//   node tests/web/first_run_e2e.mjs WEB_DIR ARTEFACTS_DIR   (WEB_DIR: only its presence is checked;
//                                                          run.sh builds and copies the app itself)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS, Lab, READY_TIMEOUT_MS, checkPixels, pngFile } from './lab.mjs';
import { Checks } from './pixels.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STEPS = 400;  // a quick model: the default's 14,000 would take minutes
const LANDS_MS = 240_000;  // the corpus twice (training, the page's slice) and 400 steps on a loaded machine

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
// Polls `probe` until it returns something truthy (a condition, not a number of tries).
async function until(what, probe, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

async function get(url) {
  try {
    const r = await fetch(url, { cache: 'no-store' });
    return { status: r.status, text: await r.text() };
  } catch (e) {
    return null;
  }
}

// A process's group (/proc/PID/stat's fifth field; the name before it may hold spaces).
function processGroup(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}
// The training behind run.sh: the process group of its own (run.sh's set -m)
// whose processes carry this test's ATTN_POEM_CACHE; 0 while there is none.
function trainingGroup(cache, runGroup) {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`ATTN_POEM_CACHE=${cache}`)) continue;
      const group = processGroup(pid);
      if (group !== runGroup) return group;
    } catch (e) {
      // gone meanwhile
    }
  }
  return 0;
}

// The view's accessible copy (its summary), once it holds `text` or the time is up.
async function copyFor(page, text) {
  await page.waitForFunction((t) => document.getElementById('a11y-summary')?.textContent.includes(t), text,
                             { timeout: 30_000 }).catch(() => {});
  return page.evaluate(() => document.getElementById('a11y-summary')?.textContent ?? '');
}

async function main() {
  const c = new Checks('first_run_e2e');
  if (!c.check(existsSync(join(webDir, 'index.html')), `web build found in ${webDir}`, 'build attention_web first'))
    return c.finish();
  await mkdir(artefactsDir, { recursive: true });
  const tmp = await mkdtemp(join(tmpdir(), 'attn-first-run-'));
  const cache = join(tmp, 'cache'), out = join(tmp, 'web');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const runLog = join(artefactsDir, 'first_run_run.log');
  const logLines = [];
  const run = spawn(join(ROOT, 'scripts', 'run.sh'), ['--port', String(port), '--out', out], {
    cwd: ROOT, env: { ...process.env, ATTN_POEM_CACHE: cache, ATTN_POEM_STEPS: String(STEPS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  run.stdout.on('data', (d) => logLines.push(String(d)));
  run.stderr.on('data', (d) => logLines.push(String(d)));
  const exited = new Promise((ok) => run.on('exit', (code, signal) => ok({ code, signal })));
  let running = true;
  exited.then(() => { running = false; });
  let trainer = 0;  // the training's process group
  let context;
  const profile = await mkdtemp(join(tmpdir(), 'attn-chromium-'));
  const errors = [];
  try {
    // ---- served before the model: the trainer held while it prepares ----
    const runGroup = processGroup(run.pid);
    trainer = await until('the training to start', () => (running ? trainingGroup(cache, runGroup) : Promise.reject(
      new Error('run.sh stopped'))), 300_000);
    process.kill(-trainer, 'SIGSTOP');
    const index = await until('run.sh to serve index.html', async () => {
      if (!running) throw new Error('run.sh stopped');
      const r = await get(`${url}index.html`);
      return r?.status === 200 ? r : null;
    }, 60_000);
    c.check(index.text.includes('attention_web.js'), 'run.sh serves the lab before the poem model is trained', index.text.slice(0, 80));
    const preparing = await get(`${url}poem_training.json`);
    c.check(preparing?.status === 200 && JSON.parse(preparing.text).state === 'preparing',
            'poem_training.json says the model is being prepared', preparing?.text);
    const model = await get(`${url}poem_model.bin`);
    c.check(model?.status === 404, 'no poem_model.bin is served yet (an earlier one was removed)', String(model?.status));

    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1, locale: 'zh-CN',
    });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('console', (msg) => {
      // The view asks for the weights once before it finds the training: that 404 is expected.
      if (msg.type() === 'error' && !/Failed to load resource.*404/.test(msg.text())) errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await page.goto(`${url}index.html?lang=zh`);
    await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
    const lab = new Lab(page);
    await checkPixels(c, lab, 'the explorer while the poem model is prepared');

    await lab.click('tab_poem');
    await page.waitForFunction(() => window.attentionLab.state().poem?.model_training, null, { timeout: 60_000 });
    const prepared = await copyFor(page, '正在后台准备训练');
    c.check(prepared.includes('正在后台准备训练'), 'the learned-heads view says the model is being prepared (the accessible copy)',
            prepared);
    await writeFile(join(artefactsDir, 'first_run_preparing.png'), pngFile(await lab.screenshot()));

    // ---- training: held again after its first steps ----
    process.kill(-trainer, 'SIGCONT');
    const progress = await until('the trainer\'s first steps', async () => {
      const r = await get(`${url}poem_training.json`);
      const p = r?.status === 200 ? JSON.parse(r.text) : null;
      return p?.state === 'training' && p.step >= 1 ? p : null;
    }, LANDS_MS);
    process.kill(-trainer, 'SIGSTOP');
    const held = JSON.parse((await get(`${url}poem_training.json`)).text);
    c.check(held.steps === STEPS && held.step >= progress.step && held.step < STEPS,
            `the trainer reports its steps (${held.step} of ${held.steps}, ${held.seconds} s)`, JSON.stringify(held));
    const want = `第 ${held.step.toLocaleString('en-US')} / ${STEPS} 步`;
    const said = await copyFor(page, want);
    c.check(said.includes(want) && /还需(约 \d+ 分钟|不到 1 分钟)/.test(said),
            'the view says the step of the steps and the time left, in Chinese', said);
    const p = (await lab.state()).poem;
    const left = held.seconds / held.step * (held.steps - held.step);
    c.check(p.load === 'loading' && p.model_training.step === held.step && Math.abs(p.model_training.seconds_left - left) < 1e-6 * (1 + left),
            'state().poem.model_training: the step and the seconds left (seconds / step x steps to go)',
            JSON.stringify(p.model_training));
    await writeFile(join(artefactsDir, 'first_run_training.png'), pngFile(await lab.screenshot()));
    const waiting = await lab.layout();
    c.check(waiting.heatmaps.length === 0 && !waiting.controls?.poem_retry,
            'while it trains the view shows no heatmap and no Try again (nothing has failed)',
            `${waiting.heatmaps.length} heatmaps, controls ${Object.keys(waiting.controls ?? {})}`);

    // ---- the model lands: the view opens it by itself ----
    process.kill(-trainer, 'SIGCONT');
    await page.waitForFunction(() => ['ready', 'failed'].includes(window.attentionLab.state().poem?.load), null,
                               { timeout: LANDS_MS });
    await lab.settled();
    const ready = (await lab.state()).poem;
    c.check(ready.load === 'ready' && ready.error === '' && ready.tokens?.length > 1 && !ready.model_training,
            'once trained the view opens the model without a reload and reads a poem',
            `load ${ready.load}, error "${ready.error}"`);
    const { layout } = await checkPixels(c, lab, 'the landed model\'s heatmaps');
    c.check(layout.heatmaps.length > 0, 'the landed model\'s heatmaps are drawn', String(layout.heatmaps.length));
    await writeFile(join(artefactsDir, 'first_run_landed.png'), pngFile(await lab.screenshot()));
    const gone = await get(`${url}poem_training.json`);
    c.check(gone?.status === 404, 'poem_training.json is gone once the model is in place', String(gone?.status));
    const trained = readdirSync(cache).filter((f) => f.endsWith('.bin'));
    const cached = trained.length === 1 && (await readFile(join(out, 'poem_model.bin'))).equals(readFileSync(join(cache, trained[0])));
    c.check(cached, 'the served weights are the ones trained into the empty cache');
    c.check(errors.length === 0, 'no console or page errors (but the first 404 for the weights)', errors.join('\n    '));
  } catch (e) {
    c.check(false, 'the test ran to the end', e.stack ?? String(e));
  } finally {
    if (trainer) try { process.kill(-trainer, 'SIGCONT'); } catch (e) { /* gone */ }
    await context?.close().catch(() => {});
    if (running) run.kill('SIGTERM');
    const end = await Promise.race([exited, sleep(30_000).then(() => null)]);
    c.check(end !== null, 'run.sh stops on SIGTERM', 'still running after 30 s');
    c.check((await get(`${url}index.html`)) === null, 'stopping run.sh stops its server');
    await writeFile(runLog, logLines.join('')).catch(() => {});
    await rm(profile, { recursive: true, force: true });
    await rm(tmp, { recursive: true, force: true });
  }
  return c.finish();
}

process.exit(await main());
