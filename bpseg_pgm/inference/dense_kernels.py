"""Compiled loops of the dense Potts sweep (numba): everything around NumPy's exp and log.

Each function works on one pair of tiles: senders I = [a0, a1) and receivers J = [c0, c1)
of an (n, n, K) log-message array ``msgs`` (slot [i, j] holds i -> j). A work buffer of
shape (2, B, B, K) holds the tile's messages I -> J in half 0, indexed [ii, jj], and the
reverse messages J -> I in half 1, indexed [jj, ii]; a diagonal tile (a0 == c0) uses half
0 only. The arithmetic is the Potts kernel's (:mod:`bpseg_pgm.inference.potts`); the loops
are plain IEEE double arithmetic (no fastmath), so results match the NumPy path.
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


@_compiled
def gather(log_b, msgs, a0, a1, c0, c1, cav):
    """cav = the cavities of the tile pair: log_b[i] - msgs[j, i] for message i -> j."""
    # row views, indexed by loop variables only, let numba drop its negative-index checks
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
def scale_offset(H, scale, offset, a0, a1, c0, c1):
    """In place: H[., s, r] = H * scale[s, r] / sum(H) + offset[s, r] (s the sender, r the receiver)."""
    K = H.shape[3]
    for h in range(1 if a0 == c0 else 2):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        for ss in range(s1 - s0):
            sc_row, off_row = scale[s0 + ss, r0:r1], offset[s0 + ss, r0:r1]
            for rr in range(r1 - r0):
                row = H[h, ss, rr]
                tot = 0.0
                for x in range(K):
                    tot += row[x]
                sc, off = sc_row[rr] / tot, off_row[rr]
                for x in range(K):
                    row[x] = row[x] * sc + off


@_compiled
def exact_slots(cav, out, log_w, extreme, a0, a1, c0, c1, floor):
    """Recompute by exact log-sum-exp every slot of the tile pair whose coupling is extreme."""
    K = cav.shape[3]
    halves = 1 if a0 == c0 else 2
    msg = np.empty(K)
    for h in range(halves):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        for ss in range(s1 - s0):
            for rr in range(r1 - r0):
                s, r = s0 + ss, r0 + rr
                if s == r or not extreme[s, r]:
                    continue
                lw = log_w[s, r]
                for x in range(K):
                    # log sum_y exp(cav[y] + (0 if y == x else lw))
                    mx = -np.inf
                    for y in range(K):
                        v = cav[h, ss, rr, y] + (0.0 if y == x else lw)
                        mx = max(mx, v)
                    acc = 0.0
                    for y in range(K):
                        acc += math.exp(cav[h, ss, rr, y] + (0.0 if y == x else lw) - mx)
                    msg[x] = mx + math.log(acc)
                mx = msg.max()
                acc = 0.0
                for x in range(K):
                    acc += math.exp(msg[x] - mx)
                lse = mx + math.log(acc)
                for x in range(K):
                    out[h, ss, rr, x] = max(msg[x] - lse, floor)


@_compiled
def damp(out, msgs, a0, a1, c0, c1, damping):
    """In place: out = (1 - d) out + d old, then renormalised in log space (log-sum-exp 0)."""
    K = out.shape[3]
    halves = 1 if a0 == c0 else 2
    for h in range(halves):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        for ss in range(s1 - s0):
            for rr in range(r1 - r0):
                s, r = s0 + ss, r0 + rr
                if s == r:
                    continue
                mx = -np.inf
                for x in range(K):
                    v = out[h, ss, rr, x] * (1.0 - damping) + damping * msgs[s, r, x]
                    out[h, ss, rr, x] = v
                    mx = max(mx, v)
                acc = 0.0
                for x in range(K):
                    acc += math.exp(out[h, ss, rr, x] - mx)
                lse = mx + math.log(acc)
                for x in range(K):
                    out[h, ss, rr, x] -= lse


@_compiled
def scatter(out, msgs, a0, a1, c0, c1, incoming):
    """Write the tile pair's new messages into ``msgs``; add them to ``incoming`` (n, K).

    Returns the largest absolute change of a log message. Diagonal slots are skipped (they
    stay log 1 = 0).
    """
    K = out.shape[3]
    delta = 0.0
    for h in range(1 if a0 == c0 else 2):
        s0, s1, r0, r1 = (a0, a1, c0, c1) if h == 0 else (c0, c1, a0, a1)
        inc = incoming[r0:r1]
        for ss in range(s1 - s0):
            dst_row = msgs[s0 + ss, r0:r1]
            for rr in range(r1 - r0):
                if s0 + ss == r0 + rr:
                    continue
                new, old, acc = out[h, ss, rr], dst_row[rr], inc[rr]
                for x in range(K):
                    d = abs(new[x] - old[x])
                    if d > delta:
                        delta = d
                    old[x] = new[x]
                    acc[x] += new[x]
    return delta
