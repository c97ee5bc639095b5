// The desktop tests' app runs: attention_app on a shared X server, a few at a
// time (each waits on its GL driver and its files part of the time, so one
// by one left a core idle).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const LAUNCHES = 3;

// The poem model for the learned-heads view: the app's own tree's (the native
// build trains it), else the native tree's (the sanitised tree trains none).
export function poemModel(app) {
  const tree = resolve(dirname(app), '..', '..');
  return [join(tree, 'poem_model.bin'), join(tree, '..', 'native', 'poem_model.bin')].find((f) => existsSync(f)) ?? null;
}

// What compute() gives for a layout's config, from the CLI: `attend` for the
// explorer's and the chapter's configs and weights given from outside, `poem attend` for the learned-heads
// view's ({poem: {text}}). { status, stdout, stderr } as spawnSync gives them.
export function attendConfig(cli, app, config) {
  if (config?.poem) {
    return spawnSync(cli, ['poem', 'attend', '--model', poemModel(app) ?? 'poem_model.bin', '--text', config.poem.text,
                           '--json'], { encoding: 'utf8', timeout: 60_000 });
  }
  if (config?.why) {  // the why-attention view: attention_cli why with the same settings
    const w = config.why;
    const args = ['why', w.experiment, '--steps', String(w.steps), '--seed', String(w.seed), '--json'];
    if (w.experiment === 'recurrence') args.push('--distance', String(w.distance));
    else args.push('--task', w.task);
    return spawnSync(cli, args, { encoding: 'utf8', timeout: 60_000 });
  }
  return spawnSync(cli, ['attend', '--config', '-'], { input: JSON.stringify(config), encoding: 'utf8', timeout: 60_000 });
}

// Runs `app args` on `display` to its exit (killed after 180 s): { status, signal, output }.
// The learned-heads view finds the poem model through ATTN_POEM_MODEL.
export function launch(app, display, args) {
  return new Promise((done) => {
    const model = poemModel(app);
    const env = { ...process.env, DISPLAY: display, ...(model ? { ATTN_POEM_MODEL: model } : {}) };
    const child = spawn(app, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('error', (e) => { output += e.message; });
    child.once('close', (status, signal) => { clearTimeout(timer); done({ status, signal, output: output.trim() }); });
  });
}

// Calls run(item) for every item, LAUNCHES at a time, in order of start.
export async function forEachLaunch(items, run) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: LAUNCHES }, worker));
}
