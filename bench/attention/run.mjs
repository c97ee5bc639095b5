// The attention benchmark (scripts/bench.sh attention runs it
// after building): the project's kernel next to peer libraries, natively and
// in one headless Chromium page; prints one markdown table, writes the JSON.
//
//   node bench/attention/run.mjs --native BIN --wasm-dir DIR --model FILE --out DIR
//        [--json FILE] [--sizes 64,256,512,1024] [--min-seconds 0.5]
//
// BIN: <native build>/tests/bench/bench_kernel; DIR: <wasm build>/tests/bench
// (bench_kernel.js + .wasm); FILE: from bench/peers/make_model.py. Exit code 1
// when a contestant fails to run or to match the reference (goals that are not
// met do not change it: they are the figures to improve).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS } from '../../tests/web/lab.mjs';
import { serveDirectory } from '../../tests/web/static_server.mjs';
import { D_HEAD, HEADS, TOLERANCE, cell, inputs, measure, reference } from './common.mjs';
import { goals, markdown } from './report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const peersDir = resolve(here, '../peers');
const log = (...a) => console.error('[bench]', ...a);

function parseArgs(argv) {
  const a = { sizes: [64, 256, 512, 1024], minSeconds: 0.5 };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === '--sizes') a.sizes = value.split(',').map(Number);
    else if (key === '--min-seconds') a.minSeconds = Number(value);
    else if (['--native', '--wasm-dir', '--model', '--out', '--json'].includes(key)) a[key.slice(2).replace('-d', 'D')] = resolve(value);
    else throw new Error(`unknown option ${key}`);
  }
  for (const need of ['native', 'wasmDir', 'model', 'out'])
    if (!a[need]) throw new Error(`--${need.replace('D', '-d')} is required`);
  a.json = a.json ?? join(a.out, 'attention.json');
  return a;
}

function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const flags = (/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1] ?? '').trim().split(/\s+/);
  return {
    // A VM may call every generation "AMD EPYC": family/model tell them apart.
    cpu: `${/^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? '?'}` +
         ` (family ${/^cpu family\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? '?'}, model ${/^model\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? '?'})`,
    cores: os.cpus().length, simd: ['avx512f', 'avx2', 'fma'].filter((f) => flags.includes(f)),
    os: `${os.type()} ${os.release()}`, node: process.version, load_start: os.loadavg(),
  };
}

const version = (name) => JSON.parse(readFileSync(join(peersDir, 'node_modules', name, 'package.json'), 'utf8')).version;
const withCheck = (c) => ({ ...c, ok: !c.error && c.max_abs_err <= TOLERANCE });
const show = (c) => log(`${c.where} ${c.contestant}${c.isa ? ' ' + c.isa : ''}${c.keep_matrices ? ' (all matrices)' : ''} n=${c.n}: ` +
                        (c.error ? `FAILED ${c.error}` : `${c.ms.toPrecision(3)} ms, ${c.gflops.toFixed(1)} GFLOP/s, err ${c.max_abs_err.toExponential(1)}`));

// The native half: bench_kernel (every ISA of available_isas() and the FMA
// peak, checked in C++), then onnxruntime-node in this process.
async function runNative(args, results) {
  log(`native: ${args.native}`);
  const out = JSON.parse(execFileSync(args.native, ['--sizes', args.sizes.join(','), '--min-seconds', String(args.minSeconds)],
                                      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 }));
  results.native = { isas: out.isas, peak: out.peak };
  for (const c of out.cells) results.cells.push(withCheck({ where: 'native', contestant: 'project', ...c }));

  let session;
  try {
    const ort = createRequire(join(peersDir, 'package.json'))('onnxruntime-node');
    session = await ort.InferenceSession.create(args.model, { intraOpNumThreads: 1, interOpNumThreads: 1,
      executionMode: 'sequential', graphOptimizationLevel: 'all' });
    for (const n of args.sizes) {
      const data = inputs(n), shape = [HEADS, n, D_HEAD];
      const feeds = { Q: new ort.Tensor('float32', data.q, shape), K: new ort.Tensor('float32', data.k, shape),
                      V: new ort.Tensor('float32', data.v, shape) };
      const timing = await measure(async () => (await session.run(feeds)).output.data, args.minSeconds);
      const c = { where: 'native', contestant: 'onnxruntime-node', ...cell(n, timing, reference(data, n)) };
      results.cells.push(c);
      show(c);
    }
  } catch (e) {
    log(`onnxruntime-node failed: ${e.stack ?? e}`);
    for (const n of args.sizes)
      if (!results.cells.some((c) => c.contestant === 'onnxruntime-node' && c.n === n))
        results.cells.push({ where: 'native', contestant: 'onnxruntime-node', n, error: String(e.message ?? e), ok: false });
  } finally {
    await session?.release?.();
  }
}

// The browser half: one page (bench/attention/index.html) served from a
// directory of links, so the peers' dist files and the wasm kernel come from
// this machine; requests to any other host are refused and reported.
async function runBrowser(args, results) {
  const web = join(args.out, 'web');
  rmSync(web, { recursive: true, force: true });
  mkdirSync(web, { recursive: true });
  for (const [name, target] of [['bench', here], ['peers', join(peersDir, 'node_modules')], ['kernel', args.wasmDir],
                                ['attention.onnx', args.model]])
    symlinkSync(target, join(web, name));
  const { server, url, requests } = await serveDirectory(web);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const outside = [], pageErrors = [];
  try {
    results.machine.chromium = browser.version();
    const page = await browser.newPage();
    await page.route('**/*', (route) => {
      if (new URL(route.request().url()).origin === new URL(url).origin) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${url}bench/index.html`);
    await page.waitForFunction(() => window.bench !== undefined, null, { timeout: 60_000 });
    const setup = await page.evaluate(() => window.bench.ready);
    results.wasm = { isas: setup.kernel_isas, setup };
    for (const [name, why] of Object.entries(setup.failed)) log(`browser: ${name} did not load: ${why}`);

    const run = async (c, fn, arg) => {
      const failed = setup.failed[c.contestant.startsWith('tfjs') ? 'tfjs' : c.contestant];
      try {
        if (failed) throw new Error(`did not load: ${failed}`);
        const r = await page.evaluate(fn, arg);
        Object.assign(c, r.error ? { error: r.error } : r);
      } catch (e) {
        c.error = String(e.message ?? e).split('\n')[0];
      }
      results.cells.push(withCheck(c));
      show(c);
    };
    const m = args.minSeconds;
    for (const n of args.sizes) {
      for (const isa of setup.kernel_isas)
        for (const keep of [false, true])
          await run({ where: 'wasm', contestant: 'project', n }, (a) => window.bench.kernelCell(...a), [isa, n, keep, m]);
      await run({ where: 'wasm', contestant: 'onnxruntime-web', n }, (a) => window.bench.ortCell(...a), [n, m]);
      await run({ where: 'wasm', contestant: 'tfjs batched', n }, (a) => window.bench.tfjsCell(...a), [n, 'batched', m]);
      await run({ where: 'wasm', contestant: 'tfjs per-head', n }, (a) => window.bench.tfjsCell(...a), [n, 'per-head', m]);
    }
    if (!setup.failed.project) results.wasm.peak = await page.evaluate((s) => window.bench.peak(s), m);
    results.wasm.tfjs_tensors_left = setup.failed.tfjs ? null : await page.evaluate(() => window.bench.tensorsAlive());
  } finally {
    await browser.close().catch(() => {});
    server.close();
    results.wasm = { ...results.wasm, wasm_files_loaded: [...new Set(requests.filter(([, p]) => p.endsWith('.wasm')).map(([s, p]) => `${s} ${p}`))],
                     outside_requests: outside, page_errors: pageErrors };
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  mkdirSync(args.out, { recursive: true });
  const results = {
    machine: machine(),
    config: { heads: HEADS, d_head: D_HEAD, sizes: args.sizes, min_seconds: args.minSeconds, tolerance: TOLERANCE },
    versions: Object.fromEntries(['onnxruntime-web', 'onnxruntime-node', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm']
      .map((p) => [p, version(p)])),
    cells: [],
  };
  if (results.machine.load_start[0] > 0.5)
    log(`load average ${results.machine.load_start[0].toFixed(2)}: other processes are running; timings will be low`);
  // One half after the other: on a 2-core machine they would slow each other.
  await runNative(args, results);
  try {
    await runBrowser(args, results);
  } catch (e) {
    log(`browser half failed: ${e.stack ?? e}`);
    results.cells.push({ where: 'wasm', contestant: 'browser', n: 0, error: String(e.message ?? e), ok: false });
  }
  results.machine.load_end = os.loadavg();
  results.goals = goals(results);
  const text = markdown(results);
  const { outside_requests: outside = [], page_errors: errors = [] } = results.wasm ?? {};
  console.log(text);
  if (outside.length) console.log(`\nrefused requests to other hosts: ${outside.join(', ')}`);
  if (errors.length) console.log(`\nbrowser console errors: ${errors.join(' | ')}`);
  writeFileSync(args.json, JSON.stringify(results, null, 1) + '\n');
  console.log(`\nJSON: ${args.json}`);
  process.exitCode = results.cells.every((c) => c.ok) ? 0 : 1;
}

main().catch((e) => {
  console.error(e.stack ?? e);
  process.exitCode = 2;
});
