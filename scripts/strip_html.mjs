// Copies the page (index.html) without its comments and indentation: the
// build's copy (web/ keeps them). Its scripts and styles are minified by
// esbuild instead (src/platform/CMakeLists.txt); the page has no comment
// inside an attribute or a script, so dropping every <!-- --> is safe.
//
//   node scripts/strip_html.mjs IN OUT
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node scripts/strip_html.mjs IN OUT');
  process.exit(2);
}
const text = readFileSync(input, 'utf8').replace(/<!--[\s\S]*?-->/g, '');
writeFileSync(output, text.split('\n').map((line) => line.trim()).filter((line) => line).join('\n') + '\n');
