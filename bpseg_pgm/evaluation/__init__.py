"""Evaluation: the Choi corpus loader, segmentation metrics, baselines and the paper's benchmarks.

The names below load on first use, so that importing one module of this package (the CLI reads
:mod:`.defaults` and :mod:`.choi` to build its help) does not load scikit-learn.
"""

_EXPORTS = {
    "CHOI_RANGES": "bpseg_pgm.evaluation.choi",
    "CHOI_SETS": "bpseg_pgm.evaluation.choi",
    "ChoiDocument": "bpseg_pgm.evaluation.choi",
    "load_choi": "bpseg_pgm.evaluation.choi",
    "resolve_data_dir": "bpseg_pgm.evaluation.choi",
    "METRICS": "bpseg_pgm.evaluation.metrics",
    "evaluate": "bpseg_pgm.evaluation.metrics",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        import importlib

        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bpseg_pgm.evaluation' has no attribute {name!r}")
