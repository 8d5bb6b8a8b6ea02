"""Evaluation: the Choi corpus loader, segmentation metrics, baselines and the paper's benchmarks."""

from bpseg_pgm.evaluation.choi import CHOI_RANGES, CHOI_SETS, ChoiDocument, load_choi, resolve_data_dir
from bpseg_pgm.evaluation.metrics import METRICS, evaluate

__all__ = ["CHOI_RANGES", "CHOI_SETS", "METRICS", "ChoiDocument", "evaluate", "load_choi", "resolve_data_dir"]
