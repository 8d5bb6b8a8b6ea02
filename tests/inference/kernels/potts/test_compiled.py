"""The compiled in-place Potts sweeps (complete graph in tile pairs, edge lists) against NumPy.

They share only the Potts coefficients with the NumPy sweep (``potts_bp(backend="numpy")``:
``flooding_bp`` over an ``EdgeLayout``, two buffers, NumPy broadcasting), an independent
implementation of the same flooding schedule, so on the same input every message must
agree to rounding.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paper_model import unit

import bpseg_pgm.inference.kernels.flooding as flooding
import bpseg_pgm.inference.kernels.potts.dense as dp
import bpseg_pgm.inference.kernels.potts.sparse as sp
from bpseg_pgm.inference.kernels.layouts import EdgeLayout
from bpseg_pgm.inference.kernels.potts import potts_bp


def numpy_path(log_unary, W, pairs=None, **kw):
    """The same BP through the NumPy sweep; messages also as an (n, n, K) array."""
    n, K = log_unary.shape
    u, v = np.triu_indices(n, 1) if pairs is None else np.asarray(pairs).T
    res = potts_bp(log_unary, u, v, W[u, v], backend="numpy", **kw)
    layout = EdgeLayout(n, u, v)
    M = np.zeros((n, n, K))
    M[layout.src, layout.dst] = res.log_messages
    return res, M


def assert_same_run(got, ref, atol=1e-12):
    assert got.n_iter == ref.n_iter and got.converged == ref.converged
    np.testing.assert_allclose(got.deltas, ref.deltas, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(got.beliefs, ref.beliefs, rtol=0, atol=atol)
    assert len(set(got.beliefs.argmax(axis=1))) > 1  # not collapsed to one label


def some_pairs(n, p, seed):
    u, v = np.triu_indices(n, 1)
    keep = np.random.default_rng(seed).random(u.size) < p
    keep[: n - 1] = True  # and every sentence on some edge
    return np.stack([u[keep], v[keep]], axis=1)


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
    ref, M = numpy_path(log_unary, W, **kw)
    got = dp.dense_potts_bp(log_unary, W, **kw)
    assert_same_run(got, ref)
    np.testing.assert_allclose(got.log_messages.reshape(n, n, K), M, rtol=0, atol=1e-11)
    assert (got.log_messages.reshape(n, n, K)[np.arange(n), np.arange(n)] == 0).all()


@pytest.mark.parametrize(
    "n, K, p, damping, extreme, block",
    [
        (3, 2, 0.0, 0.0, False, None),  # a path of 2 edges
        (45, 6, 0.3, 0.0, False, None),  # one block
        (130, 8, 0.5, 0.3, False, 64),  # 4 edges a block, ragged last block, 8 units
        (90, 5, 0.4, 0.0, True, 100),  # exact paths in some blocks only
        (90, 5, 0.4, 0.4, True, None),
    ],
)
def test_edge_sweep_matches_numpy_sweep(monkeypatch, n, K, p, damping, extreme, block):
    if block is not None:
        monkeypatch.setattr(sp, "BLOCK_ENTRIES", block)
    log_unary, W = problem(n, K, seed=n + K, extreme=extreme)
    pairs = some_pairs(n, p, seed=n)
    kw = dict(max_iter=30, tol=1e-12, damping=damping)
    ref, _ = numpy_path(log_unary, W, pairs, **kw)
    got = potts_bp(log_unary, pairs[:, 0], pairs[:, 1], W[pairs[:, 0], pairs[:, 1]], **kw)
    assert len(pairs) < n * (n - 1) // 2  # really the edge-list sweep, not the dense one
    assert_same_run(got, ref)
    np.testing.assert_allclose(got.log_messages, ref.log_messages, rtol=0, atol=1e-11)
    if block is not None:
        assert len(sp.edge_blocks(len(pairs), K)) > sp.N_UNITS


def test_unknown_backend():
    with pytest.raises(ValueError, match="backend"):
        potts_bp(np.zeros((3, 2)), [0], [1], [0.0], backend="cuda")


@pytest.mark.parametrize("sparse", [False, True])
def test_thread_count_does_not_change_the_result(monkeypatch, sparse):
    log_unary, W = problem(130, 8, seed=5)
    pairs = some_pairs(130, 0.5, seed=1) if sparse else np.stack(np.triu_indices(130, 1), axis=1)
    monkeypatch.setattr(sp, "BLOCK_ENTRIES", 256)
    monkeypatch.setattr(flooding, "PARALLEL_ENTRIES", 0)  # threads even for this small input

    def run(threads):
        monkeypatch.setattr(flooding, "n_threads", lambda: threads)
        return potts_bp(log_unary, pairs[:, 0], pairs[:, 1], W[pairs[:, 0], pairs[:, 1]], max_iter=20, tol=1e-14)

    two, one = run(2), run(1)
    np.testing.assert_array_equal(one.beliefs, two.beliefs)
    np.testing.assert_array_equal(one.log_messages, two.log_messages)
    assert len(set(one.beliefs.argmax(axis=1))) > 1


def test_callback_sees_every_sweep():
    log_unary, W = problem(20, 4, seed=2)
    seen = []
    res = dp.dense_potts_bp(log_unary, W, max_iter=50, tol=1e-10, callback=lambda t, b: seen.append((t, b)))
    assert [t for t, _ in seen] == list(range(1, res.n_iter + 1))
    np.testing.assert_allclose(seen[-1][1], res.beliefs, rtol=0, atol=0)
    np.testing.assert_allclose(seen[-1][1].sum(axis=1), 1.0)


@st.composite
def potts_problems(draw):
    """Any small Potts problem: complete or partial edge sets, couplings across both exact paths."""
    n = draw(st.integers(2, 24))
    K = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    u, v = np.triu_indices(n, 1)
    if draw(st.booleans()):
        keep = rng.random(u.size) < draw(st.floats(0.05, 0.95))
        u, v = u[keep], v[keep]
    lo, hi = draw(st.sampled_from([(-3.0, 1.0), (-800.0, 8.0), (-700.0, -590.0)]))
    log_w = rng.uniform(lo, hi, size=u.size)
    log_unary = rng.normal(scale=draw(st.sampled_from([0.5, 5.0])), size=(n, K))
    return log_unary, u, v, log_w, draw(st.sampled_from([0.0, 0.5]))


@settings(max_examples=40, deadline=None)
@given(potts_problems())
def test_compiled_sweeps_match_numpy_on_any_small_problem(problem):
    log_unary, u, v, log_w, damping = problem
    kw = dict(max_iter=12, tol=1e-12, damping=damping)
    ref = potts_bp(log_unary, u, v, log_w, backend="numpy", **kw)
    got = potts_bp(log_unary, u, v, log_w, **kw)
    assert got.n_iter == ref.n_iter and got.converged == ref.converged
    assert np.all(np.isfinite(got.beliefs))
    np.testing.assert_allclose(got.beliefs.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.beliefs, ref.beliefs, rtol=0, atol=1e-10)
    if got.log_messages.shape == ref.log_messages.shape:  # edge lists: the same slot order
        np.testing.assert_allclose(got.log_messages, ref.log_messages, rtol=0, atol=1e-9)


def test_kernels_compile_without_a_writable_cache(monkeypatch):
    """numba raises RuntimeError when it finds no cache location; the kernels then compile per process."""
    import importlib

    import numba

    import bpseg_pgm.inference.kernels.potts.compiled as kernels

    real_njit = numba.njit

    def njit_without_cache(*args, **kw):
        if kw.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return real_njit(*args, **kw)

    monkeypatch.setattr(numba, "njit", njit_without_cache)
    try:
        importlib.reload(kernels)
        assert type(kernels.scatter_edges._cache).__name__ == "NullCache"  # really compiled uncached
        log_unary, W = problem(12, 3, seed=4)
        pairs = some_pairs(12, 0.5, seed=4)
        got = potts_bp(log_unary, pairs[:, 0], pairs[:, 1], W[pairs[:, 0], pairs[:, 1]], max_iter=10, tol=1e-12)
        ref = potts_bp(
            log_unary, pairs[:, 0], pairs[:, 1], W[pairs[:, 0], pairs[:, 1]], max_iter=10, tol=1e-12, backend="numpy"
        )
        np.testing.assert_allclose(got.beliefs, ref.beliefs, rtol=0, atol=1e-12)
    finally:
        monkeypatch.undo()
        importlib.reload(kernels)
