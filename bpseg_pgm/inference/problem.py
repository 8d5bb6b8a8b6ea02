"""What an inference engine is given: one pairwise model as arrays (pgmax-style: the model spec is data).

A :class:`Problem` holds ``log_unary`` (n, k), ``edges`` (m, 2) pairs i < j, the pairwise potentials as Potts log
couplings (m,) and/or full log tables (m, k, k) (x_i on axis 1), the run's budget (``max_iter``, ``tol``,
``callback(t, beliefs)``, ``random_state``) and ``on_network``: True when the problem is to be solved on its pgmpy
network through pgmpy's ``Inference`` API (the grouping of runs makes its problems so).

Built from embeddings and a :class:`~bpseg_pgm.potentials.Potentials` object, its couplings, tables and pgmpy
``DiscreteMarkovNetwork`` are computed when an engine first asks for them and cached; ``X``, ``C``,
``representatives``, ``potentials``, ``lam`` and ``sigma`` are there for engines that need the model itself.
"""

from __future__ import annotations

import numpy as np


class Problem:
    """One pairwise Markov network as arrays, plus the budget of one engine run."""

    def __init__(
        self,
        log_unary,
        edges,
        *,
        log_coupling=None,
        log_tables=None,
        potentials=None,
        X=None,
        C=None,
        representatives=None,
        lam=None,
        sigma=None,
        max_iter: int = 100,
        tol: float = 1e-6,
        callback=None,
        random_state=None,
        shared: dict | None = None,
        on_network: bool = False,
    ):
        self.log_unary = np.asarray(log_unary, dtype=np.float64)
        if self.log_unary.ndim != 2 or self.log_unary.shape[1] < 1:
            raise ValueError(f"log_unary must be an (n, k) array with k >= 1, got shape {self.log_unary.shape}")
        if np.isnan(self.log_unary).any() or np.isposinf(self.log_unary).any():
            raise ValueError(
                "the unary log potentials contain NaN or +inf; -inf (a state ruled out) is the only non-finite value allowed"
            )
        self.n, self.k = self.log_unary.shape
        n = self.n  # the shape: n variables, k states, the edges (u, v)
        self.edges = e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        self.u, self.v = e[:, 0], e[:, 1]
        if e.size and (e.min() < 0 or e.max() >= n or np.any(e[:, 0] >= e[:, 1])):
            raise ValueError(f"edges must be pairs (i, j) with 0 <= i < j < n = {n}")
        m = len(e)
        self.potentials = potentials
        self.X, self.C, self.representatives = X, C, representatives
        self.lam, self.sigma = lam, sigma
        self.max_iter, self.tol, self.callback, self.random_state = int(max_iter), float(tol), callback, random_state
        # what does not depend on the representatives is shared between the problems of one fit
        self._shared = {} if shared is None else shared
        self.network_built = None  # the pgmpy network once an engine has built it (network())
        self.on_network = bool(on_network)
        if log_coupling is not None:
            log_coupling = np.asarray(log_coupling, dtype=np.float64)
            if log_coupling.shape != (m,):
                raise ValueError(f"log_coupling must have shape ({m},), got {log_coupling.shape}")
            self._shared["log_coupling"] = log_coupling
        if log_tables is not None:
            log_tables = np.asarray(log_tables, dtype=np.float64)
            if log_tables.shape != (m, self.k, self.k):
                raise ValueError(f"log_tables must have shape ({m}, {self.k}, {self.k}), got {log_tables.shape}")
            self._shared["log_tables"] = log_tables

    @property
    def is_potts(self) -> bool:
        """True when the pairwise factors are Potts-shaped (couplings available)."""
        if "log_coupling" in self._shared:
            return True
        if self.potentials is not None:
            return bool(getattr(self.potentials, "potts", True))
        return False

    # -- potentials, on demand -------------------------------------------------------------
    def coupling(self) -> np.ndarray:
        """(m,) Potts log couplings log w_ij; ValueError when the factors are not Potts-shaped."""
        if "log_coupling" not in self._shared:
            if not self.is_potts:
                raise ValueError("this engine needs Potts-shaped pairwise potentials; use engine='loopy'")
            self._shared["log_coupling"] = np.asarray(
                self.potentials.log_coupling(self.X, self.u, self.v), dtype=np.float64
            )
        return self._shared["log_coupling"]

    def tables(self) -> np.ndarray:
        """(m, k, k) pairwise log tables, x_i on axis 1 (built from the couplings if need be)."""
        key = ("log_tables", self.k)
        if "log_tables" in self._shared:
            return self._shared["log_tables"]
        if key not in self._shared:
            if self.potentials is not None:
                t = self.potentials.log_pairwise_table(self.X, self.u, self.v, self.k)
            elif "log_coupling" not in self._shared:
                raise ValueError(
                    "this problem has no pairwise potentials (give log_coupling=, log_tables= or potentials=)"
                )
            else:
                log_w = self._shared["log_coupling"]
                t = np.empty((log_w.size, self.k, self.k))
                t[...] = log_w[:, None, None]
                t[:, np.arange(self.k), np.arange(self.k)] = 0.0
            self._shared[key] = np.asarray(t, dtype=np.float64)
        return self._shared[key]

    def pairwise_kwargs(self) -> dict:
        """The pairwise potentials as the array kernels take them: ``{"log_coupling": (m,)}`` when
        they are Potts-shaped, else ``{"log_tables": (m, k, k)}``."""
        return {"log_coupling": self.coupling()} if self.is_potts else {"log_tables": self.tables()}

    def network(self):
        """The pgmpy ``DiscreteMarkovNetwork`` (variables ``s0`` .. ``s{n-1}``), built once.

        Problems made with one ``shared`` dict (the rounds of one fit: the same edges and pairwise potentials)
        share one network per number of states: a later problem gives it its own unary factors and keeps the
        pairwise ones, so the network an earlier problem returned then holds the later unaries.
        """
        if self.network_built is None:
            from ..graph import network_from_log_potentials, replace_unary_factors

            key = ("network", self.k)
            model = self._shared.get(key)
            if model is None:
                model = network_from_log_potentials(self.log_unary, self.edges, self.tables())
                self._shared[key] = model
            else:
                replace_unary_factors(model, self.log_unary)
            self.network_built = model
        return self.network_built

    def log_score(self, labels) -> np.ndarray:
        """log p~(labels) = sum_i log psi_i(x_i) + sum_ij log psi_ij(x_i, x_j) for (s, n) labellings."""
        x = np.atleast_2d(np.asarray(labels, dtype=np.int64))
        score = self.log_unary[np.arange(self.n), x].sum(axis=1)
        if len(self.edges):
            xu, xv = x[:, self.u], x[:, self.v]
            if self.is_potts:
                score = score + np.where(xu != xv, self.coupling(), 0.0).sum(axis=1)
            else:
                score = score + self.tables()[np.arange(len(self.edges)), xu, xv].sum(axis=1)
        return score

    def __repr__(self) -> str:
        kind = "Potts" if self.is_potts else "tables"
        return f"Problem(n={self.n}, k={self.k}, edges={len(self.edges)}, {kind})"
