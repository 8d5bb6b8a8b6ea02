"""``BPSeg``: the scikit-learn-style estimator over an (n, d) embedding matrix.

A thin wrapper: choose representatives, hand the potentials and edge set to an inference
engine, take the arg-max of the beliefs. Engines:

* ``"potts"``: the Potts kernel, O(|E| k) per sweep, no factor objects (long documents);
* ``"loopy"``: a pgmpy ``DiscreteMarkovNetwork`` + :class:`LoopyBeliefPropagation`;
* ``"fast"``: the appendix's Fast BP-Seg (Algorithm 2), additive messages, ``max_iter`` = T;
* ``"exact"``: pgmpy's junction-tree ``BeliefPropagation`` (tiny inputs only);
* ``"reference"``: the hand-written solver (tiny inputs only; it checks the others).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin

from ._validation import check_embeddings, check_nonnegative, check_representatives, check_sigma, normalize_rows
from .graph import build_markov_network, resolve_edges, variable_name
from .inference.exact import MAX_CLIQUE_ENTRIES, exact_marginals
from .inference.fast import fast_bp_seg
from .inference.loopy import LoopyBeliefPropagation
from .inference.potts import potts_bp
from .inference.reference import reference_bp, reference_potentials
from .potentials import PaperPotentials, Potentials
from .representatives import INITS, choose_representatives

ENGINES = ("potts", "loopy", "fast", "exact", "reference")
_DEFAULT_ITER = {"fast": 5}


class BPSeg(ClusterMixin, BaseEstimator):
    """BP-Seg text segmentation over sentence embeddings.

    Parameters
    ----------
    n_segments : int, the number of labels k (ignored with ``init="all"``, where k = n).
    lam : float >= 0, strength of the pairwise term (paper: 0.12; appendix Choi: 300).
    sigma : None or float > 0, distance decay exp(-|i-j|^2 / sigma) of the pairwise term.
    engine : one of "potts", "loopy", "fast", "exact", "reference".
    init : "random", "farthest", "all", or an array of k distinct sentence indices.
    potentials : a :class:`~bpseg_pgm.potentials.Potentials`; default the paper's with
        ``lam`` and ``sigma``. Not used by the "fast" engine, which has its own.
    neighbors : None (all pairs, the paper), (i, j) pairs, or a callable(X) -> pairs.
    max_iter : sweeps at most (default 100; for "fast" it is T, default 5).
    tol : stop when no normalised log message changes by more than this.
    damping : in [0, 1), geometric damping of messages.
    random_state : seed for ``init="random"``.
    em_rounds : int >= 0 (engine "potts"): representative re-estimation. After BP, each
        label's representative becomes the belief-weighted mean of the embeddings, labels
        holding less than half a sentence of belief are dropped, and BP runs again.
        ``representatives_`` keeps the initial sentence indices; ``centers_`` the final vectors.

    ``n_segments="auto"`` starts from k = min(n, ceil(2 sqrt(n))) farthest-spread labels and
    lets segments empty out (best with ``em_rounds`` > 0).

    Fitted attributes: ``labels_`` (n,), ``beliefs_`` (n, k) rows summing to 1,
    ``representatives_`` (k,) sentence indices, ``n_iter_``, ``converged_``, ``model_`` (the
    pgmpy network for "loopy"/"exact", else None), ``deltas_`` (message change per sweep).
    """

    def __init__(
        self,
        n_segments=5,
        lam=0.12,
        sigma=None,
        engine="potts",
        init="random",
        potentials=None,
        neighbors=None,
        max_iter=None,
        tol=1e-6,
        damping=0.0,
        random_state=None,
        em_rounds=0,
    ):
        self.n_segments = n_segments
        self.lam = lam
        self.sigma = sigma
        self.engine = engine
        self.init = init
        self.potentials = potentials
        self.neighbors = neighbors
        self.max_iter = max_iter
        self.tol = tol
        self.damping = damping
        self.random_state = random_state
        self.em_rounds = em_rounds

    # -- checks ----------------------------------------------------------------------------
    def _check_params(self, n: int):
        if self.engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {self.engine!r}")
        lam = check_nonnegative(self.lam, "lam")
        sigma = check_sigma(self.sigma)
        max_iter = _DEFAULT_ITER.get(self.engine, 100) if self.max_iter is None else self.max_iter
        if not isinstance(max_iter, (int, np.integer)) or isinstance(max_iter, bool) or max_iter < 1:
            raise ValueError(f"max_iter must be an integer >= 1, got {self.max_iter!r}")
        tol = float(self.tol)
        if not tol > 0:
            raise ValueError(f"tol must be > 0, got {self.tol!r}")
        damping = float(self.damping)
        if not 0.0 <= damping < 1.0:
            raise ValueError(f"damping must be in [0, 1), got {self.damping!r}")
        if self.potentials is not None and not isinstance(self.potentials, Potentials):
            raise ValueError("potentials must be a bpseg_pgm.potentials.Potentials instance")
        if self.potentials is not None and self.engine == "fast":
            raise ValueError("engine='fast' is Algorithm 2 with its own potentials; drop potentials=")
        em = self.em_rounds
        if isinstance(em, bool) or not isinstance(em, (int, np.integer)) or em < 0:
            raise ValueError(f"em_rounds must be an integer >= 0, got {em!r}")
        if em and self.engine != "potts":
            raise ValueError("em_rounds > 0 is supported by engine='potts' only")
        return lam, sigma, int(max_iter), tol, damping

    def _representatives(self, Xn: np.ndarray) -> np.ndarray:
        n = Xn.shape[0]
        if isinstance(self.init, str):
            if self.init not in INITS:
                raise ValueError(f"init must be one of {INITS} or an array of indices, got {self.init!r}")
            k = self.n_segments
            if isinstance(k, str) and k == "auto":
                k = min(n, int(np.ceil(2 * np.sqrt(n))))
                return choose_representatives(Xn, k, "farthest" if self.init != "all" else "all", self.random_state)
            if self.init != "all":
                if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
                    raise ValueError(f"n_segments must be an integer, got {k!r}")
                if not 1 <= k <= n:
                    raise ValueError(f"n_segments must be between 1 and the number of sentences ({n}), got {k}")
            return choose_representatives(Xn, k, self.init, self.random_state)
        return check_representatives(self.init, n)

    # -- fitting ---------------------------------------------------------------------------
    def fit(self, X, y=None, callback=None):
        """Segment the sentences whose embeddings are the rows of X; returns self.

        ``callback(t, beliefs)`` (iterative engines) is called after every sweep.
        """
        Xn = normalize_rows(check_embeddings(X))
        lam, sigma, max_iter, tol, damping = self._check_params(Xn.shape[0])
        reps = self._representatives(Xn)
        pot = self.potentials if self.potentials is not None else PaperPotentials(lam=lam, sigma=sigma)
        C = Xn[reps]
        self.model_ = None
        self.deltas_ = []
        engine = self.engine

        if engine == "potts":
            if not getattr(pot, "potts", True):
                raise ValueError("engine='potts' needs Potts-shaped pairwise potentials; use engine='loopy'")
            edges = resolve_edges(Xn, self.neighbors)
            u, v = edges[:, 0], edges[:, 1]
            log_w = pot.log_coupling(Xn, u, v)
            for r in range(self.em_rounds + 1):
                if r:  # re-estimate representatives from the beliefs, drop emptied labels
                    mass = res.beliefs.sum(axis=0)
                    M = res.beliefs.T @ Xn
                    keep = (mass >= 0.5) & (np.linalg.norm(M, axis=1) > 1e-12)
                    if not keep.any():
                        break
                    C = normalize_rows(M[keep])
                res = potts_bp(
                    pot.log_unary(Xn, C), u, v, log_w,
                    max_iter=max_iter, tol=tol, damping=damping, callback=callback,
                )  # fmt: skip
                self.deltas_ += res.deltas
            beliefs, n_iter, converged = res.beliefs, len(self.deltas_), res.converged
        elif engine == "loopy":
            self.model_ = build_markov_network(Xn, reps, pot, self.neighbors)
            self.inference_ = LoopyBeliefPropagation(self.model_, max_iter=max_iter, tol=tol, damping=damping)
            res = self.inference_.run(callback=callback)
            order = [self.inference_._vars.index(variable_name(i)) for i in range(Xn.shape[0])]
            beliefs, n_iter, converged, self.deltas_ = res.beliefs[order], res.n_iter, res.converged, res.deltas
        elif engine == "exact":
            n, k = Xn.shape[0], reps.size
            if self.neighbors is None and float(k) ** n > MAX_CLIQUE_ENTRIES:
                raise ValueError(
                    f"exact inference on the fully connected graph needs a clique table of k^n = "
                    f"{k}^{n} = {float(k) ** n:.3g} entries (limit {MAX_CLIQUE_ENTRIES:.3g}); "
                    "use engine='loopy' or 'potts'"
                )
            self.model_ = build_markov_network(Xn, reps, pot, self.neighbors)
            marg = exact_marginals(self.model_)
            order = [list(self.model_.nodes()).index(variable_name(i)) for i in range(n)]
            beliefs, n_iter, converged = marg[order], 1, True
        elif engine == "fast":
            _, beliefs = fast_bp_seg(Xn, C, lam=lam, sigma=sigma, n_iter=max_iter)
            n_iter, converged = max_iter, True
        else:  # reference
            beliefs, n_iter, converged = self._fit_reference(Xn, reps, pot, lam, sigma, max_iter, tol, damping)

        self.representatives_ = reps
        self.centers_ = C
        self.beliefs_ = np.asarray(beliefs, dtype=np.float64)
        self.labels_ = np.argmax(self.beliefs_, axis=1)
        self.n_iter_ = int(n_iter)
        self.converged_ = bool(converged)
        self.n_segments_ = int(reps.size)
        return self

    def _fit_reference(self, Xn, reps, pot, lam, sigma, max_iter, tol, damping):
        edges = resolve_edges(Xn, self.neighbors)
        if self.potentials is None:
            unary, pairwise = reference_potentials(Xn.tolist(), reps.tolist(), lam=lam, sigma=sigma)
        else:
            k = reps.size
            unary = np.exp(pot.log_unary(Xn, Xn[reps])).tolist()
            tables = np.exp(pot.log_pairwise_table(Xn, edges[:, 0], edges[:, 1], k))
            lookup = {(int(i), int(j)): t for (i, j), t in zip(edges, tables)}

            def pairwise(i, j, xi, xj):
                return float(lookup[(i, j)][xi, xj]) if i < j else float(lookup[(j, i)][xj, xi])

        beliefs, _, n_iter, converged = reference_bp(
            unary, pairwise, [tuple(map(int, e)) for e in edges], max_iter=max_iter, tol=tol, damping=damping
        )
        return np.array(beliefs), n_iter, converged

    def fit_predict(self, X, y=None, **kwargs):
        """Fit and return ``labels_``."""
        return self.fit(X, **kwargs).labels_
