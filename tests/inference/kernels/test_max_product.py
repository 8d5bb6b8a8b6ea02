"""max-product: normalised max-marginals, exact on trees, MAP labels against brute force."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force import chain, complete, map_labels, max_marginals, potts_tables
from scipy.special import softmax

from bpseg_pgm.inference import MaxProductEngine, Problem
from bpseg_pgm.inference.kernels.max_product import max_product_bp


def potts_problem(n, k, edges, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, k)), -scale * rng.random(len(edges))


@pytest.mark.parametrize("tables", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_max_marginals_on_a_chain(tables, seed):
    n, k = 7, 3
    E = chain(n)
    lu, lw = potts_problem(n, k, E, seed, scale=3.0)
    T = potts_tables(lw, k) if not tables else np.random.default_rng(seed).normal(size=(len(E), k, k))
    kw = {"log_tables": T} if tables else {"log_coupling": lw}
    res = max_product_bp(lu, E[:, 0], E[:, 1], tol=1e-13, max_iter=200, **kw)
    assert res.converged
    mm = max_marginals(lu, E, T)
    np.testing.assert_allclose(res.beliefs, softmax(mm, axis=1), atol=1e-8)
    best, _ = map_labels(lu, E, T)
    np.testing.assert_array_equal(res.beliefs.argmax(axis=1), best)


@pytest.mark.parametrize("seed", range(4))
def test_map_on_the_complete_graph_with_weak_coupling(seed):
    n, k = 7, 3
    E = complete(n)
    lu, lw = potts_problem(n, k, E, seed, scale=0.3)
    res = MaxProductEngine(damping=0.3).infer(Problem(lu, E, log_coupling=lw, max_iter=500, tol=1e-10))
    assert res.converged
    assert np.all(np.isfinite(res.beliefs)) and np.allclose(res.beliefs.sum(axis=1), 1.0)
    best, top2 = map_labels(lu, E, potts_tables(lw, k))
    np.testing.assert_array_equal(res.beliefs.argmax(axis=1), best)


def test_potts_and_table_paths_agree_on_a_loopy_graph():
    n, k = 8, 4
    E = complete(n)
    lu, lw = potts_problem(n, k, E, 9, scale=2.0)
    a = max_product_bp(lu, E[:, 0], E[:, 1], log_coupling=lw, max_iter=30, tol=1e-300)
    b = max_product_bp(lu, E[:, 0], E[:, 1], log_tables=potts_tables(lw, k), max_iter=30, tol=1e-300)
    np.testing.assert_allclose(a.beliefs, b.beliefs, atol=1e-10)


def test_finite_beliefs_under_huge_couplings_and_k_1():
    E = complete(6)
    lu = np.random.default_rng(0).normal(size=(6, 3)) * 50
    for lw in (np.full(len(E), -1e4), np.full(len(E), 40.0)):
        r = max_product_bp(lu, E[:, 0], E[:, 1], log_coupling=lw, max_iter=50, damping=0.5)
        assert np.all(np.isfinite(r.beliefs)) and np.allclose(r.beliefs.sum(axis=1), 1.0)
    r = max_product_bp(np.zeros((4, 1)), complete(4)[:, 0], complete(4)[:, 1], log_coupling=np.zeros(6))
    np.testing.assert_array_equal(r.beliefs, np.ones((4, 1)))
