// The poem model for the learned-heads view (src/platform/web_poem.cpp and
// poem_module.cpp). Loaded by main.js only when the view is first opened or a
// page calls attentionLab.loadPoem(), so the lab's first download does not
// carry it. Everything comes from the page's own host:
//   attention_poem.js + .wasm  the model's code (its own wasm module)
//   poem_model.bin             the weights the native build trained (~0.5 MB, int8)
//   poem_training.json         only while scripts/run.sh serves the page before the model is
//                              trained behind it: how far ({state: 'preparing'|'training'|
//                              'failed', step, steps, seconds}); polled until it goes, then
//                              the weights are there
//   corpus/tang300             fortunes-zh's Tang poems: the 313 held-out poems shown
//   corpus/tang_train(.gz)     the slice of the training poems the page trains on, only
//                              when the reader trains a model (~1.4 MB gzipped)
//   poem_worker.js             the trainers' Web Workers: two more instances of the module
//                              that train a fresh model data-parallel, so no frame waits
//                              for a step and both cores work
//
//   window.attentionLabPoem.request(lab) -> Promise: loads once (again after a failure),
//     reporting progress to the lab (_attn_poem_progress); main.js tells the lab the end
//   window.attentionLabPoem.viewStrings() -> the view's strings, for the lab's tables
//   window.attentionLabPoem.corpus(lab) -> Promise: the slice into the trainers (two
//     workers; one when the second will not start; this page's module when none does),
//     ending with _attn_poem_corpus_loaded; with workers, threaded() is true and
//     lab.attnPoemReplicas says how many
//   window.attentionLabPoem.call(lab, pointer, size) -> a request's answer, copied into
//     the lab's heap as [u32 size][bytes]
//   window.attentionLabPoem.post(lab, pointer, size): a request for the first worker;
//     _attn_module_answer('poem', op, ...) brings its answer (web/main.js)
//   window.attentionLabPoem.compute(config) -> compute()'s {poem: {text}} result; for
//     {poem: {text, model: 'training'}} with the trainer in its worker, a Promise of it
//   window.attentionLabPoem.checksums() -> Promise of each training worker's {steps, hash}
//     of its weights (the two hold the same bits)
//   window.attentionLabPoem.status() -> {state: 'idle'|'training'|'loading'|'loaded'|'failed',
//     received, total, error, ms, trainer: 'none'|'workers'|'worker'|'page'}
(function () {
  'use strict';
  const status = { state: 'idle', received: 0, total: 0, error: null, ms: 0, trainer: 'none' };
  let model = null;    // the poem module, once loaded
  let instance = null; // ... made once: Try again after a failed fetch reuses it
  let loading = null;  // the load in progress (or done)
  let files = null;    // the weights and tang300 it loaded: the trainer's worker loads them too

  const script = (src) => window.attentionLabScript(src);  // web/main.js: each file once

  // The bytes of url, telling progress(received, total) as they arrive.
  async function fetchBytes(url, progress) {
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw new Error(`${url}: could not be fetched (${e.message})`);
    }
    if (!response.ok) throw Object.assign(new Error(`${url}: HTTP ${response.status}`), { status: response.status });
    const total = Number(response.headers.get('Content-Length')) || 0;
    if (!response.body || !progress) return new Uint8Array(await response.arrayBuffer());
    const reader = response.body.getReader();
    const parts = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      received += value.length;
      progress(received, total);
    }
    const bytes = new Uint8Array(received);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    return bytes;
  }

  const wire = window.attentionLabModuleBytes;  // web/main.js: one way for every lazy view
  const intoHeap = wire.intoHeap;

  function wake() {
    if (window.attentionLabFrames) window.attentionLabFrames.wake();
  }

  // The training behind a page served before its model (scripts/run.sh):
  // its progress, or null when there is none (a static host never has one).
  async function trainingProgress() {
    try {
      const response = await fetch('poem_training.json', { cache: 'no-store' });
      return response.ok ? await response.json() : null;
    } catch (e) {
      return null;
    }
  }

  // Waits while the model is being trained behind the page, telling the lab
  // how far it is. The weights are renamed into place before the progress
  // file goes, so once it has gone they are there.
  const POLL_MS = 2000;
  async function untilTrained(lab) {
    for (let progress; (progress = await trainingProgress());) {
      if (progress.state === 'failed') throw new Error(`its training stopped (the log: ${progress.log})`);
      status.state = 'training';
      lab._attn_poem_training(Number(progress.step) || 0, Number(progress.steps) || 0, Number(progress.seconds) || 0);
      wake();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    status.state = 'loading';
  }

  function request(lab) {
    if (loading) return loading;
    const started = performance.now();
    Object.assign(status, { state: 'loading', received: 0, total: 0, error: null });
    lab._attn_poem_progress(0, 0);
    loading = (async () => {
      await script('attention_poem.js');
      if (!instance) instance = await createPoemModel({
        print: (text) => console.log(text),
        printErr: (text) => console.warn(text),
      });
      const module = instance;
      const arriving = (received, total) => {
        Object.assign(status, { received, total });
        lab._attn_poem_progress(received, total);
        wake();
      };
      let weights;
      try {
        weights = await fetchBytes('poem_model.bin', arriving);
      } catch (e) {
        if (e.status !== 404) throw e;
        await untilTrained(lab);
        weights = await fetchBytes('poem_model.bin', arriving);
      }
      const tang300 = await fetchBytes('corpus/tang300');
      const w = intoHeap(module, weights);
      const t = intoHeap(module, tang300);
      let error;
      try {
        error = module.UTF8ToString(module._poem_load(w, weights.length, t, tang300.length));
      } catch (e) {
        instance = null;  // a module that trapped is not used again
        throw e;
      } finally {
        module._free(w);
        module._free(t);
      }
      if (error) throw new Error(error);
      files = { weights, tang300 };
      model = module;
    })().then(() => {
      Object.assign(status, { state: 'loaded', ms: Math.round(performance.now() - started) });
    }, (e) => {
      const message = String(e && e.message ? e.message : e);
      Object.assign(status, { state: 'failed', error: message });
      console.warn(`attention lab: the poem model could not be loaded: ${message}`);
      loading = null;  // the reader may try again
      throw e;
    });
    return loading;
  }

  // The bytes of url, from its gzipped copy when the browser can unpack it.
  async function fetchMaybeGzipped(url) {
    if (typeof DecompressionStream === 'function') {
      try {
        const packed = await fetchBytes(url + '.gz');
        if (!(packed.length > 2 && packed[0] === 0x1f && packed[1] === 0x8b)) return packed;  // unpacked on the way
        const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
        return new Uint8Array(await new Response(stream).arrayBuffer());
      } catch (e) {
        console.warn(`attention lab: ${url}.gz unusable (${e.message}); fetching ${url}`);
      }
    }
    return fetchBytes(url);
  }

  // The training slice, for training in the page (asked for by Start): into
  // two workers of its own, one when a second will not start, or this page's
  // module when none does (then training is time-sliced between frames:
  // slower, and frames longer).
  let corpusLoading = null;
  function corpus(lab) {
    if (corpusLoading) return corpusLoading;
    corpusLoading = (async () => {
      if (!model) await request(lab);
      const slice = await fetchMaybeGzipped('corpus/tang_train');
      // Two workers split each step only where there are cores to spare beside
      // the page's own thread and the browser's drawing: on two cores one worker
      // trains faster (docs/performance.md). window.attentionLabPoemWorkers = 1
      // or 2 before Start chooses (the tests and the benchmark do).
      const cores = navigator.hardwareConcurrency || 2;
      const wanted = window.attentionLabPoemWorkers || (cores >= 4 ? 2 : 1);
      for (const count of wanted === 1 ? [1] : [2, 1]) {
        try {
          await startWorkers(lab, slice, count);
          status.trainer = count === 2 ? 'workers' : 'worker';
          lab.attnPoemReplicas = count;
          return;
        } catch (e) {
          console.warn(`attention lab: ${count} worker(s) for training would not start (${e.message})`);
        }
      }
      console.warn('attention lab: no worker for training; it runs in the page');
      const s = intoHeap(model, slice);
      let error;
      try {
        error = model.UTF8ToString(model._poem_corpus(s, slice.length));
      } finally {
        model._free(s);
      }
      if (error) throw new Error(error);
      status.trainer = 'page';
      lab.attnPoemReplicas = 1;
    })().then(() => {
      window.attentionLabUtf16.call(lab, '_attn_poem_corpus_loaded', '');
      wake();
    }, (e) => {
      corpusLoading = null;
      window.attentionLabUtf16.call(lab, '_attn_poem_corpus_loaded', String(e && e.message ? e.message : e));
      wake();
    });
    return corpusLoading;
  }

  // The trainers' workers (poem_worker.js), each loaded with the same files:
  // the first answers the page's requests in the order they were posted; the
  // helper, on the other end of a MessageChannel, trains the other half of
  // each batch.
  let worker = null, helper = null;
  let generation = 0;    // fresh models (TrainReset) so far: the workers drop older gradients
  const posted = [];     // the ops of the requests the first has not answered yet
  const computing = [];  // the compute() promises it has not answered yet ({resolve})
  const checking = new Map();  // worker -> the checksums it owes (resolve functions)
  function startWorkers(lab, slice, count) {
    if (typeof Worker !== 'function') return Promise.reject(new Error('this browser has no Worker'));
    const channel = count === 2 && typeof MessageChannel === 'function' ? new MessageChannel() : null;
    if (count === 2 && !channel) return Promise.reject(new Error('this browser has no MessageChannel'));
    const started = [];
    const start = (role, port) => new Promise((resolve, reject) => {
      const w = new Worker('poem_worker.js');
      started.push(w);
      const failed = (message) => {
        if (worker === w || helper === w) return stopped(lab, message);
        reject(new Error(message));
      };
      w.onerror = (event) => {
        event.preventDefault();
        failed(event.message || 'poem_worker.js could not start');
      };
      w.onmessage = ({ data }) => {
        if ('loaded' in data) {
          if (data.loaded) failed(data.loaded);
          else resolve(w);
        } else if ('answer' in data) {
          answer(lab, posted.shift(), data.answer);
        } else if ('computed' in data) {
          computing.shift().resolve(JSON.parse(data.computed));
        } else if ('checksum' in data) {
          checking.get(w).shift()(data.checksum);
        } else if ('failed' in data) {
          failed(data.failed);
        }
      };
      checking.set(w, []);
      const load = { weights: files.weights, tang300: files.tang300, slice, role, port };
      w.postMessage({ load }, port ? [port] : []);
    });
    const all = [start('first', channel && channel.port1)];
    if (channel) all.push(start('helper', channel.port2));
    return Promise.all(all).then(([first, second]) => {
      worker = first;
      helper = second || null;
    }, (e) => {
      started.forEach((w) => w.terminate());  // none trains: fewer workers, or the page, instead
      throw e;
    });
  }

  // Answers arrive as fast as the trainers take steps (the lab posts the next
  // at once): the page draws what arrived at most every DRAW_EVERY_MS, so its
  // frames leave the cores to the trainers (the model being trained is read
  // as often), and always draws the last.
  const DRAW_EVERY_MS = 250;
  let drawnAt = -Infinity, drawTimer = 0;
  function drawAnswers() {
    if (!window.attentionLabFrames || drawTimer) return;
    const wait = drawnAt + DRAW_EVERY_MS - performance.now();
    drawTimer = setTimeout(() => {
      drawTimer = 0;
      drawnAt = performance.now();
      window.attentionLabFrames.draw();
    }, Math.max(0, wait));
  }

  function answer(lab, op, answerBytes) {
    wire.answer(lab, 'poem', op, answerBytes);
    drawAnswers();
  }
  const errorAnswer = wire.error;

  // A worker stopped (an abort, out of memory): both go, what the first
  // still owed is answered with why, and Start fetches the slice into new ones.
  function stopped(lab, message) {
    if (!worker) return;
    worker.terminate();
    if (helper) helper.terminate();
    worker = helper = null;
    corpusLoading = null;
    console.warn(`attention lab: the trainer stopped: ${message}`);
    while (posted.length) answer(lab, posted.shift(), errorAnswer(`the trainer stopped: ${message}`));
    while (computing.length) computing.shift().resolve({ error: `poem: the trainer stopped: ${message}` });
    window.attentionLabUtf16.call(lab, '_attn_poem_corpus_loaded', `the trainer stopped: ${message}`);
    wake();
  }

  function post(lab, pointer, size) {
    const request = lab.HEAPU8.slice(pointer, pointer + size);
    const op = wire.op(request);
    if (!worker) {  // answered, like the worker would, after this call returns
      setTimeout(() => answer(lab, op, errorAnswer('the trainer stopped')), 0);
      return;
    }
    if (op === 6 && request.length >= 20) {  // TrainReset: a fresh model, in the helper too as replica 1
      generation += 1;
      if (helper) {
        const reset = request.slice();
        new DataView(reset.buffer).setUint32(12, 1, true);
        helper.postMessage({ reset, generation }, [reset.buffer]);
      }
    }
    posted.push(op);
    worker.postMessage({ request, generation }, [request.buffer]);
  }

  const call = (lab, pointer, size) => (model ? wire.call(lab, model, 'poem', pointer, size) : 0);

  function compute(config) {
    if (!model) return { error: 'poem: the model is not loaded (attentionLab.loadPoem() loads it)' };
    const text = JSON.stringify(config);
    if (worker && config.poem && config.poem.model === 'training') {
      return new Promise((resolve) => {
        computing.push({ resolve });
        worker.postMessage({ compute: text });
      });
    }
    return JSON.parse(model.UTF8ToString(window.attentionLabUtf16.call(model, '_poem_compute', text)));
  }

  function checksums() {
    return Promise.all([worker, helper].filter(Boolean).map((w) => new Promise((resolve) => {
      checking.get(w).push(resolve);
      w.postMessage({ checksum: true });
    })));
  }

  // The view's own strings travel with its module (src/ui/i18n/strings.hpp).
  const viewStrings = () => (model ? model.UTF8ToString(model._poem_view_strings()) : '');
  window.attentionLabPoem = {
    request, viewStrings, corpus, call, post, threaded: () => worker !== null, compute, checksums,
    status: () => Object.assign({}, status),
  };
})();
