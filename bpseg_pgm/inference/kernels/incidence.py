"""Directed slots of an edge list grouped by sender, for the engines that update one sentence at a time."""

from __future__ import annotations

import numpy as np


def sender_slots(n: int, u, v):
    """Slots 0..2m-1 (slot e: u[e] -> v[e], slot m + e: v[e] -> u[e]) sorted by sender.

    Returns ``order`` (slots by sender), ``ptr`` (sender i's slots are order[ptr[i]:ptr[i+1]]),
    and per slot its ``edge``, receiver ``dst`` and whether it runs u -> v (``forward``).
    """
    u = np.asarray(u, dtype=np.int64)
    v = np.asarray(v, dtype=np.int64)
    src = np.concatenate([u, v])
    dst = np.concatenate([v, u])
    edge = np.concatenate([np.arange(u.size), np.arange(u.size)])
    forward = np.concatenate([np.ones(u.size, bool), np.zeros(u.size, bool)])
    order = np.argsort(src, kind="stable")
    ptr = np.searchsorted(src[order], np.arange(n + 1))
    return order, ptr, edge, dst, forward


def pairwise_arrays(log_unary, u, v, log_coupling, log_tables):
    """The checked arrays of a pairwise model given by Potts couplings or by full tables:
    ``(log_unary float64 (n, k), u int64, v int64)``; exactly one of the two must be given."""
    if (log_coupling is None) == (log_tables is None):
        raise ValueError("give exactly one of log_coupling= or log_tables=")
    return (np.asarray(log_unary, dtype=np.float64), np.asarray(u, dtype=np.int64), np.asarray(v, dtype=np.int64))
