"""The centred Potts potentials (the default model), checked against their formula by hand."""

from __future__ import annotations

import numpy as np
import pytest
from paper_model import cos, rand_X, unit

from bpseg_pgm.potentials import CenteredPottsPotentials, mean_pair_cosine


def test_mean_pair_cosine_by_hand():
    X = rand_X(6, 4, 0)
    pairs = [cos(X[i], X[j]) for i in range(6) for j in range(6) if i != j]
    assert mean_pair_cosine(X) == pytest.approx(np.mean(pairs), abs=1e-12)
    assert mean_pair_cosine(X[:1]) == 0.0


@pytest.mark.parametrize("center", ["all_pairs", "edges"])
def test_log_coupling_by_hand(center):
    X = unit(rand_X(7, 5, 1))
    rows, cols = np.array([0, 0, 1, 2, 5]), np.array([1, 3, 4, 6, 6])
    lam, sigma = 150.0, 4.0
    pot = CenteredPottsPotentials(lam, sigma, center=center)
    c = np.array([cos(X[i], X[j]) for i, j in zip(rows, cols)])
    decay = np.exp(-((rows - cols) ** 2) / sigma)
    if center == "all_pairs":
        mu = np.mean([cos(X[i], X[j]) for i in range(7) for j in range(7) if i != j])
    else:
        mu = np.sum(decay * c) / np.sum(decay)
    degree = np.zeros(7)
    for i, j, d in zip(rows, cols, decay):
        degree[i] += d
        degree[j] += d
    expected = -lam * decay * (c - mu) / degree.mean()
    np.testing.assert_allclose(pot.log_coupling(X, rows, cols), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pot.log_unary(X, X[[2, 4]]), 5.0 * (X @ X[[2, 4]].T), rtol=1e-12)


def test_bad_center():
    with pytest.raises(ValueError, match="center"):
        CenteredPottsPotentials(center="middle")
