// Page glue: checks for WebGL2, starts the wasm module and exposes
//   window.attentionLab = { compute(config), layout(), currentConfig(), state() }
// (state().scaling holds the scaling lab: d_k, samples, the displayed std and
// softmax peak, and both trained models' last loss and accuracy)
// then sets document.body.dataset.ready = "1".
(function () {
  'use strict';
  const canvas = document.getElementById('canvas');
  const status = document.getElementById('status');
  const statusText = document.getElementById('status-text');

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
    showError('This lab needs WebGL2, which this browser or device does not provide. ' +
              'Try a current Chrome, Firefox, Edge or Safari, or enable hardware acceleration.');
    return;
  }
  if (typeof createAttentionLab !== 'function') {
    showError('The lab could not be loaded (attention_web.js is missing).');
    return;
  }

  // The page's right-click menu would cover the canvas; the lab has its own UI.
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());

  createAttentionLab({
    canvas: canvas,
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    onAbort: (what) => showError('The lab stopped with an internal error: ' + what),
    onWebGLUnavailable: () => showError('WebGL2 could not be started on this page.'),
  }).then((Module) => {
    if (document.body.dataset.ready === 'error') return;  // main already reported a failure
    // Strings cross into wasm through malloc'd UTF-8; results come back as
    // pointers to strings the app owns (valid until the next call).
    function callWithString(exportName, text) {
      const size = Module.lengthBytesUTF8(text) + 1;
      const pointer = Module._malloc(size);
      try {
        Module.stringToUTF8(text, pointer, size);
        return Module.UTF8ToString(Module[exportName](pointer));
      } finally {
        Module._free(pointer);
      }
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
      compute(config) {
        let text = config;
        if (typeof config !== 'string') {
          try {
            text = JSON.stringify(config);
          } catch (e) {
            return { error: 'config: ' + e.message };
          }
          if (typeof text !== 'string') return { error: 'config: not representable as JSON' };
        }
        return parse(callWithString('_attn_compute', text));
      },
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
    };
    status.classList.add('hidden');
    document.body.dataset.ready = '1';
  }, (error) => {
    showError('The lab could not start: ' + (error && error.message ? error.message : error));
  });
})();
