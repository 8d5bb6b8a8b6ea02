"""``BPSeg``: the estimator's contract (labels, invariances, input checks, scikit-learn API)."""

from __future__ import annotations

import numpy as np
import pytest
from paper_model import bpseg, rand_X
from pgmpy.models import DiscreteMarkovNetwork
from sklearn.base import clone

from bpseg_pgm import BPSeg
from bpseg_pgm.graph import sparse_pairs
from bpseg_pgm.potentials import PaperPotentials


@pytest.mark.parametrize(
    "engine,kw",
    [
        ("potts", {}),
        ("potts", {"neighbors": [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (0, 7), (2, 6)]}),
        ("loopy", {"damping": 0.3}),
        ("reference", {}),
        ("exact", {}),
        ("fast", {}),
    ],
)
def test_labels_invariant_to_permuting_representatives(engine, kw):
    X = rand_X(8, 5, 0)
    reps = np.array([0, 3, 5, 6])
    lam, sigma = (300.0, 10.0) if engine == "fast" else (3.0, 2.0)
    kw = {"lam": lam, "sigma": sigma, **kw}
    base = bpseg(engine=engine, init=reps, tol=1e-12, **kw).fit(X)
    assert len(set(base.labels_)) > 1
    for seed in range(3):
        perm = np.random.default_rng(seed).permutation(4)
        m = bpseg(engine=engine, init=reps[perm], tol=1e-12, **kw).fit(X)
        np.testing.assert_array_equal(m.representatives_, reps[perm])
        # new label x means representative reps[perm[x]], i.e. old label perm[x]
        np.testing.assert_array_equal(perm[m.labels_], base.labels_)
        np.testing.assert_allclose(m.beliefs_, base.beliefs_[:, perm], rtol=0, atol=1e-10)
        assert m.n_iter_ == base.n_iter_


@pytest.mark.parametrize("init", ["random", "farthest"])
def test_same_seed_same_result(init):
    X = rand_X(20, 6, 1)
    a = bpseg(n_segments=4, init=init, random_state=7).fit(X)
    b = bpseg(n_segments=4, init=init, random_state=7).fit(X)
    np.testing.assert_array_equal(a.representatives_, b.representatives_)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_array_equal(a.beliefs_, b.beliefs_)


def test_different_seeds_can_give_different_representatives():
    X = rand_X(20, 6, 2)
    reps = {tuple(bpseg(n_segments=4, random_state=s).fit(X).representatives_) for s in range(6)}
    assert len(reps) > 1
    labels = {tuple(bpseg(n_segments=4, random_state=s).fit(X).labels_) for s in range(6)}
    assert len(labels) > 1
    # a Generator is accepted as random_state too
    bpseg(n_segments=4, random_state=np.random.default_rng(0)).fit(X)


def test_fitted_attributes():
    X = rand_X(9, 4, 3)
    m = bpseg(n_segments=3, lam=2.0, engine="loopy", random_state=0)
    assert m.fit(X) is m
    assert m.labels_.shape == (9,) and m.beliefs_.shape == (9, 3)
    assert m.n_segments_ == 3 and m.representatives_.shape == (3,)
    assert isinstance(m.model_, DiscreteMarkovNetwork) and m.converged_
    assert len(m.deltas_) == m.n_iter_ and m.deltas_[-1] < m.tol
    m = bpseg(n_segments=3, lam=2.0, engine="potts", random_state=0).fit(X)
    assert m.model_ is None and len(m.deltas_) == m.n_iter_
    # each representative belongs to its own segment at the weak default coupling
    m = bpseg(n_segments=3, random_state=0).fit(X)
    np.testing.assert_array_equal(m.labels_[m.representatives_], np.arange(3))


def test_init_all_uses_every_sentence():
    X = rand_X(6, 4, 4)
    m = bpseg(n_segments=99, init="all", engine="potts").fit(X)  # n_segments ignored
    np.testing.assert_array_equal(m.representatives_, np.arange(6))
    assert m.beliefs_.shape == (6, 6) and m.n_segments_ == 6


def test_default_potentials_are_the_papers():
    X = rand_X(7, 4, 5)
    kw = dict(n_segments=3, random_state=0, tol=1e-12)
    a = bpseg(lam=4.0, sigma=3.0, **kw).fit(X)
    b = bpseg(potentials=PaperPotentials(lam=4.0, sigma=3.0), lam=0.0, **kw).fit(X)
    np.testing.assert_allclose(a.beliefs_, b.beliefs_, atol=1e-14)
    c = bpseg(lam=0.0, **kw).fit(X)
    assert np.abs(a.beliefs_ - c.beliefs_).max() > 1e-3


def test_callable_neighbors_and_callback():
    X = rand_X(40, 8, 6)
    seen = []
    m = bpseg(n_segments=4, lam=3.0, random_state=0, neighbors=lambda Z: sparse_pairs(Z, 2, 3)).fit(
        X, callback=lambda t, b: seen.append((t, b.shape))
    )
    assert [t for t, _ in seen] == list(range(1, m.n_iter_ + 1)) and seen[0][1] == (40, 4)
    loopy = bpseg(n_segments=4, lam=3.0, random_state=0, engine="loopy", neighbors=lambda Z: sparse_pairs(Z, 2, 3)).fit(
        X
    )
    np.testing.assert_allclose(loopy.beliefs_, m.beliefs_, atol=1e-6)


def test_scale_of_embeddings_does_not_matter():
    X = rand_X(8, 4, 7)
    a = bpseg(n_segments=3, random_state=0).fit(X)
    b = bpseg(n_segments=3, random_state=0).fit(X * np.arange(1, 9)[:, None])
    np.testing.assert_allclose(a.beliefs_, b.beliefs_, atol=1e-12)


def test_single_sentence():
    m = bpseg(n_segments=1).fit([[0.3, -2.0]])
    np.testing.assert_array_equal(m.labels_, [0])
    np.testing.assert_allclose(m.beliefs_, [[1.0]])
    assert m.converged_


# -- input checks ---------------------------------------------------------------------------
X5 = rand_X(5, 3, 8)


@pytest.mark.parametrize(
    "X,match",
    [
        (np.zeros((0, 3)), "empty"),
        (np.zeros((3, 0)), "empty"),
        (np.ones(4), "2-D"),
        (np.ones((2, 2, 2)), "2-D"),
        ([[1.0, np.nan], [1.0, 2.0]], "NaN or inf"),
        ([[1.0, np.inf], [1.0, 2.0]], "NaN or inf"),
        ([[1.0, 2.0], [0.0, 0.0]], "row 1 is a zero vector"),
        ([["a", "b"]], "numeric"),
    ],
)
def test_bad_embeddings(X, match):
    for engine in ("potts", "loopy"):
        with pytest.raises(ValueError, match=match):
            bpseg(n_segments=1, engine=engine).fit(X)


@pytest.mark.parametrize(
    "params,match",
    [
        ({"n_segments": 0}, "n_segments"),
        ({"n_segments": 6}, "n_segments"),
        ({"n_segments": 2.5}, "n_segments"),
        ({"lam": -0.1}, "lam"),
        ({"lam": float("nan")}, "lam"),
        ({"lam": "x"}, "lam"),
        ({"sigma": 0}, "sigma"),
        ({"sigma": -1.0}, "sigma"),
        ({"init": [0, 5]}, "representatives"),
        ({"init": [-1, 2]}, "representatives"),
        ({"init": [1, 1]}, "distinct"),
        ({"init": []}, "representatives"),
        ({"init": [0.5, 1.0]}, "integer"),
        ({"init": "kmeans"}, "init"),
        ({"engine": "no-such-engine"}, "engine"),  # was "gibbs", an unknown name until issue 15 made it an engine
        ({"damping": 1.0}, "damping"),
        ({"damping": -0.1}, "damping"),
        ({"max_iter": 0}, "max_iter"),
        ({"max_iter": 2.0}, "max_iter"),
        ({"max_iter": True}, "max_iter"),
        ({"tol": 0.0}, "tol"),
        ({"potentials": "no-such-model"}, "potentials"),
        ({"neighbors": [(0, 7)]}, "neighbor"),
        ({"engine": "fast", "potentials": PaperPotentials()}, "fast"),
    ],
)
def test_bad_parameters(params, match):
    kw = {"n_segments": 2, "random_state": 0, **params}
    with pytest.raises(ValueError, match=match):
        bpseg(**kw).fit(X5)


def test_bad_parameters_for_every_engine():
    for engine in ("potts", "loopy", "fast", "exact", "reference", "max-product", "mean-field", "gibbs", "mplp"):
        for params in ({"lam": -1.0}, {"n_segments": 6}, {"init": [2, 2]}, {"max_iter": 0}, {"damping": 1.5}):
            with pytest.raises(ValueError):
                bpseg(engine=engine, **params).fit(X5)


def test_float_indices_that_are_integers_are_accepted():
    m = bpseg(init=np.array([0.0, 3.0])).fit(X5)
    np.testing.assert_array_equal(m.representatives_, [0, 3])
    assert m.representatives_.dtype.kind == "i"


# -- scikit-learn compatibility -------------------------------------------------------------
def test_get_set_params_round_trip():
    m = BPSeg(n_segments=3, lam=0.5, engine="loopy", damping=0.2, random_state=4)
    params = m.get_params()
    assert params["n_segments"] == 3 and params["lam"] == 0.5 and params["engine"] == "loopy"
    expected = {"n_segments", "lam", "sigma", "engine", "init", "potentials", "neighbors",
                "max_iter", "tol", "damping", "random_state"}  # fmt: skip
    assert expected <= set(params)
    other = BPSeg().set_params(**params)
    assert other.get_params() == params
    assert m.set_params(lam=2.0) is m and m.lam == 2.0
    with pytest.raises(ValueError):
        m.set_params(no_such_param=1)


def test_fit_returns_self_and_fit_predict_returns_labels():
    m = BPSeg(n_segments=2, random_state=0)
    assert m.fit(X5) is m
    labels = BPSeg(n_segments=2, random_state=0).fit_predict(X5)
    np.testing.assert_array_equal(labels, m.labels_)
    m2 = BPSeg(n_segments=2, random_state=0)
    assert m2.fit_predict(X5) is m2.labels_


def test_clone():
    pot = PaperPotentials(lam=3.0)
    m = BPSeg(n_segments=2, potentials=pot, engine="reference", random_state=1).fit(X5)
    c = clone(m)
    assert c is not m and not hasattr(c, "labels_")
    assert c.get_params()["engine"] == "reference" and c.get_params()["random_state"] == 1
    assert isinstance(c.potentials, PaperPotentials) and c.potentials.lam == 3.0
    np.testing.assert_array_equal(c.fit(X5).labels_, m.labels_)
    assert "BPSeg(" in repr(m)
