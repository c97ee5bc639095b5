// Firefox ESR (Debian's) over WebDriver BiDi, through puppeteer-core.
// Headful on an X server of our own: headless Firefox has no WebGL here.
import puppeteer from 'puppeteer-core';

import { ConsoleLog, pressFromDown } from './shared.mjs';
import { startXvfb, tempDir, withTimeout } from './processes.mjs';

// On top of puppeteer's and the remote agent's own automation prefs: nothing
// of Firefox's own may reach the network (the test machine has none, and a
// waiting request can stall a page or print errors).
const QUIET_PREFS = {
  'app.update.auto': false,
  'app.update.enabled': false,
  'app.normandy.enabled': false,
  'browser.aboutwelcome.enabled': false,
  'browser.discovery.enabled': false,
  'browser.newtabpage.activity-stream.feeds.section.topstories': false,
  'browser.ping-centre.telemetry': false,
  'browser.region.network.url': '',
  'browser.region.update.enabled': false,
  'browser.safebrowsing.provider.google.updateURL': '',
  'browser.safebrowsing.provider.google4.updateURL': '',
  'browser.safebrowsing.provider.mozilla.updateURL': '',
  'captivedetect.canonicalURL': '',
  'extensions.blocklist.enabled': false,
  'extensions.systemAddon.update.enabled': false,
  'extensions.getAddons.showPane': false,
  'messaging-system.rsexperimentloader.enabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'network.dns.disablePrefetch': true,
  'network.predictor.enabled': false,
  'network.prefetch-next': false,
  'network.trr.mode': 5,
  'services.settings.server': 'http://127.0.0.1:9/',
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.server': '',
  'toolkit.telemetry.unified': false,
  // Whatever is left goes to a port nobody listens on (the lab's own server is
  // on 127.0.0.1, which Firefox never sends through a proxy).
  'network.proxy.type': 1,
  'network.proxy.http': '127.0.0.1',
  'network.proxy.http_port': 9,
  'network.proxy.ssl': '127.0.0.1',
  'network.proxy.ssl_port': 9,
  'network.proxy.allow_hijacking_localhost': false,
};

export async function open({ viewport, locale = 'en-US', timeoutMs = 60_000 }) {
  const xvfb = await startXvfb();
  const profile = await tempDir('attn-firefox-');
  let browser = null;
  const closeAll = async () => {
    await browser?.close().catch(() => {});
    await xvfb.stop();
    await profile.remove();
  };
  try {
    browser = await puppeteer.launch({
      browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: false, userDataDir: profile.path,
      env: { ...process.env, DISPLAY: xvfb.display, MOZ_CRASHREPORTER_DISABLE: '1' },
      extraPrefsFirefox: { ...QUIET_PREFS, 'intl.accept_languages': locale, 'intl.locale.requested': locale },
      defaultViewport: null, protocolTimeout: timeoutMs, timeout: timeoutMs,
      handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,  // the caller closes (and our X server takes it down)
    });
    const page = (await browser.pages())[0] ?? await browser.newPage();
    // Emulated in the content (BiDi setViewport): the window's size does not matter.
    await page.setViewport(viewport);
    const log = new ConsoleLog();
    page.on('console', (m) => log.message(m.type(), m.text()));
    page.on('pageerror', (e) => log.pageError(e.stack ?? e.message ?? String(e)));  // a trap's stack names its wasm function
    const { mouse, keyboard } = page;
    return {
      engine: 'firefox',
      version: (await browser.version()).replace(/^firefox\//, ''),
      log,
      // BiDi has no insertText (puppeteer's sendCharacter is execCommand in the page, not input).
      can: { insertText: false },
      async goto(url) {
        await page.goto(url, { timeout: timeoutMs });
        // Input sent right after the load once failed in the remote agent
        // (synthesizeMouseAtPoint: NS_ERROR_FAILURE): the new document draws a frame first.
        await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
      },
      url: () => page.url(),
      evaluate: (fn, arg) => page.evaluate(fn, arg),
      waitForFunction: (fn, arg, { timeout = timeoutMs } = {}) => page.waitForFunction(fn, { timeout, polling: 50 }, arg),
      mouse: {
        move: (x, y) => mouse.move(x, y),
        down: () => mouse.down(),
        up: () => mouse.up(),
        wheel: (deltaX, deltaY) => mouse.wheel({ deltaX, deltaY }),
      },
      keyboard: {
        down: (key) => keyboard.down(key),
        up: (key) => keyboard.up(key),
        press: pressFromDown(keyboard),
        type: (text, options) => keyboard.type(text, options),
      },
      screenshot: async () => Buffer.from(await page.screenshot({ type: 'png' })),
      setViewportSize: (size) => page.setViewport(size),
      flushLog: async () => {},
      close: () => withTimeout(closeAll(), 30_000, 'closing Firefox'),
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
