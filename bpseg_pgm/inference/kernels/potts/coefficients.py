"""The Potts message's two coefficients per edge, shared by the NumPy and the compiled sweeps.

For a Potts factor (1 on the diagonal, w off it) the normalised sum-product message is
H(x) (1 - w) / (S norm) + w / norm with norm = 1 + w (k - 1), H = exp(cavity), S = sum H
(:mod:`bpseg_pgm.inference.kernels.potts.kernel`). w is clipped to [e^-600, e^5]; slots outside take
an exact log-sum-exp path, marked here.
"""

from __future__ import annotations

import numpy as np

_LOW, _HIGH = -600.0, 5.0


def potts_coefficients(log_w, k: int):
    """Per slot: the normalised message's scale (1 - w) / norm and offset w / norm, norm = 1 + w (k - 1),
    with w clipped to [e^-600, e^5], and a mask of the slots whose log w lies outside (exact path)."""
    log_w = np.asarray(log_w, dtype=np.float64)
    extreme = (log_w < _LOW) | (log_w > _HIGH)
    w = np.exp(np.clip(log_w, _LOW, _HIGH))
    norm = 1.0 + w * (k - 1)
    return (1.0 - w) / norm, w / norm, extreme
