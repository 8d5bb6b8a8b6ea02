"""Topics over runs: the runs of the contiguous model grouped into topics that may return.

The runs model (:mod:`bpseg_pgm.runs`) cuts a document into runs of consecutive units; a topic that
comes back after another one becomes two runs. Here the runs are the variables of a pairwise Markov
network whose states are topics, solved by any inference engine (:mod:`bpseg_pgm.inference`), and
adjacent runs that take one topic merge. A run's mean embedding is less noisy than one sentence by
about the square root of its length, which is why returns are grouped over runs, not sentences.

One idea per module, bottom up:

* :mod:`.summary`: each run's weighted mean embedding, centred on the document, and its size;
* :mod:`.potentials`: the unary and Potts pairwise potentials over runs;
* :mod:`.returns`: the runs' best linkage cut by silhouette, which the returns test reads;
* :mod:`.fit`: :func:`fit_run_topics`, the whole fit with the potentials it is given (topics proposed, BP,
  re-estimation); the decision layer runs the returns test first and chooses them.

This package never imports the estimator; the decision layer (:mod:`bpseg_pgm.decisions`) calls it under
``group_runs``. Its tuned numbers (threshold, coupling, locality prior) are the ``group_*`` fields of
:class:`~bpseg_pgm.policy.Policy`; the returns test's gates (``returns_*``) are the decision layer's
(:func:`~bpseg_pgm.decisions.grouping.detect_returns`).
"""

from .fit import RunTopicsFit, fit_run_topics
from .potentials import RunTopicPotentials
from .returns import Cut, best_cut
from .summary import RunSummary, summarize_runs

__all__ = [
    "Cut",
    "RunSummary",
    "RunTopicPotentials",
    "RunTopicsFit",
    "best_cut",
    "fit_run_topics",
    "summarize_runs",
]
