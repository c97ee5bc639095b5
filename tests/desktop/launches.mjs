// The desktop tests' app runs: attention_app on a shared X server, a few at a
// time (each waits on its GL driver and its files part of the time, so one
// by one left a core idle).
import { spawn } from 'node:child_process';

export const LAUNCHES = 3;

// Runs `app args` on `display` to its exit (killed after 180 s): { status, signal, output }.
export function launch(app, display, args) {
  return new Promise((done) => {
    const child = spawn(app, args, { env: { ...process.env, DISPLAY: display }, stdio: ['ignore', 'pipe', 'pipe'] });
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
