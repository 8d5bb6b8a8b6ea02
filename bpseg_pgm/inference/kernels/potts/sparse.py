"""Flooding loopy BP with Potts factors on any edge list, in place, with compiled loops.

The sparse counterpart of :mod:`bpseg_pgm.inference.kernels.potts.dense`, for long documents. Messages live in one
(2, m, K) log array: [0, e] holds u[e] -> v[e] and [1, e] the reverse (as a (2m, K) view, the slot order of
:class:`~bpseg_pgm.inference.kernels.layouts.EdgeLayout`). A block of edges reads all its old messages before it
writes its new ones and no other block touches them, so the update is in place and still the flooding schedule
exactly; the loops are compiled (:mod:`bpseg_pgm.inference.kernels.potts.compiled`), exp and log are NumPy's.
"""

from __future__ import annotations

import numpy as np

from ..flooding import LOG_FLOOR, N_UNITS, BPResult, unit_sweeps
from ..layouts import alloc, blocks
from . import compiled as kern
from .coefficients import potts_coefficients

#: Message entries per block of edges (E edges x 2 directions x K states).
BLOCK_ENTRIES = 1 << 15


def edge_blocks(m: int, K: int) -> list[tuple[int, int]]:
    """Contiguous edge ranges [e0, e1) of about BLOCK_ENTRIES message entries each."""
    return [(sl.start, sl.stop) for sl in blocks(m, 2 * K, target=BLOCK_ENTRIES)]


def sparse_potts_bp(log_unary, u, v, log_w, *, max_iter=100, tol=1e-6, damping=0.0, callback=None) -> BPResult:
    """Loopy sum-product with Potts factors on edges (u[e], v[e]) of log coupling ``log_w[e]``.

    Same messages, schedule and stopping rule as :func:`bpseg_pgm.inference.kernels.flooding.flooding_bp` with the
    Potts update on an :class:`~bpseg_pgm.inference.kernels.layouts.EdgeLayout`, whose slot order ``log_messages`` of
    the result also follows (u -> v for every edge, then every reverse).
    """
    log_unary = np.asarray(log_unary, dtype=np.float64)
    n, K = log_unary.shape
    u = np.ascontiguousarray(u, dtype=np.int64)
    v = np.ascontiguousarray(v, dtype=np.int64)
    log_w = np.ascontiguousarray(log_w, dtype=np.float64)
    m = u.size
    scale, offset, extreme = potts_coefficients(log_w, K)

    msgs = alloc((2, m, K))
    msgs.fill(-np.log(K))
    degree = np.bincount(u, minlength=n) + np.bincount(v, minlength=n)
    incoming = np.repeat((-degree * np.log(K))[:, None], K, axis=1)

    edge_ranges = edge_blocks(m, K)
    parts = np.array_split(np.array(edge_ranges, dtype=np.int64).reshape(-1, 2), N_UNITS)
    units = [list(part) for part in parts if len(part)]  # equal numbers of blocks
    has_extreme = [[bool(extreme[e0:e1].any()) for e0, e1 in unit] for unit in units]
    E = edge_ranges[0][1] - edge_ranges[0][0] if edge_ranges else 0
    bufs = [(np.zeros((2, E, K)), np.zeros((2, E, K)), np.zeros((n, K))) for _ in units]

    def run_unit(w: int, log_b: np.ndarray) -> float:
        cav, H, inc = bufs[w]
        inc.fill(0.0)
        delta = 0.0
        for (e0, e1), ext in zip(units[w], has_extreme[w]):
            c, h = cav[:, : e1 - e0], H[:, : e1 - e0]
            kern.gather_edges(log_b, msgs, u, v, e0, e1, c)
            np.exp(c, out=h)
            kern.scale_offset_edges(h, scale, offset, e0, e1)
            np.log(h, out=h)
            if ext:
                kern.exact_edges(c, h, log_w, extreme, e0, e1, LOG_FLOOR)
            if damping > 0:
                kern.damp_edges(h, msgs, e0, e1, damping)
            delta = max(delta, kern.scatter_edges(h, msgs, u, v, e0, e1, inc))
        return delta

    res = unit_sweeps(
        log_unary, incoming, run_unit, [inc for _, _, inc in bufs],
        n_entries=2 * m * K, max_iter=max_iter, tol=tol, callback=callback,
    )  # fmt: skip
    res.log_messages = msgs.reshape(2 * m, K)
    return res
