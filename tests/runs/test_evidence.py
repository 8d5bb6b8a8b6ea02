"""How many runs the words support: the Dirichlet-compound-multinomial evidence over the runs' levels."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from planted import planted_blocks
from scipy.special import gammaln

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.evidence import check_word_counts, dcm_log_evidence, evidence_runs, level_evidence
from bpseg_pgm.runs.search import segmental_levels

RUNS, SIZE = 4, 30


def planted_levels(runs=RUNS, size=SIZE):
    """The runs programme's levels (1..10 runs) over embeddings whose 4-run split is the planted blocks."""
    X, truth = planted_blocks((size,) * runs, dim=32, noise=0.1, seed=0)
    levels = segmental_levels(X, np.ones(len(X)), 10, policy=P)
    np.testing.assert_array_equal(levels.labels(runs), truth)  # the levels hold the planted split
    return levels


def planted_words(runs=RUNS, size=SIZE, vocab=25, per=8, shared=2, seed=0):
    """Counts (runs x size, runs x vocab + 5): each unit draws ``per`` words from its run's own vocabulary
    and ``shared`` from five words every run uses (the fillers of speech)."""
    rng = np.random.default_rng(seed)
    C = np.zeros((runs * size, runs * vocab + 5))
    for r in range(runs):
        for i in range(size):
            np.add.at(C[r * size + i], rng.integers(r * vocab, (r + 1) * vocab, size=per), 1)
            np.add.at(C[r * size + i], runs * vocab + rng.integers(0, 5, size=shared), 1)
    return C


def unchanging_words(n=RUNS * SIZE, vocab=100, per=10, seed=1):
    """Every unit draws its words from one distribution: the words never change."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(per, np.ones(vocab) / vocab, size=n).astype(float)


# -- dcm_log_evidence -----------------------------------------------------------------------------


def dense_dcm(S: np.ndarray, alpha: float) -> float:
    """The DCM log evidence, every entry visited (zeros included)."""
    V = S.shape[1]
    total = 0.0
    for row in S:
        total += gammaln(V * alpha) - gammaln(row.sum() + V * alpha)
        total += np.sum(gammaln(row + alpha) - gammaln(alpha))
    return float(total)


@pytest.mark.parametrize("alpha", [0.01, 0.3, 1.0, 7.5])
def test_dcm_log_evidence_is_the_dense_formula(alpha):
    rng = np.random.default_rng(0)
    S = rng.poisson(0.7, size=(5, 12)).astype(float)
    S[:, 3] = 0  # a column no run uses still counts in V
    S[2] = 0  # an empty run contributes nothing
    assert dcm_log_evidence(sp.csr_matrix(S), alpha) == pytest.approx(dense_dcm(S, alpha), rel=1e-12, abs=1e-9)


def test_level_evidence_is_the_evidence_at_the_best_alpha():
    C = check_word_counts(planted_words(), RUNS * SIZE)
    labels = np.repeat(np.arange(RUNS), SIZE)
    S = np.vstack([C[labels == r].sum(axis=0) for r in range(RUNS)])
    best = level_evidence(C, labels)
    grid = [dense_dcm(np.asarray(S), a) for a in np.exp(np.linspace(-8, 3, 200))]
    assert best >= max(grid) - 1e-2  # the bounded search finds the maximum over alpha
    assert best <= max(grid) + 1.0
    assert level_evidence(sp.csr_matrix((RUNS * SIZE, 3)), labels) == 0.0  # no words: no evidence


# -- evidence_runs ----------------------------------------------------------------------------------


def test_planted_word_runs_are_found():
    levels = planted_levels()
    C = check_word_counts(planted_words(), RUNS * SIZE)
    k, scores = evidence_runs(C, levels, 1, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels)
    assert k == RUNS
    assert sorted(scores) == list(range(1, 11))
    assert scores[RUNS] == max(scores.values())
    # the bounds are kept: the best within [5, 10] is not 4
    assert evidence_runs(C, levels, 5, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels)[0] >= 5
    assert evidence_runs(C, levels, 1, 3, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels)[0] <= 3


def test_words_that_never_change_give_the_lowest_count():
    levels = planted_levels()
    C = check_word_counts(unchanging_words(), RUNS * SIZE)
    assert evidence_runs(C, levels, 1, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels)[0] == 1
    assert (
        evidence_runs(C, levels, 3, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels)[0] == 3
    )  # the floor (the span rule's count) is kept


def test_a_larger_penalty_never_gives_more_runs():
    levels = planted_levels()
    C = check_word_counts(planted_words(), RUNS * SIZE)
    penalties = [0.0, 0.5, 1.0, 3.0, 10.0, 30.0, 60.0, 100.0, 300.0]
    ks = [evidence_runs(C, levels, 1, 10, penalty=b, max_levels=P.max_evidence_levels)[0] for b in penalties]
    assert all(a >= b for a, b in zip(ks, ks[1:])), ks
    assert ks[0] >= RUNS and ks[-1] == 1  # and it does bite: from the planted count down to one run


def test_scores_are_evidence_less_penalty_times_log_binomial():
    levels = planted_levels()
    C = check_word_counts(planted_words(), RUNS * SIZE)
    n = RUNS * SIZE
    _, free = evidence_runs(C, levels, 1, 10, penalty=0.0, max_levels=P.max_evidence_levels)
    _, paid = evidence_runs(C, levels, 1, 10, penalty=2.0, max_levels=P.max_evidence_levels)
    for k in free:
        log_binom = gammaln(n) - gammaln(k) - gammaln(n - k + 1)  # log C(n - 1, k - 1)
        assert paid[k] == pytest.approx(free[k] - 2.0 * log_binom, abs=1e-6)
        assert free[k] == pytest.approx(level_evidence(C, levels.labels(k)), abs=1e-9)


def test_a_tie_goes_to_the_fewest_runs(monkeypatch):
    import bpseg_pgm.runs.evidence as evidence

    levels = planted_levels()
    C = check_word_counts(planted_words(), RUNS * SIZE)
    monkeypatch.setattr(evidence, "level_evidence", lambda C, labels: 0.0)  # every level equally likely
    k, scores = evidence_runs(C, levels, 2, 10, penalty=0.0, max_levels=P.max_evidence_levels)
    assert scores == dict.fromkeys(range(2, 11), 0.0)
    assert k == 2


def test_no_vocabulary_gives_the_lowest_count():
    levels = planted_levels()
    empty = check_word_counts(np.zeros((RUNS * SIZE, 0)), RUNS * SIZE)
    assert empty.shape == (RUNS * SIZE, 0)
    assert evidence_runs(empty, levels, 1, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels) == (1, {})
    assert evidence_runs(empty, levels, 2, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels) == (2, {})
    zeros = check_word_counts(np.zeros((RUNS * SIZE, 7)), RUNS * SIZE)  # words that never occur
    assert zeros.shape == (RUNS * SIZE, 0) and evidence_runs(
        zeros, levels, 2, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels
    ) == (2, {})


def test_max_levels_thins_the_levels_and_keeps_both_ends():
    levels = planted_levels()
    C = check_word_counts(planted_words(), RUNS * SIZE)
    k, scores = evidence_runs(C, levels, 2, 10, max_levels=3, penalty=P.evidence_penalty)
    assert len(scores) <= 3 and min(scores) == 2 and max(scores) == 10
    assert k in scores
    _, all_scores = evidence_runs(C, levels, 2, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels)
    assert len(all_scores) == 9
    for kk, s in scores.items():  # the same scores, only fewer of them
        assert s == pytest.approx(all_scores[kk])


def test_high_is_capped_by_the_levels():
    levels = planted_levels()
    C = check_word_counts(planted_words(), RUNS * SIZE)
    _, scores = evidence_runs(C, levels, 1, 500, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels)
    assert max(scores) == levels.max_runs == 10


# -- check_word_counts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "counts,match",
    [
        (np.ones((5, 3)), r"one row per unit \(6\)"),
        (np.ones((7, 3)), r"one row per unit \(6\)"),
        (np.ones(6), r"one row per unit"),
        (np.ones((6, 2, 2)), r"2-D"),
        (np.array([[1.0, -1.0]] * 6), "non-negative"),
        (np.array([[1.0, np.nan]] * 6), "finite"),
        (np.array([[np.inf, 1.0]] * 6), "finite"),
        (sp.csr_matrix(np.array([[1.0, -2.0]] * 6)), "non-negative"),
        (np.array([["a", "b"]] * 6), "word_counts must be a 2-D array or sparse matrix of counts"),
        ("six words", "word_counts"),
    ],
)
def test_bad_word_counts_are_a_value_error(counts, match):
    with pytest.raises(ValueError, match=match):
        check_word_counts(counts, 6)


def test_unused_terms_are_dropped_and_sparse_equals_dense():
    rng = np.random.default_rng(3)
    dense = rng.poisson(0.5, size=(RUNS * SIZE, 40)).astype(float)
    dense[:, [0, 7, 39]] = 0
    C = check_word_counts(dense, RUNS * SIZE)
    assert sp.issparse(C) and C.format == "csr" and C.dtype == np.float64
    assert C.shape == (RUNS * SIZE, 37)
    np.testing.assert_array_equal(C.toarray(), np.delete(dense, [0, 7, 39], axis=1))
    for other in (sp.csr_matrix(dense), sp.csc_matrix(dense), sp.coo_matrix(dense), dense.astype(np.int64)):
        np.testing.assert_array_equal(check_word_counts(other, RUNS * SIZE).toarray(), C.toarray())
    # explicit zeros stored in a sparse matrix are no terms either
    stored = sp.csr_matrix(dense)
    stored.data[:5] = 0.0
    assert check_word_counts(stored, RUNS * SIZE).nnz == C.nnz - 5


def test_dense_and_sparse_counts_give_the_same_evidence():
    levels = planted_levels()
    words = planted_words()
    words[:, 3] = 0  # an unused term: dropped, so the evidence does not depend on it
    dense = evidence_runs(
        check_word_counts(words, RUNS * SIZE),
        levels,
        1,
        10,
        penalty=P.evidence_penalty,
        max_levels=P.max_evidence_levels,
    )
    sparse = evidence_runs(
        check_word_counts(sp.csr_matrix(words), RUNS * SIZE),
        levels,
        1,
        10,
        penalty=P.evidence_penalty,
        max_levels=P.max_evidence_levels,
    )
    wider = evidence_runs(
        check_word_counts(np.hstack([words, np.zeros((RUNS * SIZE, 50))]), RUNS * SIZE),
        levels,
        1,
        10,
        penalty=P.evidence_penalty,
        max_levels=P.max_evidence_levels,
    )
    for other in (sparse, wider):
        assert other[0] == dense[0]
        assert other[1] == pytest.approx(dense[1])


def test_counts_for_another_text_or_too_few_levels_are_a_value_error():
    levels = planted_levels()
    C = check_word_counts(planted_words(), RUNS * SIZE)
    with pytest.raises(ValueError, match="rows for levels over"):
        evidence_runs(C[:-1], levels, 1, 10, penalty=P.evidence_penalty, max_levels=P.max_evidence_levels)
    for bad in (1, 0, -3):
        with pytest.raises(ValueError, match="max_levels must be at least 2"):
            evidence_runs(C, levels, 1, 10, max_levels=bad, penalty=P.evidence_penalty)
