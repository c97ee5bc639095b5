"""The self-attention lab in a notebook (Jupyter, JupyterLab, Colab).

    import attention_lab
    attention_lab.show(text="我爱自然语言处理", mask="causal")   # any view, any state
    attention_lab.show_heatmaps(weights, tokens=tokens)        # your own attention weights

The figures run the lab's own WebAssembly in the browser; its files travel in
the outputs (no server, no network). docs/notebooks.md has the rest.
"""
from ._figure import Figure, configure, figure, show, show_heatmaps

__version__ = "1.0.0"
__all__ = ["Figure", "configure", "figure", "show", "show_heatmaps"]
