"""The words' cost of a run beside the embeddings': the DCM cost matrix, the combined levels and
``RunsFit.with_words``."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
import scipy.sparse as sp
from planted import planted_blocks

from bpseg_pgm.policy import DEFAULT_POLICY
from bpseg_pgm.runs.costs import cost_matrix
from bpseg_pgm.runs.evidence import check_word_counts, dcm_log_evidence, ml_alpha
from bpseg_pgm.runs.levels import Levels
from bpseg_pgm.runs.model import RunsFit, fit_runs, runs_at
from bpseg_pgm.runs.search import segmental_levels
from bpseg_pgm.runs.wordcost import word_cost_matrix, word_levels

RUNS, SIZE = 4, 30
N = RUNS * SIZE
PLANTED_STARTS = np.arange(RUNS) * SIZE  # 0 30 60 90


def noise_rows(n=N, d=16, seed=0):
    """Unit rows with no topic at all: every row an independent random direction."""
    X = np.random.default_rng(seed).normal(size=(n, d))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def block_words(sizes=(SIZE,) * RUNS, vocab=25, per=8, shared=2, seed=0):
    """Counts (sum(sizes), len(sizes) x vocab + 5), CSR: each unit draws ``per`` words from its block's own
    vocabulary and ``shared`` from five words every block uses; the words change abruptly at every block."""
    rng = np.random.default_rng(seed)
    C = np.zeros((sum(sizes), len(sizes) * vocab + 5))
    row = 0
    for b, size in enumerate(sizes):
        for _ in range(size):
            np.add.at(C[row], rng.integers(b * vocab, (b + 1) * vocab, size=per), 1)
            np.add.at(C[row], len(sizes) * vocab + rng.integers(0, 5, size=shared), 1)
            row += 1
    return check_word_counts(C, sum(sizes))


def brute_word_costs(counts, alpha, positions=None):
    """W[i, j] = -dcm_log_evidence of the summed counts of units positions[i]..positions[j]-1, one run at a time."""
    C = sp.csr_matrix(counts, dtype=np.float64)
    n = C.shape[0]
    positions = np.arange(n + 1) if positions is None else np.asarray(positions)
    m = len(positions) - 1
    W = np.full((m + 1, m + 1), np.inf)
    for i in range(m):
        for j in range(i + 1, m + 1):
            S = sp.csr_matrix(np.asarray(C[positions[i] : positions[j]].sum(axis=0)))
            W[i, j] = -dcm_log_evidence(S, alpha)
    return W


def split_cost(M, index):
    """Total of M over the runs between consecutive entries of ``index`` (candidate indices)."""
    index = np.asarray(index)
    return float(M[index[:-1], index[1:]].sum())


def within_one(starts, expected):
    starts, expected = np.asarray(starts), np.asarray(expected)
    return starts.shape == expected.shape and bool(np.all(np.abs(starts - expected) <= 1))


def small_counts(kind, n=9, V=6, seed=0):
    """Small counts with two empty units (2 and 5) and a term no unit uses (column 4)."""
    rng = np.random.default_rng(seed)
    if kind == "integer":
        C = rng.poisson(0.9, size=(n, V)).astype(float)
    else:  # non-integer (tf-idf-like) counts
        C = rng.uniform(0.05, 3.0, size=(n, V)) * (rng.random((n, V)) < 0.45)
    C[[2, 5]] = 0.0
    C[:, 4] = 0.0
    return C


# -- word_cost_matrix ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["integer", "non-integer"])
@pytest.mark.parametrize("alpha", [1e-3, 0.2, 1.0, 15.0])
@pytest.mark.parametrize("positions", [None, [0, 2, 3, 6, 7, 9]])
def test_word_cost_matrix_is_minus_the_dcm_evidence_of_each_run(kind, alpha, positions):
    C = small_counts(kind)
    W = word_cost_matrix(sp.csr_matrix(C), alpha, None if positions is None else np.array(positions))
    expected = brute_word_costs(C, alpha, positions)
    m = C.shape[0] if positions is None else len(positions) - 1
    assert W.shape == (m + 1, m + 1)
    upper = np.triu_indices(m + 1, 1)
    assert np.all(np.isfinite(W[upper]))
    np.testing.assert_allclose(W[upper], expected[upper], rtol=1e-10, atol=1e-9)
    assert np.all(np.isposinf(W[np.tril_indices(m + 1)]))  # j <= i: no run
    # dense input is the same matrix
    np.testing.assert_allclose(word_cost_matrix(C, alpha, positions), W, rtol=1e-12, atol=1e-12)


def test_word_cost_matrix_over_longer_random_counts():
    rng = np.random.default_rng(5)
    C = sp.random(25, 40, density=0.15, random_state=rng, format="csr", data_rvs=lambda k: rng.integers(1, 4, k))
    positions = np.array([0, 1, 4, 5, 9, 13, 14, 20, 24, 25])
    for alpha in (0.05, 2.0):
        W = word_cost_matrix(C, alpha, positions)
        expected = brute_word_costs(C, alpha, positions)
        upper = np.triu_indices(len(positions), 1)
        np.testing.assert_allclose(W[upper], expected[upper], rtol=1e-10, atol=1e-9)


def test_a_unit_without_words_costs_nothing_and_changes_no_run():
    C = small_counts("integer")  # units 2 and 5 hold no word
    W = word_cost_matrix(sp.csr_matrix(C), 0.5)
    assert W[2, 3] == pytest.approx(0.0, abs=1e-12) and W[5, 6] == pytest.approx(0.0, abs=1e-12)
    for i in range(0, 2):  # a run that takes in an empty unit costs what it cost without it
        assert W[i, 3] == pytest.approx(W[i, 2], abs=1e-9)
    assert W[3, 6] == pytest.approx(W[3, 5], abs=1e-9)
    assert W[2, 5] == pytest.approx(W[3, 5], abs=1e-9)


def test_no_word_at_all_costs_nothing():
    W = word_cost_matrix(sp.csr_matrix((6, 3)), 0.7)
    upper = np.triu_indices(7, 1)
    np.testing.assert_allclose(W[upper], 0.0, atol=1e-12)
    assert np.all(np.isposinf(W[np.tril_indices(7)]))


def test_duplicate_and_unsorted_entries_count_as_their_sum():
    C = small_counts("integer")
    coo = sp.coo_matrix(C)
    # every count split into two stored entries of the same term, the row's entries in reverse order
    rows, cols, data = np.repeat(coo.row, 2), np.repeat(coo.col, 2), np.repeat(coo.data / 2, 2)
    order = np.lexsort((-cols, rows))
    indptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=C.shape[0]))]
    messy = sp.csr_matrix((data[order], cols[order], indptr), shape=C.shape)
    assert messy.nnz == 2 * coo.nnz and not messy.has_canonical_format
    np.testing.assert_allclose(
        word_cost_matrix(messy, 0.3), word_cost_matrix(sp.csr_matrix(C), 0.3), rtol=1e-10, atol=1e-9
    )


@pytest.mark.parametrize("alpha", [0.0, -0.5, -np.inf, np.nan])
def test_alpha_must_be_positive(alpha):
    with pytest.raises(ValueError, match="alpha must be positive"):
        word_cost_matrix(sp.csr_matrix(small_counts("integer")), alpha)


# -- word_levels: where the words place the boundaries -------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_words_place_the_boundaries_the_embeddings_cannot_see(seed):
    F, w = noise_rows(seed=seed), np.ones(N)
    levels = segmental_levels(F, w, 10, policy=DEFAULT_POLICY)
    C = block_words(seed=seed)
    found = word_levels(F, w, levels, C, RUNS, DEFAULT_POLICY.word_weight)
    assert found is not None
    combined, alpha = found
    assert within_one(combined.starts(RUNS), PLANTED_STARTS), combined.starts(RUNS)
    assert not within_one(levels.starts(RUNS), PLANTED_STARTS)  # the embeddings alone: noise
    assert isinstance(combined, Levels) and combined.windows is None
    np.testing.assert_array_equal(combined.positions, levels.positions)  # the same candidates
    assert combined.programme_runs == combined.max_runs == levels.programme_runs
    assert alpha > 0 and alpha == pytest.approx(ml_alpha(C, levels.labels(RUNS))[0])  # alpha of the reference
    costs = combined.costs[1:]
    assert np.all(np.isfinite(costs))
    # (non-increasing here, at the default weight: the words' cost is not subadditive, so with a much
    # larger weight splitting homogeneous words can raise it past the planted count)
    assert np.all(np.diff(costs) <= 1e-12), costs


def test_combined_levels_are_the_exact_optimum_of_the_scaled_costs():
    n = 14
    F, w = noise_rows(n=n, d=8, seed=3), np.random.default_rng(3).uniform(0.3, 1.7, n)
    F[:, :3] += 2.0 * np.repeat(np.eye(3), [5, 5, 4], axis=0)  # the embeddings see the blocks too: the words agree
    C = block_words(sizes=(5, 5, 4), vocab=6, per=5, shared=1, seed=3)
    levels = segmental_levels(F, w, 5, policy=DEFAULT_POLICY)
    k = 3
    for weight in (0.4, DEFAULT_POLICY.word_weight, 3.0):
        combined, alpha = word_levels(F, w, levels, C, k, weight)
        positions = levels.positions
        m = len(positions) - 1
        E, D = cost_matrix(F, w, positions), word_cost_matrix(C, alpha, positions)
        reference = np.searchsorted(positions, np.append(levels.starts(k), n))
        g_e = split_cost(E, [0, m]) - split_cost(E, reference)
        g_w = split_cost(D, [0, m]) - split_cost(D, reference)
        M = E / g_e + weight * D / g_w
        # each cost scaled by its own gain at the reference: together they gain 1 + weight there
        assert combined.costs[1] - split_cost(M, reference) == pytest.approx(1.0 + weight, rel=1e-9)
        for kk in range(1, levels.programme_runs + 1):
            best = min(split_cost(M, [0, *cuts, m]) for cuts in combinations(range(1, m), kk - 1))
            assert combined.costs[kk] == pytest.approx(best, rel=1e-9, abs=1e-9)
            idx = np.searchsorted(positions, np.append(combined.starts(kk), n))
            assert split_cost(M, idx) == pytest.approx(best, rel=1e-9, abs=1e-9)


def test_the_embeddings_scale_does_not_decide():
    F, w = noise_rows(seed=4), np.ones(N)
    C = block_words(seed=4)
    one, alpha = word_levels(
        F, w, segmental_levels(F, w, 8, policy=DEFAULT_POLICY), C, RUNS, DEFAULT_POLICY.word_weight
    )
    scaled, alpha_scaled = word_levels(
        5.0 * F, w, segmental_levels(5.0 * F, w, 8, policy=DEFAULT_POLICY), C, RUNS, DEFAULT_POLICY.word_weight
    )
    np.testing.assert_allclose(scaled.costs, one.costs, rtol=1e-9)
    assert alpha_scaled == alpha
    for k in range(1, 9):
        np.testing.assert_array_equal(scaled.starts(k), one.starts(k))


def test_a_larger_weight_follows_the_words_more():
    F, w = noise_rows(seed=6), np.ones(N)
    levels = segmental_levels(F, w, 8, policy=DEFAULT_POLICY)
    C = block_words(seed=6)
    light, _ = word_levels(F, w, levels, C, RUNS, weight=1e-3)
    heavy, _ = word_levels(F, w, levels, C, RUNS, weight=50.0)
    assert within_one(heavy.starts(RUNS), PLANTED_STARTS)
    assert not within_one(light.starts(RUNS), PLANTED_STARTS)  # a negligible weight: the embeddings' split


# -- word_levels: where the words cannot weigh in ------------------------------------------------------


@pytest.fixture(scope="module")
def planted_case():
    F, w = noise_rows(seed=0), np.ones(N)
    return F, w, segmental_levels(F, w, 6, policy=DEFAULT_POLICY), block_words(seed=0)


def test_the_planted_case_weighs_the_words(planted_case):
    """The control of the cases below: each changes one thing of this one."""
    F, w, levels, C = planted_case
    assert word_levels(F, w, levels, C, RUNS, DEFAULT_POLICY.word_weight) is not None
    assert word_levels(F, w, levels, C, 2, DEFAULT_POLICY.word_weight) is not None
    assert word_levels(F, w, levels, C, levels.programme_runs, DEFAULT_POLICY.word_weight) is not None
    assert word_levels(F, w, levels, C, RUNS, weight=1e-6) is not None


@pytest.mark.parametrize("weight", [0.0, -1.0])
def test_no_weight_is_none(planted_case, weight):
    F, w, levels, C = planted_case
    assert word_levels(F, w, levels, C, RUNS, weight=weight) is None


@pytest.mark.parametrize("k", [1, 0])
def test_fewer_than_two_runs_is_none(planted_case, k):
    F, w, levels, C = planted_case
    assert word_levels(F, w, levels, C, k, DEFAULT_POLICY.word_weight) is None


def test_more_runs_than_the_programme_placed_is_none(planted_case):
    F, w, levels, C = planted_case
    assert levels.programme_runs == 6
    assert word_levels(F, w, levels, C, 7, DEFAULT_POLICY.word_weight) is None


@pytest.mark.parametrize("empty", [sp.csr_matrix((N, 5)), check_word_counts(np.zeros((N, 0)), N)])
def test_no_word_is_none(planted_case, empty):
    F, w, levels, _ = planted_case
    assert word_levels(F, w, levels, empty, RUNS, DEFAULT_POLICY.word_weight) is None


def test_levels_solved_in_windows_are_none():
    n = 1200
    F, w = noise_rows(n=n, d=8, seed=1), np.ones(n)
    levels = segmental_levels(
        F, w, 60, max_candidates=40, policy=DEFAULT_POLICY
    )  # more runs than the 40 candidates: windows
    assert levels.windows is not None and levels.programme_runs < levels.max_runs
    C = block_words(sizes=(300,) * 4, seed=1)
    k = 4  # within the programme's levels: only the windows stop the words
    assert word_levels(F, w, levels, C, k, DEFAULT_POLICY.word_weight) is None
    programme_only = Levels(levels.positions, levels.costs[: levels.programme_runs + 1], levels.arg)
    assert (
        word_levels(F, w, programme_only, C, k, DEFAULT_POLICY.word_weight) is not None
    )  # the control: the same levels, no windows


def test_embeddings_that_gain_nothing_are_none():
    F = np.tile(noise_rows(n=1), (N, 1))  # every unit the same row: no split gains anything
    w = np.ones(N)
    levels = segmental_levels(F, w, 6, policy=DEFAULT_POLICY)
    assert np.all(levels.costs[1:] == 0.0)
    assert word_levels(F, w, levels, block_words(), RUNS, DEFAULT_POLICY.word_weight) is None


def test_words_that_gain_nothing_are_none(planted_case):
    F, w, levels, _ = planted_case
    row = np.random.default_rng(0).poisson(2.0, size=30).astype(float)
    same = check_word_counts(np.tile(row, (N, 1)), N)  # every unit the same words
    alpha = ml_alpha(same, levels.labels(RUNS))[0]
    D = word_cost_matrix(same, alpha, levels.positions)
    reference = np.searchsorted(levels.positions, np.append(levels.starts(RUNS), N))
    assert split_cost(D, [0, N]) - split_cost(D, reference) <= 0  # splitting them only costs
    assert word_levels(F, w, levels, same, RUNS, DEFAULT_POLICY.word_weight) is None


# -- RunsFit.with_words ---------------------------------------------------------------------------------


def direct_scatter(F, w, labels):
    """The embeddings' weighted scatter around each run's weighted mean, per unit of weight."""
    total = 0.0
    for r in range(int(labels.max()) + 1):
        rows, ww = F[labels == r], w[labels == r]
        mu = np.average(rows, axis=0, weights=ww)
        total += float(np.sum(ww * np.sum((rows - mu) ** 2, axis=1)))
    return total / w.sum()


@pytest.fixture(scope="module")
def embedding_fit():
    X = noise_rows(seed=2)
    w = np.random.default_rng(2).uniform(0.2, 1.5, N)  # unequal weights: the scatter is a weighted one
    return fit_runs(X, w, RUNS), block_words(seed=2)


def test_with_words_keeps_k_and_moves_the_boundaries_to_the_words(embedding_fit):
    fit, C = embedding_fit
    assert fit.word_alpha is None
    assert not within_one(fit.levels.starts(RUNS), PLANTED_STARTS)
    words = fit.with_words(C, DEFAULT_POLICY.word_weight)
    assert isinstance(words, RunsFit) and words is not fit
    assert int(words.labels.max()) + 1 == RUNS and words.centers.shape[0] == RUNS
    assert within_one(words.levels.starts(RUNS), PLANTED_STARTS), words.levels.starts(RUNS)
    np.testing.assert_array_equal(words.labels, words.levels.labels(RUNS))
    expected = word_levels(fit.features, fit.weights, fit.levels, C, RUNS, DEFAULT_POLICY.word_weight)
    assert words.word_alpha == expected[1] and np.isfinite(words.word_alpha) and words.word_alpha > 0
    np.testing.assert_array_equal(words.levels.costs, expected[0].costs)  # the combined levels are kept
    np.testing.assert_array_equal(words.levels.positions, fit.levels.positions)
    assert words.features is fit.features and words.weights is fit.weights
    assert words.smoothing_width == fit.smoothing_width
    assert words.beliefs.shape == (N, RUNS) and np.all(np.isfinite(words.beliefs))
    assert fit.word_alpha is None and not within_one(fit.levels.starts(RUNS), PLANTED_STARTS)  # fit unchanged


def test_with_words_scatter_is_the_embeddings_scatter(embedding_fit):
    fit, C = embedding_fit
    words = fit.with_words(C, DEFAULT_POLICY.word_weight)
    F, w = words.features, words.weights
    assert words.scatter == pytest.approx(direct_scatter(F, w, words.labels), rel=1e-9)
    # not the combined levels' cost, which weighs the words too
    assert words.scatter != pytest.approx(words.levels.costs[RUNS] / w.sum(), rel=1e-3)
    means = np.stack([np.average(F[words.labels == r], axis=0, weights=w[words.labels == r]) for r in range(RUNS)])
    np.testing.assert_allclose(words.means, means, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(words.centers, means / np.linalg.norm(means, axis=1, keepdims=True), atol=1e-12)


def test_at_weighs_the_words_again_at_the_new_number_of_runs(embedding_fit):
    """Issue 36 fault 2: a re-cut of a fit that weighs the words is the fit given that k (the words' scales and
    alpha set at the new k, on the embeddings' own levels), not the combined levels of the fitted k read back."""
    fit, C = embedding_fit
    words = fit.with_words(C, DEFAULT_POLICY.word_weight)
    assert words.cost_levels is fit.levels and words.word_counts is C
    for j in range(1, words.levels.max_runs + 1):
        cut = words.at(j)
        given = fit.at(j).with_words(C, DEFAULT_POLICY.word_weight)  # the runs fit given j runs, then the words
        assert int(cut.labels.max()) + 1 == j
        np.testing.assert_array_equal(cut.labels, given.labels)
        assert cut.word_alpha == given.word_alpha
        assert (cut.word_alpha is None) == (j == 1)
        np.testing.assert_array_equal(cut.levels.costs, given.levels.costs)
        assert cut.scatter == pytest.approx(direct_scatter(cut.features, cut.weights, cut.labels), rel=1e-9)
        np.testing.assert_array_equal(cut.at(RUNS).labels, words.labels)  # a re-cut of a re-cut: the same rule
    np.testing.assert_array_equal(words.at(RUNS).labels, words.labels)
    assert words.at(RUNS).word_alpha == words.word_alpha
    assert fit.at(RUNS).word_alpha is None  # the embeddings' own fit stays the embeddings'


def test_with_words_is_self_where_the_words_cannot_weigh_in(embedding_fit):
    fit, C = embedding_fit
    assert fit.with_words(C, weight=0.0) is fit
    assert fit.with_words(sp.csr_matrix((N, 5)), DEFAULT_POLICY.word_weight) is fit
    assert fit.with_words(check_word_counts(np.zeros((N, 0)), N), DEFAULT_POLICY.word_weight) is fit
    assert fit.at(1).with_words(C, DEFAULT_POLICY.word_weight).word_alpha is None  # one run: nothing to place
    one = fit.at(1)
    kept = one.with_words(C, DEFAULT_POLICY.word_weight)  # the same run, in a copy that keeps the words for a re-cut
    np.testing.assert_array_equal(kept.labels, one.labels)
    assert kept.word_alpha is None and kept.levels is one.levels and kept.cost_levels is one.levels
    np.testing.assert_array_equal(kept.at(RUNS).labels, fit.with_words(C, DEFAULT_POLICY.word_weight).labels)
    bare = RunsFit(fit.labels, fit.centers, fit.smoothing_width)  # no levels kept
    assert bare.with_words(C, DEFAULT_POLICY.word_weight) is bare


# -- runs_at: the scatter per unit of weight -------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_runs_at_scatter_is_the_levels_cost_per_unit_of_weight(seed):
    X, _ = planted_blocks((12, 20, 9, 15), dim=16, noise=0.3, seed=seed)
    w = np.random.default_rng(seed).uniform(0.1, 2.0, len(X))
    levels = segmental_levels(X, w, 10, policy=DEFAULT_POLICY)
    for k in range(1, 11):
        fit = runs_at(X, w, levels, k, 0.5)
        assert fit.scatter == pytest.approx(levels.costs[k] / w.sum(), rel=1e-9, abs=1e-12)
        assert fit.word_alpha is None
    fitted = fit_runs(X, w, "auto")  # smoothed features, k noise-calibrated
    k = int(fitted.labels.max()) + 1
    assert fitted.scatter == pytest.approx(fitted.levels.costs[k] / w.sum(), rel=1e-9, abs=1e-12)
