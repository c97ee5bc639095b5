// The poem model for the learned-heads view (src/platform/web_poem.cpp and
// poem_module.cpp). Loaded by main.js only when the view is first opened or a
// page calls attentionLab.loadPoem(), so the lab's first download does not
// carry it. Everything comes from the page's own host:
//   attention_poem.js + .wasm  the model's code (its own wasm module)
//   poem_model.bin             the weights the native build trained (~2 MB)
//   corpus/tang300             fortunes-zh's Tang poems: the held-out ones are shown
//   corpus/song100, chinese(.gz)  the rest of the corpus, only when the reader trains a model
//   poem_worker.js             the trainer's Web Worker: a second instance of the module
//                              that trains a fresh model, so no frame waits for a step
//
//   window.attentionLabPoem.request(lab) -> Promise: loads once (again after a failure),
//     reporting progress to the lab (_attn_poem_progress) and the end (_attn_poem_loaded)
//   window.attentionLabPoem.corpus(lab) -> Promise: song100 and chinese into the trainer
//     (the worker; this page's module when no worker starts), ending with
//     _attn_poem_corpus_loaded; with a worker, lab.attnPoemPost(lab, pointer, size) posts
//     a request to it and _attn_poem_answer(op, pointer, size) brings its answer
//   window.attentionLabPoem.call(lab, pointer, size) -> a request's answer, copied into
//     the lab's heap as [u32 size][bytes]
//   window.attentionLabPoem.compute(config) -> compute()'s {poem: {text}} result; for
//     {poem: {text, model: 'training'}} with the trainer in its worker, a Promise of it
//   window.attentionLabPoem.status() -> {state: 'idle'|'loading'|'loaded'|'failed',
//     received, total, error, ms, trainer: 'none'|'worker'|'page'}
(function () {
  'use strict';
  const status = { state: 'idle', received: 0, total: 0, error: null, ms: 0, trainer: 'none' };
  let model = null;    // the poem module, once loaded
  let loading = null;  // the load in progress (or done)
  let files = null;    // the weights and tang300 it loaded: the trainer's worker loads them too

  function script(src) {
    return new Promise((resolve, reject) => {
      if (typeof createPoemModel === 'function') return resolve();
      const s = document.createElement('script');
      s.src = src;
      s.onload = () => resolve();
      s.onerror = () => reject(new Error(`${src}: could not be fetched`));
      document.head.appendChild(s);
    });
  }

  // The bytes of url, telling progress(received, total) as they arrive.
  async function fetchBytes(url, progress) {
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw new Error(`${url}: could not be fetched (${e.message})`);
    }
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
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

  function intoHeap(module, bytes) {
    const pointer = module._malloc(Math.max(1, bytes.length));
    module.HEAPU8.set(bytes, pointer);
    return pointer;
  }

  function wake() {
    if (window.attentionLabFrames) window.attentionLabFrames.wake();
  }

  function tell(lab, error) {
    window.attentionLabUtf16.call(lab, '_attn_poem_loaded', error);
    wake();
  }

  function request(lab) {
    if (loading) return loading;
    const started = performance.now();
    Object.assign(status, { state: 'loading', received: 0, total: 0, error: null });
    loading = (async () => {
      await script('attention_poem.js');
      const module = await createPoemModel({
        print: (text) => console.log(text),
        printErr: (text) => console.warn(text),
      });
      const weights = await fetchBytes('poem_model.bin', (received, total) => {
        Object.assign(status, { received, total });
        lab._attn_poem_progress(received, total);
        wake();
      });
      const tang300 = await fetchBytes('corpus/tang300');
      const w = intoHeap(module, weights);
      const t = intoHeap(module, tang300);
      let error;
      try {
        error = module.UTF8ToString(module._poem_load(w, weights.length, t, tang300.length));
      } finally {
        module._free(w);
        module._free(t);
      }
      if (error) throw new Error(error);
      files = { weights, tang300 };
      // The view's own strings travel with its module (src/ui/i18n/strings.hpp).
      window.attentionLabUtf16.call(lab, '_attn_add_view_strings', module.UTF8ToString(module._poem_view_strings()));
      model = module;
    })().then(() => {
      Object.assign(status, { state: 'loaded', ms: Math.round(performance.now() - started) });
      tell(lab, '');
    }, (e) => {
      const message = String(e && e.message ? e.message : e);
      Object.assign(status, { state: 'failed', error: message });
      console.warn(`attention lab: the poem model could not be loaded: ${message}`);
      loading = null;  // the reader may try again
      tell(lab, message);
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

  // The rest of the corpus, for training in the page (asked for by Start):
  // into a worker of its own, or into this page's module when none starts
  // (then training is time-sliced between frames: slower, and frames longer).
  let corpusLoading = null;
  function corpus(lab) {
    if (corpusLoading) return corpusLoading;
    corpusLoading = (async () => {
      if (!model) await request(lab);
      const song100 = await fetchBytes('corpus/song100');
      const modern = await fetchMaybeGzipped('corpus/chinese');
      try {
        await startWorker(lab, song100, modern);
        status.trainer = 'worker';
        return;
      } catch (e) {
        console.warn(`attention lab: no worker for training (${e.message}); it runs in the page`);
      }
      const s = intoHeap(model, song100);
      const m = intoHeap(model, modern);
      let error;
      try {
        error = model.UTF8ToString(model._poem_corpus(s, song100.length, m, modern.length));
      } finally {
        model._free(s);
        model._free(m);
      }
      if (error) throw new Error(error);
      status.trainer = 'page';
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

  // The trainer's worker (poem_worker.js): loaded with the same files, then
  // it answers requests in the order they were posted.
  let worker = null;
  const posted = [];     // the ops of the requests it has not answered yet
  const computing = [];  // the compute() promises it has not answered yet ({resolve})
  function startWorker(lab, song100, modern) {
    if (typeof Worker !== 'function') return Promise.reject(new Error('this browser has no Worker'));
    return new Promise((resolve, reject) => {
      const w = new Worker('poem_worker.js');
      const failed = (message) => {
        if (worker === w) return stopped(lab, w, message);
        w.terminate();  // it never started: training runs in the page instead
        reject(new Error(message));
      };
      w.onerror = (event) => {
        event.preventDefault();
        failed(event.message || 'poem_worker.js could not start');
      };
      w.onmessage = ({ data }) => {
        if ('loaded' in data) {
          if (data.loaded) return failed(data.loaded);
          worker = w;
          lab.attnPoemPost = post;
          resolve();
        } else if ('answer' in data) {
          answer(lab, posted.shift(), data.answer);
        } else if ('computed' in data) {
          computing.shift().resolve(JSON.parse(data.computed));
        } else if ('failed' in data) {
          failed(data.failed);
        }
      };
      w.postMessage({ load: { weights: files.weights, tang300: files.tang300, song100, modern } });
    });
  }

  function answer(lab, op, bytes) {
    const pointer = intoHeap(lab, bytes);
    try {
      lab._attn_poem_answer(op, pointer, bytes.length);
    } finally {
      lab._free(pointer);
    }
    wake();
  }

  // The bytes of an answer that is only an error (api/poem_wire.hpp: [u32 size][UTF-8]).
  function errorAnswer(message) {
    const text = new TextEncoder().encode(message);
    const bytes = new Uint8Array(4 + text.length);
    new DataView(bytes.buffer).setUint32(0, text.length, true);
    bytes.set(text, 4);
    return bytes;
  }

  // The worker stopped (an abort, out of memory): what it still owed is
  // answered with why, and Start fetches the corpus into a new one.
  function stopped(lab, w, message) {
    worker = null;
    corpusLoading = null;
    delete lab.attnPoemPost;
    w.terminate();
    console.warn(`attention lab: the trainer stopped: ${message}`);
    while (posted.length) answer(lab, posted.shift(), errorAnswer(`the trainer stopped: ${message}`));
    while (computing.length) computing.shift().resolve({ error: `poem: the trainer stopped: ${message}` });
    window.attentionLabUtf16.call(lab, '_attn_poem_corpus_loaded', `the trainer stopped: ${message}`);
    wake();
  }

  function post(lab, pointer, size) {
    const bytes = lab.HEAPU8.slice(pointer, pointer + size);
    const op = size >= 4 ? new DataView(bytes.buffer).getUint32(0, true) : 0;
    if (!worker) {  // answered, like the worker would, after this call returns
      setTimeout(() => answer(lab, op, errorAnswer('the trainer stopped')), 0);
      return;
    }
    posted.push(op);
    worker.postMessage({ request: bytes }, [bytes.buffer]);
  }

  function call(lab, pointer, size) {
    if (!model) return 0;
    const request = intoHeap(model, lab.HEAPU8.subarray(pointer, pointer + size));
    let answer;
    try {
      const at = model._poem_call(request, size);
      answer = model.HEAPU8.slice(at, at + model._poem_answer_size());
    } finally {
      model._free(request);
    }
    const out = lab._malloc(answer.length + 4);
    new DataView(lab.HEAPU8.buffer).setUint32(out, answer.length, true);
    lab.HEAPU8.set(answer, out + 4);
    return out;
  }

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

  window.attentionLabPoem = { request, corpus, call, compute, status: () => Object.assign({}, status) };
})();
