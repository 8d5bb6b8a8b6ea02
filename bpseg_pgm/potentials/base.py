"""The pluggable potential interface, in log space.

* ``log_unary(X, C)``: an (n, k) array, log psi_i(x) for sentence i and label x, given unit-norm sentence embeddings
  X (n, d) and unit-norm representative vectors C (k, d);
* ``log_coupling(X, rows, cols)``: an (m,) array, log w_ij for the edges (rows[e], cols[e]), where the pairwise
  factor is *Potts-shaped*: psi_ij(x_i, x_j) = 1 if x_i == x_j else w_ij (a message then costs O(k), not O(k^2)).

A potential whose pairwise table is not Potts-shaped overrides ``log_pairwise_table`` and sets ``potts = False``
(the pgmpy-based engines and the reference solver accept it, the Potts kernel refuses it). Subclass
:class:`Potentials` or pass two functions to :func:`make_potentials`.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

import numpy as np

from bpseg_pgm.utils.validation import normalize_rows


def mean_pair_cosine(X: np.ndarray) -> float:
    """Mean cosine over all pairs i != j of the rows of X, in O(n d)."""
    n = X.shape[0]
    if n < 2:
        return 0.0
    total = normalize_rows(X).sum(axis=0)
    return float((total @ total - n) / (n * (n - 1)))


def edge_cosine(X: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Cosine similarity of unit rows X[rows[e]] and X[cols[e]], without an (m, d) temporary.

    For dense edge sets it is one matrix product; for sparse ones it works in chunks so that
    memory stays O(chunk * d).
    """
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    n = X.shape[0]
    if rows.size == 0:
        return np.zeros(0)
    if rows.size * 8 >= n * n:
        return (X @ X.T)[rows, cols]
    out = np.empty(rows.size)
    step = max(1, 2_000_000 // max(1, X.shape[1]))
    for s in range(0, rows.size, step):
        r, c = rows[s : s + step], cols[s : s + step]
        out[s : s + step] = np.einsum("ij,ij->i", X[r], X[c])
    return out


def distance_decay(rows: np.ndarray, cols: np.ndarray, sigma) -> np.ndarray | float:
    """exp(-|i - j|^2 / sigma), or 1.0 when sigma is None (no decay)."""
    if sigma is None:
        return 1.0
    d = np.abs(np.asarray(rows, dtype=np.float64) - np.asarray(cols, dtype=np.float64))
    return np.exp(-(d**2) / float(sigma))


class Potentials:
    """Base class: log unary potentials and Potts log couplings (see module docstring)."""

    #: True when the pairwise factor is 1 on the diagonal and w_ij off it.
    potts: bool = True
    #: The runs model's cost of a run under these potentials: None derives it from the pairwise potentials
    #: (:class:`~bpseg_pgm.runs.potentialcost.PotentialsCost`, the energy of the couplings within a run), a
    #: registered cost name (:mod:`bpseg_pgm.runs.cost_registry`) uses that cost instead.
    run_cost: ClassVar[str | None] = None

    def group_potentials(self, policy: Any) -> Potentials | None:
        """The potentials that group runs into topics (``group_runs``) under these potentials, for a
        :class:`~bpseg_pgm.policy.Policy`; None (this default) keeps the grouping's own
        (:class:`~bpseg_pgm.runtopics.potentials.RunTopicPotentials`). Override to plug in your own."""
        return None

    def log_unary(self, X: np.ndarray, C: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def log_coupling(self, X: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def log_pairwise_table(self, X: np.ndarray, rows: np.ndarray, cols: np.ndarray, k: int) -> np.ndarray:
        """(m, k, k) log tables, log psi_ij(x_i, x_j) with x_i on axis 1. Potts by default."""
        log_w = np.asarray(self.log_coupling(X, rows, cols), dtype=np.float64)
        tables = np.empty((log_w.size, k, k))
        tables[...] = log_w[:, None, None]
        idx = np.arange(k)
        tables[:, idx, idx] = 0.0
        return tables

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({params})"


class FunctionPotentials(Potentials):
    """Potentials from two plain functions; see :func:`make_potentials`."""

    def __init__(self, unary: Callable, coupling: Callable | None = None, table: Callable | None = None):
        if (coupling is None) == (table is None):
            raise ValueError("give exactly one of coupling= (Potts-shaped) or table= (full k x k tables)")
        self.unary = unary
        self.coupling = coupling
        self.table = table
        self.potts = coupling is not None

    def log_unary(self, X, C):
        return np.asarray(self.unary(X, C), dtype=np.float64)

    def log_coupling(self, X, rows, cols):
        if self.coupling is None:
            raise ValueError("these potentials have full pairwise tables, not Potts couplings")
        return np.asarray(self.coupling(X, rows, cols), dtype=np.float64)

    def log_pairwise_table(self, X, rows, cols, k):
        if self.table is None:
            return super().log_pairwise_table(X, rows, cols, k)
        return np.asarray(self.table(X, rows, cols, k), dtype=np.float64)


def make_potentials(unary: Callable, coupling: Callable | None = None, *, table: Callable | None = None) -> Potentials:
    """Build potentials from functions, all returning *log* values.

    ``unary(X, C) -> (n, k)``; ``coupling(X, rows, cols) -> (m,)`` log w_ij for Potts-shaped pairwise factors, or
    instead ``table(X, rows, cols, k) -> (m, k, k)`` for arbitrary ones (an example: docs/howto/plugins.md).
    """
    return FunctionPotentials(unary, coupling, table)
