"""The granularity levels the HTML view's slider offers: every re-cut the fit kept, from 1 to ``max_segments``.

A segmentation made by the pipeline keeps the runs model's levels (``seg.runs_fit``), so
``seg.recut(k)`` gives the document cut into k segments without refitting, for every k up to
``seg.max_segments``.  :func:`granularity_levels` collects them for the page: each level's labels, the legend
name of each of its segments (its heading when it starts at one, else its keywords) and each segment's heading
path.  The level the segmentation itself shows is taken as it is (for the topic model, its topics).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["MAX_LEVELS", "granularity_levels"]

#: The most levels a page carries (k = 1 to this); a fit that keeps more offers the first ones.
MAX_LEVELS = 100


def _level(seg: Any, name: Callable[[str | None, list[str]], str]) -> dict[str, Any]:
    keywords = seg.topic_keywords() if callable(getattr(seg, "topic_keywords", None)) else [[]] * seg.n_segments
    headings = getattr(seg, "segment_headings", None) or [None] * seg.n_segments
    return {
        "labels": [int(x) for x in seg.labels],
        "names": [name(h, w) for h, w in zip(headings, keywords)],
        "heading_paths": list(getattr(seg, "segment_heading_paths", None) or [[]] * seg.n_segments),
    }


def granularity_levels(seg: Any, name: Callable[[str | None, list[str]], str]) -> dict[int, dict[str, Any]]:
    """``{k: level}`` for every k from 1 to ``seg.max_segments`` (at most :data:`MAX_LEVELS`) whose re-cut the
    fit kept, the segmentation's own labels at its own number of segments; ``{}`` when it keeps no levels
    (``max_segments`` None, e.g. read from JSON) or only one.

    Each level is ``{"labels": [...], "names": [...], "heading_paths": [...]}``: each sentence's segment
    (0-based), each segment's legend name (``name(heading, keywords)``, HTML) and heading path.
    """
    top = getattr(seg, "max_segments", None)
    if not top or top < 2 or not callable(getattr(seg, "recut", None)):
        return {}
    own = seg.n_segments
    levels: dict[int, dict[str, Any]] = {}
    for k in range(1, min(top, MAX_LEVELS) + 1):
        if k == own:
            levels[k] = _level(seg, name)
            continue
        try:
            levels[k] = _level(seg.recut(k), name)
        except ValueError:  # a level the fit could not fill
            continue
    if own not in levels:
        levels[own] = _level(seg, name)
    return dict(sorted(levels.items())) if len(levels) > 1 else {}
