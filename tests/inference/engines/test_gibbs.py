"""gibbs: label frequencies close to exact marginals (both backends), seeded, finite."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force import complete, marginals, potts_tables
from paper_model import bpseg, rand_X

from bpseg_pgm.inference import GibbsEngine, Problem
from bpseg_pgm.inference.kernels.gibbs import gibbs_frequencies


def problem(seed, n, k, scale=1.0, tables=False):
    rng = np.random.default_rng(seed)
    E = complete(n)
    lu = rng.normal(size=(n, k))
    lw = -scale * rng.random(len(E))
    T = rng.normal(size=(len(E), k, k)) * 0.5 if tables else potts_tables(lw, k)
    return lu, E, lw, T


@pytest.mark.parametrize("tables", [False, True])
def test_vectorised_frequencies_near_exact_marginals(tables):
    lu, E, lw, T = problem(0, 6, 3, tables=tables)
    kw = {"log_tables": T} if tables else {"log_coupling": lw}
    b = gibbs_frequencies(lu, E[:, 0], E[:, 1], n_samples=3000, burn_in=100, n_chains=16, seed=1, **kw)
    assert np.abs(b - marginals(lu, E, T)).max() < 0.02


def test_pgmpy_backend_near_exact_marginals_and_leaves_numpy_global_state_alone():
    lu, E, lw, T = problem(2, 5, 3, scale=0.5)
    state = np.random.get_state()[1].copy()
    res = GibbsEngine(n_samples=6000, burn_in=200, random_state=4).infer(Problem(lu, E, log_coupling=lw))
    assert res.extra["backend"] == "pgmpy"
    np.testing.assert_array_equal(np.random.get_state()[1], state)
    assert np.abs(res.beliefs - marginals(lu, E, T)).max() < 0.04


def test_seeded():
    lu, E, lw, _ = problem(3, 8, 3)
    p = Problem(lu, E, log_coupling=lw)
    a = GibbsEngine(n_samples=50, random_state=7).infer(p).beliefs
    b = GibbsEngine(n_samples=50, random_state=7).infer(p).beliefs
    c = GibbsEngine(n_samples=50, random_state=8).infer(p).beliefs
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    X = rand_X(20, 6, 0)
    m1 = bpseg(engine="gibbs", n_segments=3, random_state=5).fit(X)
    m2 = bpseg(engine="gibbs", n_segments=3, random_state=5).fit(X)
    np.testing.assert_array_equal(m1.labels_, m2.labels_)
    assert np.all(np.isfinite(m1.beliefs_)) and np.allclose(m1.beliefs_.sum(axis=1), 1.0)


@pytest.mark.parametrize("bad", [dict(n_samples=0), dict(burn_in=-1), dict(n_chains=1.5), dict(backend="gpu")])
def test_bad_parameters(bad):
    lu, E, lw, _ = problem(0, 4, 2)
    with pytest.raises(ValueError, match="GibbsEngine"):
        GibbsEngine(**bad).infer(Problem(lu, E, log_coupling=lw))
