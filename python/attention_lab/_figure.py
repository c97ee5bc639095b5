"""A figure of the lab in a notebook's output.

The output holds a <div> for the figure, the lab's files when it carries them
(_files.py), and a script: AttentionLab.embed (web/embed.js) with the
notebook's unpacker (web/notebook.js). The lab runs in an iframe of its own,
so its keys, its wheel and its WebGL context stay in the figure and never
reach the notebook's shortcuts.
"""
import json
import sys
import uuid

from . import _files
from ._weights import given_field

_settings = {"base_url": None, "embed": "every"}
_carried = set()  # digests this kernel has already sent in an output (embed="once")


def configure(base_url=None, embed=None):
    """Where figures get the lab's files.

    base_url: a published copy of the lab (the folder with index.html, e.g.
        "https://your.site/lab/"): outputs then carry no files and load it from
        there (it must allow being framed by the notebook's page). "": the
        files travel in the outputs again (no network, no server).
    embed: "every" (default: each output carries its files, so a saved,
        exported or partly re-run notebook keeps every figure, and Colab, whose
        outputs are pages of their own, shows them), or "once" (only the first
        figure with a given set of files carries them; later ones in the same
        page use its copy: smaller notebooks, but clearing or re-running that
        first output leaves the others without files).
    """
    if base_url is not None:
        _settings["base_url"] = base_url if not base_url or base_url.endswith("/") else base_url + "/"
    if embed is not None:
        if embed not in ("every", "once"):
            raise ValueError(f'attention_lab.configure: embed={embed!r}: expected "every" or "once"')
        _settings["embed"] = embed


def _chinese_needed(state):
    """Whether the figure may show Chinese (the CJK font goes with it): unless the
    interface is English and every text in the state is ASCII."""
    return state.get("lang") != "en" or not json.dumps(state, ensure_ascii=False).isascii()


class Figure:
    """One figure; Jupyter shows it through _repr_html_."""

    def __init__(self, state, height="auto"):
        self.state = dict(state)
        if not (height == "auto" or (isinstance(height, int) and not isinstance(height, bool) and 120 <= height <= 4000)):
            raise ValueError(f"attention_lab: height={height!r}: expected \"auto\" or a number of pixels from 120 to 4000")
        self.height = height
        self.id = f"attention-lab-{uuid.uuid4().hex[:12]}"

    def _files(self):
        """(digest, archive text or None) of the files this figure's view needs."""
        if _settings["base_url"]:
            return None, None
        names = _files.names_for(self.state.get("view", ""), _chinese_needed(self.state))
        digest, text = _files.archive(names)
        if _settings["embed"] == "once" and digest in _carried:
            return digest, None
        _carried.add(digest)
        return digest, text

    def html(self):
        digest, archive = self._files()
        options = {"id": self.id, "files": digest, "state": self.state, "height": self.height,
                   "base": _settings["base_url"]}
        carried = "" if archive is None else (
            f'<script type="text/plain" class="attention-lab-files" data-digest="{digest}">{archive}</script>\n')
        # "</" would end the script early inside a JSON string: escaped as in JSON.
        call = json.dumps(options, ensure_ascii=False).replace("</", "<\\/")
        return (
            f'<div id="{self.id}" class="attention-lab-figure" style="width:100%;min-height:40px">'
            '<p class="attention-lab-wait">Self-attention lab: this figure needs JavaScript. If it stays like this, '
            "the notebook is not trusted (Jupyter: File &gt; Trust notebook) or this output lost its script; run "
            "the cell again.</p></div>\n"
            + carried
            + "<script>\n(function () {\n"
            f"  if (!window.AttentionLabNotebook || window.AttentionLabNotebook.version !== {json.dumps(_version())}) {{\n"
            + _files.host_script().replace("</script", "<\\/script")
            + f"\n    window.AttentionLabNotebook.version = {json.dumps(_version())};\n  }}\n"
            f"  window.AttentionLabNotebook.show({call});\n"
            "})();\n</script>"
        )

    def _repr_html_(self):
        return self.html()

    def __repr__(self):
        return f"<attention_lab figure: {json.dumps(self.state, ensure_ascii=False)[:80]}>"


def _version():
    from . import __version__
    return __version__


def _display(figure):
    ipython = sys.modules.get("IPython")
    if ipython is not None and getattr(ipython, "get_ipython", lambda: None)() is not None:
        from IPython.display import display
        display(figure)
        return None
    return figure  # outside a notebook: the figure, for .html()


def figure(height="auto", **state):
    """The figure of a lab state, not yet shown (figure.html() is its output's HTML)."""
    return Figure(state, height=height)


def show(height="auto", **state):
    """Shows the lab inline, in the state given by the URL parameters' fields
    (view, text, mask, preset, heads, lang, theme, ...: docs/reference.md). A
    field the lab cannot apply is named in the figure and under it."""
    return _display(figure(height=height, **state))


def show_heatmaps(weights, tokens=None, titles=None, query_tokens=None, batch=0, height="auto", **state):
    """Draws attention weights computed elsewhere with the lab's heatmaps.

    weights: (queries, keys); (maps, queries, keys); (rows, cols, queries,
        keys) like d2l's show_heatmaps; or the tuple a Hugging Face model
        returns with output_attentions=True (one (batch, heads, queries, keys)
        array per layer: a row per layer, a column per head).
    tokens: the keys' labels (and the queries', unless query_tokens).
    titles: one per map, or one per column.
    """
    given = given_field(weights, tokens=tokens, query_tokens=query_tokens, titles=titles, batch=batch)
    return show(height=height, view="given", given=given, **state)
