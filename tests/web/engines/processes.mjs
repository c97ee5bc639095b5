// The helper processes a headful browser needs (its own X server, a WebDriver
// server), free ports and throw-away directories: owned by this test run
// alone, so runs can go in parallel (ctest -j), and gone when it ends.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// Rejects after `ms` with a message naming `what`: a driver that stops
// answering must fail the test, not hang it.
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// A child that dies with this process however it ends: setpriv gives it a
// parent-death signal, which the kernel sends even when ctest's timeout
// SIGKILLs node and no exit handler of ours runs. A browser on our X server
// goes with the server (it loses its display).
export function spawnOwned(command, args, options = {}) {
  const child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', command, ...args], options);
  const exited = new Promise((ok) => child.once('exit', ok));
  child.once('error', () => {});  // reported through `exited` / the caller's wait
  return {
    child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        if (await Promise.race([exited.then(() => true), sleep(3000)]) !== true) child.kill('SIGKILL');
      }
      await exited;
    },
  };
}

// A port nobody listens on now (the kernel picks it: bind port 0).
export function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

export async function tempDir(prefix) {
  const path = await mkdtemp(join(tmpdir(), prefix));
  // Retried: a browser's helper processes may still be writing caches as they exit.
  return { path, remove: () => rm(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }) };
}

// An X server of our own on a display number it picks itself (-displayfd
// writes it once the server accepts clients; two runs never share one).
// Mesa's llvmpipe gives it GLX/EGL, hence WebGL2 in headful browsers.
// -noreset: by default an X server resets when its last client leaves, and a
// client connecting meanwhile gets "Failed to open display" (the desktop
// tests' launches come and go; 91 of 300 back-to-back XOpenDisplay calls
// failed without it, 0 with it).
export async function startXvfb({ width = 1920, height = 1200 } = {}) {
  const xvfb = spawnOwned('Xvfb', ['-displayfd', '3', '-noreset', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  xvfb.child.stderr.on('data', (d) => { stderr += d; });
  const display = await withTimeout(new Promise((ok, fail) => {
    let out = '';
    xvfb.child.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok(':' + out.trim());
    });
    xvfb.exited.then((code) => fail(new Error(`Xvfb exited (${code}): ${stderr.trim()}`)));
  }), 20_000, 'Xvfb start').catch(async (e) => {
    await xvfb.stop();
    throw e;
  });
  return { display, stop: () => xvfb.stop() };
}
