// Browser end-to-end test of the attention explorer, driven by REAL input
// events (page.mouse / page.keyboard, never the JS API) on the WebGL canvas.
//
//   node tests/web/explorer_e2e.mjs <web build dir> <artefacts dir>
//
// The JS hooks are only read: window.attentionLab.layout() says where widgets
// (layout.controls.<name>, CSS rects) and heatmaps are; state() what the UI
// holds; compute(currentConfig()) is the independent oracle for the pixels.
// Checks:
//  1. type a new sentence (click the box, ctrl+a, type): token count and
//     heatmap rows follow, and every heatmap cell still has the colour of its
//     value in compute(currentConfig());
//  1b. Shuffle and Original order with the mouse: the tokens' order, and the
//     weights without positions the original's moved (checked against compute());
//  1c. the filters view: typing a sentence of the same length keeps the fixed
//     filter's pixels and changes attention's;
//  2. hover + click a cell: state().selected_query is that cell's row;
//  2b. wheel zooms, drag pans (all head heatmaps together), pixels still match;
//  3. mask combo -> causal with the mouse: every upper-triangle cell centre
//     of every weight heatmap has the colour of weight 0 (normalised by the
//     heatmap's lo/hi) and compute() says 0;
//  3b. mask combo -> custom: clicking a cell blocks that pair in config.mask;
//  4. heads: ctrl+click the heads slider, type 8, Enter: layout() lists 8 head
//     heatmaps (plus the average) and state().heads == 8;
//  5. the statistics table (as displayed) matches compute().stats within the
//     display rounding (4 decimals);
//  6. every view (tab clicked with the mouse) at 1280x800 and 800x600: a
//     screenshot in the artefacts dir, and its heatmap pixels checked.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { colormapColor, countDistinctColours, normalise, pixelAt } from './pixels.mjs';
import { checkPixels, Lab, READY_TIMEOUT_MS, runBrowserTest, pngFile } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node explorer_e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}
const SIZES = [{ width: 1280, height: 800 }, { width: 800, height: 600 }];
const NEW_SENTENCE = 'When reading sat you look at cat and mat';
const SAME_LENGTH_SENTENCE = 'Nine words here say the same length as before';

async function typeSentence(c, lab, page) {
  const before = await lab.state();
  await lab.click('sentence');
  await lab.chord('Control', 'a');
  await page.keyboard.type(NEW_SENTENCE, { delay: 15 });
  await lab.frames(4);
  const after = await lab.state();
  const config = await lab.config();
  c.check(config.text === NEW_SENTENCE, 'typing into the sentence box changes config.text', JSON.stringify(config));
  c.check(after.tokens.length !== before.tokens.length && after.tokens.length === 9,
          `the token count follows the typed sentence (${before.tokens.length} -> ${after.tokens.length})`,
          JSON.stringify(after.tokens));
  const { layout } = await checkPixels(c, lab, 'after typing');
  const heads = layout.heatmaps.filter((h) => h.source === 'weights' || h.source === 'average');
  c.check(heads.length > 0 && heads.every((h) => h.rows === after.tokens.length && h.cols === after.tokens.length),
          'every heatmap has one row and one column per token', JSON.stringify(heads.map((h) => [h.rows, h.cols])));
}

// Order: a click on "Shuffle the tokens" permutes the tokens; without
// positions every weight is the original's moved with its token (both orders
// from compute(), un-permuted here), and the lab says so with the same
// number; with positions it is not; "Original order" brings the sentence back.
async function shuffleTokens(c, lab) {
  const before = await lab.state();
  const original = await lab.compute(await lab.config());
  await lab.click('shuffle');
  const s = await lab.state();
  const config = await lab.config();
  const order = s.order?.order ?? [];
  c.check(config.shuffle === 1 && order.length === before.tokens.length &&
          s.tokens.every((t, i) => t === before.tokens[order[i]]) && order.some((o, i) => o !== i),
          'a click on "Shuffle the tokens" permutes the tokens (state().order says how)', JSON.stringify(s.order));
  const shuffled = await lab.compute(config);
  const moved = (a, b) => {
    let worst = 0;
    a.weights.forEach((w, h) => w.forEach((row, i) => row.forEach((v, j) => {
      worst = Math.max(worst, Math.abs(v - b.weights[h][order[i]][order[j]]));
    })));
    return worst;
  };
  const worst = moved(shuffled, original);
  c.check(worst <= 1e-6 && Math.abs(worst - s.order.weights_without) <= 1e-9,
          `without positions the weights are the original's, moved with their tokens (${worst.toExponential(1)} after un-permuting, as the lab says)`,
          JSON.stringify(s.order));
  const withPositions = moved(await lab.compute({ ...config, positions: true }),
                              await lab.compute({ ...config, positions: true, shuffle: 0 }));
  c.check(withPositions > 1e-2 && Math.abs(withPositions - s.order.weights_with) <= 1e-6,
          `with positions they are not (${withPositions.toFixed(3)}, as the lab says)`, JSON.stringify(s.order));
  await lab.click('shuffle_restore');
  const back = await lab.state();
  c.check(back.config.shuffle === 0 && back.order === null && back.tokens.join(' ') === before.tokens.join(' '),
          '"Original order" brings the sentence back', JSON.stringify(back.tokens));
}

// The filters view: a sentence of the same length typed with the keyboard
// leaves the fixed filter's pixels as they were and changes attention's; every
// cell of both is checked against its definition and compute().
async function fixedAgainstDynamic(c, lab, page) {
  await lab.click('tab_filter');
  await page.mouse.move(5, page.viewportSize().height - 5);  // no tooltip over the cells
  const colours = async () => {
    const layout = await lab.layout();
    const png = await lab.screenshot();
    const o = await lab.canvasOffset();
    const sample = (name) => {
      const hm = layout.heatmaps.find((h) => h.name === name);
      if (!hm) return null;
      const out = [];
      for (let r = 0; r < hm.rows; r++)
        for (let k = 0; k < hm.cols; k++)
          out.push(pixelAt(png, Math.floor(o.left + hm.css_x + (k + 0.5) * hm.css_w / hm.cols),
                           Math.floor(o.top + hm.css_y + (r + 0.5) * hm.css_h / hm.rows)).join(','));
      return out.join(' ');
    };
    return { fixed: sample('filter_fixed'), dynamic: sample('filter_attention') };
  };
  await checkPixels(c, lab, 'the filters view');
  const before = await colours();
  const tokens = (await lab.state()).tokens.length;
  await lab.click('sentence');
  await lab.chord('Control', 'a');
  await page.keyboard.type(SAME_LENGTH_SENTENCE, { delay: 15 });
  await lab.settled();
  const s = await lab.state();
  const after = await colours();
  c.check(s.view === 'filter' && s.tokens.length === tokens && before.fixed !== null && after.fixed === before.fixed &&
          after.dynamic !== before.dynamic,
          `a sentence of the same length (${tokens} tokens): the fixed filter stays, attention's weights change`,
          JSON.stringify({ view: s.view, tokens: s.tokens.length, fixed: after.fixed === before.fixed }));
  await checkPixels(c, lab, 'the filters view, another sentence');
  await lab.click('tab_heatmaps');
}

async function clickCell(c, lab, page) {
  const layout = await lab.layout();
  const hm = layout.heatmaps.find((h) => h.name === 'head0');
  if (!c.check(!!hm, 'head0 heatmap is on screen')) return;
  const q = 2, k = 1;
  const p = await lab.cellCentre(hm, q, k);
  await page.mouse.move(p.x, p.y);
  await lab.frames(3);
  // The hover tooltip (query, key, raw and scaled score, weight), for a person to look at.
  await writeFile(join(artefactsDir, 'explorer_hover_tooltip.png'), pngFile(await lab.screenshot()));
  await page.mouse.down();
  await lab.frames(2);
  await page.mouse.up();
  await lab.frames(3);
  const s = await lab.state();
  c.check(s.selected_query === q && s.selected_head === 0, `clicking cell (${q}, ${k}) of head 0 selects query ${q}`,
          `selected_query ${s.selected_query}, selected_head ${s.selected_head}`);
}

// Wheel zooms the head heatmaps (all together), drag pans, "Reset zoom" resets.
async function zoomAndPan(c, lab, page) {
  const n = (await lab.state()).tokens.length;
  let hm = (await lab.layout()).heatmaps.find((h) => h.name === 'head0');
  let p = await lab.cellCentre(hm, 2, 1);
  await page.mouse.move(p.x, p.y);
  await lab.frames(2);
  await page.mouse.wheel(0, -300);  // three notches up: zoom in
  await lab.frames(4);
  hm = (await lab.layout()).heatmaps.find((h) => h.name === 'head0');
  c.check(hm.rows < n && hm.cols === hm.rows, `the wheel zooms in (${n} -> ${hm.rows} visible rows)`, JSON.stringify(hm));
  const before = [hm.row0, hm.col0];
  // Drag two cells up and left: the window moves down and right.
  const cell = hm.css_w / hm.cols;
  p = await lab.cellCentre(hm, hm.row0 + Math.floor(hm.rows / 2), hm.col0 + Math.floor(hm.cols / 2));
  await page.mouse.move(p.x, p.y);
  await lab.frames(2);
  await page.mouse.down();
  for (let i = 1; i <= 4; i++) {
    await page.mouse.move(p.x - i * cell / 2, p.y - i * cell / 2);
    await lab.frames(2);
  }
  await page.mouse.up();
  await page.mouse.move(5, 5);
  await lab.frames(3);
  const layout = await lab.layout();
  hm = layout.heatmaps.find((h) => h.name === 'head0');
  c.check(hm.row0 !== before[0] || hm.col0 !== before[1], `dragging pans the window (${before} -> ${[hm.row0, hm.col0]})`);
  const others = layout.heatmaps.filter((h) => h.source === 'weights' || h.source === 'average');
  c.check(others.every((h) => h.row0 === hm.row0 && h.col0 === hm.col0 && h.rows === hm.rows),
          'every head heatmap shows the same window');
  await checkPixels(c, lab, 'zoomed and panned');
  await lab.click('zoom_reset');
  await page.mouse.move(5, 5);
  await lab.frames(3);
  hm = (await lab.layout()).heatmaps.find((h) => h.name === 'head0');
  c.check(hm.rows === n && hm.row0 === 0 && hm.col0 === 0, '"Reset zoom" shows every token again', JSON.stringify(hm));
}

async function causalMask(c, lab) {
  await lab.click('mask');
  await lab.frames(3);
  await lab.click('mask_item_causal');
  const config = await lab.config();
  c.check(config.mask === 'causal', 'the mask combo switches to causal with the mouse', JSON.stringify(config.mask));
  const { layout, png, result } = await checkPixels(c, lab, 'causal mask');
  const o = await lab.canvasOffset();
  let cells = 0;
  const failures = [];
  for (const hm of layout.heatmaps.filter((h) => h.source === 'weights' || h.source === 'average')) {
    const values = hm.source === 'average' ? result.average : result.weights[hm.head];
    const zero = colormapColor(hm.colormap, normalise(0, hm.lo, hm.hi));
    for (let q = hm.row0; q < hm.row0 + hm.rows; q++) {
      for (let k = Math.max(q + 1, hm.col0); k < hm.col0 + hm.cols; k++) {
        cells++;
        if (values[q][k] !== 0) failures.push(`${hm.name}[${q}][${k}]: compute says ${values[q][k]}, not 0`);
        const px = Math.floor(o.left + hm.css_x + (k - hm.col0 + 0.5) * hm.css_w / hm.cols);
        const py = Math.floor(o.top + hm.css_y + (q - hm.row0 + 0.5) * hm.css_h / hm.rows);
        const got = pixelAt(png, px, py);
        const err = Math.max(...got.map((g, ch) => Math.abs(g - zero[ch])));
        if (err > 6) failures.push(`${hm.name}[${q}][${k}] at (${px}, ${py}): rgb(${got}) is not the zero colour rgb(${zero.map(Math.round)})`);
      }
    }
  }
  c.check(cells > 0 && failures.length === 0, `causal: ${cells} upper-triangle cells show the colour of weight 0`,
          failures.slice(0, 8).join('\n    '));
}

// Custom mask: the matrix starts all allowed (n x n); clicking a cell blocks it.
async function customMask(c, lab, page) {
  await lab.click('mask');
  await lab.frames(3);
  await lab.click('mask_item_custom');
  const s = await lab.state();
  const before = (await lab.config()).mask;
  const n = s.tokens.length;
  c.check(Array.isArray(before) && before.length === n && before.every((row) => row.length === n && row.every((v) => !!v)),
          `the custom mask starts as an all-allowed ${n} x ${n} matrix`, JSON.stringify(before).slice(0, 200));
  const hm = (await lab.layout()).heatmaps.find((h) => h.name === 'head0');
  const p = await lab.cellCentre(hm, 0, 3);
  await page.mouse.move(p.x, p.y);
  await lab.frames(3);
  await page.mouse.down();
  await lab.frames(2);
  await page.mouse.up();
  await lab.frames(4);
  const after = (await lab.config()).mask;
  c.check(Array.isArray(after) && !after[0][3] && !!after[0][2] && !!after[1][3],
          'clicking cell (0, 3) in custom mode blocks exactly that query-key pair', JSON.stringify(after?.[0]));
  const result = await lab.compute(await lab.config());
  c.check(result.weights?.[0]?.[0]?.[3] === 0, 'compute(currentConfig()) gives the blocked cell weight 0');
  await page.mouse.move(5, 5);  // away from the heatmaps: no hover outline in the pixel check
  await checkPixels(c, lab, 'custom mask');
}

async function changeHeads(c, lab, page) {
  // ctrl+click turns an ImGui slider into a text field with its text selected.
  const p = await lab.controlCentre('heads');
  await page.keyboard.down('Control');
  await lab.frames(1);
  await page.mouse.move(p.x, p.y);
  await lab.frames(2);
  await page.mouse.down();
  await lab.frames(2);
  await page.mouse.up();
  await page.keyboard.up('Control');
  await lab.frames(3);
  await lab.chord('Control', 'a');
  await page.keyboard.type('8', { delay: 20 });
  await lab.chord('Enter');
  await lab.frames(4);
  const s = await lab.state();
  const layout = await lab.layout();
  const headMaps = layout.heatmaps.filter((h) => h.source === 'weights');
  c.check(s.heads === 8 && s.config.heads === 8, 'ctrl+click on the heads slider and typing 8 sets 8 heads',
          `state.heads ${s.heads}, config.heads ${s.config.heads}, error "${s.error}"`);
  c.check(headMaps.length === s.heads && layout.heatmaps.some((h) => h.source === 'average'),
          `layout() lists one heatmap per head (${headMaps.length}) plus the average`);
  // The + button: 8 -> 9 does not divide d_model 32, the UI says so and offers 8 and 16.
  await lab.click('heads_plus');
  const bad = await lab.state();
  c.check(bad.config.heads === 9 && bad.error.startsWith('heads:') && bad.heads === 8,
          'heads 9 (does not divide 32) shows the core\'s error and keeps the last good result',
          JSON.stringify({ heads: bad.config.heads, error: bad.error, shown: bad.heads }));
  await lab.click('heads_use_above');
  const fixed = await lab.state();
  c.check(fixed.config.heads === 16 && fixed.error === '' && fixed.heads === 16,
          'the "nearest valid" button sets 16 heads', JSON.stringify({ heads: fixed.config.heads, error: fixed.error }));
  await checkPixels(c, lab, '16 heads');
}

async function statsTable(c, lab) {
  await lab.click('tab_stats');
  const s = await lab.state();
  c.check(s.view === 'stats', 'the statistics tab opens with a click', s.view);
  const result = await lab.compute(await lab.config());
  const want = [...result.stats.map((r) => ({ ...r })), { head: 'avg', ...result.average_stats }];
  const failures = [];
  if (s.stats_table.length !== want.length) failures.push(`${s.stats_table.length} rows, want ${want.length}`);
  for (let i = 0; i < Math.min(want.length, s.stats_table.length); i++) {
    const got = s.stats_table[i];
    if (String(got.head) !== String(want[i].head)) failures.push(`row ${i}: head ${got.head}, want ${want[i].head}`);
    for (const key of ['min', 'max', 'mean', 'mean_entropy']) {
      // Displayed with 4 decimals: within half a unit of the last digit (+ float slack).
      if (!(Math.abs(got[key] - want[i][key]) <= 0.00005 + 1e-7))
        failures.push(`row ${i} ${key}: shown ${got[key]}, compute ${want[i][key]}`);
    }
  }
  c.check(failures.length === 0, `every number in the statistics table (${s.stats_table.length} rows) matches compute()`,
          failures.join('\n    '));
}

async function allViews(c, lab, page, size) {
  await page.setViewportSize(size);
  await lab.frames(6);
  // Every view of the explorer and the chapter (the scaling lab is scaling_e2e's,
  // the learned-heads view poem_e2e's), from the app's own table.
  const views = (await lab.state()).views.filter((v) => ['explorer', 'chapter'].includes(v.source)).map((v) => v.id);
  c.check(views.includes('heatmaps') && views.includes('debug'), 'state().views lists the explorer\'s views', views.join(','));
  for (const view of views) {
    // Where the tabs do not fit (nine with the debug view), the combo lists them.
    if ((await lab.layout()).controls.tab_combo) {
      await lab.click('tab_combo');
      for (let i = 0; i < 20 && !(await lab.layout()).controls[`tab_${view}`]; ++i) await lab.frames(1);
    }
    await lab.click(`tab_${view}`);
    await lab.frames(3);
    await page.mouse.move(5, page.viewportSize().height - 5);  // no tooltip over the cells
    await lab.frames(2);
    const s = await lab.state();
    c.check(s.view === view, `${size.width}x${size.height}: clicking the ${view} tab shows it`, s.view);
    const png = await lab.screenshot();
    await writeFile(join(artefactsDir, `explorer_${view}_${size.width}x${size.height}.png`), pngFile(png));
    const colours = countDistinctColours(png);
    c.check(colours >= 32, `${size.width}x${size.height} ${view}: the screenshot is not blank`, `${colours} colours`);
    await checkPixels(c, lab, `${size.width}x${size.height} ${view}`, png);
  }
}

async function run(c, page, url) {
  await page.goto(url + 'index.html?debug=1');
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  const lab = new Lab(page);
  await lab.frames(4);
  const s = await lab.state();
  c.check(s.view === 'heatmaps' && s.tokens.length === 6 && s.heads === 4 && s.error === '',
          'the explorer starts on "The cat sat on the mat", 4 heads, heatmaps view', JSON.stringify(s).slice(0, 300));
  await checkPixels(c, lab, 'default view');
  await typeSentence(c, lab, page);
  await shuffleTokens(c, lab);
  await fixedAgainstDynamic(c, lab, page);
  await clickCell(c, lab, page);
  await zoomAndPan(c, lab, page);
  await causalMask(c, lab);
  await customMask(c, lab, page);
  await changeHeads(c, lab, page);
  await statsTable(c, lab);
  for (const size of SIZES) await allViews(c, lab, page, size);

  // URL parameters: ?preset=fig41&view=chapter opens the chapter's figure
  // (how pages embed one figure; ?debug=1 above added the debug tab).
  await page.setViewportSize(SIZES[0]);
  await page.goto(url + 'index.html?preset=fig41&view=chapter');
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  await lab.settled();  // the view's code comes after ready: until it is drawn, not a number of frames
  const fig = await lab.state();
  const figLayout = await lab.layout();
  c.check(fig.view === 'chapter' && fig.config.experiment === 'fig41' && fig.tokens.length === 8 &&
          !('tab_debug' in figLayout.controls),
          '?preset=fig41&view=chapter opens Figure 4.1 (and no debug tab without ?debug=1)', JSON.stringify(fig).slice(0, 200));
  await checkPixels(c, lab, '?preset=fig41&view=chapter');
  await flatHeads(c, lab, page);
}

// Figure 4.1's head 1 is nearly flat (0.1248-0.1253): a note says so, in the
// figure's accessible copy too, and a click on "shared colour scale" puts
// every heatmap on one range, the heads' min..max from compute().
async function flatHeads(c, lab, page) {
  const range = (l) => Object.fromEntries(l.heatmaps.map((h) => [h.name, [h.lo, h.hi]]));
  const own = range(await lab.layout());
  const fig = await lab.compute({ experiment: 'fig41' });
  const stats = fig.stats.filter((s) => s.head !== 'avg' && typeof s.head === 'number');
  const head1 = fig.weights[1].flat();
  const lo1 = Math.min(...head1), hi1 = Math.max(...head1);
  c.check(Math.abs(own.head1[0] - lo1) < 1e-6 && Math.abs(own.head1[1] - hi1) < 1e-6,
          'by default head 1\'s colour bar spans its own weights, as the book', JSON.stringify(own.head1));
  const note = `head 1 reads only noise features: its weights are ${lo1.toFixed(4)}-${hi1.toFixed(4)}, nearly uniform`;
  const summary = await page.evaluate(() => document.getElementById('a11y-summary')?.textContent ?? '');
  c.check(summary.includes(note), 'the accessible copy says head 1 is nearly uniform', summary.slice(0, 300));
  await lab.click('fig41_shared_scale');
  const shared = range(await lab.layout());
  const all = fig.weights.flat(2);
  const lo = Math.min(...all), hi = Math.max(...all);
  c.check(['average', 'head0', 'head1'].every((n) => Math.abs(shared[n][0] - lo) < 1e-6 && Math.abs(shared[n][1] - hi) < 1e-6) &&
          (await page.evaluate(() => window.attentionLab.get())).fig41_scale === 'shared',
          `a click on "shared colour scale" puts every heatmap on ${lo.toFixed(4)}..${hi.toFixed(4)} (the URL says fig41_scale=shared)`,
          JSON.stringify({ shared, stats: stats.length }));
  await checkPixels(c, lab, 'Figure 4.1 on the shared scale');
  await writeFile(join(artefactsDir, 'explorer_fig41_shared.png'), pngFile(await lab.screenshot()));
}

process.exitCode = await runBrowserTest({ name: 'explorer_e2e', logName: 'explorer', webDir, artefactsDir, viewport: SIZES[0], run });
