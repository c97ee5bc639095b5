// Layout test: every view fills the window at small and large sizes in each
// controls mode (?controls= / --controls), nothing cut off or overlapping.
//
//   node tests/desktop/layout.mjs <attention_app> <attention_cli> <artefacts dir>
//
// Runs `attention_app --size WxH --view V --controls M --layout out.json
// --screenshot out.png` on an X server of its own (Xvfb) for every view (the scaling lab on each of
// its panels) at 320x240 and 700x450 in full, compact and none mode, plus
// the phone (390x844) and a large screen (1920x1080) and the Chinese
// interface, and checks from the layout JSON and the PNG that
//   - every heatmap's cells lie inside the window, each cell at least one
//     framebuffer pixel (all cells equal), their colours those of compute()'s
//     numbers, and a colour bar beside them (its top the colormap's high end,
//     its bottom the low end);
//   - no control overlaps a heatmap's cells, the bar's controls (set-up
//     button, tabs or the tab combo, Export, Copy link, language) lie inside
//     the window and do not overlap each other;
//   - tabs, when shown as tabs, have their full width (as on 1920x1080): too
//     little room shows the combo instead of squeezed labels;
//   - none mode has no set-up panel, no set-up button, no tabs; compact mode
//     has the button and no panel; full mode has the panel beside the view
//     when the window is wide and behind the button when it is narrow.
// (Clicking the set-up button is tests/web/layout_e2e.mjs: it needs input.)
//
// The apps run LAUNCHES at a time on one X server: each is one process that
// waits on its GL driver and its files part of the time, and this test was
// its tree's longest (80 launches one by one: 108 s native, 235 s under
// ASan in a CI run), with a core idle.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { PNG } from 'pngjs';

import { startXvfb } from '../web/engines/processes.mjs';
import { Checks, checkHeatmaps, colormapColor, pixelAt } from '../web/pixels.mjs';
import { attendConfig, forEachLaunch, launch } from './launches.mjs';

const [app, cli, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!app || !cli || !artefactsDir) {
  console.error('usage: node layout.mjs <attention_app> <attention_cli> <artefacts dir>');
  process.exit(2);
}
// [name, flags]: every view but the debug view, from the app's own table;
// the scaling lab once per panel.
const SCALING_PANELS = [['fig42', ['--frames', '20']], ['saturation', ['--frames', '20']],
  ['training', ['--train-steps', '60', '--frames', '20']]];
const VIEWS = JSON.parse(spawnSync(app, ['--views'], { encoding: 'utf8' }).stdout).filter((v) => v.always)
  .flatMap((v) => (v.source === 'scaling'
    ? SCALING_PANELS.map(([panel, flags]) => [panel, ['--view', v.id, '--panel', panel, ...flags]])
    : [[v.id, ['--view', v.id]]]));
const MODES = ['full', 'compact', 'none'];
const BAR_CONTROLS = /^(setup_toggle|tab_.*|scaling_tab_.*|export|copy_link|language)$/;
const CONTAINERS = new Set(['view_area', 'setup_panel']);
const c = new Checks('layout_desktop');
mkdirSync(artefactsDir, { recursive: true });

const rect = (r) => ({ x: r.x, y: r.y, w: r.w, h: r.h });
const overlap = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
const inside = (r, fb) => r.x >= -0.5 && r.y >= -0.5 && r.x + r.w <= fb.w + 0.5 && r.y + r.h <= fb.h + 0.5;
const show = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.w)}x${Math.round(r.h)}`;

let display = null;  // the X server's, set in main()

async function run(name, size, flags) {
  const shot = join(artefactsDir, `layout_${name}.png`);
  const layoutFile = join(artefactsDir, `layout_${name}.json`);
  const result = await launch(app, display, ['--screenshot', shot, '--layout', layoutFile, '--frames', '5',
                                             '--size', size, ...flags]);
  const ok = c.check(result.status === 0 && existsSync(shot) && existsSync(layoutFile),
                     `${name}: attention_app ${flags.join(' ')} draws the frame`,
                     `status ${result.status} ${result.signal ?? ''}\n${result.output}`);
  if (!ok) return null;
  return { png: PNG.sync.read(readFileSync(shot)), layout: JSON.parse(readFileSync(layoutFile, 'utf8')) };
}

// Some pixel column right of the cells runs from the colormap's high end (top)
// to its low end (bottom): the colour bar, whatever its width and gap.
// Beside the cells, or (upright on a phone) under them, below the key labels.
function hasColorbar(png, hm) {
  // The bar is one strip per pixel row over the cells' height, strip i at 1 - (i + 0.5) / h.
  const hi = colormapColor(hm.colormap, 1 - 1.5 / hm.h), lo = colormapColor(hm.colormap, 1.5 / hm.h);
  const near = (p, q) => p.every((v, i) => Math.abs(v - q[i]) <= 12);
  const top = Math.round(hm.y + 1), bottom = Math.round(hm.y + hm.h - 2);
  for (let x = Math.round(hm.x + hm.w) + 1; x < Math.min(png.width, hm.x + hm.w + 40); ++x)
    if (near(pixelAt(png, x, top), hi) && near(pixelAt(png, x, bottom), lo)) return true;
  // Lying down: strip i at (i + 0.5) / w, lo at the left.
  const left = Math.round(hm.x + 1), right = Math.round(hm.x + hm.w - 2);
  const loBelow = colormapColor(hm.colormap, 1.5 / hm.w), hiBelow = colormapColor(hm.colormap, 1 - 1.5 / hm.w);
  for (let y = Math.round(hm.y + hm.h) + 1; y < Math.min(png.height, hm.y + hm.h + 120); ++y)
    if (near(pixelAt(png, left, y), loBelow) && near(pixelAt(png, right, y), hiBelow)) return true;
  return false;
}

function attend(config) {
  const out = attendConfig(cli, app, config);
  return out.status === 0 ? JSON.parse(out.stdout) : null;
}

// The tab widths with room to spare: what "not squeezed" means.
async function referenceTabWidths(lang) {
  const shot = await run(`tabs_reference_${lang}`, '1920x1080', ['--lang', lang]);
  const widths = {};
  for (const [name, r] of Object.entries(shot?.layout.controls ?? {}))
    if (/^tab_/.test(name) && name !== 'tab_combo') widths[name] = r.w;
  c.check(Object.keys(widths).length >= 7, `${lang}: 1920x1080 shows the views as tabs`, JSON.stringify(widths));
  return widths;
}

function checkShot(name, shot, mode, tabWidths, expectSetupPanel) {
  const { png, layout } = shot;
  const fb = layout.framebuffer;
  const controls = layout.controls;
  const names = Object.keys(controls);

  // The set-up panel and button, and the tabs, as the mode says.
  const hasPanel = 'setup_panel' in controls, hasToggle = 'setup_toggle' in controls;
  const hasTabs = names.some((n) => /^tab_/.test(n));
  if (mode === 'none') {
    c.check(!hasPanel && !hasToggle && !hasTabs && !('language' in controls),
            `${name}: only the figure (no set-up panel, no set-up button, no tabs, no language button)`, names.join(' '));
  } else {
    c.check(hasToggle, `${name}: the set-up button is on the bar`, names.join(' '));
    c.check(hasPanel === expectSetupPanel, `${name}: the set-up panel is ${expectSetupPanel ? 'shown' : 'hidden'}`,
            names.join(' '));
  }

  // The bar: inside the window, nothing on top of anything else, tabs unsqueezed.
  const bar = names.filter((n) => BAR_CONTROLS.test(n)).map((n) => [n, controls[n]]);
  for (const [n, r] of bar) c.check(inside(r, fb), `${name}: ${n} is inside the ${fb.w}x${fb.h} window`, show(r));
  const clashes = [];
  for (let i = 0; i < bar.length; ++i)
    for (let j = i + 1; j < bar.length; ++j)
      if (overlap(bar[i][1], bar[j][1])) clashes.push(`${bar[i][0]} ${show(bar[i][1])} / ${bar[j][0]} ${show(bar[j][1])}`);
  c.check(clashes.length === 0, `${name}: the bar's controls do not overlap`, clashes.join('; '));
  const squeezed = bar.filter(([n, r]) => n in tabWidths && r.w < tabWidths[n] - 1)
    .map(([n, r]) => `${n} ${Math.round(r.w)} < ${Math.round(tabWidths[n])}`);
  c.check(squeezed.length === 0, `${name}: tabs have their full width, or the combo replaces them`, squeezed.join(', '));

  // Heatmaps: inside, >= 1 px per cell, not under any control, colour bar beside, right colours.
  for (const hm of layout.heatmaps) {
    const what = `${name}: heatmap ${hm.name}`;
    c.check(inside(hm, fb), `${what}'s cells are inside the window`, show(hm));
    c.check(hm.w >= hm.cols && hm.h >= hm.rows && hm.w % hm.cols === 0 && hm.h % hm.rows === 0,
            `${what}: ${hm.rows}x${hm.cols} cells of at least one whole pixel`, `${hm.w}x${hm.h}`);
    const under = names.filter((n) => !CONTAINERS.has(n) && overlap(rect(controls[n]), hm));
    c.check(under.length === 0, `${what}: no control overlaps its cells`, under.map((n) => `${n} ${show(controls[n])}`).join(', '));
    c.check(hasColorbar(png, hm), `${what}: a colour bar beside the cells (under them upright on a phone)`, show(hm));
  }
  if (layout.heatmaps.length) {
    const result = attend(layout.config);
    if (c.check(!!result, `${name}: attention_cli attend computes the layout's config`)) {
      for (const hm of layout.heatmaps) {
        const { checked, skipped, failures } = checkHeatmaps(png, { heatmaps: [hm] }, result, rect);
        if (!skipped)
          c.check(failures.length === 0 && checked === hm.rows * hm.cols,
                  `${name}: heatmap ${hm.name}: ${checked} cells have the colour of their value`, failures.slice(0, 4).join('; '));
      }
    }
  }
}

async function main() {
  const xvfb = await startXvfb();
  display = xvfb.display;
  try {
    await checkAll();
  } finally {
    await xvfb.stop();
  }
}

async function checkAll() {
  const [en, zh] = await Promise.all([referenceTabWidths('en'), referenceTabWidths('zh')]);
  const tabWidths = { en, zh };
  const wide = (size) => Number(size.split('x')[0]) >= 560;
  const cases = [];
  for (const size of ['320x240', '700x450'])
    for (const mode of MODES)
      for (const [view, flags] of VIEWS) cases.push({ size, mode, view, flags, lang: 'en' });
  for (const size of ['390x844', '1920x1080'])
    for (const mode of MODES)
      for (const [view, flags] of VIEWS.filter(([v]) => ['heatmaps', 'chapter', 'fig42'].includes(v)))
        cases.push({ size, mode, view, flags, lang: 'en' });
  for (const size of ['320x240', '700x450'])
    for (const [view, flags] of VIEWS.filter(([v]) => ['heatmaps', 'stats', 'training'].includes(v)))
      cases.push({ size, mode: 'full', view, flags, lang: 'zh' });

  await wantedHeights();

  // Each case is checked as its app exits.
  await forEachLaunch(cases, async ({ size, mode, view, flags, lang }) => {
    const name = `${view}_${mode}_${size}_${lang}`;
    const shot = await run(name, size, [...flags, '--controls', mode, '--lang', lang]);
    if (!shot) return;
    checkShot(name, shot, mode, tabWidths[lang], mode === 'full' && wide(size));
    // Views with heatmaps show at least the first one whole, even at 320x240.
    if (['heatmaps', 'steps', 'chapter'].includes(view))
      c.check(shot.layout.heatmaps.length > 0, `${name}: at least one heatmap is wholly on screen`);
  });
}

// height 'auto' (web/embed.js): the height a view wants (layout's
// wanted_height) depends on the width only; drawn at that height the view does
// not scroll, and its heatmaps are square (as tall as wide, within a pixel of
// rounding), and all of them are on screen.
async function wantedHeights() {
  const figures = [['heatmaps', ['--view', 'heatmaps', '--controls', 'none', '--heads', '2']],
                   ['fig42', ['--view', 'scaling', '--panel', 'fig42', '--controls', 'compact', '--frames', '20']],
                   ['chapter', ['--view', 'chapter', '--controls', 'none']]];
  const cases = figures.flatMap(([name, flags]) => ['622x450', '622x800'].map((size) => ({ name, flags, size })));
  const wanted = {};
  await forEachLaunch(cases, async ({ name, flags, size }) => {
    const shot = await run(`wanted_${name}_${size}`, size, flags);
    (wanted[name] ??= {})[size] = shot?.layout.wanted_height;
  });
  await forEachLaunch(figures, async ([name, flags]) => {
    const heights = Object.values(wanted[name]);
    const same = heights.length === 2 && heights.every((h) => h > 0 && Math.abs(h - heights[0]) <= 1);
    c.check(same, `${name}: the height it wants at 622 px wide is the same drawn 450 or 800 px tall`, JSON.stringify(wanted[name]));
    if (!same) return;
    const height = Math.ceil(heights[0]);
    const shot = await run(`wanted_${name}_at`, `622x${height}`, flags);
    if (!shot) return;
    const { layout } = shot;
    const notSquare = layout.heatmaps.filter((hm) => Math.abs(hm.w / hm.cols - hm.h / hm.rows) > 1)
      .map((hm) => `${hm.name} ${show(hm)}`);
    c.check(!('view_scrollbar' in layout.controls) && layout.heatmaps.every((hm) => inside(hm, layout.framebuffer)) &&
            notSquare.length === 0,
            `${name}: drawn at the ${height} px it wants, nothing scrolls, every heatmap is on screen and its cells square`,
            `${Object.keys(layout.controls).join(' ')}; ${notSquare.join(', ')}`);
  });
}

main().then(() => { process.exitCode = c.finish(); }, (e) => {
  console.error(e);
  process.exitCode = 1;
});
