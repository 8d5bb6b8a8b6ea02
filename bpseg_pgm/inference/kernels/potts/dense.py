"""Flooding loopy BP with Potts factors on the complete graph, in tile pairs.

Messages live in one (n, n, K) log array, slot [i, j] holding i -> j. The new message i -> j needs the old reverse
message j -> i, so the sweep walks pairs of tiles, senders I with receivers J together with J with I: both reads
stay in cache. A tile pair reads all its old messages before it writes its new ones and no other tile pair touches
them, so the update is in place, in one buffer: the flooding schedule exactly. exp and log run as NumPy's ufuncs
on a whole tile pair, the loops around them are compiled (:mod:`.compiled`), and the tile pairs are split into a
fixed number of work units for :func:`~bpseg_pgm.inference.kernels.flooding.unit_sweeps`.
"""

from __future__ import annotations

import numpy as np

from ..flooding import LOG_FLOOR, N_UNITS, BPResult, unit_sweeps
from ..layouts import alloc
from . import compiled as kern
from .coefficients import potts_coefficients

#: Entries per tile half (B x B x K): B = 40 at K = 20.
TILE_ENTRIES = 1 << 15


def tile_size(n: int, K: int) -> int:
    """Tile side B: B * B * K about TILE_ENTRIES, at least 4, at most n."""
    return int(min(n, max(4, round(np.sqrt(TILE_ENTRIES / max(K, 1))))))


def tile_pairs(n: int, B: int) -> list[tuple[int, int, int, int]]:
    """Tile pairs (a0, a1, c0, c1) with I = [a0, a1) <= J = [c0, c1), row by row."""
    edges = list(range(0, n, B)) + [n]
    spans = list(zip(edges[:-1], edges[1:]))
    return [(a0, a1, c0, c1) for p, (a0, a1) in enumerate(spans) for (c0, c1) in spans[p:]]


def split_units(pairs, n_units: int = N_UNITS) -> list[list]:
    """Contiguous groups of tile pairs with about equal numbers of messages."""
    work = np.array([(a1 - a0) * (c1 - c0) * (1 if a0 == c0 else 2) for a0, a1, c0, c1 in pairs], dtype=float)
    bounds = np.searchsorted(np.cumsum(work), np.linspace(0, work.sum(), n_units + 1)[1:-1], side="right")
    return [u for u in np.split(np.array(pairs, dtype=np.int64).reshape(-1, 4), bounds) if len(u)]


def dense_potts_bp(log_unary, log_w, *, max_iter=100, tol=1e-6, damping=0.0, callback=None) -> BPResult:
    """Loopy sum-product on the complete graph with Potts factors of log coupling ``log_w`` (n, n).

    Same messages, schedule and stopping rule as :func:`bpseg_pgm.inference.kernels.flooding.flooding_bp`
    with the Potts update; ``log_messages`` of the result is the (n * n, K) slot array.
    """
    log_unary = np.asarray(log_unary, dtype=np.float64)
    n, K = log_unary.shape
    log_w = np.ascontiguousarray(log_w, dtype=np.float64)
    scale, offset, extreme = potts_coefficients(log_w, K)
    scale, offset = scale.reshape(n, n), offset.reshape(n, n)
    extreme = np.ascontiguousarray(extreme.reshape(n, n))
    np.fill_diagonal(extreme, False)

    msgs = alloc((n, n, K))
    msgs.fill(-np.log(K))
    msgs[np.arange(n), np.arange(n)] = 0.0
    incoming = np.full((n, K), -(n - 1) * np.log(K))

    B = tile_size(n, K)
    units = split_units(tile_pairs(n, B))
    has_extreme = [[bool(extreme[a0:a1, c0:c1].any()) for a0, a1, c0, c1 in unit] for unit in units]
    bufs = [(np.zeros((2, B, B, K)), np.zeros((2, B, B, K)), np.zeros((n, K))) for _ in units]

    def run_unit(u: int, log_b: np.ndarray) -> float:
        cav, H, inc = bufs[u]
        inc.fill(0.0)
        delta = 0.0
        for (a0, a1, c0, c1), ext in zip(units[u], has_extreme[u]):
            kern.gather_tiles(log_b, msgs, a0, a1, c0, c1, cav)
            views = _halves(a0, a1, c0, c1, B)
            for v in views:
                np.exp(cav[v], out=H[v])
            kern.scale_offset_tiles(H, scale, offset, a0, a1, c0, c1)
            for v in views:
                np.log(H[v], out=H[v])
            if ext:
                kern.exact_tiles(cav, H, log_w, extreme, a0, a1, c0, c1, LOG_FLOOR)
            if damping > 0:
                kern.damp_tiles(H, msgs, a0, a1, c0, c1, damping)
            delta = max(delta, kern.scatter_tiles(H, msgs, a0, a1, c0, c1, inc))
        return delta

    res = unit_sweeps(
        log_unary, incoming, run_unit, [inc for _, _, inc in bufs],
        n_entries=n * (n - 1) * K, max_iter=max_iter, tol=tol, callback=callback,
    )  # fmt: skip
    res.log_messages = msgs.reshape(n * n, K)
    return res


def _halves(a0, a1, c0, c1, B):
    """Index tuples of the used part of a (2, B, B, K) tile-pair buffer."""
    ra, rc = a1 - a0, c1 - c0
    if a0 == c0:
        return [(0, slice(0, ra), slice(0, rc))]
    if ra == rc == B:
        return [slice(0, 2)]
    return [(0, slice(0, ra), slice(0, rc)), (1, slice(0, rc), slice(0, ra))]
