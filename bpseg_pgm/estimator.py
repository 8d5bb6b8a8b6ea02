"""``BPSeg``: the scikit-learn-style estimator over an (n, d) embedding matrix or :class:`~bpseg_pgm.features.Units`.

A thin facade: :meth:`BPSeg.fit` checks every parameter from one table, hands the document to the decision
layer (:func:`bpseg_pgm.decisions.decide`: runs or topics, how many segments, grouped or not, every tuned
number from a :class:`~bpseg_pgm.policy.Policy`), and sets the fitted attributes of the model it chose:

* the runs model (:mod:`bpseg_pgm.runs`): segments are runs of consecutive sentences;
* the topic model (:mod:`bpseg_pgm.topics`): segments may return; its potentials come from
  :mod:`bpseg_pgm.potentials` (by name through its registry), its beliefs from an inference
  :class:`~bpseg_pgm.inference.engine.Engine` (a registered name or an instance);
* runs grouped into topics (:mod:`bpseg_pgm.runtopics`).
"""

from __future__ import annotations

import sys

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin

from bpseg_pgm.decisions import Features, Outcome, Settings, decide
from bpseg_pgm.features.units import Units
from bpseg_pgm.inference.engine import Engine
from bpseg_pgm.inference.engines import make_engine
from bpseg_pgm.params import INITS, PARAMETERS, STRUCTURES
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.potentials import Potentials
from bpseg_pgm.potentials.registry import CUSTOM_DEFAULTS, lookup
from bpseg_pgm.runs.evidence import check_word_counts
from bpseg_pgm.runtopics.fit import warn_unconverged as warn_grouping_unconverged
from bpseg_pgm.topics.defaults import APPENDIX_DEFAULTS
from bpseg_pgm.topics.fit import engine_label, warn_unconverged as warn_topics_unconverged
from bpseg_pgm.topics.memory import check_fit_memory
from bpseg_pgm.utils.validation import (
    check_damping,
    check_embeddings,
    check_nonnegative,
    check_random_state,
    check_representatives,
    check_sample_weight,
    check_sigma,
    check_n_segments,
    check_tol,
    normalize_rows,
)

__all__ = ["BPSeg", "STRUCTURES"]


def _check_max_iter(value, engine: Engine) -> int:
    max_iter = engine.default_max_iter if value is None else value
    if not isinstance(max_iter, (int, np.integer)) or isinstance(max_iter, bool) or max_iter < 1:
        raise ValueError(f"max_iter must be an integer >= 1, got {value!r}")
    return int(max_iter)


def _check_em_rounds(em, engine: Engine, default: int) -> int:
    if em is not None and (isinstance(em, bool) or not isinstance(em, (int, np.integer)) or em < 0):
        raise ValueError(f"em_rounds must be None or an integer >= 0, got {em!r}")
    if em and not engine.supports_em:
        raise ValueError(f"engine={engine_label(engine)!r} is Algorithm 2 as written; it has no em_rounds")
    return default if em is None else int(em)


def _check_context(context):
    if isinstance(context, str) and context == "auto":
        return context
    return check_nonnegative(context, "context")


def _check_merge_above(m):
    if m is None:
        return None
    if isinstance(m, bool) or not isinstance(m, (int, float, np.integer, np.floating)) or not -1.0 <= m <= 1.0:
        raise ValueError(f"merge_above must be None or a number in [-1, 1], got {m!r}")
    return float(m)


def _check_init(init, n: int):
    if isinstance(init, str):
        if init not in INITS:
            raise ValueError(f"init must be one of {INITS} or an array of indices, got {init!r}")
        return init
    return check_representatives(init, n)


def _check_neighbors(neighbors):
    if isinstance(neighbors, str) and neighbors not in ("auto", "all"):
        raise ValueError(f"neighbors must be 'auto', 'all', None, pairs or a callable, got {neighbors!r}")
    return neighbors


def _check_policy(policy) -> Policy:
    if policy is None:
        return DEFAULT_POLICY
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be None or a bpseg_pgm.Policy, got {type(policy).__name__}")
    return policy


def _check_group_runs(group_runs) -> str | bool:
    if isinstance(group_runs, str) and group_runs == "auto":
        return group_runs
    if isinstance(group_runs, (bool, np.bool_)):
        return bool(group_runs)
    raise ValueError(f"group_runs must be 'auto', True or False, got {group_runs!r}")


def _check_structure(structure) -> str:
    if not isinstance(structure, str) or structure not in STRUCTURES:
        raise ValueError(f"structure must be one of {STRUCTURES}, got {structure!r}")
    return structure


#: How each parameter of the table (:data:`~bpseg_pgm.params.PARAMETERS`) is checked and resolved:
#: name -> check(estimator, value, resolved so far, n units). The table's order is the checks' order.
_CHECKS = {
    "structure": lambda est, v, p, n: _check_structure(v),
    "damping": lambda est, v, p, n: check_damping(v),
    "engine": lambda est, v, p, n: make_engine(v, p["damping"]),
    "potentials": lambda est, v, p, n: est._defaults(p["engine"]),
    "lam": lambda est, v, p, n: p["potentials"]["lam"] if v is None else check_nonnegative(v, "lam"),
    "sigma": lambda est, v, p, n: check_sigma(p["potentials"]["sigma"] if isinstance(v, str) and v == "auto" else v),
    "max_iter": lambda est, v, p, n: _check_max_iter(v, p["engine"]),
    "tol": lambda est, v, p, n: check_tol(v),
    "random_state": lambda est, v, p, n: check_random_state(v),
    "em_rounds": lambda est, v, p, n: _check_em_rounds(v, p["engine"], p["potentials"]["em_rounds"]),
    "context": lambda est, v, p, n: _check_context(v),
    "merge_above": lambda est, v, p, n: _check_merge_above(v),
    "init": lambda est, v, p, n: _check_init(v, n),
    "neighbors": lambda est, v, p, n: _check_neighbors(v),
    "n_segments": lambda est, v, p, n: check_n_segments(v),
    "group_runs": lambda est, v, p, n: _resolve_group_runs(_check_group_runs(v), p["structure"], est.n_segments),
    "policy": lambda est, v, p, n: _check_policy(v),
}


def _resolve_group_runs(group, structure: str, n_segments) -> bool:
    """``group_runs`` as used: "auto" is True under structure "auto" with n_segments "auto"; True with the topic
    model asked for is a ValueError (there are no runs to group)."""
    if group == "auto":
        return structure == "auto" and isinstance(n_segments, str)
    if group and structure == "topics":
        raise ValueError("group_runs=True groups runs into topics: it needs structure 'auto' or 'runs', "
                         "not 'topics' (the topic model's segments may already return)")
    return group


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
    engine : a name, "potts" (default), "loopy", "appendix" (alias "fast": the appendix's Algorithm 2), "exact", "reference", "max-product",
        "mean-field", "gibbs", "mplp" or any registered with
        :func:`~bpseg_pgm.inference.register_engine`; or an
        :class:`~bpseg_pgm.inference.Engine` instance (its own parameters, e.g.
        ``GibbsEngine(n_samples=2000)``). See :mod:`bpseg_pgm.inference.engines`.
    init : "farthest" (default), "random" (the paper), "all", or k distinct sentence indices.
    neighbors : "auto" (default: all pairs up to 400 sentences, then a decay-wide window
        plus 10 nearest neighbours), "all"/None (the paper's complete graph), (i, j) pairs,
        or a callable(X) -> pairs. The edge set used is ``edges_``.
    max_iter : sweeps at most per BP run (default 100; for "appendix" it is T, default 5).
    tol : stop when no normalised log message changes by more than this.
    damping : in [0, 1), geometric damping of messages, for an engine given by name (an
        engine object carries its own).
    random_state : seed for ``init="random"``.
    em_rounds : int >= 0, or None (default: 5 for "centered", 0 otherwise). Representative
        re-estimation: after BP each label's representative becomes the belief-weighted mean
        of the embeddings, labels holding less than half a sentence of belief are dropped, and
        BP runs again. Not for engine "appendix" (Algorithm 2 as written).
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
    structure : "auto" (default), "runs" or "topics". "runs": every segment is one run of consecutive
        sentences (:mod:`bpseg_pgm.runs`): exact segmental programme on reading-order-smoothed
        embeddings, k given or chosen against the shuffled document, exact chain marginals as
        beliefs (forward-backward: BP on a tree). The potentials, engine, init, lam, sigma,
        context and EM parameters do not apply (they are still checked); ``log_partition_`` is the
        chain's exact log Z. "topics": the topic model (:mod:`bpseg_pgm.topics`; segments may
        return), whatever the document. "auto": decided per document
        (:func:`bpseg_pgm.decisions.structure.choose_structure`): text whose topics shift
        gradually (meetings, lectures: reading-order runs that differ from their neighbours by a
        per-unit effect below 0.5) is segmented into runs, about one per three correlation
        lengths when k is "auto" (one per correlation length as the effect nears 0.5); text with
        abrupt shifts, or whose topics alternate sentence by sentence, gets the topic model, kept
        when its topics are clusters of sentences (mean silhouette at least 0.08,
        ``topic_silhouette_``) and its labels form at most three times the noise-calibrated runs;
        otherwise (a real document whose sentences do not cluster by section, or cut into pieces) the
        runs, one per correlation length, or the noise-calibrated runs where a long text of many short
        passages holds more. Only
        with the centred potentials (the default): for the paper's potentials, a user's, an engine
        with potentials of its own ("appendix") or an Engine object, or init "all", "auto" means
        "topics". ``structure_`` says which was used ("runs" or "topics"),
        ``structure_effect_`` the measured median effect, ``topic_silhouette_`` the topic model's
        silhouette when "auto" weighed its labels (NaN otherwise).
    group_runs : "auto" (default), True or False. Topics over runs (:mod:`bpseg_pgm.runtopics`): when the
        segmentation is runs, group them into topics by belief propagation over a Markov network whose
        variables are the runs (unary: a run's centred mean against each topic's centre; pairwise: run-to-run
        similarity around a threshold, and a reading-order locality prior), so that a topic that comes back
        gets its earlier label and adjacent runs with one topic merge. "auto": True under
        ``structure="auto"`` with ``n_segments="auto"``, False otherwise (runs asked for, or a number of
        segments asked for, stay runs). ``structure_`` is then "run-topics" and ``run_topics_`` holds the fit.
        On abrupt text (which "auto" gives the topic model) the runs are grouped first: when they form more
        topics than the topic model has labels (``n_segments``, or the count "auto" starts from, at most 40),
        the topic model cannot hold the document (a long text of many unrelated passages) and is not run;
        the grouped runs are the result (this keeps a 10,000-unit text of short passages at seconds).
        A grouping whose BP stops at its sweep limit unconverged is run again with damping
        ``Policy.group_retry_damping`` (unless ``damping`` is set or the engine is an object), and a
        ConvergenceWarning is raised only for the model whose labels ``fit`` returns, not for one it discarded.
    contiguous : deprecated, None (default). The former name of ``structure``: True is "runs",
        False "topics", "auto" "auto" (a FutureWarning says so).

    Every parameter is checked when ``fit`` starts, before any work, whichever model the document
    then gets (one table, ``_parameter_checks``).

    Fitted attributes (every one set by every fit; those that do not apply to the model used are
    None): ``labels_`` (n,) indices into ``centers_``, ``beliefs_`` (n, k) rows
    summing to 1, ``representatives_`` (initial sentence indices), ``centers_`` (final
    representative vectors), ``structure_`` ("runs", "topics" or "run-topics": runs grouped into topics), ``topic_silhouette_``, ``n_segments_``, ``n_iter_`` (sweeps, all rounds), ``converged_``
    (last round), ``edges_``, ``deltas_`` (message change per sweep), ``model_`` (the pgmpy
    network, when the engine built one), ``engine_`` (the Engine object used; None for runs),
    ``smoothing_width_`` (runs: the features' smoothing width in units; None for topics),
    ``runs_`` (the runs fit, a :class:`~bpseg_pgm.runs.model.RunsFit`: the segmentation when
    ``structure_`` is "runs", the fallback that "auto" computed when it is "topics", None when the
    topic model was asked for or the document has no reading-order runs; ``runs_.levels`` holds the
    best split into every number of runs up to ``runs_.levels.max_runs`` and ``runs_.at(k)`` re-cuts
    at k runs without refitting), ``run_topics_`` (a :class:`~bpseg_pgm.runtopics.RunTopicsFit` when the runs
    were grouped into topics, else None: ``run_topics_.run_topics`` the topic of each run of ``runs_``,
    ``run_topics_.returns`` what the returns test found), ``granularity_`` (a dict when "auto" chose the
    number of runs, of the segmentation or of the topic model's fallback: ``"span"``, the span rule's
    count, and ``"words"``, the count the words' evidence chose from there when ``fit`` was given
    ``word_counts``, else None; None otherwise),
    ``n_features_in_``
    (the embeddings' dimension, scikit-learn's convention),
    ``log_partition_`` (the engine's estimate of log Z for the last round's model: the Bethe
    free energy's -F for "potts"/"loopy", exact on a tree such as chain ``neighbors`` and an
    approximation on graphs with cycles; exact for "exact"; the ELBO, a lower bound, for
    "mean-field"; None for engines with none), and the values actually used: ``lam_``,
    ``sigma_``, ``em_rounds_``, ``context_``, ``potentials_`` (None for "appendix"). ``centers_`` live
    in the space the potentials saw (after context mixing).
    """

    def __init__(
        self,
        n_segments=PARAMETERS["n_segments"].default,
        lam=PARAMETERS["lam"].default,
        sigma=PARAMETERS["sigma"].default,
        engine=PARAMETERS["engine"].default,
        init=PARAMETERS["init"].default,
        potentials=PARAMETERS["potentials"].default,
        neighbors=PARAMETERS["neighbors"].default,
        max_iter=PARAMETERS["max_iter"].default,
        tol=PARAMETERS["tol"].default,
        damping=PARAMETERS["damping"].default,
        random_state=PARAMETERS["random_state"].default,
        em_rounds=PARAMETERS["em_rounds"].default,
        context=PARAMETERS["context"].default,
        merge_above=PARAMETERS["merge_above"].default,
        structure=PARAMETERS["structure"].default,
        group_runs=PARAMETERS["group_runs"].default,
        policy=PARAMETERS["policy"].default,
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
        self.structure = structure
        self.group_runs = group_runs
        self.policy = policy

    # -- checks: one table, run when fit starts, whatever the document -------------------
    def check_params(self, n_units: int | None = None) -> None:
        """Check every parameter now, as ``fit`` does first; ValueError naming the first bad one.

        The parameters and what each takes are declared once, in :data:`bpseg_pgm.params.PARAMETERS`; they are
        checked in its order. ``n_units``: the document's length, for the checks that need it (explicit ``init``
        indices); None checks them against no length (a corpus run checks each document again when it fits).
        """
        self._checked_params(sys.maxsize if n_units is None else int(n_units))

    def _checked_params(self, n: int) -> dict:
        """Every parameter of the table checked and resolved for the model, in the table's order (``potentials``
        resolves to the defaults that lam=None, sigma="auto", em_rounds=None and context="auto" mean)."""
        p: dict = {}
        for name in PARAMETERS:
            p[name] = _CHECKS[name](self, getattr(self, name), p, n)
        return p

    def _defaults(self, engine: Engine) -> dict:
        """What lam=None, sigma="auto", em_rounds=None and context="auto" mean here: the named
        potential's registered defaults, Algorithm 2's, or those of a user's Potentials object."""
        if not engine.uses_potentials:
            if not isinstance(self.potentials, str):
                raise ValueError(
                    f"engine={engine_label(engine)!r} is Algorithm 2 with its own potentials; "
                    "leave potentials at its default"
                )
            return APPENDIX_DEFAULTS
        if isinstance(self.potentials, Potentials):
            return CUSTOM_DEFAULTS
        return lookup(self.potentials).defaults

    def _potentials(self, p: dict) -> Potentials | None:
        if not p["engine"].uses_potentials:
            return None
        if isinstance(self.potentials, Potentials):
            return self.potentials
        return lookup(self.potentials).cls(lam=p["lam"], sigma=p["sigma"])

    def _auto_applies(self, engine: Engine) -> bool:
        """Whether ``structure="auto"`` may choose runs: only for the centred model (the default),
        for which it was measured; the paper's potentials, a user's and engine "appendix" stay as written."""
        # an engine given as an object (a researcher's own, or one with its own settings) always runs
        return (isinstance(self.potentials, str) and self.potentials == "centered"
                and isinstance(self.engine, str) and engine.uses_potentials
                and not (isinstance(self.init, str) and self.init == "all"))

    # -- fitting ---------------------------------------------------------------------------
    def fit(self, X, y=None, callback=None, sample_weight=None, word_counts=None):
        """Segment a document; returns self.

        ``X``: a :class:`~bpseg_pgm.features.Units` (embeddings, unit weights and word counts, as
        ``Units.from_sentences`` builds them: the model ``segment_sentences`` fits), or a bare (n, d) embedding
        matrix. Bare embeddings lack what the text gives: every unit then weighs 1 (``sample_weight`` None) and,
        without ``word_counts``, the number of runs and their boundaries read the embeddings alone, a weaker
        model on real text (unseen lectures: ARI 0.31 against 0.47 with the words and weights).

        ``callback(t, beliefs)`` (iterative engines) is called after every sweep.
        ``sample_weight`` (n,) >= 0: how much each unit counts (the runs model; the text pipeline
        passes :func:`~bpseg_pgm.features.weights.unit_weights`, so "Yeah ." counts less than a full sentence).
        ``word_counts`` (n, V) array or sparse matrix of each unit's word counts, optional
        (:func:`~bpseg_pgm.features.words.unit_word_counts`): with them the automatic number of runs
        (``structure="auto"``, ``n_segments="auto"``) is at least the span rule's and grows where the words'
        model evidence says the text changes more often; ``granularity_`` reports both counts. Wherever runs
        are cut (``structure="runs"`` or "auto", k given or not) their boundaries weigh the words' cost beside
        the embeddings' (``runs_.word_alpha`` is set when they did). Given with a ``Units``, ``sample_weight``
        and ``word_counts`` replace its own.
        """
        features = self._features(X, sample_weight, word_counts)
        settings = self._settings(features)
        outcome = decide(features, settings, self.policy_, callback)
        self._set_fitted(outcome, settings, features)
        if outcome.topics is not None and not outcome.topics.converged:
            warn_topics_unconverged(settings.engine, settings.max_iter, settings.tol, stacklevel=2)
        if outcome.grouping is not None and not outcome.grouping.converged:
            warn_grouping_unconverged(self.policy_.group_max_iter, self.policy_.group_tol, stacklevel=2,
                                      retried=outcome.retried)
        return self

    def _features(self, X, sample_weight, word_counts) -> Features:
        """The document as the decision layer sees it: unit rows, weights and word counts, checked."""
        if isinstance(X, Units):
            sample_weight = X.weights if sample_weight is None else sample_weight
            word_counts = X.word_counts if word_counts is None else word_counts
            X = X.embeddings
        Xn = normalize_rows(check_embeddings(X))
        n = Xn.shape[0]
        counts = None if word_counts is None else check_word_counts(word_counts, n)
        return Features(Xn, check_sample_weight(sample_weight, n), counts)

    def _settings(self, features: Features) -> Settings:
        """Every parameter checked (one table) and resolved, the memory a topic fit needs checked, before any work."""
        n = features.n
        p = self._checked_params(n)
        self.policy_ = p["policy"]
        engine, structure = p["engine"], p["structure"]
        if not (isinstance(self.init, str) and self.init == "all"):  # init="all": k = n, n_segments ignored
            check_n_segments(self.n_segments, n)
        auto_applies = structure == "auto" and self._auto_applies(engine)
        if structure != "runs":  # "auto" may still choose the topic model
            check_fit_memory(n, features.Xn.shape[1], n_segments=self.n_segments, init=self.init,
                             neighbors=self.neighbors, sigma=p["sigma"], engine=engine.name or "custom")
        seed = check_random_state(self.random_state)
        return Settings(
            structure=structure, n_segments=self.n_segments, group_runs=p["group_runs"], engine=engine,
            potentials=self._potentials(p), lam=p["lam"], sigma=p["sigma"], max_iter=p["max_iter"], tol=p["tol"],
            em_rounds=p["em_rounds"], context=p["context"], default_context=p["potentials"]["context"],
            merge_above=p["merge_above"], init=self.init, neighbors=self.neighbors, random_state=self.random_state,
            seed=0 if seed is None else seed, auto_applies=auto_applies, damping_set=bool(self.damping),
            engine_is_object=not isinstance(self.engine, str),
        )

    def _set_fitted(self, out: Outcome, s: Settings, features: Features) -> None:
        """The fitted attributes of the model whose labels are the result (every attribute set on every path)."""
        n = features.n
        self.n_features_in_ = int(features.Xn.shape[1])
        self.structure_, self.structure_effect_ = out.structure, out.effect
        self.topic_silhouette_, self.granularity_ = out.silhouette, out.granularity
        self.runs_, self.run_topics_ = out.runs, out.grouping
        if out.topics is not None:
            fit = out.topics
            self.labels_, self.beliefs_, self.centers_ = fit.labels, fit.beliefs, fit.centers
            self.representatives_ = fit.representatives
            self.n_segments_ = int(fit.centers.shape[0])
            self.n_iter_, self.converged_ = fit.n_iter, fit.converged
            self.edges_, self.deltas_, self.model_ = fit.edges, fit.deltas, fit.model
            self.engine_, self.engine_extra_, self.inference_ = s.engine, fit.engine_extra, fit.inference
            self.log_partition_ = fit.log_partition
            self.lam_, self.sigma_, self.em_rounds_, self.potentials_ = s.lam, s.sigma, s.em_rounds, s.potentials
            self.context_, self.smoothing_width_ = out.context, None
            return
        runs = out.runs
        self.representatives_ = None
        self.edges_ = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
        self.deltas_ = []
        self.engine_extra_, self.inference_ = {}, None
        self.lam_ = self.sigma_ = self.potentials_ = None
        self.em_rounds_, self.context_ = 0, 0.0
        self.smoothing_width_ = runs.smoothing_width
        grouped = out.grouping
        if grouped is not None:
            self.labels_, self.beliefs_, self.centers_ = grouped.labels, grouped.beliefs, grouped.centers
            self.n_segments_ = grouped.n_topics
            self.n_iter_, self.converged_ = grouped.n_iter, grouped.converged
            self.model_, self.engine_ = grouped.model, out.group_engine
            self.log_partition_ = grouped.log_partition
            return
        # the chain's beliefs and log Z are computed here, only when they are the result
        self.labels_, self.beliefs_, self.centers_ = runs.labels, runs.beliefs, runs.centers
        self.n_segments_ = int(runs.centers.shape[0])
        self.n_iter_, self.converged_ = 1, True
        self.model_, self.engine_ = None, None
        self.log_partition_ = runs.log_partition

    def fit_predict(self, X, y=None, **kwargs):
        """Fit and return ``labels_``."""
        return self.fit(X, **kwargs).labels_
