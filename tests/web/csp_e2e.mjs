// The page under its strict Content-Security-Policy (web/csp.txt, sent as a
// header by the test server as scripts/serve.py sends it, with a report-uri):
// a reader's session (typing Chinese, which fetches the CJK font; the language
// button; views; the mask combo) and the example chapter with three embedded
// figures run without a single violation, seen either way (the page's
// securitypolicyviolation events, the server's reports); the page asks
// nothing of any other host and stores nothing. A second page shows the
// policy really holds (an inline script is refused and reported). And
// statically: no eval, new Function or HTML from strings in the page's scripts.
//
//   node tests/web/csp_e2e.mjs <web build dir> <artefacts dir>
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { Lab, READY_TIMEOUT_MS, runBrowserTest } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node csp_e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}

const directives = readFileSync(join(webDir, 'csp.txt'), 'utf8').split('\n')
  .map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
const policy = [...directives, "frame-ancestors 'self'", 'report-uri /csp-report'].join('; ');

// Every violation the page (and its frames) sees, from the first script on.
const RECORD_VIOLATIONS = () => {
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
};

function staticChecks(c) {
  const scripts = readdirSync(webDir).filter((f) => f.endsWith('.js'));
  const found = [];
  for (const file of scripts) {
    const text = readFileSync(join(webDir, file), 'utf8');
    for (const [what, pattern] of [['eval', /\beval\s*\(/], ['new Function', /new\s+Function\s*\(/],
                                   ['setTimeout with a string', /setTimeout\(\s*['"`]/],
                                   ['HTML from a string', /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write/]])
      if (pattern.test(text)) found.push(`${file}: ${what}`);
  }
  c.check(scripts.length >= 8 && found.length === 0,
          `no eval, new Function or HTML from strings in the page's ${scripts.length} scripts (attention_web.js included)`,
          found.join(', '));
}

async function violations(page) {
  const all = [];
  for (const frame of page.frames()) all.push(...await frame.evaluate(() => window.cspViolations || []).catch(() => []));
  return all;
}

async function readerSession(c, page, url, served, foreign) {
  const response = await page.goto(url + 'index.html');
  c.check(response.headers()['content-security-policy'] === policy, 'the page is served with the policy',
          response.headers()['content-security-policy']);
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  const lab = new Lab(page);
  await lab.frames(4);
  // Chinese typed in the Sentence box: the CJK font is fetched and drawn.
  await lab.click('sentence');
  await lab.chord('Control', 'a');
  await page.keyboard.type('我爱自然语言处理', { delay: 20 });
  await page.waitForFunction(() => ['loaded', 'failed'].includes(window.attentionLabFonts?.status().state), null,
                             { timeout: READY_TIMEOUT_MS });
  const font = await page.evaluate(() => window.attentionLabFonts.status().state);
  const s = await lab.state();
  c.check(font === 'loaded' && s.tokens.join('') === '我爱自然语言处理',
          'typed Chinese reaches the explorer and the CJK font loads under the policy', `font ${font}, tokens ${s.tokens}`);
  const lang = () => page.evaluate(() => window.attentionLab.get().lang);
  const before = await lang();
  await lab.click('language');  // a popup: the languages by name
  await lab.click(before === 'zh' ? 'language_en' : 'language_zh');
  const switched = await lang();
  await lab.click('tab_stats');
  await lab.click('tab_scaling');
  await lab.click('tab_heatmaps');
  await lab.click('mask');
  await lab.click('mask_item_causal');
  const after = await lab.state();
  c.check(switched !== before && after.config.mask === 'causal' && after.view === 'heatmaps',
          'the language button, views and the mask combo work',
          JSON.stringify({ before, switched, mask: after.config.mask, view: after.view }));
  await page.screenshot({ path: join(artefactsDir, 'csp_lab.png') });
  c.check((await violations(page)).length === 0, 'the lab: no CSP violation event', (await violations(page)).join('\n    '));

  // The example chapter: three figures in same-origin frames.
  await page.goto(url + 'textbook.html');
  await page.waitForFunction(() => Array.from(document.querySelectorAll('iframe.lab'))
    .every((f) => f.contentDocument?.body?.dataset.ready === '1'), null, { timeout: READY_TIMEOUT_MS });
  const frames = page.frames().filter((f) => f !== page.mainFrame()).length;
  c.check(frames >= 3, `the chapter's ${frames} figures run`);
  c.check((await violations(page)).length === 0, 'the chapter and its figures: no CSP violation event',
          (await violations(page)).join('\n    '));
  c.check(served.reports.length === 0, 'the server got no violation report', served.reports.join('\n    '));
  c.check(foreign.length === 0, 'the pages asked nothing of any other host', foreign.join(', '));
  // Nothing stored without the reader asking (a download is the only way out).
  const stored = await page.evaluate(async () => ({
    local: localStorage.length, session: sessionStorage.length, cookies: document.cookie,
    databases: indexedDB.databases ? (await indexedDB.databases()).length : 0,
    caches: 'caches' in window ? (await caches.keys()).length : 0,
  }));
  c.check(stored.local === 0 && stored.session === 0 && stored.cookies === '' && stored.databases === 0 &&
          stored.caches === 0, 'the session stored nothing (storage, cookies, IndexedDB, caches)', JSON.stringify(stored));
}

// The policy holds: on a second page an inline script is refused, seen as an
// event and reported (DevTools' own evaluation is exempt from CSP, so the
// script is put in the page as an element).
async function policyHolds(c, page, url, served) {
  const other = await page.context().newPage();
  await other.goto(url + 'index.html');
  const ran = await other.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true;';
    document.head.appendChild(script);
    return window.inlineRan === true;
  });
  await other.waitForFunction(() => window.cspViolations.length > 0, null, { timeout: 10_000 }).catch(() => {});
  const seen = await other.evaluate(() => window.cspViolations);
  for (let i = 0; i < 50 && served.reports.length === 0; ++i) await new Promise((ok) => setTimeout(ok, 100));
  c.check(!ran && seen.length === 1 && seen[0].startsWith('script-src') && served.reports.length === 1,
          'the policy holds: an inline script on a second page is refused, seen as an event and reported',
          `ran: ${ran}, events ${JSON.stringify(seen)}, reports ${served.reports.length}`);
  await other.close();
}

process.exitCode = await runBrowserTest({
  name: 'csp_e2e', logName: 'csp', webDir, artefactsDir, viewport: { width: 1280, height: 800 },
  serverOptions: { headers: { 'Content-Security-Policy': policy } },
  run: async (c, page, url, served) => {
    staticChecks(c);
    await page.context().addInitScript(RECORD_VIOLATIONS);
    const origin = new URL(url).origin;
    const foreign = [];
    page.context().on('request', (r) => {
      const u = r.url();
      if (!u.startsWith(origin + '/') && !u.startsWith('data:') && !u.startsWith('blob:')) foreign.push(u);
    });
    await readerSession(c, page, url, served, foreign);
    await policyHolds(c, page, url, served);
  },
});
