// The notebook test's browser half (its first half: tests/python/notebook_export.sh):
// the example notebook, executed by Jupyter and exported to HTML, opened in
// each engine (engines_e2e.mjs's "notebook" section, --notebook DIR).
//
//  - every figure starts (no server: its files came in the output) and is ready;
//  - each figure of given weights holds the matrices the notebook gave it
//    (expected.json, written by the notebook from its own arrays: numpy's,
//    and Figure 4.1's as the lab's CLI computed them), and the figures of bad
//    input show the lab's own message, under the figure too;
//  - Figure 4.1's heatmap cells have the colour of their weight (a screenshot
//    of the notebook page);
//  - arrow keys on a figure's heatmap and keys typed into its sentence box
//    change the figure and never reach the notebook (no key event in the
//    page, no scroll, its cells as they were).
// It is opened as a reader opens an exported notebook: from the disk (file://).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PNG } from 'pngjs';

import { sleep } from './engines/processes.mjs';
import { Lab, READY_TIMEOUT_MS, press } from './lab.mjs';
import { checkHeatmaps } from './pixels.mjs';

const FIGURES = '.attention-lab-figure';
// Debian's nbconvert template links its own copies of RequireJS and MathJax
// by file:// path, from packages it only recommends (libjs-requirejs,
// libjs-mathjax): missing here, and not the lab's.
export const NOTEBOOK_TEMPLATE_NOISE = /file:\/\/\/usr\/share\/javascript\//;

// A lab inside a figure's iframe: Lab's input and reading, through that window.
class FigureLab extends Lab {
  constructor(page, index) {
    super(page);
    this.index = index;
  }
  inFigure(fn, arg) {
    return this.page.evaluate(([source, i, a]) => {
      const frame = document.querySelectorAll('.attention-lab-figure')[i].querySelector('iframe');
      // eslint-disable-next-line no-new-func
      return new Function('win', 'frame', 'arg', source)(frame.contentWindow, frame, a);
    }, [fn, this.index, arg]);
  }
  state() { return this.inFigure('return JSON.stringify(win.attentionLab.state())').then(JSON.parse); }
  layout() { return this.inFigure('return JSON.stringify(win.attentionLab.layout())').then(JSON.parse); }
  config() { return this.inFigure('return JSON.stringify(win.attentionLab.currentConfig())').then(JSON.parse); }
  fields() { return this.inFigure('return JSON.stringify(win.attentionLab.get())').then(JSON.parse); }
  frames(n = 3) {
    return this.inFigure('return new Promise((ok) => { const step = (k) => (k ? win.requestAnimationFrame(() => step(k - 1)) : ok()); step(arg); })', n);
  }
  settled() { return this.inFigure('return win.attentionLabFrames.settled()'); }
  // The canvas in the notebook page's viewport: the iframe's content box, then the canvas in it.
  canvasOffset() {
    return this.inFigure(`const r = frame.getBoundingClientRect();
      const c = win.document.querySelector('canvas').getBoundingClientRect();
      return { left: r.left + frame.clientLeft + c.left, top: r.top + frame.clientTop + c.top };`);
  }
}

const figures = (page) => page.evaluate((s) => Array.from(document.querySelectorAll(s), (e) => ({
  ready: e.dataset.ready, text: e.innerText,
})), FIGURES);

// The notebook's own text (its cells, without the figures), to see that keys left it alone.
const notebookText = (page) => page.evaluate((s) => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll(s).forEach((e) => e.remove());
  return body.textContent;
}, FIGURES);

// The wheel over the page's left margin until figure i is inside the viewport.
async function scrollToFigure(page, i, viewportHeight) {
  await page.mouse.move(8, 300);
  for (let step = 0; step < 40; step++) {
    const r = await page.evaluate(([s, k]) => JSON.parse(JSON.stringify(document.querySelectorAll(s)[k].getBoundingClientRect())), [FIGURES, i]);
    if (r.top >= 0 && r.bottom <= viewportHeight) return r;
    await page.mouse.wheel(0, Math.round(Math.sign(r.top) * Math.min(600, Math.abs(r.top - 40))) || 100);
    await sleep(200);
  }
  throw new Error(`figure ${i} did not come into view`);
}

function sameWeights(got, want, tolerance = 1e-6) {
  const g = JSON.stringify(got?.map((row) => row.map((m) => m.length + 'x' + m[0]?.length)));
  const w = JSON.stringify(want.map((row) => row.map((m) => m.length + 'x' + m[0].length)));
  if (g !== w) return `shape ${g} != ${w}`;
  for (let r = 0; r < want.length; r++)
    for (let c = 0; c < want[r].length; c++)
      for (let q = 0; q < want[r][c].length; q++)
        for (let k = 0; k < want[r][c][q].length; k++) {
          const a = got[r][c][q][k], b = want[r][c][q][k];
          // float32 in the lab: relative 1e-6 of the weight (weights are <= 1)
          if (!(Math.abs(a - b) <= tolerance)) return `[${r}][${c}][${q}][${k}]: ${a} != ${b}`;
        }
  return '';
}

export async function checkNotebook(c, page, { notebookDir, viewport, save }) {
  const expected = JSON.parse(readFileSync(join(notebookDir, 'expected.json'), 'utf8'));
  // Opened from the disk, as a reader double-clicks an exported notebook (a file:// page,
  // whose origin is opaque: the figures are srcdoc pages of it).
  const errorsBefore = page.log.errors.length;
  await page.goto(`file://${join(notebookDir, 'notebook.html')}`);
  await page.waitForFunction((s) => {
    const all = document.querySelectorAll(s);
    return all.length > 0 && Array.from(all).every((e) => e.dataset.ready);
  }, FIGURES, { timeout: READY_TIMEOUT_MS });
  const shown = await figures(page);
  c.check(shown.length === expected.length && shown.every((f) => f.ready === '1'),
          `the exported notebook, opened from the disk: its ${expected.length} figures start from the files in it`,
          JSON.stringify(shown.map((f) => [f.ready, f.text.slice(0, 120)])));

  for (const [i, want] of expected.entries()) {
    if (i >= shown.length) break;
    const lab = new FigureLab(page, i);
    const fields = await lab.fields();
    if (want.given) {
      const wrong = sameWeights(fields.given?.weights, want.given);
      const tokens = JSON.stringify(fields.given?.tokens) === JSON.stringify(want.tokens);
      c.check(fields.view === 'given' && !wrong && tokens, `figure ${i + 1}: the weights and tokens the notebook gave it`,
              `${wrong} tokens ${JSON.stringify(fields.given?.tokens)}`);
    } else if (want.notice) {
      const notices = (await lab.state()).notices;
      c.check(notices.some((n) => n.includes(want.notice)) && shown[i].text.includes(want.notice),
              `figure ${i + 1}: the lab's message "${want.notice}", in the figure and under it`,
              JSON.stringify({ notices, under: shown[i].text }));
    } else {
      const got = Object.fromEntries(Object.keys(want.fields).map((k) => [k, fields[k]]));
      c.check(JSON.stringify(got) === JSON.stringify(want.fields), `figure ${i + 1}: the state show() gave it`,
              JSON.stringify(got));
    }
  }

  // Figure 4.1 (the weights of the lab's CLI) as drawn on the notebook page.
  const fig41 = expected.findIndex((f) => f.given && f.tokens?.[0] === 't0');
  await scrollToFigure(page, fig41, viewport.height);
  const lab41 = new FigureLab(page, fig41);
  await lab41.settled();
  const layout = await lab41.layout();
  const origin = await lab41.canvasOffset();
  const png = await page.screenshot();
  await save('notebook_fig41', png);
  const { checked, failures } = checkHeatmaps(PNG.sync.read(png), layout, { given: { weights: expected[fig41].given } },
    (h) => ({ x: origin.left + h.css_x, y: origin.top + h.css_y, w: h.css_w, h: h.css_h }));
  c.check(checked >= 4 * 64 && failures.length === 0,
          `Figure 4.1 in the notebook: ${checked} cell centres have the colour of their weight`, failures.slice(0, 6).join('\n    '));

  // Keys stay in the figure. The page counts every key event that reaches it.
  await page.evaluate(() => {
    window.notebookKeys = [];
    for (const type of ['keydown', 'keypress', 'keyup', 'input'])
      document.addEventListener(type, (e) => window.notebookKeys.push(`${type} ${e.key ?? ''}`), true);
  });
  const before = await notebookText(page);
  // Typing into the sentence box of show()'s figure (the last: a cat sat).
  const typed = expected.length - 1;
  await scrollToFigure(page, typed, viewport.height);
  const lab = new FigureLab(page, typed);
  await lab.settled();
  if (!(await lab.layout()).controls?.sentence) await lab.click('setup_toggle');
  // Arrow keys on its first heatmap: the figure's cell cursor moves, the notebook does not
  // scroll. Measured from after the click (what it selects may change the figure's height,
  // and the page's with it); the figure is the page's last, so ArrowUp is the one that
  // would show a scroll reaching the page.
  const map = (await lab.layout()).heatmaps[0];
  const at = await lab.canvasOffset();
  await lab.clickAt({ x: at.left + map.css_x + map.css_w / (2 * map.cols), y: at.top + map.css_y + map.css_h / (2 * map.rows) });
  const y0 = await page.evaluate(() => window.scrollY);
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowUp']) await press(lab, key);
  const cursor = await lab.state();
  const y1 = await page.evaluate(() => window.scrollY);
  c.check(cursor.selected_query === 1 && cursor.cursor.key === 1 && y1 === y0,
          'arrow keys on a heatmap in the notebook move the figure\'s cell cursor, and do not scroll the notebook',
          JSON.stringify({ query: cursor.selected_query, cursor: cursor.cursor, scroll: [y0, y1] }));
  await lab.click('sentence');
  await press(lab, 'a', 'Control');
  await page.keyboard.type('we saw', { delay: 15 });
  const end = Date.now() + 15_000;
  let text = '';
  while (Date.now() < end && (text = (await lab.config()).text) !== 'we saw') await sleep(50);
  const keys = await page.evaluate(() => window.notebookKeys);
  const after = await notebookText(page);
  c.check(text === 'we saw' && keys.length === 0 && after === before,
          'keys typed into a figure change its sentence and never reach the notebook (no key event, its cells unchanged)',
          JSON.stringify({ text, notebookKeys: keys.slice(0, 8), cellsUnchanged: after === before }));
  await save('notebook_typed', await page.screenshot());

  // The template's RequireJS and MathJax (NOTEBOOK_TEMPLATE_NOISE) are missing files,
  // which Chromium reports without their names; the lab's own files are blob: URLs.
  await page.flushLog();
  const added = page.log.errors.splice(errorsBefore);
  page.log.errors.push(...added.filter((e) => !e.includes('net::ERR_FILE_NOT_FOUND')));
}
