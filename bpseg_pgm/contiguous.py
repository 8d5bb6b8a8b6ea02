"""``BPSeg(contiguous=True)``: segments that are contiguous runs, by exact inference on the chain.

For users who need boundaries (retrieval chunks, chapters), every segment is one run of
consecutive sentences. Steps:

1. features: each unit's embedding smoothed along reading order with a Gaussian whose width
   is ``SMOOTHING`` times the document's persistence half-life
   (:func:`~bpseg_pgm.potentials.context.persistence_halflife`), weighted by ``sample_weight``
   (the text pipeline gives short units, "Yeah .", less weight than substantive ones);
2. boundaries: the exact best segmentation into k runs by a segmental dynamic programme
   (:mod:`bpseg_pgm.inference.segmental`); k given, or chosen against the same document with
   its blocks of one half-life shuffled (the last run must explain more than a run explains
   in a document that keeps the local persistence of this one but has no topics);
3. beliefs: exact marginals of the left-to-right chain whose labels are the k runs, with a
   Gaussian unary -w_i |F_i - mu_j|^2 / (2 s^2) (mu_j the run's mean, s^2 the scatter per
   unit) — forward-backward, i.e. BP on a tree (:func:`~bpseg_pgm.inference.chain.contiguous_bp`).
   Labels are the programme's (exact MAP) runs; the beliefs say how sure each boundary is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .inference.chain import contiguous_bp
from .inference.segmental import block_permutation, segmental_labels
from .potentials.context import correlation_length, persistence_halflife, smoothed_embeddings

#: Smoothing width as a fraction of the persistence half-life (chosen on Choi set 1, set-1
#: interleaved documents and QMSum train: 0 / 0.3 / 0.5 gave ARI 0.958 / 0.953 / 0.914 on Choi
#: and 0.475 / 0.514 / 0.536 on QMSum, KernelCPD with the true k; see benchmarks/RESULTS.md §7).
SMOOTHING = 0.3
#: Null model for choosing k: blocks of this many half-lives are shuffled. Measured on the
#: development sets (QMSum train / Choi set 1 / set-1 interleaved, ARI): single units shuffled
#: 0.267 / 0.937 / 0.485 (runs per gold 4.25 on QMSum), 1 half-life 0.338 / 0.928 / 0.483
#: (3.37), 2 half-lives 0.408 / 0.875 / 0.414 (2.73), one null document each; as shipped (1
#: half-life, averaged nulls) 0.31 / 0.92 / 0.50 (4.0). Coarser nulls trade Choi for meetings.
NULL_BLOCK = 1.0
#: Null documents averaged when choosing k: ceil(NULL_UNITS / n), between 1 and 8 (one shuffle
#: of an 18-sentence note chose 1, 5, 6, 5 or 1 runs over five seeds; long documents vary less).
NULL_UNITS = 2000


def null_shuffles(n: int) -> int:
    return int(np.clip(np.ceil(NULL_UNITS / max(n, 1)), 1, 8))


#: The most runs ``n_segments="auto"`` considers, unless the document has more correlation lengths
#: than that (:func:`auto_max_runs`; and never more than half the units).
AUTO_MAX_RUNS = 30


def auto_max_runs(n: int, corr_length: float) -> int:
    """The most runs the noise-calibrated programme considers for n units: ``AUTO_MAX_RUNS``, or one
    per correlation length when the document holds more (a long document of many short unrelated
    passages: capped at 30, each run averaged several passages, the boundaries looked weak and the
    document was judged gradual); at most n // 2, at least 1."""
    per_length = int(np.ceil(n / max(float(corr_length), 1.0)))
    return max(1, min(max(AUTO_MAX_RUNS, per_length), n // 2))


#: ``contiguous="auto"``: a document whose reading-order runs differ from their neighbours by
#: less than this per-unit effect (median over boundaries, :func:`boundary_effects`) shifts
#: gradually and is segmented into runs. Measured medians per document (5% / 50% / 95%
#: quantiles): Choi set 1 0.65 / 0.99 / 1.65, set-1 interleaved 0.64 / 1.26 / 3.04, QMSum
#: train meetings 0.06 / 0.12 / 0.39 (benchmarks/RESULTS.md §7).
GRADUAL_EFFECT = 0.5
#: On gradual text a segment spans this many correlation lengths
#: (:func:`~bpseg_pgm.potentials.context.correlation_length`): on QMSum train the detectable
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


@dataclass
class ContiguousFit:
    labels: np.ndarray
    beliefs: np.ndarray
    centers: np.ndarray
    log_partition: float
    smoothing_width: float


def _run_mean(F: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted mean of a run's rows; the plain mean for a run whose units all weigh 0 (such a run
    costs nothing, so the programme may place one when there is nothing better to cut)."""
    return np.average(F, axis=0, weights=w) if w.sum() > 0 else F.mean(axis=0)


def fit_contiguous(Xn: np.ndarray, weights: np.ndarray, n_segments, random_state=0,
                   corr_length: float | None = None) -> ContiguousFit:
    """Contiguous segmentation of the unit rows Xn (n, d) with unit weights (n,); ``corr_length``
    (:func:`~bpseg_pgm.potentials.context.correlation_length`, computed when None) bounds the
    number of runs ``n_segments="auto"`` considers (:func:`auto_max_runs`)."""
    n = Xn.shape[0]
    halflife = persistence_halflife(Xn)
    width = SMOOTHING * halflife
    F = smoothed_embeddings(Xn, width, weights)
    if isinstance(n_segments, str):
        rng = np.random.default_rng(random_state)
        perms = [block_permutation(n, NULL_BLOCK * halflife, rng) for _ in range(null_shuffles(n))]
        shuffled = [(smoothed_embeddings(Xn[p], width, weights[p]), weights[p]) for p in perms]
        if corr_length is None:
            corr_length = correlation_length(Xn, weights)
        labels, scatter = segmental_labels(F, weights, None, auto_max_runs(n, corr_length), shuffled)
    else:
        labels, scatter = segmental_labels(F, weights, int(n_segments))
    k = int(labels.max()) + 1
    mu = np.stack([_run_mean(F[labels == j], weights[labels == j]) for j in range(k)])
    sq = (np.einsum("ij,ij->i", F, F)[:, None] - 2.0 * F @ mu.T + np.einsum("ij,ij->i", mu, mu)[None, :])
    s2 = max(scatter, 1e-6)
    res = contiguous_bp(-weights[:, None] * np.maximum(sq, 0.0) / (2.0 * s2), 0.0)
    centers = mu / np.maximum(np.linalg.norm(mu, axis=1, keepdims=True), 1e-12)
    return ContiguousFit(labels, res.beliefs, centers, res.log_partition, width)


def boundary_effects(Xn: np.ndarray, weights: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per-unit effect size of each boundary between consecutive runs of ``labels``.

    For runs A and B on either side of a boundary (unsmoothed unit rows, weighted): the squared
    distance of their weighted means minus what noise alone gives it, s^2 (1/n_A + 1/n_B), over
    the pooled scatter per unit s^2 (n_A, n_B: effective sizes (sum w)^2 / sum w^2). It does not
    grow with the runs' length, unlike a test statistic: Choi's unrelated passages differ by
    about 1 per unit, the topics of a meeting by about 0.05. NaN where a run has no weight.
    """
    bounds = np.concatenate([[0], np.flatnonzero(np.diff(labels)) + 1, [len(labels)]])
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


@dataclass
class Structure:
    """What ``contiguous="auto"`` found: ``runs`` (True: segment into runs), the median boundary
    effect of the noise-calibrated runs (NaN: fewer than two), and the fit to use when runs."""

    runs: bool
    effect: float
    fit: ContiguousFit | None


def run_span(effect: float) -> float:
    """Correlation lengths per segment on gradual text: ``RUN_SCALE`` at or below ``GRADUAL_FULL``,
    1 at ``GRADUAL_EFFECT``, geometric in between."""
    t = float(np.clip((GRADUAL_EFFECT - effect) / (GRADUAL_EFFECT - GRADUAL_FULL), 0.0, 1.0))
    return RUN_SCALE**t


def choose_structure(Xn: np.ndarray, weights: np.ndarray, n_segments, random_state=0) -> Structure:
    """Runs for a document whose shifts are gradual, the topic model otherwise.

    The document is cut into runs against its block-shuffled self (as ``contiguous=True``
    does). If there are at least two and their boundaries' median per-unit effect
    (:func:`boundary_effects`) is below ``GRADUAL_EFFECT``, topics shift gradually: single units
    are too noisy to be grouped one by one, and the document is segmented into runs, ``n_segments``
    of them or n / (:func:`run_span` x correlation length), at most as many as the
    noise-calibrated runs. Otherwise (abrupt shifts, or no reading-order structure at all, as when topics
    alternate sentence by sentence) the topic model is the right one.
    """
    corr_length = correlation_length(Xn, weights)
    fine = fit_contiguous(Xn, weights, "auto", random_state, corr_length)
    k_fine = int(fine.labels.max()) + 1
    if k_fine < 2:
        return Structure(False, float("nan"), None)
    effect = median_boundary_effect(Xn, weights, fine.labels)
    if not effect < GRADUAL_EFFECT:
        return Structure(False, effect, None)
    if isinstance(n_segments, str):
        n = Xn.shape[0]
        k = int(np.clip(round(n / (run_span(effect) * corr_length)), 1, k_fine))
    else:
        k = int(n_segments)
    fit = fine if k == k_fine and isinstance(n_segments, str) else fit_contiguous(Xn, weights, k, random_state)
    return Structure(True, effect, fit)
