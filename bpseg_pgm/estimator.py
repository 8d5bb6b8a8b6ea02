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
import warnings

from sklearn.base import BaseEstimator, ClusterMixin

from bpseg_pgm.constraints import validate
from bpseg_pgm.decisions import Settings, decide
from bpseg_pgm.decisions.grouping import group_engine
from bpseg_pgm.decisions.potentials import runs_can_take
from bpseg_pgm.features.units import Units
from bpseg_pgm.inference.engines import make_engine
from bpseg_pgm.params import PARAMETERS, STRUCTURES
from bpseg_pgm.policy import DEFAULT_POLICY
from bpseg_pgm.potentials import Potentials
from bpseg_pgm.potentials.registry import CUSTOM_DEFAULTS, lookup
from bpseg_pgm.runs.cost_registry import check_cost
from bpseg_pgm.runs.evidence import check_word_counts
from bpseg_pgm.runtopics.fit import warn_unconverged as warn_grouping_unconverged
from bpseg_pgm.topics.defaults import APPENDIX_DEFAULTS
from bpseg_pgm.topics.fit import engine_label
from bpseg_pgm.topics.fit import warn_unconverged as warn_topics_unconverged
from bpseg_pgm.topics.memory import check_fit_memory
from bpseg_pgm.types.fit import FIT_FIELDS
from bpseg_pgm.utils.validation import (
    check_embeddings,
    check_n_segments,
    check_random_state,
    check_representatives,
    check_sample_weight,
    check_sigma,
    normalize_rows,
)

__all__ = ["BPSeg", "STRUCTURES"]


class BPSeg(ClusterMixin, BaseEstimator):
    """BP-Seg text segmentation over sentence embeddings.

    What the default (``structure="auto"``) computes, per document: runs of consecutive sentences by an exact
    segmental dynamic programme, their count calibrated against the document shuffled in blocks; then the
    runs grouped into topics that may return, by belief propagation over the runs: the runs are the variables
    of a pgmpy ``DiscreteMarkovNetwork`` with explicit unary and pairwise ``DiscreteFactor``s, solved through
    pgmpy's ``Inference`` API; on abrupt text (Choi-like documents) the paper's network over the sentences (the
    sentences as variables, BP over them with the centred potentials and the compiled Potts kernel). The paper's model as written on every
    document: ``BPSeg(potentials="paper", structure="topics")`` (``engine="loopy"`` runs it on the pgmpy
    network). Every decision and every tuned number is in :mod:`bpseg_pgm.decisions` and
    :class:`~bpseg_pgm.policy.Policy` (``docs/policy.md``). Every parameter is checked when ``fit`` starts, before any work, from one table
    (:data:`bpseg_pgm.params.PARAMETERS`).

    Parameters
    ----------
    n_segments : int or "auto", default="auto"
        How many segments. For the topic model, "auto" starts from min(n, ceil(2 sqrt(n)),
        ``Policy.auto_max_segments``) labels chosen by ``init`` and lets them empty out during
        re-estimation (ignored with ``init="all"``); for runs, "auto" is chosen against the document
        shuffled in blocks, and on gradual text by the span rule and the words' evidence. The number used is
        ``n_segments_``.
    lam : float >= 0 or None, default=None
        Strength of the pairwise term; None takes the potentials' own (centered 150, paper 0.12, fast 300).
    sigma : float > 0, None or "auto", default="auto"
        Distance decay exp(-|i-j|^2 / sigma) of the pairwise term (None: no decay); "auto" takes the
        potentials' own (centered 200, paper None, fast 10).
    engine : str or Engine, default="potts"
        The inference engine: "potts", "loopy", "appendix" (alias "fast": the appendix's Algorithm 2),
        "exact", "reference", "max-product", "mean-field", "gibbs", "mplp", any name registered with
        :func:`~bpseg_pgm.inference.register_engine`, or an :class:`~bpseg_pgm.inference.Engine` instance
        (used as given, with its own settings).
    init : {"farthest", "random", "all"} or array of int, default="farthest"
        How the k initial representatives are chosen ("random" is the paper's), or k distinct indices.
    potentials : str or Potentials, default="centered"
        The unary and pairwise model: "centered", "paper" (eq. 1-2), any registered name, or a
        :class:`~bpseg_pgm.potentials.Potentials` object of your own.
    neighbors : "auto", "all", None, array of pairs or callable, default="auto"
        The topic model's edges: "auto" is every pair up to 400 sentences, then a decay-wide window plus
        10 nearest neighbours; "all"/None the paper's complete graph; (i, j) pairs; or callable(X) -> pairs.
    max_iter : int >= 1 or None, default=None
        BP sweeps at most per run (None: the engine's own, 100; for "appendix" its T, 5).
    tol : float >= 0, default=1e-6
        BP stops when no normalised log message changes by more.
    damping : float in [0, 1), default=0.0
        Geometric damping of messages, for an engine given by name (an engine object carries its own).
    random_state : None, int >= 0 or numpy Generator, default=None
        Seed of every random choice (``init="random"``, the runs model's null documents: None is seed 0
        there). The same seed gives the same labels.
    em_rounds : int >= 0 or None, default=None
        Rounds of representative re-estimation after BP (None: 5 for "centered", 0 otherwise); not for
        "appendix".
    context : float >= 0 or "auto", default="auto"
        Reading-order context of the topic model: the potentials see normalise(R_i + context (R_{i-1} +
        R_{i+1})); 0 is the paper's model. "auto": 0 except for "centered", where it is 0.2 scaled by how much
        more similar adjacent sentences are than average pairs. The value used is ``context_``.
    merge_above : float in [-1, 1] or None, default=0.9
        During re-estimation, labels whose representatives have at least this cosine merge (None: never).
    structure : {"auto", "runs", "topics"}, default="auto"
        "runs": every segment is one run of consecutive sentences (:mod:`bpseg_pgm.runs`: an exact
        segmental programme, exact chain marginals as beliefs). "topics": the topic model
        (:mod:`bpseg_pgm.topics`; segments may return). "auto": decided per document
        (:func:`bpseg_pgm.decisions.decide`): gradual text gets runs, abrupt text the topic model, kept only
        when its topics are clusters that do not scatter the document. "auto" applies to every potential with
        Potts couplings (the runs cut by its run cost) and an engine given by name; otherwise it means "topics".
    group_runs : "auto", bool, default="auto"
        Group the runs into topics that may return (:mod:`bpseg_pgm.runtopics`): "auto" does it under
        ``structure="auto"`` with ``n_segments="auto"``. True needs runs (``structure`` "auto" or "runs").
    cost : str or RunCost, default="embeddings"
        The runs model's cost of a run (its boundaries and its automatic number of runs): a name from
        :func:`bpseg_pgm.runs.cost_registry.cost_names` or a :class:`~bpseg_pgm.runs.cost_registry.RunCost`
        object of your own; the words' cost is added beside it when word counts are given. Not read by the topic
        model (another cost with ``structure="topics"`` is a ValueError).
    granularity : float >= 0 or "auto", default="auto"
        The reader's granularity where the runs model chooses the count (``n_segments="auto"``, on gradual text
        or with ``structure="runs"``): "auto" is the shipped rule; a number z takes the fewest runs whose gain over
        the document's block-shuffled copies is within z standard errors of the largest (0: every run that beats
        the shuffles; 1: the one-standard-error rule; larger: coarser). ``docs/howto/segments.md`` has what each
        gives per genre. With ``structure="topics"`` or a given ``n_segments`` it is a ValueError.
    policy : Policy or None, default=None
        The tuned numbers of every decision (None: the shipped :data:`~bpseg_pgm.policy.DEFAULT_POLICY`);
        ``BPSeg(policy=Policy(run_scale=2.0))`` changes one of them. See ``Policy.explain(name)``.

    Attributes
    ----------
    result_ : Fit
        What the fit found (:class:`~bpseg_pgm.types.fit.Fit`, made by :func:`bpseg_pgm.decisions.decide`):
        every attribute below but ``policy_`` and ``n_features_in_`` is its field of the same name without the
        ``_`` (``labels_`` is ``result_.labels``), read from it, not copied.
    labels_ : ndarray of shape (n,)
        Each sentence's segment, an index into ``centers_``.
    beliefs_ : ndarray of shape (n, k)
        Each sentence's belief over the segments; rows sum to 1.
    n_segments_ : int
        The number of segments (topics) found.
    centers_ : ndarray of shape (k, d)
        Each segment's centre (for the topic model, in the space the potentials saw, after context mixing).
    structure_ : {"runs", "topics", "run-topics"}
        The model whose labels were kept ("run-topics": runs grouped into topics).
    structure_effect_ : float
        The median per-unit boundary effect "auto" measured (NaN when it did not).
    topic_silhouette_ : float
        The topic model's silhouette when "auto" weighed its labels (NaN otherwise).
    granularity_ : dict or None
        When "auto" chose the number of runs: ``{"span": the span rule's count, "words": the words' count}``.
    runs_ : RunsFit or None
        The runs fit: the segmentation when ``structure_`` is "runs" or "run-topics", the fallback "auto"
        computed when it is "topics", None when the topic model was asked for. ``runs_.at(k)`` re-cuts at k
        runs without refitting.
    run_topics_ : RunTopicsFit or None
        The grouping of the runs into topics when ``structure_`` is "run-topics".
    evidence_ : str or None
        "headings" or "paragraphs" when the runs of the result start only where the document's headings or
        paragraphs do (a :class:`~bpseg_pgm.features.Units` that carries them:
        :mod:`~bpseg_pgm.decisions.layout`), else None.
    representatives_ : ndarray of int or None
        The topic model's initial representative sentences (None for runs).
    n_iter_ : int
        BP sweeps, all rounds (1 for runs: the chain is solved exactly).
    converged_ : bool
        Whether the last BP round converged.
    edges_ : ndarray of shape (m, 2)
        The network's edges (the chain's for runs).
    deltas_ : list of float
        The largest message change per sweep.
    model_ : DiscreteMarkovNetwork or None
        The pgmpy network, when the engine built one.
    engine_ : Engine or None
        The engine used (None for runs).
    engine_extra_ : dict
        What the engine reported besides the beliefs.
    inference_ : object or None
        The engine's inference object, when it kept one.
    log_partition_ : float or None
        The engine's estimate of log Z for the last round (the Bethe free energy's -F for "potts"/"loopy";
        exact for "exact" and for runs; the ELBO for "mean-field"; None for engines with none).
    lam_, sigma_, em_rounds_, context_, potentials_ : the values used (None or 0 for runs).
    smoothing_width_ : float or None
        The runs' features' smoothing width in units (None for the topic model).
    retried_ : tuple or None
        (damping, sweeps) of the damped second try of an unconverged grouping, None when none was made.
    policy_ : Policy
        The policy used.
    n_features_in_ : int
        The embeddings' dimension.

    Examples
    --------
    >>> from bpseg_pgm import BPSeg, Units
    >>> labels = BPSeg(n_segments=3).fit_predict(X)                     # doctest: +SKIP
    >>> labels = BPSeg().fit_predict(Units.from_sentences(sentences))  # doctest: +SKIP
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
        cost=PARAMETERS["cost"].default,
        granularity=PARAMETERS["granularity"].default,
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
        self.cost = cost
        self.granularity = granularity

    # -- checks: one table, run when fit starts, whatever the document -------------------
    def check_params(self, n_units: int | None = None) -> None:
        """Check every parameter now, as ``fit`` does first; ValueError naming the first bad one.

        The parameters and what each takes are declared once, as constraint objects, in
        :data:`bpseg_pgm.params.PARAMETERS`; they are checked in its order (one message: ``<name> must be <what
        it takes>, got <value>``), then resolved (``n_segments`` and explicit ``init`` indices against ``n_units``,
        ``em_rounds`` against the engine, ``group_runs`` and ``cost`` against ``structure``). The one place
        ``n_segments`` is checked, whoever calls (``fit``, ``segment_text`` before it embeds, a corpus task).
        ``n_units``: the document's length, for the checks that need it (``n_segments``, explicit ``init``
        indices); None checks them against no length (a corpus run checks each document again when it fits).
        """
        self._checked_params(sys.maxsize if n_units is None else int(n_units))

    def _checked_params(self, n: int) -> dict:
        """Every parameter checked against the table's constraints, in the table's order, then resolved for the
        model: ``potentials`` to the defaults that lam=None, sigma="auto", em_rounds=None and context="auto" mean
        (the named potential's registered defaults, Algorithm 2's, or those of a user's Potentials object), explicit
        ``init`` indices against ``n``, ``em_rounds`` against the engine, ``group_runs`` ("auto": True under
        structure "auto" with n_segments "auto") and ``cost`` against ``structure``."""
        v = {name: validate(name, getattr(self, name), p.constraints, takes=p.words) for name, p in PARAMETERS.items()}
        if not (isinstance(v["init"], str) and v["init"] == "all"):  # init="all": k = n, n_segments ignored
            check_n_segments(v["n_segments"], n)
        engine = make_engine(v["engine"], v["damping"])
        if not engine.uses_potentials:
            if not isinstance(self.potentials, str):
                raise ValueError(
                    f"engine={engine_label(engine)!r} is Algorithm 2 with its own potentials; "
                    "leave potentials at its default"
                )
            defaults = APPENDIX_DEFAULTS
        elif isinstance(self.potentials, Potentials):
            defaults = CUSTOM_DEFAULTS
        else:
            defaults = lookup(self.potentials).defaults
        sigma = check_sigma(defaults["sigma"] if v["sigma"] == "auto" else v["sigma"])
        random_state = check_random_state(v["random_state"])
        em, structure, group = v["em_rounds"], v["structure"], v["group_runs"]
        if em and not engine.supports_em:
            raise ValueError(f"engine={engine_label(engine)!r} is Algorithm 2 as written; it has no em_rounds")
        init = v["init"] if isinstance(v["init"], str) else check_representatives(v["init"], n)
        if group == "auto":
            group = structure == "auto" and isinstance(v["n_segments"], str)
        elif group and structure == "topics":
            raise ValueError(
                "group_runs=True groups runs into topics: it needs structure 'auto' or 'runs', "
                "not 'topics' (the topic model's segments may already return)"
            )
        if not isinstance(v["granularity"], str):
            if structure == "topics":
                raise ValueError(
                    f"granularity={v['granularity']!r} moves the count the runs model chooses: structure='topics' "
                    "cuts no runs; give structure='runs' or 'auto', or leave granularity='auto'"
                )
            if not isinstance(v["n_segments"], str):
                raise ValueError(
                    f"granularity={v['granularity']!r} moves the count the model chooses, but n_segments="
                    f"{v['n_segments']!r} was given; leave one of them at 'auto'"
                )
        # the runs model's cost (a registered name or a RunCost object): the topic model asked for cuts no runs
        cost = check_cost(v["cost"])
        if structure == "topics" and not (isinstance(v["cost"], str) and v["cost"] == "embeddings"):
            raise ValueError(
                f"cost={v['cost']!r} is the runs model's cost of a run: structure='topics' cuts no runs; "
                "give structure='runs' or 'auto', or leave cost='embeddings'"
            )
        return {
            **v,
            "engine": engine,
            "potentials": defaults,
            "lam": defaults["lam"] if v["lam"] is None else v["lam"],
            "sigma": sigma,
            "max_iter": engine.default_max_iter if v["max_iter"] is None else v["max_iter"],
            "random_state": random_state,
            "em_rounds": defaults["em_rounds"] if em is None else em,
            "init": init,
            "group_runs": group,
            "policy": DEFAULT_POLICY if v["policy"] is None else v["policy"],
            "cost": cost,
        }

    def _explain_topics_only(self, cost, potentials: Potentials | None) -> None:
        """``structure="auto"`` with settings the runs model has no place for means the topic model: a user's own
        cost is a ValueError (it would be ignored); a user's Engine object, or potentials without Potts couplings,
        one UserWarning naming the model that runs instead (engine "appendix" and init="all" are the topic model
        by definition, and stay quiet)."""
        own = [
            what
            for what, given in (
                ("an Engine object", not isinstance(self.engine, str)),
                (
                    f"potentials {type(potentials).__name__} (full pairwise tables: a run has no cost under them)",
                    potentials is not None and not runs_can_take(potentials),
                ),
            )
            if given
        ]
        if not (isinstance(cost, str) and cost == "embeddings"):
            raise ValueError(
                f"cost={self.cost!r} is the runs model's cost, but structure='auto' with these settings "
                "(potentials, engine or init other than the defaults) means the topic model, which cuts "
                "no runs: give structure='runs' to use the cost"
            )
        if own:
            warnings.warn(
                f"structure='auto' chooses between runs and the topic model only where the runs model can take "
                f"the potentials and the engine is given by name; with {' and '.join(own)} "
                "it fits the topic model: say structure='topics' (or 'runs') to choose, and silence this",
                UserWarning,
                stacklevel=4,
            )

    def reads_words(self) -> bool:
        """Whether a fit may read the units' word counts: every structure but the topic model asked for, which does
        not (the text pipeline then skips counting them: ``Units.from_sentences(words=...)``)."""
        return not (isinstance(self.structure, str) and self.structure == "topics")

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
        paragraphs = headings = sentences = None  # the document as the decision layer sees it, checked
        if isinstance(X, Units):
            sample_weight = X.weights if sample_weight is None else sample_weight
            word_counts = X.word_counts if word_counts is None else word_counts
            paragraphs, headings, sentences = X.paragraphs, X.headings, X.sentences
            X = X.embeddings
        Xn = normalize_rows(check_embeddings(X))  # each unit's row normalised, its weight 1 when none is given
        n = Xn.shape[0]
        counts = None if word_counts is None else check_word_counts(word_counts, n)
        units = Units(Xn, check_sample_weight(sample_weight, n), counts, sentences, paragraphs, headings)
        settings = self._settings(units)
        self.n_features_in_ = int(units.embeddings.shape[1])
        self.result_ = result = decide(units, settings, self.policy_, callback)
        if result.structure == "topics" and not result.converged:
            warn_topics_unconverged(settings.engine, settings.max_iter, settings.tol, stacklevel=2)
        if result.structure == "run-topics" and not result.converged:
            warn_grouping_unconverged(
                self.policy_.group_max_iter, self.policy_.group_tol, stacklevel=2, retried=result.retried
            )
        return self

    def _settings(self, units: Units) -> Settings:
        """Every parameter checked (one table) and resolved, the memory a topic fit needs checked, before any work."""
        n = len(units)
        p = self._checked_params(n)
        self.policy_ = p["policy"]
        engine, structure = p["engine"], p["structure"]
        if not engine.uses_potentials:
            potentials = None
        elif isinstance(self.potentials, Potentials):
            potentials = self.potentials
        else:
            potentials = lookup(self.potentials).cls(lam=p["lam"], sigma=p["sigma"])
        # "auto" may choose runs where the runs model has a place for the potentials (Potts couplings, or a run cost
        # named by its class) with an engine given by name that takes potentials, init not "all" (an engine given as
        # an object, a researcher's own or one with its own settings, always runs; "appendix" stays as written)
        auto_applies = (
            runs_can_take(potentials)
            and isinstance(self.engine, str)
            and engine.uses_potentials
            and not (isinstance(self.init, str) and self.init == "all")
        )
        if structure == "auto" and not auto_applies:
            self._explain_topics_only(self.cost, potentials)
            structure = "topics"  # "auto" cannot choose runs here: the topic model, as "auto" would fit it
        if structure == "runs" and potentials is not None and not runs_can_take(potentials):
            warnings.warn(
                f"potentials {type(potentials).__name__} have full pairwise tables: the runs model has no place for "
                "them and cuts the runs by the embeddings' scatter (structure='topics' fits them)",
                UserWarning,
                stacklevel=3,
            )
        if structure != "runs":  # "auto" may still choose the topic model
            check_fit_memory(
                n,
                units.embeddings.shape[1],
                n_segments=self.n_segments,
                init=self.init,
                neighbors=self.neighbors,
                sigma=p["sigma"],
                engine=engine,
                policy=self.policy_,
            )
        seed = self.random_state  # checked above
        grouping = group_engine(engine) if p["group_runs"] else None
        own_object = not isinstance(self.engine, str) and grouping is engine  # the user's engine, used as given
        return Settings(
            structure=structure,
            n_segments=self.n_segments,
            group_runs=p["group_runs"],
            engine=engine,
            potentials=potentials,
            lam=p["lam"],
            sigma=p["sigma"],
            max_iter=p["max_iter"],
            tol=p["tol"],
            em_rounds=p["em_rounds"],
            context=p["context"],
            default_context=p["potentials"]["context"],
            merge_above=p["merge_above"],
            init=self.init,
            neighbors=self.neighbors,
            random_state=self.random_state,
            seed=0 if seed is None else seed,
            grouping_engine=grouping,
            group_retry=grouping is not None and not self.damping and not own_object,
            cost=p["cost"],
            group_sections=not isinstance(self.group_runs, str) and bool(p["group_runs"]),
            granularity=p["granularity"],
        )

    def fit_predict(self, X, y=None, **kwargs):
        """Fit and return ``labels_``."""
        return self.fit(X, **kwargs).labels_


def _fitted(name: str) -> property:
    """The fitted attribute ``name + "_"``: the field ``name`` of the estimator's ``result_`` (an AttributeError
    before ``fit``, as scikit-learn's fitted attributes are)."""

    def get(self):
        try:
            result = self.__dict__["result_"]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no attribute {name + '_'!r} before fit") from None
        return getattr(result, name)

    return property(get, doc=f"``result_.{name}`` (see :class:`~bpseg_pgm.types.fit.Fit`).")


for _name in FIT_FIELDS:  # labels_, beliefs_, ...: read from the one Fit, never copied
    setattr(BPSeg, _name + "_", _fitted(_name))
del _name
