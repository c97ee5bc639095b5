// The why-attention view's trainer thread (web/why.js): an instance of the
// experiments' module (attention_why.js) that trains the view's runs, so the
// page's frames never wait for a training step. The numbers are the same bits
// as on the page's thread: the same wasm, the same steps.
//
//   {request: bytes} (api/why/why_wire.hpp) -> {answer: bytes}, in the order they came
// First of all: {loaded: '' or the error}.
'use strict';

let model = null;

function handle({ request }) {
  const at = model._malloc(Math.max(1, request.length));
  model.HEAPU8.set(request, at);
  try {
    const answer = model._why_call(at, request.length);
    const bytes = model.HEAPU8.slice(answer, answer + model._why_answer_size());
    postMessage({ answer: bytes }, [bytes.buffer]);
  } finally {
    model._free(at);
  }
}

let queued = [];  // requests that came while the module loaded
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
