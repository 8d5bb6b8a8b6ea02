"""Metrics on hand-checkable cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bpseg_pgm.evaluation.metrics import (
    METRICS,
    SEGMENT_STATS,
    boundaries,
    evaluate,
    evaluate_partial,
    n_runs,
    returning_labels,
    returning_purity,
    spans_joined,
    window_size,
)


def test_perfect_and_relabelled_prediction():
    gold = [0, 0, 0, 1, 1, 1, 2, 2]
    for pred in (gold, [5, 5, 5, 3, 3, 3, 9, 9]):
        s = evaluate(gold, pred)
        assert tuple(s) == METRICS
        assert s["ari"] == pytest.approx(1.0) and s["nmi"] == pytest.approx(1.0) and s["ami"] == pytest.approx(1.0)
        assert s["pk"] == 0.0 and s["windowdiff"] == 0.0


def test_ari_of_crossed_halves_is_minus_half():
    # contingency all ones: sum C(n_ij, 2) = 0, expected 2*2/6, max 2 -> (0 - 2/3) / (2 - 2/3)
    assert evaluate([0, 0, 1, 1], [0, 1, 0, 1])["ari"] == pytest.approx(-0.5)


def test_boundaries_at_every_label_change():
    assert boundaries([0, 0, 1, 1, 0]) == "0101"
    assert boundaries([3]) == ""
    assert boundaries([0, 1, 0, 1]) == "111"  # non-contiguous: a boundary at each change


def test_window_is_half_mean_gold_segment_length():
    assert window_size([0] * 4 + [1] * 4) == 2  # 8 / (2 * 2)
    assert window_size([0] * 5 + [1] * 4) == 2  # 9 / 4 = 2.25
    assert window_size([0] * 5 + [1] * 5 + [2]) == 2  # 11 / 6 = 1.83
    assert window_size([0, 0, 0, 1, 1, 1]) == 2  # 1.5 rounds half up
    assert window_size([0, 0]) == 1  # 2 / 2 = 1, within [1, n - 1]
    assert window_size([0, 1, 0, 1]) == 1  # 4 runs of one: 0.5 rounds to 1


def test_pk_and_windowdiff_by_hand():
    gold = [0] * 4 + [1] * 4  # boundary string 0001000, k = 2, 6 windows
    s = evaluate(gold, [0] * 8)  # no boundary: the 2 windows over the gold boundary disagree
    assert s["pk"] == pytest.approx(2 / 6) and s["windowdiff"] == pytest.approx(2 / 6)
    s = evaluate(gold, [0, 0, 0, 1, 1, 1, 1, 1])  # boundary one early: 0010000
    assert s["pk"] == pytest.approx(2 / 6) and s["windowdiff"] == pytest.approx(2 / 6)
    s = evaluate(gold, [0, 0, 0, 0, 1, 0, 0, 0])  # non-contiguous: boundaries 0001100
    # windows [i, i+1]: gold counts 0,0,1,1,0,0 vs pred 0,0,1,2,1,0 -> Pk differs at i=4, WD at i=3, 4
    assert s["pk"] == pytest.approx(1 / 6) and s["windowdiff"] == pytest.approx(2 / 6)


def test_single_sentence_has_no_window():
    s = evaluate([0], [0])
    assert math.isnan(s["pk"]) and math.isnan(s["windowdiff"])


@pytest.mark.parametrize("gold, pred", [([], []), ([0, 1], [0]), (np.zeros((2, 2)), np.zeros((2, 2)))])
def test_bad_inputs_raise(gold, pred):
    with pytest.raises(ValueError):
        evaluate(gold, pred)


# -- partial gold labels, runs and returning-topic purity ---------------------------------------------


def test_n_runs():
    assert n_runs([]) == 0
    assert n_runs([7]) == 1
    assert n_runs([0, 0, 1, 1, 0]) == 3
    assert n_runs(["a", "b", "a", "b"]) == 4
    assert n_runs(np.zeros(5)) == 1
    with pytest.raises(ValueError):
        n_runs(np.zeros((2, 2)))


def test_returning_purity_by_hand():
    # gold topic 0 returns (two runs); topic 1 does not and is ignored
    assert returning_purity([0, 0, 1, 1, 0, 0], [0, 0, 1, 1, 0, 0]) == 1.0
    assert returning_purity([0, 0, 1, 1, 0, 0], [0, 0, 1, 1, 2, 2]) == 0.5  # topic 0 split in halves
    assert returning_purity([0, 0, 1, 1, 0, 0], [5, 5, 5, 5, 5, 5]) == 1.0  # one label: pure, if useless
    # two returning topics: 0 -> preds (0, 0) share 1; 1 -> preds (0, 1) share 1/2; mean 3/4
    assert returning_purity([0, 1, 0, 1], [0, 0, 0, 1]) == pytest.approx(0.75)
    # topic 0: three runs, labelled 3 | 3, 4 | 4 -> 2/4; topic 1 returns too, all under 9 -> 1
    assert returning_purity([0, 1, 0, 0, 1, 0], [3, 9, 3, 4, 9, 4]) == pytest.approx(0.75)


def test_returning_purity_is_nan_when_nothing_returns():
    assert math.isnan(returning_purity([0, 0, 1, 1, 2], [0, 1, 0, 1, 0]))
    assert math.isnan(returning_purity([4], [0]))


def test_returning_labels():
    assert returning_labels([0, 0, 1, 1, 0]) == [0]
    assert returning_labels(["b", "a", "b", "a", "c"]) == ["b", "a"]  # order of first appearance
    assert returning_labels([0, 0, 1, 1, 2]) == [] and returning_labels([]) == [] and returning_labels([3]) == []
    assert returning_labels([0, None, 0, 1]) == []  # interrupted by unlabelled units only: no return
    assert returning_labels([0, None, 1, None, 0]) == [0]


def test_spans_joined_by_hand():
    # one returning topic (0); topic 1 is one span and ignored
    assert spans_joined([0, 0, 1, 1, 0, 0], [0, 0, 1, 1, 0, 0]) == 1.0
    assert spans_joined([0, 0, 1, 1, 0, 0], [0, 0, 1, 1, 2, 2]) == 0.0  # the return gets a label of its own
    assert spans_joined([0, 0, 1, 1, 0, 0], [5, 5, 5, 5, 5, 5]) == 1.0  # one label joins everything
    assert spans_joined(["a", "b", "a"], ["x", "y", "x"]) == 1.0  # any hashable labels
    # majority, not purity: spans 3 3 4 | 3 4 3 share majority 3 although a third of the topic is under 4
    gold, pred = [0, 0, 0, 1, 0, 0, 0], [3, 3, 4, 9, 3, 4, 3]
    assert spans_joined(gold, pred) == 1.0 and returning_purity(gold, pred) == pytest.approx(4 / 6)
    # a minority under the same label is not enough: spans 3 3 4 | 4 4 3
    assert spans_joined(gold, [3, 3, 4, 9, 4, 4, 3]) == 0.0
    # two returning topics: 0 joined (a | a), 1 not (x | y): the fraction over the document's topics
    assert spans_joined([0, 1, 0, 1], [7, 8, 7, 9]) == 0.5
    # three spans: every span must share the label, not just two of them
    assert spans_joined([0, 0, 1, 0, 0, 1, 0, 0], [4, 4, 8, 4, 4, 8, 5, 5]) == 0.5  # 0: a a b -> no; 1: x x -> yes


def test_spans_joined_ties():
    # a tied span (5 7) has two majority labels: joined when either is the majority of the other span
    assert spans_joined([0, 0, 1, 0, 0], [5, 7, 1, 7, 7]) == 1.0
    assert spans_joined([0, 0, 1, 0, 0], [5, 7, 1, 5, 5]) == 1.0
    assert spans_joined([0, 0, 1, 0, 0], [5, 7, 1, 8, 8]) == 0.0
    assert spans_joined([0, 0, 1, 0, 0], [5, 7, 1, 8, 5]) == 1.0  # both spans tied, sharing 5


def test_spans_joined_is_nan_without_returns_and_checks_input():
    assert math.isnan(spans_joined([0, 0, 1, 1, 2], [0, 1, 0, 1, 0]))
    assert math.isnan(spans_joined([4], [0]))
    with pytest.raises(ValueError, match="gold has 3 labels but prediction has 2"):
        spans_joined([0, 1, 0], [0, 1])
    with pytest.raises(ValueError, match="1-D"):
        spans_joined([0, 1, 0], np.zeros((3, 1)))


def test_evaluate_partial_by_hand():
    s = evaluate_partial(["a", "a", None, "b", "b"], [0, 0, 5, 1, 1])
    assert tuple(s) == METRICS + SEGMENT_STATS
    assert s["ari"] == pytest.approx(1.0) and s["pk"] == 0.0 and s["windowdiff"] == 0.0
    assert s["runs_per_segment"] == 1.0
    assert s["segments_found"] == 3.0  # distinct predicted labels over all units, the unlabelled one too
    assert s["gold_segments"] == 2.0 and s["returning_topics"] == 0.0
    assert math.isnan(s["purity_returning"]) and math.isnan(s["spans_joined"])


def test_unlabelled_units_are_dropped_before_pk():
    gold = [0, 0, 0, None, None, 1, 1, 1]
    pred = [0, 0, 0, 1, 1, 1, 1, 1]  # the boundary lands in the unlabelled gap: right on the labelled units
    s = evaluate_partial(gold, pred)
    assert s["pk"] == 0.0 and s["windowdiff"] == 0.0 and s["ari"] == pytest.approx(1.0)
    # the same as scoring the labelled units alone
    assert s == {**evaluate([0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1]), **{k: s[k] for k in SEGMENT_STATS}}
    # a boundary inside a gold run of labelled units is an error: gold 000111 vs pred 001111, k = 2
    s = evaluate_partial([0, None, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1])
    assert s["pk"] == pytest.approx(evaluate([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])["pk"]) and s["pk"] > 0


def test_evaluate_partial_runs_and_returning_topics():
    gold = ["t0", "t0", "t1", "t1", None, "t0", "t0"]  # t0 returns after t1
    pred = [0, 0, 1, 1, 1, 2, 2]
    s = evaluate_partial(gold, pred)
    assert s["runs_per_segment"] == 1.0  # 3 predicted runs on the labelled units / 3 gold runs
    assert s["gold_segments"] == 2.0 and s["segments_found"] == 3.0
    assert s["purity_returning"] == 0.5 and s["spans_joined"] == 0.0 and s["returning_topics"] == 1.0
    s = evaluate_partial(gold, [0, 0, 1, 1, 1, 0, 0])  # the returning topic under one label
    assert s["purity_returning"] == 1.0 and s["spans_joined"] == 1.0 and s["ari"] == pytest.approx(1.0)
    # the unlabelled unit's prediction does not count: t0's spans read 0 0 | 0 0 whatever it gets
    assert evaluate_partial(gold, [0, 0, 1, 1, 7, 0, 0])["spans_joined"] == 1.0
    s = evaluate_partial(gold, [0, 1, 0, 1, 0, 1, 0])  # labelled units read 0 1 0 1 1 0: 5 runs per 3
    assert s["runs_per_segment"] == pytest.approx(5 / 3)
    # a topic interrupted only by unlabelled units does not return
    s = evaluate_partial([0, None, 0, 1], [0, 0, 1, 1])
    assert math.isnan(s["purity_returning"]) and math.isnan(s["spans_joined"]) and s["returning_topics"] == 0.0


def test_evaluate_partial_without_nulls_is_evaluate():
    gold, pred = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    s = evaluate_partial(gold, pred)
    assert {k: s[k] for k in METRICS} == evaluate(gold, pred)
    assert s["runs_per_segment"] == pytest.approx(2 / 3) and s["segments_found"] == 2.0


def test_evaluate_partial_errors():
    with pytest.raises(ValueError, match="no unit carries a gold label"):
        evaluate_partial([None, None], [0, 1])
    with pytest.raises(ValueError, match="gold has 3 labels but prediction has 2"):
        evaluate_partial([0, None, 1], [0, 1])
    with pytest.raises(ValueError):
        evaluate_partial([0, 1], np.zeros((2, 1)))
    s = evaluate_partial([None, "x", None], [3, 4, 5])  # one labelled unit: no window
    assert math.isnan(s["pk"]) and s["segments_found"] == 3.0 and s["runs_per_segment"] == 1.0
