"""The exact best split into runs: the segmental programme read back, k given or noise-calibrated.

:func:`segmental_labels` runs the programme of :mod:`bpseg_pgm.runs.costs` and reads the best
split into k runs back (:func:`backtrack`); with k unknown it takes the noise-calibrated k of
:mod:`bpseg_pgm.runs.null`.
"""

from __future__ import annotations

import numpy as np

from .costs import cost_matrix, segment_costs
from .null import noise_calibrated_k

__all__ = ["backtrack", "segmental_labels"]


def backtrack(arg: np.ndarray, k: int, n: int) -> np.ndarray:
    """Labels 0..k-1 (one contiguous run each) of the best segmentation into k segments."""
    bounds = [n]
    for kk in range(k, 0, -1):
        bounds.append(int(arg[kk, bounds[-1]]))
    bounds = bounds[::-1]
    labels = np.zeros(n, dtype=np.int64)
    for j, start in enumerate(bounds[1:-1], start=1):
        labels[start:] = j
    return labels


def segmental_labels(
    F: np.ndarray,
    weights: np.ndarray,
    n_segments: int | None = None,
    max_segments: int = 20,
    shuffled: np.ndarray | None = None,
    min_size: int = 1,
) -> tuple[np.ndarray, float]:
    """Exact best contiguous segmentation of the rows of F into ``n_segments`` segments, or into
    the noise-calibrated number when ``n_segments`` is None (``shuffled`` = the features of the
    same units in shuffled order with their weights in the same order, as a pair, or a list of
    such pairs whose best costs are averaged).

    Returns the labels (0..k-1 in reading order) and the mean scatter per unit of weight.
    """
    n = F.shape[0]
    K = max(1, min(int(max_segments if n_segments is None else n_segments), n // max(min_size, 1)))
    costs, arg = segment_costs(cost_matrix(F, weights), K, min_size)
    if n_segments is None and K > 1:
        if not shuffled:
            raise ValueError("choosing k needs the shuffled features")
        if isinstance(shuffled, tuple):
            shuffled = [shuffled]
        s_costs = np.mean([segment_costs(cost_matrix(Fs, ws), K, min_size)[0] for Fs, ws in shuffled], axis=0)
        k = noise_calibrated_k(costs, s_costs)
    else:
        k = K
    labels = backtrack(arg, k, n)
    return labels, float(costs[k] / max(np.sum(weights), 1e-12))
