"""A tampered segmentation dict: one ValueError naming the field, before anything large is allocated."""

import json
import tracemalloc

import numpy as np
import pytest

from bpseg_pgm.types import SegmentationResult
from bpseg_pgm.types.checks import check_segmentation_dict


def _dict(beliefs="confidence", n=6):
    labels = np.array([0, 0, 1, 1, 0, 2] * (n // 6))
    k = 4
    matrix = np.full((labels.size, k), 0.05)
    matrix[np.arange(labels.size), labels] = 0.85
    segments = [np.flatnonzero(labels == j).tolist() for j in range(3)]
    seg = SegmentationResult([f"S{i}." for i in range(labels.size)], labels, segments, matrix, structure="topics")
    return json.loads(seg.to_json(beliefs=beliefs))


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


def _put(key, index, value):
    return lambda d: d[key].__setitem__(index, value)


TAMPERED = [
    # labels
    (_put("labels", 5, 7), "labels"),  # beyond the beliefs' columns (and the segments)
    (_put("labels", 0, 2**70), "labels"),
    (_put("labels", 1, 1.0), r"labels\[1\] must be an integer"),
    (_put("labels", 1, 0.5), r"labels\[1\] must be an integer"),
    (_put("labels", 1, [0, 1]), r"labels\[1\] must be an integer"),
    (_put("labels", 1, True), r"labels\[1\] must be an integer"),
    (_put("labels", 1, -1), "labels must be >= 0"),
    (_set("labels", "001102"), "labels must be a list"),
    (_set("labels", [1, 1, 0, 0, 1, 2]), "labels must number the segments"),  # not in reading order
    # segments
    (_set("segments", [[0, 1, 4], [2, 3], [5, 99]]), r"segments\[2\] disagrees"),
    (_set("segments", [[0, 1], [2, 3, 4], [5]]), r"segments\[0\] disagrees"),
    (_set("segments", [[0, 1, 4], [2, 3]]), "2 segments for the labels' 3"),
    (_set("segments", [[0, 1, 4], [2, 3], "5"]), r"segments\[2\] must be a list"),
    # the beliefs
    (_set("belief_columns", 10**12), "belief_columns must be an integer from 3"),
    (_set("belief_columns", 10**6), "belief_columns must be an integer from 3"),
    (_set("belief_columns", 2), "belief_columns must be an integer from 3"),
    (_set("belief_columns", 4.0), "belief_columns must be an integer"),
    (_put("belief", 2, 1.5), r"belief\[2\] must lie in \[0, 1\]"),
    (_put("belief", 2, "high"), r"belief\[2\] must be a finite number"),
    (_put("confidence", 0, float("nan")), r"confidence\[0\] must be a finite number"),
    # spans and text
    (_put("spans", 2, [9, 7]), r"spans\[2\]"),  # reversed
    (_put("spans", 5, [20, 10**9]), r"spans\[5\]"),  # beyond the text
    (_put("spans", 3, [-1, 2]), r"spans\[3\]"),
    (_put("spans", 3, [0, 2]), r"spans\[3\]"),  # out of reading order
    (_put("spans", 3, [0.5, 2]), r"spans\[3\] must be a \[start, end\] pair"),
    (_put("spans", 3, [1, 2, 3]), r"spans\[3\] must be a \[start, end\] pair"),
    (_set("text", 42), "text must be a string"),
    (_put("sentences", 0, 3), r"sentences\[0\] must be a string"),
    # the other fields
    (_set("lines", "no"), "lines must be true or false"),
    (_set("converged", "yes"), "converged must be true or false"),
    (_set("markdown", 1), "markdown must be true or false"),
    (_set("n_iter", "7"), "n_iter must be an integer"),
    (_set("n_iter", True), "n_iter must be an integer"),
    (_set("params", ["a"]), "params must be an object"),
    (_set("granularity", 3), "granularity must be an object"),
    (_set("structure", "chaos"), "structure must be one of"),
    (_set("evidence", "vibes"), "evidence must be one of"),
    (_set("model", 3), "model must be a string"),
]


@pytest.mark.parametrize("change, match", TAMPERED)
def test_a_tampered_dict_is_one_value_error_naming_the_field(change, match):
    d = _dict()
    change(d)
    with pytest.raises(ValueError, match=match):
        SegmentationResult.from_dict(d)


@pytest.mark.parametrize(
    "change, match",
    [
        (_put("beliefs", 2, [0.85, 0.05]), r"beliefs\[2\] must be a row of 4"),
        (_put("beliefs", 3, [0.85, 0.05, "x", 0.05]), r"beliefs\[3\] must hold numbers"),
        (_put("beliefs", 3, [0.85, 0.05, [0.1], 0.05]), r"beliefs\[3\] must hold numbers"),
        (_put("beliefs", 3, [2.0, 0.05, 0.05, 0.05]), r"beliefs\[3\] must hold numbers in \[0, 1\]"),
        (_set("beliefs", [[0.85, 0.15]] * 6), "beliefs must have 3"),  # labels beyond a full beliefs matrix
        (_set("beliefs", [[1.0] + [0.0] * 9] * 6), "beliefs must have 3"),  # more columns than sentences
        (_set("belief_columns", 5), r"belief_columns \(5\) disagrees"),
        (_set("beliefs", [[0.85, 0.05, 0.05, 0.05]] * 5), "one row per sentence"),
    ],
)
def test_a_tampered_full_matrix_is_one_value_error(change, match):
    d = _dict("full")
    change(d)
    with pytest.raises(ValueError, match=match):
        SegmentationResult.from_dict(d)


def test_the_checks_allocate_nothing_large():
    d = _dict(n=198)  # a 198-sentence dict claiming a million columns: refused before (n, k) beliefs exist
    d["belief_columns"] = 10**6
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="belief_columns"):
            SegmentationResult.from_dict(d)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_valid_dicts_pass_unchanged():
    for beliefs in ("confidence", "full"):
        d = _dict(beliefs)
        check_segmentation_dict(d)
        assert SegmentationResult.from_dict(d).to_dict(beliefs) == d
    with pytest.raises(ValueError, match="from_dict needs a dict"):
        check_segmentation_dict([1, 2])
