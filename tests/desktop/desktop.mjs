// Desktop end-to-end test: the native app under Xvfb, heatmap pixels included.
//
//   node tests/desktop/desktop.mjs <attention_app> <attention_cli> <artefacts dir>
//
// Runs `attention_app --screenshot out.png --frames 5 --size WxH --layout
// out.json [--view ID] [--preset ID]` (LAUNCHES at a time on one Xvfb of its
// own: one by one it took 85 s natively and 125 s under ASan, a core idle
// while each app waited on its GL driver) for every view at 1280x800 and
// 800x600 and a few presets, then checks that each PNG is a drawn UI and that
// every heatmap cell in the layout (x, y, w, h in PNG pixels) has the colormap
// colour of its value (or the masked colour), where the values come from
// `attention_cli attend --config -` run on the layout's config: the same
// compute() the browser uses, in a separate process from the renderer.
// The scaling lab is shot on each panel (--panel), its training panel after
// --train-steps 300.
// Chinese: `--lang zh --text 我爱自然语言处理` draws its token labels as glyphs, neither
// "?" nor the missing-glyph box, checked against the app's own rendering of
// `--text '? □ 😀 我'` (tests/web/fonts_e2e.mjs has the label helpers).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { PNG } from 'pngjs';

import { startXvfb } from '../web/engines/processes.mjs';
import { CJK_SENTENCE, REFERENCE_SENTENCE, checkLabels } from '../web/fonts_e2e.mjs';
import { Checks, checkHeatmaps, countDistinctColours } from '../web/pixels.mjs';
import { attendConfig, forEachLaunch, launch } from './launches.mjs';

const [app, cli, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!app || !cli || !artefactsDir) {
  console.error('usage: node desktop.mjs <attention_app> <attention_cli> <artefacts dir>');
  process.exit(2);
}
const SIZES = [{ width: 1280, height: 800 }, { width: 800, height: 600 }];
// Every view, from the app's own table (the desktop always shows the debug view).
const VIEWS = JSON.parse(spawnSync(app, ['--views'], { encoding: 'utf8' }).stdout).map((v) => v.id);
// The view of weights given from outside, with some: two heads of three tokens.
const GIVEN = { weights: [[[[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]], [[0.5, 0.5, 0], [0, 1, 0], [0.2, 0.2, 0.6]]]],
                tokens: ['我', '爱', '你'], titles: ['head 1', 'head 2'] };
const c = new Checks('desktop_e2e');
mkdirSync(artefactsDir, { recursive: true });

let display = null;  // the X server's, set in main()

// One app run: `extra` flags, screenshot + layout in the artefacts dir, pixels checked.
async function runApp(name, size, extra) {
  const shot = join(artefactsDir, `desktop_${name}.png`);
  const layoutFile = join(artefactsDir, `desktop_${name}.json`);
  const run = await launch(app, display, ['--screenshot', shot, '--frames', '5', '--size', `${size.width}x${size.height}`,
                            '--layout', layoutFile, ...extra]);
  if (!c.check(run.status === 0 && run.signal === null, `${name}: attention_app ${extra.join(' ')} exits 0 under Xvfb`,
               `status ${run.status} signal ${run.signal}\n${run.output}`)) return;
  if (!c.check(existsSync(shot) && existsSync(layoutFile), `${name}: the app wrote the screenshot and the layout`)) return;

  const png = PNG.sync.read(readFileSync(shot));
  c.check(png.width === size.width && png.height === size.height, `${name}: screenshot is ${size.width}x${size.height}`,
          `${png.width}x${png.height}`);
  const colours = countDistinctColours(png);
  const layout = JSON.parse(readFileSync(layoutFile, 'utf8'));
  // The app shoots once it has nothing left to do (main_desktop.cpp), so a
  // loaded machine cannot catch it half-drawn; if it is blank anyway, what
  // the app drew says more than the pixels.
  c.check(colours >= 32, `${name}: the screenshot is not blank (many distinct colours)`,
          `${colours} colours; the app drew ` +
          JSON.stringify({ view: layout.view, framebuffer: layout.framebuffer, heatmaps: layout.heatmaps?.length,
                           controls: Object.keys(layout.controls ?? {}).length }) + `\n${run.output}`);
  if (!c.check(Array.isArray(layout.heatmaps) && layout.config && layout.controls,
               `${name}: layout has a config, heatmaps and controls`, JSON.stringify(layout).slice(0, 200))) return;
  if (layout.heatmaps.length === 0) return;

  const attend = attendConfig(cli, app, layout.config);
  if (!c.check(attend.status === 0, `${name}: attention_cli attend computes the layout config`, attend.stderr)) return;
  const result = JSON.parse(attend.stdout);

  for (const hm of layout.heatmaps) {
    const { checked, skipped, failures } = checkHeatmaps(png, { heatmaps: [hm] }, result,
                                                         (h) => ({ x: h.x, y: h.y, w: h.w, h: h.h }));
    if (skipped) continue;  // a source compute() does not return (Q, K, V, per-head output)
    c.check(failures.length === 0 && checked === hm.rows * hm.cols,
            `${name}: heatmap ${hm.name} (${hm.source}${hm.head >= 0 ? ' ' + hm.head : ''}, ${hm.colormap}): ` +
            `${checked} cell centres have the colormap colour of their value`, failures.join('\n    '));
  }
}

// The head-average heatmap's query labels of both sentences (--state gives
// the tokens), in the Chinese interface (--lang zh).
async function cjkLabels() {
  const render = async (name, text) => {
    const stateFile = join(artefactsDir, `desktop_${name}_state.json`);
    await runApp(name, SIZES[0], ['--lang', 'zh', '--text', text, '--state', stateFile]);
    const shot = join(artefactsDir, `desktop_${name}.png`);
    if (!existsSync(stateFile) || !existsSync(shot)) return null;
    const layout = JSON.parse(readFileSync(join(artefactsDir, `desktop_${name}.json`), 'utf8'));
    const hm = layout.heatmaps.find((h) => h.name === 'average');
    if (!c.check(!!hm, `${name}: the head-average heatmap is on screen`)) return null;
    return { png: PNG.sync.read(readFileSync(shot)), cells: hm, scale: 1,
             tokens: JSON.parse(readFileSync(stateFile, 'utf8')).tokens };
  };
  const [cjk, ref] = await Promise.all([render('cjk_text', CJK_SENTENCE), render('cjk_reference', REFERENCE_SENTENCE)]);
  if (cjk && ref) checkLabels(c, 'desktop', cjk, ref);
}

async function main() {
  const runs = [];
  // Every view at both sizes (the screenshots are artefacts to look at).
  for (const size of SIZES)
    for (const view of VIEWS) {
      // The scaling lab fills its curves within a per-frame time budget: give it frames.
      const frames = view === 'scaling' ? ['--frames', '60'] : [];
      const given = view === 'given' ? ['--url', `given=${encodeURIComponent(JSON.stringify(GIVEN))}`] : [];
      runs.push([`${view}_${size.width}x${size.height}`, size, ['--view', view, ...frames, ...given]]);
    }
  // The Figure 4.1 preset in the explorer, and a masked, padded sentence step by step.
  runs.push(['preset_fig41', SIZES[0], ['--preset', 'fig41']]);
  runs.push(['preset_padded_steps', SIZES[0], ['--preset', 'padded', '--view', 'steps']]);
  runs.push(['preset_causal', SIZES[1], ['--preset', 'causal']]);
  // The scaling lab's other panels: saturation at a large d_k, and both models after 300
  // steps; 60 frames, so the time-budgeted curves have filled in.
  for (const size of SIZES) {
    runs.push([`scaling_saturation_${size.width}x${size.height}`, size,
               ['--view', 'scaling', '--panel', 'saturation', '--dk', '1024', '--frames', '60']]);
    runs.push([`scaling_training_${size.width}x${size.height}`, size,
               ['--view', 'scaling', '--panel', 'training', '--train-steps', '300', '--frames', '60']]);
  }
  const xvfb = await startXvfb();
  display = xvfb.display;
  try {
    await forEachLaunch(runs, (run) => runApp(...run));
    await cjkLabels();
  } finally {
    await xvfb.stop();
  }
}

main().then(() => { process.exitCode = c.finish(); }, (e) => {
  console.error(e);
  process.exitCode = 1;
});
