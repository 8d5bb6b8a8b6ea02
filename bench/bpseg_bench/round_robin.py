"""Documents whose topics return, built from real sectioned documents: sections dealt round-robin.

Each built document takes 2-4 source documents (drawn without replacement, seeded), cuts each into its
gold sections (runs of one gold label) and keeps the first ``max_sections`` of them; the sections are then
dealt in turn, A1 B1 C1 A2 B2 C2 ..., and a unit's gold label is its source document. So every source
comes back after the others, as the chapters of a textbook would if their sections were interleaved.
Built from the development split only (``peps-train-rr``); ``peps-val-rr`` is its held-out twin.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bpseg_bench.corpus import LabelledDocument
from bpseg_pgm.utils.labels import run_bounds

__all__ = ["deal_in_turn", "make_round_robin"]


def deal_in_turn(hands: Sequence[Sequence]) -> list[tuple[int, object]]:
    """The items of ``hands`` dealt in turn, A1 B1 C1 A2 B2 C2 ... (a hand that runs out is skipped), each
    with the index of its hand."""
    longest = max((len(hand) for hand in hands), default=0)
    return [(g, hand[i]) for i in range(longest) for g, hand in enumerate(hands) if i < len(hand)]


def make_round_robin(
    docs: Sequence[LabelledDocument],
    n_docs: int = 60,
    seed: int = 0,
    min_sources: int = 2,
    max_sources: int = 4,
    max_sections: int = 4,
) -> list[LabelledDocument]:
    """``n_docs`` documents whose sections come from 2-4 of ``docs`` dealt round-robin (module docstring)."""
    if n_docs < 1:
        raise ValueError(f"n_docs must be >= 1, got {n_docs}")
    if not 2 <= min_sources <= max_sources:
        raise ValueError("need 2 <= min_sources <= max_sources")
    if len(docs) < max_sources:
        raise ValueError(f"need at least {max_sources} source documents, got {len(docs)}")
    if max_sections < 1:
        raise ValueError(f"max_sections must be >= 1, got {max_sections}")
    rng = np.random.default_rng(seed)
    out = []
    for d in range(n_docs):
        m = int(rng.integers(min_sources, max_sources + 1))
        hands = []
        for g, p in enumerate(rng.choice(len(docs), size=m, replace=False)):
            units = list(docs[p].units)
            seen: dict = {}  # a unit without a gold label is a section of its own
            codes = np.array(
                [seen.setdefault(("none", i) if x is None else x, len(seen)) for i, x in enumerate(docs[p].labels)]
            )
            b = run_bounds(codes)
            hands.append([(units[b[i] : b[i + 1]], g, docs[p].doc_id) for i in range(len(b) - 1)][:max_sections])
        dealt = [item for _, item in deal_in_turn(hands)]
        units = tuple(u for section, _, _ in dealt for u in section)
        labels = tuple(g for section, g, _ in dealt for _ in section)
        sources = sorted({src for _, _, src in dealt})
        out.append(LabelledDocument(f"round-robin/{seed}/{d}", units, labels, {"sources": sources}))
    return out
