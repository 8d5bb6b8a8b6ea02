"""The units of a structured text: each unit block whole, the prose between them split into sentences."""

from __future__ import annotations

import bisect
from collections.abc import Callable

from bpseg_pgm.structure.blocks import Structure
from bpseg_pgm.types.chunk import Span

__all__ = ["block_spans"]


def block_spans(structure: Structure, prose: Callable[[str, int, int], list[Span]]) -> list[Span]:
    """Unit spans of a structured text: each of ``structure.units`` is one unit; the text between them is split by
    ``prose(view, start, end)`` (the sentence splitter), never across the start of an atomic block (a list item)."""
    view = structure.view
    item_starts = sorted(a for a, _ in structure.atomic)
    spans: list[Span] = []
    pos = 0
    for a, b in [*structure.units, (len(view), len(view))]:
        if b <= pos:
            continue
        a = max(a, pos)
        cuts = [pos, *item_starts[bisect.bisect_right(item_starts, pos) : bisect.bisect_left(item_starts, a)], a]
        for lo, hi in zip(cuts, cuts[1:]):
            spans.extend(prose(view, lo, hi))
        if a < b and view[a:b].strip():
            spans.append((a, b))
        pos = max(pos, b)
    return spans
