"""The Potts kernel: loopy sum-product for Potts-shaped pairwise factors, in O(|E| k) a sweep.

One idea a file, imported upward only (no circle):

* :mod:`.layouts`: where messages live (:class:`EdgeLayout`) and pre-faulted buffers;
* :mod:`.flooding`: the flooding loop every vectorised sum-product engine shares
  (:func:`flooding_bp`, :func:`unit_sweeps`, :class:`BPResult`, ``LOG_FLOOR``);
* :mod:`.coefficients`: the Potts message's scale and offset per edge;
* :mod:`.compiled`: numba loops around NumPy's exp and log;
* :mod:`.dense`: the complete graph in tile pairs; :mod:`.sparse`: any edge list;
* :mod:`.kernel`: :func:`potts_bp`, which picks one of them (or the pure-NumPy path).
"""

from .coefficients import potts_coefficients
from .flooding import LOG_FLOOR, BPResult, flooding_bp, normalise_log
from .kernel import potts_bp, potts_update
from .layouts import EdgeLayout

__all__ = [
    "BPResult",
    "EdgeLayout",
    "LOG_FLOOR",
    "flooding_bp",
    "normalise_log",
    "potts_bp",
    "potts_coefficients",
    "potts_update",
]
