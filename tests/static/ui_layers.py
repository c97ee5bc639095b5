#!/usr/bin/env python3
"""Counts the include arrows in src/ui that run from a lower layer back up.

src/ui's folders are its layers, lowest first (ARCHITECTURE.md):

  0 i18n      the string tables and tr()
  1 widgets   the plot layer: plot, theme, panel, tabs, ids, url_text, records
              (it knows no AppState)
  2 state     AppState, the frame's records, the views' ids, the state
              fields, presets, the scaling lab's models, export requests
  3 explorer, chapter, scaling,     the views (side by side: one may not
    poem, why include another)
  4 a11y      the accessible copy of the open view
  5 shell     app_frame, the views table, notices, the export popup

An #include "ui/<folder>/..." in a file of src/ui/<folder'>/ is an arrow;
it runs back up when <folder> is a higher layer than <folder'>, and sideways
when both are views. Prints every such arrow and the counts;
--max-up N / --max-sideways N make it exit 1 above those.

  python3 tests/static/ui_layers.py [--max-up N] [--max-sideways N]

The suite runs it as ctest ui_layers (tests/static/CMakeLists.txt).
"""
import argparse
import pathlib
import re
import sys

LAYERS = {'i18n': 0, 'widgets': 1, 'state': 2, 'explorer': 3, 'chapter': 3, 'scaling': 3, 'poem': 3, 'why': 3, 'given': 3, 'a11y': 4, 'shell': 5}
INCLUDE = re.compile(r'^\s*#\s*include\s+"ui/([^/"]+)/[^"]+"', re.M)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--max-up', type=int)
    parser.add_argument('--max-sideways', type=int)
    args = parser.parse_args()
    ui = pathlib.Path(__file__).resolve().parents[2] / 'src' / 'ui'
    if not ui.is_dir():
        print(f'no {ui}')
        return 1
    up, sideways, unplaced = [], [], []
    for path in sorted(ui.rglob('*')):
        if path.suffix not in ('.hpp', '.cpp', '.in'):
            continue
        rel = path.relative_to(ui)
        folder = rel.parts[0] if len(rel.parts) > 1 else None
        if folder not in LAYERS:
            unplaced.append(f'{rel}: not in a layer folder')
            continue
        for target in INCLUDE.findall(path.read_text(encoding='utf-8')):
            if target not in LAYERS:
                unplaced.append(f'{rel} includes ui/{target}/, not a layer folder')
            elif LAYERS[target] > LAYERS[folder]:
                up.append(f'{rel} -> ui/{target}/ (layer {LAYERS[folder]} -> {LAYERS[target]})')
            elif LAYERS[target] == LAYERS[folder] and target != folder:
                sideways.append(f'{rel} -> ui/{target}/ (two views)')
    for line in up:
        print('up:', line)
    for line in sideways:
        print('sideways:', line)
    for line in unplaced:
        print('unplaced:', line)
    print(f'{len(up)} include(s) back up, {len(sideways)} sideways between views, {len(unplaced)} unplaced')
    failed = bool(unplaced) or (args.max_up is not None and len(up) > args.max_up) or \
        (args.max_sideways is not None and len(sideways) > args.max_sideways)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
