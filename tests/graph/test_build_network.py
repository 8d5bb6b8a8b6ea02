"""``build_markov_network``: the pgmpy model BP-Seg runs on."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from paper_model import rand_X, unit
from pgmpy.factors.discrete import DiscreteFactor
from pgmpy.models import DiscreteMarkovNetwork

from bpseg_pgm import build_markov_network
from bpseg_pgm.graph import resolve_edges, variable_name
from bpseg_pgm.graph.build import FactorMaker
from bpseg_pgm.potentials import PaperPotentials, make_potentials


def split_factors(model):
    unary = {f.variables[0]: f for f in model.get_factors() if len(f.variables) == 1}
    pair = {tuple(f.variables): f for f in model.get_factors() if len(f.variables) == 2}
    return unary, pair


def test_fully_connected_by_default():
    n, k = 6, 3
    X = rand_X(n, 4, 0)
    model = build_markov_network(X, [0, 2, 4])
    assert isinstance(model, DiscreteMarkovNetwork)
    names = [f"s{i}" for i in range(n)]
    assert list(model.nodes()) == names
    assert [variable_name(i) for i in range(n)] == names
    assert model.number_of_edges() == n * (n - 1) // 2
    unary, pair = split_factors(model)
    assert sorted(unary) == sorted(names) and len(unary) == n
    assert len(pair) == n * (n - 1) // 2 and len(model.get_factors()) == n + len(pair)
    assert {frozenset(e) for e in pair} == {frozenset(e) for e in model.edges()}
    assert model.get_cardinality() == {v: k for v in names}
    assert model.check_model()


def test_neighbors_give_only_those_edges():
    X = rand_X(7, 4, 1)
    pairs = [(0, 1), (3, 1), (2, 6), (6, 2), (4, 4), (5, 6)]  # reversed, duplicate and self pairs
    model = build_markov_network(X, [0, 1], neighbors=pairs)
    expected = {frozenset(("s0", "s1")), frozenset(("s1", "s3")), frozenset(("s2", "s6")), frozenset(("s5", "s6"))}
    assert {frozenset(e) for e in model.edges()} == expected
    _, pair = split_factors(model)
    assert {frozenset(e) for e in pair} == expected
    assert len(model.nodes()) == 7  # isolated sentences are still variables
    assert model.check_model()
    # a callable gets the unit-normalised embeddings
    seen = {}

    def nb(Z):
        seen["norms"] = np.linalg.norm(Z, axis=1)
        return [(0, 6)]

    model = build_markov_network(X * 5.0, [0, 1], neighbors=nb)
    np.testing.assert_allclose(seen["norms"], 1.0)
    assert {frozenset(e) for e in model.edges()} == {frozenset(("s0", "s6"))}


def test_factor_values_are_eq_1_and_2():
    X = rand_X(5, 3, 2)
    Xn = unit(X)
    reps = [4, 1]
    lam, sigma = 2.5, 3.0
    model = build_markov_network(X, reps, PaperPotentials(lam=lam, sigma=sigma))
    unary, pair = split_factors(model)
    for i in range(5):
        np.testing.assert_allclose(unary[f"s{i}"].values, np.exp([Xn[i] @ Xn[4], Xn[i] @ Xn[1]]), rtol=1e-12)
    for (a, b), f in pair.items():
        i, j = int(a[1:]), int(b[1:])
        w = np.exp(lam * np.exp(-((i - j) ** 2) / sigma) * (Xn[i] @ Xn[j] - 1))
        np.testing.assert_allclose(f.values, [[1, w], [w, 1]], rtol=1e-12)


def test_representative_vectors_instead_of_indices():
    X = rand_X(5, 3, 3)
    C = rand_X(2, 3, 4) * 7.0
    model = build_markov_network(X, C)
    unary, _ = split_factors(model)
    Xn, Cn = unit(X), unit(C)
    np.testing.assert_allclose(unary["s3"].values, np.exp(Xn[3] @ Cn.T), rtol=1e-12)
    with pytest.raises(ValueError, match="dim"):
        build_markov_network(X, rand_X(2, 4, 5))


def test_non_potts_table_orientation():
    """log_pairwise_table(...)[e][x_i, x_j] ends up as the factor value at (s_i = x_i, s_j = x_j)."""
    k = 3
    base = np.arange(k * k, dtype=float).reshape(k, k) / 10.0  # asymmetric

    def table(X, rows, cols, k):
        return np.stack([base + 0.01 * r + 0.001 * c for r, c in zip(rows, cols)])

    pot = make_potentials(lambda X, C: X @ C.T, table=table)
    model = build_markov_network(rand_X(4, 3, 6), [0, 1, 2], pot, neighbors=[(2, 0), (1, 3)])
    _, pair = split_factors(model)
    for (a, b), f in pair.items():
        i, j = int(a[1:]), int(b[1:])
        vals = f.values if i < j else f.values.T
        i, j = min(i, j), max(i, j)
        np.testing.assert_allclose(vals, np.exp(base + 0.01 * i + 0.001 * j), rtol=1e-12)


def test_bad_potentials_are_refused():
    X = rand_X(4, 3, 7)
    wrong_shape = make_potentials(lambda X, C: np.zeros((2, 2)), lambda X, r, c: np.zeros(len(r)))
    with pytest.raises(ValueError, match="shape"):
        build_markov_network(X, [0, 1], wrong_shape)
    infinite = make_potentials(lambda X, C: np.full((len(X), len(C)), np.inf), lambda X, r, c: np.zeros(len(r)))
    with pytest.raises(ValueError, match="overflow"):
        build_markov_network(X, [0, 1], infinite)
    with pytest.raises(ValueError, match="representatives"):
        build_markov_network(X, [0, 0])
    with pytest.raises(ValueError, match="neighbor"):
        build_markov_network(X, [0, 1], neighbors=[(0, 9)])


@pytest.mark.parametrize("k", [1, 2, 5])
def test_factor_maker_equals_discrete_factor_init(k):
    make = FactorMaker(k)
    rng = np.random.default_rng(k)
    for variables in (["s3"], ["s0", "s7"]):
        values = rng.uniform(0.1, 2.0, size=(k,) * len(variables))
        fast = make(variables, values)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            slow = DiscreteFactor(variables, [k] * len(variables), values)
        assert type(fast) is type(slow)
        assert fast.variables == slow.variables
        np.testing.assert_array_equal(fast.cardinality, slow.cardinality)
        assert fast.cardinality.dtype == slow.cardinality.dtype
        np.testing.assert_array_equal(fast.values, slow.values)
        assert fast.values.dtype == slow.values.dtype and fast.values.shape == slow.values.shape
        assert fast.state_names == slow.state_names
        assert fast.name_to_no == slow.name_to_no
        assert fast.no_to_name == slow.no_to_name
        assert fast == slow
        # pgmpy operations work on it, and do not disturb factors sharing its state maps
        other = make(variables, values)
        prod = fast.product(slow, inplace=False)
        axes = [prod.variables.index(v) for v in variables]  # pgmpy may reorder the product's scope
        np.testing.assert_allclose(np.transpose(prod.values, axes), values**2)
        fast.marginalize(variables[:1], inplace=True)
        assert other.variables == variables and other.state_names == slow.state_names


def test_resolve_edges():
    Xn = unit(rand_X(4, 3, 8))
    np.testing.assert_array_equal(resolve_edges(Xn, None), [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])
    np.testing.assert_array_equal(resolve_edges(Xn, [(3, 1), (1, 3)]), [[1, 3]])
    np.testing.assert_array_equal(resolve_edges(Xn, lambda Z: [(2, 0)]), [[0, 2]])


def test_huge_log_potentials_are_stored_scaled_with_their_offset():
    """Log potentials past exp's range (1e4 x cosine) were refused as an overflow; they are stored divided by
    exp of each factor's largest value (no marginal changes), ``log_offset`` says by how much."""
    from bpseg_pgm.graph import network_from_log_potentials
    from bpseg_pgm.inference.kernels.loopy import LoopyBeliefPropagation

    rng = np.random.default_rng(3)
    log_unary = rng.normal(size=(5, 3))
    edges = np.stack(np.triu_indices(5, 1), axis=1)
    tables = rng.normal(scale=0.3, size=(len(edges), 3, 3))
    plain = network_from_log_potentials(log_unary, edges, tables)
    assert plain.log_offset == 0.0  # ordinary potentials: stored as they are
    big = log_unary.copy()
    big[2] += 1e4  # one factor past exp's range, the same up to a constant
    scaled = network_from_log_potentials(big, edges, tables)
    scaled.check_model()
    assert scaled.log_offset == pytest.approx(big[2].max())
    a = LoopyBeliefPropagation(plain, tol=1e-12)
    b = LoopyBeliefPropagation(scaled, tol=1e-12)
    ra, rb = a.run(), b.run()
    np.testing.assert_allclose(ra.beliefs, rb.beliefs, atol=1e-9)
    assert b.bethe_log_partition(rb) == pytest.approx(a.bethe_log_partition(ra) + 1e4, abs=1e-6)
