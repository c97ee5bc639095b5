// Copies one of the page's own scripts (or its page or styles) without its comments and indentation
// (the build's copy; the sources in web/ keep them): the lab's first download
// has a 400 KB budget (tests/web/fonts_e2e.mjs), and the comments were half
// of its scripts' gzipped bytes. acorn (Debian's node-acorn, which emcc uses
// too) finds the comments and the template literals, so nothing inside a
// string, a regular expression or a template changes; a removed comment
// leaves a space or a line break, so no two tokens join and no line that ends
// a statement goes. The result is parsed again before it is written.
//
//   node scripts/strip_js.mjs IN OUT      (NODE_PATH=/usr/share/nodejs)
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let acorn;
try {
  acorn = require('acorn');
} catch {
  acorn = require('/usr/share/nodejs/acorn');
}

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node scripts/strip_js.mjs IN OUT');
  process.exit(2);
}
const source = readFileSync(input, 'utf8');
// The page and its styles: their comments (<!-- -->, /* */: neither file has
// one inside a string or an attribute) and indentation.
if (/\.(html|css)$/.test(input)) {
  const text = source.replace(input.endsWith('.html') ? /<!--[\s\S]*?-->/g : /\/\*[\s\S]*?\*\//g, '');
  writeFileSync(output, text.split('\n').map((line) => line.trim()).filter((line) => line).join('\n') + '\n');
  process.exit(0);
}
const options = { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true };
const comments = [];
const templates = [];  // [start, end) of template literal text, kept byte for byte
acorn.parse(source, {
  ...options,
  onComment: comments,
  onToken: (token) => { if (token.type.label === 'template') templates.push([token.start, token.end]); },
});

let text = '';
let at = 0;
for (const c of comments) {
  text += source.slice(at, c.start) + (source.slice(c.start, c.end).includes('\n') ? '\n' : ' ');
  at = c.end;
}
text += source.slice(at);

// Where the template literals ended up after the comments went: map each by
// its offset shift (comments never sit inside a template).
const kept = [];
{
  let shift = 0, i = 0;
  for (const [start, end] of templates) {
    while (i < comments.length && comments[i].end <= start) {
      const c = comments[i++];
      shift += c.end - c.start - 1;  // each comment became one character
    }
    kept.push([start - shift, end - shift]);
  }
}
const insideTemplate = (offset) => kept.some(([s, e]) => offset > s && offset < e);

const lines = [];
let offset = 0;
for (const line of text.split('\n')) {
  const end = offset + line.length;
  if (insideTemplate(offset)) lines.push(line);              // begins inside a template: as it is
  else if (insideTemplate(end)) lines.push(line.trimStart()); // a template goes on past its end
  else if (line.trim()) lines.push(line.trim());
  offset = end + 1;
}
const stripped = lines.join('\n') + '\n';
acorn.parse(stripped, options);  // still a script
writeFileSync(output, stripped);
