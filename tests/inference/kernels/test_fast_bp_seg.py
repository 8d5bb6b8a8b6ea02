"""Fast BP-Seg (appendix Algorithm 2) against a loop-by-loop transcription of the paper."""

from __future__ import annotations

import math

import numpy as np
import pytest
from paper_model import bpseg, cos

from bpseg_pgm.inference.kernels.fast_bp_seg import fast_bp_seg


def algorithm2(R, rep_idx, lam, sigma, T):
    """Algorithm 2, as printed: m^(0) = 1/k; for t = 1..T, for each i, for each x:
    m_i(x) = psi_i(x) + sum_{j=1}^{n} psi_ij m_j^(t-1)(x)  (j = i included);
    b_i(x) = psi_i(x) + m_i^(T)(x). psi_i(x) = sim(R_i, C_x), psi_ij = lam sim(R_i, R_j) exp(-|i-j|^2 / sigma)."""
    n, k = len(R), len(rep_idx)
    C = [R[c] for c in rep_idx]
    psi = [[cos(R[i], C[x]) for x in range(k)] for i in range(n)]
    psi2 = [[lam * cos(R[i], R[j]) * math.exp(-((i - j) ** 2) / sigma) for j in range(n)] for i in range(n)]
    m = [[1.0 / k] * k for _ in range(n)]
    for _t in range(T):
        new = [[0.0] * k for _ in range(n)]
        for i in range(n):
            for x in range(k):
                new[i][x] = psi[i][x] + sum(psi2[i][j] * m[j][x] for j in range(n))
        m = new
    b = [[psi[i][x] + m[i][x] for x in range(k)] for i in range(n)]
    labels = [max(range(k), key=lambda x, i=i: b[i][x]) for i in range(n)]
    return np.array(b), np.array(labels)


@pytest.mark.parametrize("n,d,seed", [(6, 5, 0), (12, 8, 1), (20, 16, 2)])
def test_estimator_matches_algorithm_2(n, d, seed):
    X = np.random.default_rng(seed).normal(size=(n, d)) * 3.0  # not unit: cosine must normalise
    scores, labels = algorithm2(X.tolist(), list(range(n)), lam=300.0, sigma=10.0, T=5)
    est = bpseg(engine="fast", init="all", lam=300, sigma=10, max_iter=5).fit(X)
    np.testing.assert_array_equal(est.labels_, labels)
    np.testing.assert_array_equal(est.representatives_, np.arange(n))
    assert est.n_iter_ == 5 and est.beliefs_.shape == (n, n)
    np.testing.assert_allclose(est.beliefs_.sum(axis=1), 1.0, atol=1e-12)
    # beliefs_ are the softmax of the scores
    Xn = X / np.linalg.norm(X, axis=1, keepdims=True)
    raw, soft = fast_bp_seg(Xn, Xn, lam=300.0, sigma=10.0, n_iter=5)
    np.testing.assert_allclose(raw, scores, rtol=1e-10, atol=0)
    np.testing.assert_allclose(est.beliefs_, soft, rtol=0, atol=1e-12)


@pytest.mark.parametrize("sigma,T", [(None, 1), (2.0, 3), (10.0, 7)])
def test_fast_bp_seg_subset_of_representatives(sigma, T):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(9, 4))
    reps = [1, 4, 8]
    ref_sigma = math.inf if sigma is None else sigma  # exp(-d^2 / inf) = 1: no decay
    scores, labels = algorithm2(X.tolist(), reps, lam=0.7, sigma=ref_sigma, T=T)
    Xn = X / np.linalg.norm(X, axis=1, keepdims=True)
    raw, _ = fast_bp_seg(Xn, Xn[reps], lam=0.7, sigma=sigma, n_iter=T)
    np.testing.assert_allclose(raw, scores, rtol=1e-10, atol=1e-12)
    est = bpseg(engine="fast", init=reps, lam=0.7, sigma=sigma, max_iter=T).fit(X)
    np.testing.assert_array_equal(est.labels_, labels)


def test_fast_default_is_five_iterations_and_refuses_custom_potentials():
    from bpseg_pgm.potentials import PaperPotentials

    X = np.random.default_rng(6).normal(size=(5, 3))
    assert bpseg(engine="fast", init="all", lam=300, sigma=10).fit(X).n_iter_ == 5
    with pytest.raises(ValueError, match="fast"):
        bpseg(engine="fast", init="all", potentials=PaperPotentials()).fit(X)


def test_fast_overflow_is_a_clear_error():
    X = np.ones((50, 2)) + np.random.default_rng(0).normal(scale=1e-3, size=(50, 2))
    with pytest.raises(ValueError, match="overflow"):
        bpseg(engine="fast", init="all", lam=1e6, sigma=None, max_iter=60).fit(X)
