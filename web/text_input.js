// Text input for the lab's Dear ImGui text fields, as on a normal web page:
// typing, input methods (pinyin, kana, dead keys), insertText, paste, copy/cut
// to the system clipboard. The C++ half is src/platform/web_text_input.cpp.
//
// Why: Emscripten's GLFW turns only `keypress` events into characters, so
// input-method text, insertText and paste never reached ImGui, and its
// clipboard functions are stubs.
//
// Design: one hidden <textarea> (this file) is focused while ImGui edits a
// text field (the C++ end-of-frame hook calls update() when that starts, ends
// or the caret moves) and sits on the field's caret, so the browser places the
// input method's candidate window there. Every character reaches ImGui by
// exactly one path:
//  - a plain typed character: GLFW's keypress listener (as before); this file
//    cancels that keypress's default so the textarea never receives it;
//  - everything else the textarea receives (input-method results at
//    compositionend, insertText, AltGr characters): taken from its value and
//    sent as UTF-8 to ImGui (attn_text_input_insert), then the textarea is
//    emptied. Text still being composed stays in the textarea, which is shown
//    at the caret while composing, and never reaches ImGui;
//  - paste (Ctrl/Cmd+V, the browser's menu, a synthetic paste event): the
//    paste event's text, sent the same way. ImGui 1.86 ignores characters
//    while Ctrl is down, so the C++ side holds text back while Ctrl is down
//    and gives it to ImGui's own Ctrl+V through GetClipboardTextFn (which
//    otherwise returns ""): the text is pasted once, whichever way.
// Keys ImGui needs (Backspace, Delete, arrows, Home/End, Enter, Tab, Ctrl+A/C/
// X/V/Z) still reach it through GLFW's keydown/keyup listeners on window.
// Keydowns that belong to a composition (isComposing, keyCode 229) are stopped
// before GLFW sees them: this file registers its window listeners (capture
// phase) when it loads, before the wasm module's glfwInit registers GLFW's,
// so it must be loaded before main.js starts the module.
// Copy/cut: the copy/cut event fills the clipboard synchronously with what
// ImGui would copy (attn_text_input_copy_text), which needs no permission in
// any browser; ImGui's SetClipboardTextFn (called a frame later) then writes
// with navigator.clipboard.writeText unless the event already put that text
// there, falling back to document.execCommand('copy').
// Focus: clicks on the canvas do not take focus from the textarea while a
// field is edited; when ImGui stops editing, the textarea is blurred so page
// keys work again; when the page moves focus to another element, ImGui stops
// editing (attn_text_input_deactivate).
// Order: keys, characters and this file's text reach ImGui through one queue
// (src/platform/input_queue.hpp), a frame's share at a time, so a quick tap
// acts once and text never overtakes a key.
// On a Mac the shortcuts are Cmd+key (ImGui's ConfigMacOSXBehaviors, main_web.cpp).
// Limits: Firefox on a Mac reports Cmd as keyCode 224, which Emscripten's GLFW
// drops, so there only Cmd+C/V work (copy/paste events); the focus moves from
// a frame, not a tap, so phones may not open their on-screen keyboard.
(function () {
  'use strict';
  const area = document.createElement('textarea');
  let Module = null;       // the wasm module, from attach()
  let active = false;      // ImGui is editing a text field
  let composing = false;   // an input-method composition is open
  let caret = { x: 0, y: 0, line: 16 };  // framebuffer pixels, from update()
  let copied = null;       // {text, time}: what a copy/cut event put on the clipboard
  let pendingCopy = null;  // the text execCommand('copy') should write

  area.setAttribute('aria-label', 'Text input for the lab');
  area.setAttribute('autocomplete', 'off');
  area.setAttribute('autocorrect', 'off');
  area.setAttribute('autocapitalize', 'off');
  area.spellcheck = false;
  area.tabIndex = -1;
  area.rows = 1;
  area.wrap = 'off';
  const hidden = 'position:fixed;left:0;top:0;width:1px;height:1px;margin:0;padding:0;border:0;' +
    'outline:none;resize:none;overflow:hidden;white-space:pre;z-index:10;pointer-events:none;' +
    'font-family:sans-serif;opacity:0;color:transparent;background:transparent;caret-color:transparent;';
  area.style.cssText = hidden;
  (document.body || document.documentElement).appendChild(area);

  const focused = () => document.activeElement === area;
  const canvas = () => (Module && Module.canvas) || document.getElementById('canvas');

  // The caret in CSS pixels; the textarea's top-left goes there, one line high.
  function place() {
    const c = canvas();
    if (!c || !c.width) return;
    const r = c.getBoundingClientRect();
    const scale = r.width / c.width;
    const line = Math.max(8, caret.line * scale);
    area.style.left = (r.left + caret.x * scale) + 'px';
    area.style.top = (r.top + caret.y * scale) + 'px';
    area.style.height = line + 'px';
    area.style.fontSize = (line * 0.85) + 'px';
    area.style.lineHeight = line + 'px';
    if (composing) {
      area.style.width = '1px';
      area.style.width = (area.scrollWidth + 2) + 'px';
    }
  }

  function showComposition(on) {
    composing = on;
    area.style.opacity = on ? '1' : '0';
    area.style.color = on ? '#111' : 'transparent';
    area.style.background = on ? '#fff' : 'transparent';
    area.style.boxShadow = on ? '0 0 0 1px #4a78c2' : 'none';
    if (!on) area.style.width = '1px';
    place();
  }

  // Text goes in as UTF-8. A lone surrogate has no UTF-8 form (utf16.js), so
  // text holding one is refused with a notice instead of arriving changed.
  function send(text) {
    if (!Module || !text) return;
    const strings = window.attentionLabUtf16;
    const invalid = strings.check(text) || strings.tooLong(text, Module);
    if (invalid) strings.call(Module, '_attn_notice', 'typed text: ' + invalid + '; nothing was inserted');
    else strings.call(Module, '_attn_text_input_insert', text);
  }

  // Whatever the textarea holds (outside a composition) goes to ImGui once.
  function flush() {
    const text = area.value;
    area.value = '';
    if (active) send(text);
  }

  // Called by the C++ end-of-frame hook when editing starts/stops or the caret moves.
  function update(isActive, x, y, line) {
    caret = { x, y, line: line || caret.line };
    if (isActive && !active) {
      active = true;
      area.value = '';
      place();
      area.focus({ preventScroll: true });
    } else if (!isActive && active) {
      active = false;
      showComposition(false);
      area.value = '';
      if (focused()) area.blur();
    } else if (active) {
      place();
    }
  }

  // Writes text to the system clipboard (ImGui's SetClipboardTextFn). Copying
  // nothing leaves the clipboard alone, as on a web page (ImGui copies the
  // whole text, "" in an empty field, and repeats Ctrl+X while it is held).
  function setClipboard(text) {
    if (!text) return;
    if (copied && copied.text === text && performance.now() - copied.time < 2000) return;  // the copy event did it
    const fallback = () => {
      pendingCopy = text;
      try {
        document.execCommand('copy');
      } catch (e) {
        // nothing more to try
      } finally {
        pendingCopy = null;
      }
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).catch(fallback);
    } else {
      fallback();
    }
  }

  // Keys typed into the page's own controls (web/a11y.js: the accessible copy's
  // panel) are the browser's: Tab moves on, arrows change a slider or a select,
  // an input method composes. Neither this file nor GLFW (ImGui) may take them;
  // Esc goes on to frames.js, which hands the keyboard back to a host page.
  const pageControls = document.getElementById('a11y');
  for (const type of ['keydown', 'keyup', 'keypress']) {
    window.addEventListener(type, (event) => {
      if (pageControls && pageControls.contains(event.target) && event.key !== 'Escape') event.stopImmediatePropagation();
    }, true);
  }

  // --- window listeners, capture phase, registered before GLFW's -------------
  window.addEventListener('keydown', (event) => {
    if (!focused()) return;
    if (event.isComposing || event.keyCode === 229 || composing) {
      event.stopImmediatePropagation();  // the input method's key, not ImGui's
      return;
    }
    // The textarea's own undo would bring back text already sent; ImGui undoes.
    if ((event.ctrlKey || event.metaKey) && (event.key === 'z' || event.key === 'Z' || event.key === 'y')) {
      event.preventDefault();
    }
  }, true);

  // GLFW makes a character of this keypress: the textarea must not get it too.
  window.addEventListener('keypress', (event) => {
    if (focused() && !event.ctrlKey && !event.metaKey && event.charCode >= 0x20) event.preventDefault();
  }, true);

  window.addEventListener('paste', (event) => {
    if (!active || !focused()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const data = event.clipboardData;
    const text = data ? data.getData('text/plain') || data.getData('text') : '';
    send(text.replace(/\r\n?/g, '\n'));
  }, true);

  function onCopy(event) {
    let text = pendingCopy;
    if (text === null) {
      if (!active || !focused() || !Module) return;
      text = Module.UTF8ToString(Module._attn_text_input_copy_text());
      if (!text) return;  // nothing to copy: the clipboard stays as it is
      copied = { text, time: performance.now() };
    }
    if (!event.clipboardData) return;
    event.clipboardData.setData('text/plain', text);
    event.preventDefault();
    event.stopImmediatePropagation();
  }
  window.addEventListener('copy', onCopy, true);
  window.addEventListener('cut', onCopy, true);  // ImGui removes the selection on its Ctrl+X

  // --- the textarea ----------------------------------------------------------
  area.addEventListener('compositionstart', () => {
    area.value = '';
    showComposition(true);
  });
  area.addEventListener('compositionend', () => {
    showComposition(false);
    flush();
  });
  area.addEventListener('input', (event) => {
    if (event.isComposing || composing) {
      place();  // the composition grew: widen the box
      return;
    }
    const type = event.inputType || 'insertText';
    if (type.startsWith('insert') && type !== 'insertLineBreak' && type !== 'insertParagraph') {
      flush();
    } else {
      area.value = '';  // Enter, deletions, undo: ImGui handles those keys itself
    }
  });
  area.addEventListener('blur', (event) => {
    if (composing) showComposition(false);  // a composition never outlives the focus
    const to = event.relatedTarget;
    if (active && Module && to && to !== canvas()) Module._attn_text_input_deactivate();
  });

  window.attentionLabTextInput = {
    // Called from install_web_text_input() with the module, before the first frame.
    attach(module) {
      Module = module;
      const c = canvas();
      // A click in the canvas keeps the textarea focused; ImGui decides what it hits.
      if (c) c.addEventListener('mousedown', (event) => { if (focused()) event.preventDefault(); }, true);
    },
    update,
    setClipboard,
    // For tests: the textarea's place and state.
    inspect() {
      const r = area.getBoundingClientRect();
      return { active, composing, focused: focused(), value: area.value,
               left: r.left, top: r.top, width: r.width, height: r.height };
    },
  };
})();
