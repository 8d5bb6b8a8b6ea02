"""The benchmarks' own dependencies, imported on first use.

``matplotlib`` (the charts) and ``ruptures`` (the KernelCPD baseline) are not requirements of
``bpseg_pgm``: installing the benchmarks (``pip install -e ./bench`` in a clone) installs them. Nothing
imports them with the package, so ``import bpseg_pgm``, ``segment_text`` and ``bpseg segment`` run
without them; the code that needs one calls :func:`require` and gets one ImportError saying how to
install it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["BENCH_MODULES", "INSTALL_BENCH", "check_bench", "pyplot", "require"]

#: The top-level modules the benchmarks need beyond bpseg_pgm.
BENCH_MODULES = ("matplotlib", "ruptures")

#: What to run to install them.
INSTALL_BENCH = "pip install -e ./bench (in a clone of the repository)"


def _message(module: str, what: str, exc: ImportError) -> str:
    return f"{what} needs {module}, a dependency of the benchmarks: {INSTALL_BENCH} ({exc})"


def require(module: str, what: str = "this benchmark") -> ModuleType:
    """``import module``, or one ImportError saying that ``what`` needs it and how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(_message(module.split(".")[0], what, exc), name=module) from exc


def pyplot(what: str = "the benchmark's chart") -> ModuleType:
    """``matplotlib.pyplot`` on the non-interactive Agg backend (files only), or the ImportError of :func:`require`."""
    matplotlib = require("matplotlib", what)
    matplotlib.use("Agg")
    return require("matplotlib.pyplot", what)


def check_bench(what: str = "bpseg bench") -> None:
    """Import every module the benchmarks need, so that a missing one is reported before any work."""
    for module in BENCH_MODULES:
        require(module, what)
