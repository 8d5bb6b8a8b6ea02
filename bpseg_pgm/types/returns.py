"""What the returns test found (:func:`~bpseg_pgm.decisions.grouping.detect_returns`): a leaf result type, kept on
the grouping's fit (``RunTopicsFit.returns``)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Returns"]


@dataclass(frozen=True)
class Returns:
    """What the returns test found.

    ``silhouette``: the best silhouette over the runs' linkage cuts (nan when no cut was scored: too few runs, too
    many, or no cut with an exact number of topics); ``n_topics``: the number of topics of that cut (0 when none);
    ``threshold``: a similarity at which average linkage gives exactly that cut (midway between its merge heights);
    ``detected``: whether the decision layer takes the cut for topics that return (its silhouette reached
    ``Policy.returns_silhouette``).
    """

    silhouette: float
    n_topics: int
    threshold: float
    detected: bool
