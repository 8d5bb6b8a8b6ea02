"""The two trivial contiguous baselines: everything in one segment, and k equal-length blocks.

A segmenter that does not beat equal blocks given the true number of segments has learnt
nothing about where topics change; one segment is the floor for Pk (no boundary is ever
wrong by more than the window).
"""

from __future__ import annotations

import numpy as np

from bpseg_bench.baselines._validation import check_embeddings


class OneSegment:
    """Label every unit 0."""

    def fit_predict(self, X) -> np.ndarray:
        X = check_embeddings(X)
        self.labels_ = np.zeros(X.shape[0], dtype=np.int64)
        return self.labels_


class EqualBlocks:
    """Cut the document into ``n_segments`` contiguous blocks of (almost) equal length."""

    def __init__(self, n_segments: int):
        self.n_segments = n_segments

    def fit_predict(self, X) -> np.ndarray:
        X = check_embeddings(X)
        k = self.n_segments
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"n_segments must be a positive integer, got {k!r}")
        n = X.shape[0]
        k = min(int(k), n)
        self.labels_ = (np.arange(n) * k) // n
        return self.labels_
