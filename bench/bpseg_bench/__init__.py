"""The benchmarks of bpseg_pgm: dataset loaders (Choi, QMSum, PEPs, ...), baselines, and the bench runners.

Not part of the ``bpseg_pgm`` wheel: this package lives in the repository's ``bench/`` folder and is
installed from there (``pip install -e ./bench``, which the README's set-up line does). Once installed,
``bpseg bench`` appears on the command line (:mod:`bpseg_bench.cli`). The metrics are in the library
(:mod:`bpseg_pgm.evaluation.metrics`), since a researcher imports them.

The names below load on first use, so that importing one module of this package (the CLI reads
:mod:`.defaults` and :mod:`.choi` to build its help) does not load scikit-learn.
"""

_EXPORTS = {
    "CHOI_RANGES": "bpseg_bench.choi",
    "CHOI_SETS": "bpseg_bench.choi",
    "ChoiDocument": "bpseg_bench.choi",
    "load_choi": "bpseg_bench.choi",
    "resolve_data_dir": "bpseg_bench.choi",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        import importlib

        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bpseg_bench' has no attribute {name!r}")
