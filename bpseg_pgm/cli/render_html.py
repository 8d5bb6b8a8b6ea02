"""The page ``bpseg segment --format html`` writes: :func:`bpseg_pgm.text.render.render_html` as a whole page.

The renderer lives in :mod:`bpseg_pgm.text.render` (``Segmentation.to_html()`` and Jupyter use it too).
"""

from __future__ import annotations

from bpseg_pgm.text.colors import segment_colors
from bpseg_pgm.text.render import render_html as _render_html

__all__ = ["render_html", "segment_colors"]


def render_html(seg, title: str = "BP-Seg segmentation", low_belief: float = 0.5) -> str:
    """The segmentation as a self-contained HTML page (see :mod:`bpseg_pgm.text.render`)."""
    return _render_html(seg, title=title, full_page=True, low_belief=low_belief)
