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
