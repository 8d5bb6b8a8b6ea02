"""More runs than candidates: the exact programme in windows, the runs shared out between them.

On a long document the programme is exact over binary segmentation's first ``Policy.max_candidates`` boundaries
(:mod:`bpseg_pgm.runs.candidates`), so it places at most that many runs. A document of thousands of short unrelated
passages needs more. Past the candidates the document is cut into windows of about ``Policy.window`` units
(:func:`~bpseg_pgm.runs.candidates.window_size`), each cut at the strongest of the candidates (binary segmentation's
boundaries, where runs differ most) between half a window and one and a half windows on (:func:`window_cuts`). The
exact programme over every position of each window gives its best cost with 1, 2, ... runs, and the runs are shared
out one at a time to the window whose next run lowers the cost most (:func:`share_runs`), so the split into k runs is
nested in the split into k+1 and each level's cost is known. Greedy sharing is exact when every window's cost falls
convexly with its runs. Each window costs O(K_w window^2) for its K_w runs, so the whole is linear in the length for a
given run density. Measured against binary segmentation alone: docs/research/long-abrupt-text.md.
"""

from __future__ import annotations

import heapq

import numpy as np

from .cost_registry import RunCost, run_cost_matrix
from .costs import EmbeddingsCost, segment_costs
from .levels import Levels

__all__ = ["share_runs", "window_cuts", "windowed_levels"]


def window_cuts(hierarchy: np.ndarray, n: int, window: int, starts: np.ndarray | None = None) -> np.ndarray:
    """Window bounds 0 = c_0 < ... < c_W = n. Each cut is the strongest of binary segmentation's boundaries
    (``hierarchy``, in the order found) between half a window and one and a half windows after the previous cut,
    or (no boundary there) a window's length on; the last window holds at most ``window`` units.

    ``starts`` (sorted, within 1..n-1; None: every position): the only positions where a run may start; a cut with
    no boundary in reach is then a start near a window on (:func:`_start_near`), so every cut is a start."""
    hierarchy = np.asarray(hierarchy, dtype=np.int64)
    rank = np.argsort(hierarchy, kind="stable")  # rank[i]: how early binary segmentation found the i-th leftmost
    bounds = hierarchy[rank]
    allowed = None if starts is None else np.asarray(starts, dtype=np.int64)
    cuts = [0]
    while n - cuts[-1] > window:
        prev = cuts[-1]
        lo, hi = np.searchsorted(bounds, [prev + window // 2, min(prev + (3 * window) // 2, n - 1)], side="right")
        if hi > lo:
            cut = int(bounds[lo + int(np.argmin(rank[lo:hi]))])
        elif allowed is None:
            cut = prev + window
        else:
            cut = _start_near(allowed, prev, window, n)
        if cut >= n:
            break
        cuts.append(cut)
    cuts.append(n)
    return np.asarray(cuts, dtype=np.int64)


def _start_near(starts: np.ndarray, prev: int, window: int, n: int) -> int:
    """The first of ``starts`` at least ``window`` after ``prev``, else the last one within one and a half windows
    after it (past half a window), else the first one after ``prev`` + ``window`` / 2; n when none follows."""
    i = int(np.searchsorted(starts, prev + window, side="left"))
    if i < starts.size and starts[i] <= prev + (3 * window) // 2:
        return int(starts[i])
    j = int(np.searchsorted(starts, prev + window // 2, side="right"))
    if j < i:  # a start between half a window and a window on
        return int(starts[i - 1])
    return int(starts[i]) if i < starts.size else n


def share_runs(curves, max_runs: int, caps=None) -> tuple[np.ndarray, np.ndarray]:
    """Runs shared out between windows one at a time, each to the window whose next run lowers the cost most.

    ``curves``: each window's best cost with 0, 1, ... runs (index = runs). Every window starts with one run;
    returns ``order`` (the window that takes each further run; ties to the earlier window) and ``costs``: the
    total with W, W+1, ... runs (W windows; up to ``max_runs`` or as many as the windows hold). Greedy by marginal
    gain, O(K log W): exact when every window's cost falls convexly with its runs.

    ``caps`` (levels x windows, not decreasing down the levels; None: one level, each window up to its curve): the
    runs shared one level at a time, so every window reaches its cap of a level before any window takes a run of
    the next (:mod:`~bpseg_pgm.runs.hierarchy`)."""
    W = len(curves)
    caps = [[c.shape[0] - 1 for c in curves]] if caps is None else caps
    total = [float(sum(c[1] for c in curves))]
    taken = [1] * W
    order: list[int] = []
    for cap in caps:
        limit = [min(int(cap[j]), curves[j].shape[0] - 1) for j in range(W)]
        heap = [(float(curves[j][taken[j] + 1] - curves[j][taken[j]]), j) for j in range(W) if taken[j] < limit[j]]
        heapq.heapify(heap)  # the most negative change first
        while heap and W + len(order) < int(max_runs):
            change, j = heapq.heappop(heap)
            taken[j] += 1
            order.append(j)
            total.append(total[-1] + change)
            if taken[j] < limit[j]:
                heapq.heappush(heap, (float(curves[j][taken[j] + 1] - curves[j][taken[j]]), j))
    return np.asarray(order, dtype=np.int64), np.maximum(np.asarray(total), 0.0)


def windowed_levels(
    F: np.ndarray,
    weights: np.ndarray,
    max_runs: int,
    cuts: np.ndarray,
    share: int,
    cost: RunCost | None = None,
    starts: np.ndarray | None = None,
):
    """The windows' exact levels and the runs shared out between them.

    Returns ``windows`` (one :class:`~bpseg_pgm.runs.levels.Levels` per window, up to ``share`` times its share of
    ``max_runs``), and ``order`` and ``costs`` of :func:`share_runs`. ``cost``: the cost of a run, fitted on each
    window's units (None: :class:`~bpseg_pgm.runs.costs.EmbeddingsCost`). ``starts`` (None: every position): the
    only positions where a run may start; each window's levels are then over the starts inside it."""
    n = int(cuts[-1])
    K = int(max_runs)
    cost = EmbeddingsCost() if cost is None else cost
    allowed = None if starts is None else np.asarray(starts, dtype=np.int64)
    windows = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        a, b = int(a), int(b)
        if allowed is None:
            positions = np.arange(b - a + 1, dtype=np.int64)
        else:
            inside = allowed[(allowed > a) & (allowed < b)] - a
            positions = np.concatenate([[0], inside, [b - a]]).astype(np.int64)
        k_w = max(1, min(positions.shape[0] - 1, int(share) * int(np.ceil(K * (b - a) / n))))
        matrix = run_cost_matrix(cost, F[a:b], weights[a:b], None if allowed is None else positions)
        costs, arg = segment_costs(matrix, k_w)
        windows.append(Levels(positions, costs, arg.astype(np.int32)))
    order, costs = share_runs([w.costs for w in windows], K)
    return tuple(windows), order, costs
