"""``Fit``: what one fit of a document found, whichever model's labels are the result.

:func:`bpseg_pgm.decisions.decide` returns one; :class:`~bpseg_pgm.estimator.BPSeg` keeps it as ``result_`` and
reads every fitted attribute from it (``BPSeg().fit(X).labels_`` is ``result_.labels``), and
:func:`~bpseg_pgm.text.segmentation.build_segmentation` builds the text's
:class:`~bpseg_pgm.text.Segmentation` from it. A plain, frozen record: nothing is copied on the way from the
decision layer to the user.

The models' own fits (:class:`~bpseg_pgm.runs.model.RunsFit`, :class:`~bpseg_pgm.runtopics.RunTopicsFit`,
:class:`~bpseg_pgm.topics.fit.TopicsFit`) are read by their attributes only (this module imports nothing of
bpseg_pgm): :meth:`Fit.of_runs` and :meth:`Fit.of_topics` make the record of the two kinds of result.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

__all__ = ["FIT_FIELDS", "Fit"]


@dataclass(frozen=True, eq=False)
class Fit:
    """One fit of a document: the labels of the model that is the result, and what the decisions measured.

    Every field is the :class:`~bpseg_pgm.estimator.BPSeg` attribute of the same name followed by ``_``
    (``labels`` is ``labels_``); the estimator's docstring describes each.

    Attributes
    ----------
    structure : {"runs", "topics", "run-topics"}
        The model whose labels these are ("run-topics": runs grouped into topics).
    labels : ndarray of shape (n,)
        Each unit's segment, an index into ``centers``.
    beliefs : ndarray of shape (n, k)
        Each unit's belief over the segments; rows sum to 1.
    centers : ndarray of shape (k, d)
        Each segment's centre.
    n_segments : int
        The number of segments (topics) found.
    n_iter : int
        BP sweeps, all rounds (1 for runs: the chain is solved exactly).
    converged : bool
        Whether the last BP round converged.
    edges : ndarray of shape (m, 2)
        The network's edges (the chain's for runs).
    deltas : list of float
        The largest message change per sweep (the topic model's; empty otherwise).
    model : DiscreteMarkovNetwork or None
        The pgmpy network, when the engine built one.
    engine : Engine or None
        The engine whose beliefs these are (the grouping's for "run-topics"; None for runs).
    engine_extra : dict
        What the engine reported besides the beliefs.
    inference : object or None
        The engine's inference object, when it kept one.
    log_partition : float or None
        The engine's (or the chain's exact) log Z.
    representatives : ndarray of int or None
        The topic model's initial representatives (None otherwise).
    lam, sigma, em_rounds, potentials, context : the topic model's values used (None or 0 otherwise).
    smoothing_width : float or None
        The runs' features' smoothing width in units (None for the topic model).
    structure_effect : float
        The median per-unit boundary effect ``structure="auto"`` measured (NaN when it did not).
    topic_silhouette : float
        The topic model's silhouette when "auto" weighed its labels (NaN otherwise).
    granularity : dict or None
        When "auto" chose the number of runs: the span rule's and the words' counts.
    runs : RunsFit or None
        The runs fit: the result's, or the fallback "auto" computed when the topic model is the result.
    run_topics : RunTopicsFit or None
        The runs grouped into topics, when ``structure`` is "run-topics".
    evidence : str or None
        "headings" or "paragraphs" when the runs start only where the document's do.
    retried : tuple or None
        (damping, sweeps) of the damped second try of an unconverged grouping, None when none was made.
    """

    structure: str
    labels: np.ndarray
    beliefs: np.ndarray
    centers: np.ndarray
    n_segments: int
    n_iter: int
    converged: bool
    edges: np.ndarray
    deltas: list = field(default_factory=list)
    model: Any = None
    engine: Any = None
    engine_extra: dict = field(default_factory=dict)
    inference: Any = None
    log_partition: float | None = None
    representatives: np.ndarray | None = None
    lam: float | None = None
    sigma: float | None = None
    em_rounds: int = 0
    potentials: Any = None
    context: float | None = 0.0
    smoothing_width: float | None = None
    structure_effect: float = float("nan")
    topic_silhouette: float = float("nan")
    granularity: dict | None = None
    runs: Any = None
    run_topics: Any = None
    evidence: str | None = None
    retried: tuple[float, int] | None = None

    @classmethod
    def of_runs(
        cls, runs: Any, grouping: Any = None, *, engine: Any = None, retried: tuple | None = None, **measured: Any
    ) -> Fit:
        """The record of a runs result: the runs fit ``runs`` (a ``RunsFit``), grouped into topics by ``engine``
        when ``grouping`` (a ``RunTopicsFit``) is given. ``measured``: ``structure_effect``, ``topic_silhouette``,
        ``granularity``, ``evidence``. The chain's beliefs and log Z are computed here (only for the result)."""
        n = int(np.shape(runs.labels)[0])
        chain = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
        common = dict(edges=chain, smoothing_width=runs.smoothing_width, runs=runs, **measured)
        if grouping is None:
            return cls(
                structure="runs",
                labels=runs.labels,
                beliefs=runs.beliefs,
                centers=runs.centers,
                n_segments=int(runs.centers.shape[0]),
                n_iter=1,
                converged=True,
                log_partition=runs.log_partition,
                **common,
            )
        return cls(
            structure="run-topics",
            labels=grouping.labels,
            beliefs=grouping.beliefs,
            centers=grouping.centers,
            n_segments=grouping.n_topics,
            n_iter=grouping.n_iter,
            converged=grouping.converged,
            model=grouping.model,
            engine=engine,
            log_partition=grouping.log_partition,
            run_topics=grouping,
            retried=retried,
            **common,
        )

    @classmethod
    def of_topics(
        cls,
        topics: Any,
        *,
        engine: Any,
        lam: float | None,
        sigma: float | None,
        em_rounds: int,
        potentials: Any,
        context: float | None,
        runs: Any = None,
        **measured: Any,
    ) -> Fit:
        """The record of a topic-model result: ``topics`` (a ``TopicsFit``) fitted by ``engine`` with the values
        given; ``runs``: the fallback runs fit "auto" computed, if any; ``measured`` as in :meth:`of_runs`."""
        return cls(
            structure="topics",
            labels=topics.labels,
            beliefs=topics.beliefs,
            centers=topics.centers,
            n_segments=int(topics.centers.shape[0]),
            n_iter=topics.n_iter,
            converged=topics.converged,
            edges=topics.edges,
            deltas=topics.deltas,
            model=topics.model,
            engine=engine,
            engine_extra=topics.engine_extra,
            inference=topics.inference,
            log_partition=topics.log_partition,
            representatives=topics.representatives,
            lam=lam,
            sigma=sigma,
            em_rounds=em_rounds,
            potentials=potentials,
            context=context,
            runs=runs,
            **measured,
        )


#: Every field of :class:`Fit`, in order: ``BPSeg`` has each as a fitted attribute (the name followed by ``_``).
FIT_FIELDS = tuple(f.name for f in fields(Fit))
