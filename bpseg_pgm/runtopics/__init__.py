"""Topics over runs: the runs of the contiguous model grouped into topics that may return.

The runs are the variables of a pairwise Markov network whose states are topics, solved by any inference engine,
and adjacent runs that take one topic merge; a run's mean is less noisy than one sentence by about the square root
of its length, which is why returns are grouped over runs. :func:`fit_run_topics` (:mod:`.fit`) is the fit
(modules: docs/code-map.md); the decision layer (:mod:`bpseg_pgm.decisions`) calls it under ``group_runs``, with
the ``group_*`` fields of :class:`~bpseg_pgm.policy.Policy`.
"""

from .fit import RunTopicsFit, fit_run_topics
from .potentials import RunTopicPotentials
from .returns import Cut, best_cut
from .summary import RunSummary, summarize_runs

__all__ = ["Cut", "RunSummary", "RunTopicPotentials", "RunTopicsFit", "best_cut", "fit_run_topics", "summarize_runs"]
