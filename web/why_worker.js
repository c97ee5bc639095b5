// The why-attention view's trainer thread (web/why.js): an instance of the
// experiments' module (attention_why.js) that trains the view's runs, so the
// page's frames never wait for a training step. The numbers are the same bits
// as on the page's thread: the same wasm, the same steps.
//
// The page's messages, answered in the order they came (each answer names
// the panel and the run it belongs to; the page drops a replaced run's):
//   {reset: settings JSON, panel, run} -> {reset: '' or the error}
//   {train: true, panel, run}          -> slices of SLICE_MS until the run's last
//                                         step or a {stop}, each answered {steps}
//   {step: true, panel, run}           -> one step: {steps}
//   {stop: true, panel}                -> none: the panel's slices end
//   {report: true, panel, run}         -> {report: the run's JSON, ms: its cost}
//   {timing: seconds each, n}          -> {timing: {"forward": rows}, n}: the forward
//                                         passes timed here, between slices
// First of all: {loaded: '' or the error}.
'use strict';

// A slice between two looks at the page's messages: Pause and Reset wait
// at most this long, or one step where a step takes longer (a slice is at least one).
// Each slice's answer draws a frame on the page; at 40 ms those frames took
// enough of a 2-core machine that the worker trained slower than the page's
// thread did (docs/performance.md); at 100 ms it trains faster.
const SLICE_MS = 100;
let model = null;
const training = [false, false];  // by panel: slices continue
const runs = [0, 0];              // by panel: the run its module holds
// Slices yield to the page's messages through a channel (setTimeout would
// wait 4 ms each time once nested); one slice is scheduled at a time.
const tick = new MessageChannel();
let scheduled = false;
function schedule() {
  if (scheduled || !training.some(Boolean)) return;
  scheduled = true;
  tick.port2.postMessage(null);
}

function answer(panel, fields) {
  postMessage({ panel, run: runs[panel], ...fields });
}

function withString(text, call) {
  const size = model.lengthBytesUTF8(text) + 1;
  const pointer = model._malloc(size);
  model.stringToUTF8(text, pointer, size);
  try {
    return model.UTF8ToString(call(pointer));
  } finally {
    model._free(pointer);
  }
}

function slice() {
  scheduled = false;
  for (let panel = 0; panel < training.length; ++panel) {
    if (!training[panel]) continue;
    const before = model._why_advance(panel, -1);
    const steps = model._why_advance(panel, SLICE_MS);
    if (steps < 0 || steps === before) training[panel] = false;  // no run, or its last step was taken
    answer(panel, { steps });
  }
  schedule();
}
tick.port1.onmessage = slice;

function handle(m) {
  if (m.timing !== undefined) return postMessage({ timing: model.UTF8ToString(model._why_timing(m.timing, m.n)), n: m.n });
  const panel = m.panel === 1 ? 1 : 0;
  if (m.reset !== undefined) {
    training[panel] = false;
    runs[panel] = m.run;
    answer(panel, { reset: withString(m.reset, (p) => model._why_reset(p)) });
  } else if (m.run !== runs[panel]) {
    // for a run this thread no longer holds: nothing to do
  } else if (m.train) {
    training[panel] = true;
    schedule();
  } else if (m.step) {
    training[panel] = false;
    answer(panel, { steps: model._why_advance(panel, 0) });
  } else if (m.report) {
    const started = performance.now();
    const report = model.UTF8ToString(model._why_report(panel));
    answer(panel, { report, ms: performance.now() - started });
  }
  if (m.stop) training[panel] = false;
}

let queued = [];  // messages that came while the module loaded
onmessage = (e) => (queued ? queued.push(e.data) : handle(e.data));
try {
  importScripts('attention_why.js');
  createWhyModel({ print: (t) => console.log(t), printErr: (t) => console.warn(t) }).then((m) => {
    model = m;
    postMessage({ loaded: '' });
    queued.forEach(handle);
    queued = null;
  }, (e) => postMessage({ loaded: String(e && e.message ? e.message : e) }));
} catch (e) {
  postMessage({ loaded: String(e && e.message ? e.message : e) });
}
