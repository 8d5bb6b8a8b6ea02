"""The ``corpus`` extra: Parquet (pyarrow) and the Dask workers (dask.distributed), checked before any work.

``bpseg corpus`` and :func:`~bpseg_pgm.corpus.segment_corpus` write Parquet, and run their tasks on Dask unless
``workers=0``; neither library is a core requirement (``pip install 'bpseg_pgm[corpus]'`` installs both). A run
without them stops at :func:`check_corpus`, before it reads or writes anything, with one ImportError naming the
extra (the command line prints it as one line and exits with status 2).
"""

from __future__ import annotations

import importlib

__all__ = ["INSTALL_CORPUS", "PARQUET_MODULES", "DASK_MODULES", "check_corpus", "require_corpus"]

#: What to run to install the extra.
INSTALL_CORPUS = "pip install 'bpseg_pgm[corpus]'"

#: The modules every corpus run needs (the output is Parquet), and those a run on Dask needs too.
PARQUET_MODULES = ("pyarrow", "pyarrow.parquet", "pyarrow.dataset")
DASK_MODULES = ("dask", "distributed")


def require_corpus(module: str, what: str = "bpseg corpus") -> None:
    """``import module``, or one ImportError saying that ``what`` needs it and how to install it."""
    try:
        importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise ImportError(
            f"{what} needs {top}, from the corpus extra: {INSTALL_CORPUS} ({' '.join(str(exc).split())})", name=module
        ) from exc


def check_corpus(dask: bool = True, what: str = "bpseg corpus") -> None:
    """Import every module the run needs (Parquet; with ``dask``, the Dask workers too), so that a missing one is
    one ImportError naming the extra, before any work."""
    for module in PARQUET_MODULES + (DASK_MODULES if dask else ()):
        require_corpus(module, what)
