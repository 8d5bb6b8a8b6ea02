"""Fast BP-Seg, the paper's appendix Algorithm 2, as written: additive messages over T sweeps,

    m_i^(t)(x) = psi_i(x) + sum_{j=1}^{n} psi_ij m_j^(t-1)(x),    b_i(x) = psi_i(x) + m_i^(T)(x)

with psi_i(x) = cos(R_i, C_x) and psi_ij = lam * cos(R_i, R_j) * exp(-|i-j|^2 / sigma) (sigma=None: no decay); the
sum includes j = i, as printed. The appendix's Choi settings: k = n, T = 5, sigma = 10, lam = 300. The scores are
not probabilities: :func:`fast_bp_seg` also returns their softmax.
"""

from __future__ import annotations

import numpy as np

from .flooding import normalise_log


def fast_bp_seg(X: np.ndarray, C: np.ndarray, lam: float = 300.0, sigma: float | None = 10.0, n_iter: int = 5):
    """Return (scores (n, k), softmax(scores)) for unit rows X (n, d) and representatives C (k, d)."""
    n = X.shape[0]
    k = C.shape[0]
    psi = X @ C.T
    W = lam * (X @ X.T)
    if sigma is not None:
        idx = np.arange(n, dtype=np.float64)
        W *= np.exp(-((idx[:, None] - idx[None, :]) ** 2) / sigma)
    m = np.full((n, k), 1.0 / k)
    with np.errstate(over="raise", invalid="raise"):
        try:
            for _ in range(n_iter):
                m = psi + W @ m
            scores = psi + m
        except FloatingPointError:
            raise ValueError(
                "Fast BP-Seg's additive messages overflowed float64; use fewer iterations or a smaller lam"
            ) from None
    return scores, normalise_log(scores)
