// The "why attention" experiments' module (src/platform/why_module.cpp),
// loaded by main.js only when the view first asks or a page calls
// attentionLab.loadWhy(), so the lab's first download does not carry it. From
// the page's own host: attention_why.js + .wasm, and why_worker.js.
//
// The view's runs train in a Web Worker (why_worker.js: the same module on
// its own thread), so the page's frames never wait for a step; a page that
// cannot start one calls the module on its own thread, a slice a frame. The
// view speaks to either in api/why/why_wire.hpp's bytes, as the learned-heads
// view speaks to its poem model (web/main.js: attentionLabModuleBytes).
//
//   window.attentionLabWhy.load() -> Promise: loads once (again after a failure)
//   window.attentionLabWhy.compute({why: settings}) -> attention_cli why's JSON for a
//     fresh run to its last step ({"experiment": "recurrence" | "qkv", "distance",
//     "task", "steps", "seed", "batch", "lr"}), or {error}
//   For the lab (src/platform/web_modules.hpp):
//   window.attentionLabWhy.call(lab, pointer, size) -> the answer of this thread's module,
//     copied into the lab's heap as [u32 size][bytes]
//   window.attentionLabWhy.post(lab, pointer, size): a request for the worker;
//     _attn_module_answer('why', op, ...) brings its answer
//   window.attentionLabWhy.threaded() -> whether the worker trains the view's runs
//   window.attentionLabWhy.viewStrings() -> the view's strings, for the lab's tables
//   window.attentionLabWhy.status() -> {state: 'idle'|'loading'|'loaded'|'failed', error, ms,
//     trainer: 'worker'|'page'}
(function () {
  'use strict';
  const status = { state: 'idle', error: null, ms: 0, trainer: 'page' };
  const wire = window.attentionLabModuleBytes;  // web/main.js: one way for every lazy view
  let model = null;
  let loading = null;
  let worker = null;  // the view's trainer (why_worker.js), once it answered
  const posted = [];  // the ops of the requests it has not answered yet, and the lab they are for

  const script = (src) => window.attentionLabScript(src);  // web/main.js: each file once

  function load() {
    if (loading) return loading;
    const started = performance.now();
    Object.assign(status, { state: 'loading', error: null });
    loading = Promise.all([
      script('attention_why.js')
        .then(() => createWhyModel({ print: (t) => console.log(t), printErr: (t) => console.warn(t) })),
      startWorker(),
    ]).then(([module, trainer]) => {
      model = module;
      worker = trainer;
      Object.assign(status, { state: 'loaded', ms: Math.round(performance.now() - started), trainer: worker ? 'worker' : 'page' });
    }, (e) => {
      const message = String(e && e.message ? e.message : e);
      Object.assign(status, { state: 'failed', error: message });
      console.warn(`attention lab: the why-attention module could not be loaded: ${message}`);
      loading = null;  // the reader may try again
      throw e;
    });
    return loading;
  }

  // The trainer's thread, or null (then the runs train on this one).
  function startWorker() {
    return new Promise((resolve) => {
      let w;
      const without = (why) => {
        console.warn(`attention lab: the why view trains on the page's thread: ${why}`);
        if (w) w.terminate();
        resolve(null);
      };
      try {
        w = new Worker('why_worker.js');
      } catch (e) {
        return without(e.message);
      }
      w.onerror = (e) => without(e.message || 'why_worker.js could not be started');
      w.onmessage = (e) => {
        if (e.data.loaded) return without(e.data.loaded);
        w.onmessage = (m) => answered(m.data.answer);
        w.onerror = (m) => stopped(m.message);
        resolve(w);
      };
    });
  }

  function answered(bytes) {
    const { lab, op } = posted.shift();
    wire.answer(lab, 'why', op, bytes);
    // The view draws what the worker says (src/ui/state/why_lab.cpp: a
    // threaded trainer's running runs ask for no frames of their own).
    if (window.attentionLabFrames) window.attentionLabFrames.draw();
  }

  // The worker stopped (an abort, out of memory): what it owed is answered
  // with why, and later requests go to this thread's module, which holds
  // none of its runs (the view says so, and Reset starts one here).
  function stopped(message) {
    console.warn(`attention lab: the why view's trainer stopped: ${message}`);
    worker.terminate();
    worker = null;
    status.trainer = 'page';
    while (posted.length) answered(wire.error(`why: the trainer stopped: ${message}`));
  }

  function post(lab, pointer, size) {
    const request = lab.HEAPU8.slice(pointer, pointer + size);
    posted.push({ lab, op: wire.op(request) });
    if (worker) return worker.postMessage({ request }, [request.buffer]);
    // Answered, as the worker would, after this call returns.
    setTimeout(() => {
      const at = wire.intoHeap(model, request);
      try {
        const answer = model._why_call(at, request.length);
        answered(model.HEAPU8.slice(answer, answer + model._why_answer_size()));
      } finally {
        model._free(at);
      }
    }, 0);
  }

  function compute(config) {
    if (!model) return { error: 'why: the module is not loaded (attentionLab.loadWhy() loads it)' };
    let text;
    try {
      text = JSON.stringify(config);
    } catch (e) {
      return { error: 'config: ' + e.message };
    }
    try {
      return JSON.parse(model.UTF8ToString(window.attentionLabUtf16.call(model, '_why_compute', text)));
    } catch (e) {
      return { error: 'why: ' + e.message };
    }
  }

  window.attentionLabWhy = {
    load,
    status: () => ({ ...status }),
    compute,
    call: (lab, pointer, size) => (model ? wire.call(lab, model, 'why', pointer, size) : 0),
    post,
    threaded: () => worker !== null,
    viewStrings: () => (model ? model.UTF8ToString(model._why_view_strings()) : ''),
  };
})();
