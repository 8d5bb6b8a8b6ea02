"""Candidate boundaries (binary segmentation) and the levels read back from the programme."""

import numpy as np
import pytest

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.candidates import binary_segmentation, candidate_positions
from bpseg_pgm.runs.costs import cost_matrix, segment_costs
from bpseg_pgm.runs.model import fit_runs
from bpseg_pgm.runs.search import backtrack, segmental_levels


def planted(sizes, d=8, noise=0.3, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(len(sizes), d))
    return np.vstack([c + noise * rng.normal(size=(s, d)) for c, s in zip(centers, sizes)])


def test_binary_segmentation_finds_the_planted_boundaries_coarse_to_fine():
    X = planted([30, 50, 20, 40])
    found = binary_segmentation(X, np.ones(len(X)), 3)
    assert sorted(found.tolist()) == [30, 80, 100]
    # the first split is the one that lowers the cost most: compare with every single split
    C = cost_matrix(X, np.ones(len(X)))
    best = min(range(1, len(X)), key=lambda t: C[0, t] + C[t, len(X)])
    assert found[0] == best


def test_binary_segmentation_stops_when_nothing_splits():
    X = np.ones((10, 3))
    assert binary_segmentation(X, np.ones(10), 5).size == 0
    assert binary_segmentation(X[:1], np.ones(1), 5).size == 0


def test_binary_segmentation_honours_weights():
    X = planted([20, 20], seed=1)
    noise = np.random.default_rng(9).normal(scale=5.0, size=(15, X.shape[1]))
    Y = np.vstack([X[:20], noise, X[20:]])  # loud rows between the blocks ...
    w = np.ones(len(Y))
    w[20:35] = 0.0  # ... that weigh nothing: the split is where the weighted rows change
    assert binary_segmentation(Y, w, 1)[0] in range(20, 36)
    w2 = np.ones(len(Y))
    assert binary_segmentation(Y, w2, 2).tolist() != binary_segmentation(Y, w, 2).tolist()


def test_candidates_are_every_position_on_short_documents_and_bounded_on_long_ones():
    X = planted([40, 40])
    np.testing.assert_array_equal(candidate_positions(X, np.ones(80), 100), np.arange(81))
    pos = candidate_positions(X, np.ones(80), 10)
    assert pos[0] == 0 and pos[-1] == 80 and len(pos) <= 11 and 40 in pos
    assert np.all(np.diff(pos) > 0)


def test_levels_read_back_the_exact_programme_on_short_documents():
    rng = np.random.default_rng(3)
    F, w = rng.normal(size=(25, 4)), rng.uniform(0.2, 1.0, 25)
    levels = segmental_levels(F, w, 6, policy=P)
    costs, arg = segment_costs(cost_matrix(F, w), 6)
    np.testing.assert_allclose(levels.costs, costs)
    for k in range(1, 7):
        np.testing.assert_array_equal(levels.labels(k), backtrack(arg, k, 25))
    with pytest.raises(ValueError, match="1 to 6 runs"):
        levels.labels(7)


def test_levels_over_candidates_match_the_exact_programme_on_planted_runs():
    X = planted([60, 90, 50, 100, 70], seed=4)
    exact = segmental_levels(X, np.ones(len(X)), 5, max_candidates=10_000, policy=P)
    approx = segmental_levels(X, np.ones(len(X)), 5, max_candidates=40, policy=P)
    assert approx.positions.size <= 41
    np.testing.assert_array_equal(approx.labels(5), exact.labels(5))
    assert approx.costs[5] >= exact.costs[5] - 1e-9


def test_a_fit_recut_equals_a_fit_at_that_number_of_runs():
    X = planted([20, 25, 15, 30], seed=5)
    w = np.ones(len(X))
    fine = fit_runs(X, w, "auto", random_state=0)
    assert fine.levels.max_runs >= 4
    for k in (1, 2, 3, 4):
        again = fit_runs(X, w, k)
        cut = fine.at(k)
        np.testing.assert_array_equal(cut.labels, again.labels)
        np.testing.assert_allclose(cut.beliefs, again.beliefs, atol=1e-12)
        assert cut.log_partition == pytest.approx(again.log_partition)
    with pytest.raises(ValueError, match="integer"):
        fine.at(2.5)


def test_binary_segmentation_among_starts_splits_only_there_with_the_same_gains():
    X = planted([30, 50, 20, 40], seed=2)
    w = np.ones(len(X))
    starts = np.arange(5, len(X), 5)  # every fifth unit; the planted boundaries 30, 80, 100 are among them
    found = binary_segmentation(X, w, 20, starts)
    assert set(found.tolist()) <= set(starts.tolist())
    assert sorted(found[:3].tolist()) == [30, 80, 100]
    # the starts block the planted boundaries: the split falls at the best start, as the exact programme says
    off = np.arange(7, len(X), 7)
    first = int(binary_segmentation(X, w, 1, off)[0])
    C = cost_matrix(X, w)
    assert first == min(off.tolist(), key=lambda t: C[0, t] + C[t, len(X)])


def test_candidates_past_max_candidates_are_among_the_starts():
    X = planted([40, 40, 40], seed=3)
    starts = np.arange(2, 120, 2)  # 59 starts, more than the 10 candidates
    pos = candidate_positions(X, np.ones(120), 10, starts=starts)
    assert pos[0] == 0 and pos[-1] == 120 and len(pos) <= 11
    assert set(pos[1:-1].tolist()) <= set(starts.tolist()) and {40, 80} <= set(pos.tolist())


def test_levels_past_the_candidates_keep_to_the_starts():
    # more runs than candidates: the windows past them are solved over the starts inside each
    rng = np.random.default_rng(4)
    X, w = rng.normal(size=(600, 4)), np.ones(600)
    starts = np.arange(3, 600, 3)
    levels = segmental_levels(X, w, 150, max_candidates=40, starts=starts, policy=P.replace(window=60))
    assert levels.max_runs >= 150 > levels.programme_runs
    for k in (10, 40, 100, 150):
        assert set(levels.starts(k)[1:].tolist()) <= set(starts.tolist()), k
