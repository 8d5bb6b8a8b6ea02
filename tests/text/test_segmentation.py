"""Segmentation, the result object: its checks, its text and JSON outputs, the note on fewer segments, the joined text."""

import json

import numpy as np
import pytest

from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.text.split import join_sentences


def test_to_text_lists_each_segment_with_numbered_sentences():
    seg = Segmentation(["A.", "B.", "C."], np.array([0, 0, 1]), [[0, 1], [2]], np.eye(3)[:, :2][[0, 0, 1]])
    assert seg.to_text() == "[Segment 1] sentences 1-2\n  1  A.\n  2  B.\n\n[Segment 2] sentences 3\n  3  C.\n"


def test_to_text_names_topics_and_their_segments_when_a_topic_returns():
    seg = Segmentation(["A.", "B.", "C."], np.array([0, 1, 0]), [[0, 2], [1]], np.eye(3)[:, :2][[0, 1, 0]])
    assert seg.to_text() == (
        "3 runs in 2 segments. Segment 1 returns: runs 1 and 3.\n\n"
        "[Segment 1] runs 1 and 3 · sentences 1, 3\n  Run 1\n    1  A.\n  Run 3\n    3  C.\n\n"
        "[Segment 2] run 2 · sentences 2\n  Run 2\n    2  B.\n"
    )


def test_json_never_holds_bare_nan():
    seg = Segmentation(
        sentences=["a", "b"], labels=np.array([0, 0]), segments=[[0, 1]], beliefs=np.array([[np.nan], [1.0]])
    )
    with pytest.raises(ValueError, match="JSON cannot represent"):
        seg.to_json()
    with pytest.raises(ValueError, match="JSON cannot represent"):
        seg.to_json(beliefs="full")
    seg.beliefs = np.array([[1.0], [1.0]])
    assert json.loads(seg.to_json())["belief"] == [1.0, 1.0]
    assert json.loads(seg.to_json(beliefs="full"))["beliefs"] == [[1.0], [1.0]]


def test_a_hand_made_segmentation_checks_its_spans():
    labels, beliefs = np.array([0, 1]), np.eye(2)
    with pytest.raises(ValueError, match="1 spans for 2 sentences"):
        Segmentation(["A.", "B."], labels, [[0], [1]], beliefs, text="A. B.", spans=[(0, 2)])
    with pytest.raises(ValueError, match="needs the sentences' spans"):
        Segmentation(["A.", "B."], labels, [[0], [1]], beliefs, text="A. B.")
    with pytest.raises(ValueError, match="spans need the text"):
        Segmentation(["A.", "B."], labels, [[0], [1]], beliefs, spans=[(0, 2), (3, 5)])


def test_fewer_segments_than_asked_is_said_in_the_text_output():
    beliefs = np.array([[0.9, 0.1, 0.0], [0.8, 0.2, 0.0], [0.1, 0.9, 0.0]])
    seg = Segmentation(["A.", "B.", "C."], np.array([0, 0, 1]), [[0, 1], [2]], beliefs, params={"n_segments": 3})
    note = seg.fewer_than_requested()
    assert note == "2 segments for k = 3: 1 of the k labels ended up with no sentence and were dropped"
    assert seg.to_text().startswith(f"Note: {note}.\n\n[Segment 1] sentences 1-2\n")
    seg.params["n_segments"] = 2
    assert seg.fewer_than_requested() is None and seg.to_text().startswith("[Segment 1]")
    seg.params.update(n_segments="auto")
    assert seg.fewer_than_requested() is None


def test_built_from_sentences_the_text_is_one_per_line():
    assert join_sentences(["A b.", "", "C."]) == ("A b.\n\nC.", [(0, 4), (5, 5), (6, 8)])
    seg = Segmentation(["A b.", "C."], np.array([0, 1]), [[0], [1]], np.eye(2))
    assert (seg.text, seg.spans, seg.lines) == ("A b.\nC.", [(0, 4), (5, 7)], True)


def test_repr_is_one_short_line_and_equality_is_unchanged():
    sentences = [f"Sentence number {i} is here." for i in range(18)]
    labels = np.array([0] * 6 + [1] * 6 + [2] * 6)
    segments = [list(range(0, 6)), list(range(6, 12)), list(range(12, 18))]
    beliefs = np.eye(3)[labels]
    seg = Segmentation(sentences, labels, segments, beliefs, model="all-MiniLM-L6-v2", structure="runs")
    assert repr(seg) == "Segmentation(n_sentences=18, n_segments=3, structure='runs', model='all-MiniLM-L6-v2')"
    assert "\n" not in repr(seg) and "Sentence number" not in repr(seg)
    bare = Segmentation(["A."], np.array([0]), [[0]], np.ones((1, 1)))
    assert repr(bare) == "Segmentation(n_sentences=1, n_segments=1, structure=None, model=None)"
    same = Segmentation(
        list(sentences), labels.copy(), [list(s) for s in segments], beliefs, model="all-MiniLM-L6-v2", structure="runs"
    )
    other = Segmentation(
        list(sentences), labels.copy(), [list(s) for s in segments], beliefs, model="other", structure="runs"
    )
    assert seg.params == same.params and seg.spans == same.spans
    assert (seg.sentences, seg.text, seg.model) == (same.sentences, same.text, same.model)
    assert seg.model != other.model
    assert Segmentation.__eq__ is not object.__eq__  # the dataclass's field-by-field equality is kept
