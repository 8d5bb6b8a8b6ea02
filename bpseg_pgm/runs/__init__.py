"""The runs model: segments that are runs of consecutive units (``BPSeg(structure="runs")``).

One idea per module, bottom up:

* :mod:`.statistics`: persistence half-life, correlation length, smoothed features;
* :mod:`.cost_registry`: the cost of a run as a plug-in (:class:`~.cost_registry.RunCost`,
  :func:`~.cost_registry.register_cost`, :func:`~.cost_registry.cost_factory`): **add a run cost here**;
* :mod:`.costs`: the embeddings' cost of a run (``"embeddings"``, the default) and the segmental programme's
  best costs;
* :mod:`.candidates`: where a run may start (every unit, or binary segmentation's boundaries on long
  documents);
* :mod:`.levels`: the best split into every number of runs, read back at any k;
* :mod:`.windows`: more runs than candidates: the programme in windows, the runs shared out;
* :mod:`.hierarchy`: a sectioned text's heading hierarchy as the levels (sections, then sub-sections inside them);
* :mod:`.null`: the block-shuffled null document and the noise-calibrated k;
* :mod:`.search`: the best split into k runs (exact over the candidates, in windows past them),
  read back;
* :mod:`.evidence`: the words' model evidence for the number of runs;
* :mod:`.wordcost`: the words' cost (``"words"``) beside the run cost, where the boundaries go once k is set;
* :mod:`.effects`: how much each run differs from its neighbours (the boundaries' effect sizes);
* :mod:`.chain`: exact chain marginals (forward-backward: BP on a tree);
* :mod:`.model`: :func:`fit_runs`, the whole model.

Whether a document gets runs at all, and how many, is decided above this package
(:mod:`bpseg_pgm.decisions`); its tuned numbers are fields of :class:`~bpseg_pgm.policy.Policy`.
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
