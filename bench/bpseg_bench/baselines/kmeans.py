"""k-means baseline of the paper's appendix: scikit-learn KMeans with k = min(20, n)."""

from __future__ import annotations

import numpy as np
from sklearn.cluster import KMeans

from bpseg_bench.baselines._validation import check_embeddings


class KMeansSegmenter:
    """Cluster sentence embeddings with ``sklearn.cluster.KMeans``, ignoring sentence order.

    ``n_clusters=None`` uses the paper's Choi setting k = min(max_clusters, n) with
    ``max_clusters=20``; an explicit ``n_clusters`` (the illustrative example's k = 2..7) is
    also capped at n. Everything else is scikit-learn's default (k-means++, ``n_init``).
    """

    def __init__(self, n_clusters: int | None = None, max_clusters: int = 20, random_state=None):
        self.n_clusters = n_clusters
        self.max_clusters = max_clusters
        self.random_state = random_state

    def fit_predict(self, X) -> np.ndarray:
        """Return one cluster label per row of ``X``."""
        X = check_embeddings(X)
        for name in ("n_clusters", "max_clusters"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        k = self.n_clusters if self.n_clusters is not None else self.max_clusters
        k = min(k, X.shape[0])
        model = KMeans(n_clusters=k, random_state=self.random_state)
        self.labels_ = model.fit_predict(X)
        self.n_clusters_ = k
        return self.labels_
