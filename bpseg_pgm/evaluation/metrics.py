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

from bpseg_pgm.utils.labels import n_runs as _n_runs
from bpseg_pgm.utils.labels import run_bounds, run_starts

__all__ = [
    "METRICS", "SEGMENT_STATS", "boundaries", "evaluate", "evaluate_partial", "n_runs", "returning_labels",
    "returning_purity", "spans_joined", "window_size",
]  # fmt: skip

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
    marks = np.zeros(max(len(arr) - 1, 0), dtype=bool)
    marks[run_starts(arr)[1:] - 1] = True
    return "".join("1" if change else "0" for change in marks)


def window_size(gold_labels) -> int:
    """Pk/WindowDiff window: half the mean gold segment length (rounded half up), in [1, n-1]."""
    arr = _as_labels(gold_labels, "gold_labels")
    n = len(arr)
    if n < 2:
        raise ValueError("a window needs at least 2 sentences")
    k = math.floor(n / (2 * _n_runs(arr)) + 0.5)
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


#: Keys :func:`evaluate_partial` adds to :func:`evaluate`'s: how the labels are laid out.
SEGMENT_STATS: tuple[str, ...] = (
    "runs_per_segment", "segments_found", "gold_segments", "returning_topics", "purity_returning", "spans_joined",
)  # fmt: skip


def n_runs(labels) -> int:
    """Number of maximal runs of equal labels (contiguous pieces) in a 1-D sequence
    (:func:`bpseg_pgm.utils.labels.n_runs`, with the check that the sequence is 1-D)."""
    return _n_runs(_as_labels(labels, "labels"))


def _label_spans(labels: np.ndarray) -> dict:
    """Each label's spans: label -> list of (start, end) of its maximal runs, labels in order of first
    appearance. A label with two or more spans returns (comes back after another label)."""
    bounds = run_bounds(labels)
    spans: dict = {}
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        spans.setdefault(labels[a].item(), []).append((a, b))
    return spans


def _returning_spans(labels: np.ndarray) -> list[list[tuple[int, int]]]:
    """The spans of every returning label (two or more spans), in order of first appearance."""
    return [s for s in _label_spans(labels).values() if len(s) >= 2]


def returning_labels(gold_labels) -> list:
    """The gold labels that return: those that occur in two or more runs, i.e. come back after another
    label, in order of first appearance. ``None`` entries (unlabelled units) are dropped first, so a
    topic interrupted only by unlabelled units does not return."""
    kept = [g for g in gold_labels if g is not None]
    codes: dict = {}
    gold = np.array([codes.setdefault(g, len(codes)) for g in kept], dtype=np.int64)
    names = list(codes)
    return [names[code] for code, spans in _label_spans(gold).items() if len(spans) >= 2]


def returning_purity(gold_labels, pred_labels) -> float:
    """Mean, over gold labels that occur in two or more runs (returning topics), of the largest
    share of that label's units under one predicted label; NaN when no gold label returns."""
    gold, pred = _pair(gold_labels, pred_labels)
    shares = []
    for spans in _returning_spans(gold):
        units = np.concatenate([pred[a:b] for a, b in spans])
        _, counts = np.unique(units, return_counts=True)
        shares.append(counts.max() / units.size)
    return float(np.mean(shares)) if shares else float("nan")


def spans_joined(gold_labels, pred_labels) -> float:
    """Fraction of the returning gold topics whose spans all end under one predicted label; NaN when
    no gold label returns.

    A returning topic is a gold label with two or more runs (spans: maximal runs of that label,
    separated by other gold labels). Each span's *majority* predicted labels are those that cover the
    most of its units (several on a tie). The topic's spans are *joined* when one predicted label is a
    majority label of every one of its spans: a reader who follows the predicted labels finds the
    topic again where it returns. The fraction is over the topics of this document; a set-level
    figure should pool the topics of all documents (``bpseg bench corpus`` does: joined topics over
    returning topics), since documents hold different numbers of them. Like purity, one label for
    everything joins every topic: read it beside ARI.

    Examples
    --------
    >>> spans_joined([0, 0, 1, 1, 0, 0], [5, 5, 6, 6, 5, 7])  # spans of topic 0: majority 5 and {5, 7}
    1.0
    >>> spans_joined([0, 0, 1, 1, 0, 0], [5, 5, 6, 6, 7, 7])
    0.0
    """
    gold, pred = _pair(gold_labels, pred_labels)
    joined = []
    for spans in _returning_spans(gold):
        common = None
        for a, b in spans:
            labels, counts = np.unique(pred[a:b], return_counts=True)
            majority = set(labels[counts == counts.max()].tolist())
            common = majority if common is None else common & majority
        joined.append(bool(common))
    return float(np.mean(joined)) if joined else float("nan")


def _pair(gold_labels, pred_labels) -> tuple[np.ndarray, np.ndarray]:
    gold = _as_labels(gold_labels, "gold_labels")
    pred = _as_labels(pred_labels, "pred_labels")
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} labels but prediction has {len(pred)}")
    return gold, pred


def evaluate_partial(gold_labels, pred_labels) -> dict[str, float]:
    """Scores when some gold labels are None (units that belong to no gold segment).

    The metrics of :func:`evaluate` are computed on the labelled units only (the unlabelled
    ones are removed from both sequences before Pk's boundaries are read), plus
    ``runs_per_segment`` (predicted runs / gold runs, on the labelled units),
    ``segments_found`` (distinct predicted labels over all units), ``gold_segments``
    (distinct gold labels), ``returning_topics`` (how many gold labels return after another,
    :func:`returning_labels`), ``purity_returning`` (:func:`returning_purity`) and ``spans_joined``
    (:func:`spans_joined`); the last two are NaN when no gold label returns.
    """
    gold_all = list(gold_labels)
    pred = _as_labels(pred_labels, "pred_labels")
    if len(gold_all) != len(pred):
        raise ValueError(f"gold has {len(gold_all)} labels but prediction has {len(pred)}")
    mask = np.array([g is not None for g in gold_all], dtype=bool)
    if not mask.any():
        raise ValueError("no unit carries a gold label")
    codes: dict = {}
    gold = np.array([codes.setdefault(g, len(codes)) for g in gold_all if g is not None], dtype=np.int64)
    sub = pred[mask]
    scores = evaluate(gold, sub)
    scores["runs_per_segment"] = n_runs(sub) / n_runs(gold)
    scores["segments_found"] = float(len(np.unique(pred)))
    scores["gold_segments"] = float(len(codes))
    scores["returning_topics"] = float(len(returning_labels(gold)))
    scores["purity_returning"] = returning_purity(gold, sub)
    scores["spans_joined"] = spans_joined(gold, sub)
    return scores
