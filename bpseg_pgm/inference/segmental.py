"""Contiguous segmentation by an exact segmental dynamic programme, with k chosen against noise.

The cost of a segment is its weighted scatter around its mean direction,

    cost(a, b) = sum_{a <= i < b} w_i |F_i - mu_ab|^2,   mu_ab = sum w_i F_i / sum w_i,

(the linear-kernel change-point cost; Arlot, Celisse & Harchaoui 2019, with unit weights), and
:func:`segment_costs` gives the best total cost with 1..K segments, exactly, in O(K n^2) from
prefix sums (each segment cost is O(1) from a Gram matrix of the prefix sums).

Choosing k (:func:`noise_calibrated_k`): more segments always lower the cost, also on text
with no structure at all. So the document is compared with itself shuffled in blocks
(:func:`block_permutation`: same units, same weights, the local persistence of neighbouring
units kept, no topic structure beyond a block): k maximises the reduction the real order gets
from k segments minus the reduction the shuffled order gets, i.e. the last segment added
explains more than a segment explains in the null document. The shuffle is seeded, so the
choice is deterministic.
"""

from __future__ import annotations

import numpy as np

__all__ = ["block_permutation", "cost_matrix", "segment_costs", "backtrack", "noise_calibrated_k", "segmental_labels"]


def block_permutation(n: int, block: float, random_state=0) -> np.ndarray:
    """A permutation of range(n) that shuffles consecutive blocks of ``round(block)`` (>= 1) units."""
    size = max(1, int(round(block)))
    starts = np.arange(0, n, size)
    order = np.random.default_rng(random_state).permutation(len(starts))
    return np.concatenate([np.arange(starts[o], min(starts[o] + size, n)) for o in order])


def cost_matrix(F: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(n+1, n+1) matrix C[a, b] = cost of the segment a..b-1 (inf where b <= a)."""
    F = np.asarray(F, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    n = F.shape[0]
    P = np.vstack([np.zeros(F.shape[1]), np.cumsum(F * w[:, None], axis=0)])
    W = np.concatenate([[0.0], np.cumsum(w)])
    Q = np.concatenate([[0.0], np.cumsum(w * np.einsum("ij,ij->i", F, F))])
    G = P @ P.T
    g = np.diag(G).copy()
    S2 = g[None, :] + g[:, None] - 2.0 * G  # |P_b - P_a|^2
    Wab = W[None, :] - W[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        C = (Q[None, :] - Q[:, None]) - np.where(Wab > 0, S2 / np.where(Wab > 0, Wab, 1.0), 0.0)
    C = np.maximum(C, 0.0)  # rounding can leave -1e-13 on one-unit segments
    C[np.tril_indices(n + 1)] = np.inf
    return C


def segment_costs(C: np.ndarray, max_segments: int, min_size: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Best total cost with exactly 1..K segments (index k, inf where impossible) and the
    arg-min table for :func:`backtrack`. Segments hold at least ``min_size`` units."""
    n = C.shape[0] - 1
    K = int(max_segments)
    if min_size > 1:
        C = C.copy()
        for d in range(1, min_size):
            idx = np.arange(n + 1 - d)
            C[idx, idx + d] = np.inf
    D = np.full((K + 1, n + 1), np.inf)
    D[0, 0] = 0.0
    arg = np.zeros((K + 1, n + 1), dtype=np.int64)
    cols = np.arange(n + 1)
    for k in range(1, K + 1):
        M = D[k - 1][:, None] + C
        arg[k] = np.argmin(M, axis=0)
        D[k] = M[arg[k], cols]
    return D[:, n], arg


def backtrack(arg: np.ndarray, k: int, n: int) -> np.ndarray:
    """Labels 0..k-1 (one contiguous run each) of the best segmentation into k segments."""
    bounds = [n]
    for kk in range(k, 0, -1):
        bounds.append(int(arg[kk, bounds[-1]]))
    bounds = bounds[::-1]
    labels = np.zeros(n, dtype=np.int64)
    for j, start in enumerate(bounds[1:-1], start=1):
        labels[start:] = j
    return labels


def noise_calibrated_k(costs: np.ndarray, shuffled_costs: np.ndarray) -> int:
    """argmax_k of (cost(1) - cost(k)) - (shuffled cost(1) - shuffled cost(k)), k >= 1."""
    real = costs[1] - costs[1:]
    noise = shuffled_costs[1] - shuffled_costs[1:]
    gain = np.where(np.isfinite(real) & np.isfinite(noise), real - noise, -np.inf)
    return 1 + int(np.argmax(gain))


def segmental_labels(
    F: np.ndarray,
    weights: np.ndarray,
    n_segments: int | None = None,
    max_segments: int = 20,
    shuffled: np.ndarray | None = None,
    min_size: int = 1,
) -> tuple[np.ndarray, float]:
    """Exact best contiguous segmentation of the rows of F into ``n_segments`` segments, or into
    the noise-calibrated number when ``n_segments`` is None (``shuffled`` = the features of the
    same units in shuffled order with their weights in the same order, as a pair, or a list of
    such pairs whose best costs are averaged).

    Returns the labels (0..k-1 in reading order) and the mean scatter per unit of weight.
    """
    n = F.shape[0]
    K = max(1, min(int(max_segments if n_segments is None else n_segments), n // max(min_size, 1)))
    costs, arg = segment_costs(cost_matrix(F, weights), K, min_size)
    if n_segments is None and K > 1:
        if not shuffled:
            raise ValueError("choosing k needs the shuffled features")
        if isinstance(shuffled, tuple):
            shuffled = [shuffled]
        s_costs = np.mean([segment_costs(cost_matrix(Fs, ws), K, min_size)[0] for Fs, ws in shuffled], axis=0)
        k = noise_calibrated_k(costs, s_costs)
    else:
        k = K
    labels = backtrack(arg, k, n)
    return labels, float(costs[k] / max(np.sum(weights), 1e-12))
