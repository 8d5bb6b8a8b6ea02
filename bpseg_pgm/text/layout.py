"""The structure a text carries: each unit's paragraph and heading level, found from where the units lie.

The sentence splitter (:mod:`bpseg_pgm.text.split`) already treats blank lines as hard boundaries and, in
Markdown, headings as units of their own. :func:`unit_layout` records what it saw, so the model can use it
(:class:`~bpseg_pgm.features.Units`, :mod:`bpseg_pgm.decisions.layout`):

* a unit starts a new **paragraph** when a blank line separates it from the unit before it, when it is a
  heading, or when it follows one;
* a unit is a **heading** of level 1-6 when the text is read as Markdown and the unit is an ATX (``## Title``)
  or setext (underlined) heading, or when it is read as reStructuredText, HTML or numbered plain text
  (:mod:`bpseg_pgm.structure`) and the unit is a section title there; otherwise its level is 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bpseg_pgm.chunks.markdown import markdown_blocks
from bpseg_pgm.structure.detect import STRUCTURED, read_structure
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.spans import BLANK_LINE

__all__ = ["unit_layout"]


def unit_layout(
    text: str, spans: Sequence[Span], markdown: bool = False, format: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(paragraphs, headings)`` of the units at ``spans`` (character ranges of ``text``, in reading order):
    each unit's paragraph number (0, 1, ...) and heading level (0: not a heading; only with ``markdown`` or a
    ``format`` read by :mod:`bpseg_pgm.structure`, "rst", "html" or "numbered", whose view gives the paragraphs)."""
    n = len(spans)
    headings = np.zeros(n, dtype=np.int64)
    if format in STRUCTURED and not markdown and n:
        blocks = read_structure(text, format)
        text = blocks.view
        level_at = dict(zip(blocks.headings, blocks.heading_levels))
        for i, span in enumerate(spans):
            headings[i] = level_at.get(tuple(span), 0)
    elif markdown and n:
        blocks = markdown_blocks(text)
        level_at = dict(zip(blocks.headings, blocks.heading_levels))
        for i, span in enumerate(spans):
            headings[i] = level_at.get(tuple(span), 0)
    paragraphs = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        gap = text[spans[i - 1][1] : spans[i][0]]
        new = bool(BLANK_LINE.search(gap)) or headings[i] > 0 or headings[i - 1] > 0
        paragraphs[i] = paragraphs[i - 1] + int(new)
    return paragraphs, headings
