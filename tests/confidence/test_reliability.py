"""Scoring a confidence against gold: units matched by the Hungarian algorithm, the reliability table, the ECE."""

import numpy as np
import pytest

from bpseg_pgm.confidence import expected_calibration_error, matched_correct, reliability_table


def test_a_perfect_segmentation_under_other_names_is_all_right():
    ok, labelled = matched_correct([2, 2, 0, 0, 1], ["a", "a", "b", "b", "c"])
    assert ok.all() and labelled.all()


def test_labels_are_matched_one_to_one_by_maximum_overlap():
    # predicted 0 overlaps gold x most (3) but matching it to y (2) lets 1 take x: 2 + 3 = 5 > 3 + 1 = 4
    pred = [0, 0, 0, 0, 0, 1, 1, 1]
    gold = ["x", "x", "x", "y", "y", "x", "x", "x"]
    ok, _ = matched_correct(pred, gold)
    assert ok.tolist() == [False, False, False, True, True, True, True, True]


def test_an_unmatched_label_is_wrong_and_unlabelled_units_are_left_out():
    ok, labelled = matched_correct([0, 0, 1, 1, 2, 2], [5, 5, 5, 7, None, -1])
    assert labelled.tolist() == [True, True, True, True, False, False]
    assert ok.tolist() == [True, True, False, True, False, False]
    ok, _ = matched_correct([0, 1, 2, 3], ["a", "a", "a", "a"])  # four labels for one gold segment
    assert ok.sum() == 1
    ok, labelled = matched_correct([0, 1], [None, None])
    assert not ok.any() and not labelled.any()
    with pytest.raises(ValueError, match="3 labels but 2 gold"):
        matched_correct([0, 1, 2], [0, 1])


def test_a_calibrated_confidence_has_no_error():
    conf = np.repeat([0.05, 0.25, 0.75], 20)
    ok = np.concatenate([np.arange(20) < 1, np.arange(20) < 5, np.arange(20) < 15])
    assert expected_calibration_error(conf, ok) == pytest.approx(0.0, abs=1e-12)
    table = reliability_table(conf, ok)
    assert [(b.low, b.count) for b in table] == [(0.0, 20), (0.2, 20), (0.7, 20)]
    assert [b.accuracy for b in table] == pytest.approx([0.05, 0.25, 0.75])


def test_the_error_weighs_each_bins_gap_by_its_share():
    conf = np.array([0.9, 0.9, 0.9, 0.9, 0.3, 0.3])
    ok = np.array([True, False, True, False, True, True])
    # bin 0.9: 4 units, gap 0.4; bin 0.3: 2 units, gap 0.7
    assert expected_calibration_error(conf, ok) == pytest.approx((4 * 0.4 + 2 * 0.7) / 6)
    assert expected_calibration_error(np.ones(4), np.ones(4, dtype=bool)) == pytest.approx(0.0)  # 1.0: last bin
    assert expected_calibration_error(np.ones(4), np.zeros(4, dtype=bool)) == pytest.approx(1.0)
    assert len(reliability_table(conf, ok, bins=1)) == 1
    assert np.isnan(expected_calibration_error([], []))


@pytest.mark.parametrize(
    "conf, ok, bins, match",
    [
        ([0.5, 1.2], [True, False], 10, "in \\[0, 1\\]"),
        ([0.5, np.nan], [True, False], 10, "finite"),
        ([0.5], [True, False], 10, "1 confidences but 2 outcomes"),
        ([0.5], [True], 0, "bins must be"),
        ([0.5], [True], True, "bins must be"),
    ],
)
def test_bad_input_is_one_value_error(conf, ok, bins, match):
    with pytest.raises(ValueError, match=match):
        expected_calibration_error(conf, ok, bins)
