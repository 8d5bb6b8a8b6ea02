"""``PottsBeliefPropagation``: the Potts kernel in pgmpy's ``Inference`` API, on a real ``DiscreteMarkovNetwork``.

It reads the network's factors, so it must give the table kernel's beliefs on the same network (any graph), pgmpy's
exact marginals on a tree, the Bethe log Z of the table kernel, and refuse a table that is not Potts-shaped.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pgmpy.factors.discrete import DiscreteFactor
from pgmpy.inference import BeliefPropagation

from bpseg_pgm.graph import network_from_log_potentials, replace_unary_factors
from bpseg_pgm.inference.kernels.loopy import LoopyBeliefPropagation
from bpseg_pgm.inference.kernels.potts_network import PottsBeliefPropagation


def _potts(n=7, k=3, edges=None, seed=0, diag=0.0):
    rng = np.random.default_rng(seed)
    if edges is None:
        edges = np.stack(np.triu_indices(n, 1), axis=1)
    edges = np.asarray(edges)
    log_w = rng.normal(scale=0.8, size=len(edges))
    tables = np.repeat(log_w[:, None, None], k, axis=1).repeat(k, axis=2)
    tables[:, np.arange(k), np.arange(k)] = diag
    log_unary = rng.normal(size=(n, k))
    return log_unary, edges, tables, log_w


@pytest.mark.parametrize("backend", ["compiled", "numpy"])
@pytest.mark.parametrize("graph", ["complete", "sparse"])
def test_the_same_beliefs_and_log_z_as_the_table_kernel_on_the_same_network(backend, graph):
    edges = None if graph == "complete" else [(0, 1), (1, 2), (2, 3), (0, 3), (1, 4), (4, 5), (5, 6), (2, 6)]
    log_unary, edges, tables, log_w = _potts(edges=edges, diag=0.3)
    model = network_from_log_potentials(log_unary, edges, tables)
    potts = PottsBeliefPropagation(model, max_iter=500, tol=1e-12, backend=backend)
    table = LoopyBeliefPropagation(model, max_iter=500, tol=1e-12)
    a, b = potts.run(), table.run()
    assert a.converged and b.converged
    np.testing.assert_allclose(a.beliefs, b.beliefs, atol=1e-9)
    given = {tuple(e): w for e, w in zip(edges.tolist(), log_w)}  # the compiled edges are in sorted order
    np.testing.assert_allclose(potts.log_coupling, [given[tuple(e)] - 0.3 for e in potts.edges.tolist()], atol=1e-12)
    assert potts.bethe_log_partition(a) == pytest.approx(table.bethe_log_partition(b), abs=1e-8)
    q = potts.query(["s2"], evidence={"s0": 1})["s2"]  # pgmpy's query shape, evidence included
    np.testing.assert_allclose(q.values, table.query(["s2"], evidence={"s0": 1})["s2"].values, atol=1e-9)


def test_exact_on_a_tree_against_pgmpys_junction_tree():
    log_unary, edges, tables, _ = _potts(n=6, k=3, edges=[(0, 1), (1, 2), (1, 3), (3, 4), (4, 5)], seed=2)
    model = network_from_log_potentials(log_unary, edges, tables)
    res = PottsBeliefPropagation(model, tol=1e-12).run()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exact = BeliefPropagation(model).query([f"s{i}" for i in range(6)], joint=False, show_progress=False)
    for i in range(6):
        np.testing.assert_allclose(res.beliefs[i], exact[f"s{i}"].values / exact[f"s{i}"].values.sum(), atol=1e-10)


def test_a_table_that_is_not_potts_shaped_is_refused_naming_the_pair():
    log_unary, edges, tables, _ = _potts(n=4, k=3)
    tables[2, 0, 1] += 0.5
    model = network_from_log_potentials(log_unary, edges, tables)
    i, j = edges[2]
    with pytest.raises(ValueError, match=rf"factor on \(s{i}, s{j}\) is not Potts-shaped"):
        PottsBeliefPropagation(model)


def test_new_unary_factors_keep_the_pairwise_ones():
    log_unary, edges, tables, _ = _potts(n=5, k=3, seed=4)
    model = network_from_log_potentials(log_unary, edges, tables)
    pairwise = [f for f in model.factors if len(f.variables) == 2]
    new = np.random.default_rng(5).normal(size=(5, 3))
    replace_unary_factors(model, new)
    model.check_model()
    assert [f for f in model.factors if len(f.variables) == 2] == pairwise
    fresh = network_from_log_potentials(new, edges, tables)
    np.testing.assert_allclose(
        PottsBeliefPropagation(model, tol=1e-12).run().beliefs, PottsBeliefPropagation(fresh, tol=1e-12).run().beliefs
    )
    unary = {f.variables[0]: f for f in model.factors if len(f.variables) == 1}
    assert isinstance(unary["s3"], DiscreteFactor) and np.allclose(np.log(unary["s3"].values), new[3])
    with pytest.raises(ValueError, match="does not have 4 variables"):
        replace_unary_factors(model, new[:4])
