// A minimal static file server for the browser test: 127.0.0.1, a free port,
// the right MIME types (WebAssembly.instantiateStreaming insists on
// application/wasm), nothing outside the served directory.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.woff2': 'font/woff2',
  '.data': 'application/octet-stream',
};

// Resolves with {server, url, requests, reports, hold}; requests lists
// [status, path] for the log. headers go on every reply (e.g. a
// Content-Security-Policy); a POST to /csp-report (the policy's report-uri) is
// kept in reports. hold(path) holds the next request for path (without a
// query), as a slow connection would, until the function it returns is
// called; later requests for it are answered at once.
export function serveDirectory(root, { headers = {} } = {}) {
  const base = resolve(root);
  const requests = [];
  const reports = [];
  const held = new Map();  // path -> the Promise its next request waits on
  const hold = (path) => {
    let release;
    held.set(path, new Promise((ok) => { release = ok; }));
    return release;
  };
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (held.has(req.url)) {
      const wait = held.get(req.url);
      held.delete(req.url);
      await wait;
    }
    const file = normalize(join(base, path.endsWith('/') ? path + 'index.html' : path));
    const reply = (status, body, type) => {
      requests.push([status, path]);
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    if (req.method === 'POST' && path === '/csp-report') {
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => { reports.push(body); reply(204, '', 'text/plain'); });
      return;
    }
    if (file !== base && !file.startsWith(base + sep)) return reply(403, 'forbidden', 'text/plain');
    try {
      reply(200, await readFile(file), MIME[extname(file)] ?? 'application/octet-stream');
    } catch {
      // The browser asks for a favicon on its own; that is not the page's fault.
      if (path === '/favicon.ico') return reply(204, '', 'image/x-icon');
      reply(404, 'not found', 'text/plain');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () =>
      ok({ server, url: `http://127.0.0.1:${server.address().port}/`, requests, reports, hold }));
  });
}
