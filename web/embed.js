// Embedding the self-attention lab in a page: one script tag, one call.
//
//   <script src="https://your.site/lab/embed.js"></script>
//   <div id="figure"></div>
//   <script>
//     const lab = AttentionLab.embed(document.getElementById('figure'), {
//       state: { text: '我爱自然语言处理', heads: 2, mask: 'causal', view: 'heatmaps' },
//       controls: 'compact',   // 'full' | 'compact' | 'none'
//       lang: 'zh',            // default: the reader's browser
//       height: 450,           // CSS px; default: the element's height, else 450
//       origins: [...],        // who may message the lab (?origin=); default: this page's origin
//     });
//     lab.on('change', (state) => console.log(state.view, state.mask));
//     await lab.set({ mask: 'padding' });     // resolves with the new state, rejects with the reason
//     const state = await lab.get();
//   </script>
//
// The lab runs in an iframe (index.html beside this script, or options.src):
// its page, its WebGL context and its input stay its own, and the host talks
// to it only through postMessage (protocol version 1, web/messages.js has the
// messages). `state` uses the URL parameters' names and values (README: "URL
// parameters and state fields"); it goes into the iframe's URL, so the figure
// starts in that state without a flash of the default one. The handle
// accepts messages only from its own iframe's window and origin.
(function () {
  'use strict';
  const VERSION = 1;
  // Where this script was loaded from: the lab's page is beside it.
  const scriptSrc = document.currentScript ? document.currentScript.src : window.location.href;

  // A state object as URL parameters: strings as they are, anything else as
  // JSON (the lab reads JSON for numbers, masks and the zoom).
  function query(state) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(state || {})) {
      if (value === undefined) continue;
      params.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    return params.toString();
  }

  function embed(element, options = {}) {
    if (!element || !element.appendChild) throw new TypeError('AttentionLab.embed: expected an element');
    const state = Object.assign({}, options.state);
    if (options.controls) state.controls = options.controls;
    if (options.lang) state.lang = options.lang;
    const src = new URL(options.src || 'index.html', scriptSrc);
    src.search = query(state);
    if (options.origins) src.searchParams.set('origin', options.origins.join(','));
    const origin = src.origin;

    const iframe = document.createElement('iframe');
    iframe.src = src.href;
    iframe.title = options.title || (state.lang === 'zh' ? '自注意力实验' : 'Self-attention lab');
    iframe.loading = options.loading || 'lazy';
    iframe.allow = 'clipboard-write';  // "Copy link" and copying text from the lab
    const height = options.height || element.clientHeight || 450;
    iframe.style.cssText = 'display:block;width:100%;border:0;height:' + (typeof height === 'number' ? height + 'px' : height);
    element.appendChild(iframe);

    const listeners = { change: [], ready: [] };
    const pending = new Map();  // id -> {resolve, reject}
    const queue = [];           // messages sent before the lab was ready
    let ready = false;
    let nextId = 1;

    function send(message) {
      const full = Object.assign({ attentionLab: VERSION }, message);
      if (ready) iframe.contentWindow.postMessage(full, origin);
      else queue.push(full);
    }
    function request(type, body) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        send(Object.assign({ type, id }, body));
      });
    }

    function onMessage(event) {
      if (event.source !== iframe.contentWindow || event.origin !== origin) return;
      const m = event.data;
      if (!m || typeof m !== 'object' || m.attentionLab !== VERSION) return;
      if (m.type === 'ready') {
        ready = true;
        for (const message of queue.splice(0)) iframe.contentWindow.postMessage(message, origin);
        for (const fn of listeners.ready) fn(m.state);
      } else if (m.type === 'change') {
        for (const fn of listeners.change) fn(m.state);
      } else if (m.type === 'reply' && pending.has(m.id)) {
        const { resolve, reject } = pending.get(m.id);
        pending.delete(m.id);
        if (m.ok) resolve(m.state);
        else reject(new Error(m.error));
      }
    }
    window.addEventListener('message', onMessage);

    return {
      iframe,
      // Changes some fields (all or none); resolves with the whole new state.
      set: (partial) => request('set', { state: partial }),
      // The whole state.
      get: () => request('get', {}),
      // 'change' (the state changed: the reader, or set()) or 'ready' (once); fn(state).
      on(type, fn) {
        if (!listeners[type]) throw new Error('AttentionLab: unknown event ' + type + ' (change, ready)');
        listeners[type].push(fn);
        return this;
      },
      destroy() {
        window.removeEventListener('message', onMessage);
        iframe.remove();
      },
    };
  }

  window.AttentionLab = { embed, version: VERSION };
})();
