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
from .potentials.context import persistence_halflife, smoothed_embeddings

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


#: The most runs ``n_segments="auto"`` considers (and at most half the units).
AUTO_MAX_RUNS = 30


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


def fit_contiguous(Xn: np.ndarray, weights: np.ndarray, n_segments, random_state=0) -> ContiguousFit:
    """Contiguous segmentation of the unit rows Xn (n, d) with unit weights (n,)."""
    n = Xn.shape[0]
    halflife = persistence_halflife(Xn)
    width = SMOOTHING * halflife
    F = smoothed_embeddings(Xn, width, weights)
    if isinstance(n_segments, str):
        rng = np.random.default_rng(random_state)
        perms = [block_permutation(n, NULL_BLOCK * halflife, rng) for _ in range(null_shuffles(n))]
        shuffled = [(smoothed_embeddings(Xn[p], width, weights[p]), weights[p]) for p in perms]
        labels, scatter = segmental_labels(F, weights, None, max(1, min(AUTO_MAX_RUNS, n // 2)), shuffled)
    else:
        labels, scatter = segmental_labels(F, weights, int(n_segments))
    k = int(labels.max()) + 1
    mu = np.stack([_run_mean(F[labels == j], weights[labels == j]) for j in range(k)])
    sq = (np.einsum("ij,ij->i", F, F)[:, None] - 2.0 * F @ mu.T + np.einsum("ij,ij->i", mu, mu)[None, :])
    s2 = max(scatter, 1e-6)
    res = contiguous_bp(-weights[:, None] * np.maximum(sq, 0.0) / (2.0 * s2), 0.0)
    centers = mu / np.maximum(np.linalg.norm(mu, axis=1, keepdims=True), 1e-12)
    return ContiguousFit(labels, res.beliefs, centers, res.log_partition, width)
