// Chromium: Debian's build through playwright-core (CDP), headless with
// WebGL2 on llvmpipe, as the other browser tests run it (lab.mjs CHROMIUM_ARGS). Playwright's Page
// already is the common API; this only narrows it to the shared subset.
import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS } from '../lab.mjs';
import { ConsoleLog, pressFromDown } from './shared.mjs';
import { withTimeout } from './processes.mjs';

export async function open({ viewport, locale = 'en-US', timeoutMs = 60_000 }) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS,
                                          timeout: timeoutMs });
  try {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale });
    context.setDefaultTimeout(timeoutMs);
    const page = await context.newPage();
    const log = new ConsoleLog();
    page.on('console', (m) => log.message(m.type(), m.text()));
    page.on('pageerror', (e) => log.pageError(e.stack ?? e.message));  // a trap's stack names its wasm function
    return {
      engine: 'chromium',
      version: browser.version(),
      log,
      can: { insertText: true },
      goto: (url) => page.goto(url),
      url: () => page.url(),
      evaluate: (fn, arg) => page.evaluate(fn, arg),
      waitForFunction: (fn, arg, { timeout = timeoutMs } = {}) => page.waitForFunction(fn, arg, { timeout }),
      mouse: page.mouse,
      keyboard: {
        down: (key) => page.keyboard.down(key),
        up: (key) => page.keyboard.up(key),
        press: pressFromDown(page.keyboard),
        type: (text, options) => page.keyboard.type(text, options),
        insertText: (text) => page.keyboard.insertText(text),
      },
      screenshot: () => page.screenshot({ type: 'png' }),
      setViewportSize: (size) => page.setViewportSize(size),
      flushLog: async () => {},
      close: () => withTimeout(browser.close(), 30_000, 'closing Chromium'),  // playwright removes its profile
    };
  } catch (e) {
    await browser.close();
    throw e;
  }
}
