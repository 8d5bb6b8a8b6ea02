"""The exact best split into runs: the segmental programme of :mod:`bpseg_pgm.runs.costs` over the candidates,
in windows past them, and the null documents' best costs (:func:`null_costs`) that calibrate k."""

from __future__ import annotations

import numpy as np

from bpseg_pgm.policy import Policy
from bpseg_pgm.utils.labels import bounds_labels

from .candidates import binary_segmentation, candidate_positions, window_size
from .cost_registry import RunCost, run_cost_matrix
from .costs import EmbeddingsCost, segment_costs
from .levels import Levels
from .memory import check_windows_memory
from .windows import window_cuts, windowed_levels

__all__ = ["backtrack", "null_costs", "padded_costs", "segmental_levels"]


def backtrack(arg: np.ndarray, k: int, n: int) -> np.ndarray:
    """Labels 0..k-1 (one contiguous run each) of the best segmentation into k segments."""
    bounds = [n]
    for kk in range(k, 0, -1):
        bounds.append(int(arg[kk, bounds[-1]]))
    return bounds_labels(bounds[::-1])


def segmental_levels(
    F: np.ndarray,
    weights: np.ndarray,
    max_runs: int,
    min_size: int = 1,
    max_candidates: int | None = None,
    *,
    policy: Policy,
    cost: RunCost | None = None,
    starts: np.ndarray | None = None,
) -> Levels:
    """The best split into 1..``max_runs`` runs (each of at least ``min_size`` units) over the candidate
    positions of :func:`~bpseg_pgm.runs.candidates.candidate_positions`: exact on documents of at most
    ``max_candidates`` units, over binary segmentation's boundaries on longer ones.

    A longer document asked for more runs than it has candidates (``max_runs`` > m, with ``min_size`` 1)
    gets the programme's levels up to m and, past them, the programme solved in windows
    (:mod:`bpseg_pgm.runs.windows`); levels past m hold a boundary at every cut between windows.

    ``policy``: the search's numbers (``max_candidates`` here, when given, in place of the policy's).
    ``cost``: the cost of a run (None: :class:`~bpseg_pgm.runs.costs.EmbeddingsCost`), fitted on ``F`` and
    ``weights`` (each window on its units). ``starts``: the only positions where a run may start: every start a
    candidate when there are at most ``max_candidates`` of them, else binary segmentation's boundaries among them,
    and past those the windows cut at starts.
    """
    max_candidates = policy.max_candidates if max_candidates is None else max_candidates
    window, share = policy.window, policy.window_share
    n = int(np.asarray(F).shape[0])
    restricted = starts is not None and len(starts) <= max_candidates
    hierarchy = (
        binary_segmentation(F, weights, max_candidates - 1, starts) if n > max_candidates and not restricted else None
    )
    positions = candidate_positions(F, weights, max_candidates, hierarchy, starts)
    m = positions.shape[0] - 1
    K = max(1, min(int(max_runs), m))
    cost = EmbeddingsCost() if cost is None else cost
    C = run_cost_matrix(cost, F, weights, positions)
    if min_size > 1:
        C[(positions[None, :] - positions[:, None]) < min_size] = np.inf
    costs, arg = segment_costs(C, K)
    del C
    if hierarchy is None or int(max_runs) <= m or min_size > 1:
        return Levels(positions, costs, arg)
    cuts = window_cuts(hierarchy, n, window_size(n, max_candidates, window), starts)
    check_windows_memory(cuts, int(max_runs))
    windows, order, total = windowed_levels(F, weights, int(max_runs), cuts, share, cost=cost, starts=starts)
    if len(windows) > m + 1:  # more windows than runs past the candidates (not with window_size's windows)
        return Levels(positions, costs, arg)
    # total[j]: the cost with W + j runs
    return Levels(positions, np.concatenate([costs, total[m + 1 - len(windows) :]]), arg, windows, cuts[:-1], order)


def null_costs(
    shuffled,
    max_runs: int,
    min_size: int = 1,
    max_candidates: int | None = None,
    *,
    policy: Policy,
    cost: RunCost | None = None,
    starts: np.ndarray | None = None,
    each: bool = False,
) -> np.ndarray:
    """Best costs for 0..``max_runs`` runs averaged over null documents, each solved as :func:`segmental_levels`
    solves the document (the same options: a null is cut where the document may be); ``shuffled`` yields
    (features, weights) pairs, one null at a time. ``each``: every null's costs, one row each, not their mean."""
    rows = np.array(
        [
            padded_costs(
                segmental_levels(
                    Fs, ws, max_runs, min_size, max_candidates, policy=policy, cost=cost, starts=starts
                ).costs,
                max_runs,
            )
            for Fs, ws in shuffled
        ]
    )
    return rows if each else np.mean(rows, axis=0)


def padded_costs(costs: np.ndarray, K: int) -> np.ndarray:
    """Best costs for 0..K runs, inf past what ``costs`` holds (a null document's candidates may allow fewer)."""
    out = np.full(K + 1, np.inf)
    out[: min(K + 1, costs.shape[0])] = costs[: K + 1]
    return out
