// Page glue: checks for WebGL2, starts the wasm module and exposes
//   window.attentionLab = { compute(config), loadPoem(), loadWhy(), layout(), currentConfig(), state(), get(), set(fields) }
// (state().scaling holds the scaling lab: d_k, samples, the displayed std and
// softmax peak, and both trained models' last loss and accuracy; get() and
// set() are the reader's state as fields, src/ui/state/lab_state.hpp)
// then sets document.body.dataset.ready = "1", and dataset.code = "ready" once
// the rest of the lab's code (attention_web.deferred.wasm) is there.
// The address bar follows the state (history.replaceState, 250 ms after the
// last change), "Copy link" copies it, and a host page hears about changes
// (web/messages.js). When frames are drawn is web/frames.js's business.
(function () {
  'use strict';
  const canvas = document.getElementById('canvas');
  const status = document.getElementById('status');
  const statusText = document.getElementById('status-text');

  // The page's own messages, shown before (or instead of) the app, so they
  // cannot come from the app's string tables (src/ui/i18n/languages/*.cpp). The
  // language is chosen as the app chooses it: ?lang= if it names one, else
  // the browser's (zh* reads Chinese).
  const PAGE_TEXT = {
    en: {
      htmlLang: 'en',
      title: 'Self-attention lab',
      loading: 'Loading the self-attention lab\u2026',
      noWebGL2: 'This lab needs WebGL2, which this browser or device does not provide. ' +
                'Try a current Chrome, Firefox, Edge or Safari, or enable hardware acceleration.',
      missing: 'The lab could not be loaded (attention_web.js is missing).',
      aborted: 'The lab stopped with an internal error: ',
      noContext: 'WebGL2 could not be started on this page.',
      failed: 'The lab could not start: ',
      contextLost: 'The graphics context was lost (the GPU was reset or is busy). The lab comes back by ' +
                   'itself as soon as the browser restores it; nothing you set is lost.',
    },
    zh: {
      htmlLang: 'zh-CN',
      title: '自注意力实验室',
      loading: '正在加载自注意力实验室\u2026',
      noWebGL2: '本实验需要 WebGL2，但当前浏览器或设备不支持。请使用新版 Chrome、Firefox、Edge 或 Safari，' +
                '或开启硬件加速。',
      missing: '无法加载实验（缺少 attention_web.js）。',
      aborted: '实验因内部错误而停止：',
      noContext: '无法在此页面上启动 WebGL2。',
      failed: '实验无法启动：',
      contextLost: '图形上下文已丢失（GPU 被重置或繁忙）。浏览器恢复后实验会自动回来，你的设置不会丢失。',
    },
  };
  const askedLang = new URLSearchParams(window.attentionLabSearch || window.location.search).get('lang');
  // The browser's language by its first subtag (zh-TW reads zh), as the app's language_for_tag.
  const browserLang = (navigator.language || '').split(/[-_]/)[0].toLowerCase();
  const known = (code) => Object.prototype.hasOwnProperty.call(PAGE_TEXT, code);  // not 'constructor'
  const lang = known(askedLang) ? askedLang : (known(browserLang) ? browserLang : 'en');
  const text = PAGE_TEXT[lang];
  document.documentElement.lang = text.htmlLang;
  document.title = text.title;
  statusText.textContent = text.loading;

  function showError(message) {
    status.classList.remove('hidden');
    status.classList.add('error');
    statusText.textContent = message;
    document.body.dataset.ready = 'error';
  }

  function hasWebGL2() {
    try {
      return !!document.createElement('canvas').getContext('webgl2');
    } catch (e) {
      return false;
    }
  }

  if (!hasWebGL2()) {
    showError(text.noWebGL2);
    return;
  }
  if (typeof createAttentionLab !== 'function') {
    showError(text.missing);
    return;
  }

  // The page's right-click menu would cover the canvas; the lab has its own UI.
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());

  // URL parameters that are not state fields survive the rewrites of the URL.
  const KEPT_PARAMETERS = ['origin'];
  function urlOf(query) {
    const kept = new URLSearchParams();
    const now = new URLSearchParams(window.location.search);
    for (const name of KEPT_PARAMETERS) if (now.has(name)) kept.set(name, now.get(name));
    const extra = kept.toString();
    const all = [query, extra].filter(Boolean).join('&');
    return window.location.pathname + (all ? '?' + all : '') + window.location.hash;
  }
  // The address bar and a host page learn the state 250 ms after its last change.
  let urlTimer = null;
  function publish(query) {
    clearTimeout(urlTimer);
    urlTimer = null;
    try {
      history.replaceState(history.state, '', urlOf(query));
    } catch (e) {
      // a sandboxed or opaque page may not rewrite its URL; the link button still works
    }
    if (window.attentionLabMessages) window.attentionLabMessages.changed();
  }
  function stateChanged(query) {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => publish(query), 250);
  }
  function copyLink(query) {
    if (urlTimer) publish(query);  // a change still waiting: now, so the link and the address bar agree
    if (window.attentionLabTextInput) window.attentionLabTextInput.setClipboard(window.location.origin + urlOf(query));
  }

  // A script of the lab's, added once it is needed (not in the first download):
  // one load per file, the lazy views' loaders (poem.js, why.js) and their
  // modules' scripts alike. A failed load is forgotten, so the reader may try again.
  const scripts = new Map();
  function script(src) {
    if (!scripts.has(src)) {
      scripts.set(src, new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = src;
        s.onload = () => resolve();
        s.onerror = () => reject(new Error(src + ': could not be fetched'));
        document.body.appendChild(s);
      }).catch((e) => {
        scripts.delete(src);
        throw e;
      }));
    }
    return scripts.get(src);
  }
  window.attentionLabScript = script;
  // The views' own modules, by the name the lab asks for them
  // (src/platform/web_modules.hpp): load, each loader script, then its module,
  // resolving with the view's strings once the module answers; then the
  // loader's calls (call, post, threaded: below). A lazy view adds a row here.
  const poemLoader = () => script('poem.js').then(() => window.attentionLabPoem);
  const lazyViews = {
    code: {
      load: (Module) => deferredCode.load(Module),
    },
    poem: {
      load: (Module) => poemLoader().then((poem) => poem.request(Module)).then(() => window.attentionLabPoem.viewStrings()),
      calls: () => window.attentionLabPoem,
    },
    why: {
      load: () => script('why.js').then(() => window.attentionLabWhy.load()).then(() => window.attentionLabWhy.viewStrings()),
      calls: () => window.attentionLabWhy,
    },
  };
  // Loads a view's module and tells the lab once: its strings, then "name US
  // error" ("" when it answers). Rejects with the error, and is forgotten
  // then, so the reader may try again.
  const modules = new Map();
  function requestModule(Module, name) {
    if (modules.has(name)) return modules.get(name);
    modules.set(name, lazyViews[name].load(Module).then((strings) => {
      if (strings) window.attentionLabUtf16.call(Module, '_attn_add_view_strings', strings);
      return '';
    }, (e) => String(e && e.message ? e.message : e)).then((error) => {
      window.attentionLabUtf16.call(Module, '_attn_module_loaded', `${name}\x1f${error}`);
      if (window.attentionLabFrames) window.attentionLabFrames.wake();
      if (error) {
        modules.delete(name);
        throw new Error(error);
      }
    }));
    return modules.get(name);
  }

  // The lazy views' modules answer the lab in api/wire.hpp's bytes, each the
  // same way: a request's answer at once from the instance on this thread
  // (call), or later from its worker (post, then answer). Each loader (poem.js,
  // why.js) gives call(lab, pointer, size), post(lab, pointer, size) and threaded().
  function intoHeap(module, bytes) {
    const pointer = module._malloc(Math.max(1, bytes.length));
    module.HEAPU8.set(bytes, pointer);
    return pointer;
  }
  window.attentionLabModuleBytes = {
    intoHeap,
    // The request at pointer in the lab's heap, answered by model's
    // `_${name}_call` and copied into the lab's heap as [u32 size][bytes].
    call(lab, model, name, pointer, size) {
      const request = intoHeap(model, lab.HEAPU8.subarray(pointer, pointer + size));
      let answer;
      try {
        const at = model[`_${name}_call`](request, size);
        answer = model.HEAPU8.slice(at, at + model[`_${name}_answer_size`]());
      } finally {
        model._free(request);
      }
      const out = lab._malloc(answer.length + 4);
      new DataView(lab.HEAPU8.buffer).setUint32(out, answer.length, true);
      lab.HEAPU8.set(answer, out + 4);
      return out;
    },
    // A request's op: its first u32.
    op: (bytes) => (bytes.length >= 4 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true) : 0),
    // A worker's answer to the request of that op, to the lab.
    answer(lab, name, op, bytes) {
      const pointer = intoHeap(lab, bytes);
      const size = lab.lengthBytesUTF8(name) + 1;
      const namePointer = lab._malloc(size);
      lab.stringToUTF8(name, namePointer, size);
      try {
        lab._attn_module_answer(namePointer, op, pointer, bytes.length);
      } finally {
        lab._free(pointer);
        lab._free(namePointer);
      }
    },
    // The bytes of an answer that is only an error (api/wire.hpp: [u32 size][UTF-8]).
    error(message) {
      const text = new TextEncoder().encode(message);
      const bytes = new Uint8Array(4 + text.length);
      new DataView(bytes.buffer).setUint32(0, text.length, true);
      bytes.set(text, 4);
      return bytes;
    },
  };

  // The main module's deferred part (attention_web.deferred.wasm: every view's
  // code but the first's, and attentionLab's JSON calls; scripts/split_wasm.mjs).
  // Fetched once the lab is ready, or as soon as a view asks for it (the
  // `code` row above); instantiating it fills its functions into the main
  // module's table. A call that reaches one sooner (an attentionLab call
  // right at ready) comes to loadSplitModule, which fetches it at once,
  // synchronously: slower that one time, never wrong.
  // Its strings (attention_web.strings: what only its panels draw, records
  // for _attn_add_view_strings) come with it: load() resolves with them, and
  // requestModule hands them over before telling the lab the code is there.
  const deferredCode = (() => {
    const file = 'attention_web.deferred.wasm';
    const stringsFile = 'attention_web.strings';
    let installed = false;
    let loading = null;
    const install = (compiled, imports) => {
      if (!installed) new WebAssembly.Instance(compiled, imports);
      installed = true;
    };
    const fetched = (name, read) => fetch(name).then((response) => {
      if (!response.ok) throw new Error(`${name}: ${response.status} ${response.statusText}`);
      return read(response);
    });
    return {
      load(Module) {
        if (!loading) {
          loading = Promise.all([
            fetched(file, (response) => response.arrayBuffer()).then((bytes) => WebAssembly.compile(bytes)),
            fetched(stringsFile, (response) => response.text()),
          ]).then(([compiled, strings]) => {
            install(compiled, { primary: Module.asm });
            document.body.dataset.code = 'ready';
            return strings;
          }).catch((e) => {
            loading = null;  // the reader may ask again
            throw e;
          });
        }
        return loading;
      },
      // Emscripten's glue asks for it this way when a deferred function is
      // called before load() has installed it (imports: the main module's exports).
      loadNow(imports) {
        if (installed) return;
        const request = new XMLHttpRequest();
        // A URL of its own: a browser may hold a second request for a URL
        // until its first (load()'s fetch, still on its way) has finished.
        request.open('GET', `${file}?now`, false);
        request.overrideMimeType('text/plain; charset=x-user-defined');  // the bytes, one per char
        request.send();
        if (request.status !== 200) throw new Error(`${file}: ${request.status} ${request.statusText}`);
        const text = request.responseText;
        const bytes = new Uint8Array(text.length);
        for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i) & 0xff;
        install(new WebAssembly.Module(bytes), imports);
        // Its strings still come with load() (asked for at ready, always),
        // before the lab is told the code is there and draws what needs them.
      },
    };
  })();

  // The colour schemes ?theme=auto and ?theme=host follow: the browser's, and
  // the embedding page's html.dark (VitePress's switch) when that page is of
  // this site (-1: it is not, or there is none).
  const darkMedia = window.matchMedia && matchMedia('(prefers-color-scheme: dark)');
  function hostDark() {
    try {
      return window.parent === window ? -1 : window.parent.document.documentElement.classList.contains('dark') ? 1 : 0;
    } catch (e) {
      return -1;  // another site's page
    }
  }

  // Dear ImGui's GL backend reads the scissor box and the blend state back
  // before it draws each frame, to put them back after. In a browser such a
  // read is a getParameter call that waits for the GPU process to finish
  // everything queued: 5 ms for the scissor box alone in a typing frame of
  // the learned-heads view. The lab is its context's only user, so what it
  // set is known: the setters are wrapped to remember their values, and the
  // reads answer from them (a value never set is asked once). A restored
  // context starts from GL's defaults again.
  function rememberSetState(gl) {
    const known = new Map();
    const remember = (name, keep) => {
      const set = gl[name].bind(gl);
      gl[name] = (...args) => {
        keep(...args);
        return set(...args);
      };
    };
    remember('scissor', (x, y, w, h) => known.set(gl.SCISSOR_BOX, new Int32Array([x, y, w, h])));
    const blend = (srcRgb, dstRgb, srcAlpha, dstAlpha) => {
      known.set(gl.BLEND_SRC_RGB, srcRgb).set(gl.BLEND_DST_RGB, dstRgb);
      known.set(gl.BLEND_SRC_ALPHA, srcAlpha).set(gl.BLEND_DST_ALPHA, dstAlpha);
    };
    remember('blendFunc', (src, dst) => blend(src, dst, src, dst));
    remember('blendFuncSeparate', blend);
    remember('blendEquation', (mode) => known.set(gl.BLEND_EQUATION_RGB, mode).set(gl.BLEND_EQUATION_ALPHA, mode));
    remember('blendEquationSeparate', (rgb, alpha) => known.set(gl.BLEND_EQUATION_RGB, rgb).set(gl.BLEND_EQUATION_ALPHA, alpha));
    const shadowed = [gl.SCISSOR_BOX, gl.BLEND_SRC_RGB, gl.BLEND_DST_RGB, gl.BLEND_SRC_ALPHA, gl.BLEND_DST_ALPHA,
      gl.BLEND_EQUATION_RGB, gl.BLEND_EQUATION_ALPHA];
    const get = gl.getParameter.bind(gl);
    gl.getParameter = (name) => {
      if (!shadowed.includes(name)) return get(name);
      if (!known.has(name)) known.set(name, get(name));
      const value = known.get(name);
      return value instanceof Int32Array ? new Int32Array(value) : value;
    };
    canvas.addEventListener('webglcontextrestored', () => known.clear());
  }
  const getContext = canvas.getContext.bind(canvas);
  canvas.getContext = (type, attributes) => {
    const gl = getContext(type, attributes);
    if (gl && type === 'webgl2' && !gl.attentionLabRemembers) {
      rememberSetState(gl);
      gl.attentionLabRemembers = true;
    }
    return gl;
  };

  createAttentionLab({
    canvas: canvas,
    attnStateChanged: stateChanged,
    attnCopyLink: copyLink,
    attnWantedHeight: (height) => window.attentionLabMessages && window.attentionLabMessages.wantedHeight(height),
    attnHostDark: hostDark,
    attnEngaged: () => !window.attentionLabFrames || window.attentionLabFrames.engaged(),
    attnRequestFont: window.attentionLabFonts && window.attentionLabFonts.request,  // fonts.js
    attnRequestModule: (Module, name) => requestModule(Module, name).catch(() => {}),  // said on the canvas
    attnRequestPoemCorpus: (Module) => poemLoader().then((poem) => poem.corpus(Module)).catch(() => {}),
    // A lazy view's module, in api/wire.hpp's bytes (src/platform/web_modules.hpp).
    attnModuleCall: (Module, name, pointer, size) => lazyViews[name].calls().call(Module, pointer, size),
    attnModulePost: (Module, name, pointer, size) => lazyViews[name].calls().post(Module, pointer, size),
    attnModuleThreaded: (name) => lazyViews[name].calls().threaded(),
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    onAbort: (what) => showError(text.aborted + what),
    onWebGLUnavailable: () => showError(text.noContext),
    loadSplitModule: (file, imports) => deferredCode.loadNow(imports),
  }).then((Module) => {
    if (document.body.dataset.ready === 'error') return;  // main already reported a failure
    // Strings cross into wasm as UTF-8 through utf16.js, which checks them
    // first (a lone surrogate would be changed on the way, a huge one would
    // take wasm memory for good); results come back as pointers to strings
    // the app owns (valid until the next call).
    const utf16 = window.attentionLabUtf16;
    const callWithString = (exportName, text) => Module.UTF8ToString(utf16.call(Module, exportName, text));
    function notice(message) {
      utf16.call(Module, '_attn_notice', message);
      if (window.attentionLabFrames) window.attentionLabFrames.wake();
    }
    function parse(text) {
      try {
        return JSON.parse(text);
      } catch (e) {
        return { error: 'result: ' + e.message };
      }
    }

    window.attentionLab = {
      // config: a JSON string or an object; returns the parsed result or {error}.
      // {poem: {text}} reads the poem model (loadPoem() first), as the learned-heads view.
      compute(config) {
        let text = config;
        const invalid = typeof config === 'string' ? utf16.check(config) : utf16.checkValue(config);
        if (invalid) return { error: (typeof config === 'string' ? 'config: ' : '') + invalid };
        if (typeof config !== 'string') {
          try {
            text = JSON.stringify(config);
          } catch (e) {
            return { error: 'config: ' + e.message };
          }
          if (typeof text !== 'string') return { error: 'config: not representable as JSON' };
        }
        const tooLong = utf16.tooLong(text, Module);
        if (tooLong) return { error: 'config: ' + tooLong };
        const object = typeof config === 'string' ? parse(text) : config;
        if (object && typeof object === 'object' && 'poem' in object) {
          return window.attentionLabPoem ? window.attentionLabPoem.compute(object)
                                         : { error: 'poem: the model is not loaded (attentionLab.loadPoem() loads it)' };
        }
        // {why: settings} runs a why-attention experiment (loadWhy() first), as attention_cli why --json.
        if (object && typeof object === 'object' && 'why' in object) {
          return window.attentionLabWhy ? window.attentionLabWhy.compute(object)
                                        : { error: 'why: the module is not loaded (attentionLab.loadWhy() loads it)' };
        }
        return parse(callWithString('_attn_compute', text));
      },
      // Loads the poem model (as opening the learned-heads view does): a
      // Promise that resolves once compute({poem: ...}) can answer.
      loadPoem: () => requestModule(Module, 'poem'),
      // Loads the why-attention experiments' module: a Promise that resolves
      // once compute({why: ...}) can answer.
      loadWhy: () => requestModule(Module, 'why'),
      // Where each heatmap's cells are on the canvas (framebuffer and CSS pixels).
      layout() {
        return parse(Module.UTF8ToString(Module._attn_layout()));
      },
      // The reader's explorer config: compute(currentConfig()) reproduces the explorer's numbers.
      currentConfig() {
        return parse(Module.UTF8ToString(Module._attn_current_config()));
      },
      // UI state: {config, tokens, selected_query, selected_head, view, heads, stats_table, error, scaling}.
      state() {
        return parse(Module.UTF8ToString(Module._attn_state()));
      },
      // The reader's state as fields (the URL's parameters, a host page's get()).
      get() {
        return parse(Module.UTF8ToString(Module._attn_get_fields()));
      },
      // Sets some fields, all or none: '' or the message naming the field.
      set(fields) {
        const invalid = utf16.checkValue(fields);
        if (invalid) {
          notice(invalid + '; nothing changed');
          return invalid;
        }
        let text;
        try {
          text = JSON.stringify(fields);
        } catch (e) {
          return 'state: ' + e.message;
        }
        if (typeof text !== 'string') text = 'null';
        const tooLong = utf16.tooLong(text, Module);
        if (tooLong) {
          notice('state: ' + tooLong + '; nothing changed');
          return 'state: ' + tooLong;
        }
        const error = callWithString('_attn_set_fields', text);
        if (window.attentionLabFrames) window.attentionLabFrames.wake();
        return error;
      },
    };
    if (window.attentionLabFrames) window.attentionLabFrames.attach(Module, canvas);
    // WebGL context loss (a GPU reset, too many contexts on one page): say so
    // and draw nothing; when the browser restores the context, the GL objects
    // are made again and the same state is drawn (body data-context: ok|lost).
    document.body.dataset.context = 'ok';
    canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();  // without it the browser never restores the context
      document.body.dataset.context = 'lost';
      if (window.attentionLabFrames) window.attentionLabFrames.setContextLost(true);
      statusText.textContent = text.contextLost;
      status.classList.remove('hidden');
    });
    canvas.addEventListener('webglcontextrestored', () => {
      Module._attn_gl_restored();
      status.classList.add('hidden');
      document.body.dataset.context = 'ok';
      if (window.attentionLabFrames) window.attentionLabFrames.setContextLost(false);
    });
    if (window.attentionLabMessages) {
      window.attentionLabMessages.attach({
        getFields: () => window.attentionLab.get(),
        setFields: (fields) => window.attentionLab.set(fields),
        wake: () => window.attentionLabFrames && window.attentionLabFrames.wake(),
      });
    }
    // ?theme=auto and ?theme=host follow their colour scheme as it changes.
    function colorScheme() {
      Module._attn_color_scheme(darkMedia && darkMedia.matches ? 1 : 0, hostDark());
      if (window.attentionLabFrames) window.attentionLabFrames.wake();
    }
    if (darkMedia && darkMedia.addEventListener) darkMedia.addEventListener('change', colorScheme);
    if (hostDark() >= 0) {
      new MutationObserver(colorScheme).observe(window.parent.document.documentElement,
                                                { attributes: true, attributeFilter: ['class'] });
    }
    status.classList.add('hidden');
    // The example chapter page, linked from the lab when it is the whole page.
    const params = new URLSearchParams(window.attentionLabSearch || window.location.search);
    if (window.top === window && (params.get('controls') || 'full') === 'full') {
      document.getElementById('textbook-link').classList.remove('hidden');
    }
    document.body.dataset.readyAt = String(performance.now());
    document.body.dataset.ready = '1';
    // Then the deferred part of its code, and with it the accessible copy of
    // the view (web/a11y.js, its styles in a11y.css): after the first
    // download (tests/web/first_download_e2e.mjs).
    const attachA11y = () => script('a11y.js').then(() => window.attentionLabA11y && window.attentionLabA11y.attach(Module, canvas),
                                                    () => {});
    setTimeout(() => requestModule(Module, 'code').then(attachA11y, attachA11y), 0);
  }, (error) => {
    showError(text.failed + (error && error.message ? error.message : error));
  });
})();
