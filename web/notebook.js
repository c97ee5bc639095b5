// The lab as a figure in a notebook's output (python/attention_lab): the
// host's side, inlined into each output after web/embed.js.
//
//   AttentionLabNotebook.show({id, files, state, height, base})
//
// The lab's files travel in the output as one gzip'd archive in base64 (a
// <script type="text/plain" class="attention-lab-files" data-digest=...>;
// python/attention_lab/_files.py has its layout). It is unpacked once per
// page into blob: URLs, and each figure is an iframe whose srcdoc is index.html whose
// first script (shim) sends every request the lab makes by file name (fetch,
// XMLHttpRequest, <script src>, <link href>, Worker, importScripts) to those
// URLs. So the figure needs no server and no network: in Jupyter, JupyterLab,
// Colab (each output a page of its own, each carrying the files) and an
// exported HTML file alike. With `base` (attention_lab.configure(base_url=))
// it is a plain AttentionLab.embed of that published copy instead.
//
// The figure is an iframe: the reader's keys, wheel and touches stay in it
// and never reach the notebook's shortcuts.
(function () {
  'use strict';
  const TYPES = { js: 'text/javascript', wasm: 'application/wasm', css: 'text/css' };
  const unpacked = new Map();  // digest -> Promise of unpack()'s files

  // Runs first in the figure's page and in each of its workers: `files` maps a
  // file name (the last part of any URL the lab asks for) to its blob: URL. A
  // name the archive lacks (a view's module this figure did not carry) gets a
  // 404 that says so.
  function shim(scope, files) {
    const named = (url) => {
      const s = String(url);
      if (/^(blob|data):/.test(s)) return null;
      return s.split(/[?#]/)[0].split('/').pop();
    };
    const resolve = (url) => {
      if (typeof url !== 'string' && !(url instanceof URL)) return url;
      const name = named(url);
      return name && Object.prototype.hasOwnProperty.call(files, name) ? files[name] : url;
    };
    const fetch = scope.fetch.bind(scope);
    scope.fetch = (input, init) => {
      const name = typeof input === 'string' || input instanceof URL ? named(input) : null;
      if (name && !Object.prototype.hasOwnProperty.call(files, name)) {
        return Promise.resolve(new Response('', { status: 404, statusText: 'Not in this notebook figure' }));
      }
      return fetch(resolve(input), init);
    };
    const open = scope.XMLHttpRequest.prototype.open;
    scope.XMLHttpRequest.prototype.open = function (method, url, ...rest) {
      return open.call(this, method, resolve(url), ...rest);
    };
    if (scope.importScripts) {
      const load = scope.importScripts.bind(scope);
      scope.importScripts = (...urls) => load(...urls.map(resolve));
    }
    const Worker = scope.Worker;
    if (Worker) {
      // A worker starts from a blob of its own: this shim, then its script.
      scope.Worker = function (url, options) {
        const body = `(${shim})(self, ${JSON.stringify(files)});\nimportScripts(${JSON.stringify(resolve(url))});\n`;
        return new Worker(URL.createObjectURL(new Blob([body], { type: 'text/javascript' })), options);
      };
    }
    for (const [type, property] of [['HTMLScriptElement', 'src'], ['HTMLLinkElement', 'href']]) {
      if (!scope[type]) continue;
      const { get, set } = Object.getOwnPropertyDescriptor(scope[type].prototype, property);
      Object.defineProperty(scope[type].prototype, property, {
        configurable: true, get, set(value) { set.call(this, resolve(value)); },
      });
    }
  }

  function base64Bytes(text) {
    const binary = atob(text.replace(/\s+/g, ''));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  // The archive with this digest, from any output of this page, as
  // {name: blob: URL} (index.html: its text, each figure's page is made from it).
  function unpack(digest) {
    if (!unpacked.has(digest)) {
      unpacked.set(digest, (async () => {
        const element = document.querySelector(`script.attention-lab-files[data-digest="${digest}"]`);
        if (!element) {
          throw new Error('the lab\'s files are not in this page: the output that carried them was cleared or re-run '
                          + '(attention_lab.configure(embed="once")). Run this cell again, or use embed="every".');
        }
        if (typeof DecompressionStream !== 'function') {
          throw new Error('this browser cannot unpack the lab\'s files (no DecompressionStream: Chrome 80, '
                          + 'Firefox 113, Safari 16.4 or newer)');
        }
        const stream = new Blob([base64Bytes(element.textContent)]).stream().pipeThrough(new DecompressionStream('gzip'));
        const all = new Uint8Array(await new Response(stream).arrayBuffer());
        const length = new DataView(all.buffer).getUint32(0);
        const index = JSON.parse(new TextDecoder().decode(all.subarray(4, 4 + length)));
        const files = {};
        let at = 4 + length;
        for (const [name, size] of index) {
          const bytes = all.subarray(at, at + size);
          at += size;
          files[name] = name === 'index.html' ? new TextDecoder().decode(bytes)
            : URL.createObjectURL(new Blob([bytes], { type: TYPES[name.split('.').pop()] || 'application/octet-stream' }));
        }
        return files;
      })().catch((error) => {
        unpacked.delete(digest);  // the next figure tries again
        throw error;
      }));
    }
    return unpacked.get(digest);
  }

  // A figure's page: index.html with the shim first and its own files' URLs,
  // and the state's URL query (a srcdoc page has no query of its own). It is
  // the iframe's srcdoc, not a blob: URL of its own: a page opened from a file
  // (an exported notebook) may not show a blob: URL in an iframe, but its
  // srcdoc page, of the same origin, may load the blob: URLs it made.
  function page(files, search) {
    const urls = Object.assign({}, files);
    delete urls['index.html'];
    const prelude = `<script>window.attentionLabSearch = ${JSON.stringify(search).replace(/</g, '\\u003c')};\n(${shim})(window, ${JSON.stringify(urls)});</script>`;
    const html = files['index.html']
      .replace(/<head>/, '<head>' + prelude.replace(/\$/g, '$$$$'))
      .replace(/(src|href)="([^"]+)"/g, (all, attribute, name) => (urls[name] ? `${attribute}="${urls[name]}"` : all));
    return html;
  }

  function say(element, className, text) {
    let p = element.querySelector('.' + className);
    if (!p) {
      p = document.createElement('pre');
      p.className = className;
      p.style.cssText = 'white-space:pre-wrap;margin:4px 0;color:#b00020';
      element.appendChild(p);
    }
    p.textContent = text;
  }

  function show(options) {
    const element = document.getElementById(options.id);
    if (!element) return;
    element.textContent = '';
    const embedOptions = { state: options.state, height: options.height, loading: 'eager', minHeight: 240, maxHeight: 640 };
    const start = (src) => {
      const lab = window.AttentionLab.embed(element, Object.assign(embedOptions, src));
      // What the lab could not apply (a bad field), in its own words, also as
      // text under the figure: a reader of the output sees it without the canvas.
      lab.on('ready', () => {
        element.dataset.ready = '1';
        let notices = [];
        try {
          notices = lab.iframe.contentWindow.attentionLab.state().notices || [];
        } catch (e) {
          // a published copy on another origin: its notices are in the figure only
        }
        if (notices.length) say(element, 'attention-lab-notice', notices.join('\n'));
      });
      return lab;
    };
    // The figure's AttentionLab.embed handle (set, get, on), once it exists.
    const handle = options.base ? Promise.resolve(start({ src: options.base + 'index.html' })) : unpack(options.files).then((files) => start({ srcdoc: (search) => page(files, search) }));
    handle.catch((error) => {
      element.dataset.ready = 'error';
      say(element, 'attention-lab-error', 'The self-attention lab could not start: ' + error.message);
    });
    element.attentionLab = handle;
  }

  window.AttentionLabNotebook = { show, version: null };
})();
