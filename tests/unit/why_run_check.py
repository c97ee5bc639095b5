#!/usr/bin/python3
"""The "why attention" view's numbers against attention_cli's: why_run_dump
trains each panel as the page does (in slices of a frame's budget) and prints
its report; `attention_cli why ... --json` runs the same experiment in one
slice. The two documents must be equal, number for number:

    why_run_check.py DUMP CLI

DUMP is tests/unit/why_run_dump (native) or its .js (wasm, run with node: the
browser's arithmetic); CLI is the native attention_cli. Short runs, small
batches: equality does not need long training, and every model must have
moved from its start (an untrained run would agree trivially).
"""
import json
import subprocess
import sys

RUNS = [
    (['recurrence', '8', '25', '8', '3'], ['why', 'recurrence', '--distance', '8']),
    (['recurrence', '0', '20', '8', '5'], ['why', 'recurrence', '--distance', 'mix']),
    (['qkv', 'previous', '25', '8', '3'], ['why', 'qkv', '--task', 'previous']),
    (['qkv', 'lookup', '25', '8', '7'], ['why', 'qkv', '--task', 'lookup']),
]


def run(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def models(doc):
    if doc['experiment'] == 'recurrence':
        return {k: doc[k] for k in ('rnn', 'gru', 'attention', 'cnn')}
    task = 'previous' if 'previous' in doc else 'lookup'
    return {f'{task}.{k}': v for k, v in doc[task].items()}


def main():
    dump, cli = sys.argv[1], sys.argv[2]
    failures = 0
    for dump_args, cli_args in RUNS:
        panel, _, steps, batch, seed = dump_args
        view = run((['node', dump] if dump.endswith('.js') else [dump]) + dump_args)
        line = run([cli] + cli_args + ['--steps', steps, '--batch', batch, '--seed', seed, '--json'])
        untrained = run([cli] + cli_args + ['--steps', '0', '--batch', batch, '--seed', seed, '--json'])
        what = ' '.join(cli_args)
        same = view == line
        moved = all(m['loss'] != models(untrained)[k]['loss'] for k, m in models(line).items())
        print(f"[{'PASS' if same else 'FAIL'}] {what} --steps {steps}: the view's report is the CLI's "
              f"({len(json.dumps(view))} bytes of JSON)")
        print(f"[{'PASS' if moved else 'FAIL'}] {what}: every model moved from its start")
        if not same:
            for k, m in models(line).items():
                v = models(view).get(k)
                if v != m:
                    print(f'  {k}: view loss {v and v["loss"]}, CLI loss {m["loss"]}')
        failures += (not same) + (not moved)
    print('why_run_check:', 'OK' if failures == 0 else f'{failures} failure(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
