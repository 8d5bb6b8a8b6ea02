"""Levels past the candidates: a long document that needs more runs than it has candidate boundaries."""

import numpy as np
import pytest
from planted import LONG_SIZES
from planted import planted_runs as planted
from sklearn.metrics import adjusted_rand_score

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.costs import cost_matrix
from bpseg_pgm.runs.memory import estimate_windows_bound
from bpseg_pgm.runs.model import fit_runs
from bpseg_pgm.runs.search import null_costs, segmental_levels

SIZES = LONG_SIZES
CAND = 30  # the candidates of the tests: far fewer than the runs


def split_cost(X, w, starts):
    C = cost_matrix(X, w)
    bounds = list(starts) + [len(X)]
    return sum(C[a, b] for a, b in zip(bounds[:-1], bounds[1:]))


def test_the_levels_go_past_the_candidates_and_find_the_planted_runs():
    X, truth = planted(SIZES)
    w = np.ones(len(X))
    levels = segmental_levels(X, w, 150, max_candidates=CAND, policy=P)
    assert levels.positions.size == CAND + 1 and levels.programme_runs == CAND
    assert levels.max_runs == 150 and len(levels.windows) >= 3
    np.testing.assert_array_equal(levels.labels(len(SIZES)), truth)
    for k in (1, 5, CAND, CAND + 1, 77, 150):  # every level reads back k runs, in order
        labels = levels.labels(k)
        assert labels.shape == (len(X),) and np.all(np.diff(labels) >= 0) and labels[-1] == k - 1


def test_levels_past_the_candidates_are_nested_and_cost_what_they_say():
    X, _ = planted(SIZES, noise=0.8, seed=1)
    w = np.random.default_rng(1).uniform(0.2, 1.0, len(X))
    levels = segmental_levels(X, w, 150, max_candidates=CAND, policy=P)
    exact = segmental_levels(X, w, 150, max_candidates=10_000, policy=P)  # every position a candidate
    for k in (CAND + 1, 60, 121, 150):
        assert levels.costs[k] == pytest.approx(split_cost(X, w, levels.starts(k)), rel=1e-9)
        assert levels.costs[k] >= exact.costs[k] - 1e-9
        # the runs are shared out one at a time: the split into k runs is in the split into k + 1
        if k < 150:
            assert set(levels.starts(k).tolist()) < set(levels.starts(k + 1).tolist())
    assert np.all(np.diff(levels.costs[CAND:]) <= 1e-9)
    # in windows, every position is a candidate: past the candidates, within 1% of the exact programme here
    assert levels.costs[121] <= 1.01 * exact.costs[121]


def test_short_documents_and_few_runs_stay_on_the_programme():
    X, _ = planted(SIZES[:40])
    w = np.ones(len(X))
    exact = segmental_levels(X, w, 60, policy=P)  # fewer units than the candidates: every position is one
    assert exact.programme_runs == exact.max_runs == 60 and exact.windows is None
    few = segmental_levels(X, w, 20, max_candidates=CAND, policy=P)  # fewer runs asked for than candidates
    assert few.programme_runs == few.max_runs == 20 and few.windows is None


def test_null_documents_are_solved_past_the_candidates_too():
    X, _ = planted(SIZES, seed=2)
    w = np.ones(len(X))
    rng = np.random.default_rng(0)
    nulls = [(X[p], w) for p in (rng.permutation(len(X)) for _ in range(2))]
    costs = null_costs(nulls, 150, max_candidates=CAND, policy=P)
    assert costs.shape == (151,) and np.all(np.isfinite(costs[1:]))
    expected = np.mean([segmental_levels(F, ws, 150, max_candidates=CAND, policy=P).costs for F, ws in nulls], axis=0)
    np.testing.assert_allclose(costs[1:], expected[1:])


def test_noise_calibrated_runs_grow_past_the_candidates():
    X, truth = planted(SIZES, seed=3)
    w = np.ones(len(X))
    fit = fit_runs(X, w, "auto", random_state=0, max_runs=200, max_candidates=CAND)
    exact = fit_runs(X, w, "auto", random_state=0, max_runs=200, max_candidates=10_000)
    k, k_exact = int(fit.labels.max()) + 1, int(exact.labels.max()) + 1
    assert fit.levels.max_runs == 200
    # about what the exact programme counts, far more than the 30 the candidates would have capped it at
    assert k > 100 and abs(k - k_exact) <= 3
    assert adjusted_rand_score(truth, fit.labels) > 0.9


def test_a_given_number_of_runs_past_the_candidates_and_its_recut():
    X, truth = planted(SIZES, seed=4)
    w = np.ones(len(X))
    fit = fit_runs(X, w, len(SIZES), random_state=0, max_candidates=CAND)
    assert int(fit.labels.max()) + 1 == len(SIZES) and np.sum(fit.labels != truth) <= 3  # smoothed features
    assert fit.beliefs.shape == (len(X), len(SIZES))
    fine = fit_runs(X, w, "auto", random_state=0, max_runs=200, max_candidates=CAND)
    for k in (10, 60, len(SIZES)):
        cut, again = fine.at(k), fit_runs(X, w, k, random_state=0, max_runs=200, max_candidates=CAND)
        np.testing.assert_array_equal(cut.labels, again.labels)


def test_the_memory_estimates_bound_the_windows_tables(monkeypatch):
    from bpseg_pgm.runs import memory

    X, _ = planted(SIZES, seed=5)
    w = np.ones(len(X))
    levels = segmental_levels(X, w, len(X), max_candidates=CAND, policy=P)  # every unit its own run: the largest tables
    assert levels.max_runs == len(X)
    kept = sum(window.arg.nbytes for window in levels.windows) + levels.order.nbytes
    lengths = np.diff(np.append(levels.window_starts, len(X)))
    assert (
        kept
        <= memory.estimate_windows_memory(lengths, len(X))
        <= estimate_windows_bound(len(X), max_candidates=P.max_candidates, window=P.window) + 2**20
    )
    assert estimate_windows_bound(1000, max_candidates=P.max_candidates, window=P.window) == 0
    # checked once the windows are cut, before they are solved
    monkeypatch.setattr(memory.memory_probe, "available_bytes", lambda: 2**20)
    with pytest.raises(ValueError, match=r"programme in \d+ windows for 100,000,000 runs needs about 0\.\d GiB"):
        memory.check_windows_memory(np.append(levels.window_starts, len(X)), 10**8)
