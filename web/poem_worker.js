// The trainer's thread (web/poem.js): a second instance of the poem model's
// module that trains a fresh model for the learned-heads view, so the page's
// frames never wait for a training step (one is some 150 ms of wasm).
//   {load: {weights, tang300, song100, modern}} -> {loaded: "" or the error}
//   {request: bytes}  (api/poem_wire.hpp)       -> {answer: bytes}, in order
//   {compute: config JSON}                      -> {computed: result JSON} (compute()'s
//                                                  {"poem": {"model": "training"}})
//   an abort                                    -> {failed: why}
'use strict';
importScripts('attention_poem.js');

let model = null;

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

async function load({ weights, tang300, song100, modern }) {
  model = await createPoemModel({
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    onAbort: (why) => postMessage({ failed: String(why) }),
  });
  const text = (at) => model.UTF8ToString(at);
  return text(withBytes([weights, tang300], (w, t) => model._poem_load(w, weights.length, t, tang300.length))) ||
         text(withBytes([song100, modern], (s, m) => model._poem_corpus(s, song100.length, m, modern.length)));
}

onmessage = async ({ data }) => {
  if (data.load) {
    let error;
    try {
      error = await load(data.load);
    } catch (e) {
      error = String(e && e.message ? e.message : e);
    }
    postMessage({ loaded: error });
  } else if (data.compute) {
    const text = new TextEncoder().encode(data.compute);
    const config = new Uint8Array(text.length + 1);  // ending in NUL: a C string
    config.set(text);
    postMessage({ computed: model.UTF8ToString(withBytes([config], (c) => model._poem_compute(c))) });
  } else if (data.request) {
    const request = data.request;
    let answer;
    try {
      answer = withBytes([request], (r) => {
        const at = model._poem_call(r, request.length);
        return model.HEAPU8.slice(at, at + model._poem_answer_size());
      });
    } catch (e) {
      postMessage({ failed: String(e && e.message ? e.message : e) });
      return;
    }
    postMessage({ answer }, [answer.buffer]);
  }
};
