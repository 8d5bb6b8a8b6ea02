"""How much the runs of a segmentation differ from their neighbours, per unit: the boundaries' effect sizes
(small on text whose topics shift gradually, about 1 on text made of unrelated passages)."""

from __future__ import annotations

import numpy as np

from bpseg_pgm.utils.labels import run_bounds

__all__ = ["boundary_effects", "median_boundary_effect"]


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
