// Browser end-to-end test of the web build.
//
//   node tests/web/e2e.mjs <web build dir> <artefacts dir>
//
// Serves the build (index.html + attention_web.js/.wasm) on 127.0.0.1, opens
// it in headless Chromium (Debian's, WebGL2 on Mesa's llvmpipe) at 1280x800, and
// checks: the browser tests' flags give llvmpipe (not the slower SwiftShader); the canvas has no
// alpha, depth or stencil buffer; the page reports ready with no console or page errors; the canvas
// shows a drawn UI; window.attentionLab.compute() answers configs and
// returns {"error"} for bad ones; and every heatmap cell listed by
// window.attentionLab.layout() has the colour of its value in
// compute(layout.config), also after the WebGL context was lost and restored
// (WEBGL_lose_context); the why-attention module loads on demand and computes
// what the native CLI prints (why_module.mjs). Saves the screenshots and layout
// to the artefacts dir.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { countDistinctColours } from './pixels.mjs';
import { asObject, checkEachHeatmap, Lab, READY_TIMEOUT_MS, runBrowserTest, pngFile } from './lab.mjs';
import { checkWhyControls, checkWhyModule, checkWhyView, checkWhyWithoutWorker, WHY_CONTROLS_QUERY, WHY_VIEW_QUERY } from './why_module.mjs';

const [webDir, artefactsDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!webDir || !artefactsDir) {
  console.error('usage: node e2e.mjs <web build dir> <artefacts dir>');
  process.exit(2);
}
const VIEWPORT = { width: 1280, height: 800 };

async function run(c, page, url) {
  // A browser that will not grow wasm memory, once the test sets refuseMemory
  // (Memory.grow throws, as it does when the browser has no memory to give).
  await page.addInitScript(() => {
    const grow = WebAssembly.Memory.prototype.grow;
    WebAssembly.Memory.prototype.grow = function (pages) {
      if (window.refuseMemory) throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
      return grow.call(this, pages);
    };
  });
  await page.goto(url + 'index.html');
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  c.check(true, 'page reports document.body.dataset.ready == "1"');
  c.check(await page.evaluate(() => typeof window.attentionLab?.compute === 'function' &&
                                    typeof window.attentionLab?.layout === 'function'),
          'window.attentionLab has compute() and layout()');
  const lab = new Lab(page);
  await lab.frames(2);
  // Without Mesa's EGL Chromium falls back to SwiftShader: right pixels, half the speed.
  const renderer = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    return gl.getParameter(gl.getExtension('WEBGL_debug_renderer_info').UNMASKED_RENDERER_WEBGL);
  });
  c.check(renderer.includes('llvmpipe'), 'WebGL2 draws on Mesa\'s llvmpipe (lab.mjs CHROMIUM_ARGS)', renderer);
  // Buffers nothing draws with are work for the browser every frame (src/platform/main_web.cpp).
  const attributes = await page.evaluate(() => document.getElementById('canvas').getContext('webgl2').getContextAttributes());
  c.check(!attributes.alpha && !attributes.depth && !attributes.stencil && !attributes.antialias,
          'the lab\'s canvas has no alpha, depth or stencil buffer and no multisampling', JSON.stringify(attributes));

  // web/main.js answers Dear ImGui's reads of the scissor box and blend state
  // from what the lab set (a read waits for the GPU process): after frames
  // that drew and set them, those answers are the context's own.
  await page.mouse.move(200, 200);
  await lab.settled();
  const remembered = await page.evaluate(() => {
    const gl = document.getElementById('canvas').getContext('webgl2');
    const real = (name) => WebGL2RenderingContext.prototype.getParameter.call(gl, name);
    if (!gl.attentionLabRemembers) return [];
    return ['SCISSOR_BOX', 'BLEND_SRC_RGB', 'BLEND_DST_RGB', 'BLEND_SRC_ALPHA', 'BLEND_DST_ALPHA', 'BLEND_EQUATION_RGB',
      'BLEND_EQUATION_ALPHA'].map((name) => [name, String(gl.getParameter(gl[name])), String(real(gl[name]))]);
  });
  c.check(remembered.length === 7 && remembered.every(([, shadow, real]) => shadow === real) && remembered[0][2] !== '0,0,0,0',
          'the remembered scissor box and blend state are the WebGL context\'s own', JSON.stringify(remembered));

  // ---- compute(): good and bad configs --------------------------------------------
  const fig = await lab.compute({ experiment: 'fig41' });
  c.check(['tokens', 'scores', 'scaled_scores', 'weights', 'output', 'average', 'stats', 'top_keys']
            .every((k) => k in fig) && fig.weights.length === 4 && fig.average.length === 8,
          'compute({experiment: "fig41"}) returns 4 heads of 8x8 weights and the average',
          JSON.stringify(fig).slice(0, 200));
  const text = await lab.compute({ text: 'The cat sat on the mat', d_model: 8, heads: 2, mask: 'causal' });
  c.check(text.tokens?.length === 6 && text.weights?.[0]?.[0]?.[1] === 0,
          'compute(text, causal) tokenizes and masks the future', JSON.stringify(text).slice(0, 200));
  for (const [what, bad, field] of [
    ['heads not dividing d_model', { text: 'a b', d_model: 32, heads: 5 }, 'heads'],
    ['unknown field', { text: 'a b', colour: 1 }, 'colour'],
    ['ragged Q', { Q: [[1, 2], [3]], K: [[1, 2]], V: [[1]] }, 'Q'],
  ]) {
    const r = await lab.compute(bad);
    c.check(typeof r.error === 'string' && r.error.includes(field), `compute(${what}) returns {"error"} naming ${field}`,
            JSON.stringify(r));
  }
  // Text that is not JSON at all (Lab.compute would serialise it): passed as is.
  const notJson = asObject(await page.evaluate(() => window.attentionLab.compute('{"Q": [[1e999]]')));
  c.check(typeof notJson.error === 'string', 'compute(invalid JSON text) returns {"error"}', JSON.stringify(notJson));

  // Strings that are not valid UTF-16 (a lone surrogate, made in the page: the
  // test's own transport could mend it) are refused naming the index, never
  // changed into another character on the way to UTF-8.
  const lone = asObject(await page.evaluate(() => {
    const half = String.fromCharCode(0xd800);
    return JSON.stringify([window.attentionLab.compute('{"text":"ab' + half + 'cd"}'),
                           window.attentionLab.compute({ text: 'ab' + half + 'cd' }),
                           window.attentionLab.compute({ text: 'cat', ['ma' + half + 'sk']: 'causal' }),
                           window.attentionLab.compute({ text: '猫😀' }),
                           window.attentionLab.compute('{"text":"a' + String.fromCharCode(0) + 'b"}'),
                           window.attentionLab.compute({ text: 'a' + String.fromCharCode(0) + 'b' })]);
  }));
  const why = 'not valid UTF-16: a lone surrogate U+D800 at index';
  c.check(lone[0].error === `config: ${why} 11 (half of a character pair)`,
          'compute(JSON text with a lone surrogate) returns {"error"} naming its index in the text', JSON.stringify(lone[0]));
  c.check(lone[1].error === `text: ${why} 2 (half of a character pair)`,
          'compute({text with a lone surrogate}) returns {"error"} naming the field and the index', JSON.stringify(lone[1]));
  c.check(lone[2].error === `a field name: ${why} 2 (half of a character pair)`,
          'compute({a field name with a lone surrogate}) returns {"error"}', JSON.stringify(lone[2]));
  c.check(JSON.stringify(lone[3].tokens) === '["猫","😀"]', 'compute() keeps a surrogate pair (an emoji) whole',
          JSON.stringify(lone[3]).slice(0, 200));
  // A NUL would cut the string short on its way into wasm: refused, in a JSON
  // text and in an object's text (utf16.js; the config check in C++ too: cli_bad_input_table).
  c.check(lone[4].error === 'config: a NUL character (U+0000) at index 10; text cannot hold one' &&
          lone[5].error === 'text: a NUL character (U+0000) at index 1; text cannot hold one',
          'compute() refuses a NUL in the text, naming where', JSON.stringify([lone[4], lone[5]]));

  // ---- the picture -------------------------------------------------------------------
  const layoutBefore = await lab.layout();
  const png = await lab.screenshot();
  const layout = await lab.layout();
  await writeFile(join(artefactsDir, 'web_screenshot.png'), pngFile(png));
  await writeFile(join(artefactsDir, 'web_layout.json'), JSON.stringify(layout, null, 2));
  c.check(png.width === VIEWPORT.width && png.height === VIEWPORT.height,
          `screenshot is ${VIEWPORT.width}x${VIEWPORT.height}`, `${png.width}x${png.height}`);
  const colours = countDistinctColours(png);
  c.check(colours >= 64, 'the canvas is not blank (many distinct colours)', `${colours} colours`);
  c.check(JSON.stringify(layoutBefore) === JSON.stringify(layout), 'layout is stable across the screenshot');

  // ---- every heatmap cell has the colour of its value -------------------------------
  // One check per heatmap, each needing all its cells (lab.mjs's checkPixels
  // sums over the heatmaps instead).
  c.check(Array.isArray(layout?.heatmaps) && layout.heatmaps.length > 0, 'layout() lists heatmaps',
          JSON.stringify(layout).slice(0, 200));
  if (!layout?.heatmaps?.length) return;
  const result = await lab.compute(layout.config);
  c.check(!result.error, 'compute(layout.config) succeeds', result.error);
  // Cells are located relative to the canvas.
  if (!c.check(await page.evaluate(() => document.querySelector('canvas') !== null), 'the page has a canvas')) return;
  for (const { hm, checked, skipped, failures } of await checkEachHeatmap(lab, png, layout, result)) {
    if (skipped) continue;  // a source compute() does not return
    c.check(failures.length === 0 && checked === hm.rows * hm.cols,
            `heatmap ${hm.name} (${hm.source}${hm.head >= 0 ? ' ' + hm.head : ''}, ${hm.colormap}): ` +
            `${checked} cell centres have the colormap colour of their value`, failures.join('\n    '));
  }

  // ---- WebGL context loss and restore (WEBGL_lose_context) --------------------------
  // A message while the context is gone; afterwards the same state, drawn
  // again cell for cell (the GL objects are made anew: main_web.cpp).
  const fieldsBefore = await page.evaluate(() => window.attentionLab.get());
  await page.evaluate(() => {
    window.loseContext = document.querySelector('canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
    window.loseContext.loseContext();
  });
  await page.waitForFunction(() => document.body.dataset.context === 'lost', null, { timeout: 10_000 });
  const message = await page.evaluate(() => ({ hidden: document.getElementById('status').classList.contains('hidden'),
                                              text: document.getElementById('status-text').textContent }));
  c.check(!message.hidden && message.text.startsWith('The graphics context was lost'),
          'a lost WebGL context is shown as a message', JSON.stringify(message));
  await page.mouse.move(200, 200);  // input while it is lost draws nothing and breaks nothing
  await lab.frames(3);
  await page.evaluate(() => window.loseContext.restoreContext());
  await page.waitForFunction(() => document.body.dataset.context === 'ok', null, { timeout: 10_000 });
  await lab.frames(8);
  const fieldsAfter = await page.evaluate(() => window.attentionLab.get());
  c.check(JSON.stringify(fieldsAfter) === JSON.stringify(fieldsBefore) &&
          await page.evaluate(() => document.getElementById('status').classList.contains('hidden')),
          'after the context is restored the message is gone and the state is the same', JSON.stringify(fieldsAfter));
  const restored = await lab.screenshot();
  await writeFile(join(artefactsDir, 'web_context_restored.png'), pngFile(restored));
  for (const { hm, checked, skipped, failures } of await checkEachHeatmap(lab, restored, await lab.layout(), result)) {
    if (skipped) continue;
    c.check(failures.length === 0 && checked === hm.rows * hm.cols,
            `after the restore, heatmap ${hm.name}: ${checked} cell centres have the colour of their value`,
            failures.join('\n    '));
  }

  // ---- memory: too big a string, and a browser that will not grow wasm memory --------
  // A string over 64 MiB is refused before it is copied into wasm (whose
  // memory never shrinks).
  const huge = await page.evaluate(() => {
    const before = window.attentionLabFrames.stats().wasmBytes;
    const answer = window.attentionLab.compute(' '.repeat(65 << 20) + '{}');
    return { answer, grew: window.attentionLabFrames.stats().wasmBytes - before };
  });
  c.check(asObject(huge.answer).error === 'config: 68157442 bytes; the limit is 64 MiB' && huge.grew === 0,
          'compute(a 65 MiB config) is refused naming its size, and takes no wasm memory', JSON.stringify(huge));
  // The browser refuses to grow memory (as on a phone short of it): a request
  // that needs more is refused with a message before the recompute starts,
  // the last result stays on screen, the lab keeps running and recovers.
  const big = { text: Array.from({ length: 400 }, (_, i) => 'w' + (i % 50)).join(' '), heads: 16, d_model: 64 };
  const shownBefore = (await lab.state()).tokens;
  await page.evaluate(() => { window.refuseMemory = true; });
  const setBig = await page.evaluate((fields) => window.attentionLab.set(fields), big);
  await lab.frames(4);
  const refused = await lab.state();
  const memoryWhy = 'memory: the lab could not get the ';  // docs/bad-input.md's table shows all of it
  c.check(setBig === '' && refused.error === memoryWhy + '34 MiB this needs (the browser may be short of memory: ' +
            'close other tabs, or use a shorter text, fewer heads or a smaller d_model)' &&
          JSON.stringify(refused.tokens) === JSON.stringify(shownBefore) &&
          await page.evaluate(() => document.body.dataset.ready === '1'),
          'with wasm memory refused, a big request is refused with a message; the last result stays on screen',
          JSON.stringify({ setBig, error: refused.error, tokens: refused.tokens?.length }));
  await writeFile(join(artefactsDir, 'web_memory_refused.png'), pngFile(await lab.screenshot()));
  const refusedCompute = await lab.compute(big);
  c.check(refusedCompute.error?.startsWith(memoryWhy), 'compute() of that request answers {"error": "memory: ..."}',
          JSON.stringify(refusedCompute).slice(0, 300));
  await page.evaluate(() => window.attentionLab.set({ text: 'the cat sat', heads: 2, d_model: 8 }));
  await lab.frames(4);
  const small = await lab.state();
  c.check(small.error === '' && JSON.stringify(small.tokens) === '["the","cat","sat"]',
          '... a request that fits still runs', JSON.stringify({ error: small.error, tokens: small.tokens }));
  await page.evaluate((fields) => { window.refuseMemory = false; window.attentionLab.set(fields); }, big);
  await page.waitForFunction(() => window.attentionLab.state().tokens.length === 400, null, { timeout: 30_000 });
  c.check((await lab.state()).error === '', '... and once memory can grow, the big request runs');
  // The why-attention experiments' module, loaded on demand, against the native CLI.
  await checkWhyModule(c, page);
  // ... and its view, opened from a link and trained with the mouse.
  await page.goto(`${url}index.html${WHY_VIEW_QUERY}`);
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  await checkWhyView(c, new Lab(page), (name, png) => writeFile(join(artefactsDir, `${name}.png`), png));
  // ... its controls on a run trained in its worker, and the page without the worker.
  await page.goto(`${url}index.html${WHY_CONTROLS_QUERY}`);
  await page.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: READY_TIMEOUT_MS });
  await checkWhyControls(c, new Lab(page));
  await checkWhyWithoutWorker(c, page.context(), url);
  // runBrowserTest adds the last check: no console errors or page errors.
}

process.exitCode = await runBrowserTest({
  name: 'web_e2e', logName: 'web', webDir, artefactsDir, viewport: VIEWPORT, run, logRequests: true,
});
