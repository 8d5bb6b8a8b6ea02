"""k-means baseline: recovers planted clusters whatever their order; k = min(20, n)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from bpseg_bench.baselines.kmeans import KMeansSegmenter


def test_recovers_non_contiguous_topics(planted):
    X, labels = planted([5, 5, 5, 5], order=[0, 1, 0, 2])  # topic 0 comes back
    pred = KMeansSegmenter(n_clusters=3, random_state=0).fit_predict(X)
    assert adjusted_rand_score(labels, pred) == 1.0


def test_default_k_is_min_20_n(planted):
    X, _ = planted([6, 6])
    assert KMeansSegmenter(random_state=0).fit_predict(X[:7]).max() == 6  # n = 7 clusters
    X, _ = planted([15, 15])
    model = KMeansSegmenter(random_state=0)
    model.fit_predict(X)
    assert model.n_clusters_ == 20


def test_seed_makes_it_deterministic(planted):
    X, _ = planted([8, 8, 8], noise=0.5)
    a = KMeansSegmenter(n_clusters=5, random_state=3).fit_predict(X)
    b = KMeansSegmenter(n_clusters=5, random_state=3).fit_predict(X)
    assert np.array_equal(a, b)


@pytest.mark.parametrize(
    "X, params",
    [(np.zeros(5), {}), (np.zeros((0, 3)), {}), (np.full((3, 2), np.nan), {}), (np.eye(3), {"n_clusters": 0})],
)
def test_bad_input_raises(X, params):
    with pytest.raises(ValueError):
        KMeansSegmenter(**params).fit_predict(X)
