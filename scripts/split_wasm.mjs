// Splits the main module in two (Binaryen's wasm-split): attention_web.wasm,
// the first download, and attention_web.deferred.wasm, fetched once the
// first view is ready (web/main.js) or the moment a view needs it sooner.
//
//   node scripts/split_wasm.mjs ROOTS MODULE.wasm.orig MODULE.wasm MODULE.deferred.wasm
//
// ROOTS (src/platform/deferred_code.txt) names the functions the first view
// never calls: the other views' draw and describe functions, their work each
// frame, and the exports behind attentionLab's JSON calls. Deferred are those
// roots and every function only they call (directly, in the call graph
// wasm-opt prints); every other export, and everything the exports and the
// table's functions call without passing through a root, stays. The lab asks
// for the deferred part before it draws a view whose code is not there
// (ui/shell/views.cpp); a call that comes sooner anyway (an attentionLab call
// right at ready) loads it at once, synchronously (main.js's loadSplitModule),
// so nothing ever fails for its code being late, and the first download's
// count (tests/web/first_download_e2e.mjs) shows if the first view has come
// to need it.
//
// MODULE.wasm.orig is the linked module with its function names
// (em++ --profiling-funcs -sSPLIT_MODULE=1); both outputs are written without names.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [rootsFile, original, primaryOut, deferredOut] = process.argv.slice(2);
if (!deferredOut) {
  console.error('usage: node scripts/split_wasm.mjs ROOTS MODULE.wasm.orig MODULE.wasm MODULE.deferred.wasm');
  process.exit(2);
}
// The features emcc builds the lab with (the module has no target_features section to say so).
const FEATURES = ['--enable-simd', '--enable-mutable-globals'];
const run = (tool, args) => execFileSync(tool, [...FEATURES, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: 'pipe' });

// The call graph: every function (export, import, indirect target or plain) and its direct calls.
// Names are as wasm-opt prints them (\XX for characters outside a name's); wasm-split reads them so.
const kinds = new Map();
const calls = new Map();
for (const line of run('wasm-opt', [original, '--print-call-graph']).split('\n')) {
  let m = line.match(/^ {2}"(.*)" \[style="([^"]*)"(?:, fillcolor="(\w+)")?\];$/);
  if (m) {
    kinds.set(m[1], m[3] === 'gray' ? 'export' : m[3] === 'turquoise' ? 'import'
                  : m[2] === 'filled, rounded' ? 'indirect' : 'function');
    continue;
  }
  m = line.match(/^ {2}"(.*)" -> "(.*)"; \/\/ call$/);
  if (m) {
    if (!calls.has(m[1])) calls.set(m[1], []);
    calls.get(m[1]).push(m[2]);
  }
}
// Each name as C++ spells it, decoded once (the loops below look at them many times).
const readable = new Map([...kinds.keys()].map((name) => [name,
  name.replace(/\\([0-9a-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))]));

// Each line of ROOTS: the start of one or more functions' names ("#" begins a comment).
const prefixes = readFileSync(rootsFile, 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
const roots = new Set();
for (const prefix of prefixes) {
  const named = [...kinds.keys()].filter((name) => readable.get(name).startsWith(prefix));
  if (!named.length) {
    console.error(`split_wasm: no function in ${original} is named ${prefix}... (${rootsFile} must follow the code)`);
    process.exit(1);
  }
  for (const name of named) roots.add(name);
}

function reached(starts, stops) {
  const seen = new Set(starts);
  const todo = [...starts];
  while (todo.length) {
    for (const callee of calls.get(todo.pop()) ?? []) {
      if (seen.has(callee) || stops.has(callee)) continue;
      seen.add(callee);
      todo.push(callee);
    }
  }
  return seen;
}
// A function in the table may be called from anywhere that holds its address,
// so it stays, with all it calls, unless only deferred code can hold it: a
// lambda of a deferred function (its name is inside that function's, and so
// are its std::function's). Which functions are deferred and which lambdas
// they own depend on each other: start with every table function owned, then
// keep (as a root of the first part) each one whose owner is not deferred,
// until no more change. Kept ones only ever grow, so this ends.
const exported = [...kinds].filter(([name, kind]) => kind === 'export' && !roots.has(name)).map(([name]) => name);
const inTable = [...kinds].filter(([name, kind]) => kind === 'indirect' && !roots.has(name)).map(([name]) => name);
let owned = new Set(inTable);
let deferred;
for (;;) {
  const stops = new Set([...roots, ...owned]);
  const kept = reached([...exported, ...inTable.filter((name) => !owned.has(name))], stops);
  deferred = new Set([...reached(stops, new Set())].filter((name) => !kept.has(name) && kinds.get(name) !== 'import'));
  const scopes = [...deferred].map((name) => readable.get(name) + '::');
  const next = new Set(inTable.filter((name) => deferred.has(name) && scopes.some((scope) => readable.get(name).includes(scope))));
  if (next.size === owned.size) break;
  owned = next;
}
deferred = [...deferred];

const list = join(tmpdir(), `split_wasm_${process.pid}.txt`);
writeFileSync(list, deferred.join('\n') + '\n');
try {
  run('wasm-split', [original, `--split-funcs=@${list}`, '-o1', primaryOut, '-o2', deferredOut]);
} finally {
  rmSync(list, { force: true });
}
// Optimised once more, as emcc did before the split: the calls that now go
// through the table leave the first part 1.4 KB gzipped to spare.
for (const file of [primaryOut, deferredOut]) run('wasm-opt', [file, '--strip-debug', '--strip-producers', '-Oz', '-o', file]);
rmSync(original);  // names and all: not for a site
console.log(`split_wasm: ${deferred.length} of ${kinds.size} functions deferred`);
