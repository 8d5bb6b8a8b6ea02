"""The ``corpus`` extra: Parquet (pyarrow) and the Dask workers (dask.distributed), checked before any work.

Neither library is a core requirement; a run without them stops at :func:`check_corpus`, before it reads or writes
anything, with one ImportError naming the extra.
"""

from __future__ import annotations

import importlib
import importlib.util

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
        raise ImportError(_missing(module, what, " ".join(str(exc).split())), name=module) from exc


def _missing(module: str, what: str, why: str) -> str:
    return f"{what} needs {module.split('.')[0]}, from the corpus extra: {INSTALL_CORPUS} ({why})"


def check_corpus(dask: bool = True, what: str = "bpseg corpus") -> None:
    """Every package the run needs is installed (Parquet; with ``dask``, the Dask workers too), or one ImportError
    naming the extra, before any work. Found, not imported (pyarrow and dask take seconds to import): the run
    imports them where it uses them."""
    for module in PARQUET_MODULES + (DASK_MODULES if dask else ()):
        if "." not in module and importlib.util.find_spec(module) is None:
            raise ImportError(_missing(module, what, f"No module named {module!r}"), name=module)
