// When the lab draws, and how it shares input with the page around it.
//
// Frames: the app draws a frame only when something happened (an input event
// on the page, a host page's message, the page becoming visible) plus a few
// frames after it for Dear ImGui to settle, and then as long as the frame
// says it has work of its own (attn_frame's bit 0 while training, filling
// curves, retraining). Nothing is drawn while the page is hidden
// (visibilitychange). Scrolled out of view (IntersectionObserver: in an
// iframe that is the top page's viewport) it draws only the few frames after
// something happened (its size changed, a host page's set(), a font arrived),
// never the frames of its own work: the height it tells a host page
// (height 'auto') is then always that of its content laid out at its current
// size, even for a figure below the fold, and no figure animates unseen. An
// idle lab draws nothing at all.
//
// Sharing input with a host page (the lab in an iframe of a chapter):
//  - Wheel: scrolls the page, unless the reader holds Ctrl over a zoomable
//    heatmap (or pinches a trackpad, which browsers report as Ctrl+wheel), or
//    has clicked into the lab ("engaged", until Esc or the focus leaves).
//    The C++ wheel handler asks engaged() (src/platform/main_web.cpp).
//  - Keyboard: the canvas is one Tab stop. Tab and Shift+Tab always move on to
//    the page's next or previous element (Emscripten's GLFW would swallow
//    Tab); Esc ends a text edit first (ImGui), then leaves the lab: the
//    canvas loses focus and, in an iframe, the host page gets it back.
//  - Touch: a tap is a click; a drag that starts on a heatmap or a control is
//    the lab's (pan a zoomed heatmap, move a slider); elsewhere it scrolls the
//    view under it once the reader uses the lab (a lab that is the whole page
//    always), else the host page; two fingers pinch-zoom the heatmap under
//    them. Touches reach ImGui as mouse and wheel events (Emscripten's GLFW
//    ignores where a touch is).
// Load before the wasm module: the key listeners must run before GLFW's.
(function () {
  'use strict';
  const SETTLE_FRAMES = 6;  // after an input: ImGui needs a frame or two to react, popups one more
  let Module = null;
  let canvas = null;
  let queued = false;
  let settle = 0;
  let pageVisible = !document.hidden;
  let onScreen = true;
  let engaged = window.top === window;  // a lab that is the whole page owns its wheel
  const embedded = window.top !== window;
  let contextLost = false;  // the WebGL context is gone until the browser restores it (main.js)

  const visible = () => pageVisible && onScreen && !contextLost;
  // Off-screen, only the settle frames after a wake (see the top).
  const drawable = () => visible() || (pageVisible && !contextLost && settle > 0);

  const frameListeners = [];  // onFrame(): told after every frame drawn (web/a11y.js)
  let longestFrameMs = 0;  // the longest attn_frame call since the last stats({reset: true})
  // Whether everything asked for so far is on the screen (settled()):
  // pending is attn_frame's bit 1 in the last frame (what was asked for is
  // still being worked on: a recompute spread over frames, queued keys);
  // shown, that a rendering update of the browser ran after the last frame
  // drawn, so a screenshot taken now shows it. Training does not count: it
  // goes on until paused.
  let pending = true;
  let shown = false;
  let showQueued = false;  // an animation frame asked for only to see the last frame shown
  let settledWaiters = [];
  const isSettled = () => !pending && settle === 0 && shown;
  // In an animation frame after the last frame drawn: that frame is on the screen.
  function lastFrameShown() {
    shown = true;
    if (!pending && settle === 0 && settledWaiters.length) {
      const waiters = settledWaiters;
      settledWaiters = [];
      for (const done of waiters) done();
    }
  }

  function run() {
    queued = false;
    if (Module && !shown) lastFrameShown();
    if (!Module || !drawable()) return;
    const start = performance.now();
    const flags = Module._attn_frame();
    shown = false;
    pending = (flags & 2) !== 0;
    longestFrameMs = Math.max(longestFrameMs, performance.now() - start);
    for (const listener of frameListeners) listener();
    if (settle > 0) --settle;
    if ((flags & 1) || settle > 0) request();
    if (!queued && !showQueued) {  // no next frame to see it: one more animation frame, and no more
      showQueued = true;
      requestAnimationFrame(() => {
        showQueued = false;
        if (!queued) lastFrameShown();
      });
    }
  }
  function request() {
    if (queued || !Module || !drawable()) return;
    queued = true;
    requestAnimationFrame(run);
  }
  // Something happened: draw now and a few frames more.
  function wake() {
    settle = SETTLE_FRAMES;
    request();
  }

  for (const type of ['pointerdown', 'pointerup', 'pointermove', 'mousedown', 'mouseup', 'mousemove', 'wheel',
    'keydown', 'keyup', 'keypress', 'input', 'compositionstart', 'compositionupdate', 'compositionend', 'paste',
    'copy', 'cut', 'focus', 'blur', 'resize', 'touchstart', 'touchmove', 'touchend']) {
    window.addEventListener(type, wake, { capture: true, passive: true });
  }
  document.addEventListener('visibilitychange', () => {
    pageVisible = !document.hidden;
    if (visible()) wake();
  });

  // --- keyboard: Tab leaves, Esc lets go ---------------------------------------
  const SCROLL_KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown', 'Home', 'End', ' '];
  window.addEventListener('keydown', (event) => {
    if (event.key === 'Tab' && !event.ctrlKey && !event.altKey && !event.metaKey) {
      // The browser moves the focus on; GLFW must not see (and cancel) the key.
      event.stopImmediatePropagation();
      // From the lab's own text input (a hidden textarea, not a Tab stop) the
      // next stop is the one after the canvas; from anywhere else the browser's order holds.
      const editing = window.attentionLabTextInput && window.attentionLabTextInput.inspect().focused;
      if (canvas && editing) canvas.focus({ preventScroll: true });
      if (Module) Module._attn_text_input_deactivate();
      engaged = !embedded;
      return;
    }
    if (event.key === 'Escape') {
      const editing = window.attentionLabTextInput && window.attentionLabTextInput.inspect().active;
      if (editing) return;  // ImGui ends the edit; the next Esc leaves
      engaged = !embedded;
      if (embedded) {
        if (canvas) canvas.blur();
        try {
          window.parent.focus();
        } catch (e) {
          // a host that does not let itself be focused keeps the focus where it was
        }
      }
    }
    // Clicked into, an embedded lab keeps the keys that would scroll: on the
    // canvas they are the lab's (its cell cursor), never the host page's
    // (a notebook, a chapter) by the browser's scroll chaining.
    if (embedded && engaged && event.target === canvas && SCROLL_KEYS.includes(event.key)) event.preventDefault();
  }, true);
  window.addEventListener('blur', () => { engaged = !embedded; });

  // --- touch: taps, drags and pinches as mouse and Ctrl+wheel events --------------
  let touch = null;  // {id, x, y, owned, moved, pinch: distance} of the gesture in progress
  const TAP_SLOP = 8;  // CSS px a finger may wander and still tap
  function mouse(type, x, y) {
    canvas.dispatchEvent(new MouseEvent(type, { clientX: x, clientY: y, button: 0, buttons: type === 'mouseup' ? 0 : 1,
      bubbles: true, cancelable: true, view: window }));
  }
  let awayTimer = 0;
  function away() {
    // After a touch nothing stays hovered (no tooltip left behind by a tap).
    awayTimer = setTimeout(() => mouse('mousemove', -10000, -10000), 120);
  }
  // Who a finger put down at (x, y) belongs to: 'press' (a heatmap or a
  // control: mouse events), 'scroll' (elsewhere in a lab the reader is using,
  // or a text box of several lines: the drag scrolls what is under it, as
  // wheel events, and a tap still clicks) or 'page' (elsewhere in an embedded
  // lab not yet clicked: the browser scrolls the chapter).
  function ownerOf(x, y) {
    const r = canvas.getBoundingClientRect();
    const owned = Module._attn_touch_owned(x - r.left, y - r.top);
    if (owned === 2) return 'scroll';
    if (owned) return 'press';
    return engaged ? 'scroll' : 'page';
  }
  function distance(list) {
    return Math.hypot(list[0].clientX - list[1].clientX, list[0].clientY - list[1].clientY);
  }
  function onTouchStart(event) {
    if (!Module || event.target !== canvas) return;
    event.stopImmediatePropagation();  // Emscripten's GLFW would press at the last mouse position
    clearTimeout(awayTimer);  // a new touch: the last one's "move away" must not land in it
    if (event.touches.length === 2 && touch) {
      event.preventDefault();
      if (touch.down) mouse('mouseup', touch.x, touch.y);
      touch.down = false;
      touch.pinch = distance(event.touches);
      touch.owned = true;
      return;
    }
    const t = event.changedTouches[0];
    const owner = ownerOf(t.clientX, t.clientY);
    touch = { id: t.identifier, x: t.clientX, y: t.clientY, lastY: t.clientY, owned: owner !== 'page',
      scroll: owner === 'scroll', moved: false, pinch: 0, down: false };
    if (touch.owned) {
      event.preventDefault();  // the lab's gesture: no page scroll, no emulated mouse events
      // The press waits for the finger to move or lift: a second finger
      // (a pinch) must not click the cell under the first one.
      mouse('mousemove', t.clientX, t.clientY);
    }
  }
  function press() {
    if (touch.down) return;
    touch.down = true;
    mouse('mousemove', touch.x, touch.y);
    mouse('mousedown', touch.x, touch.y);
  }
  function onTouchMove(event) {
    if (!touch || event.target !== canvas) return;
    event.stopImmediatePropagation();
    if (touch.pinch && event.touches.length >= 2) {
      event.preventDefault();
      const now = distance(event.touches);
      const cx = (event.touches[0].clientX + event.touches[1].clientX) / 2;
      const cy = (event.touches[0].clientY + event.touches[1].clientY) / 2;
      // ImGui zooms 1.25x a notch and a notch is 100 px of deltaY: a pinch
      // that doubles the distance zooms 2x.
      const notches = Math.log(now / touch.pinch) / Math.log(1.25);
      touch.pinch = now;
      mouse('mousemove', cx, cy);
      canvas.dispatchEvent(new WheelEvent('wheel', { clientX: cx, clientY: cy, deltaY: -100 * notches, deltaMode: 0,
        ctrlKey: true, bubbles: true, cancelable: true, view: window }));
      return;
    }
    const t = Array.from(event.changedTouches).find((c) => c.identifier === touch.id);
    if (!t) return;
    if (Math.hypot(t.clientX - touch.x, t.clientY - touch.y) > TAP_SLOP) touch.moved = true;
    if (touch.owned && !touch.pinch) {
      event.preventDefault();
      if (touch.scroll) {
        // The content follows the finger: a drag up scrolls down. A wheel
        // notch is 100 px of deltaY and ImGui scrolls five lines (~65 CSS px)
        // a notch, hence the 1.5.
        if (touch.moved) {
          canvas.dispatchEvent(new WheelEvent('wheel', { clientX: t.clientX, clientY: t.clientY,
            deltaY: 1.5 * (touch.lastY - t.clientY), deltaMode: 0, bubbles: true, cancelable: true, view: window }));
        }
        touch.lastY = t.clientY;
        return;
      }
      if (touch.moved) press();
      if (touch.down) mouse('mousemove', t.clientX, t.clientY);
    }
  }
  function onTouchEnd(event) {
    if (!touch || event.target !== canvas) return;
    event.stopImmediatePropagation();
    if (event.touches.length > 0) return;  // the other finger of a pinch is still down
    const t = Array.from(event.changedTouches).find((c) => c.identifier === touch.id) || event.changedTouches[0];
    if (touch.owned) {
      event.preventDefault();
      if (!touch.pinch && !(touch.scroll && touch.moved)) {
        press();  // a tap: pressed and released, a frame apart (ImGui 1.86 sees the press latched)
        mouse('mouseup', t.clientX, t.clientY);
      }
    } else if (!touch.moved && event.type === 'touchend') {
      // A tap where the page may scroll: still a click for the lab.
      event.preventDefault();
      mouse('mousemove', t.clientX, t.clientY);
      mouse('mousedown', t.clientX, t.clientY);
      setTimeout(() => mouse('mouseup', t.clientX, t.clientY), 50);
    }
    touch = null;
    away();
  }
  window.addEventListener('touchstart', onTouchStart, { capture: true, passive: false });
  window.addEventListener('touchmove', onTouchMove, { capture: true, passive: false });
  window.addEventListener('touchend', onTouchEnd, { capture: true, passive: false });
  window.addEventListener('touchcancel', onTouchEnd, { capture: true, passive: false });

  window.attentionLabFrames = {
    // Called by web/main.js once the module has drawn its first frame.
    attach(module, theCanvas) {
      Module = module;
      canvas = theCanvas;
      canvas.addEventListener('mousedown', () => {
        engaged = true;
        // A click (or a tap, which has no default focus) puts the keyboard in
        // the lab, unless the text input's textarea already holds it.
        const editing = window.attentionLabTextInput && window.attentionLabTextInput.inspect().focused;
        if (!editing) canvas.focus({ preventScroll: true });
      });
      if ('IntersectionObserver' in window) {
        new IntersectionObserver((entries) => {
          onScreen = entries[entries.length - 1].isIntersecting;
          if (visible()) wake();
        }).observe(canvas);
      }
      wake();
    },
    wake,
    // New numbers from elsewhere (a trainer's answer): two frames to draw
    // them, not an input's settle frames. Answers that come ten times a
    // second must not keep the lab from ever settling.
    draw() {
      settle = Math.max(settle, 2);
      request();
    },
    onFrame(listener) { frameListeners.push(listener); },
    // main.js: no frames while the WebGL context is lost; draw again once it is back.
    setContextLost(lost) {
      contextLost = lost;
      if (!lost) wake();
    },
    engaged: () => engaged,
    // Whether the lab has drawn everything asked for so far (the input
    // given, a recompute spread over frames, a tab switch; a running
    // training aside) and that frame is on the screen. settled() is the
    // same as a Promise. Tests wait on these, not on a number of frames: a
    // loaded machine takes more frames, not fewer.
    idle: isSettled,
    settled() {
      if (Module && isSettled()) return Promise.resolve();
      return new Promise((done) => settledWaiters.push(done));
    },
    // For tests and the curious: the longest frame (ms, the app's own work in
    // attn_frame), the wasm memory size (bytes; it only grows) and whether an
    // animation frame of the lab's is still to come (drawing). The rest say
    // why a lab draws nothing: the page hidden, the canvas scrolled away, or
    // work still pending (what settled() waits out).
    stats({ reset = false } = {}) {
      const out = { longestFrameMs, wasmBytes: Module ? Module.HEAP8.length : 0, drawing: queued || showQueued,
                    pageVisible, onScreen, contextLost, pending, settle, shown };
      if (reset) longestFrameMs = 0;
      return out;
    },
  };
})();
