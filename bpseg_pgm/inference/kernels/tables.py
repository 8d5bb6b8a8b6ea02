"""The generic table kernel: sum-product messages m(x_v) = sum_{x_u} exp(cavity(x_u)) T(x_u, x_v) for arbitrary
stacked pairwise tables, as a batched product on max-shifted exponentials, any entry that underflows there
recomputed exactly by log-sum-exp."""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from .flooding import LOG_FLOOR, BPResult, flooding_bp
from .layouts import EdgeLayout

__all__ = ["table_bp", "table_update"]


def table_update(log_tables: np.ndarray, valid_dst: np.ndarray | None = None):
    """``update(cavity, out, sl)`` for (m, K, K) log tables oriented (x_u, x_v), slots as EdgeLayout."""
    log_tables = np.asarray(log_tables, dtype=np.float64)
    m = log_tables.shape[0]
    tmax = np.max(log_tables, axis=(1, 2)) if m else np.zeros(0)
    if not np.all(np.isfinite(tmax)):
        raise ValueError("a pairwise factor is zero everywhere")
    P = np.exp(log_tables - tmax[:, None, None])
    tshift = np.concatenate([tmax, tmax])[:, None]

    def update(cavity: np.ndarray, out: np.ndarray, sl: slice) -> None:
        hmax = np.max(cavity, axis=1, keepdims=True)
        if not np.all(np.isfinite(hmax)):
            raise ValueError("the model gives some variable zero probability in every state")
        H = np.exp(cavity - hmax)
        # slots [start, m) send u -> v and use T; slots [m, 2m) send v -> u and use T^T
        split = min(max(m - sl.start, 0), sl.stop - sl.start)
        if split > 0:
            np.einsum("ek,ekl->el", H[:split], P[sl.start : sl.start + split], out=out[:split])
        if split < out.shape[0]:
            lo = sl.start + split - m
            np.einsum("el,ekl->ek", H[split:], P[lo : sl.stop - m], out=out[split:])
        with np.errstate(divide="ignore"):
            np.log(out, out=out)
        shift = hmax + tshift[sl]
        out += shift
        valid = None if valid_dst is None else valid_dst[sl]
        bad = out < shift - 700.0  # the fast product underflowed here: recompute exactly
        if valid is not None:
            bad &= valid
        rows = np.flatnonzero(bad.any(axis=1))
        for part in rows[rows < split], rows[rows >= split]:
            if part.size:
                idx = (sl.start + part) % m
                tables = log_tables[idx] if part[0] < split else log_tables[idx].transpose(0, 2, 1)
                out[part] = logsumexp(cavity[part][:, :, None] + tables, axis=1)
        if valid is not None:
            out[~valid] = -np.inf
        lse = logsumexp(out, axis=1, keepdims=True)
        if not np.all(np.isfinite(lse)):
            raise ValueError("the model is inconsistent: a message is zero in every state")
        out -= lse
        # A state a factor rules out (a table entry of exactly 0) would get log message -inf,
        # and the next cavity would be -inf - (-inf) = NaN. Floor it at a finite log value far
        # below anything representable as a probability, so it stays impossible in effect.
        np.maximum(out, LOG_FLOOR, out=out)
        if valid is not None:
            out[~valid] = 0.0

    return update


def table_bp(
    log_unary, u, v, log_tables, *, valid=None, max_iter=100, tol=1e-6, damping=0.0, callback=None
) -> BPResult:
    """Loopy sum-product over arbitrary pairwise log tables (m, K, K); ``valid`` (n, K) or None."""
    log_unary = np.asarray(log_unary, dtype=np.float64)
    layout = EdgeLayout(log_unary.shape[0], u, v)
    valid_dst = None if valid is None else valid[layout.dst]
    init = None
    if valid is not None:
        card = valid.sum(axis=1)
        init = np.where(valid_dst, -np.log(card[layout.dst])[:, None], 0.0)
    return flooding_bp(
        log_unary, layout, table_update(log_tables, valid_dst), max_iter=max_iter, tol=tol, damping=damping,
        init_msgs=init, valid_slots=valid_dst, callback=callback,
    )  # fmt: skip
