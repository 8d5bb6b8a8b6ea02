"""``"reference"``: the hand-written solver (Algorithm 1 loop by loop, pure Python; tiny inputs)."""

from __future__ import annotations

import numpy as np

from ...potentials import PaperPotentials
from ..engine import Engine, register_engine
from ..kernels.reference import reference_bp, reference_potentials


@register_engine("reference")
class ReferenceEngine(Engine):
    """The yardstick: with the paper's potentials it transcribes eq. (1)-(2) from the embeddings
    itself; with other potentials it reads their (exponentiated) tables. ``damping`` in [0, 1)."""

    @classmethod
    def memory(cls, n, k, m, dense, couplings):
        """Python lists: two dicts of 2m messages of k floats, and a k x k table per edge."""
        return 2 * 2 * m * (k * 32 + 120) + 2 * m * k * k * 8, couplings

    def __init__(self, damping=0.0):
        self.damping = damping

    def infer(self, problem):
        edges = problem.edges
        pot = problem.potentials
        if isinstance(pot, PaperPotentials) and problem.representatives is not None and problem.X is not None:
            # the paper's potentials, transcribed by hand from the embeddings
            unary, pairwise = reference_potentials(
                problem.X.tolist(), problem.representatives.tolist(), lam=pot.lam, sigma=pot.sigma
            )
        else:
            with np.errstate(over="ignore"):  # inf potentials: reference_bp raises one clear ValueError
                unary = np.exp(problem.log_unary).tolist()
                tables = np.exp(problem.tables())
            lookup = {(int(i), int(j)): t for (i, j), t in zip(edges, tables)}

            def pairwise(i, j, xi, xj):
                return float(lookup[(i, j)][xi, xj]) if i < j else float(lookup[(j, i)][xj, xi])

        beliefs, _, n_iter, converged = reference_bp(
            unary, pairwise, [tuple(map(int, e)) for e in edges], max_iter=problem.max_iter, tol=problem.tol,
            damping=self.damping,
        )  # fmt: skip
        return self.result(np.array(beliefs), n_iter, converged)
