// Desktop end-to-end test: the native app under Xvfb, heatmap pixels included.
//
//   node tests/desktop/desktop.mjs <attention_app> <attention_cli> <artefacts dir>
//
// Runs `xvfb-run -a attention_app --screenshot out.png --frames 5 --size
// 1280x800 --layout out.json`, then checks that the PNG is a drawn UI and that
// every heatmap cell in the layout (x, y, w, h in PNG pixels) has the colormap
// colour of its value, where the values come from
// `attention_cli attend --config -` run on the layout's config: the same
// compute() the browser uses, in a separate process from the renderer.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { PNG } from 'pngjs';

import { Checks, checkHeatmaps, countDistinctColours } from '../web/pixels.mjs';

const [app, cli, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!app || !cli || !artefactsDir) {
  console.error('usage: node desktop.mjs <attention_app> <attention_cli> <artefacts dir>');
  process.exit(2);
}
const SIZE = { width: 1280, height: 800 };
const c = new Checks('desktop_e2e');
mkdirSync(artefactsDir, { recursive: true });
const shot = join(artefactsDir, 'desktop_screenshot.png');
const layoutFile = join(artefactsDir, 'desktop_layout.json');

function main() {
  const run = spawnSync('xvfb-run', ['-a', app, '--screenshot', shot, '--frames', '5',
    '--size', `${SIZE.width}x${SIZE.height}`, '--layout', layoutFile],
  { encoding: 'utf8', timeout: 180_000 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
  if (!c.check(run.status === 0 && run.signal === null, 'attention_app --screenshot exits 0 under xvfb-run',
               `status ${run.status} signal ${run.signal} ${run.error ?? ''}\n${output}`)) return;
  if (!c.check(existsSync(shot) && existsSync(layoutFile), 'the app wrote the screenshot and the layout')) return;

  const png = PNG.sync.read(readFileSync(shot));
  c.check(png.width === SIZE.width && png.height === SIZE.height, `screenshot is ${SIZE.width}x${SIZE.height}`,
          `${png.width}x${png.height}`);
  const colours = countDistinctColours(png);
  c.check(colours >= 64, 'the screenshot is not blank (many distinct colours)', `${colours} colours`);

  const layout = JSON.parse(readFileSync(layoutFile, 'utf8'));
  if (!c.check(Array.isArray(layout.heatmaps) && layout.heatmaps.length > 0 && layout.config,
               'layout has a config and heatmaps', JSON.stringify(layout).slice(0, 200))) return;

  const attend = spawnSync(cli, ['attend', '--config', '-'],
                           { input: JSON.stringify(layout.config), encoding: 'utf8', timeout: 60_000 });
  if (!c.check(attend.status === 0, 'attention_cli attend computes the layout config', attend.stderr)) return;
  const result = JSON.parse(attend.stdout);

  for (const hm of layout.heatmaps) {
    const { checked, failures } = checkHeatmaps(png, { heatmaps: [hm] }, result,
                                                (h) => ({ x: h.x, y: h.y, w: h.w, h: h.h }));
    c.check(failures.length === 0 && checked === hm.rows * hm.cols,
            `heatmap ${hm.name} (${hm.source}${hm.head >= 0 ? ' ' + hm.head : ''}, ${hm.colormap}): ` +
            `${checked} cell centres have the colormap colour of their value`, failures.join('\n    '));
  }
}

main();
process.exitCode = c.finish();
