"""How well a confidence is calibrated against gold segments: which units are right, and the reliability table.

A unit is *right* when it lies in the gold segment matched to its label (labels matched to gold labels one to one
by maximum overlap; a unit whose label is matched to none is wrong). A confidence is calibrated when, among the
units of confidence about p, a fraction of about p is right: :func:`reliability_table` shows it bin by bin and
:func:`expected_calibration_error` sums the gaps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["ReliabilityBin", "expected_calibration_error", "matched_correct", "reliability_table"]


def matched_correct(labels: Sequence[int], gold: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Which units lie in the gold segment matched to their label, and which units carry a gold label.

    Parameters
    ----------
    labels : sequence of int, length n
        The predicted label (segment or topic) of each unit.
    gold : sequence, length n
        The gold label of each unit (any hashable values); None or a negative integer: the unit has no gold
        label (it is left out of the matching and of the scores).

    Returns
    -------
    correct : ndarray of bool, shape (n,)
        True where the unit's gold label is the one matched to its predicted label (False for unlabelled units).
    labelled : ndarray of bool, shape (n,)
        True where the unit carries a gold label: score ``correct[labelled]``.
    """
    pred = np.asarray(labels, dtype=np.int64).reshape(-1)
    gold = list(gold)
    if len(gold) != pred.shape[0]:
        raise ValueError(f"{pred.shape[0]} labels but {len(gold)} gold labels")
    if pred.size and pred.min() < 0:
        raise ValueError("labels must be >= 0")
    codes: dict = {}
    g = np.array(
        [
            -1 if x is None or (isinstance(x, (int, np.integer)) and x < 0) else codes.setdefault(x, len(codes))
            for x in gold
        ],
        dtype=np.int64,
    )
    labelled = g >= 0
    correct = np.zeros(pred.shape[0], dtype=bool)
    if not labelled.any():
        return correct, labelled
    _, p = np.unique(pred[labelled], return_inverse=True)
    table = np.zeros((int(p.max()) + 1, len(codes)), dtype=np.int64)
    np.add.at(table, (p, g[labelled]), 1)
    from scipy.optimize import linear_sum_assignment  # here: importing this module loads no scipy.optimize

    rows, cols = linear_sum_assignment(table, maximize=True)
    match = np.full(table.shape[0], -2, dtype=np.int64)
    match[rows] = cols
    correct[labelled] = match[p] == g[labelled]
    return correct, labelled


@dataclass(frozen=True)
class ReliabilityBin:
    """One bin of a reliability table: confidences in ``[low, high)`` (the last bin includes 1)."""

    low: float
    high: float
    count: int
    mean_confidence: float
    accuracy: float


def reliability_table(confidence: Sequence[float], correct: Sequence[bool], bins: int = 10) -> list[ReliabilityBin]:
    """The units binned by confidence (``bins`` equal-width bins of [0, 1]): each bin's size, mean confidence and
    accuracy (the fraction right).  Empty bins are left out."""
    conf, ok = _checked(confidence, correct, bins)
    idx = np.clip(np.floor(conf * bins).astype(np.int64), 0, bins - 1)
    out = []
    for b in range(bins):
        mask = idx == b
        if mask.any():
            out.append(
                ReliabilityBin(
                    b / bins, (b + 1) / bins, int(mask.sum()), float(conf[mask].mean()), float(ok[mask].mean())
                )
            )
    return out


def expected_calibration_error(confidence: Sequence[float], correct: Sequence[bool], bins: int = 10) -> float:
    """Expected calibration error: the gap between mean confidence and accuracy in each of ``bins`` equal-width
    bins, weighted by the bin's share of the units (0: calibrated; NaN for no unit)."""
    conf, _ = _checked(confidence, correct, bins)
    if conf.size == 0:
        return float("nan")
    return float(
        sum(b.count * abs(b.mean_confidence - b.accuracy) for b in reliability_table(confidence, correct, bins))
        / conf.size
    )


def _checked(confidence, correct, bins) -> tuple[np.ndarray, np.ndarray]:
    conf = np.asarray(confidence, dtype=float).reshape(-1)
    ok = np.asarray(correct, dtype=bool).reshape(-1)
    if conf.shape != ok.shape:
        raise ValueError(f"{conf.shape[0]} confidences but {ok.shape[0]} outcomes")
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"bins must be a positive integer, got {bins!r}")
    if not np.all(np.isfinite(conf)) or conf.size and (conf.min() < 0 or conf.max() > 1):
        raise ValueError("confidences must be finite numbers in [0, 1]")
    return conf, ok
