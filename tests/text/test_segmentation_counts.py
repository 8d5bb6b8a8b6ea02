"""Segmentation.count_scores and suggested_counts on a real fit: the runs model's gain over its null documents for
each count, and the counts it rates best (its own first, then the local maxima of the gain), each a re-cut away."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bpseg_pgm.text import Segmentation, segment_text

NOTES = (Path(__file__).resolve().parents[2] / "examples" / "notes.txt").read_text("utf-8")


@pytest.fixture(scope="module")
def seg(embedder):
    return segment_text(NOTES, structure="runs", embedder=embedder)


def _peaks(gain: np.ndarray) -> list[int]:
    """The counts (from 1) whose finite gain is at least each neighbour's."""
    return [
        k + 1
        for k, g in enumerate(gain)
        if np.isfinite(g) and (k == 0 or g >= gain[k - 1]) and (k == len(gain) - 1 or g >= gain[k + 1])
    ]


def test_count_scores_are_the_fits_gain_for_every_level(seg):
    scores = seg.count_scores()
    gain = np.asarray(seg.runs_fit.null_gain)
    assert list(scores) == list(range(1, seg.max_segments + 1))
    np.testing.assert_array_equal(list(scores.values()), gain[: seg.max_segments])
    assert scores[1] == 0.0
    assert seg.n_segments == 1 + int(np.argmax(gain))  # the runs model chose its largest gain


def test_suggested_counts_are_the_own_count_then_the_local_maxima_by_gain(seg):
    scores = seg.count_scores()
    gain = np.array(list(scores.values()))
    every = seg.suggested_counts(seg.max_segments)
    assert every[0] == seg.n_segments
    others = every[1:]
    assert others, "the notes' gain has a second local maximum"
    assert sorted(others) == sorted(k for k in _peaks(gain) if k != seg.n_segments)
    assert [scores[k] for k in others] == sorted((scores[k] for k in others), reverse=True)
    assert seg.suggested_counts() == every[:3] and seg.suggested_counts(1) == [seg.n_segments]
    for k in every:  # each one a re-cut away
        assert seg.recut(k).n_segments == k


def test_a_given_k_a_recut_and_json_have_no_rating(seg, embedder):
    given = segment_text(NOTES, 3, structure="runs", embedder=embedder)
    assert given.max_segments is not None  # it kept its levels, but the count was not the criterion's
    cut = seg.recut(seg.suggested_counts()[-1])
    back = Segmentation.from_json(seg.to_json())
    for other in (given, cut, back):
        assert other.count_scores() is None and other.suggested_counts() == []


def test_the_topic_model_has_no_rating(embedder):
    topics = segment_text(NOTES, embedder=embedder)  # "auto" takes the topic model for the notes
    assert topics.structure == "topics" and topics.max_segments is not None
    assert topics.count_scores() is None and topics.suggested_counts() == []


def test_a_bad_n_is_a_value_error(seg):
    for bad in (0, 1.5, False, "2"):
        with pytest.raises(ValueError, match="n must be an int >= 1"):
            seg.suggested_counts(bad)
