"""Re-estimating the representatives from BP's beliefs (the M-step of ``BPSeg(em_rounds=...)``).

Each label's new representative is the belief-weighted mean direction of the sentences, m_x = sum_i b_i(x) R_i. A
label holding less than ``min_mass`` sentences of belief has emptied out and is dropped; labels whose
representatives point the same way (cosine at least ``merge_above``, complete linkage) are merged: else a long
topic can stay cut into several labels, the Potts term costing only at the boundaries between them.
"""

from __future__ import annotations

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage


def reestimate_centers(beliefs: np.ndarray, Xn: np.ndarray, min_mass: float, merge_above: float | None = None):
    """Unit representative vectors (k', d) from beliefs (n, k) over unit rows Xn (n, d); ``min_mass``: the
    belief a label must hold to be kept (``Policy.topic_min_mass``).

    Returns None when no label keeps enough mass (the caller keeps its previous centres).
    """
    M = beliefs.T @ Xn
    keep = (beliefs.sum(axis=0) >= min_mass) & (np.linalg.norm(M, axis=1) > 1e-12)
    if not keep.any():
        return None
    M = M[keep]
    if merge_above is not None and M.shape[0] > 1:
        M = np.asarray(merge_similar(M, merge_above))
    return M / np.linalg.norm(M, axis=1, keepdims=True)


def merge_similar(M: np.ndarray, merge_above: float) -> np.ndarray:
    """Sum the rows of M whose directions have cosine >= ``merge_above`` (complete linkage)."""
    if not -1.0 <= merge_above <= 1.0:
        raise ValueError(f"merge_above must lie in [-1, 1], got {merge_above!r}")
    U = M / np.linalg.norm(M, axis=1, keepdims=True)
    cos = np.clip(U @ U.T, -1.0, 1.0)
    dist = 1.0 - cos[np.triu_indices(len(U), 1)]
    groups = fcluster(linkage(dist, method="complete"), t=1.0 - merge_above, criterion="distance")
    order = np.unique(groups, return_index=True)[1]  # keep the labels' first-appearance order
    return np.stack([M[groups == g].sum(axis=0) for g in groups[np.sort(order)]])
