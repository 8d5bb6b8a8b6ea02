"""The Potts kernel: BP-Seg's messages in O(k) each, without building factor objects.

For a Potts pairwise factor (1 on the diagonal, w off it) the sum-product message is

    m_{i->j}(x) ∝ sum_y H(y) psi(y, x) = H(x) + w * (S - H(x)),      H = exp(cavity - max)

with S = sum_y H(y); its normaliser is S * (1 + w (k - 1)). All terms are non-negative, so
the log message is accurate to a few ulps; S - H(x) is formed without cancellation (for the
arg-max state it is the sum of the others). Edges with |log w| > 600, where w itself under-
or overflows, take an exact log-space path. Sweep cost: O(|E| k).
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from .flooding import BPResult, flooding_bp

_EXTREME = 600.0


def potts_update(log_w_dir: np.ndarray, k: int):
    """Return ``update(cavity) -> normalised log messages`` for per-direction log couplings."""
    log_w_dir = np.asarray(log_w_dir, dtype=np.float64)
    extreme = np.flatnonzero(np.abs(log_w_dir) > _EXTREME)
    w = np.exp(np.clip(log_w_dir, -_EXTREME, _EXTREME))[:, None]
    log_norm = np.log1p(w * (k - 1))
    offdiag = ~np.eye(k, dtype=bool)

    def update(cavity: np.ndarray) -> np.ndarray:
        rows = np.arange(cavity.shape[0])
        top = np.argmax(cavity, axis=1)
        H = cavity - cavity[rows, top][:, None]
        np.exp(H, out=H)
        H[rows, top] = 0.0
        others = H.sum(axis=1)  # sum over states other than the arg-max one
        H[rows, top] = 1.0
        S = (others + 1.0)[:, None]
        excl = S - H  # S - H(x); exact enough since S - H(x) >= 1 for x != top
        excl[rows, top] = others
        excl *= w
        excl += H
        np.log(excl, out=excl)
        excl -= np.log(S)
        excl -= log_norm
        if extreme.size:
            c = cavity[extreme]
            lw = log_w_dir[extreme][:, None, None]
            table = np.where(offdiag[None], lw, 0.0)
            msg = logsumexp(c[:, :, None] + table, axis=1)
            excl[extreme] = msg - logsumexp(msg, axis=1, keepdims=True)
        return excl

    return update


def potts_bp(log_unary, u, v, log_w, *, max_iter=100, tol=1e-6, damping=0.0, callback=None) -> BPResult:
    """Loopy sum-product with Potts factors. ``log_w`` (m,) is log w for edge (u[e], v[e])."""
    log_unary = np.asarray(log_unary, dtype=np.float64)
    log_w = np.asarray(log_w, dtype=np.float64)
    update = potts_update(np.concatenate([log_w, log_w]), log_unary.shape[1])
    return flooding_bp(log_unary, u, v, update, max_iter=max_iter, tol=tol, damping=damping, callback=callback)
