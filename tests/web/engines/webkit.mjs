// WebKitGTK: Debian's MiniBrowser driven by WebKitWebDriver, W3C WebDriver
// (classic, HTTP + JSON) with a client small enough to read here, headful on
// an X server of our own. Input goes through the Actions API (the browser
// synthesises the events itself); evaluate is Execute Script.
import { execFileSync } from 'node:child_process';

import { ConsoleLog } from './shared.mjs';
import { freePort, sleep, spawnOwned, startXvfb, tempDir, withTimeout } from './processes.mjs';

const DRIVER = '/usr/bin/WebKitWebDriver';

// The MiniBrowser of the WebKitGTK the driver belongs to.
function miniBrowser() {
  const files = execFileSync('dpkg', ['-L', 'libwebkit2gtk-4.1-0'], { encoding: 'utf8' }).split('\n');
  const found = files.find((f) => f.endsWith('/MiniBrowser'));
  if (!found) throw new Error('no MiniBrowser in libwebkit2gtk-4.1-0');
  return found;
}

// WebDriver's code points for the keys the tests use by name (playwright's names).
const KEYS = {
  Backspace: '\uE003', Tab: '\uE004', Enter: '\uE007', Shift: '\uE008', Control: '\uE009', Alt: '\uE00A',
  Escape: '\uE00C', PageUp: '\uE00E', PageDown: '\uE00F', End: '\uE010', Home: '\uE011', ArrowLeft: '\uE012',
  ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015', Delete: '\uE017', Meta: '\uE03D',
};
const keyValue = (key) => KEYS[key] ?? key;

// Classic WebDriver has no console events. A hook installed after every
// load keeps the page's console errors and uncaught exceptions until read;
// what happens during the load itself, or in frames, is not seen.
function installHook() {
  if (window.__engineLog) return;
  const log = window.__engineLog = [];
  for (const type of ['error', 'warn', 'log', 'info']) {
    const original = console[type].bind(console);
    console[type] = (...args) => { log.push([type, args.map(String).join(' ')]); original(...args); };
  }
  // The stack names the wasm function a trap was in (wasm-function[N] in a build without names).
  addEventListener('error', (e) => log.push(['pageerror', e.error?.stack ? `${e.message}\n${e.error.stack}` : e.message]));
  addEventListener('unhandledrejection', (e) => log.push(['pageerror', `unhandled rejection: ${e.reason?.message ?? e.reason}`]));
}

export async function open({ viewport, locale = 'en-US', timeoutMs = 60_000 }) {
  const xvfb = await startXvfb();
  const home = await tempDir('attn-webkit-');  // its caches and data, thrown away at the end
  const port = await freePort();
  const driver = spawnOwned(DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DISPLAY: xvfb.display, XDG_CACHE_HOME: `${home.path}/cache`, XDG_DATA_HOME: `${home.path}/data`,
           XDG_CONFIG_HOME: `${home.path}/config`, LANGUAGE: locale.replace('-', '_'),
           // With WebKitGTK 2.50 compiling wasm on background threads, the lab's memory was corrupted now and then: a
           // build with -sSAFE_HEAP=1 faulted at a random hot spot (ImDrawList::PrimReserve,
           // ImGui::Begin, ...) in 3 of 4 full runs, the release build trapped ("Out of bounds memory
           // access") in about 1 of 20, Chromium never. With JSC compiling on the page's own thread,
           // 5 of 5 SAFE_HEAP runs were clean (docs/testing.md, "Browsers").
           JSC_useConcurrentJIT: '0' },
  });
  let driverErrors = '';
  driver.child.stderr.on('data', (d) => { driverErrors += d; });
  const base = `http://127.0.0.1:${port}`;
  let session = null;

  async function call(method, path, body, ms = timeoutMs) {
    const response = await fetch(base + path, {
      method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(ms),
    });
    const reply = await response.json();
    if (!response.ok) {
      const v = reply.value ?? {};
      throw new Error(`WebDriver ${method} ${path}: ${v.error}: ${v.message}`);
    }
    return reply.value;
  }
  const sessionCall = (method, path, body, ms) => call(method, `/session/${session}${path}`, body, ms);
  const closeAll = async () => {
    if (session) await sessionCall('DELETE', '', undefined, 15_000).catch(() => {});
    await driver.stop();
    await xvfb.stop();
    await home.remove();
  };

  try {
    // The driver answers /status once it listens.
    for (let i = 0; ; i++) {
      if (await call('GET', '/status', undefined, 1000).then(() => true, () => false)) break;
      if (i > 100 || driver.child.exitCode !== null) throw new Error(`WebKitWebDriver did not start: ${driverErrors}`);
      await sleep(100);
    }
    const created = await call('POST', '/session', { capabilities: { alwaysMatch: {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: miniBrowser(), args: ['--automation'] },
    } } });
    session = created.sessionId;
    await sessionCall('POST', '/timeouts', { script: timeoutMs, pageLoad: timeoutMs });

    const log = new ConsoleLog();
    async function flushLog() {
      const entries = await sessionCall('POST', '/execute/sync', { script: 'const l = window.__engineLog || []; return l.splice(0);', args: [] })
        .catch(() => []);
      for (const [type, text] of entries) type === 'pageerror' ? log.pageError(text) : log.message(type, text);
    }
    // Execute Script awaits a returned promise; undefined comes back as null.
    const evaluate = (fn, arg) => sessionCall('POST', '/execute/sync', { script: `return (${fn}).apply(null, arguments)`, args: [arg] });

    // Input sources keep their state between Perform Actions calls, so a key
    // or button pressed in one call stays down until a later one lets go.
    const act = (source) => sessionCall('POST', '/actions', { actions: [source] });
    const keys = (actions) => act({ type: 'key', id: 'keyboard', actions });
    const pointerActions = (actions) => act({ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions });
    let pointer = { x: 0, y: 0 };  // where the wheel scrolls
    // WebKit turns only the first scroll of a wheel source into a wheel event
    // (later ones on the same source do nothing): a new source for each.
    let wheels = 0;
    // One action sequence: the pause runs in the browser from the keydown on,
    // so the hold is timed from the press whatever the page is doing.
    const press = (key, { delay = 0 } = {}) => keys([{ type: 'keyDown', value: keyValue(key) },
      ...(delay ? [{ type: 'pause', duration: delay }] : []), { type: 'keyUp', value: keyValue(key) }]);

    // The window is the viewport plus MiniBrowser's toolbar: size it, measure,
    // size again. The page sees a new size a little after the driver answers.
    const inner = () => evaluate(() => [innerWidth, innerHeight]);
    async function settledInner() {
      let last = await inner();
      for (let i = 0; i < 40; i++) {
        await sleep(50);
        const now = await inner();
        if (now[0] === last[0] && now[1] === last[1] && i >= 2) return now;
        last = now;
      }
      return last;
    }
    async function setViewportSize({ width, height }) {
      let [w, h] = await inner();
      for (let i = 0; i < 4 && (w !== width || h !== height); i++) {
        const rect = await sessionCall('GET', '/window/rect');
        await sessionCall('POST', '/window/rect', { width: rect.width + width - w, height: rect.height + height - h });
        [w, h] = await settledInner();
      }
      if (w !== width || h !== height) throw new Error(`WebKit: the viewport is ${w}x${h}, not ${width}x${height}`);
    }
    await setViewportSize(viewport);

    return {
      engine: 'webkit',
      version: created.capabilities.browserVersion,
      log,
      can: { insertText: false },  // WebDriver has no text insertion besides key actions
      async goto(url) {
        await flushLog();
        await sessionCall('POST', '/url', { url });
        await evaluate(installHook);
      },
      url: () => sessionCall('GET', '/url'),
      evaluate,
      async waitForFunction(fn, arg, { timeout = timeoutMs } = {}) {
        const end = Date.now() + timeout;
        for (;;) {
          const value = await evaluate(fn, arg).catch(() => null);  // a page being replaced answers nothing
          if (value) return value;
          if (Date.now() > end) throw new Error(`waitForFunction timed out after ${timeout} ms: ${fn}`);
          await sleep(50);
        }
      },
      mouse: {
        move(x, y) {
          pointer = { x: Math.round(x), y: Math.round(y) };
          return pointerActions([{ type: 'pointerMove', origin: 'viewport', duration: 0, ...pointer }]);
        },
        down: () => pointerActions([{ type: 'pointerDown', button: 0 }]),
        up: () => pointerActions([{ type: 'pointerUp', button: 0 }]),
        wheel: (deltaX, deltaY) => act({ type: 'wheel', id: `wheel${++wheels}`, actions: [
          { type: 'scroll', origin: 'viewport', duration: 0, ...pointer, deltaX: Math.round(deltaX), deltaY: Math.round(deltaY) }] }),
      },
      keyboard: {
        down: (key) => keys([{ type: 'keyDown', value: keyValue(key) }]),
        up: (key) => keys([{ type: 'keyUp', value: keyValue(key) }]),
        press,
        tap: (key) => press(key),  // down and up in one action sequence: nothing between them
        async type(text, { delay = 0 } = {}) {
          for (const ch of text) {
            await press(ch, { delay });
            if (delay) await sleep(delay);
          }
        },
      },
      screenshot: async () => Buffer.from(await sessionCall('GET', '/screenshot'), 'base64'),
      setViewportSize,
      flushLog,
      async close() {
        await flushLog().catch(() => {});
        await withTimeout(closeAll(), 30_000, 'closing WebKit');
      },
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
