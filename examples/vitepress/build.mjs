// Builds the example site: the lab's web build copied into
// docs/public/labs/attention/, then VitePress. The site's pages reach the lab
// by relative URLs (the Markdown's iframe) and withBase (the component), so
// one copy of the lab works under any base path.
//
//   node examples/vitepress/build.mjs <lab web dir> [--base /signal-to-intelligence/] [--site <dir>] [--out <dir>]
//
// <lab web dir>: the wasm build's web folder (build/wasm/web after scripts/run.sh or
// scripts/test.sh). --base: VitePress's base path (default /). --site: build a
// copy of docs/ there instead (the tests do, so the checkout stays clean; it
// must be inside the repository, where node_modules is found). The site lands
// in --out, else <docs or site>/.vitepress/dist.
import { cp, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vitepress';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const base = option('--base', '/');
const site = option('--site', null);
const out = option('--out', null);
const [webDir] = args;
if (!webDir || !base.startsWith('/') || !base.endsWith('/')) {
  console.error('usage: node build.mjs <lab web dir> [--base /path/] [--site <dir>] [--out <dir>]');
  process.exit(2);
}
try {
  await stat(join(webDir, 'embed.js'));
  await stat(join(webDir, 'attention_web.wasm'));
} catch (e) {
  console.error(`build.mjs: ${webDir} is not the lab's web build (no embed.js or attention_web.wasm): ${e.message}`);
  process.exit(1);
}

const docs = site ? resolve(site) : join(here, 'docs');
if (site) {
  await rm(docs, { recursive: true, force: true });
  await cp(join(here, 'docs'), docs, {
    recursive: true,
    filter: (path) => !/[\\/](public[\\/]labs|\.vitepress[\\/](cache|dist))$/.test(path),
  });
}
const labs = join(docs, 'public', 'labs', 'attention');
await rm(labs, { recursive: true, force: true });
await mkdir(labs, { recursive: true });
await cp(webDir, labs, { recursive: true });
const outDir = out ? resolve(out) : join(docs, '.vitepress', 'dist');
await build(docs, { base, outDir });
console.log(`build.mjs: the site is in ${outDir} (base ${base})`);
