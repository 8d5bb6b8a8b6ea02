"""SegmentationResult, the leaf data type of a segmentation: its levels, its dict and JSON round trip, its imports."""

import ast
import json
from pathlib import Path

import numpy as np

import bpseg_pgm.types.segmentation as module
from bpseg_pgm.confidence import calibrated_confidence
from bpseg_pgm.types import SegmentationResult


def _seg(**kwargs):
    labels = np.array([0, 0, 1, 1, 0, 2])
    beliefs = np.full((6, 4), 0.05)
    beliefs[np.arange(6), labels] = 0.85
    segments = [np.flatnonzero(labels == j).tolist() for j in range(3)]
    return SegmentationResult([f"S{i}." for i in range(6)], labels, segments, beliefs, **kwargs)


def test_the_levels_come_from_the_labels():
    seg = _seg()
    assert seg.runs == [[0, 1], [2, 3], [4], [5]]
    assert seg.segment_runs == [[0, 2], [1], [3]] and seg.returning_segments == [0]
    assert seg.run_segments.tolist() == [0, 1, 0, 2] and seg.run_labels.tolist() == [0, 0, 1, 1, 2, 3]
    assert (seg.n_segments, seg.n_runs) == (3, 4)
    assert seg.text == "S0.\nS1.\nS2.\nS3.\nS4.\nS5." and seg.lines and seg.line_numbers == list(range(6))
    np.testing.assert_allclose(seg.belief_in_label(), 0.85)
    # the confidence is the calibrated map of the raw beliefs (no structure: read from the labels, topics here)
    np.testing.assert_allclose(seg.confidence(), calibrated_confidence(seg.belief_in_label(), seg.labels, "topics"))


def test_the_data_is_set_at_construction():
    fit = type("Fit", (), {"levels": type("Levels", (), {"max_runs": 7})()})()
    seg = _seg(markdown=False, runs_fit=fit)
    assert seg.markdown is False and seg.runs_fit is fit and seg.max_segments == 7
    assert _seg().max_segments is None


def test_dict_round_trip_keeps_the_data_and_says_what_it_drops():
    seg = _seg(
        params={"n_segments": 4, "lam": np.float32(0.5), "engine": object()},
        structure="topics",
        markdown=True,
        embeddings=np.ones((6, 3)),
        runs_fit=object(),
    )
    d = seg.to_dict()
    assert "beliefs" not in d and d["belief"] == [0.85] * 6 and d["belief_columns"] == 4
    assert d["confidence"] == [round(float(c), 4) for c in seg.confidence()] and d["confidence"] != d["belief"]
    assert d["params"]["lam"] == 0.5 and d["params"]["engine"].startswith("<object")
    back = SegmentationResult.from_dict(json.loads(json.dumps(d)))
    assert back.to_dict() == d
    np.testing.assert_array_equal(back.labels, seg.labels)
    assert (back.text, back.spans, back.segments, back.markdown) == (seg.text, seg.spans, seg.segments, True)
    assert back.runs == seg.runs
    assert (back.embeddings, back.runs_fit, back.max_segments) == (None, None, None)
    np.testing.assert_allclose(back.beliefs[:, :3][seg.labels == 0], [[0.85, 0.05, 0.05]] * 3)
    full = SegmentationResult.from_json(seg.to_json(beliefs="full"))
    np.testing.assert_array_equal(full.beliefs, seg.beliefs)
    assert (
        seg.fewer_than_requested()
        == back.fewer_than_requested()
        == ("3 segments for k = 4: 1 of the k labels ended up with no sentence and were dropped")
    )


def test_one_column_and_no_segments_key():
    seg = SegmentationResult(["A.", "B."], np.array([0, 0]), [[0, 1]], np.array([[0.7], [1.0]]))
    d = seg.to_dict()
    del d["segments"]
    back = SegmentationResult.from_dict(d)
    assert back.segments == [[0, 1]] and back.beliefs.tolist() == [[0.7], [1.0]]


def test_the_leaf_imports_only_the_leaves_below_it():
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    ours = {m for m in imported if m.startswith("bpseg_pgm")}
    # utils and types, and the two leaves below them: the Policy and the calibrated confidence
    allowed = ("bpseg_pgm.utils", "bpseg_pgm.types", "bpseg_pgm.policy", "bpseg_pgm.confidence")
    assert ours and all(m.startswith(allowed) for m in ours), ours
