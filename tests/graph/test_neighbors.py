"""Edge sets: all pairs, reading-order windows, nearest neighbours, validation."""

from __future__ import annotations

import numpy as np
import pytest

from bpseg_pgm.graph import all_pairs, canonical_pairs, knn_pairs, sparse_pairs, window_pairs


def as_set(pairs):
    return {tuple(map(int, p)) for p in pairs}


def check_canonical(pairs, n):
    pairs = np.asarray(pairs)
    assert pairs.dtype == np.int64 and pairs.ndim == 2 and pairs.shape[1] == 2
    assert np.all(pairs[:, 0] < pairs[:, 1]) and pairs.min(initial=0) >= 0 and pairs.max(initial=0) < n
    assert len(as_set(pairs)) == len(pairs)
    assert [tuple(p) for p in pairs.tolist()] == sorted(as_set(pairs))


def test_all_pairs():
    for n in (1, 2, 5):
        p = all_pairs(n)
        check_canonical(p, n)
        assert as_set(p) == {(i, j) for i in range(n) for j in range(i + 1, n)}


def test_window_pairs():
    p = window_pairs(6, 2)
    check_canonical(p, 6)
    assert as_set(p) == {(i, j) for i in range(6) for j in range(i + 1, 6) if j - i <= 2}
    assert as_set(window_pairs(3, 10)) == {(0, 1), (0, 2), (1, 2)}
    assert len(window_pairs(1, 3)) == 0
    with pytest.raises(ValueError):
        window_pairs(5, 0)


def test_knn_pairs():
    """Nearest by cosine, whatever the row norms (rows scaled over two decades)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5)) * rng.uniform(0.1, 10, size=(40, 1))
    p = knn_pairs(X, 2)
    check_canonical(p, 40)
    Xn = X / np.linalg.norm(X, axis=1, keepdims=True)
    S = Xn @ Xn.T
    np.fill_diagonal(S, -np.inf)
    expected = {(min(i, int(j)), max(i, int(j))) for i in range(40) for j in np.argsort(-S[i])[:2]}
    assert as_set(p) == expected
    # Euclidean neighbours of the raw rows would differ: the test can tell
    D = ((X[:, None] - X[None]) ** 2).sum(-1)
    np.fill_diagonal(D, np.inf)
    assert {(min(i, int(j)), max(i, int(j))) for i in range(40) for j in np.argsort(D[i])[:2]} != expected
    with pytest.raises(ValueError):
        knn_pairs(X, 0)


def test_sparse_pairs_is_window_union_knn():
    X = np.random.default_rng(1).normal(size=(30, 4))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    p = sparse_pairs(X, window=3, n_neighbors=4)
    check_canonical(p, 30)
    assert as_set(p) == as_set(window_pairs(30, 3)) | as_set(knn_pairs(X, 4))
    assert as_set(sparse_pairs(X, window=2, n_neighbors=0)) == as_set(window_pairs(30, 2))


def test_canonical_pairs():
    p = canonical_pairs([(3, 1), (1, 3), (2, 2), (0, 4), (0.0, 2.0)], 5)
    check_canonical(p, 5)
    assert as_set(p) == {(1, 3), (0, 4), (0, 2)}
    assert canonical_pairs([], 3).shape == (0, 2)
    for bad in ([(0, 5)], [(-1, 2)], [(0, 1, 2)], [(0.5, 1)], [[0, 1], [2]]):
        with pytest.raises(ValueError):
            canonical_pairs(bad, 5)
