import { chromium } from 'playwright-core';
import { serveDirectory } from './static_server.mjs';
import { CHROMIUM_ARGS, Lab } from './lab.mjs';
const { server, url } = await serveDirectory('/work/main/build/wasm/web', {});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
await page.goto(url + 'index.html?lang=zh');
await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: 120000 });
const lab = new Lab(page);
await lab.frames(5);
await page.focus('#canvas');
for (let i = 0; i < 4; ++i) {
  await lab.chord('ArrowDown');
  const s = await lab.state();
  console.log(i, s.selected_query, JSON.stringify(s.cursor), s.frames);
}
await browser.close(); server.close();
