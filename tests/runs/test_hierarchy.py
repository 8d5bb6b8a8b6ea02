"""Nested levels: a sectioned text's top-level sections first, then each section split at its own finer starts."""

import numpy as np
import pytest

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.cost_registry import run_cost_matrix
from bpseg_pgm.runs.costs import EmbeddingsCost
from bpseg_pgm.runs.hierarchy import hierarchy_runs, nested_levels
from bpseg_pgm.runs.model import fit_runs
from bpseg_pgm.runs.search import segmental_levels
from bpseg_pgm.runs.windows import share_runs


def _doc(seed=0, sizes=(6, 5, 7, 6, 8, 4), d=8):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=d) * 3 + rng.normal(size=(m, d)) for m in sizes])
    return X / np.linalg.norm(X, axis=1, keepdims=True), rng.uniform(0.5, 1.0, size=sum(sizes))


TOP = np.array([11, 24])  # three sections
SUB = np.array([6, 11, 18, 24, 30])  # sub-headings inside them
PARA = np.array([3, 6, 9, 11, 14, 18, 21, 24, 27, 30, 33])


def _cost(C, starts, n):
    b = np.append(starts, n)
    return float(sum(C[a, c] for a, c in zip(b[:-1], b[1:])))


def test_up_to_the_sections_it_is_the_programme_over_the_top_level():
    X, w = _doc()
    nested = nested_levels(X, w, (TOP, SUB, PARA), 12, policy=P)
    flat = segmental_levels(X, w, 3, starts=TOP, policy=P)
    for k in (1, 2, 3):
        np.testing.assert_array_equal(nested.starts(k), flat.starts(k))
        assert nested.costs[k] == pytest.approx(flat.costs[k])


def test_past_the_sections_every_top_boundary_stays_and_the_cuts_nest():
    X, w = _doc()
    levels = nested_levels(X, w, (TOP, SUB, PARA), 12, policy=P)
    assert levels.max_runs == 12
    C = run_cost_matrix(EmbeddingsCost(), X, w)
    previous = set(levels.starts(3).tolist())
    for k in range(4, 13):
        starts = levels.starts(k)
        assert len(starts) == k and set(TOP) <= set(starts.tolist()) <= set(PARA) | {0}
        assert previous < set(starts.tolist())  # nested: the split into k - 1 runs, one cut more
        assert levels.costs[k] == pytest.approx(_cost(C, starts, len(X)))  # the costs are the splits' own
        assert levels.costs[k] <= levels.costs[k - 1] + 1e-12
        previous = set(starts.tolist())


def test_the_first_run_past_the_sections_is_the_best_single_sub_heading():
    X, w = _doc(seed=3)
    levels = nested_levels(X, w, (TOP, SUB), 6, policy=P)
    C = run_cost_matrix(EmbeddingsCost(), X, w)
    best = min(_cost(C, np.sort(np.r_[0, TOP, c]), len(X)) for c in set(SUB) - set(TOP))
    assert levels.costs[4] == pytest.approx(best)
    assert set(levels.starts(4).tolist()) - {0, *TOP} <= set(SUB)


def test_sub_headings_come_before_paragraphs():
    X, w = _doc()
    levels = nested_levels(X, w, (TOP, SUB, PARA), 20, policy=P)
    # a section is split at a paragraph only once its own sub-headings are used
    for k in range(4, levels.max_runs + 1):
        starts = set(levels.starts(k).tolist())
        for a, b in zip([0, *TOP], [*TOP, len(X)]):
            inside = {s for s in starts if a < s < b}
            subs = {s for s in SUB if a < s < b}
            if inside - subs:
                assert subs <= inside, (k, a, b)
    assert set(levels.starts(len(SUB) + 1).tolist()) == {0, *SUB}  # every heading before any paragraph


def test_hierarchy_runs_and_levels_that_add_nothing():
    assert hierarchy_runs((TOP, SUB, PARA), 36) == len(PARA) + 1
    assert hierarchy_runs((TOP, TOP, np.array([], int)), 36) == 3
    assert hierarchy_runs((), 36) == 1
    X, w = _doc()
    levels = nested_levels(X, w, (TOP, TOP), 9, policy=P)  # nothing finer: the top level alone
    assert levels.max_runs == 3 and levels.windows is None


def test_fit_runs_with_finer_levels_reaches_past_the_sections_and_recuts_as_it_fits():
    X, w = _doc()
    fit = fit_runs(X, w, 3, starts=TOP, finer=(SUB, PARA))
    assert (np.flatnonzero(np.diff(fit.labels)) + 1).tolist() == TOP.tolist()
    assert fit.levels.max_runs > 3
    for k in (2, 5, 8):
        again = fit_runs(X, w, k, starts=TOP, finer=(SUB, PARA))
        np.testing.assert_array_equal(fit.at(k).labels, again.labels)
    with pytest.raises(ValueError, match="may start at only 12 units"):
        fit_runs(X, w, 13, starts=TOP, finer=(SUB, PARA))
    with pytest.raises(ValueError, match="may start at only 3 units"):
        fit_runs(X, w, 4, starts=TOP)  # without finer levels: the top level only, as before


def test_few_runs_asked_solve_the_top_level_only_that_far():
    X, w = _doc()
    levels = nested_levels(X, w, (TOP, SUB, PARA), 2, policy=P)
    assert levels.max_runs == 2 and levels.windows is None


def test_a_section_with_more_starts_than_candidates_is_cut_among_them():
    # three paragraphs in the first section (more than the 2 candidates), one in each of the others: the first
    # section is cut as a long document is, among its own starts, and every paragraph is reached
    X, w = _doc()
    para = np.array([3, 6, 9, 18, 30])
    levels = nested_levels(X, w, (TOP, para), 20, max_candidates=2, policy=P)
    assert levels.max_runs == 8
    assert set(levels.starts(8).tolist()) == {0, 3, 6, 9, 11, 18, 24, 30}
    for k in range(1, 9):
        assert set(levels.starts(k).tolist()) <= {0, 3, 6, 9, 11, 18, 24, 30}, k


def test_a_section_with_more_paragraphs_than_candidates_through_the_estimator():
    # two sections, the second holding 60 paragraphs (more than the 40 candidates): k = 10 and k = 60 start at
    # headings and paragraphs only (before: "the levels hold 1 to 3 runs")
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.features.units import Units
    from bpseg_pgm.policy import Policy

    rng = np.random.default_rng(0)
    n = 126
    topics = rng.normal(size=(3, 16))
    X = np.vstack([topics[(i // 2) % 3] + 0.3 * rng.normal(size=16) for i in range(n)])
    h = np.zeros(n, int)
    h[[0, 4]] = 1
    para = np.arange(n) // 2
    allowed = set(range(2, n, 2))
    for k in (10, 60):
        est = BPSeg(n_segments=k, policy=Policy(max_candidates=40)).fit(Units(X, paragraphs=para, headings=h))
        assert est.labels_.max() + 1 == k and est.evidence_ == "headings"
        assert set((np.flatnonzero(np.diff(est.labels_)) + 1).tolist()) <= allowed, k


def test_every_sub_heading_before_any_paragraph_across_sections():
    X, w = _doc()  # planted changes at 6, 11, 18, 24, 32
    sub = np.array([3])  # a sub-heading where nothing changes, in the first section
    para = np.array([3, 32])  # a paragraph break where the text changes, in the last section
    levels = nested_levels(X, w, (TOP, sub, para), 5, policy=P)
    assert set(levels.starts(4).tolist()) == {0, 3, 11, 24}  # the sub-heading first, however little it gains
    assert set(levels.starts(5).tolist()) == {0, 3, 11, 24, 32}
    free = nested_levels(X, w, (TOP, para), 4, policy=P)  # the same starts as one level: the change is taken first
    assert set(free.starts(4).tolist()) == {0, 11, 24, 32}


def test_shared_runs_with_caps_fill_each_level_before_the_next():
    curves = [np.array([np.inf, 10.0, 9.0, 1.0]), np.array([np.inf, 10.0, 1.0, 0.5])]
    # level 1: section 0 may take 2 runs, section 1 one; level 2: both take 3 and 2
    order, costs = share_runs(curves, 5, np.array([[2, 1], [3, 2]]))
    assert order.tolist() == [0, 1, 0]  # section 0's small gain first (level 1), then by gain (9 before 8)
    assert costs.tolist() == [20.0, 19.0, 10.0, 2.0]
    assert share_runs(curves, 5)[0].tolist() == [1, 0, 0]  # one level: by gain alone (a greedy 9, then 1, 8)


def test_a_fit_reaches_every_sub_section_whatever_its_cap():
    X, w = _doc()
    fit = fit_runs(X, w, 3, max_runs=1, starts=TOP, finer=(SUB, PARA))  # a cap of 1 run past the sections
    assert fit.levels.max_runs == len(SUB) + 1  # still every sub-section: the next level is reachable
    cuts = np.flatnonzero(np.diff(fit.at(len(SUB) + 1).labels)) + 1
    assert cuts.tolist() == SUB.tolist()
