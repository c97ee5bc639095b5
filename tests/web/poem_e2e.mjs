// The learned-heads view (?view=poem, 学到的注意力): the poem model the project
// trains itself, read head by head, driven with REAL input (mouse down/up,
// keyboard.type, insertText, Ctrl+V, an input-method composition).
//
//   node tests/web/poem_e2e.mjs <web build dir> <artefacts dir>
//
// The web build dir must hold poem_model.bin and corpus/tang300 beside the lab.
// Checks (one browser context; the main page, then fresh pages for the URL
// and for the failures):
//  1. ?view=poem&lang=zh loads the model; the text is the default held-out
//     poem (of 313, titled); every head is titled by its detector; the
//     heatmaps, scrolled into view with the wheel (layout() lists those wholly
//     on screen), have compute(layout().config)'s weights as pixels. The time
//     from the view's opening to its first heatmap is printed.
//  2. Chinese into the text box: keyboard.type, insertText, Ctrl+V of the
//     clipboard, a composition (CDP): the reader's own text, its tokens, the
//     heatmaps' pixels against compute({poem: {text}}).
//  3. A character the model cannot know (outside its vocabulary, an emoji):
//     state().poem.unknown names its position, as compute() does.
//  4. A click on a heatmap cell (mouse down, an 80 ms hold, up) selects its
//     layer, head and query; the top-10 next characters are compute()'s for
//     the text up to that position. The selected head's pattern outlines the
//     cells its detector counts (checked against the rule, and in the pixels);
//     hovering another head's title outlines that head's; the induction probe
//     (a real click) makes the text one run twice, outlined one after the copy.
//  5. 续写 twice from the same prompt with the same seed: the same continuation,
//     non-empty, at most poem_length characters.
//  6. The URL after the UI changes carries poem_text / poem_layer / poem_head /
//     poem_query; a fresh page at that URL shows the same state().poem.
//  7. The accessible copy (accessibility tree): each head's sentence in the
//     summary, the top-10 table as state().poem.next.
//  8. poem_model.bin missing (404), then Retry with the file back; a truncated
//     file: 'failed' with the error on the view and in the copy, the other
//     views still work.
//  9. Screenshots in zh/en, light/dark, at 390x844 and 1280x800
//     (poem_<lang>_<theme>_<w>x<h>.png in the artefacts dir: look at them):
//     not blank, heatmap pixels against compute().
// Prints each part's wall time and the total (about 45 s on 2 idle cores).
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { PNG } from 'pngjs';

import { Lab, READY_TIMEOUT_MS, checkPixels, press, runBrowserTest, untilDrawn } from './lab.mjs';
import { countDistinctColours } from './pixels.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node poem_e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}
const started = Date.now();
const VIEWPORT = { width: 1280, height: 800 };
// The built model's layers and heads a layer: read off state().poem.heads when the view first opens.
let LAYERS = 0, HEADS = 0;
const POEM_TIMEOUT_MS = 60_000;
const chars = (text) => Array.from(text);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const short = (v, n = 300) => { const t = JSON.stringify(v) ?? String(v); return t.length > n ? t.slice(0, n) + '...' : t; };

// ---- the page ---------------------------------------------------------------------
const poemState = (lab) => lab.state().then((s) => s.poem);

// The page is up and the model has answered (or failed): its load state.
async function openPoem(page, url, query) {
  await page.goto(`${url}index.html${query}`);
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  await waitLoad(page);
  const lab = new Lab(page);
  await lab.frames(4);
  return lab;
}
async function waitLoad(page) {
  await page.waitForFunction(() => ['ready', 'failed'].includes(window.attentionLab.state().poem?.load), null,
                             { timeout: POEM_TIMEOUT_MS });
}

// Until state().poem satisfies `test` (a function of it, evaluated in the page) or the timeout.
async function waitPoem(page, test, arg, timeout = 20_000) {
  await page.waitForFunction(`(${test})(window.attentionLab.state().poem, ${JSON.stringify(arg ?? null)})`, null, { timeout });
}

// A click with a human hold (Lab.clickAt holds 60 ms).
async function clickHeld(lab, p, holdMs = 80) {
  await lab.page.mouse.move(p.x, p.y);
  await lab.frames(2);
  await lab.page.mouse.down();
  await new Promise((ok) => setTimeout(ok, holdMs));
  await lab.page.mouse.up();
  await lab.frames(3);
}

// A wheel step: 500 scrolls the view by ~325 px at 1280x800, less than the
// view's height minus a heatmap's, so each heatmap is wholly on screen at some step.
const SCROLL_STEP = 500;
// The wheel over the view area's left edge (beside the heatmaps, which could
// take the wheel as a zoom): the view scrolls. Until the layout stops moving
// (a big dy reaches the end); true when it moved.
// Where the view's contents are: the heatmaps and the strip, table and plot around them.
const placed = (layout) => JSON.stringify([layout.heatmaps.map((h) => [h.name, h.css_y]),
  ['poem_loss', 'poem_next', 'poem_offsets'].map((name) => layout.controls?.[name]?.css_y ?? null)]);
async function scrollView(lab, dy) {
  const r = await lab.controlRect('view_area');
  const before = placed(await lab.layout());
  let now = before;
  for (let i = 0, left = dy; i < 20 && left !== 0; ++i) {
    const step = Math.sign(left) * Math.min(Math.abs(left), 3000);
    left -= step;
    await lab.page.mouse.move(r.x + 3, r.y + r.h / 2);
    await lab.page.mouse.wheel(0, step);
    await lab.frames(4);
    const next = placed(await lab.layout());
    if (next === now && Math.abs(dy) > 3000) break;  // at the end
    now = next;
  }
  return now !== before;
}

// From the top of the view down: every heatmap that comes on screen checked
// against compute(layout().config). Returns name -> layout entry.
async function everyHeatmap(c, lab, what) {
  await scrollView(lab, -100_000);
  const seen = new Map();
  const all = (await poemState(lab)).heads?.length ?? 0;
  for (let i = 0; i < 40 && seen.size < all; ++i) {
    const names = (await lab.layout()).heatmaps.map((h) => h.name);
    if (names.some((n) => !seen.has(n))) {
      const { layout } = await checkPixels(c, lab, `${what} [${names.join(' ')}]`);
      for (const h of layout.heatmaps) seen.set(h.name, h);
    }
    if (seen.size < all && !await scrollView(lab, SCROLL_STEP)) break;
  }
  return seen;
}

// Scrolls the view until heatmap `name` is wholly on screen; its layout entry
// or null. The foot first (the last layer's heads are there), then from the top.
async function showHeatmap(lab, name) {
  const find = async () => (await lab.layout()).heatmaps.find((h) => h.name === name);
  await scrollView(lab, 100_000);
  let hm = await find();
  if (hm) return hm;
  await scrollView(lab, -100_000);
  for (let i = 0; i < 20 && !(hm = await find()); ++i)
    if (!await scrollView(lab, SCROLL_STEP)) return null;
  return hm ?? null;
}

// The mouse to an empty spot (the foot of the set-up panel): no tooltip, no hover.
async function moveAway(lab) {
  const r = await lab.controlRect('setup_panel');
  await lab.page.mouse.move(r.x + r.w / 2, r.y + r.h - 6);
  await lab.frames(3);
}

// Select everything in the text box (clicked into first when it is not being edited).
async function selectAll(lab) {
  const t = await lab.page.evaluate(() => window.attentionLabTextInput.inspect());
  if (!t.active) await lab.click('poem_text');
  await press(lab, 'a', 'Control');
}

// The view reads `text` as typed: the reader's own text, one token per
// character after <poem>, the pixels of every head as compute() gives them.
async function expectText(c, lab, text, what, { pixels = true } = {}) {
  try {
    // The text box changes the text in one frame and the view reads it in the
    // next: until the tokens are the new text's (a length alone matches the old text's).
    await waitPoem(lab.page, (p, t) => p.text === t && JSON.stringify(p.tokens) === JSON.stringify(['<poem>', ...Array.from(t)]),
                   text, 5_000);
  } catch { /* reported below */ }
  const p = await poemState(lab);
  const tokens = ['<poem>', ...chars(text)];
  c.check(p.poem === -1 && p.text === text && same(p.tokens, tokens) && p.read_error === '',
          `${what}: the view reads the reader's own text ${JSON.stringify(text)} as ${JSON.stringify(tokens)}`,
          `poem ${p.poem}, text ${JSON.stringify(p.text)}, tokens ${short(p.tokens)}, read_error "${p.read_error}"`);
  const r = await lab.compute({ poem: { text } });
  c.check(!r.error && same(r.tokens, p.tokens) && same(r.unknown, p.unknown) && same(r.loss?.length, p.loss?.length),
          `${what}: compute({poem: {text}}) has the same tokens, unknown positions and losses count`,
          r.error ?? `compute ${short(r.tokens)} ${short(r.unknown)}, view ${short(p.tokens)} ${short(p.unknown)}`);
  if (pixels) {
    const { layout } = await checkPixels(c, lab, `${what}: heatmaps`);
    c.check(same(layout.config, { poem: { text } }), `${what}: layout().config is {poem: {text}}`, short(layout.config));
  }
  return p;
}

// ---- 1. the first open -------------------------------------------------------------
async function firstOpen(c, page, url) {
  const t0 = Date.now();
  // The view's first heatmap: from the page's start (performance.now() 0) to
  // the first frame whose layout lists a poem heatmap, read off every frame.
  await page.addInitScript(() => {
    // A reader's machine with four cores: the default then trains in two
    // workers (with two cores, one; web/poem.js).
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 4 });
    const look = () => {
      const layout = window.attentionLab?.layout?.();
      if (layout?.heatmaps?.some((h) => h.source === 'poem')) window.__poemFirstHeatmapMs = performance.now();
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  const lab = await openPoem(page, url, '?view=poem&lang=zh');
  const p = await poemState(lab);
  c.check(p.load === 'ready' && p.error === '', `?view=poem&lang=zh loads the poem model (${Date.now() - t0} ms to ready)`,
          `load ${p.load}, error "${p.error}"`);
  if (p.load !== 'ready') return null;
  await page.waitForFunction(() => window.__poemFirstHeatmapMs, null, { timeout: POEM_TIMEOUT_MS }).catch(() => {});
  const timing = await page.evaluate(() => ({ first: window.__poemFirstHeatmapMs, status: window.attentionLabPoem.status(),
    weights: performance.getEntriesByName(new URL('poem_model.bin', location.href).href)[0]?.encodedBodySize }));
  console.log(`  the page's start to the first poem heatmap: ${Math.round(timing.first)} ms (the model's load ` +
              `${timing.status.ms} ms, weights ${timing.weights} bytes over the wire)`);
  c.check(p.poem === p.default_poem && p.poem >= 0 && p.text.length > 0 && p.tokens?.[0] === '<poem>' &&
          p.tokens.length === chars(p.text).length + 1 && p.held_out === 313 && /^《.+》 .+/.test(p.title ?? ''),
          `the view opens on the default held-out poem (${p.poem + 1} of 313, ${p.title}), its text read as <poem> + one token per character`,
          `poem ${p.poem}, default ${p.default_poem}, held_out ${p.held_out}, title ${p.title}, ${p.tokens?.length} tokens`);
  // The shape is the built model's (scripts/poem_model.sh): its layers and heads, from the heads listed.
  const L = Math.max(...(p.heads ?? []).map((h) => h.layer)) + 1, H = Math.max(...(p.heads ?? []).map((h) => h.head)) + 1;
  LAYERS = L, HEADS = H;
  c.check(L >= 1 && H >= 1 && p.heads.length === L * H && p.heads.every((h) => h.sentence && h.weight?.length === 8),
          `state().poem.heads has the ${L} x ${H} heads, each with its detectors' numbers and sentence`,
          short(p.heads?.map((h) => h.sentence)));
  // Titled by the detectors: a previous-character head and a line-end head, their numbers in the sentence.
  for (const [d, name] of [[0, '前一个字'], [3, '句尾']]) {
    const h = p.heads.find((x) => x.strongest === d);
    const pct = h ? `${Math.round(h.weight[d] * 100)} %` : '';
    c.check(h && h.sentence.includes(`${name}：${pct}`) && h.sentence.includes(`${h.ratio[d].toFixed(1)} 倍`),
            `a head is titled "${name}" with its weight and ratio to uniform (${h?.sentence})`, short(p.heads.map((x) => x.sentence)));
  }
  // Every head's heatmap, scrolled into view with the wheel, against compute().
  const seen = await everyHeatmap(c, lab, 'the default poem');
  const names = [...seen.keys()].sort();
  const want = [];
  for (let l = 0; l < L; ++l) for (let h = 0; h < H; ++h) want.push(`poem_l${l}h${h}`);
  c.check(same(names, want.sort()) &&
          [...seen.values()].every((h) => h.source === 'poem' && h.head === Number(h.name[6]) * H + Number(h.name.slice(8)) &&
                                          h.rows === p.tokens.length && h.cols === p.tokens.length),
          `${L * H} heatmaps (${L} layers x ${H} heads, source poem, ${p.tokens.length} x ${p.tokens.length}) were on screen and pixel-checked`,
          short([...seen.values()].map((h) => [h.name, h.head, h.rows])));
  await scrollView(lab, -100_000);
  const layout = await lab.layout();
  const result = await lab.compute(layout.config);
  c.check(same(layout.config, { poem: { text: p.text } }) && same(result.tokens, p.tokens) &&
          result.layers?.length === L && result.layers.every((l) => l.heads.length === H),
          `layout().config is {poem: {text}} of the poem shown; compute() reads it as the view does (${L} layers x ${H} heads)`,
          short(layout.config));
  // The top 10 after the last character: the view's and compute()'s.
  c.check(p.query === p.tokens.length - 1 && sameNext(p.next, result.next) === '',
          'state().poem.next (after the last position) is compute().next', sameNext(p.next, result.next));
  return lab;
}

// '' when two top-10 lists agree (characters exactly, p to float precision).
function sameNext(got, want) {
  if (!Array.isArray(got) || !Array.isArray(want) || got.length !== 10 || want.length !== 10)
    return `lengths ${got?.length} and ${want?.length}`;
  for (let i = 0; i < 10; ++i) {
    if (got[i].char !== want[i].char) return `#${i + 1}: ${JSON.stringify(got[i].char)} != ${JSON.stringify(want[i].char)}`;
    if (!(Math.abs(got[i].p - want[i].p) <= 1e-6 + 1e-5 * want[i].p)) return `#${i + 1} (${got[i].char}): p ${got[i].p} != ${want[i].p}`;
  }
  return '';
}

// ---- 2 and 3. typing -------------------------------------------------------------
async function typing(c, lab, page, url) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  // keyboard.type: real key events, one per character.
  await lab.click('poem_text');
  const box = await lab.controlRect('poem_text');
  const t = await page.evaluate(() => window.attentionLabTextInput.inspect());
  c.check(t.active && t.focused && t.left >= box.x - 2 && t.left <= box.x + box.w && t.top >= box.y - 4 && t.top <= box.y + box.h,
          'a click into the text box starts editing it (the text input is focused, on the caret inside the box)',
          `textarea ${short(t)}, box ${short(box)}`);
  await press(lab, 'a', 'Control');
  await page.keyboard.type('床前明月光', { delay: 15 });
  await expectText(c, lab, '床前明月光', "select all + keyboard.type('床前明月光')");

  await selectAll(lab);
  await page.keyboard.insertText('疑是地上霜');
  await expectText(c, lab, '疑是地上霜', "select all + keyboard.insertText('疑是地上霜')", { pixels: false });

  // Ctrl+V: the system clipboard, once, over the selection.
  await page.evaluate((text) => navigator.clipboard.writeText(text), '举头望明月');
  await selectAll(lab);
  await press(lab, 'v', 'Control');
  await expectText(c, lab, '举头望明月', 'select all + Ctrl+V of the clipboard', { pixels: false });

  // An input method: pinyin composed in the text input, only the commit reaches the box.
  await selectAll(lab);
  const cdp = await page.context().newCDPSession(page);
  for (const text of ['d', 'di', 'di t', 'ditou', '低头']) {
    await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
    await lab.frames(2);
  }
  const mid = await poemState(lab);
  c.check(mid.text === '举头望明月', 'while composing, the pinyin stays in the text input, not in the box', JSON.stringify(mid.text));
  await cdp.send('Input.insertText', { text: '低头' });
  await lab.frames(2);
  for (const text of ['s', 'si', 'sigu', 'siguxiang', '思故乡']) {
    await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
    await lab.frames(2);
  }
  await cdp.send('Input.insertText', { text: '思故乡' });
  await cdp.detach();
  await expectText(c, lab, '低头思故乡', 'two compositions (CDP imeSetComposition + insertText) replace the selection');

  // 3. Characters the model never saw: an Extension B character and an emoji.
  await selectAll(lab);
  const odd = '床前\u{2000B}光😀';
  await page.keyboard.insertText(odd);
  const p = await expectText(c, lab, odd, 'characters outside the vocabulary', { pixels: false });
  const r = await lab.compute({ poem: { text: odd } });
  c.check(same(p.unknown, [3, 5]) && same(r.unknown, [3, 5]),
          'state().poem.unknown and compute().unknown name positions 3 (𠀋) and 5 (😀) (position 0 is <poem>)',
          `view ${short(p.unknown)}, compute ${short(r.unknown)}, notices ${short(r.notices)}`);
  c.check(r.notices?.some((n) => /2 character/.test(n)), 'compute() says 2 characters were read as <unk>', short(r.notices));
}

// ---- 4. clicking a cell ----------------------------------------------------------
const TEXT = '床前明月光，疑是地上霜。';
async function clickCell(c, lab, page) {
  await selectAll(lab);
  await page.keyboard.insertText(TEXT);
  await expectText(c, lab, TEXT, 'a couplet typed', { pixels: false });
  const want = { layer: 1, head: 2, query: 5 };
  const hm = await showHeatmap(lab, 'poem_l1h2');
  if (!c.check(hm && hm.head === want.layer * HEADS + want.head && hm.rows === chars(TEXT).length + 1 && hm.row0 === 0,
               'the heatmap of layer 2, head 3 scrolls into view (the wheel)', short(hm))) return null;
  // Key 1 of row 5: on or below the diagonal (a causal weight).
  await clickHeld(lab, await lab.cellCentre(hm, want.query, 1));
  const p = await poemState(lab);
  c.check(p.layer === want.layer && p.head === want.head && p.query === want.query,
          'a held click on cell (query 5, key 1) of layer 2, head 3 selects that layer, head and query',
          `layer ${p.layer}, head ${p.head}, query ${p.query}`);
  // The text up to the query (its first 5 characters after <poem>) read on its own.
  const prefix = chars(TEXT).slice(0, want.query).join('');
  const r = await lab.compute({ poem: { text: prefix } });
  const diff = r.error ?? sameNext(p.next, r.next);
  c.check(!diff, `state().poem.next after position 5 is compute({poem: {text: '${prefix}'}}).next (the causal prefix)`, diff);
  c.check(p.next?.[0]?.char === r.next?.[0]?.char, `the likeliest next character after '${prefix}' is '${r.next?.[0]?.char}'`);
  // The head's details and the selected head's title follow: its sentence.
  await moveAway(lab);  // the cell's tooltip would cover cells
  await checkPixels(c, lab, 'after the click (the selected row highlighted)');
  await scrollView(lab, 100_000);
  await writeFile(join(artefactsDir, 'poem_foot_1280x800.png'), PNG.sync.write(await lab.screenshot()));
  const bottom = await lab.layout();
  c.check(bottom.controls?.poem_next && bottom.controls?.poem_offsets, 'the next-characters table and the offset profile are at the foot of the view',
          short(Object.keys(bottom.controls ?? {})));
  await scrollView(lab, -100_000);
  return want;
}

// ---- 4b. the outline: the cells a head's pattern counts -----------------------------
const MARKS = new Set(['，', '。', '？', '！', '；', '：', '、', ',', '.', '?', '!', ';', ':', '\n']);
// The cells detector d counts on tokens (core/poem/head_detectors.hpp), by its
// rule written out again here: [query, key] pairs, query >= 1.
function detectorCells(d, tokens) {
  const cells = [];
  const mark = (k) => MARKS.has(tokens[k]);
  // Lines: runs between marks from position 1; each position's column and the previous line's start and length.
  const line = [];
  let start = 1, prevStart = -1, prevLength = 0;
  for (let t = 1; t < tokens.length; ++t) {
    if (mark(t)) {
      if (t > start) prevStart = start, prevLength = t - start;
      start = t + 1;
      line[t] = null;
    } else {
      line[t] = { column: t - start, prevStart, prevLength };
    }
  }
  for (let t = 1; t < tokens.length; ++t) {
    const l = line[t];
    if (d === 0) cells.push([t, t - 1]);
    if (d === 1) cells.push([t, t]);
    if (d === 2) cells.push([t, 0]);
    if (d === 3) for (let k = 0; k <= t; ++k) if (mark(k)) cells.push([t, k]);
    if (d === 4 && l && l.prevStart >= 0 && l.column < l.prevLength) cells.push([t, l.prevStart + l.column]);
    if (d === 5 && !mark(t)) for (let k = 0; k < t; ++k) if (tokens[k] === tokens[t]) cells.push([t, k]);
    if (d === 7 && l && l.prevStart >= 0 && l.column + 1 < l.prevLength) cells.push([t, l.prevStart + l.column + 1]);
  }
  return cells;
}

// For each cell: how far (sum of |rgb| differences) the pixel one device
// pixel inside its left edge, half way down, is from its centre's colour.
async function edgeContrast(lab, png, hm, cells) {
  const o = await lab.canvasOffset();
  const w = hm.css_w / hm.cols, h = hm.css_h / hm.rows;
  const pixel = (x, y) => { const i = (Math.round(y) * png.width + Math.round(x)) * 4; return [png.data[i], png.data[i + 1], png.data[i + 2]]; };
  return cells.map(([q, k]) => {
    const x0 = o.left + hm.css_x + (k - hm.col0) * w, y = o.top + hm.css_y + (q - hm.row0 + 0.5) * h;
    const centre = pixel(x0 + w / 2, y);
    let most = 0;
    for (let dx = 0.5; dx <= 1.5; dx += 0.5) {
      const p = pixel(x0 + dx, y);
      most = Math.max(most, Math.abs(p[0] - centre[0]) + Math.abs(p[1] - centre[1]) + Math.abs(p[2] - centre[2]));
    }
    return most;
  });
}

async function outlines(c, lab, page, want) {
  await moveAway(lab);
  await lab.settled();
  let p = await poemState(lab);
  const d = p.outline_detector;
  const expected = detectorCells(d, p.tokens);
  const key = (cells) => JSON.stringify([...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  c.check(p.outline && d >= 0 && d !== 6 && key(p.outlined) === key(expected) && expected.length > 0,
          `the selected head (layer ${want.layer + 1}, head ${want.head + 1}) outlines the ${expected.length} cells its pattern (detector ${d}) counts, by the rule`,
          `outline ${p.outline}, detector ${d}: ${short(p.outlined)} vs ${short(expected)}`);
  const hm = await showHeatmap(lab, `poem_l${want.layer}h${want.head}`);
  const png = await lab.screenshot();
  const outlined = new Set(p.outlined.map(([q, k]) => `${q},${k}`));
  const near = (q, k) => [[0, 0], [0, -1], [0, 1], [-1, 0], [1, 0]].some(([a, b]) => outlined.has(`${q + a},${k + b}`));
  const inside = [], clear = [];
  for (let q = 1; q < hm.rows - 1; ++q)  // (the last row is the selected query's, outlined as a row)
    for (let k = 0; k <= q; ++k) {
      if (outlined.has(`${q},${k}`)) inside.push([q, k]);
      else if (!near(q, k)) clear.push([q, k]);
    }
  const a = await edgeContrast(lab, png, hm, inside), b = await edgeContrast(lab, png, hm, clear);
  const framed = a.filter((x) => x > 60).length, plain = b.filter((x) => x < 30).length;
  c.check(inside.length > 0 && framed >= 0.9 * inside.length && plain >= 0.9 * clear.length,
          `the pixels: ${framed} of ${inside.length} counted cells are framed at their edge, ${plain} of ${clear.length} others are not`,
          `framed ${short(a)}; others ${short(b)}`);
  await writeFile(join(artefactsDir, 'poem_outline_1280x800.png'), png.file ?? PNG.sync.write(png));

  // Hovering another head's title outlines that head's cells while the mouse is there.
  const other = `poem_l${want.layer}h${(want.head + 1) % HEADS}`;
  const otherHm = await showHeatmap(lab, other);
  const title = `poem_title_l${want.layer}h${(want.head + 1) % HEADS}`;
  const head = p.heads.find((h) => `poem_l${h.layer}h${h.head}` === other);
  const cells = detectorCells(head.outline, p.tokens).filter(([q]) => q < otherHm.rows - 1);
  await lab.page.mouse.move(...Object.values(await lab.controlCentre(title)));
  await lab.frames(3);
  const hovered = await edgeContrast(lab, await lab.screenshot(), otherHm, cells);
  await moveAway(lab);
  const left = await edgeContrast(lab, await lab.screenshot(), otherHm, cells);
  c.check(cells.length > 0 && hovered.filter((x) => x > 60).length >= 0.9 * cells.length &&
          left.filter((x) => x > 60).length <= 0.1 * cells.length,
          `hovering the title of ${other} frames the ${cells.length} cells its pattern (detector ${head.outline}) counts; moving away clears them`,
          `hovered ${short(hovered)}; after ${short(left)}`);

  // The induction probe (a real click): one run of random characters twice; the outline is induction's.
  await scrollView(lab, -100_000);
  await lab.click('poem_probe');
  await waitPoem(page, (q) => q.probe > 0 && q.period > 0, null, 10_000).catch(() => {});
  p = await poemState(lab);
  const n = p.tokens.length, half = (n - 1) / 2;
  const runs = chars(p.text);
  c.check(p.probe > 0 && p.period === 31 && n === 63 && same(runs.slice(0, half), runs.slice(half)) &&
          runs.every((ch) => !MARKS.has(ch)),
          `the induction probe: ${half} random characters twice (period ${p.period})`, `${p.probe} ${p.period} ${JSON.stringify(p.text)}`);
  const induction = [];
  for (let t = half + 1; t < n; ++t) induction.push([t, t - half + 1]);
  c.check(p.outline_detector === 6 && key(p.outlined) === key(induction),
          'on the probe the outline is induction\'s: each second-copy query, the key after its first copy',
          `${p.outline_detector}: ${short(p.outlined)}`);
  await checkPixels(c, lab, 'the induction probe');
  await writeFile(join(artefactsDir, 'poem_probe_1280x800.png'), PNG.sync.write(await lab.screenshot()));
  const url = new URL(page.url());
  c.check(url.searchParams.get('poem_probe') === String(p.probe), 'the address bar carries poem_probe', page.url());
  // Back to the couplet, for the URL check that follows.
  await selectAll(lab);
  await page.keyboard.insertText(TEXT);
  await expectText(c, lab, TEXT, 'the couplet typed again', { pixels: false });
  await lab.page.evaluate((w) => window.attentionLab.set({ poem_layer: w.layer, poem_head: w.head, poem_query: w.query }), want);
}

// ---- 5b. the head that looks at the start ------------------------------------------------
// The probe with the mouse: "without <poem>" from its list. The selected
// head's weight on <poem> is its mean over the queries after the first in
// compute({poem: {text}}) (computed here), the second reading is the text
// without <poem>, and the copy says why ("attention sink"); then back to <poem>.
async function sinkProbe(c, lab, page) {
  await lab.click('poem_start');
  await lab.click('poem_start_1');
  await waitPoem(page, (q) => q.start === 'none' && !!q.sink, null, 10_000).catch(() => {});
  const p = await poemState(lab);
  const reading = await lab.compute({ poem: { text: p.text } });
  const att = reading.layers?.[p.layer]?.heads?.[p.head] ?? [];
  let first = 0;
  for (let q = 1; q < att.length; ++q) first += att[q][0];
  first /= Math.max(att.length - 1, 1);
  c.check(p.start === 'none' && same(p.sink?.tokens, p.tokens.slice(1)) && Math.abs(p.sink.first_before - first) < 1e-5 &&
          p.sink.loss_before > 0 && p.sink.loss_after > 0,
          `"without <poem>" reads the text again without it; layer ${p.layer + 1} head ${p.head + 1} had ${(first * 100).toFixed(0)} % on <poem> (as compute() gives it)`,
          JSON.stringify({ start: p.start, sink: p.sink && { ...p.sink, tokens: undefined }, first }));
  const summary = await page.waitForFunction(() => (document.getElementById('a11y-summary')?.textContent ?? '').includes('attention sink'),
                                             null, { timeout: 10_000 }).then(() => true).catch(() => false);
  c.check(summary, 'the accessible copy explains the sink, with the numbers');
  await lab.click('poem_start');
  await lab.click('poem_start_0');
  await waitPoem(page, (q) => q.start === 'poem' && !q.sink, null, 10_000).catch(() => {});
  const off = await poemState(lab);
  c.check(off.start === 'poem' && !off.sink, 'back to "<poem> first": no second reading', JSON.stringify(off.start));
}

// ---- 6. the URL --------------------------------------------------------------------
async function urlRoundTrip(c, lab, page, url, want) {
  let params = null;
  try {
    await page.waitForFunction(([text, w]) => {
      const q = new URLSearchParams(location.search);
      return q.get('poem_text') === text && q.get('poem_layer') === String(w.layer) && q.get('poem_head') === String(w.head) &&
             q.get('poem_query') === String(w.query) && q.get('poem') === '-1';
    }, [TEXT, want], { timeout: 10_000 });
  } catch { /* reported below */ }
  params = Object.fromEntries(new URL(page.url()).searchParams);
  c.check(params.poem_text === TEXT && params.poem === '-1' && params.poem_layer === String(want.layer) &&
          params.poem_head === String(want.head) && params.poem_query === String(want.query) && params.view === 'poem',
          'the address bar carries view=poem, poem=-1, poem_text, poem_layer, poem_head and poem_query after the UI changes',
          page.url());
  const before = await poemState(lab);
  const fresh = await frontPage(page.context());
  const errors = watchErrors(fresh);
  try {
    const freshLab = await openPoem(fresh, url, new URL(page.url()).search);
    const p = await poemState(freshLab);
    const keys = ['load', 'poem', 'text', 'layer', 'head', 'query', 'tokens', 'unknown', 'next'];
    const diff = keys.filter((k) => !same(p[k], before[k]));
    c.check(diff.length === 0, 'a fresh page at that URL shows the same state().poem (text, layer, head, query, next)',
            diff.map((k) => `${k}: ${short(p[k], 80)} != ${short(before[k], 80)}`).join('; '));
    c.check(errors.length === 0, 'the fresh page: no console or page errors', errors.join('\n    '));
  } finally {
    await fresh.close();
  }
  await page.bringToFront();
}

// ---- 5. 续写 -------------------------------------------------------------------------
async function continueTwice(c, lab, page) {
  const prompt = '春眠不觉晓';
  // Length, temperature and seed through set() (the text box is not being edited now).
  const error = await page.evaluate(() => window.attentionLab.set({ poem_length: 20, poem_temperature: 0.8, poem_seed: 7 }));
  const fields = await page.evaluate(() => window.attentionLab.get());
  c.check(error === '' && fields.poem_length === 20 && fields.poem_temperature === 0.8 && fields.poem_seed === 7,
          '续写: poem_length 20, poem_temperature 0.8, poem_seed 7 set', `"${error}" ${short(fields)}`);
  // The prompt typed into the box, then the 续写 button (a real click, which also ends the edit).
  const runOnce = async () => {
    await selectAll(lab);
    await page.keyboard.insertText(prompt);
    await waitPoem(page, (p, t) => p.text === t && !p.sampling && JSON.stringify(p.tokens) === JSON.stringify(['<poem>', ...Array.from(t)]),
                   prompt);
    await clickHeld(lab, await lab.controlCentre('poem_continue'), 60);
    try {
      // Started (the text grew or an error), then done.
      await waitPoem(page, (p, t) => p.text !== t || p.sample_error !== '', prompt, 10_000);
      await waitPoem(page, (p) => !p.sampling, null, 30_000);
    } catch (e) {
      return { error: e.message };
    }
    await lab.frames(3);
    return poemState(lab);
  };
  const first = await runOnce();
  const second = await runOnce();
  const added = (p) => (p.text?.startsWith(prompt) ? chars(p.text).length - chars(prompt).length : -1);
  c.check(!first.error && !first.sample_error && added(first) >= 1 && added(first) <= 20 && first.poem === -1,
          `续写 (a real click) continues '${prompt}' by 1..20 characters (poem_length 20): ${JSON.stringify(first.text)}`,
          first.error ?? `sample_error "${first.sample_error}", text ${JSON.stringify(first.text)}`);
  c.check(!second.error && second.text === first.text,
          'the same prompt, length, temperature and seed continue the same way a second time',
          `${JSON.stringify(first.text)} then ${JSON.stringify(second.error ?? second.text)}`);
  const r = await lab.compute({ poem: { text: first.text } });
  c.check(!r.error && same(r.tokens, first.tokens), 'the continued text is read as the view shows it (compute())',
          r.error ?? `${short(r.tokens)} != ${short(first.tokens)}`);
  const get = await page.evaluate(() => window.attentionLab.get());
  c.check(get.poem === -1 && get.poem_text === first.text, 'get() holds the continued text as poem_text',
          `${get.poem} ${JSON.stringify(get.poem_text)}`);
}

// ---- 7. the accessible copy ---------------------------------------------------------
const CELL_ROLES = ['cell', 'gridcell', 'columnheader', 'rowheader'];
async function readMirror(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const role = (n) => n.role?.value ?? '';
  const name = (n) => n.name?.value ?? '';
  const find = (pred, from) => {
    const out = [];
    const walk = (n) => {
      if (pred(n)) out.push(n);
      for (const id of n.childIds ?? []) if (byId.has(id)) walk(byId.get(id));
    };
    walk(from ?? nodes[0]);
    return out;
  };
  const region = find((n) => role(n) === 'region')[0];
  if (!region) return null;
  const paragraph = find((n) => role(n) === 'paragraph', region)[0];
  const summary = paragraph ? find((k) => role(k) === 'StaticText', paragraph).map(name).join('') : '';
  const tables = find((n) => role(n) === 'table', region).map((t) => ({
    caption: name(t),
    rows: find((n) => role(n) === 'row', t).map((r) => find((n) => CELL_ROLES.includes(role(n)), r).map(name)),
  }));
  return { summary, tables };
}

// The view's words for a next character (src/ui/poem/view.cpp poem_char_text).
const CHAR_WORDS = { zh: { '<poem>': '<poem>（开头）', '\n': '换行', ' ': '空格' },
                     en: { '<poem>': '<poem> (the start)', '\n': 'line break', ' ': 'space' } };
// A printed number within half a unit of its last digit of `value` ("0.0585", "99.4", "1e-05").
function printedAs(text, value) {
  const m = /^(-?\d+)(?:\.(\d+))?(?:e([-+]?\d+))?$/.exec(text.trim());
  if (!m) return false;
  const unit = 10 ** (-(m[2]?.length ?? 0) + Number(m[3] ?? 0));
  return Math.abs(Number(text) - value) <= 0.5 * unit * (1 + 1e-6) + 1e-12;
}

async function mirror(c, lab, page, lang) {
  await copySettled(lab, page);
  const p = await poemState(lab);
  const m = await readMirror(page);
  c.check(p.poem < 0 || m?.summary.startsWith(p.title), `the accessible copy's summary (${lang}) starts with the poem's title and author (${p.title})`,
          m?.summary.slice(0, 80));
  const missing = p.heads.filter((h) => !m?.summary.includes(h.sentence)).map((h) => h.sentence);
  c.check(m && missing.length === 0, `the accessible copy's summary (${lang}) has every head's sentence from state().poem.heads`,
          `missing ${short(missing)} in "${m?.summary}"`);
  const next = m?.tables.find((t) => t.rows.length === 11 && t.rows[0].length === 3);
  if (!c.check(next, 'the accessible copy has the top-10 next-characters table (10 rows, character and probability)',
               short(m?.tables.map((t) => [t.caption, t.rows.length, t.rows[0]])))) return;
  const bad = [];
  p.next.forEach((n, i) => {
    const [rank, ch, pct] = next.rows[i + 1];
    const words = CHAR_WORDS[lang][n.char] ?? n.char;
    if (rank !== String(i + 1) || ch !== words || !/ %$/.test(pct) || !printedAs(pct.replace(/ %$/, ''), n.p * 100))
      bad.push(`row ${i + 1}: ${JSON.stringify(next.rows[i + 1])}, want ${JSON.stringify([String(i + 1), words, `${n.p * 100} %`])}`);
  });
  c.check(bad.length === 0, `the top-10 table's characters and percentages (${lang}) are state().poem.next`, bad.join('\n    '));
  const position = lang === 'zh' ? `在第 ${p.query} 个位置` : `After position ${p.query} `;
  c.check(next.caption.includes(position), `the top-10 table's caption names the selected position ${p.query}`, next.caption);
  const heatmap = m.tables.find((t) => t !== next);
  c.check(heatmap && heatmap.rows.length === p.tokens.length + 1, "the selected head's heatmap is a table with a row per token",
          short(m.tables.map((t) => [t.caption, t.rows.length])));
}

// A second page of the browser, in front: the page behind it is a reader's
// other tab, which the browser may stop drawing (rAF, and so the lab's
// frames, wait for a visible page).
async function frontPage(context) {
  const page = await context.newPage();
  await page.bringToFront();
  return page;
}

// ---- 8. failures ----------------------------------------------------------------------
// Console and page errors of a page runBrowserTest does not watch, but for
// the network errors a test provokes (`expected`).
function watchErrors(page, expected = null) {
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !(expected && expected.test(msg.text()))) errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  return errors;
}

async function failures(c, page, url) {
  const context = page.context();
  const real = await readFile(join(webDir, 'poem_model.bin'));
  // A missing file, then Try again with it back.
  {
    const p404 = await frontPage(context);
    const errors = watchErrors(p404, /404|Failed to load resource/);
    try {
      // The file comes back by a flag, not by unroute(): unroute waits for
      // every invocation of the handler still open, with no timeout.
      let missing = true;
      await p404.route('**/poem_model.bin', (r) => (missing ? r.fulfill({ status: 404, body: 'not here' }) : r.continue()));
      const lab = await openPoem(p404, url, '?view=poem&lang=en');
      const p = await poemState(lab);
      c.check(p.load === 'failed' && /poem_model\.bin/.test(p.error) && /404/.test(p.error),
              'poem_model.bin answering 404: the load fails, the error names poem_model.bin and the 404',
              `load ${p.load}, error "${p.error}"`);
      const m = await mirrorSummary(lab, p404);
      c.check(m.includes(p.error), 'the view says why (the accessible copy of the view has the error)', m);
      const layout = await lab.layout();
      c.check(layout.controls?.poem_retry && layout.heatmaps.length === 0, 'the view shows Try again and no heatmaps',
              short(Object.keys(layout.controls ?? {})));
      const png = await lab.screenshot();
      await writeFile(join(artefactsDir, 'poem_failed_404.png'), PNG.sync.write(png));
      missing = false;
      await lab.click('poem_retry');
      await waitLoad(p404);
      await waitPoem(p404, (s) => s.load !== 'requested' && s.load !== 'loading', null, POEM_TIMEOUT_MS);
      const again = await poemState(lab);
      c.check(again.load === 'ready' && again.error === '' && again.tokens?.length > 1,
              'Try again (a real click) with the file back loads the model and reads the poem',
              `load ${again.load}, error "${again.error}"`);
      const wasmFetches = await p404.evaluate(() => performance.getEntriesByType('resource')
        .filter((e) => e.name.endsWith('/attention_poem.wasm')).length);
      c.check(wasmFetches === 1, 'the second load (after the 404) uses the poem module the first one made: attention_poem.wasm fetched once',
              `${wasmFetches} fetches`);
      c.check(errors.length === 0, 'the 404 page: no console or page errors but the 404 itself', errors.join('\n    '));
    } finally {
      await p404.close();
    }
  }
  // A truncated file: the first 1000 bytes.
  {
    const cut = await frontPage(context);
    const errors = watchErrors(cut);
    try {
      await cut.route('**/poem_model.bin', (r) => r.fulfill({ status: 200, contentType: 'application/octet-stream',
                                                             body: real.subarray(0, 1000) }));
      const lab = await openPoem(cut, url, '?view=poem&lang=zh');
      const p = await poemState(lab);
      c.check(p.load === 'failed' && /poem_model\.bin/.test(p.error) && /truncated/.test(p.error),
              'a truncated poem_model.bin (its first 1000 bytes): the load fails and says the file is truncated',
              `load ${p.load}, error "${p.error}"`);
      const m = await mirrorSummary(lab, cut);
      c.check(m.includes(p.error), 'the view says why (the accessible copy has the error)', m);
      const layout = await lab.layout();
      c.check(!!layout.controls?.poem_retry, 'Try again is on the view after the failure', short(Object.keys(layout.controls ?? {})));
      const png = await lab.screenshot();
      await writeFile(join(artefactsDir, 'poem_failed_truncated.png'), PNG.sync.write(png));
      // The rest of the lab works.
      const error = await cut.evaluate(() => window.attentionLab.set({ view: 'heatmaps' }));
      await lab.frames(4);
      const s = await lab.state();
      c.check(error === '' && s.view === 'heatmaps' && s.tokens.length > 0 && s.error === '',
              'after the failure, set({view: "heatmaps"}) shows the explorer with its tokens',
              `set "${error}", view ${s.view}, ${s.tokens.length} tokens, error "${s.error}"`);
      await checkPixels(c, lab, 'the heatmaps view after the poem model failed');
      c.check(errors.length === 0, 'the truncated-file page: no console or page errors', errors.join('\n    '));
    } finally {
      await cut.close();
    }
  }
  // No trainer's worker (poem_worker.js answers 404, as a host that did not
  // copy it): Step still trains, on the page's thread, time-sliced.
  {
    const alone = await frontPage(context);
    const errors = watchErrors(alone, /404|Failed to load resource/);
    try {
      await alone.route('**/poem_worker.js', (r) => r.fulfill({ status: 404, body: 'not here' }));
      // Every call into this page under one ceiling (and its renderer's crash):
      // a page that stops answering fails here with its state, not at ctest's timeout.
      const { p, trainer } = await untilDrawn(alone, 'the page without its poem worker', (async () => {
        const lab = await openPoem(alone, url, '?view=poem&lang=en');
        await lab.click('poem_train_step');
        await waitPoem(alone, (q) => q.training?.steps >= 1 && !q.running, null, 60_000).catch(() => {});
        return { p: await poemState(lab),
                 trainer: await alone.evaluate(() => window.attentionLabPoem.status().trainer) };
      })());
      c.check(p.training?.steps === 1 && !p.running && trainer === 'page',
              'without its worker (poem_worker.js: 404) Step trains one step on the page\'s thread',
              `steps ${p.training?.steps}, running ${p.running}, trainer ${trainer}, corpus ${p.corpus}`);
      c.check(errors.length === 0, 'the page without the worker: no console or page errors but the 404', errors.join('\n    '));
    } finally {
      await alone.close();
    }
  }
  await page.bringToFront();
}

// Until the lab has drawn what it was asked for and its accessible copy shows it (web/a11y.js settled()).
async function copySettled(lab, page) {
  await page.waitForFunction(() => document.getElementById('a11y')?.dataset.version, null, { timeout: 30_000 });
  await lab.settled();
  await page.evaluate(() => window.attentionLabA11y.settled());
}

// The copy's summary once it shows what the lab holds.
async function mirrorSummary(lab, page) {
  await copySettled(lab, page);
  return (await readMirror(page))?.summary ?? '';
}

// ---- 9. screenshots -------------------------------------------------------------------
async function screenshots(c, lab, page) {
  await page.evaluate(() => window.attentionLab.set({ poem: 0, poem_layer: 0, poem_head: 1, poem_query: -1 }));
  for (const size of [{ width: 390, height: 844 }, VIEWPORT]) {
    await page.setViewportSize(size);
    for (const lang of ['zh', 'en']) {
      for (const theme of ['light', 'dark']) {
        // view: 'poem' too: a language change alone leaves the tab bar on its first tab (reported).
        const error = await page.evaluate((s) => window.attentionLab.set(s), { lang, theme, view: 'poem' });
        // The layout settles (a resize, a new language's widths): two reads agree.
        let text = '';
        for (let i = 0; i < 10; ++i) {
          await lab.frames(3);
          const now = JSON.stringify(await lab.layout());
          if (now === text) break;
          text = now;
        }
        const what = `${lang} ${theme} ${size.width}x${size.height}`;
        const { png, layout } = await checkPixels(c, lab, what);
        await writeFile(join(artefactsDir, `poem_${lang}_${theme}_${size.width}x${size.height}.png`), PNG.sync.write(png));
        const colours = countDistinctColours(png);
        const s = await lab.state();
        c.check(error === '' && s.lang === lang && s.view === 'poem' && colours >= 64 && layout.heatmaps.length > 0,
                `${what}: the view is drawn (${colours} colours, ${layout.heatmaps.length} heatmaps on screen)`,
                `set "${error}", lang ${s.lang}, view ${s.view}`);
      }
    }
  }
}

// Watch it learn: the Step button (a real click) fetches the rest of the
// corpus into the trainer's worker, which scores the untrained model on the
// held-out poems and takes one step; then it pauses by itself. Start trains
// on to step 50, where the held-out poems are scored again: lower (the same
// as tests/ui/test_poem_lab.cpp's 50 steps, here in wasm off the page's
// thread). The steps a second and the frames meanwhile are printed, not checked.
async function training(c, lab, page) {
  await lab.click('poem_train_step');
  await waitPoem(page, (p) => p.training?.steps >= 1 && !p.running, null, 60_000).catch(() => {});
  let p = (await lab.state()).poem;
  c.check(p.corpus === 'ready' && p.training?.steps === 1 && !p.running,
          'Step: the corpus arrives, one training step is taken, then it pauses', JSON.stringify(p.training ?? p.corpus));
  const trainer = await page.evaluate(() => window.attentionLabPoem.status().trainer);
  c.check(trainer === 'workers' && p.training?.replicas === 2,
          'with four cores the model is trained by two Web Workers (poem_worker.js), half a batch each, not on the page\'s thread',
          `${trainer}, replicas ${p.training?.replicas}`);
  const loss = p.training?.eval_loss?.[0];
  c.check(p.training?.eval_steps?.[0] === 0 && Math.abs(loss - Math.log(p.training?.vocab)) < 0.3,
          `the untrained model is scored on the held-out poems first: about ln(vocabulary ${p.training?.vocab}) nats a character`,
          `${loss}`);
  await waitPoem(page, (q) => q.trained && q.tokens?.length > 1, null, 10_000).catch(() => {});
  p = (await lab.state()).poem;
  const { layout } = await checkPixels(c, lab, 'the model being trained (compute() asks its worker)');
  // The page trains a model of the built one's shape (on its slice of the training poems).
  c.check(p.trained && p.heads?.length === LAYERS * HEADS && layout.config?.poem?.model === 'training',
          'the heatmaps and head patterns show the model being trained', JSON.stringify(layout.config));

  await page.evaluate(() => window.attentionLabFrames.stats({ reset: true }));
  const started = Date.now();
  await lab.click('poem_train_start');
  await waitPoem(page, (q) => q.training?.eval_steps?.length >= 2, null, 120_000).catch(() => {});
  const seconds = (Date.now() - started) / 1000;
  const frames = await page.evaluate(() => window.attentionLabFrames.stats({}));
  await lab.click('poem_train_pause');
  // The step on its way when Pause was pressed still lands (the worker took it).
  await waitPoem(page, (q) => !q.running && q.posted === 0, null, 10_000).catch(() => {});
  p = (await lab.state()).poem;
  const t = p.training ?? {};
  c.check(t.eval_steps?.[1] === 50 && t.eval_loss?.[1] < t.eval_loss?.[0] - 1,
          `Start to step 50: the held-out loss falls by more than 1 nat (${t.eval_loss?.map((x) => x.toFixed(2)).join(' -> ')})`,
          JSON.stringify(t.eval_loss));
  const steps = await (async () => { await lab.frames(10); return (await lab.state()).poem.training?.steps; })();
  c.check(!p.running && steps === t.steps, 'Pause (a real click) holds it there', `${t.steps} then ${steps}`);
  // Both workers hold the same weights, bit for bit (each took every step with both halves).
  const sums = await page.evaluate(() => window.attentionLabPoem.checksums());
  c.check(sums.length === 2 && sums[0].steps === t.steps && sums[1].steps === t.steps && sums[0].hash === sums[1].hash,
          `the two workers' weights are the same bits at step ${t.steps}`, short(sums));
  console.log(`  training in the worker: ${((t.steps - 1) / seconds).toFixed(2)} steps/s to step ${t.steps} ` +
              `(with the held-out scoring); page frames meanwhile: ${JSON.stringify(frames)}`);
}

async function run(c, page, url) {
  // Each part's wall time, printed at the end (the suite runs on 2 cores).
  const times = [];
  let mark = Date.now();
  const timed = async (name, part) => {
    const result = await part();
    times.push(`${name} ${((Date.now() - mark) / 1000).toFixed(1)} s`);
    mark = Date.now();
    return result;
  };
  const lab = await timed('open', () => firstOpen(c, page, url));
  if (!lab) return;
  await timed('typing', () => typing(c, lab, page, url));
  const want = await timed('cell click', () => clickCell(c, lab, page));
  if (want) await timed('outline', () => outlines(c, lab, page, want));
  await timed('sink', () => sinkProbe(c, lab, page));
  if (want) {
    await timed('url', () => urlRoundTrip(c, lab, page, url, want));
    await timed('copy', () => mirror(c, lab, page, 'zh'));
  }
  await timed('continue', () => continueTwice(c, lab, page));
  await timed('training', () => training(c, lab, page));
  await timed('screenshots', () => screenshots(c, lab, page));
  // The copy in English too (the screenshots left it in English, on poem 0).
  await timed('copy en', () => mirror(c, lab, page, 'en'));
  await timed('failures', () => failures(c, page, url));
  console.log(`  times: ${times.join(', ')}`);
}

process.exitCode = await runBrowserTest({ name: 'poem_e2e', logName: 'poem', webDir, artefactsDir, viewport: VIEWPORT, run });
console.log(`poem_e2e: ${((Date.now() - started) / 1000).toFixed(1)} s`);
