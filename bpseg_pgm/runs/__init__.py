"""The runs model: segments that are runs of consecutive units (``BPSeg(structure="runs")``).

One idea per module, bottom up:

* :mod:`.statistics`: persistence half-life, correlation length, smoothed features;
* :mod:`.costs`: the cost of a run and the segmental programme's best costs;
* :mod:`.candidates`: where a run may start (every unit, or binary segmentation's boundaries on long
  documents);
* :mod:`.levels`: the best split into every number of runs, read back at any k;
* :mod:`.windows`: more runs than candidates: the programme in windows, the runs shared out;
* :mod:`.null`: the block-shuffled null document and the noise-calibrated k;
* :mod:`.search`: the best split into k runs (exact over the candidates, in windows past them),
  read back;
* :mod:`.evidence`: the words' model evidence for the number of runs;
* :mod:`.wordcost`: the words' cost beside the embeddings', where the boundaries go once k is set;
* :mod:`.chain`: exact chain marginals (forward-backward: BP on a tree);
* :mod:`.model`: :func:`fit_runs`, the whole model;
* :mod:`.structure`: :func:`choose_structure`, runs or topics (``structure="auto"``).
"""

from .model import AUTO_MAX_RUNS, SMOOTHING, RunsFit, auto_max_runs, fit_runs
from .structure import (
    GRADUAL_EFFECT,
    GRADUAL_FULL,
    RUN_SCALE,
    Structure,
    boundary_effects,
    choose_structure,
    median_boundary_effect,
    run_span,
)

__all__ = [
    "AUTO_MAX_RUNS", "GRADUAL_EFFECT", "GRADUAL_FULL", "RUN_SCALE", "SMOOTHING", "RunsFit", "Structure",
    "auto_max_runs", "boundary_effects", "choose_structure", "fit_runs", "median_boundary_effect", "run_span",
]
