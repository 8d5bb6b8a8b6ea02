"""The BPSeg defaults and ``--init`` choices that ``bpseg --help`` shows, without importing BPSeg.

:mod:`bpseg_pgm.estimator` imports scikit-learn (most of a second), so the parser reads BPSeg's
parameter table (:data:`bpseg_pgm.params.PARAMETERS`, which the estimator's own defaults and checks
come from) instead; the ``--engine`` and ``--potentials`` choices come from their registries.
"""

from bpseg_pgm.params import INITS, PARAMETERS

__all__ = ["HELP_DEFAULTS", "INITS"]

#: parameter -> BPSeg's default, for the parameters whose default the help text names
HELP_DEFAULTS = {
    name: PARAMETERS[name].default for name in ("potentials", "engine", "init", "merge_above", "group_runs")
}
