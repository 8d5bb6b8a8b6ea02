"""The programme in windows: where the windows are cut, and the runs shared out between them."""

import itertools

import numpy as np
import pytest

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.candidates import window_size
from bpseg_pgm.runs.costs import cost_matrix, segment_costs
from bpseg_pgm.runs.windows import share_runs, window_cuts, windowed_levels


def test_cuts_take_the_strongest_boundary_half_a_window_to_one_and_a_half_on():
    # binary segmentation found 450 first (strongest), then 300, 620, 990, 980, 1400
    cuts = window_cuts(np.array([450, 300, 620, 990, 980, 1400]), 1900, 500)
    # from 0: 450 beats 300 in (250, 750] (620 is later still); from 450: 990 beats 980 in (700, 1200];
    # from 990: 1400 in (1240, 1740]; 500 units or fewer are left
    np.testing.assert_array_equal(cuts, [0, 450, 990, 1400, 1900])


def test_a_stretch_without_boundaries_is_cut_a_window_on():
    np.testing.assert_array_equal(window_cuts(np.array([100]), 1300, 500), [0, 500, 1000, 1300])
    np.testing.assert_array_equal(window_cuts(np.zeros(0, dtype=np.int64), 1100, 500), [0, 500, 1000, 1100])
    np.testing.assert_array_equal(window_cuts(np.array([10, 20]), 400, 500), [0, 400])  # one window


@pytest.mark.parametrize("seed", range(5))
def test_windows_hold_half_to_one_and_a_half_windows(seed):
    rng = np.random.default_rng(seed)
    n = 20_000
    cuts = window_cuts(rng.choice(np.arange(1, n), size=rng.integers(0, 300), replace=False), n, 500)
    sizes = np.diff(cuts)
    assert cuts[0] == 0 and cuts[-1] == n and np.all(sizes > 0)
    assert np.all(sizes[:-1] >= 250) and np.all(sizes <= 750) and sizes[-1] <= 500
    assert len(sizes) <= 2 * n / 500 + 1


def test_windows_widen_on_very_long_documents():
    assert window_size(50_000, 1000, P.window) == P.window
    assert window_size(400_000, 1000, P.window) == 1600  # at most about half the candidates' worth of windows


def test_greedy_sharing_is_the_best_sharing_of_convex_costs():
    rng = np.random.default_rng(0)
    curves = []
    for size in (9, 6, 12):  # convex, falling: a cost with 0 runs is inf as in the programme
        steps = np.sort(rng.uniform(0.1, 5.0, size - 1))[::-1]
        curves.append(np.concatenate([[np.inf, 50.0], 50.0 - np.cumsum(steps)]))
    order, total = share_runs(curves, 100)
    assert total.shape == (9 + 6 + 12 - 3 + 1,)  # 3 .. every run the windows hold
    for j, k in enumerate(range(3, 3 + total.shape[0])):
        held = 1 + np.bincount(order[:j], minlength=3)
        assert total[j] == pytest.approx(sum(c[h] for c, h in zip(curves, held)))
        best = min(
            sum(c[h] for c, h in zip(curves, hs))
            for hs in itertools.product(*(range(1, c.shape[0]) for c in curves))
            if sum(hs) == k
        )
        assert total[j] == pytest.approx(best)
    assert np.all(np.diff(total) < 0)
    assert share_runs(curves, 7)[1].shape == (5,)  # 3 to 7 runs


def test_windowed_levels_are_each_windows_programme():
    rng = np.random.default_rng(1)
    F, w = rng.normal(size=(60, 3)), rng.uniform(0.2, 1.0, 60)
    cuts = np.array([0, 25, 60])
    windows, order, total = windowed_levels(F, w, 8, cuts, share=P.window_share)
    for (a, b), window in zip(zip(cuts[:-1], cuts[1:]), windows):
        expected = segment_costs(cost_matrix(F[a:b], w[a:b]), window.max_runs)[0]
        np.testing.assert_allclose(window.costs, expected)
        assert window.max_runs == min(b - a, P.window_share * int(np.ceil(8 * (b - a) / 60)))
    assert total.shape == (7,) and order.shape == (6,)  # 2 to 8 runs


def test_windows_with_starts_are_cut_at_starts_only():
    starts = np.arange(7, 3000, 7)
    # no boundary found near a window on: the cut is the first start at least a window on
    np.testing.assert_array_equal(window_cuts(np.zeros(0, dtype=np.int64), 1100, 500, starts), [0, 504, 1008, 1100])
    # sparse starts: a window stretches to the next start; none left: one last window
    sparse = np.array([100, 1200])
    np.testing.assert_array_equal(window_cuts(np.zeros(0, dtype=np.int64), 1500, 500, sparse), [0, 1200, 1500])
    np.testing.assert_array_equal(window_cuts(np.zeros(0, dtype=np.int64), 1500, 500, np.array([100])), [0, 1500])
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1100, 3))
    cuts = window_cuts(np.zeros(0, dtype=np.int64), 1100, 500, starts)
    windows, _, _ = windowed_levels(X, np.ones(1100), 60, cuts, starts=starts, share=P.window_share)
    for a, window in zip(cuts, windows):
        for k in range(1, window.max_runs + 1):
            assert set((a + window.starts(k)[1:]).tolist()) <= set(starts.tolist())
