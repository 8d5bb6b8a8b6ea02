"""``BPSeg``: the scikit-learn-style estimator over an (n, d) embedding matrix.

Parameters, checks and the fit loop only: choose representatives, describe the model as a
:class:`~bpseg_pgm.inference.problem.Problem` (log unaries, edges, potentials), hand it to an
inference :class:`~bpseg_pgm.inference.engine.Engine` (a registered name or an instance; see
:mod:`bpseg_pgm.inference.engines`), re-estimate the representatives from the beliefs, and
take the arg-max.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin

from ._memory import check_fit_memory
from bpseg_pgm.utils.validation import (
    check_damping,
    check_embeddings,
    check_nonnegative,
    check_representatives,
    check_random_state,
    check_sample_weight,
    check_sigma,
    check_tol,
    normalize_rows,
)
from .graph import auto_pairs, resolve_edges
from .inference.engine import Engine, EngineResult
from .inference.engines import BUILTIN_ENGINES, engine_names, make_engine
from .inference.problem import Problem
from .potentials import CenteredPottsPotentials, PaperPotentials, Potentials, adaptive_context, context_embeddings
from .reestimate import reestimate_centers
from .representatives import INITS, choose_representatives

#: The built-in engine names (``engine_names()`` adds any registered since).
ENGINES = BUILTIN_ENGINES

#: Named pairwise models; ``potentials=`` takes one of these names or a Potentials object.
POTENTIALS = {"centered": CenteredPottsPotentials, "paper": PaperPotentials}

#: What ``lam=None``, ``sigma="auto"`` and ``em_rounds=None`` mean for each model. The
#: centred model's values were chosen on Choi set 1 and set-1 interleaved documents only
#: (benchmarks/tune_defaults.py); the paper's are eq. (2) with lam = 0.12 (section 4.1);
#: "fast" is the appendix's Choi setting for Algorithm 2.
_MODEL_DEFAULTS = {
    "centered": {"lam": 150.0, "sigma": 200.0, "em_rounds": 5, "context": 0.2},
    "paper": {"lam": 0.12, "sigma": None, "em_rounds": 0, "context": 0.0},
    "fast": {"lam": 300.0, "sigma": 10.0, "em_rounds": 0, "context": 0.0},
    "custom": {"lam": 0.0, "sigma": None, "em_rounds": 0, "context": 0.0},
}

#: Sweeps per re-estimation round before the last. Set 1 (Choi / interleaved): 10 -> 0.870 / 0.830,
#: 15 -> 0.869 / 0.834, 30 -> 0.868 / 0.834; 15 is 1.4-1.6x faster than 30 on 1200-5000 sentences.
EM_ROUND_SWEEPS = 15

#: ``n_segments="auto"`` starts from min(n, ceil(2 sqrt(n)), AUTO_MAX_SEGMENTS) labels.
AUTO_MAX_SEGMENTS = 40


class BPSeg(ClusterMixin, BaseEstimator):
    """BP-Seg text segmentation over sentence embeddings.

    Parameters
    ----------
    n_segments : int, or "auto" (default): start from min(n, ceil(2 sqrt(n)), 40)
        labels (chosen by ``init``) and let segments empty out during re-estimation. Ignored with
        ``init="all"`` (k = n). The number actually used is ``n_segments_``.
    potentials : "centered" (default), "paper" (eq. 1-2), or a
        :class:`~bpseg_pgm.potentials.Potentials` object of your own.
    lam : float >= 0, strength of the pairwise term; None (default) takes the model's own:
        centered 150, paper 0.12 (section 4.1), fast 300 (appendix).
    sigma : None (no decay) or float > 0, distance decay exp(-|i-j|^2 / sigma) of the pairwise
        term; "auto" (default) takes the model's own: centered 200, paper None, fast 10.
    engine : a name, "potts" (default), "loopy", "fast", "exact", "reference", "max-product",
        "mean-field", "gibbs", "mplp" or any registered with
        :func:`~bpseg_pgm.inference.register_engine`; or an
        :class:`~bpseg_pgm.inference.Engine` instance (its own parameters, e.g.
        ``GibbsEngine(n_samples=2000)``). See :mod:`bpseg_pgm.inference.engines`.
    init : "farthest" (default), "random" (the paper), "all", or k distinct sentence indices.
    neighbors : "auto" (default: all pairs up to 400 sentences, then a decay-wide window
        plus 10 nearest neighbours), "all"/None (the paper's complete graph), (i, j) pairs,
        or a callable(X) -> pairs. The edge set used is ``edges_``.
    max_iter : sweeps at most per BP run (default 100; for "fast" it is T, default 5).
    tol : stop when no normalised log message changes by more than this.
    damping : in [0, 1), geometric damping of messages, for an engine given by name (an
        engine object carries its own).
    random_state : seed for ``init="random"``.
    em_rounds : int >= 0, or None (default: 5 for "centered", 0 otherwise). Representative
        re-estimation: after BP each label's representative becomes the belief-weighted mean
        of the embeddings, labels holding less than half a sentence of belief are dropped, and
        BP runs again. Not for engine "fast" (Algorithm 2 as written).
    context : float >= 0, or "auto" (default). Reading-order context: the potentials see
        normalise(R_i + context (R_{i-1} + R_{i+1})) in place of each sentence's embedding R_i
        (:mod:`bpseg_pgm.potentials.context`); 0 is the paper's model, each sentence alone.
        "auto": 0 except for "centered", where it is 0.2 scaled by how much more similar
        adjacent sentences are than average pairs (0 for a prompt whose topics alternate
        sentence by sentence, 0.2 for a document whose topics persist). The value used is
        ``context_``.
    merge_above : float in [-1, 1] or None (default 0.9). During re-estimation, labels whose
        representatives have at least this cosine similarity are merged into one (None: never).
        Without it a long topic can stay cut into several labels (measured: 29-34 segments for
        4 synthetic topics at n = 1000, against 4 with it).
    contiguous : "auto" (default), True or False. True: every segment is one run of consecutive
        sentences (:mod:`bpseg_pgm.contiguous`): exact segmental programme on reading-order-smoothed
        embeddings, k given or chosen against the shuffled document, exact chain marginals as
        beliefs (forward-backward: BP on a tree). The potentials, engine, init, lam, sigma,
        context and EM parameters do not apply; ``log_partition_`` is the chain's exact log Z.
        False: the topic model (segments may return), whatever the document. "auto": decided per
        document (:func:`bpseg_pgm.contiguous.choose_structure`): text whose topics shift
        gradually (meetings, lectures: reading-order runs that differ from their neighbours by a
        per-unit effect below 0.5) is segmented into runs, about one per three correlation
        lengths when k is "auto" (one per correlation length as the effect nears 0.5); text with abrupt shifts, or whose topics alternate sentence by
        sentence, gets the topic model. Only with the centred potentials (the default): for the
        paper's potentials, a user's, engine "fast" or an Engine object, or init "all", "auto"
        means False. ``structure_`` says
        which was used ("runs" or "topics"), ``structure_effect_`` the measured median effect.

    Fitted attributes: ``labels_`` (n,) indices into ``centers_``, ``beliefs_`` (n, k) rows
    summing to 1, ``representatives_`` (initial sentence indices), ``centers_`` (final
    representative vectors), ``structure_`` ("runs" or "topics"), ``n_segments_``, ``n_iter_`` (sweeps, all rounds), ``converged_``
    (last round), ``edges_``, ``deltas_`` (message change per sweep), ``model_`` (the pgmpy
    network, when the engine built one), ``engine_`` (the Engine object used),
    ``log_partition_`` (the engine's estimate of log Z for the last round's model: the Bethe
    free energy's -F for "potts"/"loopy", exact on a tree such as chain ``neighbors`` and an
    approximation on graphs with cycles; exact for "exact"; the ELBO, a lower bound, for
    "mean-field"; None for engines with none), and the values actually used: ``lam_``,
    ``sigma_``, ``em_rounds_``, ``context_``, ``potentials_`` (None for "fast"). ``centers_`` live
    in the space the potentials saw (after context mixing).
    """

    def __init__(
        self,
        n_segments="auto",
        lam=None,
        sigma="auto",
        engine="potts",
        init="farthest",
        potentials="centered",
        neighbors="auto",
        max_iter=None,
        tol=1e-6,
        damping=0.0,
        random_state=None,
        em_rounds=None,
        context="auto",
        merge_above=0.9,
        contiguous="auto",
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
        self.context = context
        self.merge_above = merge_above
        self.contiguous = contiguous

    # -- checks ----------------------------------------------------------------------------
    def _check_params(self, n: int):
        engine = make_engine(self.engine, check_damping(self.damping))
        model = self._model_name(engine)
        lam = _MODEL_DEFAULTS[model]["lam"] if self.lam is None else check_nonnegative(self.lam, "lam")
        sigma = _MODEL_DEFAULTS[model]["sigma"] if isinstance(self.sigma, str) and self.sigma == "auto" else self.sigma
        sigma = check_sigma(sigma)
        max_iter = engine.default_max_iter if self.max_iter is None else self.max_iter
        if not isinstance(max_iter, (int, np.integer)) or isinstance(max_iter, bool) or max_iter < 1:
            raise ValueError(f"max_iter must be an integer >= 1, got {self.max_iter!r}")
        tol = check_tol(self.tol)
        check_random_state(self.random_state)
        em = self.em_rounds
        if em is not None and (isinstance(em, bool) or not isinstance(em, (int, np.integer)) or em < 0):
            raise ValueError(f"em_rounds must be None or an integer >= 0, got {em!r}")
        if em and not engine.supports_em:
            raise ValueError(f"engine={self._engine_label(engine)!r} is Algorithm 2 as written; it has no em_rounds")
        return engine, lam, sigma, int(max_iter), tol

    @staticmethod
    def _engine_label(engine: Engine) -> str:
        return engine.name or type(engine).__name__

    def _model_name(self, engine: Engine | None = None) -> str:
        """Which default set applies: 'fast' (Algorithm 2), a named potential, or 'custom'."""
        engine = make_engine(self.engine) if engine is None else engine
        if not engine.uses_potentials:
            if self.potentials is not None and not isinstance(self.potentials, str):
                raise ValueError(
                    f"engine={self._engine_label(engine)!r} is Algorithm 2 with its own potentials; "
                    "leave potentials at its default"
                )
            return "fast"
        if isinstance(self.potentials, Potentials):
            return "custom"
        name = "paper" if self.potentials is None else self.potentials
        if name not in POTENTIALS:
            raise ValueError(
                f"potentials must be one of {tuple(POTENTIALS)} or a bpseg_pgm.potentials.Potentials, got {name!r}"
            )
        return name

    def _potentials(self, lam, sigma, engine) -> Potentials | None:
        model = self._model_name(engine)
        if model == "fast":
            return None
        if model == "custom":
            return self.potentials
        return POTENTIALS[model](lam=lam, sigma=sigma)

    def _em_rounds(self, engine) -> int:
        return _MODEL_DEFAULTS[self._model_name(engine)]["em_rounds"] if self.em_rounds is None else int(self.em_rounds)

    def _context(self, Xn: np.ndarray, engine) -> float:
        if isinstance(self.context, str) and self.context == "auto":
            return adaptive_context(Xn, _MODEL_DEFAULTS[self._model_name(engine)]["context"])
        return check_nonnegative(self.context, "context")

    def _merge_above(self) -> float | None:
        m = self.merge_above
        if m is None:
            return None
        if isinstance(m, bool) or not isinstance(m, (int, float, np.integer, np.floating)) or not -1.0 <= m <= 1.0:
            raise ValueError(f"merge_above must be None or a number in [-1, 1], got {m!r}")
        return float(m)

    def _representatives(self, Xn: np.ndarray) -> np.ndarray:
        n = Xn.shape[0]
        if isinstance(self.init, str):
            if self.init not in INITS:
                raise ValueError(f"init must be one of {INITS} or an array of indices, got {self.init!r}")
            k = self.n_segments
            if isinstance(k, str) and k == "auto":
                k = min(n, AUTO_MAX_SEGMENTS, int(np.ceil(2 * np.sqrt(n))))
            return choose_representatives(Xn, k, self.init, self.random_state)
        return check_representatives(self.init, n)

    # -- fitting ---------------------------------------------------------------------------
    def fit(self, X, y=None, callback=None, sample_weight=None):
        """Segment the sentences whose embeddings are the rows of X; returns self.

        ``callback(t, beliefs)`` (iterative engines) is called after every sweep.
        ``sample_weight`` (n,) >= 0: how much each unit counts (``contiguous=True`` only; the
        text pipeline passes 1 - exp(-words / 5), so "Yeah ." counts less than a full sentence).
        """
        Xn = normalize_rows(check_embeddings(X))
        contiguous = self.contiguous
        auto = isinstance(contiguous, str) and contiguous == "auto"
        if not auto and not isinstance(contiguous, (bool, np.bool_)):  # not 0/1: `1 in (True, False)` holds
            raise ValueError(f"contiguous must be 'auto', True or False, got {contiguous!r}")
        if contiguous is True or contiguous is np.True_:
            return self._fit_contiguous(Xn, sample_weight)
        engine, lam, sigma, max_iter, tol = self._check_params(Xn.shape[0])
        # before any work, for the topic model: "auto" may still choose it
        check_fit_memory(Xn.shape[0], Xn.shape[1], n_segments=self.n_segments, init=self.init,
                         neighbors=self.neighbors, sigma=sigma, engine=engine.name or "custom")
        self.structure_effect_ = float("nan")
        if auto and self._auto_structure():
            from .contiguous import choose_structure

            weights = check_sample_weight(sample_weight, Xn.shape[0])
            self._check_run_count(Xn.shape[0])
            seed = check_random_state(self.random_state)
            found = choose_structure(Xn, weights, self.n_segments, random_state=0 if seed is None else seed)
            self.structure_effect_ = found.effect
            if found.runs:
                return self._fit_contiguous(Xn, sample_weight, fit=found.fit)
        self.structure_ = "topics"
        context = self._context(Xn, engine)
        merge_above = self._merge_above()
        Xn = context_embeddings(Xn, context)
        pot = self._potentials(lam, sigma, engine)
        if isinstance(self.neighbors, str):
            if self.neighbors not in ("auto", "all"):
                raise ValueError(f"neighbors must be 'auto', 'all', None, pairs or a callable, got {self.neighbors!r}")
            edges = auto_pairs(Xn, sigma) if self.neighbors == "auto" else None
        else:
            edges = self.neighbors
        self.edges_ = resolve_edges(Xn, edges)
        em_rounds = self._em_rounds(engine)
        reps = self._representatives(Xn)
        C = Xn[reps]
        self.model_ = None
        self.deltas_ = []
        shared: dict = {}  # what the rounds share: the pairwise couplings do not depend on C
        last: list = []

        def run(C, round_, reps=None):
            # rounds before the last only move the representatives: a few sweeps suffice
            sweeps = max_iter if round_ == em_rounds else min(max_iter, EM_ROUND_SWEEPS)
            problem = Problem(
                pot.log_unary(Xn, C) if pot is not None else Xn @ C.T, self.edges_, potentials=pot, X=Xn, C=C,
                representatives=reps, lam=lam, sigma=sigma, max_iter=sweeps, tol=tol, callback=callback,
                random_state=self.random_state, shared=shared,
            )  # fmt: skip
            last.clear()  # the previous round's messages go before this round allocates its own
            res = engine.infer(problem)
            if not isinstance(res, EngineResult) or res.beliefs.shape != (problem.n, problem.k):
                raise ValueError(
                    f"engine {self._engine_label(engine)!r} must return self.result(beliefs=(n, k) array, ...)"
                )
            self.deltas_ += res.deltas
            if problem.network_built is not None:
                self.model_ = problem.network_built
            if "inference" in res.extra:
                self.inference_ = res.extra["inference"]
            last[:] = [res]
            return res.beliefs, res.n_iter, res.converged

        beliefs, n_iter, converged = run(C, 0, reps)
        for r in range(1, em_rounds + 1):
            # re-estimate the representatives from the beliefs: drop emptied labels, merge duplicates
            C_new = reestimate_centers(beliefs, Xn, merge_above=merge_above)
            if C_new is None:
                break
            if C_new.shape == C.shape and float(np.max(np.abs(C_new - C))) <= tol:
                # the representatives no longer move: further rounds would repeat this one
                # (issue 12, fault 10); finish with the last round's full sweep budget if the
                # capped run before it had not converged
                if not converged and max_iter > EM_ROUND_SWEEPS:
                    beliefs, it, converged = run(C, em_rounds)
                    n_iter += it
                break
            C = C_new
            beliefs, it, converged = run(C, r)
            n_iter += it

        self.engine_ = engine
        log_z = last[0].log_partition
        self.log_partition_ = float(log_z()) if callable(log_z) else log_z
        self.engine_extra_ = last[0].extra
        self.representatives_ = reps
        self.centers_ = C
        self.lam_, self.sigma_, self.em_rounds_, self.potentials_ = lam, sigma, em_rounds, pot
        self.context_ = context
        self.beliefs_ = np.asarray(beliefs, dtype=np.float64)
        self.labels_ = np.argmax(self.beliefs_, axis=1)
        self.n_iter_ = int(n_iter)
        self.converged_ = bool(converged)
        self.n_segments_ = int(C.shape[0])
        return self

    def _auto_structure(self) -> bool:
        """Whether ``contiguous="auto"`` may choose runs: only for the centred model (the default),
        for which it was measured; the paper's potentials, a user's and engine "fast" stay as written."""
        # an engine given as an object (a researcher's own, or one with its own settings) always runs
        return (isinstance(self.potentials, str) and self.potentials == "centered"
                and isinstance(self.engine, str) and self.engine != "fast"
                and not (isinstance(self.init, str) and self.init == "all"))

    def _check_run_count(self, n: int) -> None:
        k = self.n_segments
        if isinstance(k, str) and k == "auto":
            return
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise ValueError(f"n_segments must be an integer or 'auto', got {k!r}")
        if not 1 <= k <= n:
            raise ValueError(f"n_segments must be between 1 and the number of sentences ({n}), got {k}")

    def _fit_contiguous(self, Xn, sample_weight, fit=None):
        from .contiguous import fit_contiguous

        n = Xn.shape[0]
        weights = check_sample_weight(sample_weight, n)
        self._check_run_count(n)
        seed = check_random_state(self.random_state)
        res = fit if fit is not None else fit_contiguous(Xn, weights, self.n_segments,
                                                         random_state=0 if seed is None else seed)
        self.structure_ = "runs"
        if fit is None:
            self.structure_effect_ = float("nan")
        self.labels_ = res.labels
        self.beliefs_ = res.beliefs
        self.centers_ = res.centers
        self.representatives_ = None
        self.n_segments_ = int(res.centers.shape[0])
        self.n_iter_, self.converged_ = 1, True
        self.edges_ = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
        self.deltas_, self.model_, self.potentials_ = [], None, None
        self.lam_ = self.sigma_ = None
        self.em_rounds_, self.context_ = 0, 0.0
        self.smoothing_width_ = res.smoothing_width
        self.log_partition_ = res.log_partition
        return self

    def fit_predict(self, X, y=None, **kwargs):
        """Fit and return ``labels_``."""
        return self.fit(X, **kwargs).labels_
