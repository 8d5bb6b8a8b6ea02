"""Runs or topics: the structure decision of ``BPSeg(structure="auto")``.

The document is cut into runs against its block-shuffled self (:func:`~bpseg_pgm.runs.model.fit_runs`
with k "auto"). If there are at least two and their boundaries' median per-unit effect
(:func:`boundary_effects`) is below ``GRADUAL_EFFECT``, topics shift gradually: single units are too
noisy to be grouped one by one, and the document is segmented into runs, about one per
:func:`run_span` correlation lengths. Otherwise (abrupt shifts, or no reading-order structure at
all, as when topics alternate sentence by sentence) the topic model is the right one; the estimator
keeps its labels only when its topics are clusters of sentences and do not scatter the document
(:func:`keep_topics`), and uses the runs otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bpseg_pgm.utils.labels import n_runs, run_bounds
from bpseg_pgm.utils.validation import weighted_mean

from .candidates import MAX_CANDIDATES
from .evidence import EVIDENCE_PENALTY, check_word_counts, evidence_runs
from .model import AUTO_MAX_RUNS, RunsFit, auto_max_runs, fit_runs
from .statistics import correlation_length
from .wordcost import WORD_WEIGHT

__all__ = ["GRADUAL_EFFECT", "GRADUAL_FULL", "RUN_SCALE", "SILHOUETTE_MAX_UNITS", "Structure", "TOPIC_RUNS_RATIO", "TOPIC_SILHOUETTE",
           "boundary_effects", "choose_structure", "keep_topics", "median_boundary_effect", "run_span",
           "topic_silhouette", "topics_fragmented"]

#: ``structure="auto"``: a document whose reading-order runs differ from their neighbours by
#: less than this per-unit effect (median over boundaries, :func:`boundary_effects`) shifts
#: gradually and is segmented into runs. Measured medians per document (5% / 50% / 95%
#: quantiles): Choi set 1 0.65 / 0.99 / 1.65, set-1 interleaved 0.64 / 1.26 / 3.04, QMSum
#: train meetings 0.06 / 0.12 / 0.39 (benchmarks/RESULTS.md §7).
GRADUAL_EFFECT = 0.5
#: On gradual text a segment spans this many correlation lengths
#: (:func:`~bpseg_pgm.runs.statistics.correlation_length`): on QMSum train the detectable
#: structure (noise-calibrated k, correlation length) is 2-4x finer than the annotated topics,
#: and no per-document estimate tracks their number (log-correlation 0.06-0.17), so the scale
#: is set once: k = n / (3 x correlation length) gave ARI 0.504 / Pk 0.371 against 0.514 / 0.380
#: for 2.5, 0.429 / 0.359 for 4 and 0.528 / 0.365 with the gold number of runs.
RUN_SCALE = 3.0
#: At or below this median effect a segment spans ``RUN_SCALE`` correlation lengths; between it
#: and ``GRADUAL_EFFECT`` the span falls geometrically to one correlation length, so that a
#: document just below the threshold (whose runs are often its segments, as on Choi) is not cut
#: into a third of them. Development sets, the documents judged gradual (ARI before -> after):
#: QMSum train 0.505 -> 0.522 (160 meetings), Choi set 1 0.157 -> 0.439 (1), interleaved
#: 0.364 -> 0.548 (2); 0.25 and 0.3 gave 0.516 and 0.512 on QMSum, the same elsewhere.
GRADUAL_FULL = 0.2


def boundary_effects(Xn: np.ndarray, weights: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per-unit effect size of each boundary between consecutive runs of ``labels``.

    For runs A and B on either side of a boundary (unsmoothed unit rows, weighted): the squared
    distance of their weighted means minus what noise alone gives it, s^2 (1/n_A + 1/n_B), over
    the pooled scatter per unit s^2 (n_A, n_B: effective sizes (sum w)^2 / sum w^2). It does not
    grow with the runs' length, unlike a test statistic: Choi's unrelated passages differ by
    about 1 per unit, the topics of a meeting by about 0.05. NaN where a run has no weight.
    """
    bounds = run_bounds(labels)
    stats = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        w, x = weights[a:b], Xn[a:b]
        total = w.sum()
        if total <= 0:
            stats.append(None)
            continue
        mean = w @ x / total
        scatter = float(w @ np.einsum("ij,ij->i", x - mean, x - mean))
        stats.append((mean, scatter, total, total * total / float(w @ w)))
    out = np.full(len(stats) - 1, np.nan)
    for i, (left, right) in enumerate(zip(stats[:-1], stats[1:])):
        if left is None or right is None:
            continue
        s2 = (left[1] + right[1]) / (left[2] + right[2])
        if s2 <= 0:
            continue
        d2 = float(np.sum((left[0] - right[0]) ** 2)) - s2 * (1.0 / left[3] + 1.0 / right[3])
        out[i] = d2 / s2
    return out


def median_boundary_effect(Xn: np.ndarray, weights: np.ndarray, labels: np.ndarray) -> float:
    """Median of :func:`boundary_effects` over the boundaries where it is defined; NaN where none is."""
    effects = boundary_effects(Xn, weights, labels)
    return float(np.nanmedian(effects)) if np.isfinite(effects).any() else float("nan")


#: ``structure="auto"`` on abrupt text: the topic model's labels are kept only when its topics are clusters
#: of sentences, not an arbitrary partition of them: their mean silhouette (:func:`topic_silhouette`,
#: cosine on the centred unit embeddings) reaches this value. Otherwise the grouped runs are used. Measured
#: per abrupt document (development sets): 98-99% of Choi set 1, set-1 interleaved and choi-1-rr documents
#: reach it, 6-9% of PEPs train and round-robin PEPs train (whose sentences do not cluster by section: mean
#: silhouette 0.00-0.03, against 0.20-0.21 on Choi). Whole sets, ARI against the former guard (topic runs
#: <= noise-calibrated runs + 2): Choi set 1 0.866 -> 0.870, set-1 interleaved 0.787 -> 0.825, choi-1-rr
#: 0.731 -> 0.744, PEPs train 0.382 -> 0.390, round-robin PEPs train 0.502 -> 0.522, QMSum train 0.520 ->
#: 0.520; 0.06 and 0.10 give means within 0.001 (benchmarks/RESULTS.md §12).
TOPIC_SILHOUETTE = 0.08
#: ... and only when its labels form at most this many times the reading-order runs of the noise-calibrated
#: runs fit: more means the topic model scattered single sentences (a meeting whose turns it labelled one by
#: one: 215 runs against 12). 2, 3 and 5 give the same development figures within 0.007 (choi-1-rr).
TOPIC_RUNS_RATIO = 3.0
#: :func:`topic_silhouette` scores at most this many units (a seeded sample of a longer document).
SILHOUETTE_MAX_UNITS = 2000


@dataclass
class Structure:
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


def topics_fragmented(topic_labels: np.ndarray, found: Structure, ratio: float = TOPIC_RUNS_RATIO) -> bool:
    """Whether the topic model's labels form more than ``ratio`` times the runs of the noise-calibrated runs
    fit (see ``TOPIC_RUNS_RATIO``); False when the document has no reading-order runs to compare."""
    if found.fine is None or found.fit is None:
        return False
    k_fine = int(found.fine.labels.max()) + 1
    return n_runs(np.asarray(topic_labels)) > ratio * k_fine


def topic_silhouette(Xn: np.ndarray, weights: np.ndarray, labels: np.ndarray, random_state=0,
                     max_units: int = SILHOUETTE_MAX_UNITS) -> float:
    """Mean silhouette of the units under ``labels`` (scikit-learn), cosine on the unit rows centred on
    their weighted mean: how far each unit's own topic is closer than the next one (1: tight, separate
    topics; about 0: an arbitrary partition). A document of more than ``max_units`` units is scored on a
    sample of that many, drawn with ``random_state``. NaN when there are fewer than two labels, or as many
    labels as units (in the sample)."""
    from sklearn.metrics import silhouette_score

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


def keep_topics(Xn: np.ndarray, weights: np.ndarray, topic_labels: np.ndarray, found: Structure,
                random_state=0, *, min_silhouette: float = TOPIC_SILHOUETTE,
                ratio: float = TOPIC_RUNS_RATIO) -> tuple[bool, float]:
    """Whether ``structure="auto"`` keeps the topic model's labels on abrupt text, and their silhouette.

    Kept when the document has no reading-order runs to fall back on, or when the labels are not
    fragmented (:func:`topics_fragmented`) and their topics are clusters (:func:`topic_silhouette` at
    least ``min_silhouette``); otherwise the runs are used. The silhouette is NaN (and the runs used)
    when the topic model found one label, or one per unit.
    """
    if found.fine is None or found.fit is None:
        return True, float("nan")
    if topics_fragmented(topic_labels, found, ratio):
        return False, float("nan")
    silhouette = topic_silhouette(Xn, weights, topic_labels, random_state)
    return bool(silhouette >= min_silhouette), silhouette


def run_span(effect: float, *, run_scale: float = RUN_SCALE, gradual_full: float = GRADUAL_FULL,
             gradual_effect: float = GRADUAL_EFFECT) -> float:
    """Correlation lengths per segment on gradual text: ``run_scale`` at or below ``gradual_full``,
    1 at ``gradual_effect``, geometric in between."""
    t = float(np.clip((gradual_effect - effect) / (gradual_effect - gradual_full), 0.0, 1.0))
    return run_scale**t


def choose_structure(Xn: np.ndarray, weights: np.ndarray, n_segments, random_state=0, *,
                     gradual_effect: float = GRADUAL_EFFECT, run_scale: float = RUN_SCALE,
                     gradual_full: float = GRADUAL_FULL, max_runs: int | None = None,
                     word_counts=None, evidence_penalty: float = EVIDENCE_PENALTY,
                     word_weight: float = WORD_WEIGHT) -> Structure:
    """Runs for a document whose shifts are gradual, the topic model otherwise.

    The document is cut into runs against its block-shuffled self (as ``structure="runs"``
    does). If there are at least two and their boundaries' median per-unit effect
    (:func:`boundary_effects`) is below ``gradual_effect``, topics shift gradually: single units
    are too noisy to be grouped one by one, and the document is segmented into runs, ``n_segments``
    of them or n / (:func:`run_span` x correlation length), at most as many as the
    noise-calibrated runs. Otherwise (abrupt shifts, or no reading-order structure at all, as when topics
    alternate sentence by sentence) the topic model is the right one, with the runs fit at
    n / correlation length as its fallback (:func:`keep_topics`). On such a text longer than the
    candidates (:mod:`~bpseg_pgm.runs.candidates`) whose noise-calibrated k reaches one run per correlation
    length (above ``AUTO_MAX_RUNS``), k is searched further (``fit_runs(widen=True)``) and the
    noise-calibrated runs are the fallback: a long text of many short unrelated passages has more of them
    than correlation lengths (Choi set 1 concatenated: 1.6-1.8 correlation lengths per passage; at
    5,000 units the runs' ARI against the passages went from 0.43 to 0.86). The keyword parameters are
    the decision's constants, exposed for studies (benchmarks/); ``max_runs`` caps the
    noise-calibrated runs (default :func:`~bpseg_pgm.runs.model.auto_max_runs`).

    With ``word_counts`` (unit x term counts, dense or sparse, checked by
    :func:`~bpseg_pgm.runs.evidence.check_word_counts`) the count
    of the span rule is a floor: the level between it and the noise-calibrated runs whose words' model
    evidence, less ``evidence_penalty`` x log C(n - 1, k - 1), is highest is taken
    (:func:`~bpseg_pgm.runs.evidence.evidence_runs`). The span rule alone does not grow with a text made of
    many parts; the words do (RESULTS section 14). Whatever k is (given or chosen), the runs' boundaries
    then weigh the words' cost beside the embeddings', with ``word_weight``
    (:meth:`~bpseg_pgm.runs.model.RunsFit.with_words`; RESULTS section 15); the noise-calibrated runs
    (``fine``) stay the embeddings' alone.
    """
    corr_length = correlation_length(Xn, weights)
    n = Xn.shape[0]
    counts = None if word_counts is None else check_word_counts(word_counts, n)
    fine = fit_runs(Xn, weights, "auto", random_state, corr_length, max_runs=max_runs)
    k_fine = int(fine.labels.max()) + 1
    if k_fine < 2:
        return Structure(False, float("nan"), None)
    effect = median_boundary_effect(Xn, weights, fine.labels)
    cap = auto_max_runs(n, corr_length)
    many = (max_runs is None and effect >= gradual_effect and n > MAX_CANDIDATES and k_fine == cap > AUTO_MAX_RUNS)
    if many:  # abrupt, and k reached one run per correlation length: search on past it
        fine = fit_runs(Xn, weights, "auto", random_state, corr_length, max_runs=min(2 * cap, n // 2), widen=True)
        k_fine = int(fine.labels.max()) + 1
        effect = median_boundary_effect(Xn, weights, fine.labels)
        many = effect >= gradual_effect  # the finer runs could look gradual: then the usual rule
    k_span = k_words = None
    if isinstance(n_segments, str):
        span = run_span(effect, run_scale=run_scale, gradual_full=gradual_full, gradual_effect=gradual_effect)
        k = k_fine if many else int(np.clip(round(n / (span * corr_length)), 1, k_fine))
        if not many:
            k_span = k
            if counts is not None:
                k = k_words = evidence_runs(counts, fine.levels, k, k_fine, evidence_penalty)[0]
    else:
        k = int(n_segments)
    if k == k_fine:
        fit = fine
    else:
        fit = fine.at(k) if k <= fine.levels.max_runs else fit_runs(Xn, weights, k, random_state)
    if counts is not None:
        fit = fit.with_words(counts, word_weight)
    return Structure(bool(effect < gradual_effect), effect, fit, fine, k_span, k_words)
