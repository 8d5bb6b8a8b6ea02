"""The exact segmental programme: segment costs, the DP against brute force, and k against noise."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.costs import cost_matrix, segment_costs
from bpseg_pgm.runs.null import block_permutation, noise_calibrated_k, null_gain
from bpseg_pgm.runs.search import backtrack, null_costs, segmental_levels


def direct_cost(F, w, a, b):
    """sum_{a <= i < b} w_i |F_i - mu|^2 with mu the weighted mean of the segment, by hand."""
    seg, ws = F[a:b], w[a:b]
    if ws.sum() == 0:
        return 0.0
    mu = (ws[:, None] * seg).sum(axis=0) / ws.sum()
    return float(sum(wi * np.sum((fi - mu) ** 2) for fi, wi in zip(seg, ws)))


def all_segmentations(n, k, min_size=1):
    """Every split of range(n) into k non-empty contiguous segments, as boundary lists [0, ..., n]."""
    for cuts in itertools.combinations(range(1, n), k - 1):
        bounds = [0, *cuts, n]
        if all(b - a >= min_size for a, b in zip(bounds[:-1], bounds[1:])):
            yield bounds


def labels_of(bounds, n):
    labels = np.zeros(n, dtype=np.int64)
    for j, start in enumerate(bounds[1:-1], start=1):
        labels[start:] = j
    return labels


def _problem(n, d, seed, weighted=True):
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(n, d))
    w = rng.uniform(0.2, 2.0, size=n) if weighted else np.ones(n)
    return F, w


# -- cost_matrix -----------------------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
def test_cost_matrix_is_the_weighted_scatter(weighted):
    n = 8
    F, w = _problem(n, 3, 0, weighted)
    C = cost_matrix(F, w)
    assert C.shape == (n + 1, n + 1)
    for a in range(n + 1):
        for b in range(n + 1):
            if b <= a:
                assert C[a, b] == np.inf
            else:
                assert C[a, b] == pytest.approx(direct_cost(F, w, a, b), rel=1e-9, abs=1e-10)
    one = np.diag(C, 1)  # one unit: no scatter, and rounding never makes a cost negative
    assert np.all(one >= 0.0) and np.all(one < 1e-12)
    assert np.all(C[np.triu_indices(n + 1, 1)] >= 0.0)


def test_cost_matrix_with_zero_weights():
    F, w = _problem(6, 2, 1)
    w[2:4] = 0.0  # units that do not count: a segment of them alone costs nothing
    C = cost_matrix(F, w)
    assert C[2, 4] == 0.0
    for a, b in [(0, 6), (1, 5), (3, 6)]:
        assert C[a, b] == pytest.approx(direct_cost(F, w, a, b), rel=1e-9)
    np.testing.assert_allclose(cost_matrix(F, np.ones(6)), cost_matrix(F, 2.0 * np.ones(6)) / 2.0, rtol=1e-12)


def test_cost_of_identical_rows_is_zero():
    F = np.tile([[0.6, 0.8]], (5, 1))
    C = cost_matrix(F, np.ones(5))
    assert np.all(C[np.triu_indices(6, 1)] == pytest.approx(0.0, abs=1e-12))


# -- segment_costs + backtrack against brute force -------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 9])
@pytest.mark.parametrize("min_size", [1, 2, 3])
@pytest.mark.parametrize("seed", [0, 1])
def test_dp_matches_brute_force(n, min_size, seed):
    F, w = _problem(n, 3, seed + 10 * n)
    C = cost_matrix(F, w)
    K = 5
    costs, arg = segment_costs(C, K, min_size)
    assert costs.shape == (K + 1,) and costs[0] == np.inf
    for k in range(1, K + 1):
        candidates = list(all_segmentations(n, k, min_size)) if k <= n else []
        if not candidates:
            assert costs[k] == np.inf
            continue
        totals = [sum(direct_cost(F, w, a, b) for a, b in zip(s[:-1], s[1:])) for s in candidates]
        best = int(np.argmin(totals))
        assert costs[k] == pytest.approx(totals[best], rel=1e-9, abs=1e-10)
        labels = backtrack(arg, k, n)
        assert labels.dtype == np.int64 and labels.shape == (n,)
        # k contiguous runs numbered 0..k-1 in reading order, each of at least min_size units
        np.testing.assert_array_equal(np.unique(labels), np.arange(k))
        assert np.all(np.diff(labels) >= 0) and np.all(np.diff(labels) <= 1)
        assert np.bincount(labels).min() >= min_size
        got = sum(direct_cost(F, w, *np.flatnonzero(labels == j)[[0, -1]] + [0, 1]) for j in range(k))
        assert got == pytest.approx(totals[best], rel=1e-9, abs=1e-10)


@pytest.mark.parametrize("n, K, min_size", [(40, 40, 1), (40, 60, 1), (120, 50, 1), (90, 20, 3)])
def test_dp_equals_the_programme_over_the_whole_matrix(n, K, min_size):
    """The programme skips the rows and columns that must be inf at each k: same costs, same arg-mins
    (ties included: some rows repeat, some weigh nothing), so the same labels as over the whole matrix."""
    rng = np.random.default_rng(n + K)
    F, w = rng.normal(size=(n, 3)), rng.uniform(0.0, 1.0, n) * (rng.uniform(size=n) > 0.2)
    F[5:12] = F[5]
    C = cost_matrix(F, w)
    costs, arg = segment_costs(C, K, min_size)
    if min_size > 1:
        C = C.copy()
        for d in range(1, min_size):
            C[np.arange(n + 1 - d), np.arange(d, n + 1)] = np.inf
    D = np.full((K + 1, n + 1), np.inf)
    D[0, 0] = 0.0
    full = np.zeros((K + 1, n + 1), dtype=np.int64)
    for k in range(1, K + 1):
        M = D[k - 1][:, None] + C
        full[k] = np.argmin(M, axis=0)
        D[k] = M[full[k], np.arange(n + 1)]
    np.testing.assert_array_equal(costs, D[:, n])
    np.testing.assert_array_equal(arg, full)


def test_costs_never_increase_with_more_segments():
    F, w = _problem(30, 4, 3)
    costs, _ = segment_costs(cost_matrix(F, w), 12)
    assert np.all(np.diff(costs[1:]) <= 1e-12)
    assert costs[1] == pytest.approx(direct_cost(F, w, 0, 30))


def test_backtrack_recovers_planted_boundaries():
    F = np.repeat(np.eye(3), [4, 2, 5], axis=0)  # three constant blocks: cost 0 with 3 segments
    costs, arg = segment_costs(cost_matrix(F, np.ones(11)), 4)
    assert costs[3] == pytest.approx(0.0, abs=1e-12) and costs[2] > 1.0
    np.testing.assert_array_equal(backtrack(arg, 3, 11), [0] * 4 + [1] * 2 + [2] * 5)
    np.testing.assert_array_equal(backtrack(arg, 1, 11), np.zeros(11))


# -- noise_calibrated_k ----------------------------------------------------------------------------


def test_noise_calibrated_k_by_hand():
    inf = np.inf
    # real reductions 0, 6, 9, 10; shuffled reductions 0, 1, 2, 6 -> gains 0, 5, 7, 4 -> k = 3
    real = np.array([inf, 10.0, 4.0, 1.0, 0.0])
    noise = np.array([inf, 10.0, 9.0, 8.0, 4.0])
    assert noise_calibrated_k(real, noise) == 3
    # noise explains as much as the document: one segment
    assert noise_calibrated_k(real, real) == 1
    assert noise_calibrated_k(real, np.array([inf, 10.0, 3.0, 0.0, 0.0])) == 1
    # an impossible k (inf cost) is never chosen
    assert noise_calibrated_k(np.array([inf, 10.0, 4.0, inf]), np.array([inf, 10.0, 9.0, 9.0])) == 2
    assert noise_calibrated_k(np.array([inf, 10.0, 4.0, 0.0]), np.array([inf, 10.0, 9.0, inf])) == 2


def test_null_gain_is_what_noise_calibrated_k_maximises():
    inf = np.inf
    real = np.array([inf, 10.0, 4.0, 1.0, 0.0])
    noise = np.array([inf, 10.0, 9.0, 8.0, 4.0])
    np.testing.assert_array_equal(null_gain(real, noise), [0.0, 5.0, 7.0, 4.0])
    gain = null_gain(np.array([inf, 10.0, 4.0, inf]), np.array([inf, 10.0, 9.0, 9.0]))
    np.testing.assert_array_equal(gain, [0.0, 5.0, -inf])


# -- block_permutation -----------------------------------------------------------------------------


@pytest.mark.parametrize("n, block", [(1, 1.0), (10, 1.0), (10, 3.0), (17, 4.4), (17, 4.6), (9, 0.2), (5, 50.0)])
def test_block_permutation_is_a_permutation_of_contiguous_blocks(n, block):
    perm = block_permutation(n, block, random_state=7)
    assert perm.shape == (n,)
    np.testing.assert_array_equal(np.sort(perm), np.arange(n))
    size = max(1, int(round(block)))
    # read the permutation block by block: each starts at a multiple of the size and runs on
    blocks = [list(range(s, min(s + size, n))) for s in range(0, n, size)]
    seen, i = [], 0
    while i < n:
        start = int(perm[i])
        assert start % size == 0, "every block starts at a multiple of the block size"
        block_ = list(range(start, min(start + size, n)))
        assert list(perm[i : i + len(block_)]) == block_
        seen.append(block_)
        i += len(block_)
    assert sorted(seen) == sorted(blocks)


def test_block_permutation_is_seeded_and_shuffles():
    a = block_permutation(40, 2.0, random_state=3)
    np.testing.assert_array_equal(a, block_permutation(40, 2.0, random_state=3))
    assert not np.array_equal(a, block_permutation(40, 2.0, random_state=4))
    assert not np.array_equal(a, np.arange(40))
    np.testing.assert_array_equal(block_permutation(6, 10.0, 0), np.arange(6))  # one block: unchanged


# -- the programme's levels and the noise-calibrated k ------------------------------------------------


def _planted(sizes=(12, 15, 10), dim=16, noise=0.15, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for b, size in enumerate(sizes):
        centre = np.zeros(dim)
        centre[b] = 1.0
        rows.append(centre + noise * rng.normal(size=(size, dim)))
    X = np.vstack(rows)
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def _calibrated(F, w, nulls, max_runs=10):
    """Labels at the noise-calibrated k of the levels, against the null documents ``nulls``."""
    levels = segmental_levels(F, w, max_runs, policy=P)
    return levels.labels(noise_calibrated_k(levels.costs, null_costs(nulls, levels.max_runs, policy=P)))


def test_the_calibrated_k_finds_three_planted_blocks_against_a_shuffled_null():
    F = _planted()
    n = F.shape[0]
    w = np.ones(n)
    perm = np.random.default_rng(0).permutation(n)
    labels = _calibrated(F, w, [(F[perm], w[perm])])
    np.testing.assert_array_equal(labels, [0] * 12 + [1] * 15 + [2] * 10)
    costs, _ = segment_costs(cost_matrix(F, w), 3)
    assert segmental_levels(F, w, 3, policy=P).costs[3] == pytest.approx(costs[3])


def test_the_levels_at_a_given_k_and_min_size():
    F = _planted()
    w = np.ones(F.shape[0])
    np.testing.assert_array_equal(segmental_levels(F, w, 3, policy=P).labels(3), [0] * 12 + [1] * 15 + [2] * 10)
    labels = segmental_levels(F, w, 2, policy=P).labels(2)
    assert list(np.bincount(labels)) in ([12, 25], [27, 10])
    levels = segmental_levels(F, w, 4, 9, policy=P)  # at most 37 // 9 = 4 runs of at least 9 units
    assert np.bincount(levels.labels(4)).min() >= 9
    n = F.shape[0]
    np.testing.assert_array_equal(segmental_levels(F, w, n, policy=P).labels(n), np.arange(n))  # one run per unit


def test_the_calibrated_k_on_noise_keeps_one_segment():
    rng = np.random.default_rng(1)
    F = rng.normal(size=(40, 8))
    F /= np.linalg.norm(F, axis=1, keepdims=True)
    w = np.ones(40)
    perm = rng.permutation(40)
    labels = _calibrated(F, w, [(F[perm], w[perm])])
    assert labels.max() + 1 <= 2  # no structure: the real order explains no more than a shuffle


def test_the_calibrated_k_averages_several_null_documents():
    F = _planted()
    n = F.shape[0]
    w = np.ones(n)
    rng = np.random.default_rng(2)
    perms = [block_permutation(n, 2.0, rng) for _ in range(3)]
    nulls = [(F[p], w[p]) for p in perms]
    labels = _calibrated(F, w, nulls)
    np.testing.assert_array_equal(labels, [0] * 12 + [1] * 15 + [2] * 10)
    # the list is scored by the mean of its best costs
    costs, arg = segment_costs(cost_matrix(F, w), 10)
    mean = np.mean([segment_costs(cost_matrix(Fs, ws), 10)[0] for Fs, ws in nulls], axis=0)
    np.testing.assert_array_equal(labels, backtrack(arg, noise_calibrated_k(costs, mean), n))


def test_the_programme_refuses_what_would_not_fit_before_allocating(monkeypatch):
    """Issue 22: 20,000 units used to segfault; now the programme is bounded by its candidates, and what
    still would not fit is one ValueError naming the GiB, before any large array."""
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.runs import memory

    # the quadratic part no longer grows with the length: 20,000 units need well under 1 GiB at d = 384
    assert memory.estimate_runs_memory(20_000, 384, max_candidates=P.max_candidates, window=P.window) < 2**30
    # linear: the rows, and the windows past the candidates (about 3 KiB a unit at most)
    windows = memory.estimate_windows_bound(
        20_000, max_candidates=P.max_candidates, window=P.window
    ) - memory.estimate_windows_bound(10_000, max_candidates=P.max_candidates, window=P.window)
    assert 0 < windows < 4096 * 10_000
    assert (
        memory.estimate_runs_memory(20_000, 384, max_candidates=P.max_candidates, window=P.window)
        - memory.estimate_runs_memory(10_000, 384, max_candidates=P.max_candidates, window=P.window)
        == 10 * 10_000 * 384 * 8 + windows
    )
    monkeypatch.setattr(memory.memory_probe, "available_bytes", lambda: 2**30)  # pretend 1 GiB is left
    F = np.random.default_rng(0).normal(size=(6000, 4))
    with pytest.raises(ValueError, match=r"programme over 6,000 positions needs about 2\.2 GiB .* only 1\.0 GiB"):
        cost_matrix(F, np.ones(6000))  # every position a candidate: refused
    monkeypatch.setattr(memory.memory_probe, "available_bytes", lambda: 2**28)  # 256 MiB
    with pytest.raises(ValueError, match=r"runs model on 6,000 units needs about .* split the document"):
        BPSeg(structure="runs").fit(np.random.default_rng(0).normal(size=(6000, 384)))
    cost_matrix(F[:500], np.ones(500))  # small enough: no check, no error


def test_the_memory_check_counts_the_policys_candidates(monkeypatch):
    """The runs model's memory check estimates the search it will run: with more candidates (a Policy's
    max_candidates) the programme it checks is that large, not the shipped one's."""
    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.runs import memory
    from bpseg_pgm.runs.model import fit_runs

    shipped = memory.estimate_runs_memory(6000, 4, max_candidates=P.max_candidates, window=P.window)
    wide = memory.estimate_runs_memory(6000, 4, max_candidates=6000, window=P.window)
    assert wide > shipped + 2**30  # every position a candidate: the (n + 1)^2 programme
    assert memory.estimate_windows_bound(6000, max_candidates=6000, window=P.window) == 0
    # between the two estimates: the shipped search fits, the widened one is refused before it allocates
    monkeypatch.setattr(memory.memory_probe, "available_bytes", lambda: (shipped + wide) // 2)
    X = np.random.default_rng(0).normal(size=(6000, 4))
    with pytest.raises(ValueError, match=r"runs model on 6,000 units needs about"):
        fit_runs(X, np.ones(6000), 3, policy=DEFAULT_POLICY.replace(max_candidates=6000))
