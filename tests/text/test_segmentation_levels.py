"""Segmentation's segments and runs and their keywords, in Python and JSON."""

import json

import numpy as np
import pytest

from bpseg_pgm.text.segmentation import Segmentation

SENTENCES = [
    "The app release is on Friday.",
    "Testers found two bugs in the app.",
    "The office moves in May.",
    "Boxes for the office arrive next week.",
    "The release notes for the app need a review.",
    "We hire two engineers.",
    "The engineers start in June.",
]


def _seg(labels, sentences=SENTENCES):
    labels = np.asarray(labels)
    m = int(labels.max()) + 1
    return Segmentation(
        list(sentences), labels, [np.flatnonzero(labels == j).tolist() for j in range(m)], np.eye(m)[labels]
    )


def test_runs_every_topic_is_one_contiguous_segment():
    seg = _seg([0, 0, 1, 1, 2, 3, 3])
    assert seg.runs == seg.segments == [[0, 1], [2, 3], [4], [5, 6]]
    assert seg.run_labels.tolist() == seg.labels.tolist()
    assert seg.run_segments.tolist() == [0, 1, 2, 3] and seg.segment_runs == [[0], [1], [2], [3]]
    assert seg.returning_segments == [] and seg.n_runs == seg.n_segments == 4


def test_a_returning_topic_holds_several_contiguous_segments():
    seg = _seg([0, 0, 1, 1, 0, 2, 2])
    assert seg.segments == [[0, 1, 4], [2, 3], [5, 6]]  # the labels keep their meaning: one list per topic
    assert seg.runs == [[0, 1], [2, 3], [4], [5, 6]]
    assert seg.run_labels.tolist() == [0, 0, 1, 1, 2, 3, 3]
    assert seg.run_segments.tolist() == [0, 1, 0, 2]
    assert seg.segment_runs == [[0, 2], [1], [3]] and seg.returning_segments == [0]
    assert (seg.n_segments, seg.n_runs) == (3, 4)
    for r, idx in enumerate(seg.runs):  # the levels agree with each other and with the labels
        assert {int(seg.labels[i]) for i in idx} == {int(seg.run_segments[r])}
        assert r in seg.segment_runs[seg.run_segments[r]]


def test_json_holds_both_levels_and_the_keywords():
    seg = _seg([0, 0, 1, 1, 0, 2, 2])
    d = json.loads(seg.to_json())
    assert d["labels"] == [0, 0, 1, 1, 0, 2, 2] and d["segments"] == seg.segments and d["n_segments"] == 3
    assert d["runs"] == seg.runs
    assert d["run_labels"] == [0, 0, 1, 1, 2, 3, 3] and d["run_segments"] == [0, 1, 0, 2]
    assert d["segment_runs"] == [[0, 2], [1], [3]] and d["returning_segments"] == [0]
    assert (d["n_segments"], d["n_runs"]) == (3, 4)
    assert d["segment_keywords"] == seg.segment_keywords() and d["run_keywords"] == seg.run_keywords()
    assert d["segment_keywords"][0][:2] == ["app", "release"] and "office" in d["segment_keywords"][1]
    assert "notes" in d["run_keywords"][2] and "notes" not in d["run_keywords"][0]


def test_keywords_per_topic_and_per_contiguous_segment():
    seg = _seg([0, 0, 1, 1, 0, 2, 2])
    topics = seg.segment_keywords(top_n=2)
    assert topics == [["app", "release"], ["office", "arrive"], ["engineers", "hire"]]
    parts = seg.run_keywords(top_n=2)
    assert len(parts) == 4 and parts[1] == topics[1] and parts[0] != parts[2]
    assert seg.segment_keywords(0) == [[], [], []]
    with pytest.raises(ValueError, match="top_n"):
        seg.segment_keywords(-1)
    runs = _seg([0, 0, 1, 1, 2, 3, 3])
    assert runs.run_keywords() == runs.segment_keywords()  # the same classes when no topic returns


def test_keywords_are_computed_once_on_first_use_and_follow_the_labels(monkeypatch):
    import bpseg_pgm.text.segmentation as module

    calls = []
    real = module.class_keywords
    monkeypatch.setattr(module, "class_keywords", lambda docs, top_n: calls.append(len(docs)) or real(docs, top_n))
    seg = _seg([0, 0, 1, 1, 0, 2, 2])
    assert calls == []  # nothing computed when the keywords are not asked for
    first = seg.segment_keywords()
    first[0].append("mutated")  # the caller's copy: the kept keywords are not touched
    assert seg.segment_keywords() == real([" ".join(SENTENCES[i] for i in idx) for idx in seg.segments], 5)
    seg.to_json()
    assert calls == [3, 4]  # segments once, runs once (for the JSON)
    seg.labels = np.array([0, 0, 0, 0, 0, 1, 1])
    seg.segments = [[0, 1, 2, 3, 4], [5, 6]]
    assert len(seg.segment_keywords()) == 2 and calls == [3, 4, 2]


def test_the_note_on_fewer_labels_uses_the_words_of_the_text_output():
    seg = _seg([0, 1, 0, 1, 0, 1, 1])
    seg.params["n_segments"] = 4
    assert seg.fewer_than_requested().startswith("2 segments for k = 4")
    seg = _seg([0, 0, 0, 1, 1, 1, 1])
    seg.params["n_segments"] = 4
    assert seg.fewer_than_requested().startswith("2 segments for k = 4")


def test_to_text_shows_keywords_and_which_segments_return():
    text = _seg([0, 0, 1, 1, 0, 2, 2]).to_text()
    assert text.startswith(
        "4 runs in 3 segments. Segment 1 returns: runs 1 and 3.\n\n[Segment 1] runs 1 and 3 · "
        "sentences 1-2, 5\n  keywords: app, release,"
    )
    assert "\n  Run 1 · keywords: " in text and "\n  Run 3\n" in text  # a one-sentence run: no own line
    assert "[Segment 2] run 2 · sentences 3-4\n  keywords: office, arrive" in text
    two = _seg([0, 1, 0, 1, 0, 2, 2]).to_text()
    assert two.startswith(
        "6 runs in 3 segments. Segments that return: segment 1: runs 1, 3 and 5; segment 2: runs 2 and 4.\n"
    )
    runs = _seg([0, 0, 1, 1, 2, 3, 3]).to_text()
    assert runs.startswith("[Segment 1] sentences 1-2\n  keywords: app,") and "Run" not in runs


def test_a_segmentation_made_by_the_pipeline_has_both_levels(embedder):
    from bpseg_pgm.text.pipeline import segment_sentences

    sentences = [
        "Rain fell all day on the town.",
        "The storm brought strong winds and rain.",
        "Our team won the football match.",
        "The striker scored two goals in the match.",
        "More rain and thunder are expected tonight.",
        "The weather stays wet and windy.",
        "The football coach praised the team.",
    ]
    seg = segment_sentences(sentences, 2, embedder=embedder, structure="topics")
    assert sorted(i for idx in seg.runs for i in idx) == list(range(7))
    assert [seg.run_segments[r] for r in seg.run_labels] == seg.labels.tolist()
    assert seg._keywords == {}  # segmenting computed no keywords
    assert len(seg.segment_keywords()) == seg.n_segments
