"""The Potts kernel: loopy sum-product for Potts-shaped pairwise factors, in O(|E| k) a sweep.

One idea a file, imported upward only (no circle); the flooding loop and the message
layouts it runs on are the generic :mod:`..flooding` and :mod:`..layouts`:

* :mod:`.coefficients`: the Potts message's scale and offset per edge;
* :mod:`.compiled`: numba loops around NumPy's exp and log;
* :mod:`.dense`: the complete graph in tile pairs; :mod:`.sparse`: any edge list;
* :mod:`.kernel`: :func:`potts_bp`, which picks one of them (or the pure-NumPy path), and
  :func:`potts_log_partition`, the Bethe log Z at its messages, whichever layout they are in.
"""

from .coefficients import potts_coefficients
from .kernel import potts_bp, potts_log_partition, potts_update

__all__ = ["potts_bp", "potts_coefficients", "potts_log_partition", "potts_update"]
