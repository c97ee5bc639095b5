// Lazy CJK font for the lab (see src/platform/fonts.hpp and web_fonts.cpp).
//
// The wasm app asks for the font only once a CJK character is in use, by
// calling Module.attnRequestFont(Module, 'fonts/cjk.ttf') (main.js passes
// request() below as that option), so English pages never download it. The
// file comes from the page's own host. When the browser can gunzip
// (DecompressionStream, e.g. Chromium 80+, Firefox 113+, Safari 16.4+) the
// precompressed copy fonts/cjk.ttf.gz is fetched instead: about half the
// bytes, on any static host, with or without server-side compression. The
// bytes are copied into the wasm heap and handed to _attn_font_loaded; until
// then CJK characters are drawn as boxes.
//
//   window.attentionLabFonts.status() -> {state: 'idle'|'loading'|'loaded'|'failed',
//     url, transferred (bytes over the wire, before gunzip), bytes (font size), ms, error}
//   window.attentionLabFonts.atlas()  -> the app's font atlas ({cjk, atlas: [w, h],
//     glyphs, cjk_chars, builds, build_ms, scale}) once the font was asked for, else null
(function () {
  'use strict';
  const status = { state: 'idle', url: null, transferred: 0, bytes: 0, ms: 0, error: null };
  let lab = null;  // the wasm module that asked

  const isGzip = (b) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;

  async function fetchBytes(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  async function gunzip(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // The font's bytes: the .gz copy when the browser can unpack it, else the
  // plain file. A server that labels .gz files Content-Encoding: gzip hands
  // over bytes already unpacked; the magic number tells.
  async function fontBytes(url) {
    if (typeof DecompressionStream === 'function') {
      try {
        const packed = await fetchBytes(url + '.gz');
        status.url = url + '.gz';
        status.transferred = packed.length;
        return isGzip(packed) ? await gunzip(packed) : packed;
      } catch (e) {
        console.warn(`attention lab: ${url}.gz unusable (${e.message}); fetching ${url}`);
      }
    }
    const plain = await fetchBytes(url);
    status.url = url;
    status.transferred = plain.length;
    return plain;
  }

  // Called by the wasm app (once): fetch, copy into its heap, hand over.
  function request(module, url) {
    if (status.state !== 'idle') return;
    lab = module;
    status.state = 'loading';
    const started = performance.now();
    fontBytes(url).then((bytes) => {
      const pointer = module._malloc(bytes.length);
      try {
        module.HEAPU8.set(bytes, pointer);  // HEAPU8 after _malloc: the heap may have grown
        module._attn_font_loaded(pointer, bytes.length);
      } finally {
        module._free(pointer);
      }
      Object.assign(status, { state: 'loaded', bytes: bytes.length, ms: Math.round(performance.now() - started) });
      if (window.attentionLabFrames) window.attentionLabFrames.wake();  // redraw with the glyphs
    }).catch((e) => {
      Object.assign(status, { state: 'failed', error: String(e && e.message ? e.message : e) });
      console.warn(`attention lab: the CJK font could not be loaded (${status.error}): Chinese text shows as boxes`);
      module._attn_font_loaded(0, 0);
      if (window.attentionLabFrames) window.attentionLabFrames.wake();
    });
  }

  window.attentionLabFonts = {
    request,
    status: () => Object.assign({}, status),
    atlas: () => (lab ? JSON.parse(lab.UTF8ToString(lab._attn_font_status())) : null),
  };
})();
