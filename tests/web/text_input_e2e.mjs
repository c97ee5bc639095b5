// Browser end-to-end test of text input in the lab's text fields (the
// Sentence box) as a reader types on a normal web page: Chinese through
// keyboard.type and insertText, an input-method composition (CDP), paste
// (Ctrl+V and a synthetic paste event), Backspace/Delete over multi-byte
// characters, copy/cut to the system clipboard, plain ASCII typing with no
// doubled characters, and focus handed back to the page. web/text_input.js
// has the design.
//
//   node tests/web/text_input_e2e.mjs <web build dir> <artefacts dir>
//
// Every case starts from a cleared box (click, Ctrl+A, Backspace: real keys)
// and ends by comparing state().tokens with the typed characters (Chinese is
// one token per character, src/core/base/tokenizer.cpp). Glyphs are not checked.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { DIFFERENT, REFERENCE_SENTENCE, inkDistance, rowLabelInk } from './fonts_e2e.mjs';
import { Lab, READY_TIMEOUT_MS, press, runBrowserTest, pngFile } from './lab.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node text_input_e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}

const chars = (text) => Array.from(text);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const inspect = (page) => page.evaluate(() => window.attentionLabTextInput.inspect());
const clipboardText = (page) => page.evaluate(() => navigator.clipboard.readText());
const setClipboardText = (page, text) => page.evaluate((t) => navigator.clipboard.writeText(t), text);

// Click the Sentence box, select all, Backspace: the box is empty and active.
async function clearBox(c, lab, what) {
  await lab.click('sentence');
  await press(lab, 'a', 'Control');
  await press(lab, 'Backspace');
  await lab.frames(3);
  const s = await lab.state();
  const t = await inspect(lab.page);
  return c.check(s.config.text === '' && t.active && t.focused,
                 `${what}: the box is cleared with real keys and the text input is focused`,
                 `text "${s.config.text}", ${JSON.stringify(t)}`);
}

// The head-average heatmap's query labels as ink (fonts_e2e.mjs), once the
// font has arrived; tokens from state().
async function labelInks(lab, page) {
  await page.waitForFunction(() => ['loaded', 'failed'].includes(window.attentionLabFonts?.status().state), null,
                             { timeout: READY_TIMEOUT_MS });
  await lab.frames(4);
  const [layout, state, png, o] = [await lab.layout(), await lab.state(), await lab.screenshot(), await lab.canvasOffset()];
  const scale = layout.device_pixel_ratio ?? 1;
  const hm = layout.heatmaps.find((h) => h.name === 'average');
  if (!hm) return null;
  const cells = { x: o.left * scale + hm.x, y: o.top * scale + hm.y, w: hm.w, h: hm.h, rows: hm.rows, row0: hm.row0 };
  return { tokens: state.tokens, inks: state.tokens.map((_, r) => rowLabelInk(png, cells, r, scale)) };
}

// The app's own "?" and missing-glyph box, from a page showing '? □ 😀 我'.
let reference = null;

// Every Chinese token label on screen is a glyph: neither "?" nor the box,
// and different characters give different pixels.
async function expectGlyphs(c, lab, page, what) {
  const labels = await labelInks(lab, page);
  if (!c.check(labels && reference, `${what}: the heatmap and the reference labels are on screen`)) return;
  const [question, box] = reference;
  const bad = [];
  labels.tokens.forEach((token, r) => {
    if (!/[^\x00-\x7f]/.test(token)) return;
    const ink = labels.inks[r];
    if (ink.sum < 4 || inkDistance(ink, question) < DIFFERENT || inkDistance(ink, box) < DIFFERENT) bad.push(token);
  });
  for (let i = 0; i < labels.tokens.length; i++)
    for (let j = i + 1; j < labels.tokens.length; j++)
      if (labels.tokens[i] !== labels.tokens[j] && inkDistance(labels.inks[i], labels.inks[j]) < DIFFERENT)
        bad.push(labels.tokens[i] + '=' + labels.tokens[j]);
  c.check(bad.length === 0, `${what}: the token labels are the glyphs (not "?", not the box, all different)`,
          bad.join(' '));
}

async function expectTokens(c, lab, expected, what, page = null) {
  await lab.frames(4);
  const s = await lab.state();
  c.check(same(s.tokens, expected), `${what}: tokens ${JSON.stringify(expected)}`,
          `got ${JSON.stringify(s.tokens)} (text "${s.config.text}")`);
  if (page) await expectGlyphs(c, lab, page, what);
  return s;
}

async function typeChinese(c, lab, page) {
  const text = '我爱自然语言处理';
  if (!await clearBox(c, lab, 'keyboard.type')) return;
  // The textarea sits on the caret inside the Sentence box (where the IME window opens).
  const box = await lab.controlRect('sentence');
  const t = await inspect(page);
  c.check(t.left >= box.x - 2 && t.left <= box.x + box.w && t.top >= box.y - 4 && t.top + t.height <= box.y + box.h + 4,
          'the text input sits on the caret inside the Sentence box',
          `textarea ${JSON.stringify(t)}, box ${JSON.stringify(box)}`);
  await page.keyboard.type(text, { delay: 15 });
  await expectTokens(c, lab, chars(text), `keyboard.type('${text}')`, page);
  await writeFile(join(artefactsDir, 'text_input_chinese.png'), pngFile(await lab.screenshot()));
}

async function insertText(c, lab, page) {
  const text = '自注意力机制';
  if (!await clearBox(c, lab, 'insertText')) return;
  await page.keyboard.insertText(text);
  await expectTokens(c, lab, chars(text), `keyboard.insertText('${text}')`, page);
}

// An input method: pinyin and candidates are composed (shown in the textarea
// only), then committed; only the committed text reaches the box.
async function composition(c, lab, page) {
  if (!await clearBox(c, lab, 'composition')) return;
  const cdp = await page.context().newCDPSession(page);
  const compose = async (steps, commit) => {
    for (const text of steps) {
      await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
      await lab.frames(2);
    }
    const mid = await lab.state();
    const t = await inspect(page);
    await cdp.send('Input.insertText', { text: commit });
    return { mid, t };
  };
  const first = await compose(['z', 'zi', 'zir', 'ziran', '自然'], '自然');
  c.check(first.mid.config.text === '' && first.t.composing && first.t.value === '自然',
          'while composing, the composition stays in the text input and not in the box',
          `box "${first.mid.config.text}", ${JSON.stringify(first.t)}`);
  await lab.frames(3);
  const second = await compose(['y', 'yu', 'yuy', 'yuyan', '语言'], '语言');
  c.check(second.mid.config.text === '自然', 'the first committed text is in the box during the second composition',
          `box "${second.mid.config.text}"`);
  const s = await expectTokens(c, lab, chars('自然语言'), 'composition through CDP (imeSetComposition + insertText)', page);
  c.check(!/[a-z]/.test(s.config.text), 'no pinyin from the compositions leaked into the box', s.config.text);
  // A key pressed during a composition belongs to the input method, not to ImGui.
  await cdp.send('Input.imeSetComposition', { text: 'ch', selectionStart: 2, selectionEnd: 2 });
  await lab.frames(2);
  await press(lab, 'Backspace');
  await cdp.send('Input.imeSetComposition', { text: 'c', selectionStart: 1, selectionEnd: 1 });
  await lab.frames(2);
  await cdp.send('Input.insertText', { text: '处' });
  await expectTokens(c, lab, chars('自然语言处'), 'Backspace during a composition edits the composition, not the box');
  const after = await inspect(page);
  c.check(!after.composing && after.value === '', 'after the commit the text input is hidden and empty', JSON.stringify(after));
  await cdp.detach();
}

async function paste(c, lab, page) {
  const text = '注意力就是你所需要的';
  if (!await clearBox(c, lab, 'Ctrl+V')) return;
  await setClipboardText(page, text);
  await press(lab, 'v', 'Control');
  await expectTokens(c, lab, chars(text), 'Ctrl+V pastes the system clipboard once', page);

  const synthetic = '多头注意力';
  const dispatchPaste = (t) => page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, t);
  if (!await clearBox(c, lab, 'paste event')) return;
  await dispatchPaste(synthetic);
  await expectTokens(c, lab, chars(synthetic), 'a synthetic paste event pastes its text', page);
  // Pasting over a selection replaces it, as on a web page.
  await press(lab, 'a', 'Control');
  await dispatchPaste('位置编码');
  await expectTokens(c, lab, chars('位置编码'), 'a paste replaces the selected text');
}

// Text holding a lone surrogate (half of a UTF-16 pair: an emoji cut in two)
// has no UTF-8 form. It is refused with a notice naming the position, and the
// box keeps what it had; an emoji whole (a pair) goes in as one character.
async function loneSurrogates(c, lab, page) {
  if (!await clearBox(c, lab, 'lone surrogates')) return;
  await page.keyboard.insertText('猫😀');
  await expectTokens(c, lab, ['猫', '😀'], 'an emoji (a surrogate pair) goes in whole');
  const pasteHalf = (before, unit, after) => page.evaluate(([b, u, a]) => {
    const data = new DataTransfer();
    data.setData('text/plain', b + String.fromCharCode(u) + a);
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, [before, unit, after]);
  for (const [before, unit, after, hex] of [['ab', 0xd83d, 'cd', 'U+D83D'], ['', 0xde00, 'x', 'U+DE00'],
                                            ['街', 0xd800, '', 'U+D800']]) {
    await pasteHalf(before, unit, after);
    await lab.frames(3);
    const s = await lab.state();
    const expected = `typed text: not valid UTF-16: a lone surrogate ${hex} at index ${before.length} ` +
      '(half of a character pair); nothing was inserted';
    c.check(s.config.text === '猫😀' && s.notices.includes(expected),
            `a paste of "${before}" + lone ${hex} + "${after}" is refused with a notice naming index ${before.length}`,
            `text "${s.config.text}", notices ${JSON.stringify(s.notices)}`);
  }
  // The box still takes text afterwards.
  await page.keyboard.insertText('跑');
  await expectTokens(c, lab, ['猫', '😀', '跑'], 'typing goes on after a refused paste');
}

async function deleteKeys(c, lab, page) {
  if (!await clearBox(c, lab, 'Backspace/Delete')) return;
  await page.keyboard.type('我爱自然', { delay: 15 });
  await expectTokens(c, lab, chars('我爱自然'), 'typed 我爱自然');
  await press(lab, 'Backspace');
  await press(lab, 'Backspace');
  await expectTokens(c, lab, chars('我爱'), 'Backspace twice removes two whole characters');
  await press(lab, 'Home');
  await press(lab, 'Delete');
  await expectTokens(c, lab, chars('爱'), 'Delete at the start removes one whole character');
}

async function copyCut(c, lab, page) {
  const text = '我爱 attention 机制';
  if (!await clearBox(c, lab, 'copy/cut')) return;
  await page.keyboard.type(text, { delay: 15 });
  const typed = await expectTokens(c, lab, ['我', '爱', 'attention', '机', '制'], `typed '${text}'`);
  await setClipboardText(page, 'stale');
  await press(lab, 'a', 'Control');
  await press(lab, 'c', 'Control');
  await lab.frames(3);
  const copied = await clipboardText(page);
  c.check(copied === text && typed.config.text === text, 'select all + Ctrl+C puts the sentence on the system clipboard',
          `clipboard "${copied}"`);
  await setClipboardText(page, 'stale');
  await press(lab, 'a', 'Control');
  await press(lab, 'x', 'Control');
  await lab.frames(3);
  const s = await lab.state();
  const cut = await clipboardText(page);
  c.check(s.config.text === '' && cut === text, 'select all + Ctrl+X empties the box and fills the clipboard',
          `box "${s.config.text}", clipboard "${cut}"`);
  await press(lab, 'c', 'Control');
  await lab.frames(3);
  c.check(await clipboardText(page) === text, 'Ctrl+C in the empty box leaves the clipboard alone',
          await clipboardText(page));
  // ImGui's own clipboard writes (SetClipboardTextFn) reach the system clipboard too.
  await setClipboardText(page, 'stale');
  await page.evaluate(() => window.attentionLabTextInput.setClipboard('自注意力'));
  await lab.frames(2);
  c.check(await clipboardText(page) === '自注意力', "ImGui's SetClipboardTextFn writes the system clipboard",
          await clipboardText(page));
}

async function ascii(c, lab, page) {
  if (!await clearBox(c, lab, 'ASCII')) return;
  await page.keyboard.type('The cat', { delay: 15 });
  await expectTokens(c, lab, ['The', 'cat'], "keyboard.type('The cat') (no doubled characters)");
  await page.keyboard.type(' 我们 ok', { delay: 15 });
  await expectTokens(c, lab, ['The', 'cat', '我', '们', 'ok'], 'mixed ASCII and Chinese typing');
  // Enter ends the edit: the text input lets go of the focus (page keys work again).
  await press(lab, 'Enter');
  await lab.frames(3);
  const t = await inspect(page);
  const focus = await page.evaluate(() => document.activeElement?.tagName);
  c.check(!t.active && !t.focused && focus !== 'TEXTAREA', 'when the field stops editing, the text input is blurred',
          `${JSON.stringify(t)}, activeElement ${focus}`);
  const s = await lab.state();
  c.check(s.config.text === 'The cat 我们 ok', 'the sentence is kept after Enter', s.config.text);
}

// Focus moved to another element of the page (an embedding page's own
// field): ImGui stops editing, and what is typed there stays there.
async function focusElsewhere(c, lab, page) {
  await lab.click('sentence');
  const before = (await lab.state()).config.text;
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.id = 'page-field';
    input.style.cssText = 'position:fixed;right:4px;bottom:4px;width:120px';
    document.body.appendChild(input);
    input.focus();
  });
  await lab.frames(3);
  const t = await inspect(page);
  c.check(!t.active && !t.focused, 'focusing another page element ends the edit of the Sentence box', JSON.stringify(t));
  await page.keyboard.type('页面 page', { delay: 15 });
  await lab.frames(3);
  const value = await page.evaluate(() => document.getElementById('page-field').value);
  const s = await lab.state();
  c.check(value === '页面 page' && s.config.text === before, "typing then goes to the page's field only",
          `field "${value}", box "${s.config.text}"`);
  await page.evaluate(() => document.getElementById('page-field').remove());
}

async function run(c, page, url) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  // The references for the glyph checks: the app's own "?" and box.
  await page.goto(url + 'index.html?text=' + encodeURIComponent(REFERENCE_SENTENCE));
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  const refLabels = await labelInks(new Lab(page), page);
  reference = refLabels && refLabels.inks.length >= 2 && inkDistance(refLabels.inks[0], refLabels.inks[1]) > DIFFERENT
    ? refLabels.inks.slice(0, 2) : null;
  c.check(reference, 'the reference page draws "?" and the box, and they differ');
  await page.goto(url + 'index.html');
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  const lab = new Lab(page);
  await lab.frames(4);
  c.check(await page.evaluate(() => !!window.attentionLabTextInput), 'text_input.js is loaded');
  await typeChinese(c, lab, page);
  await insertText(c, lab, page);
  await composition(c, lab, page);
  await paste(c, lab, page);
  await loneSurrogates(c, lab, page);
  await deleteKeys(c, lab, page);
  await copyCut(c, lab, page);
  await ascii(c, lab, page);
  await focusElsewhere(c, lab, page);
}

process.exitCode = await runBrowserTest({ name: 'text_input_e2e', logName: 'text_input', webDir, artefactsDir,
                                          viewport: { width: 1280, height: 800 }, run });
