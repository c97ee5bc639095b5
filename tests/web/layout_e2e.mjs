// Embed modes and the layout that adapts, in the browser with real input
// (mouse clicks and touch taps):
//
//   node tests/web/layout_e2e.mjs <web build dir> <artefacts dir>
//
//  1. ?controls=compact at 700x450: the set-up panel is hidden behind the
//     set-up button; a mouse click opens it beside the view (nothing of the
//     view under it), a second click closes it.
//  2. ?controls=compact on a phone (390x844): a touch tap on the button puts
//     the set-up in the view's place, a second tap brings the view back.
//  3. ?controls=full: the panel beside the view at 1280x800, hidden and shown
//     again by the button; at 390x844 the tabs are a combo box (tapped: its
//     popup lists the views under their tab names) and back at 1280x800 the
//     tab bar opens the view the combo chose.
//  4. ?controls=none at 320x240 and 700x450: only the figure (no set-up panel,
//     button, tabs or language button), its heatmap pixels equal compute()'s.
//  5. A view taller than a phone (the steps, stacked) scrolls by touch: a
//     finger dragged along its scrollbar moves the heatmaps up.
// Screenshots: artifacts/web/layout_*.png.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { checkPixels, openLab, runBrowserTest, pngFile } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node layout_e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}

const overlap = (a, b) => a.css_x < b.css_x + b.css_w - 0.5 && b.css_x < a.css_x + a.css_w - 0.5 &&
                          a.css_y < b.css_y + b.css_h - 0.5 && b.css_y < a.css_y + a.css_h - 0.5;

async function open(page, url, query, size) {
  await page.setViewportSize(size);
  return openLab(page, url, query, 6);
}

async function shot(lab, name) {
  await writeFile(join(artefactsDir, `layout_${name}.png`), pngFile(await lab.screenshot()));
}

// A finger on the control's centre: touchstart, a few frames, touchend (the
// page turns taps into the lab's clicks, web/frames.js).
async function tap(lab, cdp, name) {
  const p = await lab.controlCentre(name);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: p.x, y: p.y }] });
  await lab.frames(3);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await lab.frames(6);
}

// A finger dragged from the control's centre by (dx, dy) over a few frames.
async function touchDrag(lab, cdp, name, dx, dy) {
  const p = await lab.controlCentre(name);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: p.x, y: p.y }] });
  await lab.frames(2);
  for (let i = 1; i <= 5; ++i) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove',
                                                 touchPoints: [{ x: p.x + dx * i / 5, y: p.y + dy * i / 5 }] });
    await lab.frames(2);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await lab.frames(4);
}

// The set-up panel is shown (or not) and nothing of the view lies under it.
async function setupShown(c, lab, what, shown) {
  const layout = await lab.layout();
  const panel = layout.controls.setup_panel;
  if (!c.check(!!panel === shown, `${what}: the set-up panel is ${shown ? 'shown' : 'hidden'}`,
               Object.keys(layout.controls).join(' '))) return layout;
  if (panel) {
    const under = layout.heatmaps.filter((hm) => overlap(hm, panel)).map((hm) => hm.name);
    c.check(under.length === 0, `${what}: no heatmap lies under the set-up panel`, under.join(' '));
    c.check('sentence' in layout.controls, `${what}: the panel holds the set-up (the sentence box)`);
  }
  return layout;
}

async function run(c, page, url) {
  const cdp = await page.context().newCDPSession(page);

  // 1. compact, 700x450, mouse.
  let lab = await open(page, url, '?controls=compact', { width: 700, height: 450 });
  let layout = await setupShown(c, lab, 'compact 700x450', false);
  c.check('setup_toggle' in layout.controls && layout.heatmaps.length > 0,
          'compact 700x450: the set-up button and the heatmaps are on screen');
  await shot(lab, 'compact_700x450');
  await lab.click('setup_toggle');
  layout = await setupShown(c, lab, 'compact 700x450 after a click on the set-up button', true);
  const panel = layout.controls.setup_panel, area = layout.controls.view_area;
  c.check(!!area && panel && panel.css_x + panel.css_w <= area.css_x + 0.5,
          'compact 700x450: the set-up panel opens beside the view (left of it)', JSON.stringify({ panel, area }));
  await shot(lab, 'compact_700x450_open');
  await checkPixels(c, lab, 'compact 700x450 with the set-up open');
  await lab.click('setup_toggle');
  await setupShown(c, lab, 'compact 700x450 after a second click', false);

  // 2. compact on a phone, touch.
  lab = await open(page, url, '?controls=compact', { width: 390, height: 844 });
  await setupShown(c, lab, 'compact 390x844', false);
  await tap(lab, cdp, 'setup_toggle');
  layout = await setupShown(c, lab, 'compact 390x844 after a tap on the set-up button', true);
  c.check(layout.heatmaps.length === 0 && layout.controls.setup_panel.css_w >= 390 * 0.9,
          'compact 390x844: the set-up takes the view\'s place (full width, no heatmap under it)',
          JSON.stringify(layout.controls.setup_panel));
  await shot(lab, 'compact_390x844_open');
  await tap(lab, cdp, 'setup_toggle');
  layout = await setupShown(c, lab, 'compact 390x844 after a second tap', false);
  c.check(layout.heatmaps.length > 0, 'compact 390x844: the view is back');
  await checkPixels(c, lab, 'compact 390x844');

  // 3. full: the panel by default when wide, the button hides it; tabs become a combo on a phone.
  lab = await open(page, url, '?controls=full', { width: 1280, height: 800 });
  layout = await setupShown(c, lab, 'full 1280x800', true);
  c.check('tab_focus' in layout.controls && !('tab_combo' in layout.controls), 'full 1280x800: the views are tabs');
  await lab.click('setup_toggle');
  await setupShown(c, lab, 'full 1280x800 after a click on the set-up button', false);
  await lab.click('setup_toggle');
  await setupShown(c, lab, 'full 1280x800 after a second click', true);
  await page.setViewportSize({ width: 390, height: 844 });
  await lab.frames(8);
  layout = await setupShown(c, lab, 'full 390x844', false);
  c.check('tab_combo' in layout.controls && !('tab_focus' in layout.controls),
          'full 390x844: the views are a combo box, not squeezed tabs', Object.keys(layout.controls).join(' '));
  await shot(lab, 'full_390x844');
  await tap(lab, cdp, 'tab_combo');
  layout = await lab.layout();
  c.check('tab_steps' in layout.controls, 'full 390x844: the open combo lists the views under their tab names',
          Object.keys(layout.controls).join(' '));
  await tap(lab, cdp, 'tab_steps');
  let state = await lab.state();
  c.check(state.view === 'steps', 'full 390x844: tapping "Steps" in the combo opens the steps view', state.view);
  await shot(lab, 'full_390x844_steps');
  await page.setViewportSize({ width: 1280, height: 800 });
  await lab.frames(8);
  layout = await lab.layout();
  state = await lab.state();
  c.check(state.view === 'steps' && layout.view === 'steps' && 'tab_steps' in layout.controls &&
          layout.heatmaps.some((hm) => hm.name.startsWith('steps_')),
          'full 1280x800 again: the tab bar shows the view the combo chose', `${state.view} ${layout.view}`);
  await lab.click('tab_heatmaps');
  state = await lab.state();
  c.check(state.view === 'heatmaps', 'full 1280x800: a click on a tab still opens its view', state.view);

  // 4. none: only the figure.
  for (const size of [{ width: 320, height: 240 }, { width: 700, height: 450 }]) {
    for (const view of ['heatmaps', 'chapter']) {
      const what = `none ${view} ${size.width}x${size.height}`;
      lab = await open(page, url, `?controls=none&view=${view}`, size);
      layout = await lab.layout();
      const names = Object.keys(layout.controls);
      c.check(!names.some((n) => /^(setup_panel|setup_toggle|tab_.*|language|export|copy_link)$/.test(n)),
              `${what}: only the figure (no set-up, no tabs, no bar buttons)`, names.join(' '));
      c.check(layout.heatmaps.length > 0, `${what}: a heatmap is wholly on screen`);
      await shot(lab, `none_${view}_${size.width}x${size.height}`);
      await checkPixels(c, lab, what);
    }
  }
}

async function scrollByTouch(c, page, url, cdp) {
  const lab = await open(page, url, '?controls=none&view=steps', { width: 390, height: 844 });
  const before = await lab.layout();
  if (!c.check('view_scrollbar' in before.controls, 'none steps 390x844: the stacked steps get a scrollbar',
               Object.keys(before.controls).join(' '))) return;
  await touchDrag(lab, cdp, 'view_scrollbar', 0, 150);
  const after = await lab.layout();
  const top = (layout) => Math.min(...layout.heatmaps.map((hm) => hm.css_y));
  const names = (layout) => layout.heatmaps.map((hm) => hm.name).join(' ');
  c.check(names(after) !== names(before) || top(after) < top(before),
          'none steps 390x844: dragging the scrollbar with a finger scrolls the view',
          `${names(before)} -> ${names(after)}`);
  await shot(lab, 'none_steps_390x844_scrolled');
}

async function runAll(c, page, url) {
  await run(c, page, url);
  await scrollByTouch(c, page, url, await page.context().newCDPSession(page));
}

process.exitCode = await runBrowserTest({ name: 'layout_e2e', logName: 'layout_e2e', webDir, artefactsDir,
                                          viewport: { width: 700, height: 450 }, run: runAll });
