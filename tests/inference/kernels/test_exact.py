"""Exact marginals: brute-force enumeration == pgmpy BeliefPropagation == VariableElimination
== BPSeg(engine="exact"); loopy BP is close to exact at the paper's weak coupling; the exact
engine refuses tables that cannot fit."""

from __future__ import annotations

import contextlib
import itertools
import resource
import warnings

import numpy as np
import pytest
from paper_model import bpseg, rand_X
from pgmpy.inference import BeliefPropagation, VariableElimination

from bpseg_pgm import build_markov_network
from bpseg_pgm.inference.kernels.exact import exact_marginals, largest_clique_entries
from bpseg_pgm.potentials import PaperPotentials


def brute_force_marginals(model, names):
    """Enumerate all assignments; multiply every factor of the pgmpy model; marginalise."""
    card = model.get_cardinality()
    pos = {v: i for i, v in enumerate(names)}
    factors = model.get_factors()
    marg = [np.zeros(card[v]) for v in names]
    for assignment in itertools.product(*(range(card[v]) for v in names)):
        p = 1.0
        for f in factors:
            p *= f.values[tuple(assignment[pos[v]] for v in f.variables)]
        for i, x in enumerate(assignment):
            marg[i][x] += p
    return [m / m.sum() for m in marg]


def pgmpy_marginals(engine_cls, model, names):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = engine_cls(model).query(names, joint=False, show_progress=False)
    # pgmpy leaves VariableElimination's per-variable marginals of a Markov network unnormalised
    return [np.asarray(q[v].values, dtype=np.float64) / np.sum(q[v].values) for v in names]


@pytest.mark.parametrize(
    "n,k,lam,sigma,neighbors,seed",
    [
        (3, 2, 0.12, None, None, 0),
        (5, 3, 1.0, None, None, 1),
        (6, 3, 3.0, 2.0, None, 2),
        (7, 2, 5.0, None, None, 3),
        (8, 3, 0.12, None, None, 4),
        (8, 3, 2.0, None, [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (2, 6), (1, 5)], 5),
    ],
)
def test_brute_force_equals_pgmpy_bp_ve_and_exact_engine(n, k, lam, sigma, neighbors, seed):
    X = rand_X(n, 4, seed)
    reps = np.random.default_rng(seed).choice(n, size=k, replace=False)
    model = build_markov_network(X, reps, PaperPotentials(lam=lam, sigma=sigma), neighbors)
    names = [f"s{i}" for i in range(n)]
    brute = brute_force_marginals(model, names)
    # the model is not degenerate: the marginals are far from uniform
    assert max(np.abs(b - 1 / k).max() for b in brute) > 1e-2
    for cls in (BeliefPropagation, VariableElimination):
        for b, q in zip(brute, pgmpy_marginals(cls, model, names)):
            np.testing.assert_allclose(q, b, rtol=0, atol=1e-9, err_msg=cls.__name__)
    est = bpseg(n_segments=k, lam=lam, sigma=sigma, engine="exact", init=reps, neighbors=neighbors).fit(X)
    np.testing.assert_allclose(est.beliefs_, np.array(brute), rtol=0, atol=1e-9)
    np.testing.assert_array_equal(est.labels_, np.argmax(np.array(brute), axis=1))
    assert est.model_ is not None and est.converged_ and est.n_iter_ == 1


def test_exact_marginals_follow_model_node_order():
    X = rand_X(5, 4, 6)
    model = build_markov_network(X, [0, 4], PaperPotentials(lam=2.0))
    names = list(model.nodes())
    np.testing.assert_allclose(exact_marginals(model), np.array(brute_force_marginals(model, names)), atol=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_weak_coupling_loopy_close_to_exact(seed):
    """At the paper's lam = 0.12, loopy BP's marginals are within 1e-2 of the exact ones."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 9))
    k = int(rng.integers(2, 4))
    X = rand_X(n, 5, 50 + seed)
    init = rng.choice(n, size=k, replace=False)
    kw = dict(n_segments=k, lam=0.12, init=init)
    exact = bpseg(engine="exact", **kw).fit(X)
    for engine in ("loopy", "potts"):
        loopy = bpseg(engine=engine, tol=1e-10, max_iter=500, **kw).fit(X)
        assert loopy.converged_
        np.testing.assert_allclose(loopy.beliefs_, exact.beliefs_, rtol=0, atol=1e-2)
        np.testing.assert_array_equal(loopy.labels_, exact.labels_)


@contextlib.contextmanager
def address_space_limit(extra_bytes):
    """Cap this process's address space at its current size + extra_bytes while inside, so
    that a runaway allocation raises MemoryError instead of swapping or meeting the OOM killer."""
    with open("/proc/self/status") as fh:
        vm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (vm + extra_bytes, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.mark.parametrize("n, k", [(10, 3), (30, 5)])
def test_exact_engine_on_a_chain_matches_loopy(n, k):
    """With sparse neighbours the exact engine works on the junction tree (cliques of k^2
    entries, cheap even at n = 30); on a tree loopy BP is exact."""
    X = rand_X(n, 4, 7)
    chain = [(i, i + 1) for i in range(n - 1)]
    kw = dict(n_segments=k, lam=3.0, neighbors=chain, random_state=0)
    with address_space_limit(2 * 2**30):
        exact = bpseg(engine="exact", **kw).fit(X)
    loopy = bpseg(engine="loopy", tol=1e-12, **kw).fit(X)
    np.testing.assert_allclose(loopy.beliefs_, exact.beliefs_, rtol=0, atol=1e-9)
    assert largest_clique_entries(exact.model_) == k * k


def test_exact_engine_refuses_huge_table_naming_its_size():
    X = rand_X(30, 4, 8)
    with pytest.raises(ValueError, match=r"5\^30 = 9\.31e\+20"):
        bpseg(n_segments=5, engine="exact", random_state=0).fit(X)
    # exact_marginals itself also refuses (e.g. a 12-clique with k = 5 is 2.4e8 entries)
    model = build_markov_network(rand_X(12, 4, 9), [0, 1, 2, 3, 4])
    with pytest.raises(ValueError, match=r"2\.44e\+08 entries"):
        exact_marginals(model)


def test_largest_clique_entries():
    model = build_markov_network(rand_X(6, 4, 10), [0, 1, 2])
    assert largest_clique_entries(model) == 3.0**6
    cycle = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]
    model = build_markov_network(rand_X(6, 4, 10), [0, 1, 2], neighbors=cycle)
    assert largest_clique_entries(model) == 3.0**3
