"""Bad configs and bad usage: attention_cli must answer with exit code 2 and
one line on stderr naming the offending field; never a crash or a signal.
"""
import os
import sys
import tempfile

from cli_common import Checks, run_cli

cli = sys.argv[1]
c = Checks("cli_bad_configs")

# (what, config text, a word the one-line message must contain)
BAD = [
    ("not JSON", "this is not json", "config"),
    ("empty input", "", "config"),
    ("truncated JSON", '{"Q": [[1, 2]', "Q"),
    ("top level is an array", "[[1, 2], [3, 4]]", "config"),
    ("Q is a string", '{"Q": "1 2 3", "K": [[1]], "V": [[1]]}', "Q"),
    ("matrix entry is a string", '{"Q": [["1"]], "K": [[1]], "V": [[1]]}', "Q[0][0]"),
    ("NaN via 1e999", '{"Q": [[1e999]], "K": [[1]], "V": [[1]]}', "Q"),
    ("-1e999 in V", '{"Q": [[1]], "K": [[1]], "V": [[-1e999]]}', "V"),
    ("1e300 overflows float32", '{"Q": [[1e300]], "K": [[1]], "V": [[1]]}', "Q[0][0]"),
    ("ragged Q", '{"Q": [[1, 2], [3]], "K": [[1, 2]], "V": [[1]]}', "Q"),
    ("empty K", '{"Q": [[1]], "K": [], "V": [[1]]}', "K"),
    ("empty row", '{"Q": [[]], "K": [[1]], "V": [[1]]}', "Q"),
    ("Q and K disagree on d_k", '{"Q": [[1, 2]], "K": [[1, 2, 3]], "V": [[1]]}', "K"),
    ("V has the wrong number of rows", '{"Q": [[1]], "K": [[1], [2]], "V": [[1]]}', "V"),
    ("missing V", '{"Q": [[1]], "K": [[1]]}', "V"),
    ("heads do not divide d_model", '{"text": "a b c", "d_model": 32, "heads": 5}', "heads"),
    ("heads is zero", '{"text": "a b c", "d_model": 32, "heads": 0}', "heads"),
    ("heads is a string", '{"text": "a b c", "heads": "4"}', "heads"),
    ("unknown field", '{"text": "a b c", "colour": "red"}', "colour"),
    ("unknown mask", '{"text": "a b c", "mask": "diagonal"}', "mask"),
    ("unknown mask object field", '{"text": "a b c", "mask": {"pad": 1, "side": "left"}}', "mask"),
    ("huge d_model", '{"text": "a b c", "d_model": 1000000000}', "d_model"),
    ("fractional d_model", '{"text": "a b c", "d_model": 31.5}', "d_model"),
    ("empty text", '{"text": "", "d_model": 8}', "text"),
    ("whitespace-only text", '{"text": "  \\n\\t ", "d_model": 8}', "text"),
    ("text is a number", '{"text": 42}', "text"),
    ("too many tokens", '{"text": "' + "w " * 1100 + '"}', "text"),
    ("negative scale", '{"text": "a b c", "scale": -1}', "scale"),
    ("zero scale", '{"Q": [[1]], "K": [[1]], "V": [[1]], "scale": 0}', "scale"),
    ("unknown scale", '{"Q": [[1]], "K": [[1]], "V": [[1]], "scale": "log"}', "scale"),
    ("mask of the wrong size", '{"text": "a b c", "mask": [[1, 0], [1, 1]]}', "mask"),
    ("explicit mask of the wrong size", '{"Q": [[1], [2]], "K": [[1], [2]], "V": [[1], [2]], "mask": [[1]]}', "mask"),
    ("mask entry 2", '{"Q": [[1]], "K": [[1]], "V": [[1]], "mask": [[2]]}', "mask"),
    ("negative seed", '{"text": "a b c", "seed": -3}', "seed"),
    ("negative pad", '{"text": "a b c", "mask": {"pad": -1}}', "pad"),
    ("padding without tokens", '{"Q": [[1]], "K": [[1]], "V": [[1]], "mask": "padding"}', "mask"),
    ("unknown experiment", '{"experiment": "fig99"}', "experiment"),
    ("experiment with extra field", '{"experiment": "fig41", "heads": 2}', "heads"),
    ("no config kind", '{"mask": "causal"}', "config"),
    ("scores overflow float32", '{"Q": [[1e30]], "K": [[1e30]], "V": [[1]]}', "Q"),
    ("deep nesting", '{"Q": ' + "[" * 200000 + "]" * 200000 + "}", "Q"),
    ("key with a newline", '{"a\\nb": 1}', "unknown field"),
    ("invalid UTF-8", b'{"text": "\xff\xfe"}', "text"),
    # ---- the explorer's set-up fields ----
    ("unknown projection", '{"text": "a b c", "projection": "learned"}', "projection"),
    ("projection is a number", '{"text": "a b c", "projection": 1}', "projection"),
    ("trained projection, 0 steps", '{"text": "a b c", "projection": "trained", "trained_steps": 0}', "trained_steps"),
    ("trained_steps without the trained projection", '{"text": "a b c", "trained_steps": 5}', "trained_steps"),
    ("trained projection, too slow to retrain", '{"text": "a b", "projection": "trained", "d_model": 512, "heads": 1, "trained_steps": 100}', "trained_steps"),
    ("chapter projection with d_head 1", '{"text": "a b c", "d_model": 4, "heads": 4, "projection": "chapter"}',
     "projection"),
    ("positions is 1", '{"text": "a b c", "positions": 1}', "positions"),
    ("positions is a string", '{"text": "a b c", "positions": "yes"}', "positions"),
    ("temperature 0", '{"text": "a b c", "temperature": 0}', "temperature"),
    ("negative temperature", '{"text": "a b c", "temperature": -2}', "temperature"),
    ("temperature is a string", '{"text": "a b c", "temperature": "hot"}', "temperature"),
    ("temperature is true", '{"text": "a b c", "temperature": true}', "temperature"),
    ("temperature 1e999", '{"text": "a b c", "temperature": 1e999}', "temperature"),
    ("temperature rounds to 0 in float32", '{"text": "a b c", "temperature": 1e-50}', "temperature"),
    ("temperature so small the scores overflow", '{"text": "a b c", "temperature": 1e-40}', "temperature"),
    ("explicit temperature 0", '{"Q": [[1]], "K": [[1]], "V": [[1]], "temperature": 0}', "temperature"),
    ("explicit temperature is null", '{"Q": [[1]], "K": [[1]], "V": [[1]], "temperature": null}', "temperature"),
    ("heads over 64", '{"text": "a b c", "d_model": 130, "heads": 65}', "heads"),
    ("16 heads x 600 tokens", '{"text": "' + "w " * 600 + '", "d_model": 64, "heads": 16}', "heads"),
    ("too many pads", '{"text": "a b c", "mask": {"pad": 1022}}', "text"),
    ("pad count over the limit", '{"text": "a b c", "mask": {"pad": 5000}}', "pad"),
    ("pad count is a string", '{"text": "a b c", "mask": {"pad": "3"}}', "pad"),
    ("custom mask too large", '{"text": "a b", "mask": [[1, 1, 1], [1, 1, 1], [1, 1, 1]]}', "mask"),
    ("custom mask not square", '{"text": "a b", "mask": [[1, 1, 1], [1, 1, 1]]}', "mask"),
    ("custom mask entry is a string", '{"text": "a b", "mask": [[1, "0"], [1, 1]]}', "mask[0][1]"),
    ("experiment is a number", '{"experiment": 41}', "experiment"),
    ("unknown causal-like experiment", '{"experiment": "causal2"}', "experiment"),
    ("text and experiment together", '{"experiment": "causal", "text": "a b"}', "text"),
    ("seed in an experiment", '{"experiment": "causal", "seed": 3}', "seed"),
    ("projection in an experiment", '{"experiment": "fig41", "projection": "identity"}', "projection"),
    ("pads appended to an experiment", '{"experiment": "causal", "mask": {"pad": 2}}', "mask"),
    ("experiment custom mask of the wrong size", '{"experiment": "fig41", "mask": [[1, 1], [1, 1]]}', "mask"),
    ("unknown field in an experiment", '{"experiment": "fig41", "colour": "red"}', "colour"),
    ("Q beside a text", '{"text": "a b", "Q": [[1]]}', "Q"),
]

for what, text, field in BAD:
    data = text if isinstance(text, bytes) else text.encode()
    p = run_cli(cli, "attend", "--config", "-", stdin=data)
    err = p.stderr.decode(errors="replace")
    lines = err.splitlines()
    ok = p.returncode == 2 and len(lines) == 1 and field in lines[0] and p.stdout == b""
    c.check(ok, f"{what}: exit 2, one line naming {field!r}",
            f"rc={p.returncode} stderr={err[:300]!r} stdout={p.stdout[:100]!r}")

# ---- usage errors -------------------------------------------------------------------
def usage(what, args, rc=2, needle=""):
    p = run_cli(cli, *args)
    text = (p.stdout + p.stderr).decode(errors="replace")
    c.check(p.returncode == rc and needle in text, f"{what}: exit {rc}", f"rc={p.returncode} {text[:200]!r}")

def one_line(what, args, needle):
    """A mistake in a command's flags: exit 2 and one line on stderr naming it (flags.hpp)."""
    p = run_cli(cli, *args)
    lines = p.stderr.decode(errors="replace").splitlines()
    c.check(p.returncode == 2 and len(lines) == 1 and needle in lines[0] and p.stdout == b"",
            f"{what}: exit 2, one line naming {needle!r}", f"rc={p.returncode} {lines[:3]!r}")

# No command or an unknown one: the message and then the usage.
usage("no command", [], needle="usage")
usage("unknown command", ["fig43"], needle="usage")
one_line("unknown flag", ["fig41", "--csv"], needle="'--csv'")
one_line("--config on fig41", ["fig41", "--config", "x"], needle="--config")
one_line("--json on attend", ["attend", "--json", "--config", "-"], needle="--json")
one_line("attend without --config", ["attend"], needle="--config")
one_line("--config without a file", ["attend", "--config"], needle="--config")
one_line("--config given twice", ["attend", "--config", "a", "--config", "b"], needle="twice")
usage("missing config file", ["attend", "--config", "/nonexistent/config.json"], needle="/nonexistent/config.json")
usage("config is a directory", ["attend", "--config", tempfile.gettempdir()], needle="cannot read")
usage("--help", ["--help"], rc=0, needle="usage")
usage("fig41 --help", ["fig41", "--help"], rc=0, needle="usage")

# An unreadable file (skip when running as root, who can read anything).
if os.geteuid() != 0:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write("{}")
    os.chmod(f.name, 0)
    usage("unreadable config file", ["attend", "--config", f.name], needle="cannot open")
    os.unlink(f.name)
c.exit()
