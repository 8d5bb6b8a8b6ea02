"""Documents whose topics return, built from Choi passages cut into pieces dealt round-robin.

A second construction beside :mod:`bpseg_bench.interleaved` (whose chunks are shuffled), so that
nothing is tuned to one construction. Each built document takes 2-4 passages from distinct sources (a
passage is one Choi segment; its source the Brown document it opens, :mod:`bpseg_bench.choi_sources`),
cuts each into 2-3 pieces of at least 2 sentences at seeded cut points (uniform over the ways to cut), and
deals the pieces in turn, A1 B1 C1 A2 B2 C2 ...: every source returns, and sources cut into more pieces
are dealt first, so that no two neighbours share a source. Gold label = source passage.

``choi-1-rr`` is built from Choi set 1 (the tuning set), ``choi-234-rr`` from the passages of sets 2-4
whose source is not in set 1 (held out). Passages too short to cut (under ``min_pieces * min_piece``
sentences) are not drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bpseg_bench.choi_sources import choi_passages, group_by_source
from bpseg_bench.corpus import LabelledDocument
from bpseg_bench.round_robin import deal_in_turn
from bpseg_pgm.types.document import Document

__all__ = ["cut_sizes", "make_choi_round_robin"]


def make_choi_round_robin(
    docs: Sequence[Document],
    n_docs: int = 60,
    seed: int = 0,
    min_sources: int = 2,
    max_sources: int = 4,
    min_pieces: int = 2,
    max_pieces: int = 3,
    min_piece: int = 2,
    exclude: Sequence[Document] = (),
    name: str = "choi-rr",
) -> list[LabelledDocument]:
    """``n_docs`` documents of pieces of ``min_sources``..``max_sources`` Choi passages dealt round-robin.

    Parameters
    ----------
    docs : Choi documents whose gold segments are the passages.
    n_docs : number of documents to build.
    seed : seed of every draw (sources, passages, piece counts, cut points).
    min_sources, max_sources : passages (distinct sources) per document, ``2 <= min <= max``.
    min_pieces, max_pieces : pieces per passage, ``2 <= min <= max`` (fewer when a passage is too short
        for ``max_pieces`` pieces of ``min_piece`` sentences).
    min_piece : the fewest sentences in a piece (>= 1).
    exclude : documents (the development set) whose sources are not drawn.
    name : the documents' ids, ``<name>/<seed>/<n>``.

    Returns
    -------
    list of LabelledDocument
        Units = sentences, labels = the passage's position in the deal (0, 1, ...), ``meta``:
        ``"sets"`` (the Choi sets drawn from), ``"passages"`` (where each passage was found) and ``"pieces"``
        (each passage's piece sizes), by label.
    """
    for value, what in (
        (n_docs, "n_docs"),
        (min_sources, "min_sources"),
        (max_sources, "max_sources"),
        (min_pieces, "min_pieces"),
        (max_pieces, "max_pieces"),
        (min_piece, "min_piece"),
    ):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{what} must be an integer, got {value!r}")
    if n_docs < 1:
        raise ValueError(f"n_docs must be >= 1, got {n_docs}")
    if not 2 <= min_sources <= max_sources:
        raise ValueError(f"need 2 <= min_sources <= max_sources, got {min_sources} and {max_sources}")
    if not 2 <= min_pieces <= max_pieces:
        raise ValueError(f"need 2 <= min_pieces <= max_pieces, got {min_pieces} and {max_pieces}")
    if min_piece < 1:
        raise ValueError(f"min_piece must be >= 1, got {min_piece}")
    shortest = min_pieces * min_piece
    passages = [p for p in choi_passages(docs, exclude) if len(p.sentences) >= shortest]
    pool = group_by_source(passages)
    if len(pool) < max_sources:
        raise ValueError(
            f"need at least {max_sources} sources with a passage of {shortest} or more sentences, got {len(pool)}"
        )
    sets = sorted({p.set for p in passages if p.set is not None})
    rng = np.random.default_rng(seed)
    out = []
    for d in range(n_docs):
        m = int(rng.integers(min_sources, max_sources + 1))
        hands = []
        for s in rng.choice(len(pool), size=m, replace=False):
            passage = pool[s][int(rng.integers(len(pool[s])))]
            n = len(passage.sentences)
            pieces = int(rng.integers(min_pieces, min(max_pieces, n // min_piece) + 1))
            bounds = np.concatenate([[0], np.cumsum(cut_sizes(n, pieces, min_piece, rng))])
            hands.append((passage, [passage.sentences[a:b] for a, b in zip(bounds, bounds[1:])]))
        hands.sort(key=lambda hand: -len(hand[1]))  # stable: the most pieces first, so no neighbours repeat
        dealt = [(piece, g) for g, piece in deal_in_turn([ps for _, ps in hands])]  # A1 B1 C1 A2 B2 C2 ...
        units = tuple(u for piece, _ in dealt for u in piece)
        labels = tuple(g for piece, g in dealt for _ in piece)
        meta = {
            "sets": sets,
            "passages": [p.where for p, _ in hands],
            "pieces": [[len(x) for x in ps] for _, ps in hands],
        }
        out.append(LabelledDocument(f"{name}/{seed}/{d}", units, labels, meta))
    return out


def cut_sizes(n: int, pieces: int, min_piece: int, rng: np.random.Generator) -> np.ndarray:
    """Sizes of ``pieces`` consecutive pieces of ``n`` sentences, each >= ``min_piece``, drawn uniformly over
    all such cuts (a composition of ``n - pieces * (min_piece - 1)`` into positive parts)."""
    if pieces < 1 or min_piece < 1 or n < pieces * min_piece:
        raise ValueError(f"cannot cut {n} sentences into {pieces} pieces of at least {min_piece}")
    free = n - pieces * (min_piece - 1)
    cuts = np.sort(rng.choice(np.arange(1, free), size=pieces - 1, replace=False))
    return np.diff(np.concatenate([[0], cuts, [free]])) + (min_piece - 1)
