"""Returning topics joined across separate predicted runs, and the precision of the returns a method predicts.

:func:`~bpseg_pgm.evaluation.metrics.spans_joined` counts a returning gold topic joined when one predicted
label is a majority label of each of its spans, even when that label is one long predicted run over the gap
(the topic in between swallowed): a method that barely segments joins everything. The two scores here ask
for more, pair by pair:

* :func:`joined_across_runs` (recall): of the pairs of consecutive spans of a returning gold topic, those
  that share a majority predicted label *and* whose units under that label lie in different predicted runs
  (some other predicted label lies between them): the method left the topic and came back to it.
* :func:`return_precision`: of the pairs of consecutive predicted runs of one label (a predicted return),
  those whose runs share a majority gold label that also returns there (the gold has another label in the
  gap between the two runs).

Both return counts, ``(hits, pairs)``, so that a set-level figure pools the pairs of all documents (hits
over pairs), as documents hold different numbers of returns. A contiguous method, which never returns to a
label, scores 0 joined pairs and has no predicted pair. Units whose gold label is ``None`` (unlabelled) are
dropped from both sequences first, as :func:`~bpseg_pgm.evaluation.metrics.evaluate_partial` does, so a gold
topic interrupted only by unlabelled units does not return.
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.evaluation.metrics import _as_labels, _label_spans

__all__ = ["joined_across_runs", "return_precision"]


def _labelled(gold_labels, pred_labels) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes of the gold labels and of the predicted ones, on the units whose gold is not None."""
    gold = _as_labels(gold_labels, "gold_labels")
    pred = _as_labels(pred_labels, "pred_labels")
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} labels but prediction has {len(pred)}")
    mask = np.array([g is not None for g in gold.tolist()], dtype=bool)
    codes: dict = {}
    gold_codes = np.array([codes.setdefault(g, len(codes)) for g in gold[mask].tolist()], dtype=np.int64)
    pred_codes = np.unique(pred[mask], return_inverse=True)[1].reshape(-1) if mask.any() else np.zeros(0, np.int64)
    return gold_codes, pred_codes.astype(np.int64)


def _majority(values: np.ndarray) -> set[int]:
    """The labels that cover the most of ``values`` (several on a tie)."""
    labels, counts = np.unique(values, return_counts=True)
    return set(labels[counts == counts.max()].tolist())


def _in_separate_runs(pred: np.ndarray, label: int, first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Whether the units of span ``first`` under ``label`` and those of the later span ``second`` lie in different
    predicted runs: another label between the last of the first and the first of the second."""
    last = first[0] + int(np.flatnonzero(pred[first[0] : first[1]] == label)[-1])
    start = second[0] + int(np.flatnonzero(pred[second[0] : second[1]] == label)[0])
    return bool(np.any(pred[last + 1 : start] != label))


def joined_across_runs(gold_labels, pred_labels) -> tuple[int, int]:
    """Pairs of consecutive spans of the returning gold topics that the prediction joins across separate runs.

    A returning topic is a gold label with two or more spans (maximal runs of that label, separated by other
    gold labels); each pair of its consecutive spans (a, b) counts once. A span's *majority* predicted labels
    are those that cover the most of its units (several on a tie). The pair is *joined* when a majority label
    of a is one of b's and the units of a and of b under that label lie in different predicted runs: some other
    predicted label lies between the last of a's and the first of b's. One predicted run over a, the topic in
    between and b joins nothing, unlike :func:`~bpseg_pgm.evaluation.metrics.spans_joined`. Units whose gold
    is None are dropped from both sequences first.

    Parameters
    ----------
    gold_labels : sequence of hashable
        The gold label of each unit, or None for an unlabelled unit.
    pred_labels : sequence of hashable
        The predicted label of each unit, as long as ``gold_labels``.

    Returns
    -------
    joined : int
        The joined pairs.
    pairs : int
        The pairs of consecutive spans of returning gold topics (0 when no gold topic returns). A set-level
        figure pools both over documents: the sum of ``joined`` over the sum of ``pairs``.

    Raises
    ------
    ValueError
        If a sequence is not 1-D or their lengths differ.

    Examples
    --------
    >>> joined_across_runs([0, 0, 1, 1, 0, 0], [5, 5, 6, 6, 5, 5])  # left for 6, back to 5
    (1, 1)
    >>> joined_across_runs([0, 0, 1, 1, 0, 0], [5, 5, 5, 5, 5, 5])  # one run swallows topic 1
    (0, 1)
    >>> joined_across_runs([0, 0, 1, 1, 2, 2], [5, 5, 6, 6, 7, 7])  # no topic returns
    (0, 0)
    """
    gold, pred = _labelled(gold_labels, pred_labels)
    joined = pairs = 0
    for spans in _label_spans(gold).values():
        for a, b in zip(spans, spans[1:]):
            pairs += 1
            shared = _majority(pred[a[0] : a[1]]) & _majority(pred[b[0] : b[1]])
            joined += any(_in_separate_runs(pred, label, a, b) for label in sorted(shared))
    return joined, pairs


def return_precision(gold_labels, pred_labels) -> tuple[int, int]:
    """Pairs of consecutive predicted runs of one label whose return is a return of a gold topic.

    A predicted returning label is one with two or more predicted runs; each pair of its consecutive runs
    (r, s) is a predicted return and counts once. A run's *majority* gold labels are those that cover the most
    of its units (several on a tie). The pair is *correct* when a majority gold label g of r is one of s's and g
    returns there: some unit in the gap between r and s has a gold label other than g. A return that splits one
    gold topic around an intruding label, or that joins two different topics, is wrong. Units whose gold is
    None are dropped from both sequences first.

    Parameters
    ----------
    gold_labels : sequence of hashable
        The gold label of each unit, or None for an unlabelled unit.
    pred_labels : sequence of hashable
        The predicted label of each unit, as long as ``gold_labels``.

    Returns
    -------
    correct : int
        The correct predicted returns.
    pairs : int
        The predicted returns (0 when no predicted label returns: a contiguous prediction). A set-level figure
        pools both over documents: the sum of ``correct`` over the sum of ``pairs``.

    Raises
    ------
    ValueError
        If a sequence is not 1-D or their lengths differ.

    Examples
    --------
    >>> return_precision([0, 0, 1, 1, 0, 0], [5, 5, 6, 6, 5, 5])  # topic 0 returns, and so does label 5
    (1, 1)
    >>> return_precision([0, 0, 0, 0, 1, 1], [5, 5, 6, 5, 7, 7])  # topic 0 never left: a wrong return
    (0, 1)
    >>> return_precision([0, 0, 1, 1, 0, 0], [5, 5, 6, 6, 7, 7])  # no predicted return
    (0, 0)
    """
    gold, pred = _labelled(gold_labels, pred_labels)
    correct = pairs = 0
    for runs in _label_spans(pred).values():
        for r, s in zip(runs, runs[1:]):
            pairs += 1
            shared = _majority(gold[r[0] : r[1]]) & _majority(gold[s[0] : s[1]])
            correct += any(bool(np.any(gold[r[1] : s[0]] != g)) for g in sorted(shared))
    return correct, pairs
