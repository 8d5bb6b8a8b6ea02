"""Evaluation metrics a researcher imports: clustering scores (ARI, NMI, AMI), boundary scores (Pk, WindowDiff)
and the scores of returning topics joined across separate runs (:mod:`bpseg_pgm.evaluation.returns`).

The dataset loaders, baselines and benchmark runners are not part of the package: they are the
``bpseg_bench`` package in the repository's ``bench/`` folder (``pip install -e ./bench``), which
also adds ``bpseg bench`` to the command line.
"""

from bpseg_pgm.evaluation.metrics import METRICS, evaluate
from bpseg_pgm.evaluation.returns import joined_across_runs, return_precision

__all__ = ["METRICS", "evaluate", "joined_across_runs", "return_precision"]
