"""Segmentation.to_dict / from_dict and to_json / from_json: a pipeline's segmentation read back (issue 35)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.pipeline import segment_sentences, segment_text
from bpseg_pgm.types.segmentation import SegmentationResult

from .test_pipeline import _FixedEmbedder, _two_topics


@pytest.fixture(scope="module")
def seg():
    text = "Alpha one here.  Beta two there.\n\nGamma three now. Alpha four again. Beta five later. Gamma six last."
    return segment_text(text, 2, embedder=_FixedEmbedder(_two_topics()), init="farthest", structure="topics")


def _same_data(a, b):
    np.testing.assert_array_equal(a.labels, b.labels)
    assert a.labels.dtype == b.labels.dtype
    assert (a.sentences, a.text, a.spans, a.lines, a.segments) == (b.sentences, b.text, b.spans, b.lines, b.segments)
    assert (a.runs, a.segment_runs, a.returning_segments) == (
        b.runs,
        b.segment_runs,
        b.returning_segments,
    )
    np.testing.assert_array_equal(a.run_labels, b.run_labels)
    assert (a.params, a.n_iter, a.converged, a.model, a.structure, a.granularity, a.markdown) == (
        b.params,
        b.n_iter,
        b.converged,
        b.model,
        b.structure,
        b.granularity,
        b.markdown,
    )


def test_from_dict_keeps_labels_spans_text_and_both_levels(seg):
    back = Segmentation.from_dict(seg.to_dict())
    assert type(back) is Segmentation
    _same_data(back, seg)
    assert back.text[slice(*back.spans[2])] == seg.text[slice(*seg.spans[2])]
    np.testing.assert_allclose(back.confidence(), seg.confidence(), atol=5e-5)
    assert back.to_dict() == seg.to_dict()  # a second trip changes nothing
    assert back.to_text() == seg.to_text()
    assert (back.embeddings, back.embedder, back.runs_fit, back.max_segments) == (None, None, None, None)


def test_the_full_beliefs_round_trip_exactly(seg):
    back = Segmentation.from_dict(seg.to_dict(beliefs="full"))
    np.testing.assert_array_equal(back.beliefs, seg.beliefs)
    _same_data(back, seg)


def test_without_the_full_matrix_the_beliefs_keep_each_confidence(seg):
    back = Segmentation.from_dict(seg.to_dict())
    assert back.beliefs.shape == seg.beliefs.shape
    np.testing.assert_allclose(back.beliefs.sum(axis=1), 1.0)
    np.testing.assert_array_equal(back.beliefs.argmax(axis=1), seg.labels)


def test_json_round_trip(seg):
    back = Segmentation.from_json(seg.to_json())
    _same_data(back, seg)
    assert json.loads(back.to_json()) == json.loads(seg.to_json())
    full = Segmentation.from_json(seg.to_json(beliefs="full", indent=None))
    np.testing.assert_array_equal(full.beliefs, seg.beliefs)
    assert SegmentationResult.from_json(seg.to_json()).to_dict() == {
        k: v for k, v in seg.to_dict().items() if k not in ("segment_keywords", "run_keywords")
    }


def test_a_rebuilt_segmentation_has_no_levels_to_recut():
    sentences = [f"Sentence {i}." for i in range(8)]
    X = np.repeat(np.eye(4)[:2], 4, axis=0) + 0.01
    seg = segment_sentences(sentences, embedder=_FixedEmbedder(X), structure="runs")
    assert seg.max_segments is not None
    back = Segmentation.from_dict(seg.to_dict())
    _same_data(back, seg)
    assert back.max_segments is None
    with pytest.raises(ValueError, match="keeps no levels"):
        back.recut(2)


def test_empty_units_and_lines_survive_the_trip():
    sentences = ["One fish.", "", "Two fish.", "   ", "Red fish.", "Blue fish."]
    X = np.array([[1, 0], [0, 0], [1, 0.1], [0, 0], [0, 1], [0.1, 1]], dtype=float)
    seg = segment_sentences(sentences, 2, embedder=_FixedEmbedder(X[[0, 2, 4, 5]]), init="farthest")
    back = Segmentation.from_dict(json.loads(seg.to_json()))
    _same_data(back, seg)
    assert back.lines and back.line_numbers == seg.line_numbers


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda d: d.pop("text"), "no text"),
        (lambda d: d.update(labels=d["labels"][:-1]), "labels for"),
        (lambda d: d.update(spans=d["spans"][:-1]), "spans for"),
        (lambda d: [d.pop("confidence"), d.pop("belief")], "neither beliefs nor confidence"),
        (lambda d: d.update(confidence=d["confidence"][:-1]), "confidences for"),
        (lambda d: d.update(belief=d["belief"][:-1]), "beliefs for"),
        (lambda d: d.update(belief_columns=1), "belief_columns"),
    ],
)
def test_a_damaged_dict_is_one_value_error(seg, change, match):
    d = seg.to_dict()
    change(d)
    with pytest.raises(ValueError, match=match):
        Segmentation.from_dict(d)


def test_bad_beliefs_option(seg):
    with pytest.raises(ValueError, match="beliefs must be one of"):
        seg.to_dict(beliefs="sparse")
    with pytest.raises(ValueError, match="beliefs must be one of"):
        seg.to_json(beliefs=True)
