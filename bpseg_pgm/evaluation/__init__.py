"""Evaluation metrics a researcher imports: clustering scores (ARI, NMI, AMI) and boundary scores (Pk, WindowDiff).

The dataset loaders, baselines and benchmark runners are not part of the package: they are the
``bpseg_bench`` package in the repository's ``bench/`` folder (``pip install -e ./bench``), which
also adds ``bpseg bench`` to the command line.
"""

from bpseg_pgm.evaluation.metrics import METRICS, evaluate

__all__ = ["METRICS", "evaluate"]
