"""The generic table kernel: sum-product messages for arbitrary stacked pairwise tables.

A message u -> v is m(x_v) = sum_{x_u} exp(cavity(x_u)) T(x_u, x_v). It is computed as a
batched vector-matrix product on max-shifted exponentials (fast), and any entry that
underflows there is recomputed exactly with log-sum-exp over the (k, k) table, so the
result is right in log space for any finite input.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from .flooding import BPResult, flooding_bp


def table_update(log_tables: np.ndarray, valid: np.ndarray | None = None, dst: np.ndarray | None = None):
    """``update(cavity)`` for (m, K, K) log tables oriented (x_u, x_v) for edges (u[e], v[e])."""
    log_tables = np.asarray(log_tables, dtype=np.float64)
    m, K, _ = log_tables.shape
    tmax = np.max(log_tables, axis=(1, 2))
    if not np.all(np.isfinite(tmax)):
        raise ValueError("a pairwise factor is zero everywhere")
    P = np.exp(log_tables - tmax[:, None, None])
    valid_dst = None if valid is None else valid[dst]

    def update(cavity: np.ndarray) -> np.ndarray:
        hmax = np.max(cavity, axis=1)
        if not np.all(np.isfinite(hmax)):
            raise ValueError("the model gives some variable zero probability in every state")
        H = np.exp(cavity - hmax[:, None])
        out = np.empty_like(cavity)
        out[:m] = np.einsum("ek,ekl->el", H[:m], P)
        out[m:] = np.einsum("el,ekl->ek", H[m:], P)
        with np.errstate(divide="ignore"):
            np.log(out, out=out)
        out += (hmax + np.concatenate([tmax, tmax]))[:, None]
        # exact recomputation where the fast product underflowed
        bad = out < -700.0 + (hmax + np.concatenate([tmax, tmax]))[:, None]
        if valid_dst is not None:
            bad &= valid_dst
        rows = np.flatnonzero(bad.any(axis=1))
        if rows.size:
            fwd = rows[rows < m]
            bwd = rows[rows >= m]
            if fwd.size:
                out[fwd] = logsumexp(cavity[fwd][:, :, None] + log_tables[fwd], axis=1)
            if bwd.size:
                out[bwd] = logsumexp(cavity[bwd][:, :, None] + log_tables[bwd - m].transpose(0, 2, 1), axis=1)
        if valid_dst is not None:
            out = np.where(valid_dst, out, -np.inf)
        lse = logsumexp(out, axis=1, keepdims=True)
        if not np.all(np.isfinite(lse)):
            raise ValueError("the model is inconsistent: a message is zero in every state")
        out -= lse
        if valid_dst is not None:
            out = np.where(valid_dst, out, 0.0)
        return out

    return update


def table_bp(log_unary, u, v, log_tables, *, valid=None, max_iter=100, tol=1e-6, damping=0.0, callback=None) -> BPResult:
    """Loopy sum-product over arbitrary pairwise log tables (m, K, K)."""
    from .flooding import directed_edges

    _, dst, _ = directed_edges(u, v)
    update = table_update(log_tables, valid, dst)
    return flooding_bp(
        log_unary, u, v, update, max_iter=max_iter, tol=tol, damping=damping, valid=valid, callback=callback
    )
