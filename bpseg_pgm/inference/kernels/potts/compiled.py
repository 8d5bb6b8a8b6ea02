"""Compiled loops of the Potts sweeps (numba): everything around NumPy's exp and log.

The loops are plain IEEE double arithmetic (no fastmath), so results match the NumPy path to rounding.

* tile kernels, for the complete graph (:mod:`.dense`): each works on one pair of tiles, senders I = [a0, a1) and
  receivers J = [c0, c1), of the (n, n, K) array ``msgs``; a work buffer (2, B, B, K) holds the messages I -> J in
  half 0, indexed [ii, jj], and J -> I in half 1, indexed [jj, ii]; a diagonal tile (a0 == c0) uses half 0 only.
* edge kernels, for any edge list (:mod:`.sparse`): each works on the edges [e0, e1) of a (2, m, K) array; the
  work buffer is (2, E, K) in the same order.

Row views are indexed by loop variables only, so numba drops its negative-index checks and vectorises.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


def _compiled(fn):
    """``numba.njit`` without the GIL, cached on disk where a cache directory is writable."""
    try:
        return njit(nogil=True, cache=True)(fn)
    except RuntimeError:  # numba found no writable cache location: compile per process
        return njit(nogil=True)(fn)


# -- rows ----------------------------------------------------------------------------------
@_compiled
def exact_row(cav, lw, out, floor):
    """out = the normalised log message for cavity ``cav`` and log coupling ``lw``, by exact
    log-sum-exp: log sum_y exp(cav[y] + (0 if y == x else lw)), floored at ``floor``."""
    K = cav.shape[0]
    msg = np.empty(K)
    for x in range(K):
        mx = -np.inf
        for y in range(K):
            mx = max(mx, cav[y] + (0.0 if y == x else lw))
        acc = 0.0
        for y in range(K):
            acc += math.exp(cav[y] + (0.0 if y == x else lw) - mx)
        msg[x] = mx + math.log(acc)
    lse = _logsumexp(msg)
    for x in range(K):
        out[x] = max(msg[x] - lse, floor)


@_compiled
def damp_row(out, old, damping):
    """In place: out = (1 - d) out + d old, renormalised in log space (log-sum-exp 0)."""
    K = out.shape[0]
    for x in range(K):
        out[x] = out[x] * (1.0 - damping) + damping * old[x]
    lse = _logsumexp(out)
    for x in range(K):
        out[x] -= lse


@_compiled
def _logsumexp(v):
    mx = -np.inf
    for x in range(v.shape[0]):
        mx = max(mx, v[x])
    acc = 0.0
    for x in range(v.shape[0]):
        acc += math.exp(v[x] - mx)
    return mx + math.log(acc)


@_compiled
def affine_row(row, scale, offset):
    """In place: row = row * scale / sum(row) + offset (the normalised Potts message, linear)."""
    tot = 0.0
    for x in range(row.shape[0]):
        tot += row[x]
    sc = scale / tot
    for x in range(row.shape[0]):
        row[x] = row[x] * sc + offset


@_compiled
def store_row(new, old, incoming, delta):
    """old = new (the write-back), incoming += new; returns max(delta, largest |new - old|)."""
    for x in range(new.shape[0]):
        d = abs(new[x] - old[x])
        if d > delta:
            delta = d
        old[x] = new[x]
        incoming[x] += new[x]
    return delta


# -- tiles of the complete graph -----------------------------------------------------------
@_compiled
def gather_tiles(log_b, msgs, a0, a1, c0, c1, cav):
    """cav = the cavities of the tile pair: log_b[i] - msgs[j, i] for message i -> j."""
    K = log_b.shape[1]
    for h in range(1 if a0 == c0 else 2):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        lb = log_b[s0:s1]
        for rr in range(r1 - r0):
            reverse = msgs[r0 + rr, s0:s1]  # messages r -> S
            for ss in range(s1 - s0):
                dst, src, b = cav[h, ss, rr], reverse[ss], lb[ss]
                for x in range(K):
                    dst[x] = b[x] - src[x]


@_compiled
def scale_offset_tiles(H, scale, offset, a0, a1, c0, c1):
    """In place: H[., s, r] = H * scale[s, r] / sum(H) + offset[s, r] (s the sender, r the receiver)."""
    for h in range(1 if a0 == c0 else 2):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        for ss in range(s1 - s0):
            sc_row, off_row = scale[s0 + ss, r0:r1], offset[s0 + ss, r0:r1]
            for rr in range(r1 - r0):
                affine_row(H[h, ss, rr], sc_row[rr], off_row[rr])


@_compiled
def exact_tiles(cav, out, log_w, extreme, a0, a1, c0, c1, floor):
    """Recompute by exact log-sum-exp every slot of the tile pair whose coupling is extreme."""
    for h in range(1 if a0 == c0 else 2):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        for ss in range(s1 - s0):
            for rr in range(r1 - r0):
                s, r = s0 + ss, r0 + rr
                if s != r and extreme[s, r]:
                    exact_row(cav[h, ss, rr], log_w[s, r], out[h, ss, rr], floor)


@_compiled
def damp_tiles(out, msgs, a0, a1, c0, c1, damping):
    """Damp every message of the tile pair towards its old value (before ``scatter``)."""
    for h in range(1 if a0 == c0 else 2):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        for ss in range(s1 - s0):
            old = msgs[s0 + ss, r0:r1]
            for rr in range(r1 - r0):
                if s0 + ss != r0 + rr:
                    damp_row(out[h, ss, rr], old[rr], damping)


@_compiled
def scatter_tiles(out, msgs, a0, a1, c0, c1, incoming):
    """Write the tile pair's new messages into ``msgs``; add them to ``incoming`` (n, K).

    Returns the largest absolute change of a log message. Diagonal slots are skipped (they stay log 1 = 0).
    """
    delta = 0.0
    for h in range(1 if a0 == c0 else 2):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        inc = incoming[r0:r1]
        for ss in range(s1 - s0):
            dst_row = msgs[s0 + ss, r0:r1]
            for rr in range(r1 - r0):
                if s0 + ss != r0 + rr:
                    delta = store_row(out[h, ss, rr], dst_row[rr], inc[rr], delta)
    return delta


# -- edge lists ----------------------------------------------------------------------------
@_compiled
def gather_edges(log_b, msgs, u, v, e0, e1, cav):
    """cav[:, e - e0] = the cavities of edge e's messages: log_b[u] - (v -> u), log_b[v] - (u -> v)."""
    K = log_b.shape[1]
    fwd_all, bwd_all = msgs[0, e0:e1], msgs[1, e0:e1]
    for ee in range(e1 - e0):
        bu, bv = log_b[u[e0 + ee]], log_b[v[e0 + ee]]
        fwd, bwd, c_fwd, c_bwd = fwd_all[ee], bwd_all[ee], cav[0, ee], cav[1, ee]
        for x in range(K):
            c_fwd[x] = bu[x] - bwd[x]
            c_bwd[x] = bv[x] - fwd[x]


@_compiled
def scale_offset_edges(H, scale, offset, e0, e1):
    """In place: both messages of edge e get H * scale[e] / sum(H) + offset[e]."""
    for h in range(2):
        for ee in range(e1 - e0):
            affine_row(H[h, ee], scale[e0 + ee], offset[e0 + ee])


@_compiled
def exact_edges(cav, out, log_w, extreme, e0, e1, floor):
    """Recompute by exact log-sum-exp both messages of every edge whose coupling is extreme."""
    for h in range(2):
        for ee in range(e1 - e0):
            if extreme[e0 + ee]:
                exact_row(cav[h, ee], log_w[e0 + ee], out[h, ee], floor)


@_compiled
def damp_edges(out, msgs, e0, e1, damping):
    """Damp both messages of every edge towards their old values (before ``scatter_edges``)."""
    for h in range(2):
        old = msgs[h, e0:e1]
        for ee in range(e1 - e0):
            damp_row(out[h, ee], old[ee], damping)


@_compiled
def scatter_edges(out, msgs, u, v, e0, e1, incoming):
    """Write the edges' new messages into ``msgs``; add them to ``incoming`` (n, K).

    Returns the largest absolute change of a log message.
    """
    delta = 0.0
    for h in range(2):
        dst_all = msgs[h, e0:e1]
        receivers = v if h == 0 else u
        for ee in range(e1 - e0):
            delta = store_row(out[h, ee], dst_all[ee], incoming[receivers[e0 + ee]], delta)
    return delta
