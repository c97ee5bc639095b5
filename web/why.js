// The "why attention" experiments' module (src/platform/why_module.cpp),
// loaded by main.js only when a page calls attentionLab.loadWhy() (the view
// will ask for it too), so the lab's first download does not carry it. From
// the page's own host: attention_why.js + .wasm, and why_worker.js.
//
// The view's runs train in a Web Worker (why_worker.js: the same module on
// its own thread), so the page's frames never wait for a step; a page that
// cannot start one (a host without the file) trains them here, a slice a frame.
//
//   window.attentionLabWhy.load() -> Promise: loads once (again after a failure)
//   window.attentionLabWhy.compute({why: settings}) -> attention_cli why's JSON for a
//     fresh run to its last step ({"experiment": "recurrence" | "qkv", "distance",
//     "task", "steps", "seed", "batch", "lr"}), or {error}
//   On this thread's own runs (for tests and the curious):
//   window.attentionLabWhy.reset(settings) -> '' or the error: a fresh run of its panel
//   window.attentionLabWhy.advance(panel, budgetMs) -> the run's steps after those the
//     budget allows (panel 0: recurrence, 1: qkv; -1: no run)
//   window.attentionLabWhy.report(panel) -> the run's JSON at its step, with "finished"
//   window.attentionLabWhy.timing(secondsEach, n) -> {forward: [...]}: each layer's forward
//     pass for n (absent or 0: n = 16 ... 1024), timed in this browser
//   For the view (src/platform/web_why.cpp), its runs wherever they train:
//   window.attentionLabWhy.call(op, panel, number, text) -> the answer's text:
//     op 0 reset(text), 1 report(panel) ({"pending": true} until the trainer's
//     comes, then with "report_ms": what it cost there), 2 timing(number, panel as n)
//     (measured in the worker: {"pending": true} until it answers)
//   window.attentionLabWhy.train(panel, budgetMs) -> the run's steps as last heard:
//     budget > 0 keeps it training, 0 takes one step, < 0 stops it
//   window.attentionLabWhy.viewStrings() -> the view's strings, for the lab's tables
//   window.attentionLabWhy.status() -> {state: 'idle'|'loading'|'loaded'|'failed', error, ms,
//     trainer: 'worker'|'page'}
(function () {
  'use strict';
  const status = { state: 'idle', error: null, ms: 0, trainer: 'page' };
  let model = null;
  let loading = null;
  let worker = null;  // the view's trainer (why_worker.js), once it answered

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
        w.onmessage = (m) => heard(m.data);
        w.onerror = (m) => {
          console.warn(`attention lab: the why view's trainer stopped: ${m.message}`);
          worker = null;
          status.trainer = 'page';
        };
        resolve(w);
      };
    });
  }

  // The view's runs in the worker, as this page last heard of them (by panel).
  let runs = 0;
  const panels = [{}, {}];
  const PENDING = '{"pending": true}';

  // The view's forward timings, measured in the worker: a frame of the page
  // never holds one (each is a quarter of a second a layer).
  const timings = { asked: null, answer: null, n: 0 };

  function heard(m) {
    if (m.timing !== undefined) {
      Object.assign(timings, { asked: null, answer: m.timing, n: m.n });
      if (window.attentionLabFrames) window.attentionLabFrames.draw();
      return;
    }
    const p = panels[m.panel];
    if (!p || m.run !== p.run) return;  // a replaced run's
    if (m.reset) console.warn(`attention lab: the why view's trainer refused a run: ${m.reset}`);
    if (m.steps !== undefined) p.steps = m.steps;
    // What it cost there goes with it: the view spaces its reports by it.
    if (m.report !== undefined) Object.assign(p, { report: m.report.replace(/}$/, `, "report_ms": ${m.ms}}`), asked: false });
    // The view draws what the worker says (src/ui/state/why_lab.cpp: a threaded
    // trainer's running runs ask for no frames of their own): as a trainer's
    // answer, two frames, not an input's settle frames.
    if (window.attentionLabFrames) window.attentionLabFrames.draw();
  }

  function resetView(settings) {
    const error = withString(settings, (p) => model._why_reset(p));  // checked here, at once
    if (error || !worker) return error;
    const panel = JSON.parse(settings).experiment === 'qkv' ? 1 : 0;
    panels[panel] = { run: ++runs, steps: 0, training: false, report: null, asked: false };
    worker.postMessage({ reset: settings, panel, run: runs });
    return '';
  }

  function trainView(panel, budgetMs) {
    if (!worker) return model._why_advance(panel, budgetMs);
    const p = panels[panel];
    if (!p || p.run === undefined) return -1;
    if (budgetMs > 0 && !p.training) worker.postMessage({ train: true, panel, run: p.run });
    if (budgetMs === 0) worker.postMessage({ step: true, panel, run: p.run });
    if (budgetMs < 0 && p.training) worker.postMessage({ stop: true, panel });
    p.training = budgetMs > 0;
    return p.steps;
  }

  function timingView(secondsEach, n) {
    if (!worker) return model.UTF8ToString(model._why_timing(secondsEach, n));
    const answer = timings.answer;
    timings.answer = null;
    if (answer !== null && timings.n === n) return answer;  // (another length's: measured again below)
    if (timings.asked === null) {
      worker.postMessage({ timing: secondsEach, n });
      timings.asked = n;
    }
    return PENDING;
  }

  function reportView(panel) {
    if (!worker) return model.UTF8ToString(model._why_report(panel));
    const p = panels[panel];
    if (!p || p.run === undefined) return JSON.stringify({ error: 'why: no run of that panel (reset first)' });
    if (p.report !== null) {
      const report = p.report;
      p.report = null;
      return report;
    }
    if (!p.asked) {
      worker.postMessage({ report: true, panel, run: p.run });
      p.asked = true;
    }
    return PENDING;
  }

  // A string into the module's heap for one call (strings cross as UTF-8).
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

  const notLoaded = { error: 'why: the module is not loaded (attentionLab.loadWhy() loads it)' };
  function json(text) {
    try {
      return JSON.parse(text);
    } catch (e) {
      return { error: 'why: ' + e.message };
    }
  }

  window.attentionLabWhy = {
    load,
    status: () => ({ ...status }),
    compute(config) {
      if (!model) return notLoaded;
      let text;
      try {
        text = JSON.stringify(config);
      } catch (e) {
        return { error: 'config: ' + e.message };
      }
      return json(withString(text, (p) => model._why_compute(p)));
    },
    reset(settings) {
      if (!model) return notLoaded.error;
      return withString(JSON.stringify(settings), (p) => model._why_reset(p));
    },
    advance: (panel, budgetMs) => (model ? model._why_advance(panel, budgetMs) : -1),
    report: (panel) => (model ? json(model.UTF8ToString(model._why_report(panel))) : notLoaded),
    timing: (secondsEach, n = 0) => (model ? json(model.UTF8ToString(model._why_timing(secondsEach, n))) : notLoaded),
    call(op, panel, number, text) {
      if (!model) return JSON.stringify(notLoaded);
      if (op === 0) return resetView(text);
      return op === 1 ? reportView(panel) : timingView(number, panel);
    },
    train: (panel, budgetMs) => (model ? trainView(panel, budgetMs) : -1),
    viewStrings: () => (model ? model.UTF8ToString(model._why_view_strings()) : ''),
  };
})();
