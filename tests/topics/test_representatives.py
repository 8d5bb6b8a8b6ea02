"""Choosing the k representative sentences."""

from __future__ import annotations

import numpy as np
import pytest

from bpseg_pgm.topics.representatives import INITS, choose_representatives, farthest_point


def unit_X(n, d, seed):
    X = np.random.default_rng(seed).normal(size=(n, d))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def test_inits():
    assert set(INITS) == {"random", "farthest", "all"}


def test_random_is_k_distinct_sorted_and_seeded():
    X = unit_X(30, 4, 0)
    r = choose_representatives(X, 5, "random", random_state=3)
    assert r.shape == (5,) and len(set(r.tolist())) == 5 and r.min() >= 0 and r.max() < 30
    assert np.all(np.diff(r) > 0)
    np.testing.assert_array_equal(r, choose_representatives(X, 5, "random", random_state=3))
    draws = {tuple(choose_representatives(X, 5, "random", random_state=s)) for s in range(10)}
    assert len(draws) > 1
    np.testing.assert_array_equal(choose_representatives(X, 30, "random", 0), np.arange(30))


def test_all():
    np.testing.assert_array_equal(choose_representatives(unit_X(7, 3, 1), 2, "all"), np.arange(7))


def farthest_by_hand(X, k):
    S = X @ X.T
    mean = X.mean(axis=0)
    chosen = [int(np.argmin(X @ mean))]
    while len(chosen) < k:
        best = [max(S[i, c] for c in chosen) if i not in chosen else np.inf for i in range(len(X))]
        chosen.append(int(np.argmin(best)))
    return chosen


@pytest.mark.parametrize("k", [1, 3, 6])
def test_farthest_point(k):
    X = unit_X(15, 3, 2)
    f = choose_representatives(X, k, "farthest")
    assert f.tolist() == farthest_by_hand(X, k)
    assert len(set(f.tolist())) == k
    np.testing.assert_array_equal(f, farthest_point(X, k))


def test_farthest_point_with_duplicates_stays_distinct():
    X = unit_X(3, 3, 3)
    X = np.concatenate([X, X, X])  # every sentence three times
    f = farthest_point(X, 9)
    assert sorted(f.tolist()) == list(range(9))


def test_farthest_spreads_clusters():
    rng = np.random.default_rng(4)
    centers = np.eye(4)
    X = np.concatenate([c + 0.05 * rng.normal(size=(5, 4)) for c in centers])
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    f = farthest_point(X, 4)
    assert sorted(int(i) // 5 for i in f) == [0, 1, 2, 3]  # one per cluster


@pytest.mark.parametrize("k", [0, 8])
def test_bad_k(k):
    with pytest.raises(ValueError, match="n_segments"):
        choose_representatives(unit_X(7, 3, 5), k, "random", 0)


def test_bad_init():
    with pytest.raises(ValueError, match="init"):
        choose_representatives(unit_X(7, 3, 5), 2, "kmeans++")
