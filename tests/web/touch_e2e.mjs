// Touch, as a phone produces it (CDP Input.dispatchTouchEvent on a touch
// device): a tap on a tab opens it, a tap on a cell selects its query, two
// fingers spreading over a head heatmap zoom it (without selecting a cell),
// one finger dragging a zoomed heatmap pans it, and a drag elsewhere scrolls
// the view. At 390x844 (a phone) and 700x450 (an embedded figure). On the phone,
// with the set-up behind its button, taps train the why-attention view.
// usage: node touch_e2e.mjs <web build dir> <artefacts dir>
import { join } from 'node:path';

import { openLab, runBrowserTest } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const QUERY = '?text=%E6%88%91%E7%88%B1%E8%87%AA%E7%84%B6%E8%AF%AD%E8%A8%80%E5%A4%84%E7%90%86&d_model=16&heads=2&seed=7';

async function touchTest(c, page, url, size) {
  const what = `${size.width}x${size.height}`;
  const lab = await openLab(page, url, QUERY);
  const cdp = await page.context().newCDPSession(page);
  const touch = async (type, points) => {
    await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
    await lab.frames(2);
  };
  const tap = async (p) => {
    await touch('touchStart', [[p.x, p.y]]);
    await touch('touchEnd', []);
    await lab.frames(3);
  };
  const fields = () => page.evaluate(() => window.attentionLab.get());

  // A tap on a tab opens it (tabs, or the combo that replaces them when narrow).
  if ((await lab.layout()).controls.tab_combo) await tap(await lab.controlCentre('tab_combo'));
  await tap(await lab.controlCentre('tab_steps'));
  c.check((await fields()).view === 'steps', `${what}: a tap on the Steps tab opens it`);
  await page.evaluate(() => window.attentionLab.set({ view: 'heatmaps' }));
  await lab.frames(4);

  // A tap on a cell of the head average selects that query.
  let hm = (await lab.layout()).heatmaps.find((h) => h.name === 'average');
  if (c.check(!!hm, `${what}: the head average is on screen`)) {
    await tap(await lab.cellCentre(hm, 5, 2));
    c.check((await fields()).query === 5, `${what}: a tap on a cell selects its query`, JSON.stringify(await fields()));
  }

  // Two fingers spreading over a heatmap zoom it (all share one zoom); one
  // finger then pans it. Head 0, or on a phone, where the heatmaps stack one
  // under another, the head average at the top.
  const zoomTarget = (layout) => layout.heatmaps.find((h) => h.name === 'head0') ?? layout.heatmaps.find((h) => h.name === 'average');
  hm = zoomTarget(await lab.layout());
  if (!c.check(!!hm && hm.zoomable, `${what}: a head heatmap is on screen and zoomable`)) return;
  const o = await lab.canvasOffset();
  const cx = o.left + hm.css_x + hm.css_w / 2, cy = o.top + hm.css_y + hm.css_h / 2;
  await touch('touchStart', [[cx - 10, cy]]);
  await touch('touchStart', [[cx - 10, cy], [cx + 10, cy]]);
  for (let d = 20; d <= 80; d += 10) await touch('touchMove', [[cx - d, cy], [cx + d, cy]]);
  await touch('touchEnd', [[cx - 80, cy]]);
  await touch('touchEnd', []);
  const afterPinch = await fields();
  const zoomed = afterPinch.zoom;
  c.check(afterPinch.query === 5, `${what}: a pinch does not select the cell under its first finger`);
  c.check(zoomed[0] > 2, `${what}: a pinch zooms the head heatmaps (zoom ${zoomed[0].toFixed(2)})`);
  hm = zoomTarget(await lab.layout());
  const px = o.left + hm.css_x + hm.css_w * 0.7, py = o.top + hm.css_y + hm.css_h * 0.7;
  await touch('touchStart', [[px, py]]);
  for (let k = 1; k <= 6; ++k) await touch('touchMove', [[px - 8 * k, py - 8 * k]]);
  await touch('touchEnd', []);
  const panned = (await fields()).zoom;
  c.check(panned[1] > zoomed[1] && panned[2] > zoomed[2],
          `${what}: dragging a zoomed heatmap pans it (${zoomed.join(',')} -> ${panned.join(',')})`);
  await page.screenshot({ path: join(artefactsDir, `touch_${what}.png`) });

  // A drag off the heatmaps and controls scrolls the view under the finger (the lab is the whole page).
  await page.evaluate(() => window.attentionLab.set({ view: 'steps', zoom: [1, 0, 0] }));
  await lab.frames(6);
  const tops = async () => Object.fromEntries((await lab.layout()).heatmaps.map((h) => [h.name, h.css_y]));
  const beforeAll = await tops();
  const first = (await lab.layout()).heatmaps[0];
  // On the row labels left of a heatmap: inside the view, on no control and no cells.
  const x = o.left + first.css_x - 12, y0 = Math.min(o.top + size.height * 0.8, o.top + first.css_y + first.css_h);
  await touch('touchStart', [[x, y0]]);
  for (let k = 1; k <= 3; ++k) await touch('touchMove', [[x, y0 - 20 * k]]);
  await touch('touchEnd', []);
  await lab.frames(3);
  const afterAll = await tops();
  const both = Object.keys(afterAll).filter((name) => name in beforeAll);
  const shift = both.length ? afterAll[both[0]] - beforeAll[both[0]] : 0;
  c.check(shift < -40 && shift > -80, `${what}: a drag off the heatmaps scrolls the view with the finger (60 px: ${both[0]} moved ${shift.toFixed(0)} px)`);
  if (size.width >= 500) return;

  // The why-attention view on the phone, its set-up behind the button (controls=compact):
  // a tap shows the set-up, a tap on Start trains the Q/K/V panel to its last step.
  await page.evaluate(() => window.attentionLab.set({ view: 'why', why_panel: 'qkv', why_steps: 3, controls: 'compact' }));
  const why = () => page.evaluate(() => window.attentionLab.state().why);
  await page.waitForFunction(() => window.attentionLab.state().why.qkv.reported_step === 0, null, { timeout: 60_000 });
  await lab.settled();
  if (!(await lab.layout()).controls.why_start) await tap(await lab.controlCentre('setup_toggle'));
  await tap(await lab.controlCentre('why_start'));
  await page.waitForFunction(() => window.attentionLab.state().why.qkv.finished, null, { timeout: 60_000 });
  const trained = await why();
  c.check(trained.qkv.step === 3 && trained.qkv.report.previous?.separate, `${what}: on the phone, taps open the set-up and Start trains the Q/K/V panel`,
          JSON.stringify({ step: trained.qkv.step, error: trained.qkv.error }));
  await page.screenshot({ path: join(artefactsDir, `touch_${what}_why.png`) });
}

let failures = 0;
for (const size of [{ width: 390, height: 844 }, { width: 700, height: 450 }]) {
  failures += await runBrowserTest({
    name: `touch_e2e ${size.width}x${size.height}`, logName: `touch_${size.width}x${size.height}`, webDir, artefactsDir,
    viewport: size, contextOptions: { hasTouch: true, isMobile: size.width < 500 },
    run: (c, page, url) => touchTest(c, page, url, size),
  });
}
process.exit(failures ? 1 : 0);
