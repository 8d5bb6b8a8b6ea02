"""Returning topics joined across separate runs, and the precision of predicted returns, on hand-made labels."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import bpseg_pgm.evaluation
from bpseg_pgm.evaluation import returns
from bpseg_pgm.evaluation.metrics import spans_joined
from bpseg_pgm.evaluation.returns import joined_across_runs, return_precision

GOLD = [0, 0, 0, 1, 1, 1, 0, 0, 0]  # topic 0 returns after topic 1: one pair of spans


def test_the_docstring_examples_hold():
    assert doctest.testmod(returns, raise_on_error=False).failed == 0


def test_exported_from_the_evaluation_package():
    assert {"joined_across_runs", "return_precision"} <= set(bpseg_pgm.evaluation.__all__)
    assert bpseg_pgm.evaluation.joined_across_runs is joined_across_runs


def test_one_long_run_swallowing_the_gap_is_not_joined():
    pred = [5] * 9  # one label, one run: the old score joins the topic, this one does not
    assert spans_joined(GOLD, pred) == 1.0
    assert joined_across_runs(GOLD, pred) == (0, 1)
    assert return_precision(GOLD, pred) == (0, 0)  # no predicted return either
    # a run over the first span and most of the gap, one unit of another label, then the second span: the
    # units under 5 lie in different runs, so the pair is joined (the definition asks for nothing more)
    pred = [5, 5, 5, 5, 5, 6, 5, 5, 5]
    assert spans_joined(GOLD, pred) == 1.0 and joined_across_runs(GOLD, pred) == (1, 1)  # 6 lies between
    pred = [5, 5, 5, 5, 5, 5, 5, 6, 6]  # the gap swallowed and the return cut late: 5 is not b's majority
    assert joined_across_runs(GOLD, pred) == (0, 1)


def test_a_true_join():
    pred = [5, 5, 5, 6, 6, 6, 5, 5, 5]
    assert joined_across_runs(GOLD, pred) == (1, 1)
    assert return_precision(GOLD, pred) == (1, 1)
    assert joined_across_runs(["a", "b", "a"], ["x", "y", "x"]) == (1, 1)  # any hashable labels


def test_a_topic_left_under_a_new_label_is_not_joined():
    pred = [5, 5, 5, 6, 6, 6, 7, 7, 7]  # contiguous: the return gets a label of its own
    assert joined_across_runs(GOLD, pred) == (0, 1)
    assert return_precision(GOLD, pred) == (0, 0)


def test_a_wrong_join_costs_precision():
    # label 5 returns, but over two different gold topics: 0 then 2
    gold = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert return_precision(gold, [5, 5, 5, 6, 6, 6, 5, 5, 5]) == (0, 1)
    assert joined_across_runs(gold, [5, 5, 5, 6, 6, 6, 5, 5, 5]) == (0, 0)
    # label 5 returns within one gold topic around an intruding label: the gold never left topic 0
    assert return_precision([0] * 6 + [1] * 3, [5, 5, 6, 5, 5, 5, 7, 7, 7]) == (0, 1)
    # one right return and one wrong: label 5 over topic 0, back on topic 0 (right), then on topic 2 (wrong)
    gold = [0, 0, 1, 1, 0, 0, 2, 2]
    assert return_precision(gold, [5, 5, 6, 6, 5, 5, 7, 5]) == (1, 2)


def test_no_returns_give_no_pairs():
    gold, pred = [0, 0, 1, 1, 2, 2], [5, 5, 6, 6, 7, 7]
    assert joined_across_runs(gold, pred) == (0, 0) and return_precision(gold, pred) == (0, 0)
    assert joined_across_runs([4], [0]) == (0, 0) and return_precision([4], [0]) == (0, 0)
    assert joined_across_runs([], []) == (0, 0) and return_precision([], []) == (0, 0)


def test_every_pair_of_consecutive_spans_counts():
    gold = [0, 1, 0, 1, 0]  # topic 0: spans 1-2 and 2-3; topic 1: one pair
    assert joined_across_runs(gold, gold) == (3, 3) and return_precision(gold, gold) == (3, 3)
    pred = [5, 6, 5, 6, 7]  # topic 0's second pair ends under a new label
    assert joined_across_runs(gold, pred) == (2, 3) and return_precision(gold, pred) == (2, 2)


def test_ties_join_when_a_shared_majority_label_is_apart():
    gold = [0, 0, 1, 1, 0, 0]
    assert joined_across_runs(gold, [5, 7, 6, 6, 7, 7]) == (1, 1)  # a's tie {5, 7} shares 7 with b
    assert joined_across_runs(gold, [5, 7, 6, 6, 8, 8]) == (0, 1)
    assert return_precision([0, 1, 2, 2, 0, 1], [5, 5, 6, 6, 5, 5]) == (1, 1)  # tied runs {0, 1} both return


def test_unlabelled_units_are_dropped_first():
    # topic 0 interrupted only by unlabelled units does not return
    assert joined_across_runs([0, 0, None, 0], [5, 5, 6, 5]) == (0, 0)
    assert return_precision([0, 0, None, 0], [5, 5, 6, 5]) == (0, 0)  # 5 is one run once 6 is dropped
    gold = [0, None, 1, 1, None, 0, 0]
    assert joined_across_runs(gold, [5, 9, 6, 6, 9, 5, 5]) == (1, 1)
    assert return_precision(gold, np.array([5, 9, 6, 6, 9, 5, 5])) == (1, 1)


def test_a_contiguous_prediction_never_joins():
    rng = np.random.default_rng(0)
    for _ in range(50):
        gold = rng.integers(0, 3, size=20)
        cuts = np.sort(rng.choice(np.arange(1, 20), size=4, replace=False))
        pred = np.searchsorted(cuts, np.arange(20), side="right")  # labels 0..4 in order: every label one run
        joined, pairs = joined_across_runs(gold, pred)
        assert joined == 0 and return_precision(gold, pred) == (0, 0)
        correct, predicted = return_precision(gold, gold)
        assert correct == predicted and joined_across_runs(gold, gold) == (pairs, pairs)


def test_input_checks():
    with pytest.raises(ValueError, match="prediction has 2"):
        joined_across_runs([0, 1, 0], [0, 1])
    with pytest.raises(ValueError, match="1-D"):
        return_precision([0, 1, 0], np.zeros((3, 1)))
