// The desktop app's exports (ui/shell/export.hpp) under Xvfb:
//
//   node tests/desktop/export_desktop.mjs <attention_app> <attention_cli> <artefacts dir>
//
// Runs `attention_app --frames 3 --mask causal --export-dir DIR --export
// png,weights_head0.csv,average.json --layout L` and checks that it prints
// each path it wrote, that the files are called what they hold, that the
// matrices equal `attention_cli attend` on the layout's config (every float32
// the same) and that the PNG is drawn and exactly 2x the view area
// (export_desktop_view_heatmaps_causal.png in the artefacts dir: look at it).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { PNG } from 'pngjs';

import { Checks, countDistinctColours } from '../web/pixels.mjs';

const [app, cli, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!app || !cli || !artefactsDir) {
  console.error('usage: node export_desktop.mjs <attention_app> <attention_cli> <artefacts dir>');
  process.exit(2);
}
const c = new Checks('export_desktop');
mkdirSync(artefactsDir, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'attn-export-'));

// CSV (no quoted fields here: the default sentence's tokens) -> float32 rows.
const csvNumbers = (text) => text.trim().split('\n').slice(1).map((line) => line.split(',').slice(1).map((v) => Math.fround(Number(v))));
const same = (got, want) => JSON.stringify(got) === JSON.stringify(want.map((r) => r.map((v) => Math.fround(v))));

try {
  const layoutFile = join(dir, 'layout.json');
  const run = spawnSync('xvfb-run', ['-a', app, '--frames', '3', '--size', '1280x800', '--mask', 'causal',
    '--export-dir', dir, '--export', 'png,weights_head0.csv,average.json', '--layout', layoutFile],
  { encoding: 'utf8', timeout: 180_000 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  c.check(run.status === 0, 'attention_app --export ... exits 0', `status ${run.status}\n${output}`);
  const names = ['view_heatmaps_causal.png', 'weights_head0_causal.csv', 'average_causal.json'];
  for (const name of names)
    c.check(existsSync(join(dir, name)) && output.includes(`wrote ${join(dir, name)}`),
            `wrote ${name} into --export-dir and said so`, output);
  if (names.every((name) => existsSync(join(dir, name))) && existsSync(layoutFile)) {
    const layout = JSON.parse(readFileSync(layoutFile, 'utf8'));
    const attend = spawnSync(cli, ['attend', '--config', '-'], { input: JSON.stringify(layout.config), encoding: 'utf8' });
    const result = JSON.parse(attend.stdout);
    c.check(same(csvNumbers(readFileSync(join(dir, names[1]), 'utf8')), result.weights[0]),
            'weights_head0_causal.csv equals attention_cli attend weights[0]');
    const average = JSON.parse(readFileSync(join(dir, names[2]), 'utf8'));
    c.check(average.name === 'average_causal' && same(average.data.map((r) => r.map(Math.fround)), result.average),
            'average_causal.json equals attention_cli attend average');

    const png = PNG.sync.read(readFileSync(join(dir, names[0])));
    copyFileSync(join(dir, names[0]), join(artefactsDir, `export_desktop_${names[0]}`));
    const area = layout.controls.view_area;
    c.check(area && png.width === 2 * area.w && png.height === 2 * area.h,
            'the PNG is exactly 2x the view area', `${png.width}x${png.height} for ${JSON.stringify(area)}`);
    c.check(countDistinctColours(png) >= 32, 'the PNG is drawn, not blank');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = c.finish();
