"""Runs of equal labels in reading order: one definition for the runs model, chunks, pruning and metrics."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["bounds_labels", "run_bounds", "run_starts", "label_runs", "index_runs", "n_runs"]


def run_bounds(labels) -> np.ndarray:
    """Boundaries of the runs of equal consecutive labels: ``[0, b_1, ..., len(labels)]``, so run r
    is ``labels[bounds[r]:bounds[r + 1]]``. An empty sequence gives ``[0]``."""
    labels = np.asarray(labels)
    if labels.size == 0:
        return np.zeros(1, dtype=np.int64)
    return np.concatenate([[0], np.flatnonzero(labels[1:] != labels[:-1]) + 1, [labels.size]]).astype(np.int64)


def bounds_labels(bounds) -> np.ndarray:
    """Labels 0..k-1 of the runs whose boundaries are ``bounds`` = ``[0, b_1, ..., n]`` (the inverse of
    :func:`run_bounds` up to renumbering): run r covers ``bounds[r]:bounds[r + 1]``."""
    bounds = np.asarray(bounds, dtype=np.int64)
    return np.repeat(np.arange(bounds.shape[0] - 1, dtype=np.int64), np.diff(bounds))


def run_starts(labels) -> np.ndarray:
    """First index of every run of equal consecutive labels."""
    return run_bounds(labels)[:-1]


def label_runs(labels) -> list[list[int]]:
    """The indices 0..n-1 cut into runs of equal consecutive labels."""
    b = run_bounds(labels)
    return [list(range(int(a), int(e))) for a, e in zip(b[:-1], b[1:])]


def index_runs(indices: Sequence[int]) -> list[list[int]]:
    """Increasing ``indices`` cut into runs of consecutive integers (the runs of one segment)."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(int(i))
        else:
            runs.append([int(i)])
    return runs


def n_runs(labels) -> int:
    """Number of runs of equal consecutive labels (0 for an empty sequence)."""
    return len(run_bounds(labels)) - 1
