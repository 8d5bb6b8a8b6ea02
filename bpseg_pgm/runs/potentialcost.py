"""The run cost a :class:`~bpseg_pgm.potentials.Potentials` gives the runs model: the energy of its couplings.

Under Potts-shaped pairwise factors (1 when two units share a label, w_ij when they differ) the energy of a
labelling whose labels are runs in reading order is

    E = - sum_{i<j, different runs} log w_ij = - sum_{i<j} log w_ij + sum_runs sum_{i<j in the run} log w_ij,

the first sum the same for every split. So the cost of the run a..b-1 is the sum of the log couplings of the
pairs within it (every pair an edge, the unary term left out), and the segmental programme finds the split of
least energy exactly; every run's sum comes in O(1) from two-dimensional prefix sums. Couplings that only ever
pay for differing (the paper's, log w <= 0) make one run the least energy, and the number of runs then comes from
the noise calibration alone.
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.potentials.base import Potentials
from bpseg_pgm.utils.validation import normalize_rows

from .cost_registry import RunCost
from .memory import check_runs_memory

__all__ = ["PotentialsCost"]


class PotentialsCost(RunCost):
    """The cost of a run: the sum of ``potentials``' log couplings over the pairs of units within it.

    Parameters
    ----------
    potentials : Potentials
        Potts-shaped potentials (``potentials.potts`` True); their ``log_coupling`` is called once per
        document on every pair of units.
    """

    name = "potentials"

    def __init__(self, potentials: Potentials):
        if not isinstance(potentials, Potentials):
            raise ValueError(f"potentials must be a bpseg_pgm.potentials.Potentials, got {type(potentials).__name__}")
        if not potentials.potts:
            raise ValueError(
                f"potentials {type(potentials).__name__} have full pairwise tables, not Potts couplings: "
                "a run has no cost under them"
            )
        self.potentials = potentials

    def matrix(self, positions: np.ndarray | None = None) -> np.ndarray:
        """(m+1, m+1) matrix C[i, j]: the sum of the log couplings within positions[i]..positions[j]-1."""
        X = normalize_rows(self.features)
        n = X.shape[0]
        positions = np.arange(n + 1) if positions is None else np.asarray(positions, dtype=np.int64)
        m = positions.shape[0] - 1
        check_runs_memory(max(n, m), programme_only=True)
        rows, cols = np.triu_indices(n, k=1)
        L = np.zeros((n, n))
        L[rows, cols] = np.asarray(self.potentials.log_coupling(X, rows, cols), dtype=np.float64)
        P = np.zeros((n + 1, n + 1))
        P[1:, 1:] = L.cumsum(axis=0).cumsum(axis=1)  # P[a, b]: sum of L[i, j] over i < a, j < b
        Pp = P[np.ix_(positions, positions)]
        d = np.diag(Pp)
        # within a..b-1: P[b, b] - P[a, b] - P[b, a] + P[a, a]; L is upper triangular, so P[b, a] = P[a, a] for a < b
        C = d[None, :] - Pp
        C[np.tri(m + 1, dtype=bool)] = np.inf
        return C

    def __repr__(self) -> str:
        return f"PotentialsCost({self.potentials!r})"
