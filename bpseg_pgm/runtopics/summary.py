"""What topics over runs sees of each run: its mean embedding, centred on the document, and its size."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bpseg_pgm.utils.labels import run_bounds
from bpseg_pgm.utils.validation import weighted_mean

__all__ = ["RunSummary", "summarize_runs"]


@dataclass(frozen=True)
class RunSummary:
    """``bounds`` (m + 1,): run r is units ``bounds[r]:bounds[r + 1]``; ``means`` (m, d): each run's weighted
    mean embedding minus the document's weighted mean, scaled to unit norm (a zero row where the run is the
    document's mean); ``sizes`` (m,): each run's total weight."""

    bounds: np.ndarray
    means: np.ndarray
    sizes: np.ndarray

    @property
    def n_runs(self) -> int:
        return int(self.sizes.size)

    def similarity(self) -> np.ndarray:
        """(m, m) centred cosine between the runs' means, in [-1, 1], 1 on the diagonal."""
        s = np.clip(self.means @ self.means.T, -1.0, 1.0)
        np.fill_diagonal(s, 1.0)
        return s


def summarize_runs(Xn: np.ndarray, weights: np.ndarray, run_labels) -> RunSummary:
    """Summaries of the runs of equal consecutive ``run_labels`` over unit rows ``Xn`` (n, d), weighted by
    ``weights`` (n,) >= 0 (a run of zero weight gets the plain mean of its rows)."""
    Xn = np.asarray(Xn, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    bounds = run_bounds(run_labels)
    if bounds.size < 2:
        raise ValueError("there are no runs to summarise (no units)")
    starts = bounds[:-1]  # runs are contiguous: one reduceat per sum
    sizes = np.add.reduceat(w, starts)
    doc = weighted_mean(Xn, w)
    means = np.add.reduceat(Xn * w[:, None], starts, axis=0) / np.where(sizes > 0, sizes, 1.0)[:, None]
    empty = sizes <= 0
    if empty.any():  # a run of zero weight: the plain mean of its rows
        means[empty] = np.add.reduceat(Xn, starts, axis=0)[empty] / np.diff(bounds)[empty, None]
    means -= doc
    norm = np.linalg.norm(means, axis=1, keepdims=True)
    means = np.divide(means, norm, out=np.zeros_like(means), where=norm > 1e-12)
    return RunSummary(bounds=bounds, means=means, sizes=sizes)
