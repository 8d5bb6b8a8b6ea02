"""Reading-order context: each sentence's vector mixed with its two neighbours' before scoring.

A single sentence is a noisy sample of its topic, and in most documents its neighbours are on
the same topic. The potentials can therefore see

    R~_i = normalise(R_i + c (R_{i-1} + R_{i+1}))          (R unit vectors, c = ``weight``)

in place of R_i: the unary term becomes cos(R~_i, C_x) and the pairwise term compares R~_i
with R~_j. c = 0 is the paper's model (each sentence alone).

Not every text has topics that persist from one sentence to the next: a prompt can alternate
("The sun was shining. I'll play tennis tomorrow. Thunder rumbled. ..."), and there mixing
would blur exactly the sentences BP-Seg should tell apart. :func:`topic_persistence`
measures it: the mean cosine of adjacent sentences minus the mean cosine of all pairs (on
Choi set 1 it is 0.16 or more, on set-1 interleaved documents 0.055 or more, on the paper's
13-sentence example -0.006 and on the README's alternating prompt -0.08).
:func:`adaptive_context` scales the weight by it, from 0 at no persistence to the full weight
at ``PERSISTENCE_FULL``.
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.policy import DEFAULT_POLICY
from bpseg_pgm.utils.validation import check_nonnegative, normalize_rows

from .base import mean_pair_cosine

#: Topic persistence at which adaptive context reaches its full weight (the shipped
#: ``Policy.context_persistence_full``).
PERSISTENCE_FULL = DEFAULT_POLICY.context_persistence_full


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
