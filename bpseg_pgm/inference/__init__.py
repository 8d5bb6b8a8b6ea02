"""Inference: the :class:`Engine` plug-in interface, the engines, and the kernels they call.

Three layers, each importing only the ones below it: the plug-in API here (:class:`Problem`, :class:`Engine`,
:class:`EngineResult`, :func:`register_engine`); :mod:`.engines`, one thin plug-in a file; :mod:`.kernels`, every
algorithm as functions over arrays, imported from there (docs/model.md, "Inference"). This module also re-exports
:class:`LoopyBeliefPropagation`, :class:`PottsBeliefPropagation` and :func:`bethe_log_partition`.
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
