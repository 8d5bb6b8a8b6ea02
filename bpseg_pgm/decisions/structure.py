"""Runs or topics: the structure decision of ``BPSeg(structure="auto")``, and how many runs.

The document is cut into runs against its block-shuffled self (:func:`~bpseg_pgm.runs.model.fit_runs`
with k "auto"). If there are at least two and their boundaries' median per-unit effect
(:func:`~bpseg_pgm.runs.effects.boundary_effects`) is below ``Policy.gradual_effect``, topics shift
gradually: single units are too noisy to be grouped one by one, and the document is segmented into runs,
about one per :func:`run_span` correlation lengths. Otherwise (abrupt shifts, or no reading-order
structure at all, as when topics alternate sentence by sentence) the topic model is the right one; its
labels are kept only when its topics are clusters of sentences and do not scatter the document
(:func:`keep_topics`), and the runs are used otherwise.

Every number comes from the :class:`~bpseg_pgm.policy.Policy` given (the shipped one by default); what
was measured for each is in ``docs/policy.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bpseg_pgm.policy import Policy
from bpseg_pgm.runs.effects import median_boundary_effect
from bpseg_pgm.runs.evidence import check_word_counts, evidence_runs
from bpseg_pgm.runs.model import RunsFit, auto_max_runs, fit_runs
from bpseg_pgm.runs.null import count_within
from bpseg_pgm.runs.statistics import policy_correlation_length
from bpseg_pgm.utils.labels import n_runs
from bpseg_pgm.utils.validation import weighted_mean

__all__ = [
    "StructureChoice",
    "choose_structure",
    "granular_runs",
    "keep_topics",
    "run_span",
    "runs_cap",
    "topic_silhouette",
    "topics_fragmented",
    "widened_runs",
]


@dataclass
class StructureChoice:
    """What ``structure="auto"`` found: ``runs`` (True: segment into runs), the median boundary
    effect of the noise-calibrated runs (NaN: fewer than two), ``fit``: the runs fit to use (at the
    chosen granularity; also when the topic model is chosen, as its fallback), ``fine``: the
    noise-calibrated runs (None when the document has no reading-order structure); ``k_span`` and
    ``k_words``: the counts of the span rule and of the words' evidence, when they were weighed."""

    runs: bool
    effect: float
    fit: RunsFit | None
    fine: RunsFit | None = None
    #: the span rule's count (None when it did not decide: k given, or a long text of many passages) and the
    #: count the words' evidence chose from there (None without words)
    k_span: int | None = None
    k_words: int | None = None


def topics_fragmented(topic_labels: np.ndarray, found: StructureChoice, policy: Policy) -> bool:
    """Whether the topic model's labels form more than ``Policy.topic_runs_ratio`` times the runs of the
    noise-calibrated runs fit; False when the document has no reading-order runs to compare."""
    if found.fine is None or found.fit is None:
        return False
    k_fine = int(found.fine.labels.max()) + 1
    return n_runs(np.asarray(topic_labels)) > policy.topic_runs_ratio * k_fine


def topic_silhouette(
    Xn: np.ndarray,
    weights: np.ndarray,
    labels: np.ndarray,
    random_state=0,
    *,
    policy: Policy,
) -> float:
    """Mean silhouette of the units under ``labels`` (scikit-learn), cosine on the unit rows centred on
    their weighted mean: how far each unit's own topic is closer than the next one (1: tight, separate
    topics; about 0: an arbitrary partition). A document of more than ``Policy.silhouette_max_units`` units
    (``policy``'s) is scored on a sample of that many, drawn with ``random_state``. NaN when there are fewer
    than two labels, or as many labels as units (in the sample)."""
    from sklearn.metrics import silhouette_score

    max_units = policy.silhouette_max_units
    labels = np.asarray(labels)
    n = labels.shape[0]
    center = weighted_mean(Xn, np.asarray(weights, dtype=np.float64))
    idx = np.arange(n)
    if n > max_units:
        idx = np.sort(np.random.default_rng(random_state).choice(n, size=max_units, replace=False))
    k = np.unique(labels[idx]).size
    if not 2 <= k < idx.size:
        return float("nan")
    return float(silhouette_score(Xn[idx] - center, labels[idx], metric="cosine"))


def keep_topics(
    Xn: np.ndarray,
    weights: np.ndarray,
    topic_labels: np.ndarray,
    found: StructureChoice,
    random_state=0,
    *,
    policy: Policy,
) -> tuple[bool, float]:
    """Whether ``structure="auto"`` keeps the topic model's labels on abrupt text, and their silhouette.

    Kept when the document has no reading-order runs to fall back on, or when the labels are not
    fragmented (:func:`topics_fragmented`: ``Policy.topic_runs_ratio``) and their topics are clusters
    (:func:`topic_silhouette` at least ``Policy.topic_silhouette``); otherwise the runs are used. The silhouette
    is NaN (and the runs used) when the topic model found one label, or one per unit.
    """
    if found.fine is None or found.fit is None:
        return True, float("nan")
    if topics_fragmented(topic_labels, found, policy):
        return False, float("nan")
    silhouette = topic_silhouette(Xn, weights, topic_labels, random_state, policy=policy)
    return bool(silhouette >= policy.topic_silhouette), silhouette


def run_span(effect: float, *, policy: Policy) -> float:
    """Correlation lengths per segment on gradual text: ``Policy.run_scale`` at or below ``Policy.gradual_full``,
    1 at ``Policy.gradual_effect``, geometric in between (``policy``'s numbers)."""
    run_scale, gradual_full, gradual_effect = policy.run_scale, policy.gradual_full, policy.gradual_effect
    t = float(np.clip((gradual_effect - effect) / (gradual_effect - gradual_full), 0.0, 1.0))
    return run_scale**t


def runs_cap(Xn: np.ndarray, weights: np.ndarray, policy: Policy) -> tuple[float, int]:
    """The document's correlation length (:func:`~bpseg_pgm.runs.statistics.policy_correlation_length`) and the most runs
    its noise-calibrated count may reach: ``Policy.auto_max_runs``, or one run per correlation length when the
    document holds more (:func:`~bpseg_pgm.runs.model.auto_max_runs`). The cap is this layer's decision; the runs
    model computes the levels up to it and their gain over the null (``RunsFit.null_gain``)."""
    corr_length = policy_correlation_length(Xn, weights, policy)
    return corr_length, auto_max_runs(Xn.shape[0], corr_length, policy.auto_max_runs)


def widened_runs(Xn, weights, random_state, corr_length, cap: int, policy: Policy, cost, starts) -> RunsFit:
    """The noise-calibrated runs of a document that needs more of them than the default cap: searched with at most
    ``cap`` runs and, while k reaches the cap, again with the cap doubled, until k falls below it or the cap
    reaches n // 2 (:func:`choose_structure` does so on a long abrupt text whose k reaches one run per correlation
    length, as a text of many short unrelated passages does). The runs model computes each search
    (:func:`~bpseg_pgm.runs.model.fit_runs`); the widening is this decision's."""
    n = Xn.shape[0]
    while True:
        fit = fit_runs(
            Xn, weights, "auto", random_state, corr_length, policy=policy, max_runs=cap, cost=cost, starts=starts
        )
        k = int(fit.labels.max()) + 1
        if not (k == fit.levels.max_runs == cap and cap < n // 2):
            return fit
        cap = min(n // 2, 2 * cap)  # k at the top of its range: the document needs more runs


def granular_runs(fit: RunsFit, granularity) -> RunsFit:
    """The noise-calibrated runs ``fit`` (made with ``spread``) at the reader's granularity: the fewest runs whose
    gain over the null documents is within ``granularity`` standard errors of the largest
    (:func:`~bpseg_pgm.runs.null.count_within`). ``fit`` itself for ``granularity`` "auto", or when it kept no
    null documents' costs."""
    if isinstance(granularity, str) or fit.null_rows is None or fit.levels is None:
        return fit
    k = count_within(fit.levels.costs, fit.null_rows, granularity)
    return fit if k == int(fit.labels.max()) + 1 else fit.at(k)


def choose_structure(
    Xn: np.ndarray,
    weights: np.ndarray,
    n_segments,
    random_state=0,
    *,
    policy: Policy,
    max_runs: int | None = None,
    word_counts=None,
    cost="embeddings",
    starts=None,
    granularity="auto",
) -> StructureChoice:
    """Runs for a document whose shifts are gradual, the topic model otherwise.

    The document is cut into runs against its block-shuffled self (as ``structure="runs"``
    does). If there are at least two and their boundaries' median per-unit effect
    (:func:`~bpseg_pgm.runs.effects.boundary_effects`) is below ``gradual_effect``, topics shift gradually:
    single units are too noisy to be grouped one by one, and the document is segmented into runs,
    ``n_segments`` of them or n / (:func:`run_span` x correlation length), at most as many as the
    noise-calibrated runs. Otherwise (abrupt shifts, or no reading-order structure at all, as when topics
    alternate sentence by sentence) the topic model is the right one, with the runs fit at
    n / correlation length as its fallback (:func:`keep_topics`). On such a text longer than the
    candidates (``Policy.max_candidates``) whose noise-calibrated k reaches one run per correlation
    length (above ``Policy.auto_max_runs``), k is searched further (:func:`widened_runs`) and the
    noise-calibrated runs are the fallback: a long text of many short unrelated passages has more of them
    than correlation lengths (Choi set 1 concatenated: 1.6-1.8 correlation lengths per passage; at
    5,000 units the runs' ARI against the passages went from 0.43 to 0.86). ``max_runs`` caps the
    noise-calibrated runs (default :func:`~bpseg_pgm.runs.model.auto_max_runs`).

    With ``word_counts`` (unit x term counts, dense or sparse, checked by
    :func:`~bpseg_pgm.runs.evidence.check_word_counts`) the count of the span rule is a floor: the level
    between it and the noise-calibrated runs whose words' model evidence, less ``evidence_penalty`` x
    log C(n - 1, k - 1), is highest is taken (:func:`~bpseg_pgm.runs.evidence.evidence_runs`). The span rule
    alone does not grow with a text made of many parts; the words do. Whatever k is (given or chosen), the
    runs' boundaries then weigh the words' cost beside the embeddings', with ``word_weight``
    (:meth:`~bpseg_pgm.runs.model.RunsFit.with_words`); the noise-calibrated runs (``fine``) stay the
    embeddings' alone.

    ``cost``: the runs model's cost of a run (a registered name or a
    :class:`~bpseg_pgm.runs.cost_registry.RunCost`: :func:`~bpseg_pgm.runs.model.fit_runs`); every runs fit here
    is cut by it, the words added beside it. The boundary effect that tells gradual from abrupt text, and its
    thresholds, read the embeddings (they were measured with the embeddings' cost).

    ``starts`` (None: anywhere): the only units where a run may start (the document's paragraphs:
    :mod:`~bpseg_pgm.decisions.layout`); every runs fit here, and its null documents, is cut there only.

    ``granularity`` (a number z >= 0; "auto": the span rule above): on gradual text with ``n_segments`` "auto", the
    count is instead the fewest runs whose gain over the null documents is within z standard errors of the largest
    (:func:`granular_runs`; the span rule and the words' evidence are then not weighed). The structure decision
    (gradual or abrupt) is the same either way.

    Every number comes from ``policy`` (a study changes one with ``policy=DEFAULT_POLICY.replace(run_scale=2.0)``).
    """
    gradual_effect = policy.gradual_effect
    corr_length, cap = runs_cap(Xn, weights, policy)
    n = Xn.shape[0]
    counts = None if word_counts is None else check_word_counts(word_counts, n)
    fine = fit_runs(
        Xn,
        weights,
        "auto",
        random_state,
        corr_length,
        policy=policy,
        max_runs=cap if max_runs is None else max_runs,
        cost=cost,
        starts=starts,
        spread=not isinstance(granularity, str),
    )
    k_fine = int(fine.labels.max()) + 1
    if k_fine < 2:
        return StructureChoice(False, float("nan"), None)
    effect = median_boundary_effect(Xn, weights, fine.labels)
    many = (
        max_runs is None
        and effect >= gradual_effect
        and n > policy.max_candidates
        and k_fine == cap > policy.auto_max_runs
    )
    if many:  # abrupt, and k reached one run per correlation length: search on past it
        fine = widened_runs(Xn, weights, random_state, corr_length, min(2 * cap, n // 2), policy, cost, starts)
        k_fine = int(fine.labels.max()) + 1
        effect = median_boundary_effect(Xn, weights, fine.labels)
        many = effect >= gradual_effect  # the finer runs could look gradual: then the usual rule
    k_span = k_words = None
    if isinstance(n_segments, str):
        if many:
            k = k_fine
        elif not isinstance(granularity, str):  # the reader's granularity instead of the span rule (not computed)
            k = count_within(fine.levels.costs, fine.null_rows, granularity)
        else:
            k = k_span = int(np.clip(round(n / (run_span(effect, policy=policy) * corr_length)), 1, k_fine))
            if counts is not None:
                k = k_words = evidence_runs(
                    counts, fine.levels, k, k_fine, policy.evidence_penalty, policy.max_evidence_levels
                )[0]
    else:
        k = int(n_segments)
    if k == k_fine:
        fit = fine
    else:
        fit = (
            fine.at(k)
            if k <= fine.levels.max_runs
            else fit_runs(Xn, weights, k, random_state, policy=policy, cost=cost, starts=starts)
        )
    if counts is not None:
        fit = fit.with_words(counts, policy.word_weight)
    return StructureChoice(bool(effect < gradual_effect), effect, fit, fine, k_span, k_words)
