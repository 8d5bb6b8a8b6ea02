"""Where messages live: one row of a (slots, K) log-message array per directed message.

:class:`EdgeLayout` lays out any edge set so that the loops work on contiguous blocks of slots: slot d < m holds
u[d] -> v[d], slot d + m the reverse. Big message buffers come from :func:`alloc`, which pre-faults the pages in
one system call.
"""

from __future__ import annotations

import mmap

import numpy as np
import scipy.sparse as sp

from bpseg_pgm.utils.memory import available_bytes  # called as this module's global: tests patch it here

_POPULATE_BYTES = 16 * 2**20


def alloc(shape, dtype=np.float64) -> np.ndarray:
    """An uninitialised array; large ones are mapped with MAP_POPULATE where available.

    A message buffer larger than the memory still available raises ``ValueError`` at once,
    instead of leaving the process to the out-of-memory killer halfway through a fit.
    """
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    free = available_bytes() if nbytes >= _POPULATE_BYTES else None
    if free is not None and nbytes > 0.9 * free:
        raise ValueError(
            f"belief propagation needs {nbytes / 2**30:.1f} GiB for its messages {tuple(shape)} but only "
            f"{free / 2**30:.1f} GiB of memory is available; use a sparse graph (BPSeg(neighbors='auto') "
            "or bpseg_pgm.graph.sparse_pairs) or fewer labels"
        )
    flag = getattr(mmap, "MAP_POPULATE", 0)
    if nbytes < _POPULATE_BYTES or not flag:
        return np.empty(shape, dtype=dtype)
    buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | flag)
    return np.frombuffer(buf, dtype=dtype).reshape(shape)


def blocks(n_slots: int, K: int, target: int = 1 << 17):
    """Contiguous slot slices of about ``target`` entries each (cache-sized work units)."""
    step = max(1, target // max(K, 1))
    return [slice(s, min(s + step, n_slots)) for s in range(0, n_slots, step)]


class EdgeLayout:
    """Directed messages of an explicit edge list (u[e], v[e])."""

    def __init__(self, n: int, u, v):
        u = np.asarray(u, dtype=np.int64)
        v = np.asarray(v, dtype=np.int64)
        self.n = n
        self.m = u.size
        self.src = np.concatenate([u, v])
        self.dst = np.concatenate([v, u])
        self.rev = (np.arange(2 * self.m) + self.m) % max(2 * self.m, 1)
        self.n_slots = 2 * self.m
        self._incoming = sp.csr_matrix(
            (np.ones(self.n_slots), (self.dst, np.arange(self.n_slots))), shape=(n, self.n_slots)
        )

    def blocks(self, K: int):
        return blocks(self.n_slots, K)

    def incoming(self, msgs: np.ndarray) -> np.ndarray:
        """(n, K): sum of log messages into each node."""
        return np.asarray(self._incoming @ msgs)

    def cavity(self, log_b: np.ndarray, msgs: np.ndarray, sl: slice) -> np.ndarray:
        """cavity[d] = log_b[src[d]] - msgs[rev[d]] for the slots in ``sl``."""
        return log_b[self.src[sl]] - msgs[self.rev[sl]]

    def per_slot(self, values_per_edge: np.ndarray) -> np.ndarray:
        """Lay an (m,) per-undirected-edge array over the 2m slots."""
        return np.concatenate([values_per_edge, values_per_edge])

    def finish(self, msgs: np.ndarray, sl: slice) -> None:
        """Nothing to fix up for explicit edges."""
