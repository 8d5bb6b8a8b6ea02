"""The Potts kernel in pgmpy's ``Inference`` API: loopy sum-product on a ``DiscreteMarkovNetwork`` whose pairwise
factors are Potts-shaped.

:class:`PottsBeliefPropagation` reads the network's factors as
:class:`~bpseg_pgm.inference.kernels.loopy.LoopyBeliefPropagation` does, checks that every pairwise table is
Potts-shaped (a ValueError naming the pair otherwise) and runs the Potts kernel on the couplings it read: O(|E| k)
a sweep, the table kernel's messages. This is how the default grouping of runs into topics is inferred.
"""

from __future__ import annotations

import numpy as np

from .flooding import BPResult
from .loopy import LoopyBeliefPropagation
from .potts import potts_bp, potts_log_partition

__all__ = ["PottsBeliefPropagation"]


class PottsBeliefPropagation(LoopyBeliefPropagation):
    """Loopy sum-product with the Potts kernel on a pairwise pgmpy network of Potts factors.

    Parameters as :class:`~bpseg_pgm.inference.kernels.loopy.LoopyBeliefPropagation`, plus ``backend``
    ("compiled": numba sweeps, or "numpy"). Every variable must have the same number of states.

    Attributes
    ----------
    log_coupling : ndarray of shape (m,)
        log w_ij of each pair of :attr:`edges`: the off-diagonal log value of its table less the diagonal one.
    """

    def __init__(self, model, max_iter: int = 100, tol: float = 1e-6, damping: float = 0.0, backend="compiled"):
        super().__init__(model, max_iter=max_iter, tol=tol, damping=damping)
        if self.padded:
            raise ValueError("PottsBeliefPropagation needs every variable to have the same number of states")
        self.backend = backend
        t = self._log_tables  # the couplings: each table's off-diagonal log value less its diagonal one
        k = t.shape[1] if t.ndim == 3 else 0
        if t.shape[0] == 0 or k < 2:  # no pair, or one state: nothing to couple
            self._log_diag = float(t[:, 0, 0].sum()) if t.shape[0] else 0.0
            self._log_w = np.zeros(t.shape[0])
            return
        eye = np.eye(k, dtype=bool)
        diag = t[:, eye]  # (m, k)
        off = t[:, ~eye]  # (m, k (k - 1))
        if not np.all(np.isfinite(diag)):
            raise ValueError("a Potts factor must not rule out two equal states (a zero on its diagonal)")
        bad = np.flatnonzero((diag != diag[:, :1]).any(axis=1) | (off != off[:, :1]).any(axis=1))
        if bad.size:
            i, j = self._u[bad[0]], self._v[bad[0]]
            raise ValueError(
                f"the factor on ({self._vars[i]}, {self._vars[j]}) is not Potts-shaped (one value on the diagonal, "
                "one off it); use LoopyBeliefPropagation for any pairwise table"
            )
        self._log_diag = float(diag[:, 0].sum())  # a constant factor of p~: in log Z, in no marginal
        self._log_w = off[:, 0] - diag[:, 0]

    @property
    def log_coupling(self) -> np.ndarray:
        view = self._log_w.view()
        view.flags.writeable = False
        return view

    def _solve(self, log_unary: np.ndarray, callback) -> BPResult:
        return potts_bp(
            log_unary, self._u, self._v, self._log_w, max_iter=self.max_iter, tol=self.tol, damping=self.damping,
            callback=callback, backend=self.backend,
        )  # fmt: skip

    def bethe_log_partition(self, result: BPResult) -> float:
        """The Bethe estimate of log Z at the messages of ``result`` (from :meth:`run`, no evidence)."""
        log_z = potts_log_partition(self._log_unary, self._u, self._v, self._log_w, result)
        return log_z + self._log_diag + self._log_offset
