"""The loopy engine, the Potts kernel and the hand-written reference solver agree.

They share one convention (uniform 1/k start, flooding schedule, normalised messages,
geometric damping, stop when no normalised log message moves by >= tol), so on the same
input they must give the same marginals (to 1e-9 at tol=1e-12) and the same ``n_iter_``.
"""

from __future__ import annotations

import numpy as np
import pytest
from paper_model import bpseg, rand_X, unit

from bpseg_pgm import LoopyBeliefPropagation, build_markov_network
from bpseg_pgm.inference.kernels.layouts import EdgeLayout
from bpseg_pgm.inference.kernels.potts import dense as dense_potts
from bpseg_pgm.inference.kernels.potts import potts_bp
from bpseg_pgm.potentials import PaperPotentials, edge_cosine, make_potentials

ENGINES = ("loopy", "potts", "reference")


def fit_all(X, engines=ENGINES, **kw):
    kw.setdefault("tol", 1e-12)
    kw.setdefault("max_iter", 5000)
    return {e: bpseg(engine=e, **kw).fit(X) for e in engines}


def assert_agree(models, atol=1e-9, same_iter=True):
    ref = models["reference"] if "reference" in models else next(iter(models.values()))
    for name, m in models.items():
        assert m.converged_, f"{name} did not converge in {m.n_iter_} sweeps"
        assert m.beliefs_.shape == ref.beliefs_.shape
        np.testing.assert_allclose(m.beliefs_, ref.beliefs_, rtol=0, atol=atol, err_msg=name)
        np.testing.assert_array_equal(m.labels_, ref.labels_, err_msg=name)
        if same_iter:
            assert m.n_iter_ == ref.n_iter_, {k: v.n_iter_ for k, v in models.items()}


def random_pairs(n, p, seed):
    rng = np.random.default_rng(seed)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p]
    return pairs or [(0, n - 1)]


# n, k, lam, sigma, damping, sparse?, seed
CASES = [
    (2, 2, 0.12, None, 0.0, False, 0),
    (3, 1, 5.0, None, 0.0, False, 1),  # k = 1: every belief is [1]
    (5, 3, 0.12, None, 0.0, False, 2),
    (6, 3, 2.0, None, 0.0, False, 3),
    (7, 4, 5.0, 3.0, 0.0, False, 4),
    (8, 3, 10.0, None, 0.0, False, 5),
    (6, 2, 1.0, None, 0.5, False, 6),
    (8, 4, 5.0, 10.0, 0.3, False, 7),
    (7, 3, 3.0, None, 0.0, True, 8),
    (8, 4, 8.0, 2.0, 0.0, True, 9),
    (8, 3, 4.0, None, 0.6, True, 10),
]


@pytest.mark.parametrize("n,k,lam,sigma,damping,sparse,seed", CASES)
def test_engines_agree_on_random_inputs(n, k, lam, sigma, damping, sparse, seed):
    X = rand_X(n, 5, seed)
    init = np.random.default_rng(seed + 100).choice(n, size=k, replace=False)
    neighbors = random_pairs(n, 0.45, seed) if sparse else None
    models = fit_all(X, n_segments=k, lam=lam, sigma=sigma, damping=damping, init=init, neighbors=neighbors)
    assert_agree(models)
    for m in models.values():
        np.testing.assert_array_equal(m.representatives_, init)


def test_n_iter_identical_across_engines_and_depends_on_tol():
    X = rand_X(7, 4, 11)
    iters = {}
    for tol in (1e-3, 1e-10):
        models = fit_all(X, n_segments=3, lam=6.0, init=[0, 3, 5], tol=tol)
        counts = {e: m.n_iter_ for e, m in models.items()}
        assert len(set(counts.values())) == 1, counts
        iters[tol] = counts["reference"]
    # the shared rule really is tol-driven, not a fixed sweep count
    assert iters[1e-10] > iters[1e-3] > 1


def test_max_iter_stops_every_engine_unconverged():
    X = rand_X(7, 4, 12)
    models = fit_all(X, n_segments=3, lam=6.0, init=[0, 3, 5], tol=1e-14, max_iter=3)
    for name, m in models.items():
        assert m.n_iter_ == 3 and not m.converged_, name
    np.testing.assert_allclose(models["loopy"].beliefs_, models["reference"].beliefs_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(models["potts"].beliefs_, models["reference"].beliefs_, rtol=0, atol=1e-12)


def test_loopy_inference_object_matches_potts_kernel():
    """LoopyBeliefPropagation on the pgmpy network == the Potts kernel on raw arrays."""
    Xn = unit(rand_X(9, 6, 13))
    reps = [1, 4, 7]
    pot = PaperPotentials(lam=4.0, sigma=5.0)
    model = build_markov_network(Xn, reps, pot)
    bp = LoopyBeliefPropagation(model, max_iter=5000, tol=1e-12)
    q = bp.query([f"s{i}" for i in range(9)])
    loopy = np.array([q[f"s{i}"].values for i in range(9)])
    u, v = np.triu_indices(9, 1)
    res = potts_bp(Xn @ Xn[reps].T, u, v, pot.log_coupling(Xn, u, v), max_iter=5000, tol=1e-12)
    assert res.converged and bp.converged_
    assert res.n_iter == bp.n_iter_
    np.testing.assert_allclose(loopy, res.beliefs, rtol=0, atol=1e-9)


def test_multi_block_layouts_agree():
    """n = 130, k = 8: several work blocks (two threads) in the dense and the edge layouts.

    A fixed number of sweeps (unconverged) keeps it cheap: every engine does the same 25
    flooding sweeps, so the beliefs must still agree.
    """
    n, k = 130, 8
    assert len(dense_potts.split_units(dense_potts.tile_pairs(n, dense_potts.tile_size(n, k)))) > 1
    assert len(EdgeLayout(n, *np.triu_indices(n, 1)).blocks(k)) > 1
    X = rand_X(n, 8, 14)
    kw = dict(n_segments=k, lam=2.0, sigma=5.0, random_state=0, tol=1e-14, max_iter=25)
    models = {e: bpseg(engine=e, **kw).fit(X) for e in ("loopy", "potts")}
    for m in models.values():
        assert m.n_iter_ == 25 and not m.converged_
    np.testing.assert_allclose(models["loopy"].beliefs_, models["potts"].beliefs_, rtol=0, atol=1e-9)
    assert len(set(models["potts"].labels_)) > 1
    # the same edges given explicitly (all pairs -> the dense tiled sweep again) and a sparse subset (edge layout)
    pairs = np.stack(np.triu_indices(n, 1), axis=1)
    explicit = bpseg(engine="potts", neighbors=pairs, **kw).fit(X)
    np.testing.assert_allclose(explicit.beliefs_, models["potts"].beliefs_, rtol=0, atol=1e-12)
    sparse = pairs[np.random.default_rng(1).random(len(pairs)) < 0.6]
    models = {e: bpseg(engine=e, neighbors=sparse, **kw).fit(X) for e in ("loopy", "potts")}
    np.testing.assert_allclose(models["loopy"].beliefs_, models["potts"].beliefs_, rtol=0, atol=1e-9)


# -- extreme coupling: lam = 800 -----------------------------------------------------------
def test_lam_800_dense_potts_matches_reference():
    """log w = 800 (cos - 1) < -600 on many pairs: the Potts kernel's exact log-sum-exp path."""
    Xn = unit(rand_X(7, 5, 15))
    u, v = np.triu_indices(7, 1)
    log_w = PaperPotentials(lam=800).log_coupling(Xn, u, v)
    assert (log_w < -600).sum() >= 5  # the extreme path is really exercised
    models = fit_all(Xn, engines=("potts", "reference"), n_segments=3, lam=800, init=[0, 2, 4])
    # the reference works in linear space, where w < 1e-308 underflows to 0: marginals agree,
    # the sweep count need not
    assert_agree(models, same_iter=False)


def _mixed_strength_pairs(Xn, lo=0.1, hi=0.24):
    """Pairs whose lam=800 coupling is extreme (log w < -600) yet representable (> -745),
    plus the very similar pairs (weak coupling)."""
    C = Xn @ Xn.T
    n = len(Xn)
    return [(i, j) for i in range(n) for j in range(i + 1, n) if lo < C[i, j] < hi or C[i, j] > 0.5]


@pytest.mark.parametrize("damping", [0.0, 0.4])
def test_lam_800_sparse_all_engines_agree(damping):
    Xn = unit(rand_X(8, 3, 16))
    pairs = _mixed_strength_pairs(Xn)
    u, v = np.array(pairs).T
    log_w = PaperPotentials(lam=800).log_coupling(Xn, u, v)
    assert (log_w < -600).any() and (log_w > -745).all() and (log_w > -100).any()
    models = fit_all(Xn, n_segments=3, lam=800, init=[0, 3, 6], neighbors=pairs, damping=damping)
    assert_agree(models)
    # not a trivial all-one-hot answer
    assert (models["reference"].beliefs_.max(axis=1) < 0.99).any()


def test_lam_800_dense_loopy_matches_potts():
    Xn = unit(rand_X(8, 6, 8))
    models = fit_all(Xn, engines=("loopy", "potts"), n_segments=4, lam=800, init=[0, 1, 2, 3])
    assert_agree(models, same_iter=False)


# -- custom potentials ---------------------------------------------------------------------
def _strong_repulsive_potentials():
    """Potts-shaped, with w = exp(5.5) > 1 (repulsive; the Potts kernel's log w > 5 path) on
    similar pairs and a mild attraction on the others."""

    def unary(X, C):
        return 2.0 * (X @ C.T)

    def coupling(X, rows, cols):
        cos = edge_cosine(X, rows, cols)
        return np.where(cos > 0.6, 5.5, 0.5 * (cos - 1.0))

    return make_potentials(unary, coupling)


@pytest.mark.parametrize("sparse", [False, True])
def test_custom_potts_potentials_with_w_above_one(sparse):
    Xn = unit(rand_X(7, 3, 17))
    pot = _strong_repulsive_potentials()
    neighbors = random_pairs(7, 0.5, 3) if sparse else None
    edges = np.array(neighbors) if sparse else np.stack(np.triu_indices(7, 1), axis=1)
    log_w = pot.log_coupling(Xn, edges[:, 0], edges[:, 1])
    assert (log_w > 5).any()
    models = fit_all(Xn, n_segments=3, potentials=pot, init=[0, 2, 5], neighbors=neighbors, damping=0.5, max_iter=1000)
    assert_agree(models)
    # and the potentials really change the answer compared with the paper's default
    default = bpseg(engine="potts", n_segments=3, init=[0, 2, 5], neighbors=neighbors, tol=1e-12).fit(Xn)
    assert np.abs(default.beliefs_ - models["potts"].beliefs_).max() > 1e-3


def test_very_repulsive_coupling_with_sharp_unaries():
    """log w = 25 with sharp unaries: w S + (1 - w) H(x) would cancel catastrophically for the
    dominant state; the Potts kernel must take its exact path and still match the others."""
    pot = make_potentials(lambda X, C: 30.0 * (X @ C.T), lambda X, r, c: np.full(len(r), 25.0))
    X = rand_X(7, 3, 18)
    pairs = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (1, 5)]
    models = fit_all(X, n_segments=3, init=[0, 2, 5], potentials=pot, neighbors=pairs, damping=0.5, max_iter=1000)
    assert_agree(models)


def test_lam_800_loopy_converges_where_potts_and_reference_do():
    rng = np.random.default_rng(11)
    rng.integers(4, 9), rng.integers(2, 5), rng.integers(2, 7)  # keep the seed's stream as it was found
    X = rng.normal(size=(4, 5))
    models = fit_all(X, n_segments=2, lam=800, init=[1, 3], max_iter=1000)
    assert models["potts"].converged_ and models["reference"].converged_
    assert models["loopy"].converged_, (
        f"loopy: {models['loopy'].n_iter_} sweeps, last deltas {models['loopy'].deltas_[-3:]}"
    )
    assert_agree(models, same_iter=False)


def test_reference_underflow_is_a_clear_error_or_a_result():
    rng = np.random.default_rng(6)
    rng.integers(4, 9), rng.integers(2, 5), rng.integers(2, 7)  # keep the seed's stream as it was found
    X = rng.normal(size=(6, 4))
    pairs = [(0, 1), (0, 2), (0, 4), (1, 3), (1, 5), (2, 3), (2, 5)]
    try:
        m = bpseg(engine="reference", n_segments=3, lam=800, init=[4, 1, 0], neighbors=pairs, max_iter=50).fit(X)
    except ValueError:
        return
    assert np.all(np.isfinite(m.beliefs_))
    np.testing.assert_allclose(m.beliefs_.sum(axis=1), 1.0, atol=1e-12)
