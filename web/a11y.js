// The lab for readers who cannot see the canvas or use a mouse: a DOM copy of
// the open view (src/ui/a11y/a11y.hpp builds it from the same results the canvas
// draws) with its title, a summary, a <table> of each matrix or curve shown,
// labelled HTML controls (each sets one state field through
// attentionLab.set(), or is one of the canvas's buttons: training, export,
// copy link), and a polite live region that reads out the cell under the
// keyboard's cell cursor (arrow keys on the canvas).
//
// The copy is visually hidden; the controls show as a panel over the foot of
// the lab while the keyboard is in them (a sighted keyboard reader sees where
// the focus is). Everything is built with createElement/textContent: the
// Content-Security-Policy allows no inline HTML or styles.
// main.js loads it once the lab runs, and it loads a11y.css: neither is part
// of the first download.
(function () {
  'use strict';
  const REFRESH_MS = 120;   // after a frame, the copy follows within this
  // ... or later when rebuilding it is costly: at most 1/REBUILD_SHARE of the
  // page's thread goes to the copy (a model training in the learned-heads view
  // changes its 65 x 65 table with every step; rebuilt 8 times a second it
  // took the whole thread from the frames and the trainers' answers).
  const REBUILD_SHARE = 8;
  let refreshMs = REFRESH_MS;
  const ANNOUNCE_MS = 300;  // the cursor's cell is read at most this often
  const RECOMPUTE_MS = 1000;  // ... and again when its result changes this soon after the key

  const root = document.getElementById('a11y');
  if (!root) return;
  const title = document.getElementById('a11y-title');
  const summary = document.getElementById('a11y-summary');
  const form = document.getElementById('a11y-controls');
  const tables = document.getElementById('a11y-tables');
  const live = document.getElementById('a11y-live');

  let Module = null;
  let canvas = null;
  let timer = null;
  let lastVersion = -1;  // the copy's version last applied (attn_a11y_version)
  let lastTables = '';
  let lastFields = '';
  let lastMoves = -1;
  let lastMoveAt = 0;
  let lastCursorText = '';
  let lastAnnounce = 0;
  let announceTimer = null;
  const rows = new Map();  // field -> {label, name, input, output, kind, options}

  form.addEventListener('submit', (event) => event.preventDefault());  // Enter in the sentence: nothing to send

  // (Keys typed into the controls are kept from ImGui by text_input.js, which loads before GLFW.)

  function set(field, value) {
    if (!window.attentionLab) return;
    const error = window.attentionLab.set({ [field]: value });
    if (error) say(error);
    schedule();
  }

  function say(text) {
    live.textContent = text;
    lastAnnounce = performance.now();
  }

  function press(action) {
    if (!Module) return;
    window.attentionLabUtf16.call(Module, '_attn_a11y_press', action);
    if (window.attentionLabFrames) window.attentionLabFrames.wake();
    schedule();
  }

  function makeRow(control) {
    if (control.kind === 'button') {  // an action (src/ui/a11y/a11y.hpp: a11y_press), not a field
      const button = document.createElement('button');
      button.type = 'button';
      button.name = control.field;
      const row = { label: button, name: button, input: button, kind: control.kind, uses: control.value };
      // A button that sends a choice (export: which file) reads it when pressed.
      button.addEventListener('click', () => {
        const uses = row.uses && rows.get(row.uses);
        press(uses ? control.field + ':' + JSON.parse(uses.input.value) : control.field);
      });
      return row;
    }
    const label = document.createElement('label');
    const name = document.createElement('span');
    label.appendChild(name);
    let input;
    if (control.kind === 'select' || control.kind === 'choice') {
      input = document.createElement('select');
      input.addEventListener('change', () => {
        const value = JSON.parse(input.value);
        // A choice stays in the page (a button sends it); '' names the presets' list, not a preset.
        if (control.kind === 'select' && value !== '') set(control.field, value);
      });
    } else {
      input = document.createElement('input');
      input.type = control.kind;  // range, number, checkbox or text
      if (control.kind === 'checkbox') {
        input.addEventListener('change', () => set(control.field, input.checked));
      } else if (control.kind === 'range') {
        input.addEventListener('input', () => set(control.field, Number(input.value)));
      } else if (control.kind === 'number') {
        input.step = 'any';
        input.addEventListener('change', () => set(control.field, Number(input.value)));
      } else {
        input.spellcheck = false;
        input.autocomplete = 'off';
        // An input method's characters arrive once it commits them.
        input.addEventListener('input', (event) => { if (!event.isComposing) set(control.field, input.value); });
        input.addEventListener('compositionend', () => set(control.field, input.value));
      }
    }
    input.name = control.field;
    label.appendChild(input);
    const row = { label, name, input, kind: control.kind, options: '' };
    if (control.kind === 'range') {
      row.output = document.createElement('output');
      row.output.setAttribute('aria-hidden', 'true');  // for the eye: the slider itself tells its value
      label.appendChild(row.output);
    }
    return row;
  }

  function updateRow(row, control) {
    row.name.textContent = control.label;
    const { input } = row;
    if (control.kind === 'select' || control.kind === 'choice') {
      const options = JSON.stringify(control.options);
      if (options !== row.options) {
        const picked = input.value;
        row.options = options;
        input.replaceChildren(...control.options.map((o) => {
          const option = document.createElement('option');
          option.value = JSON.stringify(o.value);
          option.textContent = o.label;
          return option;
        }));
        if (control.kind === 'choice' && control.options.some((o) => JSON.stringify(o.value) === picked)) input.value = picked;
      }
      if (control.kind === 'select') input.value = JSON.stringify(control.value);  // a choice keeps the reader's pick
    } else if (control.kind === 'range' || control.kind === 'number') {
      input.min = control.min;
      input.max = control.max;
      if (control.step !== null) input.step = control.step;  // else a slider's 1, a number box's 'any'
      if (document.activeElement !== input || control.kind === 'range') input.value = control.value;
      if (row.output) row.output.textContent = String(control.value);
    } else if (control.kind === 'checkbox') {
      input.checked = !!control.value;
    } else if (control.kind === 'button') {
      // the label was set above
    } else if (document.activeElement !== input && input.value !== control.value) {
      input.value = control.value;  // not while the reader types in it
    }
  }

  function renderControls(controls) {
    const fields = controls.map((c) => c.field + ':' + c.kind).join(',');
    if (fields !== lastFields) {
      const focusedField = form.contains(document.activeElement) ? document.activeElement.name : null;
      lastFields = fields;
      const kept = new Map();
      for (const control of controls) {
        const old = rows.get(control.field);
        kept.set(control.field, old && old.kind === control.kind ? old : makeRow(control));
      }
      rows.clear();
      for (const [field, row] of kept) rows.set(field, row);
      form.replaceChildren(...[...rows.values()].map((row) => row.label));
      if (focusedField && rows.has(focusedField)) rows.get(focusedField).input.focus();
    }
    for (const control of controls) updateRow(rows.get(control.field), control);
  }

  function tableOf(t) {
    const table = document.createElement('table');
    const caption = document.createElement('caption');
    caption.textContent = t.caption;
    table.appendChild(caption);
    const head = document.createElement('thead');
    const headRow = document.createElement('tr');
    for (const text of [t.corner, ...t.columns]) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = text;
      headRow.appendChild(th);
    }
    head.appendChild(headRow);
    table.appendChild(head);
    const body = document.createElement('tbody');
    for (const r of t.rows) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = r.header;
      tr.appendChild(th);
      for (const cell of r.cells) {
        const td = document.createElement('td');
        td.textContent = cell;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    if (t.heatmap) table.dataset.heatmap = t.heatmap;
    const out = [table];
    if (t.note) {
      const note = document.createElement('p');
      note.textContent = t.note;
      out.push(note);
    }
    return out;
  }

  // The cursor's cell, read once per move but at most every ANNOUNCE_MS
  // (holding an arrow key repeats faster than anyone can listen); read again
  // if its numbers change within RECOMPUTE_MS of the key (Space toggled a
  // custom mask's cell: the result follows a frame later), not on every
  // later recompute (typing would chatter).
  function announce(cursor) {
    if (!cursor) return;
    const now = performance.now();
    const recomputed = cursor.moves === lastMoves && cursor.text !== lastCursorText && now - lastMoveAt < RECOMPUTE_MS;
    lastCursorText = cursor.text;
    if (cursor.moves === lastMoves && !recomputed) return;
    const first = lastMoves < 0;
    if (cursor.moves !== lastMoves) lastMoveAt = now;
    lastMoves = cursor.moves;
    if (first && cursor.moves === 0) return;  // nothing moved yet: nothing to say
    clearTimeout(announceTimer);
    announceTimer = null;  // settled() waits while this is set: a cleared timer must not stay behind
    const wait = ANNOUNCE_MS - (performance.now() - lastAnnounce);
    if (wait <= 0) say(cursor.text);
    else announceTimer = setTimeout(() => { announceTimer = null; say(cursor.text); }, wait);
  }

  function apply(mirror) {
    const lang = mirror.lang === 'zh' ? 'zh-CN' : mirror.lang;
    document.documentElement.lang = lang;
    root.dataset.view = mirror.view;
    title.textContent = mirror.title;
    summary.textContent = mirror.summary;
    if (canvas) canvas.setAttribute('aria-label', mirror.canvas_label);
    form.setAttribute('aria-label', mirror.title);
    renderControls(mirror.controls);
    const theme = mirror.controls.find((c) => c.field === 'theme');
    if (theme) root.dataset.theme = theme.value;
    const tablesText = JSON.stringify(mirror.tables);
    if (tablesText !== lastTables) {
      lastTables = tablesText;
      tables.replaceChildren(...mirror.tables.flatMap(tableOf));
    }
    if (mirror.cursor) announce(mirror.cursor);
    root.dataset.version = String(Number(root.dataset.version || 0) + 1);
  }

  function refresh() {
    timer = null;
    if (!Module) return;
    // The copy is rebuilt (and its version moves) only when what it shows changed.
    const version = Module._attn_a11y_version();
    if (version === lastVersion) return;
    lastVersion = version;
    const start = performance.now();
    const text = Module.UTF8ToString(Module._attn_a11y());
    try {
      apply(JSON.parse(text));
    } catch (e) {
      console.warn('attention lab: the accessible copy could not be built: ' + e.message);
    }
    // Laid out now rather than in the next frame's canvas measurement: a model
    // training in the learned-heads view changes a 65 x 65 table several
    // times a second, and its layout held frames up to 240 ms.
    void root.offsetHeight;
    refreshMs = Math.max(REFRESH_MS, REBUILD_SHARE * (performance.now() - start));
  }
  function schedule() {
    if (!timer) timer = setTimeout(refresh, refreshMs);
  }

  window.attentionLabA11y = {
    // main.js, once the module runs: follow every frame drawn from now on.
    attach(module, theCanvas) {
      Module = module;
      canvas = theCanvas;
      // Its styles first (visually hidden, the panel): the copy is filled once they apply.
      const styles = document.createElement('link');
      styles.rel = 'stylesheet';
      styles.href = 'a11y.css';
      styles.onload = () => {
        if (window.attentionLabFrames) window.attentionLabFrames.onFrame(schedule);
        refresh();
      };
      document.head.appendChild(styles);
    },
    // For tests: build the copy now rather than after the next frame.
    refresh,
    // For tests: a Promise, resolved once the copy shows what the lab holds
    // now (nothing left to rebuild or to announce). Tests wait on this, not on
    // the copy's delays: those grow with the cost of a rebuild on a busy machine.
    settled() {
      return new Promise((done) => {
        const check = () => {
          const current = Module && !timer && !announceTimer && Module._attn_a11y_version() === lastVersion;
          if (current) return done();
          if (Module && !timer && Module._attn_a11y_version() !== lastVersion) schedule();
          setTimeout(check, 20);
        };
        check();
      });
    },
  };
})();
