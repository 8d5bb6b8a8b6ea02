"""Loopy belief propagation for any pairwise pgmpy ``DiscreteMarkovNetwork``.

pgmpy 1.1.2 has exact ``BeliefPropagation`` (junction tree) and tree-only message passing, but no loopy BP. This
engine lives inside pgmpy's ``Inference`` API: it reads the model's ``DiscreteFactor``s, stacks the pairwise
tables, and runs flooding sum-product in log space (:mod:`bpseg_pgm.inference.kernels.tables`). What it compiled
the model to is public and read-only, as is the Bethe estimate at a run's messages: the ``"loopy"`` engine reads
these, never the private state.
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.utils.pgmpy_loader import DiscreteFactor, Inference

from .bethe import bethe_log_partition
from .flooding import BPResult
from .layouts import EdgeLayout
from .tables import table_bp


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


class LoopyBeliefPropagation(Inference):
    """Sum-product loopy BP (flooding schedule, log-space messages) on a pairwise Markov network.

    Parameters: ``max_iter`` sweeps at most, stop when the largest change of a normalised
    log message is below ``tol``; ``damping`` in [0, 1) mixes each new log message with the
    previous one. After a query, ``n_iter_``, ``converged_`` and ``deltas_`` tell how it went.
    """

    def __init__(self, model, max_iter: int = 100, tol: float = 1e-6, damping: float = 0.0):
        super().__init__(model)
        if not (isinstance(max_iter, (int, np.integer)) and max_iter >= 1):
            raise ValueError(f"max_iter must be an integer >= 1, got {max_iter!r}")
        if not (0.0 <= float(damping) < 1.0):
            raise ValueError(f"damping must be in [0, 1), got {damping!r}")
        if not float(tol) >= 0:
            raise ValueError(f"tol must be >= 0 (0: every sweep runs), got {tol!r}")
        self.max_iter = int(max_iter)
        self.tol = float(tol)
        self.damping = float(damping)
        self.cardinality = self.model.get_cardinality()
        # what the network's builder divided its factors by to store them (graph.build: 0.0 unless they were huge)
        self._log_offset = float(getattr(self.model, "log_offset", 0.0) or 0.0)
        self._compile()
        self.n_iter_ = None
        self.converged_ = None
        self.deltas_ = None
        self._cache = None

    # -- model -> arrays -------------------------------------------------------------------
    def _compile(self):
        """Stack the model's factors into (n, K) log unaries and (m, K, K) log tables."""
        self._vars = list(self.model.nodes())
        index = {v: i for i, v in enumerate(self._vars)}
        card = np.array([self.cardinality[v] for v in self._vars], dtype=np.int64)
        n, K = len(self._vars), int(card.max())
        self._card = card
        valid = np.arange(K)[None, :] < card[:, None]
        self._valid = None if np.all(valid) else valid
        log_unary = np.where(valid, 0.0, -np.inf)
        factors = self.model.get_factors()
        for factor in factors:
            if len(factor.variables) > 2:
                raise ValueError(
                    f"LoopyBeliefPropagation handles pairwise networks only; factor over "
                    f"{len(factor.variables)} variables {factor.variables} found"
                )
        if self._valid is None:
            self._stack_uniform(factors, index, n, K, log_unary)
            return
        pair_index: dict[tuple[int, int], int] = {}
        tables: list[np.ndarray] = []
        with np.errstate(divide="ignore"):
            for factor in factors:
                scope = factor.scope()
                if len(scope) == 1:
                    i = index[scope[0]]
                    log_unary[i, : card[i]] += np.log(np.asarray(factor.values, dtype=np.float64))
                elif len(scope) == 2:
                    a, b = index[scope[0]], index[scope[1]]
                    vals = np.log(np.asarray(factor.values, dtype=np.float64))
                    if a > b:
                        a, b, vals = b, a, vals.T
                    key = (a, b)
                    if key not in pair_index:
                        t = np.full((K, K), -np.inf)
                        t[: card[a], : card[b]] = 0.0
                        pair_index[key] = len(tables)
                        tables.append(t)
                    tables[pair_index[key]][: card[a], : card[b]] += vals
        # graph edges that carry no factor still connect nothing: only factors matter.
        self._log_unary = log_unary
        if tables:
            pairs = np.array(list(pair_index.keys()), dtype=np.int64)
            self._u, self._v = pairs[:, 0], pairs[:, 1]
            self._log_tables = np.stack(tables)
        else:
            self._u = self._v = np.zeros(0, dtype=np.int64)
            self._log_tables = np.zeros((0, K, K))

    def _stack_uniform(self, factors, index, n: int, K: int, log_unary: np.ndarray) -> None:
        """All variables have K states: stack every factor's table at once (no per-factor NumPy)."""
        u_idx, u_vals, a_idx, b_idx, p_vals = [], [], [], [], []
        for factor in factors:
            vs = factor.variables
            if len(vs) == 2:
                a_idx.append(index[vs[0]])
                b_idx.append(index[vs[1]])
                p_vals.append(factor.values)
            elif len(vs) == 1:
                u_idx.append(index[vs[0]])
                u_vals.append(factor.values)
        with np.errstate(divide="ignore"):
            if u_idx:
                np.add.at(log_unary, np.array(u_idx), np.log(np.asarray(u_vals, dtype=np.float64)))
            if not a_idx:
                self._log_unary = log_unary
                self._u = self._v = np.zeros(0, dtype=np.int64)
                self._log_tables = np.zeros((0, K, K))
                return
            tables = np.log(np.asarray(p_vals, dtype=np.float64))
        a, b = np.array(a_idx), np.array(b_idx)
        swap = a > b  # orient every table as (x_lo, x_hi)
        tables[swap] = tables[swap].transpose(0, 2, 1)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        keys, first, inverse = np.unique(lo * n + hi, return_index=True, return_inverse=True)
        if keys.size == lo.size:  # one factor per pair: just sort
            order = np.argsort(lo * n + hi, kind="stable")
            self._log_tables = tables[order]
        else:  # several factors on one pair multiply: add their logs
            self._log_tables = np.zeros((keys.size, K, K))
            np.add.at(self._log_tables, inverse.ravel(), tables)
        self._u, self._v = lo[first], hi[first]
        self._log_unary = log_unary

    # -- what the model compiled to (read-only) ---------------------------------------------
    @property
    def variable_order(self) -> tuple:
        """The model's variables in the order of the rows of :attr:`log_unary` and of the beliefs
        (pgmpy's own ``variables`` is the model's node view)."""
        return tuple(self._vars)

    @property
    def padded(self) -> bool:
        """True when the variables have different numbers of states (rows padded to the largest)."""
        return self._valid is not None

    @property
    def log_unary(self) -> np.ndarray:
        """(n, K) log unary potentials (product of each variable's single-variable factors)."""
        return _read_only(self._log_unary)

    @property
    def edges(self) -> np.ndarray:
        """(m, 2) variable index pairs (i, j), i < j, that carry a pairwise factor."""
        return _read_only(np.stack([self._u, self._v], axis=1))

    @property
    def log_tables(self) -> np.ndarray:
        """(m, K, K) pairwise log tables, x_i on axis 1 for the pair (i, j) of :attr:`edges`."""
        return _read_only(self._log_tables)

    def bethe_log_partition(self, result: BPResult) -> float:
        """The Bethe estimate of log Z at the messages of ``result`` (from :meth:`run`, no evidence), with the
        model's ``log_offset`` added back when it has one (the log of what its builder divided the factors by).

        Defined for unpadded models only (all variables with the same number of states)."""
        if self.padded:
            raise ValueError("the Bethe estimate needs every variable to have the same number of states")
        m = self._u.size
        layout = EdgeLayout(len(self._vars), self._u, self._v)
        log_b = self._log_unary + layout.incoming(result.log_messages)
        return (
            bethe_log_partition(
                self._log_unary,
                self._u,
                self._v,
                log_b,
                result.log_messages,
                np.arange(m),
                np.arange(m) + m,
                log_tables=self._log_tables,
            )
            + self._log_offset
        )

    # -- running ---------------------------------------------------------------------------
    def _run(self, evidence=None, callback=None) -> BPResult:
        key = tuple(sorted((evidence or {}).items()))
        if self._cache is not None and self._cache[0] == key and callback is None:
            return self._cache[1]
        log_unary = self._log_unary.copy()
        for var, state in (evidence or {}).items():
            if var not in self.cardinality:
                raise ValueError(f"evidence variable {var!r} is not in the model")
            i = self._vars.index(var)
            s = self._state_index(var, state)
            keep = log_unary[i, s]
            log_unary[i, :] = -np.inf
            log_unary[i, s] = keep
        result = self._solve(log_unary, callback)
        self.n_iter_, self.converged_, self.deltas_ = result.n_iter, result.converged, result.deltas
        self._cache = (key, result)
        return result

    def _solve(self, log_unary: np.ndarray, callback) -> BPResult:
        """One BP run on the compiled tables with these log unaries (evidence applied)."""
        return table_bp(
            log_unary,
            self._u,
            self._v,
            self._log_tables,
            valid=self._valid,
            max_iter=self.max_iter,
            tol=self.tol,
            damping=self.damping,
            callback=callback,
        )

    def _state_index(self, var, state) -> int:
        names = self.model.get_factors(var)[0].state_names.get(var) if self.model.get_factors(var) else None
        if names is not None and state in names:
            return names.index(state)
        if isinstance(state, (int, np.integer)) and 0 <= state < self.cardinality[var]:
            return int(state)
        raise ValueError(f"state {state!r} is not a state of {var!r}")

    def run(self, callback=None) -> BPResult:
        """Run BP without evidence and return the raw arrays (beliefs, messages, convergence)."""
        return self._run(None, callback=callback)

    def _marginal(self, var, beliefs) -> DiscreteFactor:
        i = self._vars.index(var)
        c = int(self._card[i])
        factors = self.model.get_factors(var)
        state_names = {}
        if factors and var in factors[0].state_names:
            state_names = {var: factors[0].state_names[var]}
        return DiscreteFactor([var], [c], beliefs[i, :c], state_names=state_names)

    def query(self, variables, evidence=None, joint=False, show_progress=False):
        """Approximate marginals ``{variable: DiscreteFactor}`` (pgmpy's ``query`` shape).

        Loopy BP gives single-variable marginals only: ``joint=True`` is accepted for one
        variable (returns its factor) and refused for more.
        """
        variables = [variables] if isinstance(variables, str) else list(variables)
        unknown = [v for v in variables if v not in self.cardinality]
        if unknown:
            raise ValueError(f"variables not in the model: {unknown}")
        if evidence and set(variables) & set(evidence):
            raise ValueError("a query variable cannot also be evidence")
        beliefs = self._run(evidence).beliefs
        if joint:
            if len(variables) != 1:
                raise ValueError("loopy BP computes single-variable marginals; query with joint=False")
            return self._marginal(variables[0], beliefs)
        return {v: self._marginal(v, beliefs) for v in variables}

    def map_query(self, variables=None, evidence=None, show_progress=False):
        """Arg-max of each variable's approximate marginal: ``{variable: state}``."""
        variables = [v for v in self._vars if v not in (evidence or {})] if variables is None else variables
        marginals = self.query(variables, evidence=evidence)
        out = {}
        for v, f in marginals.items():
            s = int(np.argmax(f.values))
            out[v] = f.state_names[v][s] if v in f.state_names else s
        return out
