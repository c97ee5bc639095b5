// One page API over three browser engines, so one test runs in each:
//
//   const page = await openBrowser('firefox', { viewport: { width: 1280, height: 800 }, locale: 'en-US' });
//
// `page` is a subset of playwright's Page, every input a real input event
// through the engine's driver (CDP, WebDriver BiDi, WebDriver classic):
//   goto(url), url(), evaluate(fn, arg), waitForFunction(fn, arg, {timeout}),
//   mouse.move(x, y) / down() / up() / wheel(dx, dy),
//   keyboard.down(key) / up(key) / press(key, {delay}) / type(text, {delay})
//     (playwright's key names: 'Control', 'Backspace', 'ArrowDown', 'a', ...;
//     press holds the key `delay` ms from the moment it goes down, as a finger
//     does, however long the page takes to handle it),
//   keyboard.insertText(text) only where can.insertText,
//   screenshot() -> PNG Buffer of the viewport, setViewportSize({width, height}),
//   log: {lines, errors} (console and uncaught errors; flushLog() first), close().
// Also engine ('chromium' | 'firefox' | 'webkit') and version.
//
// chromium: headless, playwright-core.    firefox: puppeteer-core, BiDi, headful under Xvfb.
// webkit: WebKitWebDriver + MiniBrowser, headful under Xvfb (see each module).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

// The programs each engine needs (Debian packages chromium, firefox-esr,
// webkit2gtk-driver, xvfb; setpriv is util-linux's).
const NEEDS = {
  chromium: ['/usr/bin/chromium'],
  firefox: ['/usr/bin/firefox-esr', 'Xvfb', 'setpriv'],
  webkit: ['/usr/bin/WebKitWebDriver', 'Xvfb', 'setpriv'],
};
const runnable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
// Which of them are not installed here ([] if all are).
export const missingPrograms = (engine) => NEEDS[engine].filter((p) =>
  !(p.startsWith('/') ? runnable(p) : (process.env.PATH ?? '').split(delimiter).some((dir) => runnable(join(dir, p)))));

export async function openBrowser(engine, options) {
  if (!ENGINES.includes(engine)) throw new Error(`unknown engine ${engine} (${ENGINES.join(', ')})`);
  const { open } = await import(`./${engine}.mjs`);
  const page = await open(options);
  // Ctrl+C or SIGTERM still closes the browser and removes its profile (on
  // SIGKILL no handler runs, but the helpers die with us: processes.mjs).
  const onSignal = (signal) => page.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, onSignal);
  const close = page.close;
  page.close = () => {
    for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, onSignal);
    return close();
  };
  return page;
}
