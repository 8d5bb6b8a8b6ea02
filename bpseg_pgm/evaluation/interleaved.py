"""Documents whose topics return: the development benchmark for non-contiguous segmentation.

Choi documents are contiguous (each topic appears once), so they cannot show whether a
method groups sentences that are far apart. Here each document takes 3-5 source segments
(each one a Choi segment, i.e. one topic), cuts every source segment of 4 or more sentences
into two chunks, and shuffles the chunks so that no two neighbours share a source (A B A C B
...). Gold label = source segment. Built from Choi set 1 only (the tuning set), seeded.
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.evaluation.choi import ChoiDocument
from bpseg_pgm.types.document import Document


class InterleavedDocument(ChoiDocument):
    """A synthetic document, built as ``InterleavedDocument(sentences, labels, doc_id)``: a Choi-like
    :class:`~bpseg_pgm.types.document.Document` (``set`` 1, ``range`` ``"interleaved"``, no ``path``)
    whose gold label is the source segment."""

    def __init__(self, sentences, labels: np.ndarray, doc_id: str, range: str = "interleaved", set: int = 1):
        Document.__init__(self, doc_id, units=tuple(sentences), labels=labels, meta={"set": set, "range": range})


def source_segments(docs: list[ChoiDocument]) -> list[tuple[str, ...]]:
    """Every gold segment of the given documents, as a tuple of sentences, deduplicated."""
    seen: dict[tuple[str, ...], None] = {}
    for d in docs:
        labels = np.asarray(d.labels)
        for lab in np.unique(labels):
            seg = tuple(s for s, l in zip(d.sentences, labels) if l == lab)
            seen.setdefault(seg, None)
    return list(seen)


def make_interleaved(
    docs: list[ChoiDocument], n_docs: int = 60, seed: int = 0, min_sources: int = 3, max_sources: int = 5
) -> list[InterleavedDocument]:
    """Build ``n_docs`` interleaved documents from the segments of ``docs`` (use set 1)."""
    if n_docs < 1:
        raise ValueError(f"n_docs must be >= 1, got {n_docs}")
    if not 2 <= min_sources <= max_sources:
        raise ValueError("need 2 <= min_sources <= max_sources")
    segs = source_segments(docs)
    if len(segs) < max_sources:
        raise ValueError(f"need at least {max_sources} source segments, got {len(segs)}")
    rng = np.random.default_rng(seed)
    out = []
    for d in range(n_docs):
        m = int(rng.integers(min_sources, max_sources + 1))
        chunks: list[tuple[tuple[str, ...], int]] = []
        for g, p in enumerate(rng.choice(len(segs), size=m, replace=False)):
            seg = segs[p]
            if len(seg) >= 4:
                cut = int(rng.integers(2, len(seg) - 1))
                chunks += [(seg[:cut], g), (seg[cut:], g)]
            else:
                chunks.append((seg, g))
        order = _no_adjacent_repeats(chunks, rng)
        sentences = tuple(s for o in order for s in chunks[o][0])
        labels = np.concatenate([np.full(len(chunks[o][0]), chunks[o][1]) for o in order])
        out.append(InterleavedDocument(sentences, labels, f"interleaved/{seed}/{d}"))
    return out


def _no_adjacent_repeats(chunks, rng) -> list[int]:
    """A shuffled order of chunk indices with no two neighbours from the same source."""
    best = list(rng.permutation(len(chunks)))
    for _ in range(200):
        order = list(rng.permutation(len(chunks)))
        if all(chunks[a][1] != chunks[b][1] for a, b in zip(order, order[1:])):
            return order
    return best
