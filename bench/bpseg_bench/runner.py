"""The one benchmark runner: every benchmark segments a document with a method through :func:`segment`.

A method (:mod:`bpseg_bench.methods`) says what its estimator needs besides the
embeddings: the gold number of segments (an oracle, ``uses_gold_k``; of topics or of contiguous
runs, ``gold_k_kind``) and the unit weights the text pipeline gives (``uses_weights``).
:func:`segment` honours both, so ``bpseg bench choi``, ``bpseg bench interleaved`` and
``bpseg bench corpus`` run a method the same way; each benchmark then scores and reports the
labels in its own table.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from bpseg_bench.methods import METHODS, make_estimator
from bpseg_pgm.text.pipeline import encode_batch
from bpseg_pgm.types.document import Document
from bpseg_pgm.utils.labels import n_runs

__all__ = ["check_seed", "embed_documents", "gold_k", "make_embedder", "segment"]


def check_seed(seed) -> int:
    """The random_state of every seeded method: a non-negative integer."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def make_embedder(embedder=None, progress: bool | None = None):
    """``embedder``, or the default ``Embedder`` (bundled MiniLM, on-disk cache) showing ``progress``."""
    if embedder is not None:
        return embedder
    from bpseg_pgm.embeddings import Embedder

    return Embedder(show_progress=progress)


def embed_documents(docs: Sequence[Document], embedder) -> tuple[list[np.ndarray], float]:
    """Every unit of ``docs`` embedded in one call; the rows of each document, and the seconds it took."""
    start = time.perf_counter()
    vectors = encode_batch(embedder, [list(d.units) for d in docs])
    seconds = time.perf_counter() - start
    out, offset = [], 0
    for doc in docs:
        out.append(vectors[offset : offset + len(doc)])
        offset += len(doc)
    return out, seconds


def gold_k(doc: Document, kind: str) -> int:
    """The gold count an oracle gets: contiguous ``"runs"`` of the labelled units, or ``"segments"`` (topics)."""
    if kind == "runs":
        return n_runs(doc.gold)
    return doc.n_segments


def segment(doc: Document, X: np.ndarray, name: str, seed: int) -> tuple[np.ndarray, float]:
    """The labels method ``name`` gives document ``doc`` (embeddings ``X``), and the seconds its fit took."""
    method = METHODS[name]
    k = gold_k(doc, method.gold_k_kind) if method.uses_gold_k else None
    estimator = make_estimator(name, len(doc), seed, gold_k=k)
    t0 = time.perf_counter()
    if method.uses_weights:
        from bpseg_pgm.features.units import Units

        # what the text pipeline gives the estimator: weights, and the words the automatic granularity reads
        units = Units.from_sentences(doc.units, embeddings=X, words=method.uses_words)
        labels = np.asarray(estimator.fit_predict(units))
    else:
        labels = np.asarray(estimator.fit_predict(X))
    return labels, time.perf_counter() - t0
