// The poem model for the learned-heads view (src/platform/web_poem.cpp and
// poem_module.cpp). Loaded by main.js only when the view is first opened or a
// page calls attentionLab.loadPoem(), so the lab's first download does not
// carry it. Everything comes from the page's own host:
//   attention_poem.js + .wasm  the model's code (its own wasm module)
//   poem_model.bin             the weights the native build trained (~2 MB)
//   corpus/tang300             fortunes-zh's Tang poems: the held-out ones are shown
//   corpus/song100, chinese(.gz)  the rest of the corpus, only when the reader trains a model
//
//   window.attentionLabPoem.request(lab) -> Promise: loads once (again after a failure),
//     reporting progress to the lab (_attn_poem_progress) and the end (_attn_poem_loaded)
//   window.attentionLabPoem.corpus(lab) -> Promise: song100 and chinese into the module
//     (training), ending with _attn_poem_corpus_loaded
//   window.attentionLabPoem.call(lab, pointer, size) -> a request's answer, copied into
//     the lab's heap as [u32 size][bytes]
//   window.attentionLabPoem.compute(config) -> compute()'s {poem: {text}} result
//   window.attentionLabPoem.status() -> {state: 'idle'|'loading'|'loaded'|'failed',
//     received, total, error, ms}
(function () {
  'use strict';
  const status = { state: 'idle', received: 0, total: 0, error: null, ms: 0 };
  let model = null;    // the poem module, once loaded
  let loading = null;  // the load in progress (or done)

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

  // The rest of the corpus, for training in the page (asked for by Start).
  let corpusLoading = null;
  function corpus(lab) {
    if (corpusLoading) return corpusLoading;
    corpusLoading = (async () => {
      if (!model) await request(lab);
      const song100 = await fetchBytes('corpus/song100');
      const modern = await fetchMaybeGzipped('corpus/chinese');
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
    return JSON.parse(model.UTF8ToString(window.attentionLabUtf16.call(model, '_poem_compute', text)));
  }

  window.attentionLabPoem = { request, corpus, call, compute, status: () => Object.assign({}, status) };
})();
