"""How the library decides what a user gets, top to bottom: features -> structure -> how many -> grouping.

:func:`decide` is the whole procedure behind ``BPSeg.fit``. It takes the document as the model sees it (a
:class:`~bpseg_pgm.features.Units`: unit rows, unit weights, word counts, paragraphs and headings, checked by
the estimator), the estimator's checked parameters (:class:`Settings`) and a :class:`~bpseg_pgm.policy.Policy`
(every tuned number), and returns a :class:`~bpseg_pgm.types.fit.Fit`: the labels of the model that is the
result, and what was measured on the way (``BPSeg`` and ``Segmentation`` read it as it is).

0. **The document's own structure** (:mod:`~bpseg_pgm.decisions.layout`): where the text's headings or
   paragraphs say runs may start. With headings and ``n_segments="auto"`` the segments are the sections of
   the top heading level; given k, k runs that start at the headings (given more segments than top-level
   sections, each section split at its own sub-headings, then paragraphs:
   :func:`~bpseg_pgm.runs.hierarchy.nested_levels`); either way not grouped unless ``group_runs=True``, and
   the procedure ends here. With paragraphs, every runs fit below starts runs only at them.
1. **Structure.** ``structure="runs"`` or ``"topics"`` asked for: that model. ``"auto"`` (for potentials the
   runs model has a place for, with an engine given by name): the document is cut into
   noise-calibrated runs and their boundaries' median per-unit effect is measured
   (:func:`~bpseg_pgm.decisions.structure.choose_structure`): gradual text (effect below
   ``Policy.gradual_effect``) gets runs, abrupt text the topic model.
2. **How many segments.** Given, or for runs on gradual text one per :func:`~.structure.run_span`
   correlation lengths (``Policy.run_scale``, ``Policy.gradual_full``), raised where the words' evidence
   says the text changes more often (``Policy.evidence_penalty``); the topic model starts from
   min(n, 2 sqrt(n), ``Policy.auto_max_segments``) labels and lets them empty out. With a reader's granularity
   (``Settings.granularity`` = z) the runs model's count is instead the fewest runs whose gain over the null
   documents is within z standard errors of the largest (:func:`~.structure.granular_runs`).
3. **Grouping.** With ``group_runs`` the runs are grouped into topics that may return
   (:mod:`~bpseg_pgm.decisions.grouping`; ``Policy.group_*``, ``Policy.returns_*``). On abrupt text the
   grouped runs are computed first: when they hold more topics than the topic model has labels, the
   topic model is not run. Otherwise the topic model is fitted and kept only when its topics are clusters
   that do not scatter the document (:func:`~.structure.keep_topics`; ``Policy.topic_silhouette``,
   ``Policy.topic_runs_ratio``); else the (grouped) runs are the result.

Every runs fit made here is cut by ``Settings.cost`` (the runs model's cost of a run, a registered name or a
:class:`~bpseg_pgm.runs.cost_registry.RunCost`; "embeddings" by default), the words added beside it when the
features hold word counts; the topic model does not read it.

Nothing here warns: the estimator raises the convergence warning of the model whose labels it returns.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, Callable

from bpseg_pgm.features.units import Units
from bpseg_pgm.inference.engine import Engine
from bpseg_pgm.policy import Policy
from bpseg_pgm.potentials import Potentials, adaptive_context
from bpseg_pgm.runs.model import RunsFit, fit_runs
from bpseg_pgm.runtopics import RunTopicsFit
from bpseg_pgm.topics.defaults import auto_labels
from bpseg_pgm.topics.fit import fit_topics
from bpseg_pgm.types.fit import Fit

from .grouping import group_engine, group_runs, retry_engine
from .layout import Layout, document_layout
from .potentials import grouping_potentials, runs_cost
from .structure import choose_structure, granular_runs, keep_topics, runs_cap

__all__ = ["Settings", "decide"]


@dataclass(frozen=True)
class Settings:
    """The estimator's parameters, checked and resolved (``BPSeg`` builds it from its one table of checks)."""

    #: "runs", "topics", or "auto" (decided per document); "auto" arrives here only where it may choose runs (Potts
    #: potentials or a run cost, an engine by name that takes potentials, init not "all"): else it is "topics"
    structure: str
    n_segments: Any  # an int or "auto"
    group_runs: bool
    engine: Engine
    potentials: Potentials | None  # None: an engine with potentials of its own ("appendix")
    lam: float | None
    sigma: float | None
    max_iter: int
    tol: float
    em_rounds: int
    context: Any  # a number, or "auto"
    default_context: float
    merge_above: float | None
    init: Any
    neighbors: Any
    random_state: Any
    seed: int  # random_state as the runs model's seed (0 for None)
    #: the engine that groups the runs (``group_runs``): the estimator's, or the default one for an engine with
    #: potentials of its own; None without grouping
    grouping_engine: Engine | None = None
    #: an unconverged grouping may be run again with a damped engine (``Policy.group_retry_damping``): not when a
    #: damping was set, nor when the grouping engine is the user's own object (used as given)
    group_retry: bool = False
    #: the runs model's cost of a run: a registered name or a RunCost object (bpseg_pgm.runs.cost_registry); it
    #: cuts every run this procedure fits ("runs", and "auto"'s runs), the words added beside it when given
    cost: Any = "embeddings"
    #: a document's heading sections are grouped too (group_runs=True was asked for, not "auto")
    group_sections: bool = False
    #: the reader's granularity where the runs model chooses the count: "auto" (the span rule on gradual text, the
    #: noise-calibrated count under "runs"), or z >= 0 (the fewest runs within z standard errors of the best gain)
    granularity: Any = "auto"


@dataclass
class _Measured:
    """What "auto" measured on the way to the result (the :class:`~bpseg_pgm.types.fit.Fit` fields of the same
    names): the median boundary effect, the topic model's silhouette, the span rule's and the words' counts,
    and the document structure the runs were cut at ("headings", "paragraphs" or None)."""

    structure_effect: float = float("nan")
    topic_silhouette: float = float("nan")
    granularity: dict | None = None
    evidence: str | None = None


class _Grouper:
    """Runs grouped into segments that may return, with the engines of the fit: the grouping engine and its
    damped retry (``Settings.group_retry``)."""

    def __init__(self, s: Settings, policy: Policy):
        self.engine = s.grouping_engine or group_engine(s.engine)
        self.settings, self.policy = s, policy
        self.potentials = grouping_potentials(s.potentials, policy)

    @functools.cached_property
    def retry(self) -> Engine | None:
        """The damped engine of the second try (made when first needed), or None."""
        return retry_engine(self.engine, self.policy) if self.settings.group_retry else None

    def __call__(self, fit: RunsFit, units: Units) -> RunTopicsFit:
        return group_runs(
            fit,
            units.embeddings,
            units.weights,
            engine=self.engine,
            retry=lambda: self.retry,
            seed=self.settings.seed,
            policy=self.policy,
            potentials=self.potentials,
        )


def _runs_result(
    fit: RunsFit,
    units: Units,
    policy: Policy,
    measured: _Measured,
    grouper: _Grouper | None,
    grouped: RunTopicsFit | None = None,
) -> Fit:
    """The runs ``fit`` as the result, grouped into topics under ``group_runs`` (``grouped``: already computed)."""
    if grouper is None:
        return Fit.of_runs(fit, **vars(measured))
    grouping = grouper(fit, units) if grouped is None else grouped
    retried = None
    if not grouping.converged and grouper.retry is not None:  # for the warning: a damped second try was made
        retried = (policy.group_retry_damping, policy.group_retry_sweeps)
    return Fit.of_runs(fit, grouping, engine=grouper.engine, retried=retried, **vars(measured))


def decide(units: Units, s: Settings, policy: Policy, callback: Callable | None = None) -> Fit:
    """The procedure of the module docstring: the fit whose labels ``BPSeg.fit`` returns.

    ``units``: the document, its ``embeddings`` rows of unit length and its ``weights`` given (``BPSeg.fit``
    checks and normalises them first); ``s``: the estimator's parameters, checked and resolved."""
    X, w, n = units.embeddings, units.weights, len(units)
    measured = _Measured()
    s = dataclasses.replace(s, cost=runs_cost(s.cost, s.potentials))  # the potentials' run cost, unless one given
    grouper = _Grouper(s, policy) if s.group_runs else None
    # 0. the document's own structure: where runs may start (its headings or paragraphs), or how many (headings)
    runs_possible = s.structure in ("runs", "auto")
    layout = document_layout(units.paragraphs, units.headings, s.n_segments, policy) if runs_possible else Layout()
    starts, sections, headed = layout.starts, layout.sections is not None, layout.evidence == "headings"
    # 1. runs: asked for, or a document with headings (its sections under "auto"), grouped only if asked
    if s.structure == "runs" or headed:
        k = layout.sections if sections else s.n_segments
        cap = runs_cap(X, w, policy)[1]  # the count cap is decided here; the runs model computes up to it
        spread = isinstance(k, str) and not isinstance(s.granularity, str)
        fit = fit_runs(
            X,
            w,
            k,
            random_state=s.seed,
            policy=policy,
            max_runs=cap,
            cost=s.cost,
            starts=starts,
            finer=layout.finer,
            spread=spread,
        )
        fit = granular_runs(fit, s.granularity) if spread else fit
        if units.word_counts is not None:
            fit = fit.with_words(units.word_counts, policy.word_weight)
        measured.evidence = layout.evidence
        return _runs_result(fit, units, policy, measured, None if headed and not s.group_sections else grouper)
    # 1-2. "auto": runs on gradual text (and how many), the topic model (with the runs as fallback) otherwise
    found, grouped = None, None
    if s.structure == "auto":
        found = choose_structure(
            X,
            w,
            s.n_segments,
            random_state=s.seed,
            policy=policy,
            word_counts=units.word_counts,
            cost=s.cost,
            starts=starts,
            granularity=s.granularity,
        )
        measured.structure_effect = found.effect
        if found.k_span is not None:
            measured.granularity = {"span": found.k_span, "words": found.k_words}
        measured.evidence = layout.evidence if found.fit is not None else None
        if found.runs:
            return _runs_result(found.fit, units, policy, measured, grouper)
        # 3. grouping first: more topics than the topic model has labels means it cannot hold the document
        if s.group_runs and found.fit is not None:
            grouped = grouper(found.fit, units)
            capacity = (
                auto_labels(n, policy.auto_max_segments, policy.auto_segments_per_root)
                if isinstance(s.n_segments, str)
                else int(s.n_segments)
            )
            if grouped.n_topics > capacity:
                return _runs_result(found.fit, units, policy, measured, grouper, grouped)
    # the topic model
    context = (
        adaptive_context(X, s.default_context, policy.context_persistence_full)
        if isinstance(s.context, str)
        else s.context
    )
    topics = fit_topics(
        X,
        engine=s.engine,
        potentials=s.potentials,
        lam=s.lam,
        sigma=s.sigma,
        max_iter=s.max_iter,
        tol=s.tol,
        em_rounds=s.em_rounds,
        context=context,
        merge_above=s.merge_above,
        neighbors=s.neighbors,
        init=s.init,
        n_segments=s.n_segments,
        random_state=s.random_state,
        callback=callback,
        warn=False,
        policy=policy,
    )
    if found is not None:
        keep, measured.topic_silhouette = keep_topics(X, w, topics.labels, found, s.seed, policy=policy)
        if not keep:
            return _runs_result(found.fit, units, policy, measured, grouper, grouped)
    measured.evidence = None  # the topic model does not read the layout
    return Fit.of_topics(
        topics,
        engine=s.engine,
        lam=s.lam,
        sigma=s.sigma,
        em_rounds=s.em_rounds,
        potentials=s.potentials,
        context=context,
        runs=None if found is None else found.fit,
        **vars(measured),
    )
