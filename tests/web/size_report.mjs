// What the lab's first download is made of, in bytes as a static host
// serves them (each file gzipped at level 9), and inside the main module:
// its sections and its largest functions (named when the link wrote its
// symbol map beside it, attention_web.js.symbols: em++ --emit-symbol-map).
//
//   node tests/web/size_report.mjs <web build dir> [file ...]
//
// The files default to the English page's first download as fonts_e2e.mjs
// counts it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const gzipBytes = (bytes) => gzipSync(bytes, { level: 9 }).length;

function leb128(bytes, at) {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

const SECTION_NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start',
  'element', 'code', 'data', 'data count'];

// The module's sections ({name, bytes, gzipped}) and its functions' bodies
// ({index, bytes}, the index counting imported functions first, as the
// symbol map does).
export function wasmContents(wasm) {
  const sections = [];
  const bodies = [];
  let imported = 0;
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    let size;
    [size, at] = leb128(wasm, at + 1);
    const body = wasm.subarray(at, at + size);
    let name = SECTION_NAMES[id] ?? `section ${id}`;
    if (id === 0) {
      const [length, start] = leb128(body, 0);
      name = `custom "${new TextDecoder().decode(body.subarray(start, start + length))}"`;
    }
    if (id === 2) {  // imports: count the functions among them
      let [count, p] = leb128(body, 0);
      for (; count > 0; --count) {
        for (let s = 0; s < 2; ++s) {  // module and field names
          let length;
          [length, p] = leb128(body, p);
          p += length;
        }
        const kind = body[p++];
        if (kind === 0) {
          ++imported;
          [, p] = leb128(body, p);
        } else if (kind === 1) {  // table: type, limits
          p += 1;
          const flags = body[p++];
          [, p] = leb128(body, p);
          if (flags & 1) [, p] = leb128(body, p);
        } else if (kind === 2) {  // memory: limits
          const flags = body[p++];
          [, p] = leb128(body, p);
          if (flags & 1) [, p] = leb128(body, p);
        } else {  // global: type, mutability
          p += 2;
        }
      }
    }
    if (id === 10) {
      let [count, p] = leb128(body, 0);
      for (let i = 0; i < count; ++i) {
        let length;
        [length, p] = leb128(body, p);
        bodies.push({ index: imported + i, bytes: length });
        p += length;
      }
    }
    sections.push({ name, bytes: size, gzipped: gzipBytes(body) });
    at += size;
  }
  return { sections, bodies };
}

// index -> name, from Emscripten's symbol map ("index:name" lines), when there is one.
export function symbolNames(path) {
  const names = new Map();
  if (!existsSync(path)) return names;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const colon = line.indexOf(':');
    // wasm-opt writes characters other than a name's as \XX (hex).
    const name = line.slice(colon + 1).replace(/\\([0-9a-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    if (colon > 0) names.set(Number(line.slice(0, colon)), name);
  }
  return names;
}

// The report's lines: the files by gzipped size, then the main module's
// sections and its `most` largest functions.
export function sizeReport(webDir, files, most = 10) {
  const lines = [];
  const sized = files.map((file) => ({ file, gzipped: gzipBytes(readFileSync(join(webDir, file))) }))
    .sort((a, b) => b.gzipped - a.gzipped);
  const total = sized.reduce((sum, f) => sum + f.gzipped, 0);
  lines.push(`${total} bytes gzipped in ${files.length} files:`);
  for (const f of sized.slice(0, most)) lines.push(`  ${String(f.gzipped).padStart(8)}  ${f.file}`);
  const wasmPath = join(webDir, 'attention_web.wasm');
  if (!existsSync(wasmPath)) return lines;
  const { sections, bodies } = wasmContents(readFileSync(wasmPath));
  lines.push('attention_web.wasm by section (bytes, gzipped alone):');
  for (const s of sections.sort((a, b) => b.gzipped - a.gzipped)) {
    lines.push(`  ${String(s.bytes).padStart(8)} ${String(s.gzipped).padStart(8)}  ${s.name}`);
  }
  const names = symbolNames(join(webDir, 'attention_web.js.symbols'));
  lines.push(`its ${most} largest functions (bytes of code, of ${bodies.reduce((sum, b) => sum + b.bytes, 0)})` +
             (names.size ? ':' : ' (indices: a link with --emit-symbol-map writes attention_web.js.symbols, their names):'));
  for (const b of [...bodies].sort((x, y) => y.bytes - x.bytes).slice(0, most)) {
    lines.push(`  ${String(b.bytes).padStart(8)}  ${names.get(b.index) ?? `function ${b.index}`}`);
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const webDir = process.argv[2] ?? 'build/wasm/web';
  const files = process.argv.length > 3 ? process.argv.slice(3)
    : ['index.html', 'style.css', 'main.js', 'frames.js', 'utf16.js', 'messages.js', 'text_input.js', 'fonts.js',
      'attention_web.js', 'attention_web.wasm'];
  console.log(sizeReport(webDir, files, 20).join('\n'));
}
