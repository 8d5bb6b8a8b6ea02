"""mean-field: its ELBO against enumeration, a lower bound on log Z, rising sweep by sweep."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force import all_scores, complete, log_partition, marginals, potts_tables
from paper_model import bpseg, rand_X

from bpseg_pgm.inference.kernels.mean_field import elbo, mean_field


def problem(seed, n=6, k=3, scale=1.5, tables=False):
    rng = np.random.default_rng(seed)
    E = complete(n)
    lu = rng.normal(size=(n, k))
    lw = -scale * rng.random(len(E))
    T = rng.normal(size=(len(E), k, k)) if tables else potts_tables(lw, k)
    return lu, E, lw, T


def enumerated_elbo(q, lu, E, T):
    """E_q[log p~] + H(q) by summing over every labelling."""
    labels, score = all_scores(lu, E, T)
    qx = np.prod(q[np.arange(q.shape[0]), labels], axis=1)
    return float(np.sum(qx * score) - np.sum(q * np.log(q)))


@pytest.mark.parametrize("tables", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_elbo_matches_enumeration_and_bounds_log_z(tables, seed):
    lu, E, lw, T = problem(seed, tables=tables)
    kw = {"log_tables": T} if tables else {"log_coupling": lw}
    values = []
    res = mean_field(
        lu,
        E[:, 0],
        E[:, 1],
        tol=1e-12,
        max_iter=500,
        callback=lambda t, q: values.append(elbo(lu, E[:, 0], E[:, 1], q, **kw)),
        **kw,
    )
    assert res.converged
    assert abs(res.elbo - enumerated_elbo(res.beliefs, lu, E, T)) < 1e-9
    assert res.elbo <= log_partition(lu, E, T) + 1e-12
    assert all(b >= a - 1e-10 for a, b in zip(values, values[1:])), "coordinate ascent lowered the ELBO"
    np.testing.assert_allclose(res.beliefs.sum(axis=1), 1.0, atol=1e-12)


def test_without_edges_mean_field_is_exact():
    lu = np.random.default_rng(3).normal(size=(5, 4))
    E = np.zeros((0, 2), dtype=int)
    res = mean_field(lu, E[:, 0], E[:, 1], log_coupling=np.zeros(0))
    np.testing.assert_allclose(res.beliefs, marginals(lu, E, np.zeros((0, 4, 4))), atol=1e-12)
    assert abs(res.elbo - log_partition(lu, E, np.zeros((0, 4, 4)))) < 1e-12


def test_estimator_with_mean_field_is_finite_and_deterministic():
    X = rand_X(30, 8, 1)
    a = bpseg(engine="mean-field", n_segments=4, random_state=0, lam=5.0).fit(X)
    b = bpseg(engine="mean-field", n_segments=4, random_state=0, lam=5.0).fit(X)
    assert np.all(np.isfinite(a.beliefs_)) and np.allclose(a.beliefs_.sum(axis=1), 1.0)
    np.testing.assert_array_equal(a.beliefs_, b.beliefs_)
    assert np.isfinite(a.log_partition_)
