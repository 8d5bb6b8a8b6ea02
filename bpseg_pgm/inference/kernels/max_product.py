"""Loopy max-product BP in log space (max-sum), flooding schedule: approximate MAP.

The message u -> v is m(x_v) = max_{x_u} [cavity(x_u) + log psi_uv(x_u, x_v)], normalised and floored like the
sum-product messages; for Potts factors the max is O(k) (the largest and second largest cavity). Beliefs are the
normalised max-marginals: on a tree at the fixed point their arg-max is the MAP. On graphs with cycles max-product
may not converge; ``damping`` helps.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from .flooding import LOG_FLOOR, BPResult, flooding_bp
from .layouts import EdgeLayout


def _finish(out: np.ndarray) -> None:
    out -= logsumexp(out, axis=1, keepdims=True)
    np.maximum(out, LOG_FLOOR, out=out)


def potts_max_update(log_w_slots: np.ndarray):
    """``update(cavity, out, sl)`` of max-product with Potts factors, log w per slot."""
    log_w = np.asarray(log_w_slots, dtype=np.float64)

    def update(cavity: np.ndarray, out: np.ndarray, sl: slice) -> None:
        k = cavity.shape[1]
        if k == 1:
            out[...] = 0.0
            return
        top2 = np.partition(cavity, k - 2, axis=1)[:, k - 2 :]  # second largest, largest
        first, second = top2[:, 1:2], top2[:, 0:1]
        best_other = np.where(cavity >= first, second, first)  # max over y != x
        np.maximum(cavity, best_other + log_w[sl][:, None], out=out)
        _finish(out)

    return update


def table_max_update(log_tables: np.ndarray):
    """``update(cavity, out, sl)`` of max-product with (m, k, k) log tables, slots as EdgeLayout."""
    log_tables = np.asarray(log_tables, dtype=np.float64)
    m = log_tables.shape[0]

    def update(cavity: np.ndarray, out: np.ndarray, sl: slice) -> None:
        split = min(max(m - sl.start, 0), sl.stop - sl.start)  # slots < m send u -> v (T), then v -> u (T^T)
        if split > 0:
            out[:split] = np.max(cavity[:split, :, None] + log_tables[sl.start : sl.start + split], axis=1)
        if split < out.shape[0]:
            lo = sl.start + split - m
            out[split:] = np.max(cavity[split:, None, :] + log_tables[lo : sl.stop - m], axis=2)
        _finish(out)

    return update


def max_product_bp(
    log_unary, u, v, *, log_coupling=None, log_tables=None, max_iter=100, tol=1e-6, damping=0.0, callback=None
) -> BPResult:
    """Loopy max-product on edges (u[e], v[e]) with Potts ``log_coupling`` (m,) or ``log_tables``
    (m, k, k); beliefs are normalised max-marginals, ``log_messages`` in EdgeLayout slot order."""
    if (log_coupling is None) == (log_tables is None):
        raise ValueError("give exactly one of log_coupling= or log_tables=")
    log_unary = np.asarray(log_unary, dtype=np.float64)
    layout = EdgeLayout(log_unary.shape[0], u, v)
    if log_coupling is not None:
        update = potts_max_update(layout.per_slot(np.asarray(log_coupling, dtype=np.float64)))
    else:
        update = table_max_update(log_tables)
    return flooding_bp(log_unary, layout, update, max_iter=max_iter, tol=tol, damping=damping, callback=callback)
