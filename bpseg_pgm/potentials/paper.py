"""The paper's potentials, eq. (1)-(2), with an optional distance decay.

psi_i(x) = exp(cos(R_i, C_x));  psi_ij = 1 if x_i == x_j else exp(lam * (cos(R_i, R_j) - 1)).
With ``sigma`` set, the pairwise strength is multiplied by exp(-|i-j|^2 / sigma), i.e.
log w_ij = lam * exp(-|i-j|^2 / sigma) * (cos - 1): far-apart sentences stop interacting.
"""

from __future__ import annotations

from bpseg_pgm.utils.validation import check_nonnegative, check_sigma

from .base import Potentials, distance_decay, edge_cosine
from .registry import register_potentials


#: eq. (2) with lam = 0.12 (section 4.1), no decay, no re-estimation, no context
@register_potentials("paper", defaults={"lam": 0.12, "sigma": None, "em_rounds": 0, "context": 0.0})
class PaperPotentials(Potentials):
    """BP-Seg eq. (1)-(2). ``lam`` scales the pairwise term (paper: 0.12)."""

    def __init__(self, lam: float = 0.12, sigma: float | None = None):
        self.lam = check_nonnegative(lam, "lam")
        self.sigma = check_sigma(sigma)

    def log_unary(self, X, C):
        return X @ C.T

    def log_coupling(self, X, rows, cols):
        cos = edge_cosine(X, rows, cols)
        return self.lam * distance_decay(rows, cols, self.sigma) * (cos - 1.0)
