// Browser contestants, called one cell at a time by run.mjs through
// window.bench (so the driver prints progress and a failing peer fails only
// its own rows). Every contestant gets the inputs of common.mjs and is
// checked against its double-precision reference.
import { D_HEAD, HEADS, cell, inputs, measure, reference } from './common.mjs';

/* global tf, ort, createBenchKernel */
const problems = new Map();  // n -> {data, want}: made once per n, outside every timing
function problem(n) {
  if (!problems.has(n)) {
    const data = inputs(n);
    problems.set(n, { data, want: reference(data, n) });
  }
  return problems.get(n);
}

const dist = (path) => new URL(`../peers/${path}`, location.href).href;
let kernel, session;
const failed = {};  // contestant -> why it did not load; its cells report that instead

async function part(name, setUpOne) {
  try {
    await setUpOne();
  } catch (e) {
    failed[name] = String(e?.message ?? e);
  }
}

async function setUp() {
  await part('project', async () => { kernel = await createBenchKernel(); });
  await part('tfjs', async () => {
    // One thread: no SharedArrayBuffer here anyway (the page is not
    // cross-origin isolated), but say so rather than rely on it.
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    tf.wasm.setThreadsCount(1);
    tf.wasm.setWasmPaths(dist('@tensorflow/tfjs-backend-wasm/dist/'));
    if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs wasm backend did not initialise');
  });
  await part('onnxruntime-web', async () => {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.simd = true;  // the only build 1.30 ships; kept for older releases
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmPaths = dist('onnxruntime-web/dist/');
    const model = new Uint8Array(await (await fetch('../attention.onnx')).arrayBuffer());
    session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  });
  return {
    failed,
    kernel_isas: kernel ? JSON.parse(kernel.ccall('bench_kernel_isas', 'string', [], [])) : [],
    tfjs_backend: failed.tfjs ? null : tf.getBackend(),
    tfjs_simd: failed.tfjs ? null : tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
    cross_origin_isolated: self.crossOriginIsolated,
    user_agent: navigator.userAgent,
  };
}

// The project's kernel: timing and check happen inside the module
// (bench_kernel.cpp), against the plain-loop C++ reference.
function kernelCell(isa, n, keepMatrices, minSeconds) {
  return JSON.parse(kernel.ccall('bench_kernel_cell', 'string', ['string', 'number', 'number', 'number'],
                                 [isa, n, keepMatrices ? 1 : 0, minSeconds]));
}
const peak = (minSeconds) => JSON.parse(kernel.ccall('bench_peak', 'string', ['number'], [minSeconds]));

async function ortCell(n, minSeconds) {
  const { data, want } = problem(n);
  const shape = [HEADS, n, D_HEAD];
  const feeds = { Q: new ort.Tensor('float32', data.q, shape), K: new ort.Tensor('float32', data.k, shape),
                  V: new ort.Tensor('float32', data.v, shape) };
  return cell(n, await measure(async () => (await session.run(feeds)).output.data, minSeconds), want);
}

// tfjs, two ways: one batched [h, n, d] chain (matMul with transposeB, as
// the issue names it; an explicit transpose is no faster there), or a 2-D
// chain per head. Per head, K is transposed explicitly: tfjs-backend-wasm
// 4.22 hands a 2-D matMul to XNNPACK's fast GEMM only without transposeB
// (measured here at n = 256: 0.7 ms with the transpose, 3.6 ms with
// transposeB). dataSync() is the copy out that ort's session.run() makes too.
function tfjsCell(n, mode, minSeconds) {
  const { data, want } = problem(n);
  const scale = tf.scalar(1 / Math.sqrt(D_HEAD));
  const softmaxV = (scores, v) => tf.matMul(tf.softmax(tf.mul(scores, scale)), v);
  const batched = (q, k, v) => tf.tidy(() => softmaxV(tf.matMul(q, k, false, true), v));
  const perHead = (q, k, v) => tf.tidy(() => softmaxV(tf.matMul(q, tf.transpose(k)), v));
  let tensors, call;
  if (mode === 'batched') {
    const shape = [HEADS, n, D_HEAD];
    tensors = [tf.tensor3d(data.q, shape), tf.tensor3d(data.k, shape), tf.tensor3d(data.v, shape)];
    call = () => {
      const out = batched(...tensors);
      const values = out.dataSync();
      out.dispose();
      return values;
    };
  } else {
    const size = n * D_HEAD;
    const heads = (a) => Array.from({ length: HEADS }, (_, h) => tf.tensor2d(a.subarray(h * size, (h + 1) * size), [n, D_HEAD]));
    const [q, k, v] = [heads(data.q), heads(data.k), heads(data.v)];
    tensors = [...q, ...k, ...v];
    call = () => {
      const values = new Float32Array(HEADS * size);
      for (let h = 0; h < HEADS; ++h) {
        const out = perHead(q[h], k[h], v[h]);
        values.set(out.dataSync(), h * size);
        out.dispose();
      }
      return values;
    };
  }
  return measure(call, minSeconds).then((timing) => cell(n, timing, want)).finally(() => {
    tf.dispose([...tensors, scale]);
  });
}

window.bench = { ready: setUp(), kernelCell, peak, ortCell, tfjsCell,
                 tensorsAlive: () => tf.memory().numTensors };
