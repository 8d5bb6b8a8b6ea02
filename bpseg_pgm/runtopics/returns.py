"""A document-level test for returns: do the runs fall into clear groups, whatever their reading order?

Average linkage of the runs' centred similarity (:meth:`.summary.RunSummary.similarity`) is cut at every
number of topics k = 2 .. m - 1, and each cut is scored by its silhouette (scikit-learn, on the distance
1 - similarity). A best silhouette of at least ``min_silhouette`` says the runs form well separated groups:
topics that come back. On the development sets, documents dealt in turn from two to four sources average
0.34-0.43, the runs of one real document (meetings, PEP sections) 0.19-0.23.

When returns are found, :func:`~.fit.fit_run_topics` starts belief propagation from the best cut, with
the attraction threshold at that cut's height and a weaker reading-order prior, so that BP keeps the
groups the test found instead of pulling neighbouring runs back together (measured in
``docs/policy.md``: ``returns_*``).

Limits: silhouette scores a topic of one run 0, so with few runs it prefers merging them; below
``Policy.returns_min_runs`` runs the test is not run, nor above ``Policy.returns_max_runs`` (where it was not
measured). And in a document that one topic dominates, two unrelated topics can look alike once centred
(both lie away from the dominant one) and be grouped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform
from sklearn.metrics import silhouette_score

from bpseg_pgm.policy import DEFAULT_POLICY

__all__ = ["Returns", "detect_returns"]


@dataclass(frozen=True)
class Returns:
    """What :func:`detect_returns` found.

    ``silhouette``: the best silhouette over the cuts (nan when no cut was scored: fewer than ``min_runs``
    runs, or more than ``max_runs``); ``n_topics``: the number of topics of that cut (0 when none);
    ``threshold``: a similarity at which average linkage gives exactly that cut (midway between its merge
    heights);
    ``detected``: ``silhouette >= min_silhouette``.
    """

    silhouette: float
    n_topics: int
    threshold: float
    detected: bool


def detect_returns(
    similarity: np.ndarray,
    *,
    min_silhouette: float = DEFAULT_POLICY.returns_silhouette,
    min_runs: int = DEFAULT_POLICY.returns_min_runs,
    max_runs: int = DEFAULT_POLICY.returns_max_runs,
) -> Returns:
    """Score the average-linkage cuts of the runs' ``similarity`` (m, m) by silhouette; see the module docstring."""
    sim = np.asarray(similarity, dtype=np.float64)
    m = sim.shape[0]
    if m < max(min_runs, 3) or m > max_runs:
        return Returns(float("nan"), 0, float("nan"), False)
    dist = np.clip(1.0 - sim, 0.0, 2.0)
    dist = (dist + dist.T) / 2.0
    np.fill_diagonal(dist, 0.0)
    tree = linkage(squareform(dist, checks=False), method="average")
    best_score, best_k = -np.inf, 0
    for k in range(2, m):
        labels = fcluster(tree, k, criterion="maxclust")
        if np.unique(labels).size != k:  # tied heights: no cut with exactly k topics
            continue
        score = float(silhouette_score(dist, labels, metric="precomputed"))
        if score > best_score:
            best_score, best_k = score, k
    if best_k == 0:
        return Returns(float("nan"), 0, float("nan"), False)
    heights = tree[:, 2]  # ascending; after m - k merges there are k topics
    cut = (heights[m - best_k - 1] + heights[m - best_k]) / 2.0
    return Returns(best_score, best_k, float(np.clip(1.0 - cut, -1.0, 1.0)), bool(best_score >= min_silhouette))
