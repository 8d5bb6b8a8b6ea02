"""Inference: the :class:`Engine` plug-in interface, the engines, and their array kernels.

* :mod:`.problem` / :mod:`.engine`: what an engine is given (:class:`Problem`) and what it is
  (:class:`Engine`, :class:`EngineResult`, :func:`register_engine`);
* :mod:`.engines`: the built-in engines, registered by name;
* kernels, pure functions over arrays: the Potts kernel (:mod:`.potts`), the table kernel
  (:mod:`.tables`), max-product (:mod:`.max_product`), mean-field (:mod:`.mean_field`),
  Gibbs (:mod:`.gibbs`), the Bethe estimate of log Z (:mod:`.bethe`), Fast BP-Seg
  (:mod:`.fast`), exact inference (:mod:`.exact`), loopy BP in pgmpy's API (:mod:`.loopy`),
  the hand-written reference solver (:mod:`.reference`), and the contiguous chain
  (:mod:`.chain`, :mod:`.segmental`).
"""

from .bethe import bethe_log_partition
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
from .exact import exact_inference, exact_marginals, largest_clique_entries
from .fast import fast_bp_seg
from .gibbs import gibbs_frequencies
from .max_product import max_product_bp
from .mean_field import mean_field
from .potts import BPResult, flooding_bp, potts_bp
from .problem import Problem
from .reference import reference_bp, reference_potentials
from .tables import table_bp

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
    "BPResult",
    "flooding_bp",
    "potts_bp",
    "table_bp",
    "max_product_bp",
    "mean_field",
    "gibbs_frequencies",
    "bethe_log_partition",
    "fast_bp_seg",
    "exact_marginals",
    "exact_inference",
    "largest_clique_entries",
    "reference_bp",
    "reference_potentials",
]


def __getattr__(name):
    # the pgmpy-based engine loads pgmpy (and torch) on first use only
    if name == "LoopyBeliefPropagation":
        from .loopy import LoopyBeliefPropagation

        return LoopyBeliefPropagation
    raise AttributeError(f"module 'bpseg_pgm.inference' has no attribute {name!r}")
