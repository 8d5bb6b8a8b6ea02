"""Message buffers: a fit that cannot fit in memory is refused up front with a clear error."""

from __future__ import annotations

import numpy as np
import pytest

import bpseg_pgm.inference.kernels.layouts as layouts
from bpseg_pgm import BPSeg
from bpseg_pgm.inference.kernels.potts import potts_bp


def test_available_bytes_is_plausible():
    free = layouts.available_bytes()
    assert free is None or 0 < free < 2**50


@pytest.mark.parametrize("sparse", [False, True])
def test_too_big_for_memory_is_a_value_error(monkeypatch, sparse):
    monkeypatch.setattr(layouts, "available_bytes", lambda: 2**20)  # pretend 1 MiB is left
    n, K = 300, 30  # 300 x 300 x 30 doubles = 21.6 MB of messages, above the 16 MB check
    u, v = np.triu_indices(n, 1)
    if sparse:
        u, v = u[1:], v[1:]  # all pairs but one: the edge-list sweep
    with pytest.raises(ValueError, match=r"GiB for its messages .* use a sparse graph"):
        potts_bp(np.zeros((n, K)), u, v, np.full(u.size, -1.0))
    with pytest.raises(ValueError, match="GiB for its messages"):
        potts_bp(np.zeros((n, K)), u, v, np.full(u.size, -1.0), backend="numpy")


def test_small_buffers_are_not_checked(monkeypatch):
    monkeypatch.setattr(layouts, "available_bytes", lambda: 0)
    X = np.random.default_rng(0).normal(size=(30, 5))
    assert BPSeg(n_segments=3).fit(X).labels_.shape == (30,)
