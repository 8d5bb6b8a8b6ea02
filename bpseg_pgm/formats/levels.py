"""The granularity levels the HTML view's slider offers: every re-cut the fit kept, from 1 to ``max_segments``.

A segmentation made by the pipeline keeps the runs model's levels (``seg.runs_fit``), so
``seg.recut(k)`` gives the document cut into k segments without refitting, for every k up to
``seg.max_segments``.  :func:`granularity_levels` collects them for the page: each level's labels
(``seg.level_labels(k)``, the labels of ``seg.recut(k)`` without its beliefs), the legend name of each of its
segments (its heading when it starts at one, else its keywords) and each segment's heading path.  The level the
segmentation itself shows is taken as it is (for the topic model, its segments).

The keywords are those of ``seg.recut(k).segment_keywords()`` (class-based TF-IDF,
:mod:`bpseg_pgm.keywords`), computed from one count of each sentence's words for all levels: a class's counts
are the sum of its sentences' counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from bpseg_pgm.keywords import DEFAULT_TOP_N, keyword_tokens

__all__ = ["MAX_LEVELS", "granularity_levels"]

#: The most levels a page carries (k = 1 to this); a fit that keeps more offers the first ones.
MAX_LEVELS = 100


class _Keywords:
    """Each sentence's candidate words counted once; the keywords of any grouping of the sentences."""

    def __init__(self, sentences: list[str]):
        from sklearn.feature_extraction.text import CountVectorizer

        vectorizer = CountVectorizer(analyzer=keyword_tokens)
        try:
            self.counts = vectorizer.fit_transform(sentences).tocsr()
            self.words = vectorizer.get_feature_names_out()  # sorted: ties fall back to alphabetical order
        except ValueError:  # no candidate word anywhere
            self.counts, self.words = None, None

    def of(self, labels: np.ndarray, m: int, top_n: int = DEFAULT_TOP_N) -> list[list[str]]:
        if self.counts is None:
            return [[] for _ in range(m)]
        import scipy.sparse as sp  # loaded with the keywords, not with the package

        from bpseg_pgm.keywords.transformer import ClassTfidfTransformer

        groups = sp.csr_matrix((np.ones(len(labels)), (labels, np.arange(len(labels)))), shape=(m, len(labels)))
        scores = ClassTfidfTransformer().fit_transform(groups @ self.counts).tocsr()
        out = []
        for c in range(m):
            row = scores.getrow(c)
            keep = row.data > 0
            cols, vals = row.indices[keep], row.data[keep]
            order = np.lexsort((cols, -vals))[:top_n]  # by score, then by word
            out.append([str(self.words[i]) for i in cols[order]])
        return out


def _level(seg: Any, labels: np.ndarray, keywords: list[list[str]], name: Callable) -> dict[str, Any]:
    m = int(labels.max()) + 1 if labels.size else 0
    first = [int(np.argmax(labels == j)) for j in range(m)]
    paths = getattr(seg, "heading_paths", None)
    if paths is None:
        heads, heading_paths = [None] * m, [[] for _ in range(m)]
    else:
        heads = [paths[i][-1] if paths[i] and (i == 0 or paths[i] != paths[i - 1]) else None for i in first]
        heading_paths = [list(paths[i]) for i in first]
    return {
        "labels": labels.tolist(),
        "names": [name(h, w) for h, w in zip(heads, keywords)],
        "heading_paths": heading_paths,
    }


def granularity_levels(seg: Any, name: Callable[[str | None, list[str]], str]) -> dict[int, dict[str, Any]]:
    """``{k: level}`` for every k from 1 to ``seg.max_segments`` (at most :data:`MAX_LEVELS`) whose re-cut the
    fit kept, the segmentation's own labels at its own number of segments; ``{}`` when it keeps no levels
    (``max_segments`` None, e.g. read from JSON) or only one.

    Each level is ``{"labels": [...], "names": [...], "heading_paths": [...]}``: each sentence's segment
    (0-based, in reading order), each segment's legend name (``name(heading, keywords)``, HTML) and heading
    path.
    """
    top = getattr(seg, "max_segments", None)
    level_labels = getattr(seg, "level_labels", None)
    if not top or top < 2 or not callable(level_labels):
        return {}
    own = seg.n_segments
    words = _Keywords(list(seg.sentences))
    named: dict[tuple, str] = {}

    def once(heading: str | None, keywords: list[str]) -> str:  # each name made once, not once a level
        key = (heading, tuple(keywords))
        if key not in named:
            named[key] = name(heading, keywords)
        return named[key]

    levels: dict[int, dict[str, Any]] = {}
    for k in range(1, min(top, MAX_LEVELS) + 1):
        if k == own:
            continue
        try:
            labels = np.asarray(level_labels(k), dtype=np.int64)
        except ValueError:  # a level the fit could not fill
            continue
        m = int(labels.max()) + 1 if labels.size else 0
        levels[k] = _level(seg, labels, words.of(labels, m), once)
    own_labels = np.asarray(seg.labels, dtype=np.int64)
    levels[own] = _level(seg, own_labels, seg.segment_keywords(), once)
    return dict(sorted(levels.items())) if len(levels) > 1 else {}
