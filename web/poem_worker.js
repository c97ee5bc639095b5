// A trainer's thread (web/poem.js): an instance of the poem model's module
// that trains a fresh model for the learned-heads view, so the page's frames
// never wait for a training step. Two of them train one model data-parallel:
// each runs its half of every batch (api/poem/poem_session.hpp: replicas), they
// swap their halves' gradients (each shard's) over a MessageChannel as
// transferable buffers, and each sums them as one trainer would and takes
// the same AdamW step, so their weights stay the bits of one trainer. No SharedArrayBuffer: the book's host sends no COOP/COEP.
//
//   {load: {weights, tang300, slice, role, port}} -> {loaded: "" or the error}
//       role 'first': answers the page's requests (and scores, measures heads);
//       role 'helper': trains its half of each step whenever the first does.
//       port: to the other worker (none: one worker trains alone)
//   first:  {request: bytes, generation} (api/poem/poem_wire.hpp) -> {answer: bytes}, in order
//           {compute: config JSON}  -> {computed: result JSON} ({"poem": {"model": "training"}})
//   helper: {reset: TrainReset bytes, generation} -> trains until the model's last step
//   both:   {checksum: true} -> {checksum: {steps, hash}} of its weights (between its steps)
//   an abort, a refused request      -> {failed: why}
'use strict';
importScripts('attention_poem.js');

const kTrainReset = 6, kTrainRun = 7, kTrainGradient = 10, kTrainJoin = 11;
let model = null;
let role = 'first';
let port = null;     // the other worker's end of the channel
let generation = 0;  // which fresh model (a TrainReset each): older parts are dropped
const parts = new Map();  // step -> the other replica's part, this generation's
let waiting = null;       // {step, resolve}: a part not yet arrived

function intoHeap(bytes) {
  const pointer = model._malloc(Math.max(1, bytes.length));
  model.HEAPU8.set(bytes, pointer);
  return pointer;
}

// Calls fn(pointers...) with the byte arrays copied into the module, freed after.
function withBytes(arrays, fn) {
  const pointers = arrays.map(intoHeap);
  try {
    return fn(...pointers);
  } finally {
    pointers.forEach((p) => model._free(p));
  }
}

// A request's answer, copied out of the module.
function call(request) {
  return withBytes([request], (r) => {
    const at = model._poem_call(r, request.length);
    return model.HEAPU8.slice(at, at + model._poem_answer_size());
  });
}

function u32s(...values) {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setUint32(i * 4, v, true));
  return bytes;
}

function concat(arrays) {
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

// An answer's leading error (api/poem/poem_wire.hpp: a u32 length, the UTF-8).
function errorOf(answer) {
  const n = new DataView(answer.buffer, answer.byteOffset).getUint32(0, true);
  return new TextDecoder().decode(answer.subarray(4, 4 + n));
}

// The other replica's part of `step`, when it comes.
function partOf(step) {
  if (parts.has(step)) {
    const part = parts.get(step);
    parts.delete(step);
    return Promise.resolve(part);
  }
  return new Promise((resolve) => { waiting = { step, resolve }; });
}

function takePart({ data }) {
  if (data.generation !== generation) return;  // a part of a model since reset
  if (waiting && waiting.step === data.step) {
    const { resolve } = waiting;
    waiting = null;
    resolve(data.part);
  } else {
    parts.set(data.step, data.part);
  }
}

// This replica's part of the step is done (_poem_waiting): its gradient to
// the other, the other's back, and the step finished with both in replica
// order. The answer is TrainJoin's (the training's progress).
async function joinStep(first) {
  const gradient = call(u32s(kTrainGradient));
  const error = errorOf(gradient);
  if (error) throw new Error(error);
  const step = new DataView(gradient.buffer).getUint32(4, true);
  const mine = gradient.slice(8);  // [u32 n][n floats: its shards' gradients][u32 k][k floats: their losses]
  const copy = mine.slice();
  const gen = generation;
  port.postMessage({ generation: gen, step, part: copy }, [copy.buffer]);
  const theirs = await partOf(step);
  if (gen !== generation) return null;  // reset meanwhile: this step is gone
  const ordered = first ? [mine, theirs] : [theirs, mine];
  return call(concat([u32s(kTrainJoin, step, 2), ...ordered]));
}

async function load({ weights, tang300, slice }) {
  model = await createPoemModel({
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    onAbort: (why) => postMessage({ failed: String(why) }),
  });
  const text = (at) => model.UTF8ToString(at);
  return text(withBytes([weights, tang300], (w, t) => model._poem_load(w, weights.length, t, tang300.length))) ||
         text(withBytes([slice], (s) => model._poem_corpus(s, slice.length)));
}

// The first worker: the page's requests, one at a time in order. A TrainRun
// that ends on a step's half waits for the helper's half.
async function serve(data) {
  const request = data.request;
  const op = request.length >= 4 ? new DataView(request.buffer, request.byteOffset).getUint32(0, true) : 0;
  if (op === kTrainReset) {
    generation = data.generation;
    parts.clear();
    waiting = null;
  }
  let answer = call(request);
  if (op === kTrainRun && port && model._poem_waiting()) answer = (await joinStep(true)) || answer;
  postMessage({ answer }, [answer.buffer]);
}

// The helper: from a TrainReset, its half of every step, as long as the
// first worker sends its halves (it waits between them), until the last step.
async function help(reset, gen) {
  generation = gen;
  parts.clear();
  waiting = null;
  const error = errorOf(call(reset));
  if (error) throw new Error(error);
  while (gen === generation) {
    const answer = call(u32s(kTrainRun, 1000));
    const e = errorOf(answer);
    if (e) throw new Error(e);
    if (!model._poem_waiting()) return;  // the last step is done
    const joined = await joinStep(false);
    if (joined && errorOf(joined)) throw new Error(errorOf(joined));
  }
}

let queue = Promise.resolve();
onmessage = ({ data }) => {
  const fail = (e) => postMessage({ failed: String(e && e.message ? e.message : e) });
  if (data.load) {
    role = data.load.role || 'first';
    port = data.load.port || null;
    if (port) port.onmessage = takePart;
    load(data.load).then((error) => postMessage({ loaded: error }), (e) => postMessage({ loaded: String(e.message || e) }));
  } else if (data.checksum) {
    postMessage({ checksum: JSON.parse(model.UTF8ToString(model._poem_checksum())) });
  } else if (data.reset) {
    help(data.reset, data.generation).catch(fail);
  } else if (data.compute) {
    const text = new TextEncoder().encode(data.compute);
    const config = new Uint8Array(text.length + 1);  // ending in NUL: a C string
    config.set(text);
    queue = queue.then(() => postMessage({ computed: model.UTF8ToString(withBytes([config], (c) => model._poem_compute(c))) }));
  } else if (data.request) {
    queue = queue.then(() => serve(data)).catch(fail);
  }
};
