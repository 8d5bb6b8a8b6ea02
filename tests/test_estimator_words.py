"""``BPSeg.fit(X, word_counts=...)``: the words' evidence sets the automatic number of runs on gradual text;
``granularity_`` reports the span rule's count and the words' count."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from planted import check_fitted, gradual_document, planted_blocks, planted_words

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.utils.labels import n_runs

N_BLOCKS, BLOCK = 12, 40


@pytest.mark.parametrize("structure", ["auto", "runs", "topics"])
@pytest.mark.parametrize(
    "counts, match",
    [
        (np.ones((29, 4)), r"one row per unit \(30\)"),
        (np.ones((31, 4)), r"one row per unit \(30\)"),
        (-np.ones((30, 4)), "non-negative"),
        (np.full((30, 4), np.nan), "finite"),
        (sp.csr_matrix(np.full((30, 4), np.inf)), "finite"),
        (np.full((30, 4), "word"), "2-D array or sparse matrix of counts"),
    ],
)
def test_bad_word_counts_are_refused_before_any_work(structure, counts, match, model_calls):
    X, _ = planted_blocks((10, 10, 10), seed=0)
    with pytest.raises(ValueError, match=match):
        BPSeg(structure=structure).fit(X, word_counts=counts)
    assert model_calls == []  # refused before any model ran


@pytest.mark.parametrize("params", [dict(structure="runs"), dict(structure="topics"), dict(n_segments=5)])
def test_granularity_is_none_unless_auto_chose_the_number_of_runs(params):
    X = gradual_document(n_blocks=6)
    model = BPSeg(random_state=0, **params).fit(X, word_counts=planted_words(n_blocks=6))
    assert model.granularity_ is None


def test_granularity_reports_the_span_rule_and_a_refit_leaves_nothing_stale():
    X, words = gradual_document(), planted_words(N_BLOCKS, BLOCK)
    est = BPSeg(random_state=0, group_runs=False)
    est.fit(X)
    assert est.structure_ == "runs"
    assert set(est.granularity_) == {"span", "words"} and est.granularity_["words"] is None
    span = est.granularity_["span"]
    assert isinstance(span, int) and 2 <= span == est.n_segments_
    est.fit(X, word_counts=words)
    assert est.granularity_["span"] == span and est.granularity_["words"] is not None
    est.fit(X)  # no words this time: no words' count left from the last fit
    assert est.granularity_ == {"span": span, "words": None}
    est.set_params(n_segments=3).fit(X, word_counts=words)  # a given k: nothing chosen
    assert est.granularity_ is None and est.n_segments_ == 3
    grouped = BPSeg(random_state=0).fit(X, word_counts=words)  # the default: the runs, grouped into topics
    assert grouped.structure_ == "run-topics" and grouped.granularity_["span"] == span
    assert grouped.granularity_["words"] is not None


def test_words_that_change_more_often_give_more_runs_deterministically():
    X, words = gradual_document(), planted_words(N_BLOCKS, BLOCK)
    plain = BPSeg(random_state=0, group_runs=False).fit(X)
    model = BPSeg(random_state=0, group_runs=False).fit(X, word_counts=sp.csr_matrix(words))
    check_fitted(model, len(X))
    g = model.granularity_
    assert g["span"] == plain.granularity_["span"] < N_BLOCKS  # the span rule alone sees fewer runs
    assert g["words"] >= g["span"] and g["words"] > plain.n_segments_
    fine = BPSeg(structure="runs", random_state=0).fit(X).n_segments_  # the noise-calibrated runs: the ceiling
    assert g["words"] <= fine
    assert model.n_segments_ == g["words"] == n_runs(model.labels_)
    again = BPSeg(random_state=0, group_runs=False).fit(X, word_counts=words)  # dense: the same
    np.testing.assert_array_equal(model.labels_, again.labels_)
    assert again.granularity_ == g


def test_words_never_go_below_the_span_rule():
    X = gradual_document()
    rng = np.random.default_rng(2)
    same = rng.multinomial(6, np.ones(200) / 200, size=len(X))  # words that never change
    plain = BPSeg(random_state=0, group_runs=False).fit(X)
    model = BPSeg(random_state=0, group_runs=False).fit(X, word_counts=same)
    assert model.granularity_ == {"span": plain.granularity_["span"], "words": plain.granularity_["span"]}
    # the count is the span rule's; words that never change may still move the boundaries a little (a known
    # limit, runs/wordcost.py), never the number of runs
    assert n_runs(model.labels_) == n_runs(plain.labels_)


# -- the words' cost: where the boundaries of the runs go -----------------------------------------------


@pytest.mark.parametrize("params", [dict(structure="runs"), dict()], ids=["runs", "default"])
def test_a_given_k_places_the_boundaries_with_the_words(params):
    from sklearn.metrics import adjusted_rand_score

    X, words = gradual_document(), planted_words(N_BLOCKS, BLOCK)
    truth = np.repeat(np.arange(N_BLOCKS), BLOCK)
    plain = BPSeg(n_segments=N_BLOCKS, random_state=0, **params).fit(X)
    model = BPSeg(n_segments=N_BLOCKS, random_state=0, **params).fit(X, word_counts=words)
    check_fitted(model, len(X))
    assert model.structure_ == plain.structure_ == "runs"
    assert plain.runs_.word_alpha is None
    assert model.runs_.word_alpha is not None and model.runs_.word_alpha > 0
    assert model.n_segments_ == N_BLOCKS == n_runs(model.runs_.labels)
    assert adjusted_rand_score(truth, model.runs_.labels) > adjusted_rand_score(truth, plain.runs_.labels)
    assert adjusted_rand_score(truth, model.runs_.labels) > 0.99  # the words change at every block
    again = BPSeg(n_segments=N_BLOCKS, random_state=0, **params).fit(X, word_counts=sp.csr_matrix(words))
    np.testing.assert_array_equal(again.labels_, model.labels_)  # deterministic, dense or sparse
    np.testing.assert_array_equal(again.runs_.labels, model.runs_.labels)
    assert again.runs_.word_alpha == model.runs_.word_alpha


def test_the_automatic_k_weighs_the_words_too():
    X, words = gradual_document(), planted_words(N_BLOCKS, BLOCK)
    model = BPSeg(random_state=0, group_runs=False).fit(X, word_counts=words)
    assert model.runs_.word_alpha is not None and n_runs(model.runs_.labels) == model.n_segments_
    assert BPSeg(random_state=0, group_runs=False).fit(X).runs_.word_alpha is None
    runs = BPSeg(structure="runs", random_state=0).fit(X, word_counts=words)  # noise-calibrated k
    plain = BPSeg(structure="runs", random_state=0).fit(X)
    assert runs.runs_.word_alpha is not None and plain.runs_.word_alpha is None
    assert runs.n_segments_ == plain.n_segments_  # the words move the boundaries, not their number
