"""Segmentation metrics: clustering scores (ARI, NMI, AMI) and boundary scores (Pk, WindowDiff).

ARI/NMI are what the BP-Seg paper reports, because they accept non-contiguous outputs.
Pk and WindowDiff are the usual contiguous-segmentation scores; they are computed on the
boundary sequence read off the label sequence (a boundary between sentences i and i+1
wherever the label changes), so a non-contiguous output gets a boundary at every label change.
Window convention (standard, Beeferman et al. 1999): k = half the mean gold segment length,
rounded half up, clipped to [1, n - 1]; the gold segment count is the number of label runs.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.metrics import (
    adjusted_mutual_info_score,
    adjusted_rand_score,
    normalized_mutual_info_score,
)

__all__ = ["METRICS", "boundaries", "evaluate", "window_size"]

#: Keys of :func:`evaluate`'s result, in report order; Pk and WindowDiff are errors (lower is better).
METRICS: tuple[str, ...] = ("ari", "nmi", "ami", "pk", "windowdiff")


def _as_labels(labels, name: str) -> np.ndarray:
    arr = np.asarray(labels)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D label sequence, got shape {arr.shape}")
    return arr


def boundaries(labels) -> str:
    """Boundary string of length n-1: '1' between i and i+1 where the label changes, else '0'."""
    arr = _as_labels(labels, "labels")
    return "".join("1" if change else "0" for change in arr[1:] != arr[:-1])


def window_size(gold_labels) -> int:
    """Pk/WindowDiff window: half the mean gold segment length (rounded half up), in [1, n-1]."""
    arr = _as_labels(gold_labels, "gold_labels")
    n = len(arr)
    if n < 2:
        raise ValueError("a window needs at least 2 sentences")
    n_runs = 1 + int(np.count_nonzero(arr[1:] != arr[:-1]))
    k = math.floor(n / (2 * n_runs) + 0.5)
    return min(max(k, 1), n - 1)


def evaluate(gold_labels, pred_labels) -> dict[str, float]:
    """Score a predicted labelling against the gold one.

    Returns ``{"ari", "nmi", "ami", "pk", "windowdiff"}`` (NMI with scikit-learn's default
    arithmetic normalisation). Pk and WindowDiff are NaN for a single-sentence document.
    Raises ValueError on empty or unequal-length inputs.
    """
    gold = _as_labels(gold_labels, "gold_labels")
    pred = _as_labels(pred_labels, "pred_labels")
    if len(gold) == 0:
        raise ValueError("cannot evaluate an empty document")
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} labels but prediction has {len(pred)}")
    scores = {
        "ari": float(adjusted_rand_score(gold, pred)),
        "nmi": float(normalized_mutual_info_score(gold, pred)),
        "ami": float(adjusted_mutual_info_score(gold, pred)),
    }
    if len(gold) < 2:
        scores["pk"] = scores["windowdiff"] = float("nan")
        return scores
    k = window_size(gold)
    ref, hyp = boundaries(gold), boundaries(pred)
    from nltk.metrics.segmentation import pk, windowdiff  # nltk takes 0.7 s to import: only here

    scores["pk"] = float(pk(ref, hyp, k=k))
    scores["windowdiff"] = float(windowdiff(ref, hyp, k))
    return scores
