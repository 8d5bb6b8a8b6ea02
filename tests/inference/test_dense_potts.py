"""The tiled, compiled sweep for the complete graph against the NumPy edge-list sweep.

The two share only the Potts coefficients; the edge-list path (``flooding_bp`` over an
``EdgeLayout``, two buffers, NumPy broadcasting) is an independent implementation of the
same flooding schedule, so on the same input every message must agree to rounding.
"""

from __future__ import annotations

import numpy as np
import pytest
from paper_model import rand_X, unit

import bpseg_pgm.inference.dense_potts as dp
from bpseg_pgm.inference import flooding_bp
from bpseg_pgm.inference.layouts import EdgeLayout
from bpseg_pgm.inference.potts import potts_update


def edge_path(log_unary, W, **kw):
    """The same BP through the generic edge-list sweep; messages returned as an (n, n, K) array."""
    n, K = log_unary.shape
    u, v = np.triu_indices(n, 1)
    layout = EdgeLayout(n, u, v)
    res = flooding_bp(log_unary, layout, potts_update(layout.per_slot(W[u, v]), K), **kw)
    M = np.zeros((n, n, K))
    M[layout.src, layout.dst] = res.log_messages
    return res, M


def problem(n, K, seed, extreme=False):
    """K clusters of unit vectors (sentence i in cluster i mod K), one representative each.

    Couplings attract within a cluster (w < 1) and repel across (w > 1), so the answer has
    several labels. ``extreme`` puts some log w below -600 and some above 5, where the Potts
    kernel switches to its exact log-sum-exp path.
    """
    rng = np.random.default_rng(seed)
    centres = unit(rng.normal(size=(K, 8)))
    cluster = np.arange(n) % K
    Xn = unit(centres[cluster] + 0.3 * rng.normal(size=(n, 8)))
    same = cluster[:, None] == cluster[None, :]
    noise = rng.uniform(0, 1, size=(n, n))
    W = np.where(same, -1.0 - 2 * noise, 0.1 + 0.4 * noise)
    if extreme:
        W = np.where(same & (noise < 0.5), -650.0 - 50 * noise, W)
        W = np.where(~same & (noise > 0.95), 5.0 + 10 * (noise - 0.95), W)
    W = np.triu(W, 1)
    return 3.0 * Xn @ Xn[:K].T, W + W.T


def test_tiles_cover_every_message_once():
    for n, B in [(1, 1), (7, 3), (10, 10), (90, 81), (130, 64)]:
        seen = np.zeros((n, n), dtype=int)
        for unit_pairs in dp.split_units(dp.tile_pairs(n, B)):
            for a0, a1, c0, c1 in unit_pairs:
                seen[a0:a1, c0:c1] += 1
                if a0 != c0:
                    seen[c0:c1, a0:a1] += 1
        assert (seen == 1).all()


def test_tile_size_bounds():
    assert dp.tile_size(3, 20) == 3
    assert dp.tile_size(1000, 20) * dp.tile_size(1000, 20) * 20 <= 2 * dp.TILE_ENTRIES
    assert dp.tile_size(10_000, 10_000) == 4


@pytest.mark.parametrize(
    "n, K, damping, extreme",
    [
        (2, 2, 0.0, False),
        (45, 6, 0.0, False),  # one tile
        (130, 8, 0.3, False),  # square and ragged tiles, several work units
        (90, 5, 0.0, True),  # log w < -600 and > 5: exact slots in ragged tiles
        (90, 5, 0.4, True),  # the same with damping
    ],
)
def test_dense_sweep_matches_edge_list_sweep(n, K, damping, extreme):
    log_unary, W = problem(n, K, seed=n + K, extreme=extreme)
    if extreme:
        off = ~np.eye(n, dtype=bool)
        assert (W[off] < -600).sum() > n and (W[off] > 5).sum() > n and (np.abs(W[off]) < 5).any()
    kw = dict(max_iter=30, tol=1e-12, damping=damping)
    ref, M = edge_path(log_unary, W, **kw)
    got = dp.dense_potts_bp(log_unary, W, **kw)
    assert got.n_iter == ref.n_iter and got.converged == ref.converged
    np.testing.assert_allclose(got.deltas, ref.deltas, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got.beliefs, ref.beliefs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.log_messages.reshape(n, n, K), M, rtol=0, atol=1e-11)
    assert (got.log_messages.reshape(n, n, K)[np.arange(n), np.arange(n)] == 0).all()
    assert len(set(got.beliefs.argmax(axis=1))) > 1  # not collapsed to one label


def test_thread_count_does_not_change_the_result(monkeypatch):
    log_unary, W = problem(130, 8, seed=5)
    assert len(dp.split_units(dp.tile_pairs(130, dp.tile_size(130, 8)))) > 1
    monkeypatch.setattr(dp, "PARALLEL_ENTRIES", 0)  # threads even for this small input
    monkeypatch.setattr(dp, "n_threads", lambda: 2)
    two = dp.dense_potts_bp(log_unary, W, max_iter=20, tol=1e-14)
    monkeypatch.setattr(dp, "n_threads", lambda: 1)
    one = dp.dense_potts_bp(log_unary, W, max_iter=20, tol=1e-14)
    np.testing.assert_array_equal(one.beliefs, two.beliefs)
    np.testing.assert_array_equal(one.log_messages, two.log_messages)


def test_callback_sees_every_sweep():
    log_unary, W = problem(20, 4, seed=2)
    seen = []
    res = dp.dense_potts_bp(log_unary, W, max_iter=50, tol=1e-10, callback=lambda t, b: seen.append((t, b)))
    assert [t for t, _ in seen] == list(range(1, res.n_iter + 1))
    np.testing.assert_allclose(seen[-1][1], res.beliefs, rtol=0, atol=0)
    np.testing.assert_allclose(seen[-1][1].sum(axis=1), 1.0)
