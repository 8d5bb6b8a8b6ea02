"""The cost of a run (segment): its weighted scatter around its mean, for every run at once.

    cost(a, b) = sum_{a <= i < b} w_i |F_i - mu_ab|^2,   mu_ab = sum w_i F_i / sum w_i

(the linear-kernel change-point cost; Arlot, Celisse & Harchaoui 2019, with unit weights). :func:`cost_matrix`
gives it for every pair (a, b) from prefix sums, :func:`segment_costs` the best total cost with 1..K runs, exactly,
by the segmental dynamic programme in O(K n^2). :class:`EmbeddingsCost` is the registered run cost
``"embeddings"``, the default.
"""

from __future__ import annotations

import numpy as np

from .cost_registry import RunCost, register_cost
from .memory import check_runs_memory

__all__ = ["EmbeddingsCost", "cost_matrix", "segment_costs"]


def cost_matrix(F: np.ndarray, weights: np.ndarray, positions: np.ndarray | None = None) -> np.ndarray:
    """(m+1, m+1) matrix C[i, j] = cost of the segment positions[i]..positions[j]-1 (inf where j <= i).

    ``positions``: sorted candidate boundaries 0 = p_0 < ... < p_m = n
    (:func:`~bpseg_pgm.runs.candidates.candidate_positions`); None is every position (m = n).
    """
    F = np.asarray(F, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    n = F.shape[0]
    if positions is None:
        positions = np.arange(n + 1)
    positions = np.asarray(positions, dtype=np.int64)
    m = positions.shape[0] - 1
    check_runs_memory(m, programme_only=True)  # before any (m+1)^2 allocation
    P = np.vstack([np.zeros(F.shape[1]), np.cumsum(F * w[:, None], axis=0)])[positions]
    W = np.concatenate([[0.0], np.cumsum(w)])[positions]
    Q = np.concatenate([[0.0], np.cumsum(w * np.einsum("ij,ij->i", F, F))])[positions]
    G = P @ P.T
    g = np.diag(G).copy()
    S2 = g[None, :] + g[:, None] - 2.0 * G  # |P_b - P_a|^2
    Wab = W[None, :] - W[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        C = (Q[None, :] - Q[:, None]) - np.where(Wab > 0, S2 / np.where(Wab > 0, Wab, 1.0), 0.0)
    C = np.maximum(C, 0.0)  # rounding can leave -1e-13 on one-unit segments
    C[np.tril_indices(m + 1)] = np.inf
    return C


@register_cost
class EmbeddingsCost(RunCost):
    """The default run cost, ``"embeddings"``: the run's weighted scatter of the features around its weighted
    mean (module docstring), from :func:`cost_matrix` (the same numbers, bit for bit)."""

    name = "embeddings"

    def matrix(self, positions: np.ndarray | None = None) -> np.ndarray:
        return cost_matrix(self.features, self.weights, positions)

    def error(self, start: int, end: int) -> float:
        return float(cost_matrix(self.features[start:end], self.weights[start:end], np.array([0, end - start]))[0, 1])


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
    for k in range(1, min(K, n) + 1):
        # k runs end at position k or later, and the first k - 1 start at k - 1 or earlier: the rows and
        # columns before those are inf (the same minima and arg-mins as over the whole matrix, in
        # about a third of the work when K nears n)
        M = D[k - 1, k - 1 :, None] + C[k - 1 :, k:]
        best = np.argmin(M, axis=0)
        D[k, k:] = M[best, np.arange(n + 1 - k)]
        arg[k, k:] = np.where(np.isfinite(D[k, k:]), best + (k - 1), 0)
    return D[:, n], arg
