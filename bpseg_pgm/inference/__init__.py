"""Inference engines: loopy BP in pgmpy's API, the Potts kernel, Fast BP-Seg, exact, reference."""

from .exact import exact_marginals, largest_clique_entries
from .fast import fast_bp_seg
from .potts import BPResult, flooding_bp, potts_bp
from .reference import reference_bp, reference_potentials
from .tables import table_bp

__all__ = [
    "LoopyBeliefPropagation",
    "BPResult",
    "flooding_bp",
    "potts_bp",
    "table_bp",
    "fast_bp_seg",
    "exact_marginals",
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
