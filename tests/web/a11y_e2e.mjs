// Accessibility: what a reader who cannot see the canvas, or has no mouse, gets.
//  1. The accessible copy (web/a11y.js, src/ui/a11y/a11y.hpp), read from Chromium's
//     accessibility tree (CDP Accessibility.getFullAXTree): every view exposes
//     its title, a summary and tables in the current language (Chinese here),
//     with the numbers compute() gives (or, for the scaling lab, an
//     independent reimplementation and the theory).
//  2. Keyboard only (no mouse or touch event at all): Tab into the controls,
//     type a sentence (keyboard.type and an input-method composition), change
//     the heads and the mask with arrow keys, Tab to the canvas, move the cell
//     cursor with the arrow keys and read the announced values from the live
//     region; Shift+Tab goes back.
//  3. At 320 CSS px and at 200 % zoom the keyboard panel and the lab's own
//     controls fit the width; screenshots to look at.
//  4. Contrast: the keyboard panel's text, borders and focus ring in both
//     themes (WCAG 2.1 AA: 4.5:1 text, 3:1 UI), computed from the page's styles.
//  5. prefers-reduced-motion: no spinner animation, no blinking text cursor.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { figure42Reference, stdTolerance } from './fig42_reference.mjs';
import { openLab, runBrowserTest, sameMatrix, untilDrawn, values } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const SENTENCE = '猫坐在垫子上它很累';
const QUERY = `?lang=zh&text=${encodeURIComponent(SENTENCE)}&heads=4&d_model=32`;
const CELL_ROLES = ['cell', 'gridcell', 'columnheader', 'rowheader'];

// ---- reading the accessibility tree ---------------------------------------------
async function axTree(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const role = (n) => n.role?.value ?? '';
  const name = (n) => n.name?.value ?? '';
  const children = (n) => (n.childIds ?? []).map((id) => byId.get(id)).filter(Boolean);
  const find = (pred, from) => {
    const out = [];
    const walk = (n) => {
      if (pred(n)) out.push(n);
      for (const k of children(n)) walk(k);
    };
    walk(from ?? nodes[0]);
    return out;
  };
  const text = (n) => find((k) => role(k) === 'StaticText', n).map(name).join('');
  return { role, name, find, text };
}

// The copy as a screen reader gets it: the region's heading, summary, live
// region and tables (rows of cell names, the header row first).
async function readMirror(page) {
  const ax = await axTree(page);
  const region = ax.find((n) => ax.role(n) === 'region')[0];
  if (!region) return null;
  const heading = ax.find((n) => ax.role(n) === 'heading', region)[0];
  const paragraph = ax.find((n) => ax.role(n) === 'paragraph', region)[0];
  const live = ax.find((n) => ax.role(n) === 'status', region)[0];
  const tables = ax.find((n) => ax.role(n) === 'table', region).map((t) => ({
    caption: ax.name(t),
    rows: ax.find((n) => ax.role(n) === 'row', t).map((r) => ax.find((n) => CELL_ROLES.includes(ax.role(n)), r).map(ax.name)),
  }));
  const controls = ax.find((n) => ['combobox', 'textbox', 'slider'].includes(ax.role(n)), region)
    .map((n) => ({ role: ax.role(n), name: ax.name(n) }));
  return { title: heading ? ax.name(heading) : '', summary: paragraph ? ax.text(paragraph) : '',
           live: live ? ax.text(live) : '', tables, controls, region: ax.name(region) };
}

// Which heatmap each table mirrors (the DOM keeps it in data-heatmap; same order).
const tableNames = (page) => page.evaluate(() => [...document.querySelectorAll('#a11y-tables table')]
  .map((t) => t.dataset.heatmap || ''));

// The lab, once its accessible copy is there (web/a11y.js loads after the first figure).
async function openMirror(page, url, query) {
  const lab = await openLab(page, url, query);
  await page.waitForFunction(() => document.getElementById('a11y')?.dataset.version, null, { timeout: 30_000 });
  return lab;
}

// After a change: until the lab has drawn it (keys queued included) and the
// copy shows it, its announcement made (web/a11y.js settled()).
async function settle(lab, page) {
  await lab.settled();
  await untilDrawn(page, 'the accessible copy settled()', page.evaluate(() => window.attentionLabA11y.settled()));
}

// `value` printed with `decimals` somewhere in the text.
function mentions(text, value, decimals) {
  const numbers = (text.match(/-?\d+\.\d+/g) ?? []).filter((s) => s.split('.')[1].length === decimals).map(Number);
  return numbers.some((n) => Math.abs(n - value) <= 0.5 * 10 ** -decimals + 1e-6);
}
const tokenLabel = (tokens, i) => `${i} '${tokens[i]}'`;
const topKeys = (row) => row.map((w, k) => [w, k]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);

// ---- 1. every view's copy against compute() ---------------------------------------
async function explorerViews(c, page, lab) {
  const result = await lab.compute(await lab.config());

  await page.evaluate(() => window.attentionLab.set({ view: 'heatmaps', head: -1, query: 2 }));
  await settle(lab, page);
  let m = await readMirror(page);
  c.check(m && m.title === '热力图' && m.region === '热力图', 'heatmaps: the region and its heading are the tab\'s Chinese title', JSON.stringify(m?.title));
  // The summary: for the query, the two strongest keys of the average and of every head, with weights and entropy.
  const sentences = [['各头平均', result.average[2]], ...result.weights.map((w, h) => [`头 ${h}`, w[2]])];
  for (const [head, row] of sentences) {
    const [[w0, k0], [w1, k1]] = topKeys(row);
    const at = m.summary.indexOf(`${head}：查询 ${tokenLabel(result.tokens, 2)} 最关注 ${tokenLabel(result.tokens, k0)}`);
    const sentence = at >= 0 ? m.summary.slice(at, m.summary.indexOf('。', at) + 1) : '';
    const entropy = -row.reduce((sum, p) => sum + (p > 0 ? p * Math.log(p) : 0), 0);
    c.check(sentence && sentence.includes(tokenLabel(result.tokens, k1)) && mentions(sentence, w0, 2) && mentions(sentence, w1, 2) &&
            mentions(sentence, entropy, 2),
            `heatmaps summary: ${head} names its two strongest keys, their weights and the entropy (compute())`, sentence || m.summary);
  }
  c.check(m.tables.length === 1 && m.tables[0].caption === '各头平均', 'heatmaps: one table, the selected heatmap (the head average)',
          m.tables.map((t) => t.caption).join(', '));
  c.check(m.tables[0].rows[0][0] === '查询 \\ 键' && m.tables[0].rows[0][1] === `0 ${result.tokens[0]}`,
          'heatmaps: the header row names the axes and the key tokens', JSON.stringify(m.tables[0].rows[0]));
  let diff = sameMatrix(m.tables[0], result.average);
  c.check(!diff, 'heatmaps: the table\'s numbers are compute()\'s head average, to 4 decimals', diff);

  await page.evaluate(() => window.attentionLab.set({ head: 1 }));
  await settle(lab, page);
  m = await readMirror(page);
  diff = m.tables.length === 1 && m.tables[0].caption === '头 1' ? sameMatrix(m.tables[0], result.weights[1]) : 'no table 头 1';
  c.check(!diff, 'heatmaps, head 1 selected: its table is compute()\'s weights of head 1', diff);

  // Steps: the selected head's scores, scaled scores and weights.
  await page.evaluate(() => window.attentionLab.set({ view: 'steps' }));
  await settle(lab, page);
  m = await readMirror(page);
  const names = await tableNames(page);
  const sources = { steps_scores: result.scores[1], steps_scaled: result.scaled_scores[1], steps_weights: result.weights[1] };
  for (const [name, expected] of Object.entries(sources)) {
    const i = names.indexOf(name);
    diff = i >= 0 ? sameMatrix(m.tables[i], expected) : `no table ${name} in ${names}`;
    c.check(!diff, `steps: the ${name} table is compute()'s (head 1)`, diff);
  }
  c.check(m.title === '步骤' && names.length >= 7 && m.tables.every((t) => t.caption && t.rows.length === result.tokens.length + 1),
          'steps: every step is a captioned table with a row per token', `${m.title}: ${m.tables.map((t) => t.caption).join(' | ')}`);

  // Focus and lines: the selected query's weights in every head.
  for (const view of ['focus', 'lines']) {
    await page.evaluate((v) => window.attentionLab.set({ view: v }), view);
    await settle(lab, page);
    m = await readMirror(page);
    const expected = [...result.weights.map((w) => w[2]), result.average[2]];
    diff = m.tables.length ? sameMatrix(m.tables[0], expected) : 'no table';
    c.check(m.tables[0]?.caption === `查询 ${tokenLabel(result.tokens, 2)} 在各头中的权重` && !diff,
            `${view}: the first table is the query's weights per head and the average (compute())`, `${m.tables[0]?.caption} ${diff}`);
    c.check(m.summary.includes(`查询 ${tokenLabel(result.tokens, 2)} 最关注`), `${view}: the summary reads the query's strongest keys`, m.summary);
  }
  // Focus, head 1: each key's weight and value row, and the output row they sum to.
  await page.evaluate(() => window.attentionLab.set({ view: 'focus' }));
  await settle(lab, page);
  m = await readMirror(page);
  const valuesTable = m.tables.find((t) => t.caption === '头 1: 输出 o_i');
  if (valuesTable) {
    const rows = valuesTable.rows.slice(1);
    const keyRows = rows.slice(0, -1), output = rows[rows.length - 1].slice(2).map(Number);
    const weightsOk = keyRows.every((r, k) => Math.abs(Number(r[1]) - result.weights[1][2][k]) <= 0.5e-4 + 1e-7);
    // o = sum_k w_k v_k, from the table's own (rounded) numbers: within their rounding.
    const sums = output.map((_, j) => keyRows.reduce((sum, r) => sum + Number(r[1]) * Number(r[j + 2]), 0));
    const bound = keyRows.length * 0.0006 + 0.0006;
    c.check(keyRows.length === result.tokens.length && weightsOk && sums.every((v, j) => Math.abs(v - output[j]) <= bound),
            'focus, head 1: the values table has compute()\'s weights, and its output row is their weighted sum of the value rows',
            JSON.stringify({ output, sums }));
  } else {
    c.check(false, 'focus, head 1: a values table', m.tables.map((t) => t.caption).join(' | '));
  }


  // Stats: the table as displayed, against compute()'s statistics.
  await page.evaluate(() => window.attentionLab.set({ view: 'stats' }));
  await settle(lab, page);
  m = await readMirror(page);
  const stats = [...result.stats, { ...result.average_stats, head: 'avg' }];
  const table = m.tables[0];
  const rowsOk = table && table.rows.length === stats.length + 1 && stats.every((st, i) => {
    const [, min, max, mean, entropy] = table.rows[i + 1];
    const close = (text, v) => Math.abs(Number(text) - v) <= 0.5 * 10 ** -(text.split('.')[1]?.length ?? 0) + 1e-6;
    return close(min, st.min) && close(max, st.max) && close(mean, st.mean) && close(entropy, st.mean_entropy);
  });
  c.check(rowsOk, 'stats: min, max, mean and mean entropy of each head and the average, as compute() gives them',
          JSON.stringify(table?.rows));
  const hist = m.tables.find((t) => t.caption === '各头的权重直方图');
  const histCounts = hist ? hist.rows[0].slice(1).map((_, h) => hist.rows.slice(1).reduce((sum, r) => sum + Number(r[h + 1].split(': ')[1]), 0)) : [];
  const n = result.tokens.length;
  c.check(histCounts.length === result.weights.length && histCounts.every((count) => count === n * n),
          `stats: the histograms table counts each head's ${n * n} weights`, JSON.stringify(histCounts));
  const entropies = result.stats.map((st) => st.mean_entropy);
  const focused = entropies.indexOf(Math.min(...entropies)), spread = entropies.indexOf(Math.max(...entropies));
  c.check(m.summary.includes(`最集中的是头 ${focused}`) && m.summary.includes(`最分散的是头 ${spread}`) &&
          mentions(m.summary, entropies[focused], 2), 'stats: the summary names the most focused and most spread head', m.summary);
}

async function chapterView(c, page, lab) {
  await page.evaluate(() => window.attentionLab.set({ view: 'chapter' }));
  await settle(lab, page);
  const m = await readMirror(page);
  const fig = await lab.compute({ experiment: 'fig41' });
  const names = await tableNames(page);
  const heatmaps = names.filter(Boolean);
  c.check(m.title.startsWith('图 4.1') && heatmaps.join() === 'average,head0,head1' && m.tables.length === 6,
          'chapter: Figure 4.1\'s title; the tables of its three heatmaps, its two tables and its histograms',
          `${m.title}: ${m.tables.map((t) => t.caption).join(' | ')}`);
  for (let i = 0; i < heatmaps.length; ++i) {
    const head = /^head(\d+)$/.exec(names[i]);
    const diff = sameMatrix(m.tables[i], head ? fig.weights[Number(head[1])] : fig.average);
    c.check(!diff, `chapter: the ${names[i]} table is compute({experiment: 'fig41'})'s`, diff);
  }
  const [stats, top, hist] = m.tables.slice(3);
  c.check(stats.rows.length === 5 && fig.stats.every((st, h) => sameMatrix({ rows: [[], stats.rows[h + 1]] }, [[st.min, st.max, st.mean]]) === ''),
          'chapter: the per-head statistics table is compute()\'s min, max and mean', JSON.stringify(stats.rows));
  const topOk = fig.top_keys.every((keys, qi) => keys.every((k, j) => {
    const [token, weight] = top.rows[qi + 1][j + 1].split(' ');
    return token === fig.tokens[k] && Math.abs(Number(weight) - fig.average[qi][k]) <= 5e-4 + 1e-7;
  }));
  c.check(top.rows.length === 9 && topOk, 'chapter: the top-3 keys table names compute()\'s top keys and their average weights',
          JSON.stringify(top.rows.slice(0, 3)));
  const counts = hist.rows[0].slice(1).map((_, h) => hist.rows.slice(1).reduce((sum, r) => sum + Number(r[h + 1].split(': ')[1]), 0));
  c.check(hist.rows.length === 26 && counts.length === 4 && counts.every((n) => n === 64),
          'chapter: the histograms table has 25 bins per head, each head counting its 64 weights', JSON.stringify(counts));
  // Each head's position pattern, counted here from compute()'s weights.
  fig.weights.forEach((w, h) => {
    const offsets = new Map();
    w.forEach((row, qi) => {
      const k = topKeys(row)[0][1];
      offsets.set(k - qi, (offsets.get(k - qi) ?? 0) + 1);
    });
    let best = null;
    for (const [offset, count] of [...offsets].sort((a, b) => a[0] - b[0])) if (!best || count > best[1]) best = [offset, count];
    const sign = best[0] >= 0 ? '+' : '';
    const expected = `头 ${h}：${best[1]} 个查询（共 ${w.length} 个）最关注相距 ${sign}${best[0]} 个位置的键`;
    c.check(m.summary.includes(expected), `chapter summary: head ${h}'s pattern (${expected})`, m.summary);
  });
}

async function scalingViews(c, page, lab) {
  await page.evaluate(() => window.attentionLab.set({ view: 'scaling', panel: 'fig42', dk: 64 }));
  let m = null;
  // The curves fill over frames: wait until the table has the whole grid (1..1024).
  for (let i = 0; i < 60; ++i) {
    await settle(lab, page);
    m = await readMirror(page);
    if (m.tables[0]?.rows.length >= 12) break;
  }
  const s = await lab.state();
  const samples = s.scaling.samples;
  const rows = m.tables[0]?.rows.slice(1) ?? [];
  c.check(m.title === '缩放实验：图 4.2（实时）' || m.title.startsWith('缩放实验'), 'scaling: the title names the lab and the panel', m.title);
  c.check(rows.length >= 11, `Figure 4.2's table has a row per d_k of the grid (${rows.length})`);
  for (const row of rows) {
    const dk = Number(row[0]);
    const [rawStd, scaledStd, theory] = row.slice(1, 4).map(Number);
    const tol = stdTolerance(dk, samples);
    const ok = Math.abs(rawStd / Math.sqrt(dk) - 1) <= tol && Math.abs(scaledStd - 1) <= tol &&
               Math.abs(theory - Math.sqrt(dk)) <= 5e-4;
    if (!ok || dk <= 16) {
      // Small d_k: the exact numbers, from an independent reimplementation (same seed).
      const ref = dk <= 16 ? figure42Reference(dk, samples) : null;
      const exact = !ref || (Math.abs(rawStd - ref.raw_std) <= 6e-4 && Math.abs(scaledStd - ref.scaled_std) <= 6e-4);
      c.check(ok && exact, `Figure 4.2 table, d_k ${dk}: raw std ~ sqrt(d_k), scaled ~ 1${ref ? ', equal to the reference' : ''}`,
              `${row.join(' ')} ${ref ? JSON.stringify(ref) : ''}`);
    }
  }
  const at = (dk) => rows.find((r) => Number(r[0]) === dk);
  c.check(at(8) && at(512) && m.summary.includes(`${Number(at(8)[1]).toFixed(1)}（d_k = 8）`) &&
          m.summary.includes(`${Number(at(512)[1]).toFixed(1)}（d_k = 512）`) && m.summary.includes('保持在 1 附近'),
          'Figure 4.2 summary: the raw std at the chapter\'s d_k 8 and 512, the scaled std near 1', m.summary);
  c.check(m.summary.includes(`d_k = 64 时：原始分数标准差 ${s.scaling.raw_std}`), 'Figure 4.2 summary: the current d_k\'s numbers as displayed',
          `${m.summary} / ${s.scaling.raw_std}`);

  await page.evaluate(() => window.attentionLab.set({ panel: 'saturation' }));
  for (let i = 0; i < 60; ++i) {
    await settle(lab, page);
    m = await readMirror(page);
    if (m.tables[0]?.rows.length >= 12 && m.summary) break;
  }
  const sat = (m.tables[0]?.rows.slice(1) ?? []).map((r) => r.map(Number));
  const lnN = Math.log(s.scaling.n_keys);
  c.check(sat.length >= 11 && sat.every(([, raw, scaled]) => raw <= lnN + 1e-3 && scaled <= lnN + 1e-3) &&
          sat[sat.length - 1][1] < sat[sat.length - 1][2] && sat[sat.length - 1][1] < sat[0][1],
          'saturation table: entropies at most ln n; without scaling the entropy falls with d_k, below the scaled one',
          JSON.stringify(sat));
  const row = m.tables[1]?.rows.slice(1) ?? [];
  const column = (i) => row.reduce((sum, r) => sum + Number(r[i]), 0);
  c.check(row.length === s.scaling.n_keys && Math.abs(column(2) - 1) < 2e-3 && Math.abs(column(3) - 1) < 2e-3 && Math.abs(column(5) - 1) < 2e-3,
          'saturation: the single row\'s table, a row per key; raw, scaled and stable softmax each sum to 1', JSON.stringify(row.slice(0, 3)));
  c.check(sat.length && mentions(m.summary, sat[0][1], 2) && mentions(m.summary, sat[sat.length - 1][1], 2) && mentions(m.summary, lnN, 2),
          'saturation summary: the entropy at both ends of the table and ln n', m.summary);

  await page.evaluate(() => window.attentionLab.set({ panel: 'training' }));
  await settle(lab, page);
  m = await readMirror(page);
  c.check(m.summary === '尚未训练：请在面板的控件中开始训练。', 'training, before any step: the summary says so', m.summary);
  // The panel's Step button, pressed with the keyboard (Enter, then Space).
  await page.focus('#a11y-controls button[name="train_step"]');
  await page.keyboard.press('Enter');
  await settle(lab, page);
  await page.keyboard.press(' ');
  await settle(lab, page);
  m = await readMirror(page);
  const training = (await lab.state()).scaling.training;
  c.check(training.steps === 2 && m.summary.startsWith('训练 2 步后') && mentions(m.summary, training.scaled.loss, 4) &&
          mentions(m.summary, training.unscaled.loss, 4),
          'training: the Step button takes a step per press; the summary gives both models\' loss (state())',
          `${m.summary} / ${JSON.stringify({ steps: training.steps, s: training.scaled?.loss, u: training.unscaled?.loss })}`);
  const maps = m.tables.filter((t) => t.rows.length > 1);
  c.check(maps.length === 2 && maps.every((t) => values(t).every((row) => Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 2e-3)),
          'training: both models\' example attention is a table whose rows sum to 1', m.tables.map((t) => t.caption).join(' | '));
}

async function mirrorTest(c, page, url) {
  const lab = await openMirror(page, url, QUERY);
  await settle(lab, page);
  const lang = await page.evaluate(() => document.documentElement.lang);
  c.check(lang === 'zh-CN', 'the page\'s language follows the lab\'s (zh-CN)', lang);
  await explorerViews(c, page, lab);
  await chapterView(c, page, lab);
  await scalingViews(c, page, lab);
  // The language button switches the copy too.
  await page.evaluate(() => window.attentionLab.set({ view: 'heatmaps', lang: 'en' }));
  await settle(lab, page);
  const m = await readMirror(page);
  c.check(m.title === 'Heatmaps' && m.summary.startsWith('Head average: the query') &&
          (await page.evaluate(() => document.documentElement.lang)) === 'en',
          'in English the copy is English (title, summary, page language)', `${m.title} / ${m.summary.slice(0, 60)}`);
}

// ---- 2. keyboard only ------------------------------------------------------------
const active = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return a ? (a.name || a.id || a.tagName.toLowerCase()) : '';
});
// Tab until the control `name` has the focus (at most `limit` presses); true if it got there.
async function tabTo(page, name, limit = 20) {
  for (let i = 0; i < limit && await active(page) !== name; ++i) await page.keyboard.press('Tab');
  return await active(page) === name;
}
const panelShown = (page) => page.evaluate(() => getComputedStyle(document.getElementById('a11y-controls')).position === 'fixed');

async function keyboardTest(c, page, url) {
  // Every event a mouse, pen, finger or wheel gives the page is counted: this
  // test must cause none. (No "click": Enter on a button makes one too.)
  await page.addInitScript(() => {
    window.pointerEventsSeen = 0;
    for (const type of ['mousedown', 'mouseup', 'mousemove', 'pointerdown', 'pointermove', 'touchstart', 'wheel'])
      window.addEventListener(type, (event) => { if (event.isTrusted) window.pointerEventsSeen += 1; }, true);
  });
  const lab = await openMirror(page, url, '?lang=zh&d_model=32&heads=4');
  await page.keyboard.press('Tab');
  await settle(lab, page);
  c.check(await active(page) === 'view' && await panelShown(page),
          'the first Tab reaches the view control, and the keyboard panel shows', await active(page));
  await page.screenshot({ path: join(artefactsDir, 'a11y_keyboard_panel.png') });

  // The sentence: select all, type (keyboard.type), compose with an input method, type again.
  await page.keyboard.press('Tab');
  c.check(await active(page) === 'text', 'Tab moves on to the sentence', await active(page));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('猫坐在');
  const cdp = await page.context().newCDPSession(page);
  for (const text of ['t', 'ta', '它']) {
    await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
    await lab.frames(2);
  }
  const composing = (await lab.state()).config.text;
  await cdp.send('Input.insertText', { text: '它' });
  await page.keyboard.type('很累');
  await settle(lab, page);
  let s = await lab.state();
  c.check(composing === '猫坐在' && s.config.text === '猫坐在它很累' && s.tokens.join('') === '猫坐在它很累',
          'typed and composed Chinese reaches the lab (no pinyin while composing)', `${composing} -> ${s.config.text}`);

  await tabTo(page, 'heads');
  const heads = s.config.heads;
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await settle(lab, page);
  s = await lab.state();
  c.check(await active(page) === 'heads' && heads === 4 && s.config.heads === 2, 'arrow keys on the heads slider: 4 -> 2 heads',
          `${await active(page)}: ${heads} -> ${s.config.heads}`);
  await tabTo(page, 'mask');
  await page.keyboard.press('ArrowDown');
  await settle(lab, page);
  s = await lab.state();
  c.check(await active(page) === 'mask' && s.config.mask === 'causal', 'ArrowDown on the mask control: causal', JSON.stringify(s.config.mask));
  await tabTo(page, 'head');
  await page.keyboard.press('ArrowDown');
  await settle(lab, page);
  s = await lab.state();
  c.check(await active(page) === 'head' && s.selected_head === 0, 'ArrowDown on the head control: head 0', String(s.selected_head));
  let m = await readMirror(page);
  const names = m.controls.map((x) => `${x.role}:${x.name}`);
  const order = ['combobox:视图', 'textbox:句子', 'combobox:预设', 'slider:d_model', 'slider:头数', 'combobox:缩放', 'combobox:掩码',
    'combobox:显示的头', 'combobox:查询', 'combobox:语言', 'combobox:主题'];
  const at = order.map((n) => names.indexOf(n));
  c.check(at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1])) && m.controls.every((x) => x.name),
          'every control has a Chinese label, in the order of the set-up panel', names.join(', '));
  await tabTo(page, 'canvas');
  await settle(lab, page);
  c.check(await active(page) === 'canvas' && !await panelShown(page), 'Tab reaches the canvas after the last control; the panel hides',
          await active(page));

  // The cell cursor, with a person's 20 ms taps (a hold counted in frames
  // outlasts ImGui's 0.275 s repeat delay on a loaded machine and moves twice).
  const tap = (key) => lab.chord(key);
  await tap('ArrowDown');
  await tap('ArrowDown');
  await tap('ArrowRight');
  await settle(lab, page);
  s = await lab.state();
  let result = await lab.compute(await lab.config());
  m = await readMirror(page);
  const fmt = (v) => v.toFixed(4);
  const expected = (h, q, k) => [`头 ${h}`, `查询 ${tokenLabel(result.tokens, q)}`, `键 ${tokenLabel(result.tokens, k)}`];
  const says = (text, h, q, k) => expected(h, q, k).every((part) => text.includes(part)) &&
    mentions(text, result.scores[h][q][k], 4) && mentions(text, result.scaled_scores[h][q][k], 4) &&
    mentions(text, result.weights[h][q][k], 4);
  c.check(s.selected_query === 2 && s.cursor.key === 1 && s.cursor.shown, 'arrow keys move the cell cursor to query 2, key 1',
          JSON.stringify({ q: s.selected_query, cursor: s.cursor }));
  c.check(says(m.live, 0, 2, 1), 'the live region reads head, query, key, raw and scaled score and weight (compute())',
          `${m.live} / raw ${fmt(result.scores[0][2][1])} scaled ${fmt(result.scaled_scores[0][2][1])} w ${fmt(result.weights[0][2][1])}`);
  await tap('ArrowRight');
  await tap('ArrowRight');
  await settle(lab, page);
  m = await readMirror(page);
  c.check(says(m.live, 0, 2, 3) && m.live.includes('已掩码'), 'a masked cell (causal, key after the query) is read as masked', m.live);
  await tap('PageDown');
  await settle(lab, page);
  s = await lab.state();
  m = await readMirror(page);
  c.check(s.selected_head === 1 && says(m.live, 1, 2, 3), 'Page Down moves the cursor to head 1 and reads its cell', m.live);
  // The cursor is drawn: a dark and a light frame around the cell in head 1's heatmap.
  const layout = await lab.layout();
  const hm = layout.heatmaps.find((h) => h.name === 'head1');
  const png = await lab.screenshot();
  await page.screenshot({ path: join(artefactsDir, 'a11y_cell_cursor.png') });
  if (hm) {
    const o = await lab.canvasOffset();
    const cell = hm.css_w / hm.cols;
    const x0 = Math.round(o.left + hm.css_x + (3 - hm.col0) * cell), y0 = Math.round(o.top + hm.css_y + (2 - hm.row0) * cell);
    const lum = [];
    for (let dy = -4; dy <= 2; ++dy) {
      const i = ((y0 + dy) * png.width + Math.round(x0 + cell / 2)) * 4;
      lum.push(png.data[i] + png.data[i + 1] + png.data[i + 2]);
    }
    c.check(Math.min(...lum) < 90 && Math.max(...lum) > 700, 'the cursor cell has a dark and a light frame on the canvas', lum.join(','));
  } else {
    c.check(false, 'head 1\'s heatmap is on screen', layout.heatmaps.map((h) => h.name).join());
  }
  await page.keyboard.press('Shift+Tab');
  c.check(await active(page) === 'theme' && await panelShown(page), 'Shift+Tab goes back from the canvas to the last control', await active(page));
  // Export with the keyboard: back to the file choice, pick the tokens as CSV, press the button.
  for (let i = 0; i < 6 && await active(page) !== 'export_what'; ++i) await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowDown');  // png, then tokens.csv
  await page.keyboard.press('Tab');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 10_000 }), page.keyboard.press('Enter')]);
  const saved = await download.path().then((p) => readFile(p, 'utf8'));
  c.check(download.suggestedFilename() === 'tokens_causal.csv' && saved.trim().split('\n').length === 7 && saved.includes('累'),
          'the export control saves the picked file (tokens, CSV) with the keyboard', `${download.suggestedFilename()}: ${saved.slice(0, 80)}`);
  // A custom mask with the keyboard: pick it (every pair allowed), then Space on the cursor's cell masks it.
  for (let i = 0; i < 20 && await active(page) !== 'mask'; ++i) await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowDown');  // padding
  await page.keyboard.press('ArrowDown');  // custom
  await settle(lab, page);
  const custom = (await lab.config()).mask;
  await tabTo(page, 'canvas', 30);
  await tap(' ');
  await settle(lab, page);
  const toggled = await lab.config();
  result = await lab.compute(toggled);
  m = await readMirror(page);
  c.check(Array.isArray(custom) && custom.flat().every((v) => v === 1) && toggled.mask[2][3] === 0 &&
          toggled.mask.flat().filter((v) => v === 0).length === 1 && result.weights[1][2][3] === 0 && says(m.live, 1, 2, 3) &&
          m.live.includes('已掩码'),
          'the mask control offers a custom mask (all allowed); Space on the cursor masks its cell, and it is read as masked',
          `${JSON.stringify(toggled.mask)} / ${m.live}`);
  result = await page.evaluate(() => window.pointerEventsSeen);
  c.check(result === 0, 'no mouse, pointer, touch or wheel event was used', String(result));
}

// ---- 3. narrow and zoomed ---------------------------------------------------------
async function fitTest(c, page, url, what) {
  const lab = await openMirror(page, url, '?lang=zh');
  await page.keyboard.press('Tab');
  await settle(lab, page);
  const fit = await page.evaluate(() => {
    const form = document.getElementById('a11y-controls');
    const r = form.getBoundingClientRect();
    const labels = [...form.querySelectorAll('label')].map((l) => l.getBoundingClientRect());
    return { width: innerWidth, height: innerHeight, left: r.left, right: r.right, top: r.top, overflowX: form.scrollWidth - form.clientWidth,
             widest: Math.max(...labels.map((l) => l.right)) };
  });
  c.check(fit.left >= 0 && fit.right <= fit.width && fit.overflowX <= 0 && fit.widest <= fit.width && fit.top >= 0,
          `${what}: the keyboard panel fits the width (nothing cut off)`, JSON.stringify(fit));
  // The lab stays drawn above the panel (a scrolling panel once blanked the canvas).
  const png = await lab.screenshot();
  const colours = new Set();
  const scale = png.width / fit.width;
  for (let y = 0; y < Math.floor(fit.top * scale); y += 3)
    for (let x = 0; x < png.width; x += 3) {
      const i = (y * png.width + x) * 4;
      colours.add((png.data[i] >> 4) * 256 + (png.data[i + 1] >> 4) * 16 + (png.data[i + 2] >> 4));
    }
  c.check(colours.size >= 16, `${what}: above the panel the lab is still drawn (${colours.size} colours)`);
  await page.screenshot({ path: join(artefactsDir, `a11y_${what}_panel.png`) });
  await page.keyboard.press('Escape');
  const layout = await lab.layout();
  const cut = Object.entries(layout.controls).filter(([, r]) => !r.region && (r.css_x < -1 || r.css_x + r.css_w > fit.width + 1));
  c.check(Object.keys(layout.controls).length > 3 && cut.length === 0, `${what}: no control of the lab runs past the window's width`,
          cut.map(([n, r]) => `${n} ${r.css_x}+${r.css_w}`).join(', '));
  await page.screenshot({ path: join(artefactsDir, `a11y_${what}.png`) });
}

// ---- 4. contrast ---------------------------------------------------------------------
const channel = (v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const rgb = (css) => css.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);

async function contrastTest(c, page, url) {
  const lab = await openMirror(page, url, '?lang=zh');
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => window.attentionLab.set({ theme: t }), theme);
    await settle(lab, page);
    await page.focus('#a11y-controls select[name="view"]');
    await settle(lab, page);
    const colours = await page.evaluate(() => {
      const form = document.getElementById('a11y-controls');
      const select = form.querySelector('select[name="view"]');
      const input = form.querySelector('input[type="text"]');
      const label = form.querySelector('label span');
      const cs = (e) => getComputedStyle(e);
      return { panel: cs(form).backgroundColor, text: cs(label).color, border: cs(form).borderTopColor,
               field: cs(input).backgroundColor, fieldText: cs(input).color, fieldBorder: cs(input).borderTopColor,
               focus: cs(select).outlineColor, canvasFocus: null };
    });
    const pairs = [['label text on the panel', colours.text, colours.panel, 4.5], ['field text on the field', colours.fieldText, colours.field, 4.5],
      ['field border on the panel', colours.fieldBorder, colours.panel, 3], ['panel border against the panel', colours.border, colours.panel, 3],
      ['focus ring on the panel', colours.focus, colours.panel, 3]];
    for (const [what, fg, bg, min] of pairs) {
      const ratio = contrast(rgb(fg), rgb(bg));
      c.check(ratio >= min, `${theme} theme: ${what} ${ratio.toFixed(2)}:1 >= ${min}:1`, `${fg} on ${bg}`);
    }
    await page.screenshot({ path: join(artefactsDir, `a11y_panel_${theme}.png`) });
  }
}

// ---- 5. reduced motion ----------------------------------------------------------------
async function motionTest(c, page, url, reduce) {
  const lab = await openLab(page, url, '');
  const s = await lab.state();
  const spin = await page.evaluate(() => getComputedStyle(document.querySelector('.spinner')).animationName);
  c.check(s.reduced_motion === reduce && (reduce ? spin === 'none' : spin === 'spin'),
          `prefers-reduced-motion ${reduce ? 'reduce' : 'no-preference'}: the spinner ${reduce ? 'stands still' : 'spins'}, the text cursor ${reduce ? 'does not blink' : 'blinks'}`,
          `${spin}, reduced_motion ${s.reduced_motion}`);
}

// Parts that need nothing of a browser but a fresh page share one (a
// browser's start and first page cost 2.5-3.5 s more than a page load here):
// each part still opens the lab in a fresh page load. The keyboard-only
// session keeps a browser of its own (no mouse has ever been over it), and
// 200 % zoom needs its own devicePixelRatio.
let failures = 0;
failures += await runBrowserTest({
  name: 'a11y_e2e mirror, contrast, 320px', logName: 'a11y_mirror', webDir, artefactsDir, viewport: { width: 1000, height: 700 },
  locale: 'zh-CN',
  run: async (c, page, url) => {
    await mirrorTest(c, page, url);
    await contrastTest(c, page, url);
    await page.setViewportSize({ width: 320, height: 640 });
    await fitTest(c, page, url, '320px');
  },
});
failures += await runBrowserTest({
  name: 'a11y_e2e keyboard only', logName: 'a11y_keyboard', webDir, artefactsDir, viewport: { width: 1000, height: 700 },
  locale: 'zh-CN', run: keyboardTest,
});
failures += await runBrowserTest({
  name: 'a11y_e2e zoom200', logName: 'a11y_zoom200', webDir, artefactsDir, viewport: { width: 640, height: 400 }, locale: 'zh-CN',
  contextOptions: { deviceScaleFactor: 2 }, run: (c, page, url) => fitTest(c, page, url, 'zoom200'),
});
failures += await runBrowserTest({
  name: 'a11y_e2e motion', logName: 'a11y_motion', webDir, artefactsDir,
  viewport: { width: 800, height: 600 }, contextOptions: { reducedMotion: 'reduce' },
  run: async (c, page, url) => {
    for (const reduce of [true, false]) {
      await page.emulateMedia({ reducedMotion: reduce ? 'reduce' : 'no-preference' });  // before the page loads
      await motionTest(c, page, url, reduce);
    }
  },
});
process.exit(failures ? 1 : 0);
