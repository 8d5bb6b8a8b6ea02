"""``BPSeg(contiguous=True)``: segments that are contiguous runs, by exact inference on the chain.

For users who need boundaries (retrieval chunks, chapters), every segment is one run of
consecutive sentences. Steps:

1. features: each unit's embedding smoothed along reading order with a Gaussian whose width
   is ``SMOOTHING`` times the document's persistence half-life
   (:func:`~bpseg_pgm.potentials.context.persistence_halflife`), weighted by ``sample_weight``
   (the text pipeline gives short units, "Yeah .", less weight than substantive ones);
2. boundaries: the exact best segmentation into k runs by a segmental dynamic programme
   (:mod:`bpseg_pgm.inference.segmental`); k given, or chosen against the same document in
   shuffled order (the last run must explain more than a run explains in noise);
3. beliefs: exact marginals of the left-to-right chain whose labels are the k runs, with a
   Gaussian unary -w_i |F_i - mu_j|^2 / (2 s^2) (mu_j the run's mean, s^2 the scatter per
   unit) — forward-backward, i.e. BP on a tree (:func:`~bpseg_pgm.inference.chain.contiguous_bp`).
   Labels are the programme's (exact MAP) runs; the beliefs say how sure each boundary is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .inference.chain import contiguous_bp
from .inference.segmental import segmental_labels
from .potentials.context import persistence_halflife, smoothed_embeddings

#: Smoothing width as a fraction of the persistence half-life (chosen on Choi set 1, set-1
#: interleaved documents and QMSum train: 0 / 0.3 / 0.5 gave ARI 0.958 / 0.953 / 0.914 on Choi
#: and 0.475 / 0.514 / 0.536 on QMSum with the true k; see benchmarks/RESULTS.md §4).
SMOOTHING = 0.3
#: The most runs ``n_segments="auto"`` considers (and at most half the units).
AUTO_MAX_RUNS = 30


@dataclass
class ContiguousFit:
    labels: np.ndarray
    beliefs: np.ndarray
    centers: np.ndarray
    log_partition: float
    smoothing_width: float


def fit_contiguous(Xn: np.ndarray, weights: np.ndarray, n_segments, random_state=0) -> ContiguousFit:
    """Contiguous segmentation of the unit rows Xn (n, d) with unit weights (n,)."""
    n = Xn.shape[0]
    width = SMOOTHING * persistence_halflife(Xn)
    F = smoothed_embeddings(Xn, width, weights)
    if isinstance(n_segments, str):
        perm = np.random.default_rng(random_state).permutation(n)
        shuffled = (smoothed_embeddings(Xn[perm], width, weights[perm]), weights[perm])
        labels, scatter = segmental_labels(F, weights, None, max(1, min(AUTO_MAX_RUNS, n // 2)), shuffled)
    else:
        labels, scatter = segmental_labels(F, weights, int(n_segments))
    k = int(labels.max()) + 1
    mu = np.stack([np.average(F[labels == j], axis=0, weights=weights[labels == j]) for j in range(k)])
    sq = (np.einsum("ij,ij->i", F, F)[:, None] - 2.0 * F @ mu.T + np.einsum("ij,ij->i", mu, mu)[None, :])
    s2 = max(scatter, 1e-6)
    res = contiguous_bp(-weights[:, None] * np.maximum(sq, 0.0) / (2.0 * s2), 0.0)
    centers = mu / np.maximum(np.linalg.norm(mu, axis=1, keepdims=True), 1e-12)
    return ContiguousFit(labels, res.beliefs, centers, res.log_partition, width)
