// The lab's side of the host-page protocol (web/embed.js is the host's side).
//
// Protocol version 1. Every message is a plain object with `attentionLab: 1`:
//   host -> lab  {attentionLab: 1, type: 'get', id}
//                {attentionLab: 1, type: 'set', id, state: {<fields>}}
//   lab -> host  {attentionLab: 1, type: 'reply', id, ok: true, state}      (after get and a good set)
//                {attentionLab: 1, type: 'reply', id, ok: false, error}     (a set that changed nothing)
//                {attentionLab: 1, type: 'ready', state}                    (once, when the lab runs)
//                {attentionLab: 1, type: 'change', state}                   (after the reader changed something)
//                {attentionLab: 1, type: 'size', height}                    (the CSS height the content wants at this width)
// `state` is the reader's whole state as one object of fields, the same names
// and values as the URL parameters (docs/reference.md: "URL parameters and state
// fields"); set() takes any subset and applies all of it or nothing.
// `id` is the host's, echoed in the reply (any JSON value).
//
// Who may talk to the lab: only the window that embeds it (event.source ===
// window.parent), and only from an allowed origin: the ?origin= list
// (comma-separated origins) or, without it, the embedding page's origin as
// seen at load; a page of the lab's own origin always. Anything else, and any malformed message (not an object, no or
// another protocol version, an unknown type, a state that is not an object),
// is ignored with a console warning; it never changes the lab.
(function () {
  'use strict';
  const VERSION = 1;
  const embedded = window.parent !== window;

  function parentOrigin() {
    if (window.location.ancestorOrigins && window.location.ancestorOrigins.length)
      return window.location.ancestorOrigins[0];
    try {
      return document.referrer ? new URL(document.referrer).origin : null;
    } catch (e) {
      return null;
    }
  }
  const listed = new URLSearchParams(window.attentionLabSearch || window.location.search).get('origin');
  const allowed = listed ? listed.split(',').map((o) => o.trim()).filter(Boolean) : [parentOrigin()].filter(Boolean);
  const hostOrigin = parentOrigin();
  // A host of our own origin (a notebook's figure, web/notebook.js) could do
  // anything to the lab anyway: it is allowed, also when that origin is
  // opaque (a page opened from a file), which no message target can name.
  let sameOrigin = false;
  try {
    sameOrigin = embedded && Boolean(window.parent.document);
  } catch (e) {
    // another origin
  }
  // Where our own messages go: the embedding page, if it is allowed.
  const target = sameOrigin ? '*' : hostOrigin && allowed.includes(hostOrigin) ? hostOrigin : null;

  let lab = null;  // {getFields(): object, setFields(object): '' | error, wake()}
  const warn = (why, data) => console.warn('attention lab: ignored a message: ' + why, data);

  function post(message) {
    if (!embedded || !target) return;
    window.parent.postMessage(Object.assign({ attentionLab: VERSION }, message), target);
  }

  window.addEventListener('message', (event) => {
    if (!lab || !embedded) return;
    if (event.source !== window.parent) return warn('not from the embedding page', event.origin);
    if (!sameOrigin && !allowed.includes(event.origin)) return warn('origin ' + event.origin + ' is not allowed', allowed);
    const m = event.data;
    if (!m || typeof m !== 'object' || Array.isArray(m)) return warn('not an object', m);
    if (m.attentionLab !== VERSION) return warn('protocol version ' + m.attentionLab + ' (this lab speaks ' + VERSION + ')', m);
    const reply = (body) => event.source.postMessage(Object.assign({ attentionLab: VERSION, type: 'reply', id: m.id }, body),
      sameOrigin ? '*' : event.origin);
    if (m.type === 'get') {
      reply({ ok: true, state: lab.getFields() });
    } else if (m.type === 'set') {
      if (!m.state || typeof m.state !== 'object' || Array.isArray(m.state)) return warn('set needs a state object', m);
      const error = lab.setFields(m.state);
      lab.wake();
      if (error) reply({ ok: false, error });
      else reply({ ok: true, state: lab.getFields() });
    } else {
      warn('unknown type ' + JSON.stringify(m.type), m);
    }
  });

  window.attentionLabMessages = {
    // Called by web/main.js when the lab runs.
    attach(api) {
      lab = api;
      post({ type: 'ready', state: lab.getFields() });
    },
    changed() {
      if (lab) post({ type: 'change', state: lab.getFields() });
    },
    wantedHeight(height) {
      post({ type: 'size', height });
    },
    allowedOrigins: () => allowed.slice(),
  };
})();
