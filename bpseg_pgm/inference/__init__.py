"""Inference: the :class:`Engine` plug-in interface, the engines, and the kernels they call.

Three layers, each importing only the ones below it:

* the plug-in API, here: what an engine is given (:class:`Problem`, :mod:`.problem`), what it
  is (:class:`Engine`, :class:`EngineResult`, :func:`register_engine`, :mod:`.engine`);
* :mod:`.engines`: the built-in engines, one thin plug-in a file (parameters, one kernel call,
  the result), registered by name; :func:`make_engine`, :func:`engine_names`;
* :mod:`.kernels`: every algorithm, as functions over arrays (the Potts kernel, the generic
  flooding loop and message layouts, the table kernel, max-product, mean-field, Gibbs, MPLP,
  Fast BP-Seg, exact inference, the Bethe estimate, the hand-written reference solver) and
  :class:`LoopyBeliefPropagation`, loopy BP in pgmpy's ``Inference`` API.

This module's API is the plug-in API plus :class:`LoopyBeliefPropagation` and
:func:`bethe_log_partition`. The kernels are imported from :mod:`.kernels` (``from
bpseg_pgm.inference.kernels.potts import potts_bp``, ...).
"""

from .engine import REGISTRY, Engine, EngineResult, register_engine
from .engines import (
    ExactEngine,
    FastEngine,
    GibbsEngine,
    LoopyEngine,
    MaxProductEngine,
    MeanFieldEngine,
    MplpEngine,
    PottsEngine,
    ReferenceEngine,
    engine_names,
    make_engine,
)
from .kernels.bethe import bethe_log_partition
from .problem import Problem

__all__ = [
    "Engine",
    "EngineResult",
    "Problem",
    "REGISTRY",
    "register_engine",
    "engine_names",
    "make_engine",
    "PottsEngine",
    "LoopyEngine",
    "FastEngine",
    "ExactEngine",
    "ReferenceEngine",
    "MaxProductEngine",
    "MeanFieldEngine",
    "GibbsEngine",
    "MplpEngine",
    "LoopyBeliefPropagation",
    "PottsBeliefPropagation",
    "bethe_log_partition",
]


def __getattr__(name):
    # the pgmpy-based classes load pgmpy (and torch) on first use only
    if name == "LoopyBeliefPropagation":
        from .kernels.loopy import LoopyBeliefPropagation

        return LoopyBeliefPropagation
    if name == "PottsBeliefPropagation":
        from .kernels.potts_network import PottsBeliefPropagation

        return PottsBeliefPropagation
    raise AttributeError(f"module 'bpseg_pgm.inference' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), "LoopyBeliefPropagation", "PottsBeliefPropagation"])
