#!/usr/bin/env python3
"""Serves the web build on 127.0.0.1 with the lab's Content-Security-Policy.

    python3 scripts/serve.py DIR [--port 8080] [--frame-ancestors "'self' https://book.example"]

The policy is DIR/csp.txt (web/csp.txt: one directive a line) plus
frame-ancestors, the pages that may embed the lab (default *: any page; the
postMessage protocol decides separately who may talk to it). scripts/run.sh
calls this; tests/web/csp_e2e.mjs checks the page works under the policy.
"""
import argparse
import functools
import http.server
from pathlib import Path


def policy(web_dir, frame_ancestors):
    lines = Path(web_dir, 'csp.txt').read_text(encoding='utf-8').splitlines()
    directives = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith('#')]
    return '; '.join(directives + ['frame-ancestors ' + frame_ancestors])


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, '.wasm': 'application/wasm',
                      '.js': 'text/javascript', '.mjs': 'text/javascript'}
    csp = ''

    def end_headers(self):
        self.send_header('Content-Security-Policy', self.csp)
        self.send_header('X-Content-Type-Options', 'nosniff')
        super().end_headers()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('directory')
    parser.add_argument('--port', type=int, default=8080)
    parser.add_argument('--frame-ancestors', default='*')
    args = parser.parse_args()
    Handler.csp = policy(args.directory, args.frame_ancestors)
    handler = functools.partial(Handler, directory=args.directory)
    with http.server.ThreadingHTTPServer(('127.0.0.1', args.port), handler) as server:
        server.serve_forever()


if __name__ == '__main__':
    main()
