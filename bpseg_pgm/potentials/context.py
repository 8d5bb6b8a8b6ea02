"""Reading-order context: each sentence's vector mixed with its two neighbours' before scoring.

The potentials can see R~_i = normalise(R_i + c (R_{i-1} + R_{i+1})) in place of R_i (c = ``weight``; 0 is the paper's
model): a single sentence is a noisy sample of its topic, and its neighbours are usually on the same topic. Not every
text has topics that persist from one sentence to the next (a prompt can alternate), so :func:`adaptive_context`
scales the weight by :func:`topic_persistence` (the mean cosine of adjacent sentences minus the mean cosine of all
pairs), from 0 at no persistence to the full weight at ``full`` (``Policy.context_persistence_full``).
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.utils.validation import check_nonnegative, normalize_rows

from .base import mean_pair_cosine


def context_embeddings(X: np.ndarray, weight: float) -> np.ndarray:
    """Unit rows R~_i = normalise(R_i + weight (R_{i-1} + R_{i+1})) of the unit-normalised X."""
    weight = check_nonnegative(weight, "context")
    R = normalize_rows(np.asarray(X, dtype=np.float64))
    if weight == 0 or R.shape[0] < 2:
        return R
    out = R.copy()
    out[1:] += weight * R[:-1]
    out[:-1] += weight * R[1:]
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    # neighbours that cancel a sentence exactly (measure zero) leave it as it was
    degenerate = norms[:, 0] <= 1e-12
    out[degenerate] = R[degenerate]
    norms[degenerate] = 1.0
    return out / norms


def topic_persistence(X: np.ndarray) -> float:
    """Mean cosine of adjacent rows minus the mean cosine over all pairs (0 below 3 rows)."""
    R = normalize_rows(np.asarray(X, dtype=np.float64))
    if R.shape[0] < 3:
        return 0.0
    adjacent = float(np.einsum("ij,ij->i", R[:-1], R[1:]).mean())
    return adjacent - mean_pair_cosine(R)


def adaptive_context(X: np.ndarray, weight: float, full: float) -> float:
    """``weight`` scaled by topic persistence: 0 at or below 0, full from ``full``
    (``Policy.context_persistence_full``)."""
    weight = check_nonnegative(weight, "context")
    return weight * float(np.clip(topic_persistence(X) / full, 0.0, 1.0))
