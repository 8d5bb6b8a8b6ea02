"""log_partition_: the Bethe estimate of log Z (BP engines), exact log Z ("exact"), the ELBO (mean-field)."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force import chain, complete, log_partition, potts_tables
from paper_model import rand_X, unit

from bpseg_pgm import BPSeg
from bpseg_pgm.inference import PottsEngine
from bpseg_pgm.inference.kernels.potts import potts_bp, potts_log_partition
from bpseg_pgm.potentials import PaperPotentials, make_potentials

X7 = unit(rand_X(7, 8, 3))


def paper(engine, neighbors, lam=2.0, **kw):
    return BPSeg(
        n_segments=3,
        init=[0, 3, 6],
        structure="topics",
        potentials="paper",
        lam=lam,
        neighbors=neighbors,
        engine=engine,
        tol=1e-13,
        max_iter=2000,
        **kw,
    ).fit(X7)


def model_arrays(m, lam=2.0):
    pot = PaperPotentials(lam=lam)
    E = np.asarray(m.edges_)
    return pot.log_unary(X7, m.centers_), E, pot.log_pairwise_table(X7, E[:, 0], E[:, 1], 3)


@pytest.mark.parametrize("engine", ["potts", "loopy", PottsEngine(backend="numpy")])
@pytest.mark.parametrize("lam", [0.12, 2.0, 20.0])
def test_bethe_is_exact_on_a_chain(engine, lam):
    m = paper(engine, chain(7), lam=lam)
    assert m.converged_
    assert abs(m.log_partition_ - log_partition(*model_arrays(m, lam))) < 1e-8


def _independent_bethe(log_unary, edges, log_tables, sweeps=3000):
    """Plain flooding sum-product in linear space, then F from explicit k x k pair beliefs."""
    n, k = log_unary.shape
    psi = np.exp(log_unary)
    pair = {}
    for (i, j), t in zip(edges, np.exp(log_tables)):
        pair[(i, j)], pair[(j, i)] = t, t.T
    nbrs = {i: [j for (a, j) in pair if a == i] for i in range(n)}
    msg = {key: np.full(k, 1.0 / k) for key in pair}
    for _ in range(sweeps):
        new = {}
        for i, j in pair:
            h = psi[i] * np.prod([msg[(q, i)] for q in nbrs[i] if q != j], axis=0)
            mm = h @ pair[(i, j)]
            new[(i, j)] = mm / mm.sum()
        msg = new
    b = {i: psi[i] * np.prod([msg[(q, i)] for q in nbrs[i]], axis=0) for i in range(n)}
    b = {i: v / v.sum() for i, v in b.items()}
    F = 0.0
    for i in range(n):
        F += np.sum(b[i] * np.log(b[i])) * (1 - len(nbrs[i])) - np.sum(b[i] * np.log(psi[i]))
    for (i, j), t in zip(edges, np.exp(log_tables)):
        hi = psi[i] * np.prod([msg[(q, i)] for q in nbrs[i] if q != j], axis=0)
        hj = psi[j] * np.prod([msg[(q, j)] for q in nbrs[j] if q != i], axis=0)
        bij = hi[:, None] * t * hj[None, :]
        bij /= bij.sum()
        F += np.sum(bij * (np.log(bij) - np.log(t)))
    return -F


@pytest.mark.parametrize("engine", ["potts", "loopy"])
def test_bethe_on_the_complete_graph_matches_an_independent_computation(engine):
    m = paper(engine, "all")
    assert m.converged_
    arrays = model_arrays(m)
    bethe = _independent_bethe(*arrays, sweeps=200)
    assert abs(m.log_partition_ - bethe) < 1e-4
    exact = log_partition(*arrays)
    # on the loopy complete graph the Bethe value is an approximation, and here a clearly lower one
    assert exact - m.log_partition_ > 0.3


def test_exact_engine_log_partition_is_exact():
    for neighbors in ("all", chain(7), [(0, 1), (0, 2), (2, 3), (3, 4), (4, 5), (5, 6), (1, 6)]):
        m = paper("exact", neighbors)
        assert abs(m.log_partition_ - log_partition(*model_arrays(m))) < 1e-9
    with pytest.raises(ValueError, match="connected"):
        paper("exact", [(0, 1), (2, 3)])


def test_mean_field_elbo_is_below_log_z():
    m = paper("mean-field", "all")
    arrays = model_arrays(m)
    assert m.log_partition_ <= log_partition(*arrays) + 1e-12


@pytest.mark.parametrize("layout", ["dense", "sparse"])
def test_potts_log_partition_with_extreme_couplings_is_finite_and_exact_on_a_tree(layout):
    """log w > 5 (repulsive, the exact path) and log w < -600 (the floor), on a star (a tree)."""
    rng = np.random.default_rng(0)
    n, k = 4, 3
    edges = complete(2) if layout == "dense" else np.array([(0, 1), (0, 2), (0, 3)])
    n = edges.max() + 1
    log_unary = rng.normal(size=(n, k))
    log_w = np.array([7.0, -800.0, -3.0])[: len(edges)]
    res = potts_bp(log_unary, edges[:, 0], edges[:, 1], log_w, tol=1e-14, max_iter=100)
    lz = potts_log_partition(log_unary, edges[:, 0], edges[:, 1], log_w, res)
    assert abs(lz - log_partition(log_unary, edges, potts_tables(log_w, k))) < 1e-8


def test_full_tables_bethe_through_custom_potentials():
    rng = np.random.default_rng(5)
    T = rng.normal(size=(6, 3, 3))
    pot = make_potentials(lambda X, C: X @ C.T, table=lambda X, r, c, k: T[: len(r)])
    m = BPSeg(
        n_segments=3,
        init=[0, 3, 6],
        structure="topics",
        potentials=pot,
        neighbors=chain(7),
        engine="loopy",
        tol=1e-13,
        em_rounds=0,
        context=0.0,
    ).fit(X7)
    assert abs(m.log_partition_ - log_partition(X7 @ m.centers_.T, chain(7), T)) < 1e-8


def test_contiguous_log_partition_still_there():
    m = BPSeg(structure="runs", n_segments=2).fit(X7)
    assert np.isfinite(m.log_partition_)
