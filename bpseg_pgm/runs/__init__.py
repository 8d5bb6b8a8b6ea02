"""The runs model: segments that are runs of consecutive units (``BPSeg(structure="runs")``).

One idea per module, bottom up (docs/code-map.md); :func:`fit_runs` (:mod:`.model`) is the whole model, and
:mod:`.cost_registry` is where a run cost is added. Whether a document gets runs, and how many, is decided
above this package (:mod:`bpseg_pgm.decisions`), with the numbers of :class:`~bpseg_pgm.policy.Policy`.
"""

from .cost_registry import RunCost, cost_factory, cost_names, register_cost
from .costs import EmbeddingsCost
from .effects import boundary_effects, median_boundary_effect
from .model import RunsFit, auto_max_runs, fit_runs
from .wordcost import WordsCost

__all__ = [
    "EmbeddingsCost",
    "RunCost",
    "RunsFit",
    "WordsCost",
    "auto_max_runs",
    "boundary_effects",
    "cost_factory",
    "cost_names",
    "fit_runs",
    "median_boundary_effect",
    "register_cost",
]
