// Embedding: the lab inside other pages.
//  1. A host page on another origin (a second server, another port) drives a
//     figure through web/embed.js: set, get, change. Messages from a third
//     origin (a sibling frame) and malformed messages change nothing. The host
//     opens the why-attention view, whose module the figure loads.
//  2. The example chapter (textbook.html, three figures): the wheel over a
//     figure scrolls the chapter, Tab goes into a figure and out again, an
//     off-screen figure draws no frames, an idle visible one a handful at
//     most; the idle page runs no timer, frame or message (its task time is
//     printed, Chrome's metrics).
// usage: node embed_e2e.mjs <web build dir> <artefacts dir>
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { READY_TIMEOUT_MS, runBrowserTest } from './lab.mjs';
import { serveDirectory } from './static_server.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// The host page (origin B) embeds the lab (origin A) and a third-origin frame (origin C).
async function hostPages(labUrl) {
  const dir = await mkdtemp(join(tmpdir(), 'attn-host-'));
  await writeFile(join(dir, 'host.html'), `<!doctype html><meta charset="utf-8"><title>host</title>
<div id="slot" style="width:700px;height:450px"></div>
<iframe id="third" style="width:10px;height:10px"></iframe>
<script src="${labUrl}embed.js"></script>
<script>
  window.changes = [];
  window.readyState = null;
  window.figure = AttentionLab.embed(document.getElementById('slot'),
    { state: { text: 'the cat sat', heads: 2, d_model: 8, view: 'heatmaps' }, controls: 'none', lang: 'en', loading: 'eager' });
  figure.on('ready', (s) => { window.readyState = s; }).on('change', (s) => window.changes.push(s));
</script>`);
  await writeFile(join(dir, 'third.html'), `<!doctype html><meta charset="utf-8"><script>
  window.addEventListener('message', (e) => {
    // Asked by the test: post a set() to the lab frame, a sibling of this one.
    for (let i = 0; i < parent.frames.length; ++i)
      if (parent.frames[i] !== window)
        parent.frames[i].postMessage({ attentionLab: 1, type: 'set', id: 99, state: { mask: 'none' } }, '*');
  });
</script>`);
  return dir;
}

async function hostTest(c, page, labUrl) {
  const dir = await hostPages(labUrl);
  const host = await serveDirectory(dir);
  const third = await serveDirectory(dir);
  try {
    await page.goto(host.url + 'host.html');
    await page.evaluate((u) => { document.getElementById('third').src = u; }, third.url + 'third.html');
    await page.waitForFunction(() => window.readyState !== null, null, { timeout: READY_TIMEOUT_MS });
    const ready = await page.evaluate(() => window.readyState);
    c.check(ready.text === 'the cat sat' && ready.heads === 2 && ready.d_model === 8 && ready.controls === 'none',
            'embed(): the figure starts in the state given (ready event)', JSON.stringify(ready));
    const frame = page.frames().find((f) => f.url().startsWith(labUrl));
    const labState = () => frame.evaluate(() => window.attentionLab.get());

    const set = await page.evaluate(() => figure.set({ mask: 'causal', view: 'steps', query: 2 }));
    c.check(set.mask === 'causal' && set.view === 'steps' && set.query === 2, 'set() resolves with the new state',
            JSON.stringify(set));
    const inside = await labState();
    c.check(inside.mask === 'causal' && inside.view === 'steps', 'set() changed the lab itself');
    const got = await page.evaluate(() => figure.get());
    c.check(JSON.stringify(got) === JSON.stringify(inside), 'get() returns the lab\'s state');
    await page.waitForFunction(() => window.changes.some((s) => s.mask === 'causal'), null, { timeout: 10_000 });
    c.check(true, 'a change event reports the new state');

    const rejected = await page.evaluate(() => figure.set({ view: 'heatmaps', d_model: -1 }).then(() => 'resolved', (e) => e.message));
    c.check(rejected.startsWith('d_model: '), 'a bad set() is rejected naming the field', rejected);
    c.check(JSON.stringify(await labState()) === JSON.stringify(inside), '... and changes nothing (not even the good field)');

    // A lone surrogate (half of a UTF-16 pair) in a message's text: refused
    // naming the field and index, not changed into another character.
    const half = await page.evaluate(() => figure.set({ text: 'cat' + String.fromCharCode(0xd83d) })
      .then(() => 'resolved', (e) => e.message));
    c.check(half === 'text: not valid UTF-16: a lone surrogate U+D83D at index 3 (half of a character pair)',
            'a set() message whose text holds a lone surrogate is rejected naming the field and index', half);
    c.check(JSON.stringify(await labState()) === JSON.stringify(inside), '... and changes nothing');

    // Oversized messages: a 1 MB text is refused by the text's own limit; a
    // 65 MiB state by its size, in the page, before it takes wasm memory.
    const oversized = await page.evaluate(async () => {
      const refusal = (state) => figure.set(state).then(() => 'resolved', (e) => e.message);
      return { text: await refusal({ text: 'x'.repeat(1_000_000) }), state: await refusal({ text: 'a '.repeat(65 << 19) }) };
    });
    c.check(oversized.text === 'text: 1000000 bytes; the limit is 65536 (1024 tokens fit in far less)' &&
            oversized.state === 'state: 68157451 bytes; the limit is 64 MiB',
            'oversized set() messages (1 MB of text, a 65 MiB state) are rejected naming the field and size',
            JSON.stringify(oversized));
    c.check(JSON.stringify(await labState()) === JSON.stringify(inside), '... and change nothing');

    // Malformed and foreign messages: ignored with a warning, nothing changes.
    const warnings = [];
    const onConsole = (m) => { if (m.type() === 'warning' && m.text().includes('ignored a message')) warnings.push(m.text()); };
    page.on('console', onConsole);
    await page.evaluate((origin) => {
      const w = figure.iframe.contentWindow;
      w.postMessage('garbage', origin);
      w.postMessage({ attentionLab: 2, type: 'set', state: { mask: 'none' } }, origin);
      w.postMessage({ attentionLab: 1, type: 'set', state: [1, 2] }, origin);
      w.postMessage({ attentionLab: 1, type: 'explode' }, origin);
      w.postMessage({ attentionLab: 1, type: 'set', state: 'mask=none' }, origin);
    }, new URL(labUrl).origin);
    await page.evaluate(() => document.getElementById('third').contentWindow.postMessage('go', '*'));
    await sleep(1500);
    page.off('console', onConsole);
    c.check(warnings.length >= 6, `malformed and third-origin messages are ignored with a console warning (${warnings.length})`,
            warnings.join('\n    '));
    c.check(warnings.some((w) => w.includes('not from the embedding page') || w.includes('is not allowed')),
            'the third origin\'s set() is refused', warnings.join('\n    '));
    c.check(JSON.stringify(await labState()) === JSON.stringify(inside), 'after them the state is unchanged');

    // An allowlist without this page: the lab ignores it (and the URL's ?origin= is no notice).
    await page.evaluate(() => {
      const slot = document.createElement('div');
      document.body.appendChild(slot);
      window.other = AttentionLab.embed(slot, { state: { view: 'stats' }, origins: ['https://elsewhere.example'],
        loading: 'eager', height: 200 });
    });
    let otherFrame = null;
    for (let i = 0; i < 100 && !otherFrame; ++i) {
      otherFrame = page.frames().find((f) => f.url().includes('elsewhere.example')) || null;
      if (!otherFrame) await sleep(100);
    }
    await otherFrame.waitForFunction(() => document.body && document.body.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
    await page.evaluate(() => window.other.iframe.contentWindow.postMessage(
      { attentionLab: 1, type: 'set', id: 1, state: { view: 'steps' } }, '*'));
    await sleep(1000);
    const other = await otherFrame.evaluate(() => ({ fields: window.attentionLab.get(), notices: window.attentionLab.state().notices }));
    c.check(other.fields.view === 'stats' && other.notices.length === 0,
            'with ?origin= naming another site, this page\'s set() is ignored; ?origin= is not reported', JSON.stringify(other));

    // The host opens the why-attention view: the figure loads its experiments' module from the lab's origin.
    const whySet = await page.evaluate(() => figure.set({ view: 'why', why_panel: 'qkv', why_steps: 2 })
      .then((s) => s.view, (e) => e.message));
    await frame.waitForFunction(() => window.attentionLab.state().why.qkv.reported_step === 0, null, { timeout: 60_000 })
      .catch(() => {});  // the check says what the figure held
    const why = await frame.evaluate(() => window.attentionLab.state().why);
    c.check(whySet === 'why' && why.load === 'ready' && why.qkv.report?.previous?.tied,
            'set({view: \'why\'}) from the host opens the why-attention view, its module loaded in the figure',
            JSON.stringify({ whySet, load: why.load, error: why.error }));
  } finally {
    host.server.close();
    third.server.close();
  }
}

// Counts, in every frame of a page, the work its scripts ask for: timer and
// animation-frame callbacks run and messages received. Installed before any
// script of the page runs, so no timer escapes it.
// Also the timeouts set and not yet run or cleared (pending): a page is idle
// only once those have run, however late a loaded machine runs them.
function countWork() {
  const work = { timers: 0, frames: 0, messages: 0 };
  const pending = new Set();
  window.attentionLabWork = work;
  window.attentionLabPendingTimeouts = () => pending.size;
  const wrap = (name, key) => {
    const original = window[name].bind(window);
    window[name] = (callback, ...rest) => {
      if (typeof callback !== 'function') return original(callback, ...rest);
      let id = 0;
      id = original((...args) => {
        work[key]++;
        if (name === 'setTimeout') pending.delete(id);
        return callback(...args);
      }, ...rest);
      if (name === 'setTimeout') pending.add(id);
      return id;
    };
  };
  wrap('setTimeout', 'timers');
  wrap('setInterval', 'timers');
  wrap('requestAnimationFrame', 'frames');
  const clear = window.clearTimeout.bind(window);
  window.clearTimeout = (id) => {
    pending.delete(id);
    return clear(id);
  };
  window.addEventListener('message', () => { work.messages++; }, true);
}
// Each figure's counts, by the id of its iframe (or of the element holding it).
const workOf = (page) => page.evaluate(() => Object.fromEntries(Array.from(document.querySelectorAll('iframe'))
  .map((f) => [f.id || f.parentElement.id, { ...f.contentWindow.attentionLabWork }])));

async function textbookTest(c, page, url) {
  await page.context().addInitScript(countWork);
  await page.goto(url + 'textbook.html');
  // Bring every figure into view once so the lazy iframes load.
  for (const y of [0, 900, 1800, 2700, 100000]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await sleep(300);
  }
  await page.waitForFunction(() => Array.from(document.querySelectorAll('iframe'))
    .every((f) => f.contentDocument && f.contentDocument.body && f.contentDocument.body.dataset.ready === '1'),
  null, { timeout: READY_TIMEOUT_MS });
  c.check(true, 'the three figures load');
  // Until the frames that scrolling asked for are drawn (a figure coming into
  // view or leaving it draws the settle frames after that event, no more),
  // every figure has the rest of its code and its accessible copy (they
  // come after ready: web/main.js), and no timeout it set is still to run.
  const quiet = () => page.waitForFunction(() => Array.from(document.querySelectorAll('iframe'))
    .every((f) => f.contentWindow.attentionLabFrames?.stats().drawing === false &&
                  f.contentWindow.attentionLabPendingTimeouts?.() === 0 &&
                  f.contentDocument.body.dataset.code === 'ready' && f.contentDocument.getElementById('a11y')?.dataset.version),
  null, { timeout: 60_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await quiet();

  // Off-screen figures draw nothing: count each iframe's requestAnimationFrame
  // callbacks (the lab's only way to draw) over 2 s, at the top of the chapter
  // (Figure 4.1 in view) and at its end (Figure 4.3 in view): between the two,
  // every figure is off-screen once. The one in view, idle, draws a handful at most.
  const countFrames = async () => {
    const before = await workOf(page);
    await sleep(2000);
    const after = await workOf(page);
    return Object.fromEntries(Object.keys(after).map((id) => [id, after[id].frames - before[id].frames]));
  };
  const atTop = await countFrames();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await quiet();
  const atEnd = await countFrames();
  await page.evaluate(() => window.scrollTo(0, 0));
  await quiet();
  c.check(atTop['fig42'] === 0 && atTop['fig-mask'] === 0 && atEnd['fig41'] === 0 && atEnd['fig42'] === 0,
          `off-screen figures count 0 requestAnimationFrame callbacks in 2 s (top ${JSON.stringify(atTop)}, end ${JSON.stringify(atEnd)})`);
  // In view, the scroll's IntersectionObserver notice may reach a figure after
  // it went quiet, and wake it once: its settle frames and the one after
  // (web/frames.js), 7 callbacks. An animating figure would draw about 120.
  c.check(atTop['fig41'] <= 7 && atEnd['fig-mask'] <= 7,
          `an idle figure in view draws at most one wake's frames in 2 s (top ${atTop['fig41']}, end ${atEnd['fig-mask']})`);

  // The idle chapter runs none of the lab's code: no timer, no animation
  // frame, no message in any figure, and the browser lays nothing out. These
  // are counts, the same on a loaded machine; the task time beside them is
  // printed for the curious (it grows with the machine's load).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  await sleep(800);  // a wake the last scroll's notice may still bring (above)
  await quiet();
  const [w0, m0] = [await workOf(page), await metric()];
  await sleep(5000);
  const [w1, m1] = [await workOf(page), await metric()];
  const idle = Object.fromEntries(Object.keys(w1).map((id) => [id,
    Object.fromEntries(Object.keys(w1[id]).map((k) => [k, w1[id][k] - w0[id][k]]))]));
  const layouts = m1.LayoutCount - m0.LayoutCount + m1.RecalcStyleCount - m0.RecalcStyleCount;
  console.log(`  idle chapter page with three figures: main-thread task time ${(100 * (m1.TaskDuration - m0.TaskDuration) / 5).toFixed(2)} % ` +
              `of a core (Performance.getMetrics TaskDuration over 5 s)`);
  c.check(Object.values(idle).every((w) => w.timers === 0 && w.frames === 0 && w.messages === 0) && layouts === 0,
          'the idle chapter page runs nothing for 5 s: no timer, animation frame or message in any figure, no layout or style recalculation',
          `${JSON.stringify(idle)}, layouts and style recalculations ${layouts}`);

  // The wheel over a figure scrolls the chapter.
  const box = await page.locator('#fig41').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const y0 = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, 400);
  await sleep(600);
  const y1 = await page.evaluate(() => window.scrollY);
  c.check(y1 > y0 + 100, `the wheel over a figure scrolls the chapter (${y0} -> ${y1})`);

  // Tab goes into the figure and out again.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  const path = [];
  for (let i = 0; i < 6; ++i) {
    await page.keyboard.press('Tab');
    await sleep(150);
    path.push(await page.evaluate(() => {
      const a = document.activeElement;
      return a ? (a.id || a.tagName.toLowerCase() + (a.textContent ? ':' + a.textContent.trim().slice(0, 6) : '')) : 'none';
    }));
  }
  const into = path.indexOf('fig41');
  c.check(into >= 0, 'Tab moves the focus into Figure 4.1', path.join(' > '));
  c.check(into >= 0 && path.slice(into + 1).some((p) => p !== 'fig41'), 'the next Tab moves it out again', path.join(' > '));

  // Esc gives the keyboard back to the chapter.
  await page.focus('.crumb a');  // the element before Figure 4.1
  await page.keyboard.press('Tab');
  await sleep(150);
  const inFigure = await page.evaluate(() => document.activeElement && document.activeElement.id);
  await page.keyboard.press('Escape');
  await sleep(300);
  const afterEsc = await page.evaluate(() => ({ active: document.activeElement && (document.activeElement.id || document.activeElement.tagName),
    focused: document.hasFocus() }));
  c.check(inFigure === 'fig41' && afterEsc.active !== 'fig41' && afterEsc.focused,
          'Esc moves the keyboard focus out of the figure to the chapter', `${inFigure} -> ${JSON.stringify(afterEsc)}`);
}

process.exit(await runBrowserTest({
  name: 'embed_e2e', logName: 'embed', webDir, artefactsDir, viewport: { width: 1000, height: 700 },
  run: async (c, page, url) => {
    await hostTest(c, page, url);
    await textbookTest(c, page, url);
    await page.screenshot({ path: join(artefactsDir, 'textbook.png'), fullPage: true });
  },
}));
