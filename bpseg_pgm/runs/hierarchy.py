"""A document's heading hierarchy as the runs' levels: coarse sections first, finer ones inside them.

:func:`nested_levels` turns a hierarchy of allowed run starts (each level's starts include the coarser ones') into
:class:`~bpseg_pgm.runs.levels.Levels`: up to as many runs as the top level has sections, the exact programme over the
top level's starts; past them every top-level section is kept and the further runs are shared out between the sections
one level at a time (:func:`~bpseg_pgm.runs.windows.share_runs` with caps), first at the sub-headings, then at the
next level, each section cut by the same rule inside it. So a re-cut at more segments than sections splits sections at
their own sub-headings and never moves a top-level boundary. The levels are read back as the programme's windows are.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bpseg_pgm.policy import Policy

from .cost_registry import RunCost, run_cost_matrix
from .costs import EmbeddingsCost, segment_costs
from .levels import Levels
from .search import segmental_levels
from .windows import share_runs

__all__ = ["hierarchy_runs", "nested_levels"]


def _levels_of(hierarchy: Sequence[np.ndarray], n: int) -> list[np.ndarray]:
    """The hierarchy's levels as sorted starts within 1..n-1, each one holding the coarser ones', those that add no
    start dropped."""
    out: list[np.ndarray] = []
    for s in hierarchy:
        s = np.asarray(s, dtype=np.int64).reshape(-1)
        s = np.union1d(s[(s > 0) & (s < n)], out[-1] if out else np.zeros(0, dtype=np.int64))
        if not out or s.size > out[-1].size:
            out.append(s)
    return out


def hierarchy_runs(hierarchy: Sequence[np.ndarray], n: int) -> int:
    """The most runs a document of n units can be cut into at the hierarchy's finest level: its starts plus one."""
    levels = _levels_of(hierarchy, n)
    return int(levels[-1].size + 1) if levels else 1


def nested_levels(
    F: np.ndarray,
    weights: np.ndarray,
    hierarchy: Sequence[np.ndarray],
    max_runs: int,
    cost: RunCost | None = None,
    max_candidates: int | None = None,
    *,
    policy: Policy,
) -> Levels:
    """The levels of the module docstring for the features F (n, d) and unit weights (n,): ``hierarchy`` lists
    the allowed run starts from the coarsest level to the finest (a finer level's starts are joined with the
    coarser ones'), up to ``max_runs`` runs in all. ``cost``: the cost of a run (None: the embeddings' scatter),
    fitted on the whole document for the top level and on each section's units below it. A part whose own top
    level holds more than ``max_candidates`` starts is cut as a long document is
    (:func:`~bpseg_pgm.runs.search.segmental_levels`), at its top level's starts, or at its finest level's when
    those allow too few runs. ``policy``: the search's numbers (``max_candidates`` None is the policy's)."""
    max_candidates = policy.max_candidates if max_candidates is None else max_candidates
    n = int(np.asarray(F).shape[0])
    cost = EmbeddingsCost() if cost is None else cost
    levels = _levels_of(hierarchy, n)
    if levels and levels[0].size > max_candidates:  # too many to solve exactly: sampled among the starts
        starts = levels[0] if levels[0].size + 1 >= int(max_runs) else levels[-1]
        runs = max(1, min(int(max_runs), starts.size + 1))
        return segmental_levels(
            F, weights, runs, max_candidates=max_candidates, policy=policy, cost=cost, starts=starts
        )
    top = levels[0] if levels else np.zeros(0, dtype=np.int64)
    positions = np.concatenate([[0], top, [n]]).astype(np.int64)
    m = positions.shape[0] - 1
    max_runs = max(1, min(int(max_runs), hierarchy_runs(levels, n)))
    costs, arg = segment_costs(run_cost_matrix(cost, F, weights, positions), min(m, max_runs))
    if len(levels) < 2 or max_runs <= m:
        return Levels(positions, costs, arg)
    windows, caps = [], []
    for a, b in zip(positions[:-1].tolist(), positions[1:].tolist()):
        inner = [s[(s > a) & (s < b)] - a for s in levels[1:]]
        windows.append(
            nested_levels(F[a:b], weights[a:b], inner, max_runs - m + 1, cost, max_candidates, policy=policy)
        )
        caps.append([s.size + 1 for s in inner])
    order, total = share_runs([w.costs for w in windows], max_runs, np.asarray(caps).T)
    # total[j]: the cost with m + j runs (total[0]: each section one run, the top level's costs[m])
    return Levels(positions, np.concatenate([costs, total[1:]]), arg, tuple(windows), positions[:-1], order)
