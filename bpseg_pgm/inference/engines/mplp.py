"""``"mplp"``: pgmpy's ``Mplp`` (Sontag et al. 2008) for the MAP labelling, as an engine.

pgmpy's ``Mplp`` maximises the *sum* of factor values, i.e. reads them as log-potentials, and
records a labelling only when its objective beats 0; so it gets a network whose factors are
theta = log psi - min(log psi) >= 0 (a constant per factor changes no arg-max). Beliefs are
the MAP labelling one-hot; ``extra["integrality_gap"]`` is pgmpy's (0: certified exact MAP;
on a graph with leaves pgmpy's dual is not a bound, see below, and the gap means nothing).

pgmpy 1.1's ``Mplp`` only passes messages through variables shared by two pairwise factors, so
a sentence with one neighbour (a chain's ends, any leaf) never hears its own unary term: on a
7-sentence chain it returned a labelling 0.58 below the MAP in log p~. Here each leaf's unary
is folded into its edge's table (the LP is the same) and the leaf is decoded afterwards by its
best label given its neighbour's (jointly, for an edge of two leaves).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..engine import Engine, register_engine


def _fold_leaves(problem):
    """Unaries and tables with every leaf's unary moved into its edge's table."""
    log_unary = problem.log_unary.copy()
    tables = problem.tables().copy()
    u, v = problem.u, problem.v
    degree = np.bincount(np.concatenate([u, v]), minlength=problem.n)
    for e, (i, j) in enumerate(zip(u, v)):
        if degree[i] == 1:
            tables[e] += log_unary[i][:, None]
            log_unary[i] = 0.0
        if degree[j] == 1:
            tables[e] += log_unary[j][None, :]
            log_unary[j] = 0.0
    return log_unary, tables, degree


def _decode_leaves(labels, tables, u, v, degree):
    for e, (i, j) in enumerate(zip(u, v)):
        if degree[i] == 1 and degree[j] == 1:
            labels[i], labels[j] = np.unravel_index(np.argmax(tables[e]), tables[e].shape)
        elif degree[i] == 1:
            labels[i] = np.argmax(tables[e][:, labels[j]])
        elif degree[j] == 1:
            labels[j] = np.argmax(tables[e][labels[i], :])
    return labels


def log_space_network(log_unary, edges, tables):
    """A pgmpy network with factor values log psi - min(log psi) >= 0, as pgmpy's Mplp expects."""
    from ...graph import network_from_log_potentials

    log_unary = log_unary - log_unary.min(axis=1, keepdims=True)
    tables = tables - tables.min(axis=(1, 2), keepdims=True) if len(tables) else tables
    with np.errstate(divide="ignore"):
        # network_from_log_potentials exponentiates: hand it log(theta) so the factors hold theta
        return network_from_log_potentials(np.log(log_unary), edges, np.log(tables))


@register_engine("mplp")
class MplpEngine(Engine):
    """MAP by max-product linear programming (pgmpy ``Mplp.map_query``); ``init_iter`` and
    ``tighten_triplet`` are passed on."""

    def __init__(self, init_iter=1000, tighten_triplet=True):
        self.init_iter = init_iter
        self.tighten_triplet = tighten_triplet

    def infer(self, problem):
        from bpseg_pgm.utils.pgmpy_loader import Mplp

        n, k = problem.n, problem.k
        if not len(problem.edges):  # no pairwise factor: the MAP is each sentence's best label
            labels = np.argmax(problem.log_unary, axis=1)
            return self.result(np.eye(k)[labels], 1, True, integrality_gap=0.0)
        log_unary, tables, degree = _fold_leaves(problem)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            solver = Mplp(log_space_network(log_unary, problem.edges, tables))
            assignment = solver.map_query(init_iter=self.init_iter, tighten_triplet=self.tighten_triplet)
        if len(assignment) < n:
            raise ValueError("pgmpy's Mplp returned no labelling for this model")
        labels = np.array([int(assignment[f"s{i}"]) for i in range(n)])
        labels = _decode_leaves(labels, tables, problem.u, problem.v, degree)
        return self.result(np.eye(k)[labels], 1, True, integrality_gap=float(solver.integrality_gap))
