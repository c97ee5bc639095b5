// The URL is the state: 16 states, set through attentionLab.set() on one
// page, come back from the address bar (history.replaceState) and load in a
// fresh page with identical compute(currentConfig()) numbers, the same state
// fields and identical heatmap pixels. The states are a covering design, not
// a random draw: every value of every field below appears in at least one
// state (checked), in combinations a seeded shuffle varies. "Copy link" (a
// real click) puts that URL on the clipboard. Bad URL values show a notice
// and are named.
// usage: node url_e2e.mjs <web build dir> <artefacts dir>
import { PNG } from 'pngjs';

import { Lab, READY_TIMEOUT_MS, asObject, runBrowserTest } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// A small deterministic generator (mulberry32), so a failure names a state that can be reproduced.
function rng(seed) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const ROUNDS = 16;
// Each field's values; 'custom' masks get their cells once the token count is known.
const FIELDS = {
  text: ['The cat sat on the mat', '我爱自然语言处理', 'a b c d e f', '猫坐在垫子上。It sat.', 'x & y = z?'],
  d_model: [8, 16, 32], heads: [1, 2, 4], projection: ['random', 'identity'], positions: [false, true],
  temperature: [1, 0.5, 2.5], scale: ['sqrt', 'none', 0.25],
  view: [],  // every view but the debug view, from the app's own table (state().views), once the page is up
  head: [-1, 0], query: [0, 1, 2],
  theme: ['light', 'dark'], lang: ['en', 'zh'], panel: ['fig42', 'saturation', 'training'], dk: [1, 64, 512],
  mask: ['none', 'causal', 'pad', 'custom'],
};
// Round i takes value (i + offset) mod n of each field's shuffled list: every
// value is used within the first n rounds, and the offsets mix the combinations.
function coveringStates(r) {
  const states = Array.from({ length: ROUNDS }, () => ({ seed: Math.floor(r() * 1e6) }));
  for (const [field, values] of Object.entries(FIELDS)) {
    const order = [...values].sort(() => r() - 0.5);
    const offset = Math.floor(r() * order.length);
    states.forEach((s, i) => { s[field] = order[(i + offset) % order.length]; });
  }
  for (const s of states) if (s.mask === 'pad') s.mask = { pad: 1 + Math.floor(r() * 3) };
  return states;
}

// The learned-heads view loads its model when opened: its heatmaps are awaited.
function poemSettled(page) {
  return page.waitForFunction(() => {
    const s = window.attentionLab.state();
    return s.view !== 'poem' || s.poem.load === 'failed' ||
           (s.poem.load === 'ready' && window.attentionLab.layout().heatmaps.length > 0);
  }, null, { timeout: 60_000 });
}

async function ready(page) {
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  await poemSettled(page);
}

// The query the lab last handed web/main.js for the address bar (main.js
// writes it there 250 ms after the last change), kept as
// window.urlE2eToldQuery: the lab's factory is wrapped as attention_web.js
// defines it, and the options main.js passes it (the module) get a
// stateChanged that notes the query and calls main.js's own. Nothing else changes.
function noteToldQueries() {
  let factory;
  Object.defineProperty(window, 'createAttentionLab', {
    configurable: true,
    get: () => factory,
    set(create) {
      factory = function (options) {
        const told = options?.attnStateChanged;
        if (typeof told === 'function') {
          options.attnStateChanged = (query) => {
            window.urlE2eToldQuery = query;
            return told(query);
          };
        }
        return create.apply(this, arguments);
      };
    },
  });
}

// The address bar holds the last query the lab published: no change waits in
// main.js's 250 ms debounce. (urlE2eToldQuery is undefined until the first
// change; url_e2e's states always change something.)
function addressCaughtUp(page) {
  return page.waitForFunction(() => {
    const told = window.urlE2eToldQuery;
    return told !== undefined && location.search === (told ? new URL('?' + told, location.href).search : '');
  }, null, { timeout: 20_000 });
}

// The heatmaps' pixels of a page (crops of one screenshot), for comparison.
// The page is brought to the front first: a tab behind the other one draws
// its frames throttled, and its screenshot took 3.2-4.1 s instead of 0.4.
// A page brought to the front draws again and may lay out anew over its
// next frames, so the layout is awaited until two reads agree.
async function heatmapPixels(lab) {
  await lab.page.bringToFront();
  // Everything asked for drawn: a view whose numbers come from a worker (the
  // why view's report) shows them only once the worker has answered.
  await lab.settled();
  let layout = null, text = '';
  for (let i = 0; i < 10; ++i) {
    await lab.frames(2);
    layout = await lab.layout();
    const now = JSON.stringify(layout);
    if (now === text) break;
    text = now;
  }
  const png = await lab.screenshot();
  return layout.heatmaps.map((hm) => {
    const out = [];
    for (let y = Math.round(hm.css_y); y < Math.round(hm.css_y + hm.css_h); y += 2)
      for (let x = Math.round(hm.css_x); x < Math.round(hm.css_x + hm.css_w); x += 2) {
        const i = (y * png.width + x) * 4;
        out.push(png.data[i], png.data[i + 1], png.data[i + 2]);
      }
    return `${hm.name}:${hm.css_x},${hm.css_y},${hm.css_w},${hm.css_h}:` + Buffer.from(out).toString('base64');
  });
}

process.exit(await runBrowserTest({
  name: 'url_e2e', logName: 'url', webDir, artefactsDir, viewport: { width: 1100, height: 760 },
  run: async (c, page, url) => {
    await page.context().addInitScript(noteToldQueries);
    await page.goto(url);
    await ready(page);
    const lab = new Lab(page);
    FIELDS.view = (await lab.state()).views.filter((v) => v.always).map((v) => v.id);
    const fresh = await page.context().newPage();
    const freshLab = new Lab(fresh);
    const states = coveringStates(rng(20261130));
    const seen = Object.fromEntries(Object.keys(FIELDS).map((f) => [f, new Set()]));
    let mismatches = 0, pixelMismatches = 0, rounds = 0;
    for (const [i, state] of states.entries()) {
      for (const f of Object.keys(FIELDS)) seen[f].add(typeof state[f] === 'object' ? 'pad' : state[f]);
      if (state.mask === 'custom') {
        await page.evaluate((t) => window.attentionLab.set({ text: t, mask: 'none' }), state.text);
        const n = (await lab.state()).tokens.length;
        state.mask = Array.from({ length: n }, (_, q) => Array.from({ length: n }, (_, k) => ((q * 7 + k * 3 + i) % 3 ? 1 : 0)));
      }
      // The page worked on is in front: a page behind the other draws late
      // (a fresh page loaded behind took 6 s instead of 1.4 s to draw).
      await page.bringToFront();
      const before = await page.evaluate(() => location.href);
      const error = await page.evaluate((s) => window.attentionLab.set(s), state);
      if (error !== '') {
        c.check(false, `state ${i} is accepted by set()`, `${error}\n    ${JSON.stringify(state)}`);
        continue;
      }
      await lab.frames(3);
      // The address bar follows 250 ms after the last change, from a frame:
      // after a slow state (the scaling lab at d_k 512) the next frame can be
      // late. Every state differs from the one before (its seed), so wait for
      // the change, then (the poem view loading its model) until it shows the
      // last query the lab published: none is still pending.
      await page.waitForFunction((b) => location.href !== b, before, { timeout: 20_000 });
      await poemSettled(page);
      await lab.frames(2);
      await addressCaughtUp(page);
      const address = page.url();
      const fields = asObject(await page.evaluate(() => window.attentionLab.get()));
      const numbers = JSON.stringify(await lab.compute(await lab.config()));
      const pixels = await heatmapPixels(lab);
      await fresh.bringToFront();
      await fresh.goto(address);
      await ready(fresh);
      const freshFields = asObject(await fresh.evaluate(() => window.attentionLab.get()));
      const freshNumbers = JSON.stringify(await freshLab.compute(await freshLab.config()));
      const freshPixels = await heatmapPixels(freshLab);
      if (JSON.stringify(freshFields) !== JSON.stringify(fields) || freshNumbers !== numbers) {
        ++mismatches;
        console.log(`  state ${i}: ${address}\n    ${JSON.stringify(fields)}\n    ${JSON.stringify(freshFields)}`);
      }
      if (JSON.stringify(freshPixels) !== JSON.stringify(pixels)) {
        ++pixelMismatches;
        console.log(`  state ${i}: heatmap pixels differ after loading ${address}`);
      }
      ++rounds;
    }
    const uncovered = Object.entries(FIELDS).flatMap(([f, values]) =>
      values.filter((v) => !seen[f].has(v)).map((v) => `${f}=${JSON.stringify(v)}`));
    c.check(uncovered.length === 0, `the ${ROUNDS} states use every value of every field (${Object.keys(FIELDS).length} fields)`,
            uncovered.join(', '));
    c.check(rounds === ROUNDS && mismatches === 0,
            `${ROUNDS} states -> URL -> fresh page: the same fields and compute() numbers (${mismatches} differ)`);
    c.check(rounds === ROUNDS && pixelMismatches === 0, `... and the same heatmap pixels (${pixelMismatches} differ)`);
    await fresh.close();

    // "Copy link": a real click copies the URL of this state.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
    await page.evaluate(() => window.attentionLab.set({ text: '我爱自然语言处理', heads: 2, d_model: 16, mask: 'causal', seed: 7, view: 'heatmaps', theme: 'light' }));
    await lab.frames(3);
    const held = await page.evaluate(() => navigator.clipboard.readText());
    await lab.click('copy_link');
    // Until the clipboard holds something else (the copy is asynchronous), for at most 5 s.
    await page.waitForFunction(async (h) => (await navigator.clipboard.readText()) !== h, held,
                               { timeout: 5_000, polling: 50 }).catch(() => {});
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    c.check(copied === page.url() && copied.includes('mask=causal') && copied.includes('seed=7'),
            '"Copy link" copies the URL of the state', `${copied}\n    ${page.url()}`);
    c.check((await lab.state()).notices.length === 0, 'a good state shows no notices');

    // Up/Down move the selected query once the reader clicked a heatmap cell.
    // Each key's effect is awaited in the lab's state. The page records how
    // long it saw each key down: the driver sends a tap's down and up
    // together, but on a busy machine it delivered the up 300+ ms later (once
    // in CI), past ImGui's 275 ms key-repeat delay, and ImGui rightly repeats
    // a key held that long. That is a limit of the environment, not a tap, so
    // such a try is retaken (at most 3 tries, each printed as a [retake] line).
    const KEY_REPEAT_DELAY_MS = 275;
    await page.evaluate(() => {
      window.keyHolds = [];
      const down = {};
      addEventListener('keydown', (e) => { down[e.key] ??= performance.now(); }, true);
      addEventListener('keyup', (e) => { window.keyHolds.push(performance.now() - down[e.key]); delete down[e.key]; }, true);
    });
    // The selected query once it is `want`, or once the page saw a key held
    // past the repeat delay (a try that is retaken), for at most 10 s.
    const awaitQuery = async (want) => {
      await page.waitForFunction(([w, limit]) => window.attentionLab.state().selected_query === w ||
                                   window.keyHolds.some((ms) => ms >= limit), [want, KEY_REPEAT_DELAY_MS],
                                 { timeout: 10_000, polling: 50 }).catch(() => {});
      return (await lab.state()).selected_query;
    };
    let clicked, down, up, holds;
    for (let attempt = 1; attempt <= 3; ++attempt) {
      await page.evaluate(() => { window.attentionLab.set({ view: 'heatmaps', query: 0 }); window.keyHolds = []; });
      await page.waitForFunction(() => window.attentionLab.state().selected_query === 0, null, { timeout: 10_000, polling: 50 });
      const average = (await lab.layout()).heatmaps.find((h) => h.name === 'average');
      await lab.clickAt(await lab.cellCentre(average, 3, 1));
      clicked = await awaitQuery(3);
      await lab.chord('ArrowDown');
      down = await awaitQuery(4);
      await lab.chord('ArrowUp');
      await awaitQuery(3);
      await lab.chord('ArrowUp');
      up = await awaitQuery(2);
      holds = await page.evaluate(() => window.keyHolds.map(Math.round));
      if (holds.every((ms) => ms < KEY_REPEAT_DELAY_MS) || attempt === 3) break;
      console.log(`[retake] url_e2e Up/Down keys: driver held a key ${Math.max(...holds)} ms (> key-repeat ${KEY_REPEAT_DELAY_MS} ms), ` +
                  `an environmental limit (holds ${holds.join(', ')} ms)`);
    }
    c.check(clicked === 3 && down === 4 && up === 2, `Up/Down move the selected query (${clicked} -> ${down} -> ${up}; ` +
            `held ${holds.join(', ')} ms in the page)`);

    // Without ?theme= the lab follows the reader's colour scheme.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(url);
    await ready(page);
    const dark = (await page.evaluate(() => window.attentionLab.get())).theme;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(url);
    await ready(page);
    const light = (await page.evaluate(() => window.attentionLab.get())).theme;
    c.check(dark === 'dark' && light === 'light', `the theme follows prefers-color-scheme (${dark}, ${light})`);

    // A hidden page (another browser tab) draws nothing, even when events arrive.
    const hide = (hidden) => page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { value: h, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
    await hide(true);
    const hiddenFrames = (await lab.state()).frames;
    await page.mouse.move(300, 300);
    await page.mouse.move(320, 310);
    await sleep(500);
    const stillHidden = (await lab.state()).frames;
    await hide(false);
    // Until it draws again, for at most 5 s.
    await page.waitForFunction((n) => window.attentionLab.state().frames > n, stillHidden,
                               { timeout: 5_000 }).catch(() => {});
    const shownAgain = (await lab.state()).frames;
    c.check(stillHidden === hiddenFrames && shownAgain > stillHidden,
            `a hidden page draws no frames, and draws again when shown (${hiddenFrames}, ${stillHidden}, ${shownAgain})`);

    // Bad URL values: a notice names each, the rest applies.
    await page.goto(url + '?view=nonsense&preset=zzz&dk=-5&heads=2');
    await ready(page);
    const notices = (await lab.state()).notices;
    c.check(notices.length === 3 && notices.some((n) => n.startsWith('view: "nonsense"') && n.includes('using "heatmaps"')) &&
            notices.some((n) => n === 'dk: -5 is outside 1..1024; using 1') && notices.some((n) => n.startsWith('preset: \'zzz\'')),
            'bad URL values are named in notices, with what was used instead', notices.join('\n    '));
    c.check((await page.evaluate(() => window.attentionLab.get())).heads === 2, '... and the good ones apply');
    await page.screenshot({ path: `${artefactsDir}/url_notices.png` });
    // Percent-escapes that are not UTF-8 (a stray byte, a surrogate's UTF-8
    // form): refused with a notice naming the byte, not turned into U+FFFD.
    await page.goto(url + '?text=ab%FFcd&heads=2&query=%ED%A0%80');
    await ready(page);
    const bytes = await lab.state();
    c.check(bytes.notices.includes('text: the URL\'s value is not valid UTF-8: byte 2 (0xFF) does not start or ' +
                                   'continue a character; ignored') &&
            bytes.notices.includes('query: the URL\'s value is not valid UTF-8: byte 0 (0xED) does not start or ' +
                                   'continue a character; ignored') &&
            bytes.config.text !== 'ab\ufffdcd' && bytes.config.heads === 2,
            'URL values that are not UTF-8 are named in notices and ignored; the good ones apply',
            JSON.stringify({ notices: bytes.notices, text: bytes.config.text, heads: bytes.config.heads }));
    await page.goto(url + '?view=nonsense&preset=zzz&dk=-5&heads=2');
    await ready(page);
    await lab.frames(3);  // the notices' buttons are laid out over the first frames
    await lab.click('notice_close_0');
    c.check((await lab.state()).notices.length === 2, 'a notice is dismissed by its button');
  },
}));
