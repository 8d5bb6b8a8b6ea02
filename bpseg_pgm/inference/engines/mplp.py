"""``"mplp"``: pgmpy's ``Mplp`` (Sontag et al. 2008) for the MAP labelling, as an engine.

pgmpy's ``Mplp`` maximises the *sum* of factor values, i.e. reads them as log-potentials, and
records a labelling only when its objective beats 0; so it gets a network whose factors are
theta = log psi - min(log psi) >= 0 (a constant per factor changes no arg-max). Beliefs are
the MAP labelling one-hot; ``extra`` carries the integrality gap (0: certified exact MAP).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..engine import Engine, register_engine


def log_space_network(problem):
    """A pgmpy network with factor values log psi - min(log psi) >= 0, as pgmpy's Mplp expects."""
    from ...graph import network_from_log_potentials

    log_unary = problem.log_unary - problem.log_unary.min(axis=1, keepdims=True)
    tables = problem.tables()
    tables = tables - tables.min(axis=(1, 2), keepdims=True) if len(tables) else tables
    with np.errstate(divide="ignore"):
        # network_from_log_potentials exponentiates: hand it log(theta) so the factors hold theta
        return network_from_log_potentials(np.log(log_unary), problem.edges, np.log(tables))


@register_engine("mplp")
class MplpEngine(Engine):
    """MAP by max-product linear programming (pgmpy ``Mplp.map_query``); ``init_iter`` and
    ``tighten_triplet`` are passed on."""

    def __init__(self, init_iter=1000, tighten_triplet=True):
        self.init_iter = init_iter
        self.tighten_triplet = tighten_triplet

    def infer(self, problem):
        from ..._pgmpy import Mplp

        n, k = problem.n, problem.k
        if not len(problem.edges):  # no pairwise factor: the MAP is each sentence's best label
            labels = np.argmax(problem.log_unary, axis=1)
            return self.result(np.eye(k)[labels], 1, True, integrality_gap=0.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            solver = Mplp(log_space_network(problem))
            assignment = solver.map_query(init_iter=self.init_iter, tighten_triplet=self.tighten_triplet)
        if len(assignment) < n:
            raise ValueError("pgmpy's Mplp returned no labelling for this model")
        labels = np.array([int(assignment[f"s{i}"]) for i in range(n)])
        return self.result(np.eye(k)[labels], 1, True, integrality_gap=float(solver.integrality_gap))
