"""Metrics on hand-checkable cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bpseg_pgm.evaluation.metrics import METRICS, boundaries, evaluate, window_size


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


@pytest.mark.parametrize(
    "gold, pred", [([], []), ([0, 1], [0]), (np.zeros((2, 2)), np.zeros((2, 2)))]
)
def test_bad_inputs_raise(gold, pred):
    with pytest.raises(ValueError):
        evaluate(gold, pred)
