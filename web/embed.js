// Embedding the self-attention lab in a page: one script tag, one call.
//
//   <script src="https://your.site/lab/embed.js"></script>
//   <div id="figure"></div>
//   <script>
//     const lab = AttentionLab.embed(document.getElementById('figure'), {
//       state: { text: '我爱自然语言处理', heads: 2, mask: 'causal', view: 'heatmaps' },
//       controls: 'compact',   // 'full' | 'compact' | 'none'
//       lang: 'zh',            // default: the reader's browser
//       theme: 'host',         // 'light' | 'dark' | 'auto' (the browser's) | 'host' (this page's); default: the browser's at load
//       darkSelector: '...',   // theme 'host': the page is dark when this matches (default: VitePress's html.dark)
//       height: 'auto',        // CSS px, 'auto' (what the figure's content wants) or any CSS height;
//                              // default: the element's height, else 450
//       minHeight: 240, maxHeight: 800,  // height 'auto's bounds; default 200 and the window's height
//       loading: 'lazy',       // 'lazy' (default: when within half a window of the screen) | 'eager'
//       origins: [...],        // who may message the lab (?origin=); default: this page's origin
//       srcdoc: (query) => html,  // instead of src: the lab's page itself, as the iframe's srcdoc (web/notebook.js)
//     });
//     lab.on('change', (state) => console.log(state.view, state.mask));
//     await lab.set({ mask: 'padding' });     // resolves with the new state, rejects with the reason
//     const state = await lab.get();
//     lab.destroy();                          // the iframe, listeners and observers go
//   </script>
//
// The lab runs in an iframe (index.html beside this script, or options.src):
// its page, its WebGL context and its input stay its own, and the host talks
// to it only through postMessage (protocol version 1, web/messages.js has the
// messages). `state` uses the URL parameters' names and values (docs/reference.md: "URL
// parameters and state fields"); it goes into the iframe's URL, so the figure
// starts in that state without a flash of the default one. The handle
// accepts messages only from its own iframe's window and origin.
(function () {
  'use strict';
  const VERSION = 1;
  // Where this script was loaded from: the lab's page is beside it.
  const scriptSrc = (document.currentScript && document.currentScript.src) || window.location.href;  // inline: the page

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

  // Whether any of the page's style rules has a selector matching `pattern`
  // (a page whose styles have a dark mode by html.dark); sheets from another
  // origin cannot be read and count as not.
  function stylesUse(pattern) {
    const search = (rules) => Array.from(rules).some((rule) =>
      pattern.test(rule.selectorText || '') || (rule.cssRules ? search(rule.cssRules) : false));
    return Array.from(document.styleSheets).some((sheet) => {
      try {
        return search(sheet.cssRules);
      } catch (e) {
        return false;
      }
    });
  }

  // theme 'host': the host page's dark mode, and a watch on it. An author's
  // darkSelector alone decides (a class or attribute on <html> or <body>, e.g.
  // '[data-md-color-scheme="slate"]' for MkDocs Material). Without one,
  // VitePress's html.dark: present, dark; absent, light on a page whose styles
  // have a dark mode by it, else the browser's prefers-color-scheme.
  function hostTheme(options, onChange) {
    const media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
    const selector = options.darkSelector || 'html.dark';
    const ownSwitch = Boolean(options.darkSelector) || stylesUse(/\.dark(?![\w-])/);
    const theme = () => document.querySelector(selector) ? 'dark'
      : !ownSwitch && media && media.matches ? 'dark' : 'light';
    let last = theme();
    const check = () => {
      if (theme() !== last) onChange(last = theme());
    };
    const observer = new MutationObserver(check);
    observer.observe(document.documentElement, { attributes: true });
    if (document.body) observer.observe(document.body, { attributes: true });
    if (media && media.addEventListener) media.addEventListener('change', check);
    return {
      theme: last,
      stop() {
        observer.disconnect();
        if (media && media.removeEventListener) media.removeEventListener('change', check);
      },
    };
  }

  function embed(element, options = {}) {
    if (!element || !element.appendChild) throw new TypeError('AttentionLab.embed: expected an element');
    const state = Object.assign({}, options.state);
    if (options.controls) state.controls = options.controls;
    if (options.lang) state.lang = options.lang;
    // A change of the page's theme becomes a set(); before the lab is ready it waits in send's queue.
    const host = options.theme === 'host' ? hostTheme(options, (theme) => send({ type: 'set', state: { theme } })) : null;
    if (options.theme) state.theme = host ? host.theme : options.theme;
    // options.srcdoc: a function of the URL query that gives the lab's page
    // itself (a notebook's copy, web/notebook.js), which the iframe shows as
    // its srcdoc. That page is this page's own, of its origin, which a page
    // opened from a file cannot name: its messages are known by their window
    // alone, and ours go to that window ('*').
    const page = typeof options.srcdoc === 'function' ? options.srcdoc : null;
    const src = new URL(options.src || 'index.html', scriptSrc);
    src.search = query(state);
    if (options.origins) src.searchParams.set('origin', options.origins.join(','));
    const origin = page ? null : src.origin;
    const target = origin || '*';
    const load = () => {
      if (page) iframe.srcdoc = page(src.search);
      else iframe.src = src.href;
    };

    const iframe = document.createElement('iframe');
    iframe.title = options.title || (state.lang === 'zh' ? '自注意力实验' : 'Self-attention lab');
    iframe.allow = 'clipboard-write';  // "Copy link" and copying text from the lab
    // height 'auto': the lab says what its content wants at this width (a 'size' message).
    const auto = options.height === 'auto';
    const minHeight = options.minHeight || 200;
    const fit = (h) => Math.round(Math.min(Math.max(h, minHeight), Math.max(minHeight, options.maxHeight || window.innerHeight)));
    const height = auto ? fit(450) : options.height || element.clientHeight || 450;
    iframe.style.cssText = 'display:block;width:100%;border:0;height:' + (typeof height === 'number' ? height + 'px' : height);
    // Lazy: the lab's page loads when the figure comes within half a window of
    // the screen (the same distance in every browser; native lazy iframes differ).
    let near = null;
    if (options.loading !== 'eager' && 'IntersectionObserver' in window) {
      near = new IntersectionObserver((entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        near.disconnect();
        load();
      }, { rootMargin: '50% 0px' });
      near.observe(element);
    } else {
      iframe.loading = options.loading || 'lazy';
      load();
    }
    element.appendChild(iframe);

    const listeners = { change: [], ready: [] };
    const pending = new Map();  // id -> {resolve, reject}
    const queue = [];           // messages sent before the lab was ready
    let ready = false;
    let nextId = 1;

    function send(message) {
      const full = Object.assign({ attentionLab: VERSION }, message);
      if (ready) iframe.contentWindow.postMessage(full, target);
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
      if (event.source !== iframe.contentWindow || (origin && event.origin !== origin)) return;
      const m = event.data;
      if (!m || typeof m !== 'object' || m.attentionLab !== VERSION) return;
      if (m.type === 'ready') {
        ready = true;
        for (const message of queue.splice(0)) iframe.contentWindow.postMessage(message, target);
        for (const fn of listeners.ready) fn(m.state);
      } else if (m.type === 'change') {
        for (const fn of listeners.change) fn(m.state);
      } else if (m.type === 'size') {
        if (auto && Number.isFinite(m.height)) iframe.style.height = fit(m.height) + 'px';
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
      // The figure goes: its iframe, listeners and observers; what was asked
      // of it and not yet answered is rejected.
      destroy() {
        window.removeEventListener('message', onMessage);
        if (near) near.disconnect();
        if (host) host.stop();
        for (const { reject } of pending.values()) reject(new Error('AttentionLab: the figure was destroyed'));
        pending.clear();
        iframe.remove();
      },
    };
  }

  window.AttentionLab = { embed, version: VERSION };
})();
