"""The runs' best linkage cut: do the runs fall into clear groups, whatever their reading order?

Average linkage of the runs' centred similarity is cut at every number of topics k = 2 .. m - 1, and each cut is
scored by its silhouette on the distance 1 - similarity: :func:`best_cut` computes the best one. A best silhouette of
at least ``Policy.returns_silhouette`` says the runs form well separated groups: topics that come back (the
decision layer's returns test, measured in docs/policy.md, ``returns_*``).

Limits: silhouette scores a topic of one run 0, so with few runs it prefers merging them; and in a document that
one topic dominates, two unrelated topics can look alike once centred and be grouped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform
from sklearn.metrics import silhouette_score

__all__ = ["Cut", "best_cut"]


@dataclass(frozen=True)
class Cut:
    """The runs' best linkage cut: its ``silhouette`` (nan when no cut was scored: fewer than 3 runs, or no cut
    with an exact number of topics), ``n_topics`` (0 when none) and ``threshold``, a similarity at which average
    linkage gives exactly that cut (midway between its merge heights)."""

    silhouette: float
    n_topics: int
    threshold: float


NO_CUT = Cut(float("nan"), 0, float("nan"))


def best_cut(similarity: np.ndarray) -> Cut:
    """Score the average-linkage cuts of the runs' ``similarity`` (m, m) by silhouette; see the module docstring."""
    sim = np.asarray(similarity, dtype=np.float64)
    m = sim.shape[0]
    if m < 3:
        return NO_CUT
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
        return NO_CUT
    heights = tree[:, 2]  # ascending; after m - k merges there are k topics
    cut = (heights[m - best_k - 1] + heights[m - best_k]) / 2.0
    return Cut(best_score, best_k, float(np.clip(1.0 - cut, -1.0, 1.0)))
