"""A similarity-weighted Potts term centred on the document's mean similarity (the default model).

The paper's pairwise factor for different labels, exp(lam * (cos - 1)), is smallest for *unrelated* sentences, so
it pushes them into one segment with a pull that grows with the number of neighbours. Here different labels cost

    log w_ij = -lam * decay_ij * (cos(R_i, R_j) - mu) / D

with mu the document's mean similarity over all pairs of sentences (``center="all_pairs"``, the default: pairs
more similar than a random pair attract, less similar ones repel) or the decay-weighted mean over the graph's edges
(``center="edges"``, which on long documents made same-topic pairs repel), decay_ij = exp(-|i-j|^2 / sigma) (or 1)
and D the mean total decay weight a sentence receives (the pull on one sentence stays O(lam) at any length). The
unary term is ``unary_scale`` * cos(R_i, C_x). Why, measured: docs/research/tuning-defaults.md and
docs/research/ari-vs-length.md.
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.utils.validation import check_nonnegative, check_sigma

from .base import Potentials, distance_decay, edge_cosine, mean_pair_cosine
from .registry import register_potentials


#: The default model. Its values were chosen on Choi set 1 and set-1 interleaved documents only
#: (docs/research/tuning-defaults.md).
@register_potentials("centered", defaults={"lam": 150.0, "sigma": 200.0, "em_rounds": 5, "context": 0.2})
class CenteredPottsPotentials(Potentials):
    """Centred, length-normalised, optionally distance-decayed Potts potentials."""

    #: the runs model under these potentials cuts by the embeddings' scatter, as it was measured
    run_cost = "embeddings"

    def __init__(
        self,
        lam: float = 150.0,
        sigma: float | None = 200.0,
        unary_scale: float = 5.0,
        normalize: bool = True,
        center: str = "all_pairs",
    ):
        if center not in ("all_pairs", "edges"):
            raise ValueError(f"center must be 'all_pairs' or 'edges', got {center!r}")
        self.center = center
        self.lam = check_nonnegative(lam, "lam")
        self.sigma = check_sigma(sigma)
        self.unary_scale = check_nonnegative(unary_scale, "unary_scale")
        self.normalize = bool(normalize)

    def log_unary(self, X, C):
        return self.unary_scale * (X @ C.T)

    def log_coupling(self, X, rows, cols):
        rows = np.asarray(rows)
        cols = np.asarray(cols)
        if rows.size == 0:
            return np.zeros(0)
        cos = edge_cosine(X, rows, cols)
        decay = np.broadcast_to(distance_decay(rows, cols, self.sigma), cos.shape)
        mu = (
            mean_pair_cosine(X)
            if self.center == "all_pairs"
            else (float(np.average(cos, weights=decay)) if decay.sum() > 0 else float(cos.mean()))
        )
        scale = 1.0
        if self.normalize:
            n = X.shape[0]
            degree = np.bincount(rows, weights=decay, minlength=n) + np.bincount(cols, weights=decay, minlength=n)
            scale = float(degree.mean()) or 1.0
        return -self.lam * decay * (cos - mu) / scale
