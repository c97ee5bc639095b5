// The "why attention" experiments' module (src/platform/why_module.cpp),
// loaded by main.js only when a page calls attentionLab.loadWhy() (the view
// will ask for it too), so the lab's first download does not carry it. From
// the page's own host: attention_why.js + .wasm.
//
//   window.attentionLabWhy.load() -> Promise: loads once (again after a failure)
//   window.attentionLabWhy.compute({why: settings}) -> attention_cli why's JSON for a
//     fresh run to its last step ({"experiment": "recurrence" | "qkv", "distance",
//     "task", "steps", "seed", "batch", "lr"}), or {error}
//   window.attentionLabWhy.reset(settings) -> '' or the error: a fresh run of its panel
//   window.attentionLabWhy.advance(panel, budgetMs) -> steps taken (panel 0: recurrence, 1: qkv)
//   window.attentionLabWhy.report(panel) -> the run's JSON at its step, with "finished"
//   window.attentionLabWhy.timing(secondsEach, n) -> {forward: [...]}: each layer's forward
//     pass for n (absent or 0: n = 16 ... 1024), timed in this browser
//   window.attentionLabWhy.call(op, panel, number, text) -> the answer's text, for the
//     view (src/platform/web_why.cpp): op 0 reset(text), 1 report(panel), 2 timing(number, panel as n)
//   window.attentionLabWhy.viewStrings() -> the view's strings, for the lab's tables
//   window.attentionLabWhy.status() -> {state: 'idle'|'loading'|'loaded'|'failed', error, ms}
(function () {
  'use strict';
  const status = { state: 'idle', error: null, ms: 0 };
  let model = null;
  let loading = null;

  const script = (src) => window.attentionLabScript(src);  // web/main.js: each file once

  function load() {
    if (loading) return loading;
    const started = performance.now();
    Object.assign(status, { state: 'loading', error: null });
    loading = script('attention_why.js')
      .then(() => createWhyModel({ print: (t) => console.log(t), printErr: (t) => console.warn(t) }))
      .then((module) => {
        model = module;
        Object.assign(status, { state: 'loaded', ms: Math.round(performance.now() - started) });
      }, (e) => {
        const message = String(e && e.message ? e.message : e);
        Object.assign(status, { state: 'failed', error: message });
        console.warn(`attention lab: the why-attention module could not be loaded: ${message}`);
        loading = null;  // the reader may try again
        throw e;
      });
    return loading;
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
      if (op === 0) return withString(text, (p) => model._why_reset(p));
      return model.UTF8ToString(op === 1 ? model._why_report(panel) : model._why_timing(number, panel));
    },
    viewStrings: () => (model ? model.UTF8ToString(model._why_view_strings()) : ''),
  };
})();
