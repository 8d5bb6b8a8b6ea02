"""Edge sets for the sentence graph: all pairs (the paper), or sparse ones for long documents.

Edges are returned as an (m, 2) int64 array of pairs (i, j) with i < j, sorted, unique.
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.utils.validation import normalize_rows


def all_pairs(n: int) -> np.ndarray:
    """Every pair i < j: the paper's fully connected graph."""
    i, j = np.triu_indices(n, k=1)
    return np.stack([i, j], axis=1).astype(np.int64)


def window_pairs(n: int, width: int) -> np.ndarray:
    """Pairs of sentences at most ``width`` apart in reading order."""
    if width < 1:
        raise ValueError(f"window width must be >= 1, got {width}")
    parts = [np.stack([np.arange(n - d), np.arange(d, n)], axis=1) for d in range(1, min(width, n - 1) + 1)]
    return canonical_pairs(np.concatenate(parts) if parts else np.zeros((0, 2)), n)


def knn_pairs(X: np.ndarray, n_neighbors: int) -> np.ndarray:
    """Each sentence linked to its ``n_neighbors`` most cosine-similar others (symmetrised)."""
    from sklearn.neighbors import NearestNeighbors

    n = X.shape[0]
    if n_neighbors < 1:
        raise ValueError(f"n_neighbors must be >= 1, got {n_neighbors}")
    kk = min(n_neighbors + 1, n)
    # on unit rows Euclidean distance ranks like cosine, and scikit-learn's Euclidean search is faster
    Xn = normalize_rows(np.asarray(X, dtype=np.float64))
    idx = NearestNeighbors(n_neighbors=kk).fit(Xn).kneighbors(Xn, return_distance=False)
    pairs = np.stack([np.repeat(np.arange(n), kk), idx.ravel()], axis=1)
    return canonical_pairs(pairs, n)


def sparse_pairs(X: np.ndarray, window: int = 5, n_neighbors: int = 10) -> np.ndarray:
    """Union of a reading-order window and nearest neighbours: O(n) edges for long documents."""
    n = X.shape[0]
    parts = []
    if window:
        parts.append(window_pairs(n, window))
    if n_neighbors:
        parts.append(knn_pairs(X, n_neighbors))
    return canonical_pairs(np.concatenate(parts) if parts else np.zeros((0, 2)), n)


def auto_pairs(X: np.ndarray, sigma: float | None, dense: int, n_neighbors: int) -> np.ndarray:
    """The default edge set: all pairs for up to ``dense`` sentences, else sparse (``Policy.topic_dense_units``,
    ``Policy.topic_sparse_neighbors``).

    Sparse = a reading-order window as wide as the distance decay reaches (exp(-d^2 / sigma)
    above 1e-12, i.e. d < sqrt(27.6 sigma); 10 without decay, ``sigma`` None) plus the ``n_neighbors`` nearest
    neighbours of every sentence, so that far-apart sentences on the same topic still exchange messages.
    """
    n = X.shape[0]
    if n <= dense:
        return all_pairs(n)
    width = 10 if sigma is None else int(np.ceil(np.sqrt(27.6 * sigma)))
    return sparse_pairs(X, window=width, n_neighbors=n_neighbors)


def canonical_pairs(pairs, n: int) -> np.ndarray:
    """Validate user pairs; return unique (i, j), i < j, without self-loops."""
    arr = np.asarray(pairs)
    if arr.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"neighbors must be a sequence of (i, j) pairs, got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        if arr.dtype.kind == "f" and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise ValueError("neighbors must hold integer sentence indices")
    if arr.min() < 0 or arr.max() >= n:
        raise ValueError(f"neighbor indices must lie in [0, {n - 1}]")
    lo, hi = np.minimum(arr[:, 0], arr[:, 1]), np.maximum(arr[:, 0], arr[:, 1])
    keep = lo != hi
    code = np.unique(lo[keep].astype(np.int64) * n + hi[keep].astype(np.int64))  # sorted like (i, j)
    return np.stack([code // n, code % n], axis=1)
