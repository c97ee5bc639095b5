#!/usr/bin/env python3
"""Every program the scripts and tests run is installed by scripts/setup.sh.

    /usr/bin/python3 tests/setup/check_commands.py [--repo DIR] [--without PKG ...]

Finds the external commands that the project's scripts and tests invoke
(shell scripts, the browser/desktop test drivers, the Python CLI tests, the
CMake test registrations, plus what the toolchain runs behind CMake's back),
resolves each on PATH, asks dpkg which package owns it, and checks that the
package is one a bare Debian bookworm reader ends up with after set-up: listed
by `scripts/setup.sh --list-packages`, part of a minimal Debian (priority
required, essential, apt) with git, sudo and ca-certificates, or pulled in by
those through Depends/Pre-Depends. Fails with a message naming the command,
where it is used and the package to add.

--without PKG drops PKG from setup.sh's list first: the suite uses it to show
that the check fails when a package is missing (a check that cannot fail
proves nothing). The slow end-to-end proof of the same claim is
tests/setup/bare_debian.sh, which runs the README's commands in a debootstrap
chroot.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

# Programs that nothing in the repo names but that the build or a test runs
# all the same, with the reason.
IMPLICIT = {
    'ninja': 'CMakePresets.json builds with the Ninja generator',
    'c++': 'the native compiler CMake picks',
    'emcc': 'the wasm preset\'s Emscripten toolchain file',
    'em++': 'the wasm preset\'s Emscripten toolchain file',
    'wasm-opt': 'emcc optimises the wasm with binaryen',
    'node': 'emcc runs its JavaScript tools on node',
    'Xvfb': 'xvfb-run starts it',
    'xauth': 'xvfb-run creates the X authority file with it',
}
# Commands that the one script using them installs itself.
SELF_INSTALLED = {'debootstrap': 'bare_debian.sh installs it (host only)'}
DEBIAN_PATH = '/usr/sbin:/usr/bin:/sbin:/bin'
# What a reader has before set-up: debootstrap --variant=minbase (priority
# required + apt) with these added (the README's starting point).
BASE_EXTRA = {'apt', 'git', 'sudo', 'ca-certificates'}
# Prefix commands: the word after them is the command that runs.
PREFIXES = {'sudo', '$SUDO', 'exec', 'time', 'env', 'command', 'nice', 'xvfb-run', '-a'}
WORD = re.compile(r'^[A-Za-z0-9_][A-Za-z0-9_.+/-]*$')


def shell_words():
    out = subprocess.run(['bash', '-c', 'compgen -b; compgen -k'], capture_output=True, text=True, check=True)
    return set(out.stdout.split()) | {'[', '[[', ']]', '{', '}', '!'}


def strip_heredocs(lines):
    """Drops here-document bodies (they hold another language's code or text)."""
    kept, end = [], None
    for n, line in enumerate(lines, 1):
        if end is not None:
            if line.strip() == end:
                end = None
            continue
        m = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", line)
        if m:
            end = m.group(1)
        kept.append((n, line))
    return kept


def shell_commands(path, builtins):
    """(command, line) for each simple command's first word in a shell script."""
    text = path.read_text()
    functions = set(re.findall(r'^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)', text, re.M))
    found = []
    logical, start, in_array = '', None, False
    for n, line in strip_heredocs(text.splitlines()):
        # A multi-line array assignment (NAME=( ... )) holds words, not commands.
        if in_array or re.match(r'^\s*[A-Za-z_]\w*=\($', line.split('#')[0].rstrip()):
            in_array = not line.split('#')[0].rstrip().endswith(')') or not in_array
            continue
        if start is None:
            start = n
        if line.rstrip().endswith('\\'):
            logical += line.rstrip()[:-1] + ' '
            continue
        logical += line
        found += [(w, start) for w in _line_commands(logical, builtins | functions)]
        logical, start = '', None
    return found


def _line_commands(line, skip):
    try:
        lex = shlex.shlex(line, posix=True, punctuation_chars=';&|()<>')
        lex.commenters = '#'
        lex.whitespace_split = True
        tokens = list(lex)
    except ValueError:  # an unbalanced quote across lines: judge the pieces we can
        tokens = line.split()
    words, at_start, depth_arith, skip_until = [], True, 0, None
    for i, tok in enumerate(tokens):
        if tok.startswith('((') or (tok == '(' and i + 1 < len(tokens) and tokens[i + 1] == '('):
            depth_arith += 1
        if depth_arith:
            if tok.endswith('))') or (tok == ')' and i + 1 < len(tokens) and tokens[i + 1] == ')'):
                depth_arith -= 1
            continue
        # Command substitutions inside words: $(cmd ...).
        for inner in re.findall(r'\$\(([^()]*)\)', tok):
            words += _line_commands(inner, skip)
        if skip_until:
            if tok == skip_until:
                skip_until, at_start = None, True
            continue
        if tok in (';', ';;', '&&', '||', '|', '&', '(', ')', '|&') or tok in ('then', 'do', 'else', 'elif', 'if', 'while', 'until', '!'):
            at_start = True
            continue
        if tok in ('for', 'case', 'select'):
            skip_until = 'do' if tok != 'case' else 'in'
            continue
        if tok in ('<', '>', '>>', '<<', '<<<', '>&', '2>', '&>'):
            continue
        if not at_start:
            continue
        if re.match(r'^[A-Za-z_]\w*=$', tok) and nxt_is(tokens, i, '('):
            skip_until = ')'  # a one-line array assignment: NAME=(words)
            continue
        if tok in PREFIXES or re.match(r'^[A-Za-z_]\w*=', tok):
            continue  # the command is the next word
        at_start = False
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ''
        if nxt == ')' or tok in skip or not WORD.match(tok):
            continue  # a case pattern, a builtin/keyword/function, or a $variable
        words.append(tok)
    return words


def nxt_is(tokens, i, value):
    return i + 1 < len(tokens) and tokens[i + 1] == value


def js_commands(path):
    text = path.read_text()
    pattern = r"""(?:spawnSync|spawn|execFileSync|execFile|execSync|exec)\(\s*['"`]([^'"`\s]+)|executablePath:\s*['"]([^'"]+)"""
    return [(a or b, text.count('\n', 0, m.start()) + 1)
            for m in re.finditer(pattern, text) for a, b in [m.groups()]]


def python_commands(path):
    text = path.read_text()
    pattern = r"""subprocess\.(?:run|Popen|call|check_call|check_output)\(\s*\[\s*['"]([^'"]+)"""
    return [(m.group(1), text.count('\n', 0, m.start()) + 1) for m in re.finditer(pattern, text)]


def cmake_commands(path, targets):
    text = path.read_text()
    found = []
    for m in re.finditer(r'\bCOMMAND\s+([^\s)"]+)', text):
        if not m.group(1).startswith('$') and m.group(1) not in targets:
            found.append((m.group(1), text.count('\n', 0, m.start()) + 1))
    for m in re.finditer(r'set\(ATTN_\w+\s+(/\S+)\)', text):
        found.append((m.group(1), text.count('\n', 0, m.start()) + 1))
    return found


def shebang(path):
    # bytes: tests/fuzz/corpus holds binary inputs without a suffix
    first = path.read_bytes().split(b'\n', 1)[0].decode('utf-8', 'replace')
    if not first.startswith('#!'):
        return []
    parts = first[2:].split()
    return [(parts[1] if Path(parts[0]).name == 'env' and len(parts) > 1 else parts[0], 1)]


def discover(repo, builtins):
    """{command: [where, ...]} over the scripts, tests and build files."""
    uses = {}
    def add(cmd, where):
        uses.setdefault(cmd, []).append(where)
    files = sorted({*repo.glob('scripts/*.sh'), repo / '.ci/run', *repo.glob('tests/**/*'),
                    repo / 'CMakeLists.txt', *repo.glob('cmake/*.cmake'), *repo.glob('src/**/CMakeLists.txt')})
    # CMake targets run by add_test(... COMMAND target) are the project's own.
    targets = {t for f in files if f.name == 'CMakeLists.txt'
               for t in re.findall(r'add_executable\((\w+)', f.read_text())}
    for f in files:
        if not f.is_file():
            continue
        rel = f.relative_to(repo)
        found = list(shebang(f)) if f.suffix in ('', '.sh', '.py', '.mjs') else []
        if f.suffix == '.sh' or f == repo / '.ci/run':
            found += shell_commands(f, builtins)
        elif f.suffix in ('.mjs', '.js'):
            found += js_commands(f)
        elif f.suffix == '.py':
            found += python_commands(f)
        elif f.name == 'CMakeLists.txt' or f.suffix == '.cmake':
            found += cmake_commands(f, targets)
        for cmd, line in found:
            if '/' in cmd and not cmd.startswith('/'):
                continue  # the project's own scripts and build outputs
            add(cmd, f'{rel}:{line}')
    for cmd, why in IMPLICIT.items():
        add(cmd, why)
    return uses


def read_dpkg_status():
    """{package: fields} for the installed packages."""
    pkgs, fields, key = {}, {}, None
    for line in Path('/var/lib/dpkg/status').read_text(errors='replace').splitlines() + ['']:
        if not line:
            if fields.get('Status', '').endswith(' installed'):
                pkgs[fields['Package']] = fields
            fields, key = {}, None
        elif line[0] in ' \t' and key:
            fields[key] += ' ' + line.strip()
        elif ':' in line:
            key, _, value = line.partition(':')
            fields[key] = value.strip()
    return pkgs


def dependency_names(field):
    """Alternatives per dependency: 'a (>= 1) | b:any, c' -> [['a', 'b'], ['c']]."""
    return [[alt.split()[0].split(':')[0] for alt in group.split('|') if alt.strip()]
            for group in field.split(',') if group.strip()]


def closure(roots, pkgs):
    providers = {}
    for name, f in pkgs.items():
        for group in dependency_names(f.get('Provides', '')):
            for virtual in group:
                providers.setdefault(virtual, []).append(name)
    seen, todo = set(), [r for r in roots if r in pkgs]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        for field in ('Depends', 'Pre-Depends'):
            for group in dependency_names(pkgs[p].get(field, '')):
                for alt in group:
                    choice = [alt] if alt in pkgs else providers.get(alt, [])
                    if choice:
                        todo += choice
                        break
    return seen


_OWNERS = None


def owners():
    """Every installed file's package, read once from dpkg's file lists (what
    `dpkg-query -S` searches: one call of it took 0.4 s, 80 took half a minute)."""
    global _OWNERS
    if _OWNERS is None:
        _OWNERS = {}
        info = Path('/var/lib/dpkg/info')
        for listing in sorted(info.glob('*.list')):
            package = listing.stem.split(':')[0]
            for line in listing.read_text(errors='replace').splitlines():
                _OWNERS.setdefault(line, package)
    return _OWNERS


def owner(path):
    """The installed package that ships `path`, following symlinks (alternatives) and /usr-merge."""
    seen = set()
    while path and path not in seen:
        seen.add(path)
        candidates = [path]
        if path.startswith('/usr/'):
            candidates.append(path[4:])
        elif path.startswith(('/bin/', '/sbin/', '/lib')):
            candidates.append('/usr' + path)
        for c in candidates:
            if c in owners():
                return owners()[c]
        path = os.path.join(os.path.dirname(path), os.readlink(path)) if os.path.islink(path) else None
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--repo', default=str(Path(__file__).resolve().parents[2]))
    ap.add_argument('--without', action='append', default=[], help='drop a package from setup.sh\'s list')
    args = ap.parse_args()
    repo = Path(args.repo)

    listed = subprocess.run(['bash', str(repo / 'scripts/setup.sh'), '--list-packages'],
                            capture_output=True, text=True, check=True).stdout.split()
    listed = [p for p in listed if p not in args.without]
    pkgs = read_dpkg_status()
    base = {p for p, f in pkgs.items() if f.get('Priority') == 'required' or f.get('Essential') == 'yes'} | BASE_EXTRA
    from_base = closure(base, pkgs)
    from_setup = closure(set(listed), pkgs)
    not_installed = [p for p in listed if p not in pkgs and not (p == 'npm' and shutil.which('npm'))]

    uses = discover(repo, shell_words())
    failures = []
    print(f'{"command":<16} {"package":<22} {"why it is there":<36} used in')
    for cmd in sorted(uses, key=str.lower):
        where = uses[cmd][0] + (f' (+{len(uses[cmd]) - 1})' if len(uses[cmd]) > 1 else '')
        if cmd in SELF_INSTALLED:
            print(f'{cmd:<16} {"-":<22} {SELF_INSTALLED[cmd]:<36} {where}')
            continue
        # Only what Debian installs counts: /usr/local, pyenv shims and the
        # like are this machine's extras, which a bare Debian does not have.
        path = cmd if cmd.startswith('/') else shutil.which(cmd, path=DEBIAN_PATH)
        if not path or not os.path.exists(path):
            failures.append(f'{cmd!r} (used in {where}) is not installed: add the Debian package that ships it '
                            f'to PACKAGES in scripts/setup.sh (apt-file search, or `dpkg -S` where it is installed)')
            continue
        pkg = owner(path)
        if pkg in listed:
            why = 'listed in setup.sh'
        elif pkg in from_base:
            why = 'minimal Debian bookworm'
        elif pkg in from_setup:
            why = 'dependency of setup.sh\'s list'
        else:
            failures.append(f'{cmd!r} (used in {where}) comes from package {pkg or "(none: not installed by dpkg)"!r}, '
                            f'which neither scripts/setup.sh\'s PACKAGES nor a minimal Debian bookworm provides: '
                            f'add {pkg or "the package that ships it"!r} to PACKAGES')
            why = 'NOT PROVIDED'
        print(f'{cmd:<16} {pkg or "?":<22} {why:<36} {where}')
    for p in not_installed:
        failures.append(f'setup.sh lists {p!r} but it is not installed here: run scripts/setup.sh')
    print(f'\n{len(uses)} commands checked against {len(listed)} packages of scripts/setup.sh '
          f'({len(from_setup)} with their dependencies) and a minimal Debian bookworm ({len(from_base)} packages)')
    for f in failures:
        print('FAIL: ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
