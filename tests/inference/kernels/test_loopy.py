"""``LoopyBeliefPropagation`` behaves like a pgmpy ``Inference`` class."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from paper_model import rand_X
from pgmpy.factors.discrete import DiscreteFactor
from pgmpy.inference import VariableElimination
from pgmpy.models import DiscreteMarkovNetwork

from bpseg_pgm import LoopyBeliefPropagation, build_markov_network
from bpseg_pgm.potentials import PaperPotentials


def ve_marginal(model, var, evidence=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = VariableElimination(model).query([var], evidence=evidence, joint=True, show_progress=False)
    return np.asarray(f.values, dtype=np.float64) / np.sum(f.values)


@pytest.fixture
def chain_model():
    X = rand_X(6, 4, 0)
    chain = [(i, i + 1) for i in range(5)]
    return build_markov_network(X, [0, 2, 5], PaperPotentials(lam=4.0), neighbors=chain)


@pytest.fixture
def loopy_model():
    return build_markov_network(rand_X(6, 4, 1), [1, 3, 4], PaperPotentials(lam=2.0))


def test_query_returns_dict_of_discrete_factors(loopy_model):
    bp = LoopyBeliefPropagation(loopy_model, tol=1e-10)
    q = bp.query(["s0", "s1"])
    assert set(q) == {"s0", "s1"}
    for var, f in q.items():
        assert isinstance(f, DiscreteFactor)
        assert f.variables == [var]
        assert list(f.cardinality) == [3]
        assert np.all(f.values > 0) and np.isclose(f.values.sum(), 1.0)
    assert bp.converged_ and bp.n_iter_ >= 1 and len(bp.deltas_) == bp.n_iter_
    # a single name works too
    np.testing.assert_array_equal(bp.query("s1")["s1"].values, q["s1"].values)


def test_joint_query(loopy_model):
    bp = LoopyBeliefPropagation(loopy_model)
    with pytest.raises(ValueError, match="joint=False"):
        bp.query(["s0", "s1"], joint=True)
    f = bp.query(["s2"], joint=True)
    assert isinstance(f, DiscreteFactor) and f.variables == ["s2"]
    np.testing.assert_array_equal(f.values, bp.query(["s2"])["s2"].values)


def test_query_unknown_variable_or_overlap_with_evidence(loopy_model):
    bp = LoopyBeliefPropagation(loopy_model)
    with pytest.raises(ValueError, match="not in the model"):
        bp.query(["s0", "nope"])
    with pytest.raises(ValueError, match="evidence"):
        bp.query(["s0"], evidence={"s0": 1})
    with pytest.raises(ValueError, match="not in the model"):
        bp.query(["s0"], evidence={"nope": 1})
    with pytest.raises(ValueError, match="not a state"):
        bp.query(["s0"], evidence={"s1": 7})


def test_tree_marginals_are_exact(chain_model):
    bp = LoopyBeliefPropagation(chain_model, tol=1e-12)
    q = bp.query([f"s{i}" for i in range(6)])
    for i in range(6):
        np.testing.assert_allclose(q[f"s{i}"].values, ve_marginal(chain_model, f"s{i}"), rtol=0, atol=1e-9)


@pytest.mark.parametrize("evidence", [{"s2": 1}, {"s0": 2, "s4": 0}, {"s5": 0}])
def test_evidence_matches_variable_elimination_on_a_tree(chain_model, evidence):
    bp = LoopyBeliefPropagation(chain_model, tol=1e-12)
    free = [f"s{i}" for i in range(6) if f"s{i}" not in evidence]
    q = bp.query(free, evidence=evidence)
    changed = 0.0
    for var in free:
        expected = ve_marginal(chain_model, var, evidence)
        np.testing.assert_allclose(q[var].values, expected, rtol=0, atol=1e-9)
        changed = max(changed, np.abs(expected - ve_marginal(chain_model, var)).max())
    assert changed > 1e-3  # the evidence really matters
    # the result is not stale: a query without evidence afterwards gives the unconditioned marginals
    np.testing.assert_allclose(bp.query([free[0]])[free[0]].values, ve_marginal(chain_model, free[0]), atol=1e-9)


def test_map_query_is_argmax_of_marginals(loopy_model, chain_model):
    for model in (loopy_model, chain_model):
        bp = LoopyBeliefPropagation(model, tol=1e-12)
        names = [f"s{i}" for i in range(6)]
        q = bp.query(names)
        mp = bp.map_query()
        assert mp == {v: int(np.argmax(q[v].values)) for v in names}
        assert bp.map_query(["s3"]) == {"s3": mp["s3"]}
    bp = LoopyBeliefPropagation(chain_model, tol=1e-12)
    ev = {"s2": 0}
    mp = bp.map_query(evidence=ev)
    assert "s2" not in mp and set(mp) == {f"s{i}" for i in range(6) if i != 2}
    for v, s in mp.items():
        assert s == int(np.argmax(ve_marginal(chain_model, v, ev)))


def test_three_variable_factor_is_refused():
    model = DiscreteMarkovNetwork([("a", "b"), ("b", "c"), ("a", "c")])
    model.add_factors(DiscreteFactor(["a", "b", "c"], [2, 2, 2], np.arange(1, 9)))
    with pytest.raises(ValueError, match="pairwise"):
        LoopyBeliefPropagation(model)


def _mixed_cardinality_tree():
    rng = np.random.default_rng(3)
    card = {"a": 2, "b": 3, "c": 4, "d": 2, "e": 3}
    edges = [("a", "b"), ("b", "c"), ("c", "d"), ("b", "e")]
    model = DiscreteMarkovNetwork(edges)
    factors = [DiscreteFactor([v], [c], rng.uniform(0.2, 2.0, c)) for v, c in card.items()]
    factors += [DiscreteFactor([u, v], [card[u], card[v]], rng.uniform(0.05, 3.0, card[u] * card[v])) for u, v in edges]
    model.add_factors(*factors)
    assert model.check_model()
    return model, card


@pytest.mark.parametrize("damping", [0.0, 0.5])
def test_mixed_cardinalities_on_a_tree_match_variable_elimination(damping):
    model, card = _mixed_cardinality_tree()
    bp = LoopyBeliefPropagation(model, tol=1e-12, max_iter=1000, damping=damping)
    q = bp.query(list(card))
    assert bp.converged_
    for v, c in card.items():
        assert q[v].values.shape == (c,)
        np.testing.assert_allclose(q[v].values, ve_marginal(model, v), rtol=0, atol=1e-9)
    ev = {"c": 3}
    q = bp.query(["a", "b", "d", "e"], evidence=ev)
    for v in q:
        np.testing.assert_allclose(q[v].values, ve_marginal(model, v, ev), rtol=0, atol=1e-9)


def test_state_names_are_kept():
    model = DiscreteMarkovNetwork([("x", "y")])
    names = {"x": ["lo", "hi"], "y": ["r", "g", "b"]}
    model.add_factors(
        DiscreteFactor(["x"], [2], [1.0, 3.0], state_names={"x": names["x"]}),
        DiscreteFactor(["y"], [3], [1.0, 1.0, 5.0], state_names={"y": names["y"]}),
        DiscreteFactor(["x", "y"], [2, 3], [4, 1, 1, 1, 1, 4], state_names=names),
    )
    bp = LoopyBeliefPropagation(model, tol=1e-12)
    q = bp.query(["x", "y"])
    assert q["y"].state_names == {"y": ["r", "g", "b"]}
    np.testing.assert_allclose(q["x"].values, ve_marginal(model, "x"), atol=1e-12)
    assert bp.map_query() == {"x": "hi", "y": "b"}
    q = bp.query(["x"], evidence={"y": "r"})
    np.testing.assert_allclose(q["x"].values, ve_marginal(model, "x", {"y": "r"}), atol=1e-12)


@pytest.mark.parametrize(
    "kw", [{"max_iter": 0}, {"max_iter": 2.5}, {"damping": 1.0}, {"damping": -0.1}, {"tol": -1e-3}]
)
def test_bad_parameters(loopy_model, kw):
    with pytest.raises(ValueError):
        LoopyBeliefPropagation(loopy_model, **kw)


def test_callback_sees_every_sweep(loopy_model):
    seen = []
    bp = LoopyBeliefPropagation(loopy_model, tol=1e-10)
    res = bp.run(callback=lambda t, b: seen.append((t, b.copy())))
    assert [t for t, _ in seen] == list(range(1, res.n_iter + 1))
    np.testing.assert_allclose(seen[-1][1], res.beliefs, atol=1e-15)


def test_reversed_scope_and_repeated_pair_factors():
    """A factor over (b, a) is read transposed; two factors on one pair multiply."""
    rng = np.random.default_rng(4)
    card = {"a": 2, "b": 3, "c": 2}
    model = DiscreteMarkovNetwork([("a", "b"), ("b", "c")])
    model.add_factors(
        DiscreteFactor(["a"], [2], [1.0, 2.0]),
        DiscreteFactor(["b", "a"], [3, 2], rng.uniform(0.1, 3.0, 6)),  # scope reversed w.r.t. node order
        DiscreteFactor(["a", "b"], [2, 3], rng.uniform(0.1, 3.0, 6)),  # a second factor on the same pair
        DiscreteFactor(["c", "b"], [2, 3], rng.uniform(0.1, 3.0, 6)),
    )
    bp = LoopyBeliefPropagation(model, tol=1e-12)
    q = bp.query(list(card))
    for v in card:
        np.testing.assert_allclose(q[v].values, ve_marginal(model, v), rtol=0, atol=1e-9)


def test_compiled_model_is_public_and_read_only(chain_model):
    """What the "loopy" engine reads: variable order, arrays, and the Bethe log Z, never private state."""
    from brute_force import log_partition

    bp = LoopyBeliefPropagation(chain_model, tol=1e-12, max_iter=500)
    assert sorted(bp.variable_order) == sorted(chain_model.nodes()) and not bp.padded
    n, K = bp.log_unary.shape
    assert bp.edges.shape == (5, 2) and np.all(bp.edges[:, 0] < bp.edges[:, 1]) and bp.log_tables.shape == (5, K, K)
    for array in (bp.log_unary, bp.edges, bp.log_tables):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0.0
    with pytest.raises(AttributeError):
        bp.log_unary = None
    # on a tree the Bethe estimate is exact
    exact = log_partition(np.asarray(bp.log_unary), np.asarray(bp.edges), np.asarray(bp.log_tables))
    assert abs(bp.bethe_log_partition(bp.run()) - exact) < 1e-8


def test_bethe_needs_one_number_of_states():
    model, _ = _mixed_cardinality_tree()
    bp = LoopyBeliefPropagation(model)
    assert bp.padded
    with pytest.raises(ValueError, match="same number of states"):
        bp.bethe_log_partition(bp.run())
