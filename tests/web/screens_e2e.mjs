// Screenshots to look at: the lab at 320x240, 700x450 and 1920x1080, in the
// light and the dark theme (phones: phone_e2e.mjs, every view at four sizes), in Chinese (most
// readers) with a Chinese sentence: the heatmaps, steps, Figure 4.1 and the
// scaling lab. Each is checked as far as a program can: not blank, every
// heatmap inside the window, heatmap pixels equal to compute(), and at each
// size no two of the eight look the same; the PNGs in artifacts/web/screens_*
// are for a person to look at.
// usage: node screens_e2e.mjs <web build dir> <artefacts dir>
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { asObject, checkPixels, openLab, runBrowserTest, pngFile } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2);
const SIZES = [{ width: 320, height: 240 }, { width: 700, height: 450 }, { width: 1920, height: 1080 }];
const VIEWS = ['heatmaps', 'steps', 'chapter', 'scaling'];
const SENTENCE = '&text=%E6%88%91%E7%88%B1%E8%87%AA%E7%84%B6%E8%AF%AD%E8%A8%80%E5%A4%84%E7%90%86&d_model=16&heads=2&mask=causal';

function distinctColours(png) {
  const seen = new Set();
  for (let i = 0; i < png.data.length; i += 4 * 7) seen.add((png.data[i] << 16) | (png.data[i + 1] << 8) | png.data[i + 2]);
  return seen.size;
}

// One fresh page load a size (the view and theme it opens with vary by size,
// so each theme and each view is also a first load somewhere); the other
// seven themes x views of that size come through set() on that page, as a
// host page or the theme/tab buttons change them. A page load cost 1.4-3 s,
// most of this test's time when it loaded all 32.
const COMBOS = ['light', 'dark'].flatMap((theme) => VIEWS.map((view) => ({ theme, view })));

// The sizes share one browser (a fresh load at each size after
// setViewportSize; a browser's start, first page and close cost 2.5-3.5 s
// more than a page load here).
const GROUPS = [SIZES];
const named = (size) => `${size.width}x${size.height}`;

let failures = 0;
for (const group of GROUPS) {
  failures += await runBrowserTest({
    name: `screens_e2e ${group.map(named).join(', ')}`,
    logName: group.length > 1 ? 'screens' : `screens_${named(group[0])}`, webDir, artefactsDir,
    viewport: { width: group[0].width, height: group[0].height }, locale: 'zh-CN',
    run: async (c, page, url) => {
      for (const size of group) {
        const what = named(size);
        const first = COMBOS[(SIZES.indexOf(size) * 5) % COMBOS.length];  // light heatmaps, dark steps, light chapter, dark scaling
        await page.setViewportSize({ width: size.width, height: size.height });
        const lab = await openLab(page, url, `?theme=${first.theme}&view=${first.view}${SENTENCE}`, 6);
        const shots = new Map();  // screenshot hash -> the names that gave it
        for (const { theme, view } of [first, ...COMBOS.filter((k) => k !== first)]) {
          const name = `${what} ${theme} ${view}`;
          if (theme !== first.theme || view !== first.view) {
            const error = await page.evaluate((fields) => window.attentionLab.set(fields), { theme, view });
            c.check(error === '', `${name}: set({theme, view}) is accepted`, error);
            await lab.frames(6);
          }
          const { layout, png } = await checkPixels(c, lab, name);
          await writeFile(join(artefactsDir, `screens_${what}_${theme}_${view}.png`), pngFile(png));
          const hash = createHash('sha1').update(png.data).digest('hex');
          shots.set(hash, [...(shots.get(hash) ?? []), `${theme} ${view}`]);
          c.check(distinctColours(png) >= 24, `${name}: the screenshot is not blank (${distinctColours(png)} colours)`);
          c.check(png.width === size.width && png.height === size.height, `${name}: the screenshot is ${what}`,
                  `${png.width}x${png.height}`);
          const outside = layout.heatmaps.filter((h) => h.css_x < 0 || h.css_y < 0 ||
            h.css_x + h.css_w > size.width + 0.5 || h.css_y + h.css_h > size.height + 0.5);
          c.check(outside.length === 0, `${name}: every heatmap on screen is inside the window`,
                  outside.map((h) => h.name).join(', '));
          const state = await lab.state();
          c.check(state.notices.length === 0, `${name}: no notices`);
          const fields = asObject(await page.evaluate(() => window.attentionLab.get()));
          c.check(state.view === view && fields.theme === theme, `${name}: the lab is on that view and theme`,
                  `${state.view} ${fields.theme}`);
        }
        // A view or theme that is not drawn (state().view says it is, the screen shows another) gives a repeat.
        c.check(shots.size === COMBOS.length, `${what}: the ${COMBOS.length} screenshots (views x themes) all differ`,
                [...shots.values()].filter((names) => names.length > 1).map((names) => names.join(' = ')).join('; '));
      }
    },
  });
}
process.exit(failures ? 1 : 0);
