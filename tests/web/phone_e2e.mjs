// A phone is a first-class screen: every view at 360x800, 390x844 and 430x932
// upright and 844x390 on its side (touch, device scale 2, in Chinese, light
// and dark theme in turn), checked from layout()'s rectangles by the rules of
// phone_layout.mjs: no section over another, no text cut at an edge, panels
// as tall as their content, heatmap cells of at least 24 CSS px (also for a
// sentence of twelve tokens at 360x800). At 390x844 every view is also
// screenshotted (artifacts/web/phone_390x844_<theme>_<view>.png, for a person
// to look at) and its heatmaps' pixels checked against compute(). Then touch
// as on a phone page: one finger scrolls the stacked heatmaps, a tap on a cell
// selects it, a drag in a long text box scrolls the box.
// usage: node phone_e2e.mjs <web build dir> <artefacts dir>
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { asObject, checkPixels, openLab, pngFile, runBrowserTest } from './lab.mjs';
import { ALL_VIEWS, PHONE_SIZES, phoneLayoutProblems } from './phone_layout.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const named = (size) => `${size.width}x${size.height}`;
const SHOTS = '390x844';

async function eachView(c, page, url, size) {
  const what = named(size);
  await page.setViewportSize(size);
  const lab = await openLab(page, url, `?lang=zh&debug=1&view=${ALL_VIEWS[0]}`);
  for (const [i, view] of ALL_VIEWS.entries()) {
    // Every other view in the dark theme (offset by size): each view is seen in both.
    const theme = (i + PHONE_SIZES.indexOf(size)) % 2 ? 'dark' : 'light';
    const name = `${what} ${theme} ${view}`;
    const error = await page.evaluate((fields) => window.attentionLab.set(fields), { view, theme });
    c.check(error === '', `${name}: set({view}) is accepted`, error);
    await lab.settled();
    let layout;
    if (what === SHOTS) {
      const checked = await checkPixels(c, lab, name, null, 'css');
      layout = checked.layout;
      await writeFile(join(artefactsDir, `phone_${what}_${theme}_${view}.png`), pngFile(checked.png));
    } else {
      layout = await lab.layout();
    }
    c.check(layout.view === view && layout.sections.length > 1 && layout.texts.length > 0,
            `${name}: layout() lists the view's sections and text runs`,
            `${layout.view}, ${layout.sections.length} sections, ${layout.texts.length} runs`);
    const problems = phoneLayoutProblems(layout, size);
    c.check(problems.length === 0, `${name}: nothing overlaps, nothing is cut, panels fit their content, cells >= 24 px`,
            problems.slice(0, 8).join('\n    '));
  }
  return lab;
}

// The narrowest phone with the longest sentence the cell rule covers: twelve
// tokens still get cells of 24 CSS px in every view that draws them.
const TWELVE = '我爱自然语言处理和注意力';
async function twelveTokens(c, page, lab, size) {
  for (const view of ['heatmaps', 'steps', 'filter']) {
    const error = await page.evaluate((fields) => window.attentionLab.set(fields), { view, text: TWELVE, theme: 'light' });
    c.check(error === '', `${named(size)} ${view} with 12 tokens: set() is accepted`, error);
    await lab.settled();
    const layout = await lab.layout();
    const problems = phoneLayoutProblems(layout, size);
    c.check(layout.heatmaps.length > 0 && layout.heatmaps.every((h) => h.rows === 12 || h.cols === 12) && problems.length === 0,
            `${named(size)} ${view} with 12 tokens: cells >= 24 px, nothing overlaps, nothing is cut`,
            problems.slice(0, 6).join('\n    ') || layout.heatmaps.map((h) => `${h.name} ${h.rows}x${h.cols}`).join(' '));
  }
}

// One finger on the stacked heatmaps (not on a cell) scrolls the view; a tap
// on a cell of a heatmap scrolled into sight selects its query.
async function touch(c, page, lab) {
  const cdp = await page.context().newCDPSession(page);
  const send = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
  await page.evaluate(() => window.attentionLab.set({ view: 'heatmaps', theme: 'light' }));
  await lab.settled();
  const before = await lab.layout();
  const first = before.heatmaps.find((h) => h.name === 'average');
  const x = first.css_x - 12, y0 = first.css_y + first.css_h * 0.9;  // on the query labels, left of the cells
  await send('touchStart', [[x, y0]]);
  for (let k = 1; k <= 8; ++k) await send('touchMove', [[x, y0 - 40 * k]]);
  await send('touchEnd', []);
  await lab.settled();
  const after = await lab.layout();
  const moved = after.heatmaps.find((h) => h.name === 'average');
  c.check(!moved || moved.css_y < first.css_y - 100, 'a one-finger drag beside the heatmaps scrolls the view up',
          `average at ${first.css_y} then ${moved?.css_y}`);
  const head = after.heatmaps.find((h) => h.name.startsWith('head'));
  if (!c.check(head, 'a head heatmap is on screen after the scroll', after.heatmaps.map((h) => h.name).join(' '))) return;
  const p = { x: head.css_x + head.css_w * (2.5 / head.cols), y: head.css_y + head.css_h * (3.5 / head.rows) };
  await send('touchStart', [[p.x, p.y]]);
  await send('touchEnd', []);
  await lab.settled();
  const state = await lab.state();
  c.check(state.selected_query === 3 && state.selected_head === Number(head.name.slice(4)),
          `a tap on cell (3, 2) of ${head.name} selects query 3 of that head`, `query ${state.selected_query}, head ${state.selected_head}`);
}

// A poem of many lines in the learned-heads view's text box: one finger
// dragged up inside the box scrolls the box (not the text's selection, not
// the view), and the text stays as it was.
async function textBox(c, page, url) {
  const lines = Array.from({ length: 16 }, (_, i) => `第${i + 1}行床前明月光`).join('\n');
  const lab = await openLab(page, url, `?lang=zh&view=poem&poem=-1&poem_text=${encodeURIComponent(lines)}`);
  const cdp = await page.context().newCDPSession(page);
  const send = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
  const setup = await lab.controlCentre('setup_toggle');
  await send('touchStart', [[setup.x, setup.y]]);
  await send('touchEnd', []);
  await lab.settled();
  const box = (await lab.layout()).controls.poem_text;
  if (!c.check(box, 'the set-up button opens the set-up with the poem text box')) return;
  const boxSection = async () => (await lab.layout()).sections.find((s) => s.name.includes('poem_text'));
  const before = await boxSection();
  const x = box.css_x + box.css_w / 2, y = box.css_y + box.css_h - 8;
  await send('touchStart', [[x, y]]);
  for (let k = 1; k <= 6; ++k) await send('touchMove', [[x, y - 10 * k]]);
  await send('touchEnd', []);
  await lab.settled();
  const after = await boxSection();
  const text = asObject(await page.evaluate(() => window.attentionLab.get())).poem_text;
  c.check(before?.scroll_y && before.scroll_top === 0 && after.scroll_top > 0 && text === lines,
          'one finger dragged up in the poem text box scrolls it, and the text stays',
          `scroll ${before?.scroll_top} then ${after?.scroll_top}, text ${text === lines ? 'kept' : JSON.stringify(text)}`);
}

process.exitCode = await runBrowserTest({
  name: 'phone_e2e', logName: 'phone', webDir, artefactsDir, viewport: PHONE_SIZES[0], locale: 'zh-CN',
  contextOptions: { hasTouch: true, isMobile: true, deviceScaleFactor: 2 },
  run: async (c, page, url) => {
    let lab;
    for (const size of PHONE_SIZES) {
      lab = await eachView(c, page, url, size);
      if (size === PHONE_SIZES[0]) await twelveTokens(c, page, lab, size);
      if (named(size) === SHOTS) {
        await touch(c, page, lab);
        await textBox(c, page, url);
      }
    }
  },
});
