"""SegmentationResult.count_scores and suggested_counts: the runs model's gain for each count, and the counts it
rates best (the own count, then the local maxima of the gain by gain), on hand-made gains."""

from types import SimpleNamespace

import numpy as np
import pytest

from bpseg_pgm.types import SegmentationResult


def _seg(k: int, gain, *, structure="runs", params=None, max_runs=None):
    """A segmentation into k runs of 2 sentences each whose runs fit kept ``gain`` (None: no gain kept)."""
    labels = np.repeat(np.arange(k), 2)
    beliefs = np.eye(k)[labels]
    segments = [np.flatnonzero(labels == j).tolist() for j in range(k)]
    fit = SimpleNamespace(
        null_gain=None if gain is None else np.asarray(gain, dtype=float),
        levels=SimpleNamespace(max_runs=len(gain) if max_runs is None else max_runs),
    )
    return SegmentationResult(
        [f"S{i}." for i in range(2 * k)],
        labels,
        segments,
        beliefs,
        params={"n_segments": "auto"} if params is None else params,
        structure=structure,
        runs_fit=fit,
    )


GAIN = [0.0, -0.5, 0.3, 0.1, 0.9, 0.2, 0.6, 0.6, -np.inf]  # peaks: 1, 3, 5, 7 and 8 (a plateau)


def test_count_scores_are_the_gain_by_count():
    seg = _seg(5, GAIN)
    scores = seg.count_scores()
    assert list(scores) == list(range(1, 10)) and all(isinstance(k, int) for k in scores)
    assert scores[5] == 0.9 and scores[2] == -0.5 and scores[9] == -np.inf


def test_suggested_counts_are_the_own_count_then_the_peaks_by_gain():
    seg = _seg(5, GAIN)
    assert seg.suggested_counts(10) == [5, 7, 8, 3, 1]  # ties (7 and 8): the fewer first; 9 (-inf) never
    assert seg.suggested_counts() == [5, 7, 8]
    assert seg.suggested_counts(1) == [5]


def test_the_own_count_comes_first_even_off_a_peak():
    seg = _seg(4, GAIN)  # 4 is no local maximum (0.1 < 0.3), as a count chosen by the span rule may be
    assert seg.suggested_counts(10) == [4, 5, 7, 8, 3, 1]


def test_the_last_count_is_a_peak_against_its_one_neighbour():
    seg = _seg(2, [0.0, 0.4, 0.2, 0.7])
    assert seg.suggested_counts(10) == [2, 4]  # 1 is below 2; 4 is above 3


def test_counts_stop_at_max_segments():
    seg = _seg(2, [0.0, 0.4, 0.2, 0.7, 0.1], max_runs=3)
    assert seg.max_segments == 3 and list(seg.count_scores()) == [1, 2, 3]
    assert seg.suggested_counts(10) == [2]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"params": {"n_segments": 5}},  # k given (a re-cut too)
        {"structure": "topics"},  # the segments are not the runs
        {"structure": "run-topics"},
    ],
)
def test_no_rating_where_the_count_was_not_chosen_by_it(kwargs):
    seg = _seg(5, GAIN, **kwargs)
    assert seg.count_scores() is None and seg.suggested_counts() == []


def test_no_rating_without_a_gain_or_a_fit():
    assert _seg(3, None, max_runs=4).count_scores() is None
    labels = np.array([0, 1])
    plain = SegmentationResult(["A.", "B."], labels, [[0], [1]], np.eye(2), structure="runs")
    assert plain.count_scores() is None and plain.suggested_counts() == []


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, "3", None])
def test_a_bad_n_is_a_value_error(bad):
    with pytest.raises(ValueError, match="n must be an int >= 1"):
        _seg(5, GAIN).suggested_counts(bad)
    with pytest.raises(ValueError, match="n must be an int >= 1"):  # checked before the rating is looked for
        _seg(5, GAIN, structure="topics").suggested_counts(bad)
