"""Documents whose topics return: the development benchmark for non-contiguous segmentation.

Choi documents are contiguous (each topic appears once), so they cannot show whether a
method groups sentences that are far apart. Here each document takes 3-5 source segments
(each one a Choi segment, i.e. one topic), cuts every source segment of 4 or more sentences
into two chunks, and shuffles the chunks so that no two neighbours share a source (A B A C B
...). Gold label = source segment. Seeded. ``interleaved`` is built from Choi set 1 only (the
tuning set); ``interleaved-234``, its held-out twin, from the passages of sets 2-4 whose source
(the Brown document a Choi segment opens, :mod:`bpseg_bench.choi_sources`) is not in set 1,
each document drawing distinct sources (``distinct_sources``: in ``interleaved`` two segments of one
Brown document, its first 3 and first 9 sentences say, may meet in one document under two labels).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bpseg_bench.choi import ChoiDocument
from bpseg_bench.choi_sources import choi_passages, group_by_source, source_segments
from bpseg_pgm.types.document import Document

__all__ = ["InterleavedDocument", "make_interleaved", "source_segments"]


class InterleavedDocument(ChoiDocument):
    """A synthetic document, built as ``InterleavedDocument(sentences, labels, doc_id)``: a Choi-like
    :class:`~bpseg_pgm.types.document.Document` (``set`` 1, ``range`` ``"interleaved"``, no ``path``)
    whose gold label is the source segment. ``set`` is a tuple for a document built from several
    Choi sets (``(2, 3, 4)``), ``range`` the benchmark's name (``"interleaved-234"``)."""

    def __init__(
        self, sentences, labels: np.ndarray, doc_id: str, range: str = "interleaved", set: int | tuple[int, ...] = 1
    ):
        Document.__init__(self, doc_id, units=tuple(sentences), labels=labels, meta={"set": set, "range": range})


def make_interleaved(
    docs: list[ChoiDocument],
    n_docs: int = 60,
    seed: int = 0,
    min_sources: int = 3,
    max_sources: int = 5,
    exclude: Sequence[ChoiDocument] = (),
    distinct_sources: bool = False,
    name: str = "interleaved",
) -> list[InterleavedDocument]:
    """Build ``n_docs`` interleaved documents from the segments of ``docs`` (module docstring).

    ``exclude``: documents (the development set) whose sources are left out; ``distinct_sources``: each
    document draws ``min_sources``..``max_sources`` distinct sources (Brown documents) and one passage of
    each, rather than distinct segments; ``name``: the documents' ids (``<name>/<seed>/<n>``) and range.
    The defaults build ``interleaved`` (use set 1).
    """
    if n_docs < 1:
        raise ValueError(f"n_docs must be >= 1, got {n_docs}")
    if not 2 <= min_sources <= max_sources:
        raise ValueError("need 2 <= min_sources <= max_sources")
    passages = choi_passages(docs, exclude)
    pool = group_by_source(passages) if distinct_sources else [[p] for p in passages]
    if len(pool) < max_sources:
        what = "sources" if distinct_sources else "source segments"
        raise ValueError(f"need at least {max_sources} {what}, got {len(pool)}")
    sets = sorted({p.set for p in passages if p.set is not None})
    rng = np.random.default_rng(seed)
    out = []
    for d in range(n_docs):
        m = int(rng.integers(min_sources, max_sources + 1))
        chunks: list[tuple[tuple[str, ...], int]] = []
        for g, p in enumerate(rng.choice(len(pool), size=m, replace=False)):
            group = pool[p]  # one draw within a source of several passages (none for one: set 1 unchanged)
            seg = (group[0] if len(group) == 1 else group[int(rng.integers(len(group)))]).sentences
            if len(seg) >= 4:
                cut = int(rng.integers(2, len(seg) - 1))
                chunks += [(seg[:cut], g), (seg[cut:], g)]
            else:
                chunks.append((seg, g))
        order = _no_adjacent_repeats(chunks, rng)
        sentences = tuple(s for o in order for s in chunks[o][0])
        labels = np.concatenate([np.full(len(chunks[o][0]), chunks[o][1]) for o in order])
        out.append(
            InterleavedDocument(
                sentences, labels, f"{name}/{seed}/{d}", range=name, set=sets[0] if len(sets) == 1 else tuple(sets)
            )
        )
    return out


def _no_adjacent_repeats(chunks, rng) -> list[int]:
    """A shuffled order of chunk indices with no two neighbours from the same source."""
    best = list(rng.permutation(len(chunks)))
    for _ in range(200):
        order = list(rng.permutation(len(chunks)))
        if all(chunks[a][1] != chunks[b][1] for a, b in zip(order, order[1:])):
            return order
    return best
