#!/usr/bin/env python3
"""clang-tidy over the given sources, skipping the ones an earlier run found clean.

A file is skipped only when everything clang-tidy would read is unchanged:
the key hashes clang-tidy's version, .clang-tidy, the extra arguments, the
file's compile command and its preprocessed text (GCC's -E, which holds every
header it includes, so a change in src/core/*.hpp re-checks each file that
includes it). Only clean results are remembered, so a finding shows on every run.

usage: clang_tidy_cached.py BUILD_DIR CACHE_DIR [--extra-arg=A ...] SOURCE...
"""
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys

TIDY = 'clang-tidy-14'


def main():
    build_dir, cache_dir, *rest = sys.argv[1:]
    extra = [a for a in rest if a.startswith('--extra-arg=')]
    sources = [a for a in rest if not a.startswith('--extra-arg=')]
    with open(os.path.join(build_dir, 'compile_commands.json'), encoding='utf-8') as f:
        commands = {os.path.realpath(e['file']): e for e in json.load(f)}
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    with open(os.path.join(repo, '.clang-tidy'), 'rb') as f:
        config = f.read()
    version = subprocess.run([TIDY, '--version'], capture_output=True, check=True).stdout
    os.makedirs(cache_dir, exist_ok=True)

    def key(source):
        entry = commands[os.path.realpath(source)]
        argv = shlex.split(entry['command'])
        # The same flags, preprocessed to stdout instead of compiled to -o.
        out = argv.index('-o')
        # -P: no line markers, so a clone elsewhere (CI's) finds the same key;
        # the checkout's own path is taken out of the command for the same reason.
        preprocess = argv[:out] + argv[out + 2:] + ['-E', '-P']
        text = subprocess.run(preprocess, cwd=entry['directory'], capture_output=True, check=True).stdout
        text = text.replace(repo.encode(), b'<checkout>')  # __FILE__
        command = entry['command'].replace(repo, '<checkout>')
        h = hashlib.sha256()
        for part in (version, config, ' '.join(extra).encode(), command.encode(), text):
            h.update(len(part).to_bytes(8, 'little'))
            h.update(part)
        return h.hexdigest()

    def check(source):
        k = key(source)
        stamp = os.path.join(cache_dir, k)
        if os.path.exists(stamp):
            return source, True, ''
        run = subprocess.run([TIDY, '-quiet', '-p', build_dir, *extra, source], capture_output=True, text=True)
        output = run.stdout + run.stderr
        clean = run.returncode == 0 and 'warning: ' not in output and 'error: ' not in output
        if clean:
            open(stamp, 'w').close()
        return source, False, '' if clean else output

    failed = cached = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for source, hit, output in pool.map(check, sources):
            cached += hit
            if output:
                failed += 1
                print(output, end='')
    print(f'clang-tidy: {len(sources)} files, {cached} unchanged since a clean check, {failed} with findings')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
