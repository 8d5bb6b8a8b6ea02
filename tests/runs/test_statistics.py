"""Document statistics along reading order: persistence half-life, smoothed features, lagged means."""

from __future__ import annotations

import numpy as np
import pytest
from paper_model import rand_X, unit

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.statistics import lagged_dot_means, persistence_halflife, smoothed_embeddings


def _blocks(block, n_blocks, dim=24, noise=0.1, seed=0):
    """n_blocks blocks of ``block`` rows each, cycling through 8 orthogonal topics, plus noise."""
    rng = np.random.default_rng(seed)
    topics = np.repeat(np.arange(n_blocks) % 8, block)
    return unit(np.eye(dim)[topics] + noise * rng.normal(size=(len(topics), dim)))


def test_halflife_by_hand():
    # three orthogonal blocks of 4: pairs i != j share a block 36 / 132 times; at lag d, a share
    # (4 - d) 3 / (12 - d) -> excess 0.545, 0.327, 0.061, -0.273; 3-point smoothed (ends padded
    # with 0, lag 1 kept) 0.545, 0.311, 0.038, ...: first below half of 0.545 at lag 3
    X = np.repeat(np.eye(3), 4, axis=0)
    assert persistence_halflife(X) == 3.0
    assert persistence_halflife(5.0 * X) == 3.0  # rows are normalised first


def test_halflife_is_longer_for_longer_blocks():
    lives = [persistence_halflife(_blocks(b, 120 // b, seed=b)) for b in (3, 6, 12, 24)]
    assert lives == sorted(lives) and lives[0] < lives[-1]
    assert lives[0] <= 3 and lives[-1] >= 8


@pytest.mark.parametrize("seed", [0, 1])
def test_halflife_is_one_without_persistence(seed):
    a, b = np.eye(4)[0], np.eye(4)[1]
    noise = 0.05 * np.random.default_rng(seed).normal(size=(20, 4))
    alternating = np.array([a, b] * 10) + noise  # neighbours less alike than average pairs
    assert persistence_halflife(alternating) == 1.0
    assert persistence_halflife(np.tile([[0.6, 0.8]], (10, 1))) == 1.0  # all alike: no excess
    assert persistence_halflife(rand_X(3, 5, seed)) == 1.0  # too short to measure


def test_halflife_is_a_lag_within_a_third_of_the_document():
    for seed in range(5):
        X = _blocks(int(np.random.default_rng(seed).integers(2, 15)), 6, seed=seed)
        h = persistence_halflife(X)
        assert h == int(h) and 1 <= h <= max(2, X.shape[0] // 3)


def test_smoothed_rows_are_unit_vectors():
    X = rand_X(30, 6, 0)
    for width in (0.5, 1.0, 3.7, 50.0):
        out = smoothed_embeddings(X, width, min_width=P.smoothing_min_width)
        assert out.shape == X.shape
        np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-12)
        w = np.random.default_rng(1).uniform(0.0, 2.0, size=30)
        np.testing.assert_allclose(
            np.linalg.norm(smoothed_embeddings(X, width, w, min_width=P.smoothing_min_width), axis=1), 1.0, atol=1e-12
        )


def test_narrow_width_returns_the_rows():
    X = unit(rand_X(10, 4, 2))
    for width in (0.0, 0.1, 0.29):
        np.testing.assert_allclose(smoothed_embeddings(X, width, min_width=P.smoothing_min_width), X, atol=1e-15)
        np.testing.assert_allclose(
            smoothed_embeddings(X, width, np.arange(10.0), min_width=P.smoothing_min_width), X, atol=1e-15
        )
    np.testing.assert_allclose(
        smoothed_embeddings(3.0 * X, 0.2, min_width=P.smoothing_min_width), X, atol=1e-15
    )  # unit rows of the input
    np.testing.assert_allclose(
        smoothed_embeddings(X[:1], 5.0, min_width=P.smoothing_min_width), X[:1], atol=1e-15
    )  # one row: nothing to smooth
    assert not np.allclose(smoothed_embeddings(X, 0.3, min_width=P.smoothing_min_width), X)  # from 0.3 on it smooths


def test_smoothing_formula_by_hand():
    X = rand_X(9, 3, 4)
    R = unit(X)
    w = np.random.default_rng(5).uniform(0.5, 1.5, size=9)
    width = 1.2
    r = int(np.ceil(3 * width))  # the Gaussian is cut at 3 widths
    out = smoothed_embeddings(X, width, w, min_width=P.smoothing_min_width)
    for i in range(9):
        acc = sum(np.exp(-0.5 * ((i - j) / width) ** 2) * w[j] * R[j] for j in range(9) if abs(i - j) <= r)
        np.testing.assert_allclose(out[i], acc / np.linalg.norm(acc), atol=1e-12)
    # uniform weights are no weights
    np.testing.assert_allclose(
        smoothed_embeddings(X, width, np.full(9, 4.0), min_width=P.smoothing_min_width),
        smoothed_embeddings(X, width, min_width=P.smoothing_min_width),
        atol=1e-12,
    )


def test_weights_pull_the_smoothed_rows_towards_heavy_units():
    X = _blocks(1, 9, dim=9, noise=0.0)  # nine orthogonal units
    base = smoothed_embeddings(X, 1.0, min_width=P.smoothing_min_width)
    w = np.ones(9)
    w[5] = 10.0  # unit 5 counts more: its neighbours lean towards it
    heavy = smoothed_embeddings(X, 1.0, w, min_width=P.smoothing_min_width)
    assert heavy[4] @ X[5] > base[4] @ X[5] and heavy[6] @ X[5] > base[6] @ X[5]
    assert heavy[4] @ X[4] < base[4] @ X[4]
    w = np.ones(9)
    w[4] = 0.0  # a unit that weighs nothing is described by its neighbours alone
    light = smoothed_embeddings(X, 1.0, w, min_width=P.smoothing_min_width)
    assert light[4] @ X[4] == pytest.approx(0.0, abs=1e-12)
    moved = X.copy()
    moved[4] = unit(rand_X(1, 9, 7))[0]
    np.testing.assert_allclose(
        smoothed_embeddings(moved, 1.0, w, min_width=P.smoothing_min_width)[4], light[4], atol=1e-12
    )


def test_units_whose_window_weighs_nothing_keep_their_row():
    X = unit(rand_X(6, 3, 8))
    out = smoothed_embeddings(X, 1.0, np.zeros(6), min_width=P.smoothing_min_width)
    np.testing.assert_allclose(out, X, atol=1e-15)


@pytest.mark.parametrize("bad", [-0.5, float("nan"), float("inf"), "wide"])
def test_bad_width(bad):
    with pytest.raises(ValueError, match="width"):
        smoothed_embeddings(rand_X(5, 3, 0), bad, min_width=P.smoothing_min_width)


@pytest.mark.parametrize("m, max_lag", [(2, 1), (7, 3), (50, 49), (301, 100)])
def test_lagged_dot_means_equal_the_direct_products(m, max_lag):
    R = np.random.default_rng(m).normal(size=(m, 6))
    direct = [np.einsum("ij,ij->i", R[:-d], R[d:]).mean() for d in range(1, max_lag + 1)]
    np.testing.assert_allclose(lagged_dot_means(R, max_lag), direct, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("max_lag", [0, 5])
def test_lagged_dot_means_rejects_lags_outside_the_document(max_lag):
    with pytest.raises(ValueError, match="max_lag"):
        lagged_dot_means(np.ones((5, 3)), max_lag)


def test_correlation_length_of_a_long_text_is_measured_within_windows(monkeypatch):
    # 300 blocks of 40 units in 3 long parts, each part shifted by its own offset: over the whole text the
    # parts keep the autocorrelation positive for thousands of units; within a window it dies at ~40
    from planted import planted_blocks

    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.runs.statistics import correlation_length, policy_correlation_length
    from bpseg_pgm.utils.validation import normalize_rows

    X, _ = planted_blocks((40,) * 300, dim=320, noise=0.1, seed=0)
    assert X.shape[0] > 2 * DEFAULT_POLICY.correlation_window
    offsets = np.random.default_rng(1).normal(size=(3, 320)) / np.sqrt(320)
    Y = normalize_rows(X + 0.3 * np.repeat(offsets, X.shape[0] // 3, axis=0))
    assert 35 <= policy_correlation_length(X, None, P) <= 45
    assert 35 <= policy_correlation_length(Y, None, P) <= 45
    # one window over the whole text (the former measure) sees the parts
    assert (
        correlation_length(
            Y, None, window=X.shape[0], min_weight=P.correlation_min_weight, min_units=P.correlation_min_units
        )
        > 1000
    )
