"""Attention weights from a notebook as the lab's `given` field.

The lab draws weights it did not compute as a grid of heatmaps: rows x cols
maps of queries x keys, like d2l's show_heatmaps. This module only reshapes
and serialises; the lab itself checks the numbers (rows that do not sum to 1,
NaN, negative weights, too many tokens) and says in the figure what is wrong.
"""
import math

import numpy as np

# The lab's own limit on the numbers of one figure (src/core/given/given_weights.hpp,
# GivenLimits::kMaxWeights): more cannot be drawn, so they are not sent.
MAX_WEIGHTS = 1 << 22


def _array(value):
    """A numpy array of floats from numpy, a list, or a framework's tensor (torch, tf)."""
    for step in ("detach", "cpu"):  # torch: off the autograd graph, onto the CPU
        if hasattr(value, step) and callable(getattr(value, step)):
            value = getattr(value, step)()
    if hasattr(value, "numpy") and callable(value.numpy) and not isinstance(value, np.ndarray):
        value = value.numpy()
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"attention_lab: the weights are not numbers: {error}") from None


def as_maps(weights, batch=0):
    """weights as one (rows, cols, queries, keys) array.

    (queries, keys): one head. (maps, queries, keys): one row of maps.
    (rows, cols, queries, keys): d2l's show_heatmaps layout.
    A list or tuple of (batch, heads, queries, keys) arrays: the attentions a
    Hugging Face model returns with output_attentions=True, one row per layer,
    one column per head, of the batch's item `batch`.
    """
    if isinstance(weights, (list, tuple)) and weights and all(np.ndim(_array(w)) == 4 for w in weights):
        layers = [_array(w) for w in weights]
        if any(w.shape[1:] != layers[0].shape[1:] for w in layers):
            raise ValueError("attention_lab: the layers' attentions differ in shape: "
                             + ", ".join(str(w.shape) for w in layers))
        if not 0 <= batch < layers[0].shape[0]:
            raise ValueError(f"attention_lab: batch={batch}, but the batch has {layers[0].shape[0]} item(s)")
        return np.stack([w[batch] for w in layers])
    maps = _array(weights)
    if maps.ndim == 2:
        return maps[np.newaxis, np.newaxis]
    if maps.ndim == 3:
        return maps[np.newaxis]
    if maps.ndim == 4:
        return maps
    raise ValueError(f"attention_lab: weights of shape {maps.shape}: expected (queries, keys), (maps, queries, keys), "
                     "(rows, cols, queries, keys) or a tuple of (batch, heads, queries, keys) arrays")


def _number(x):
    # JSON has no NaN or infinity: the lab reads these strings and reports them.
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return float(f"{x:.7g}")  # float32's precision: the lab's weights are floats


def given_field(weights, tokens=None, query_tokens=None, titles=None, batch=0):
    """The `given` state field: {"weights": nested lists, "tokens": ..., "titles": ...}."""
    maps = as_maps(weights, batch)
    if maps.size > MAX_WEIGHTS:
        raise ValueError(f"attention_lab: {maps.size:,} weights of shape {maps.shape}; a figure draws at most "
                         f"{MAX_WEIGHTS:,}: show fewer layers, heads or tokens")
    given = {"weights": [[[[_number(x) for x in row] for row in m] for m in col] for col in maps.tolist()]}
    if tokens is not None:
        given["tokens"] = [str(t) for t in tokens]
    if query_tokens is not None:
        given["query_tokens"] = [str(t) for t in query_tokens]
    if titles is not None:
        given["titles"] = [str(t) for t in titles]
    return given

