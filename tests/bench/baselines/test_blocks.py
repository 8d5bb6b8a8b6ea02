"""The trivial contiguous baselines: one segment, and k equal-length blocks."""

from __future__ import annotations

import numpy as np
import pytest

from bpseg_bench.baselines.blocks import EqualBlocks, OneSegment

X10 = np.random.default_rng(0).normal(size=(10, 4))


def test_one_segment():
    model = OneSegment()
    labels = model.fit_predict(X10)
    np.testing.assert_array_equal(labels, np.zeros(10))
    assert labels.dtype == np.int64 and model.labels_ is labels
    np.testing.assert_array_equal(OneSegment().fit_predict(X10[:1]), [0])


@pytest.mark.parametrize(
    "n, k, expected",
    [
        (10, 3, [0, 0, 0, 0, 1, 1, 1, 2, 2, 2]),  # floor(i k / n)
        (10, 2, [0] * 5 + [1] * 5),
        (10, 1, [0] * 10),
        (10, 10, list(range(10))),
        (4, 9, [0, 1, 2, 3]),  # more blocks than units: one unit each
        (7, 3, [0, 0, 0, 1, 1, 2, 2]),
    ],
)
def test_equal_blocks_by_hand(n, k, expected):
    labels = EqualBlocks(k).fit_predict(X10[:n])
    np.testing.assert_array_equal(labels, expected)


@pytest.mark.parametrize("n", [1, 5, 23, 100])
@pytest.mark.parametrize("k", [1, 2, 3, 7])
def test_equal_blocks_are_contiguous_and_balanced(n, k):
    X = np.ones((n, 2))
    labels = EqualBlocks(k).fit_predict(X)
    kk = min(k, n)
    np.testing.assert_array_equal(np.unique(labels), np.arange(kk))
    assert np.all(np.diff(labels) >= 0) and np.all(np.diff(labels) <= 1)
    sizes = np.bincount(labels)
    assert sizes.max() - sizes.min() <= 1  # (almost) equal length
    assert EqualBlocks(np.int64(k)).fit_predict(X).tolist() == labels.tolist()


@pytest.mark.parametrize("k", [0, -2, 2.5, True, "3", None])
def test_equal_blocks_bad_k(k):
    with pytest.raises(ValueError, match="n_segments must be a positive integer"):
        EqualBlocks(k).fit_predict(X10)


@pytest.mark.parametrize("model", [OneSegment(), EqualBlocks(2)])
@pytest.mark.parametrize("bad", [np.zeros((0, 3)), np.zeros(4), np.array([[0.0, np.nan]]), np.zeros((3, 0))])
def test_bad_embeddings(model, bad):
    with pytest.raises(ValueError):
        model.fit_predict(bad)
