"""The Potts kernel: loopy sum-product for Potts-shaped pairwise factors, in O(|E| k) a sweep.

:func:`potts_bp` (:mod:`.kernel`) picks the dense tiled (:mod:`.dense`), the sparse (:mod:`.sparse`) or the
pure-NumPy path; :func:`potts_log_partition` is the Bethe log Z at its messages.
"""

from .coefficients import potts_coefficients
from .kernel import potts_bp, potts_log_partition, potts_update

__all__ = ["potts_bp", "potts_coefficients", "potts_log_partition", "potts_update"]
