// Strings cross from JavaScript into wasm as UTF-8 (Emscripten's stringToUTF8).
// A JS string can hold a lone surrogate (half of a UTF-16 pair, e.g. an emoji
// cut in two by substring), which has no UTF-8 form: stringToUTF8 in
// Emscripten 3.1.6 then silently makes another character of it and the next
// one ("ab\uD800cd" arrives as "ab𐁣d"). So every string the page passes in
// (compute(), set(), a host page's messages, typed and pasted text) is checked
// here first and refused with the position named; nothing is changed. A NUL
// (U+0000) is refused the same way: it would cut the UTF-8 string short.
// call() is the one way strings go in; tooLong() refuses one over 64 MiB
// before it takes any wasm memory (wasm memory never shrinks).
(function () {
  'use strict';
  const hex = (unit) => 'U+' + unit.toString(16).toUpperCase().padStart(4, '0');
  const MAX_BYTES = 64 * 1024 * 1024;  // the most a config may be (kMaxConfigBytes, src/api/json_input.hpp)

  window.attentionLabUtf16 = {
    // '' when `text` fits in wasm as UTF-8, otherwise how big it is.
    tooLong(text, Module) {
      const bytes = text.length > MAX_BYTES / 3 ? Module.lengthBytesUTF8(text) : 0;
      return bytes > MAX_BYTES ? bytes + ' bytes; the limit is 64 MiB' : '';
    },
    // Module[exportName](a UTF-8 copy of `text`) for a checked text; the
    // copy is freed afterwards.
    call(Module, exportName, text) {
      const size = Module.lengthBytesUTF8(text) + 1;
      const pointer = Module._malloc(size);
      try {
        Module.stringToUTF8(text, pointer, size);
        return Module[exportName](pointer);
      } finally {
        Module._free(pointer);
      }
    },
    // '' for valid UTF-16 without NUL, otherwise what is wrong and where (a code-unit index).
    check(text) {
      for (let i = 0; i < text.length; ++i) {
        const unit = text.charCodeAt(i);
        // A NUL would end the UTF-8 string in wasm early: the rest would be lost.
        if (unit === 0) return 'a NUL character (U+0000) at index ' + i + '; text cannot hold one';
        if (unit < 0xd800 || unit > 0xdfff) continue;
        const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
        if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          ++i;  // a pair: one character
          continue;
        }
        return 'not valid UTF-16: a lone surrogate ' + hex(unit) + ' at index ' + i +
          ' (half of a character pair)';
      }
      return '';
    },
    // The same for every string (keys too) in a JSON-like value, naming where:
    // 'text: not valid UTF-16: ...'. Deeper than 64 levels is left to the
    // JSON parser's own limit (and a cycle to JSON.stringify).
    checkValue(value, path, depth) {
      path = path || '';
      depth = depth || 0;
      if (typeof value === 'string') {
        const why = this.check(value);
        return why ? (path || 'value') + ': ' + why : '';
      }
      if (!value || typeof value !== 'object' || depth > 64) return '';
      for (const key of Object.keys(value)) {
        const at = Array.isArray(value) ? path + '[' + key + ']' : path ? path + '.' + key : key;
        const why = this.check(key) ? 'a field name: ' + this.check(key) : this.checkValue(value[key], at, depth + 1);
        if (why) return why;
      }
      return '';
    },
  };
})();
