"""The paper's potentials, eq. (1)-(2), the distance decay and pluggable potentials."""

from __future__ import annotations

import math

import numpy as np
import pytest
from paper_model import bpseg, cos, rand_X, unit

from bpseg_pgm.potentials import (
    FunctionPotentials,
    PaperPotentials,
    Potentials,
    distance_decay,
    edge_cosine,
    make_potentials,
)


def test_eq1_unary_by_hand():
    X = rand_X(5, 4, 0)
    reps = [3, 0, 1]
    Xn = unit(X)
    log_u = PaperPotentials(lam=0.12).log_unary(Xn, Xn[reps])
    assert log_u.shape == (5, 3)
    for i in range(5):
        for x, c in enumerate(reps):
            # psi_i(x) = exp(sim(R_i, C_x))
            assert math.exp(log_u[i, x]) == pytest.approx(math.exp(cos(X[i], X[c])), rel=1e-12)
    # a sentence is most similar to itself: psi is e on the representative's own row
    assert log_u[3, 0] == pytest.approx(1.0)


@pytest.mark.parametrize("lam", [0.0, 0.12, 7.0, 300.0])
def test_eq2_pairwise_by_hand(lam):
    X = rand_X(6, 3, 1)
    Xn = unit(X)
    pot = PaperPotentials(lam=lam)
    rows, cols = np.triu_indices(6, 1)
    log_w = pot.log_coupling(Xn, rows, cols)
    tables = np.exp(pot.log_pairwise_table(Xn, rows, cols, 4))
    for e, (i, j) in enumerate(zip(rows, cols)):
        w = math.exp(lam * (cos(X[i], X[j]) - 1))  # eq. (2), off the diagonal
        assert math.exp(log_w[e]) == pytest.approx(w, rel=1e-10, abs=1e-300)
        for a in range(4):
            for b in range(4):
                expected = 1.0 if a == b else w
                assert tables[e, a, b] == pytest.approx(expected, rel=1e-10, abs=1e-300)
    assert np.all(log_w <= 1e-12)  # psi_ij <= 1, as the paper notes


def test_sigma_decay():
    X = unit(rand_X(12, 3, 2))
    rows = np.zeros(11, dtype=int)
    cols = np.arange(1, 12)
    lam, sigma = 5.0, 4.0
    plain = PaperPotentials(lam=lam).log_coupling(X, rows, cols)
    decayed = PaperPotentials(lam=lam, sigma=sigma).log_coupling(X, rows, cols)
    np.testing.assert_allclose(decayed, plain * np.exp(-(cols**2) / sigma), rtol=1e-12)
    # the interaction fades with distance: far pairs are (numerically) uncoupled
    assert abs(decayed[-1]) < 1e-10 < abs(plain[-1])
    np.testing.assert_allclose(distance_decay([0, 3], [2, 0], 2.0), np.exp([-2.0, -4.5]))
    assert distance_decay([0], [5], None) == 1.0


def test_edge_cosine_dense_and_chunked_paths():
    X = unit(rand_X(40, 5, 3))
    S = X @ X.T
    rows, cols = np.triu_indices(40, 1)
    np.testing.assert_allclose(edge_cosine(X, rows, cols), S[rows, cols], atol=1e-14)  # dense path
    few = np.arange(0, len(rows), 50)
    np.testing.assert_allclose(edge_cosine(X, rows[few], cols[few]), S[rows[few], cols[few]], atol=1e-14)
    assert edge_cosine(X, [], []).shape == (0,)


def test_paper_potentials_validate_their_parameters():
    with pytest.raises(ValueError, match="lam"):
        PaperPotentials(lam=-1)
    with pytest.raises(ValueError, match="lam"):
        PaperPotentials(lam=float("nan"))
    with pytest.raises(ValueError, match="sigma"):
        PaperPotentials(sigma=0)
    assert "lam=0.5" in repr(PaperPotentials(lam=0.5))


def test_make_potentials_needs_exactly_one_pairwise_form():
    with pytest.raises(ValueError, match="exactly one"):
        make_potentials(lambda X, C: X @ C.T)
    with pytest.raises(ValueError, match="exactly one"):
        make_potentials(lambda X, C: X @ C.T, lambda X, r, c: r * 0.0, table=lambda X, r, c, k: None)
    pot = make_potentials(lambda X, C: X @ C.T, lambda X, r, c: -np.ones(len(r)))
    assert isinstance(pot, FunctionPotentials) and isinstance(pot, Potentials) and pot.potts
    t = np.exp(pot.log_pairwise_table(np.eye(3), np.array([0]), np.array([1]), 3))[0]
    np.testing.assert_allclose(t, np.where(np.eye(3) == 1, 1.0, np.exp(-1)))


def _asymmetric_table_potentials(scale=1.0):
    """Non-Potts: an asymmetric table that depends on the edge's cosine."""

    def table(X, rows, cols, k):
        c = edge_cosine(X, rows, cols)
        a = np.arange(k, dtype=float)
        base = -np.abs(a[:, None] - a[None, :] - 1.0)  # prefers x_j = x_i + 1: orientation matters
        return scale * (1.0 + c)[:, None, None] * base[None]

    return make_potentials(lambda X, C: 1.5 * (X @ C.T), table=table)


@pytest.mark.parametrize("neighbors", [None, [(0, 1), (1, 2), (2, 3), (3, 4), (1, 4), (0, 5)]])
def test_table_potentials_loopy_matches_reference(neighbors):
    pot = _asymmetric_table_potentials()
    assert not pot.potts
    X = rand_X(6, 3, 4)
    kw = dict(n_segments=3, init=[0, 2, 4], potentials=pot, neighbors=neighbors, tol=1e-12, max_iter=2000)
    loopy = bpseg(engine="loopy", **kw).fit(X)
    ref = bpseg(engine="reference", **kw).fit(X)
    assert loopy.converged_ and ref.converged_ and loopy.n_iter_ == ref.n_iter_
    np.testing.assert_allclose(loopy.beliefs_, ref.beliefs_, rtol=0, atol=1e-9)
    # and the table really does something relative to a Potts model with the same unary
    potts = make_potentials(lambda X, C: 1.5 * (X @ C.T), lambda X, r, c: np.zeros(len(r)))
    plain = bpseg(engine="loopy", **{**kw, "potentials": potts}).fit(X)
    assert np.abs(plain.beliefs_ - loopy.beliefs_).max() > 1e-2


def test_table_potentials_on_a_tree_are_exact():
    """On a tree, loopy BP with an asymmetric table equals the exact engine (catches transposed tables)."""
    pot = _asymmetric_table_potentials(scale=2.0)
    X = rand_X(6, 3, 5)
    tree = [(0, 1), (1, 2), (1, 3), (3, 4), (5, 4)]
    kw = dict(n_segments=3, init=[1, 2, 5], potentials=pot, neighbors=tree)
    loopy = bpseg(engine="loopy", tol=1e-12, **kw).fit(X)
    exact = bpseg(engine="exact", **kw).fit(X)
    ref = bpseg(engine="reference", tol=1e-12, **kw).fit(X)
    np.testing.assert_allclose(loopy.beliefs_, exact.beliefs_, rtol=0, atol=1e-9)
    np.testing.assert_allclose(ref.beliefs_, exact.beliefs_, rtol=0, atol=1e-9)


def test_table_potentials_refused_by_potts_engine():
    X = rand_X(5, 3, 6)
    with pytest.raises(ValueError, match="Potts"):
        bpseg(engine="potts", n_segments=2, potentials=_asymmetric_table_potentials(), random_state=0).fit(X)
    with pytest.raises(ValueError, match="coupling"):
        _asymmetric_table_potentials().log_coupling(X, np.array([0]), np.array([1]))


def test_custom_potentials_object_is_used():
    class Uniform(Potentials):
        def log_unary(self, X, C):
            return np.zeros((X.shape[0], C.shape[0]))

        def log_coupling(self, X, rows, cols):
            return np.zeros(len(rows))

    X = rand_X(5, 3, 7)
    for engine in ("potts", "loopy", "reference", "exact"):
        m = bpseg(engine=engine, n_segments=4, potentials=Uniform(), random_state=0).fit(X)
        np.testing.assert_allclose(m.beliefs_, 0.25, atol=1e-12)
