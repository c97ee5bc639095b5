// Browser end-to-end test of the interface languages (中文 / English), with
// real mouse input.
//
//   node tests/web/lang_e2e.mjs <web build dir> <artefacts dir>
//
// Checks:
//  1. a browser whose language is zh-CN opens the Chinese interface (and the
//     page shell's title and messages); ?lang=en
//     overrides it; an unknown ?lang= is named in a console warning and the
//     page keeps the browser's choice;
//  2. every view at 1280x800 and 800x600, in zh and in en: a screenshot in
//     the artefacts dir (lang_<code>_<view>_<size>.png: look at them for cut
//     text) and every heatmap cell's colour checked against compute();
//  3. switching the language with the mouse (the tab bar's language button)
//     changes only the texts: the config, the selected query and head and the
//     view stay as they were.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { countDistinctColours } from './pixels.mjs';
import { checkPixels, openLab as open, runBrowserTest, pngFile } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node lang_e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}
const SIZES = [{ width: 1280, height: 800 }, { width: 800, height: 600 }];

// Opens a view with the mouse: its tab, or where the tabs do not fit (nine
// at 800 px in English with the debug view) its entry in the combo. The
// learned-heads view then loads its model: waited for, so the screenshot
// and layout() show the same frame.
async function openView(lab, view) {
  if ((await lab.layout()).controls.tab_combo) {
    await lab.click('tab_combo');
    for (let i = 0; i < 20 && !(await lab.layout()).controls[`tab_${view}`]; ++i) await lab.frames(1);
  }
  await lab.click(`tab_${view}`);
  for (let i = 0; i < 20 && (await lab.state()).view !== view; ++i) await lab.frames(1);
  // The pointer goes to the set-up panel's empty foot: where the combo's
  // entry was, a heatmap's tooltip would cover its cells.
  await lab.page.mouse.move(5, lab.page.viewportSize().height - 5);
  if (view === 'poem')
    await lab.page.waitForFunction(() => ['ready', 'failed'].includes(window.attentionLab.state().poem.load) &&
                                         window.attentionLab.layout().heatmaps.length > 0, null, { timeout: 60_000 })
      .catch(() => {});
  await lab.frames(6);
}

async function everyView(c, lab, page, lang) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await lab.frames(6);
    for (const view of (await lab.state()).views.filter((v) => v.always || v.debug_only).map((v) => v.id)) {  // every view, from the app's own table
      await openView(lab, view);
      const s = await lab.state();
      const what = `${lang} ${size.width}x${size.height} ${view}`;
      c.check(s.view === view && s.lang === lang, `${what}: the tab opens its view in ${lang}`, `${s.view} ${s.lang}`);
      const png = await lab.screenshot();
      await writeFile(join(artefactsDir, `lang_${lang}_${view}_${size.width}x${size.height}.png`), pngFile(png));
      const colours = countDistinctColours(png);
      c.check(colours >= 32, `${what}: the screenshot is not blank`, `${colours} colours`);
      if (view !== 'scaling') await checkPixels(c, lab, what, png);
    }
  }
}

async function switchLanguage(c, lab, to) {
  const before = await lab.state();
  await lab.click('language');
  await lab.frames(3);
  await lab.click(`language_${to}`);
  await lab.frames(4);
  const after = await lab.state();
  c.check(after.lang === to, `the language button switches the interface to ${to}`, after.lang);
  const same = JSON.stringify(after.config) === JSON.stringify(before.config) &&
               after.selected_query === before.selected_query && after.selected_head === before.selected_head &&
               after.view === before.view && JSON.stringify(after.tokens) === JSON.stringify(before.tokens);
  c.check(same, `switching to ${to} keeps the reader's config, selection and view`,
          `${JSON.stringify(before).slice(0, 200)}\n    -> ${JSON.stringify(after).slice(0, 200)}`);
}

async function run(c, page, url) {
  const warnings = [];
  page.on('console', (msg) => { if (msg.type() === 'warning') warnings.push(msg.text()); });

  // 1. The browser's language (zh-CN here), ?lang= over it, a bad ?lang=.
  let lab = await open(page, url, '?debug=1&preset=zh_pronoun');
  c.check((await lab.state()).lang === 'zh', 'a zh-CN browser opens the Chinese interface');
  const shell = await page.evaluate(() => ({ title: document.title, lang: document.documentElement.lang }));
  c.check(shell.title === '自注意力实验室' && shell.lang === 'zh-CN', 'the page shell (title, lang) is Chinese too',
          JSON.stringify(shell));
  lab = await open(page, url, '?lang=en');
  c.check((await lab.state()).lang === 'en', '?lang=en overrides the browser language');
  lab = await open(page, url, '?lang=klingon');
  c.check((await lab.state()).lang === 'zh' && warnings.some((w) => w.includes('lang: "klingon" is not one of "en", "zh"; using "zh"')),
          'an unknown ?lang= is named in a console warning; the browser language stays', warnings.join(' | '));

  // 2. Every view in both languages (a Chinese sentence in both).
  lab = await open(page, url, '?lang=zh&debug=1&preset=zh_pronoun');
  await everyView(c, lab, page, 'zh');
  lab = await open(page, url, '?lang=en&debug=1&preset=zh_pronoun');
  await everyView(c, lab, page, 'en');

  // 3. Switch with the mouse, twice, after changing the state.
  await page.setViewportSize(SIZES[0]);
  lab = await open(page, url, '?lang=en&preset=zh_causal&view=heatmaps');
  const layout = await lab.layout();
  const head = layout.heatmaps.find((h) => h.name === 'head1');
  if (c.check(head, 'head 1 is on screen')) {
    const p = await lab.cellCentre(head, 3, 1);
    await page.mouse.move(p.x, p.y);
    await lab.frames(2);
    await page.mouse.down();
    await lab.frames(2);
    await page.mouse.up();
    await lab.frames(3);
    const s = await lab.state();
    c.check(s.selected_query === 3 && s.selected_head === 1, 'a click selects query 3 of head 1', JSON.stringify(s).slice(0, 120));
  }
  await switchLanguage(c, lab, 'zh');
  await checkPixels(c, lab, 'after switching to zh');
  await switchLanguage(c, lab, 'en');
}

process.exitCode = await runBrowserTest({ name: 'lang_e2e', logName: 'lang', webDir, artefactsDir, viewport: SIZES[0],
                                          run, locale: 'zh-CN' });
