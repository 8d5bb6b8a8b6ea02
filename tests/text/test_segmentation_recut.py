"""Segmentation.recut: the runs fit's levels re-cut at another number of segments, or a target segment
length, without refitting; the same labels as a fresh runs fit with that k (exact programme, n <= 1000)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.features.weights import unit_weights
from bpseg_pgm.text.pipeline import segment_sentences
from bpseg_pgm.text.segmentation import Segmentation

from .test_pipeline import _FixedEmbedder  # the same test double


def _document(lengths=(8, 12, 6, 10, 9), d=16, noise=0.8, seed=0):
    """Runs of noisy copies of random topic directions; every seventh sentence a short 'Yeah.' (low weight)."""
    rng = np.random.default_rng(seed)
    topics = rng.normal(size=(len(lengths), d))
    X = np.concatenate([topics[j] + noise * rng.normal(size=(n, d)) for j, n in enumerate(lengths)])
    sentences = [f"Sentence number {i} says something about its topic." if i % 7 else "Yeah." for i in range(len(X))]
    return sentences, X


@pytest.fixture(scope="module")
def fitted():
    sentences, X = _document()
    seg = segment_sentences(sentences, embedder=_FixedEmbedder(X), structure="runs")
    return sentences, X, seg


def _snapshot(seg: Segmentation) -> dict:
    return {"labels": seg.labels.copy(), "beliefs": seg.beliefs.copy(), "segments": [list(s) for s in seg.segments],
            "params": dict(seg.params), "structure": seg.structure, "json": seg.to_json(),
            "max_segments": seg.max_segments}


def test_recut_labels_equal_a_fresh_runs_fit_with_that_k(fitted):
    sentences, X, seg = fitted
    weights = unit_weights(sentences)
    assert seg.structure == "runs" and seg.max_segments is not None and seg.max_segments >= 10
    for k in sorted({1, 2, 3, 5, 7, seg.max_segments}):
        cut = seg.recut(k)
        fresh = BPSeg(structure="runs", n_segments=k).fit(X, sample_weight=weights)
        np.testing.assert_array_equal(cut.labels, fresh.labels_)
        np.testing.assert_allclose(cut.beliefs, fresh.beliefs_, atol=1e-9)
        again = segment_sentences(sentences, k, embedder=_FixedEmbedder(X), structure="runs")
        np.testing.assert_array_equal(cut.labels, again.labels)
        assert cut.segments == again.segments and cut.params == again.params
        assert cut.n_iter == again.n_iter and cut.converged == again.converged
        assert cut.to_dict() == again.to_dict()


def test_recut_result_is_consistent_and_the_original_unchanged(fitted):
    _, _, seg = fitted
    before = _snapshot(seg)
    cut = seg.recut(3)
    assert cut is not seg and cut.n_segments == 3 and cut.structure == "runs"
    assert cut.params["n_segments"] == 3 and cut.params["structure"] == "runs" and cut.requested_segments == 3
    assert cut.fewer_than_requested() is None
    assert cut.labels.tolist() == sorted(cut.labels.tolist())  # runs in reading order, numbered 0..2
    assert cut.segments == [np.flatnonzero(cut.labels == j).tolist() for j in range(3)]
    assert cut.beliefs.shape == (len(seg.sentences), 3)
    np.testing.assert_allclose(cut.beliefs.sum(axis=1), 1.0)
    assert cut.sentences == seg.sentences and cut.text == seg.text and cut.spans == seg.spans
    assert cut.lines == seg.lines and cut.model == seg.model and cut.embedder is seg.embedder
    np.testing.assert_array_equal(cut.embeddings, seg.embeddings)
    assert cut.max_segments == seg.max_segments
    chunks = cut.chunks(count_tokens=lambda texts: [len(t.split()) for t in texts])
    assert [c.segment for c in chunks] == [0, 1, 2]
    assert "_runs" not in cut.to_dict() and json.loads(cut.to_json())["n_segments"] == 3
    after = _snapshot(seg)
    np.testing.assert_array_equal(after.pop("labels"), before.pop("labels"))
    np.testing.assert_array_equal(after.pop("beliefs"), before.pop("beliefs"))
    assert after == before


def test_recut_of_a_recut_is_the_same_as_one_recut(fitted):
    _, _, seg = fitted
    twice = seg.recut(2).recut(6)
    once = seg.recut(6)
    np.testing.assert_array_equal(twice.labels, once.labels)
    np.testing.assert_allclose(twice.beliefs, once.beliefs)


def test_segment_length_rounds_and_clips(fitted):
    _, _, seg = fitted
    n = len(seg.sentences)
    assert seg.recut(segment_length=n / 4).n_segments == 4
    assert seg.recut(segment_length=9).n_segments == round(n / 9)
    assert seg.recut(segment_length=10 * n).n_segments == 1  # round(0.1) = 0 -> 1
    assert seg.recut(segment_length=0.01).n_segments == seg.max_segments
    assert seg.recut(segment_length=np.float32(n / 5)).n_segments == 5


def test_empty_sentences_take_their_neighbours_segment_in_a_recut():
    sentences, X = _document(lengths=(10, 10, 10), seed=3)
    with_empty = sentences[:5] + ["", "   "] + sentences[5:] + [""]
    seg = segment_sentences(with_empty, embedder=_FixedEmbedder(X), structure="runs")
    cut = seg.recut(3)
    assert len(cut.labels) == len(with_empty) == len(cut.beliefs) == len(cut.embeddings)
    fresh = segment_sentences(with_empty, 3, embedder=_FixedEmbedder(X), structure="runs")
    np.testing.assert_array_equal(cut.labels, fresh.labels)
    assert cut.labels[5] == cut.labels[6] == cut.labels[4] and cut.labels[-1] == cut.labels[-2]
    assert cut.to_dict() == fresh.to_dict()


def test_a_fit_with_a_given_k_can_be_recut_too(fitted):
    sentences, X, seg = fitted
    fixed = segment_sentences(sentences, 4, embedder=_FixedEmbedder(X), structure="runs")
    assert fixed.max_segments is not None and fixed.max_segments >= 4
    np.testing.assert_array_equal(fixed.recut(2).labels, seg.recut(2).labels)


def test_topics_asked_for_keeps_no_levels():
    sentences, X = _document(lengths=(6, 6, 6))
    seg = segment_sentences(sentences, 3, embedder=_FixedEmbedder(X), structure="topics")
    assert seg.structure == "topics" and seg.max_segments is None
    with pytest.raises(ValueError, match="keeps no levels.*structure='runs'"):
        seg.recut(2)
    with pytest.raises(ValueError, match="keeps no levels"):
        seg.recut(segment_length=3)


def test_a_segmentation_not_made_by_the_pipeline_keeps_no_levels(fitted):
    _, _, seg = fitted
    d = seg.to_dict()
    rebuilt = Segmentation(sentences=d["sentences"], labels=np.array(d["labels"]), segments=d["segments"],
                           beliefs=seg.beliefs, params=d["params"], structure=d["structure"])
    assert rebuilt.max_segments is None
    with pytest.raises(ValueError, match="read from JSON"):
        rebuilt.recut(2)
    for again in (Segmentation.from_dict(d), Segmentation.from_json(seg.to_json(beliefs="full"))):
        assert again.max_segments is None and again.runs_fit is None and again.structure == "runs"
        np.testing.assert_array_equal(again.labels, seg.labels)
        with pytest.raises(ValueError, match="keeps no levels"):
            again.recut(2)


@pytest.mark.parametrize("args, kwargs, match", [
    ((), {}, "exactly one of n_segments and segment_length"),
    ((2,), {"segment_length": 3.0}, "exactly one of n_segments and segment_length"),
    ((0,), {}, r"from 1 to \d+"),
    ((-1,), {}, r"from 1 to \d+"),
    ((10_000,), {}, r"from 1 to \d+ \(max_segments\), got 10000"),
    ((2.0,), {}, "must be an int"),
    ((True,), {}, "must be an int"),
    (("3",), {}, "must be an int"),
    ((), {"segment_length": 0}, "finite number > 0"),
    ((), {"segment_length": -2.5}, "finite number > 0"),
    ((), {"segment_length": float("nan")}, "finite number > 0"),
    ((), {"segment_length": float("inf")}, "finite number > 0"),
    ((), {"segment_length": "5"}, "must be a number"),
    ((), {"segment_length": True}, "must be a number"),
])
def test_bad_arguments_are_one_value_error(fitted, args, kwargs, match):
    _, _, seg = fitted
    with pytest.raises(ValueError, match=match):
        seg.recut(*args, **kwargs)


def test_max_segments_in_range_message_names_the_range(fitted):
    _, _, seg = fitted
    top = seg.max_segments
    assert seg.recut(top).n_segments == top
    with pytest.raises(ValueError, match=f"from 1 to {top} "):
        seg.recut(top + 1)


def test_max_segments_is_read_only(fitted):
    _, _, seg = fitted
    with pytest.raises(AttributeError):
        seg.max_segments = 3


def test_a_recut_keeps_the_fits_markdown_flag():
    """Issue 36, fault 3: the re-cut's ``markdown`` was None, so its chunks guessed Markdown again."""
    from bpseg_pgm.text.pipeline import segment_text

    sentences, X = _document(lengths=(6, 6, 6))
    text = " ".join(s if s.endswith(".") else s + "." for s in sentences)
    for flag in (False, True):
        seg = segment_text(text, structure="runs", markdown=flag, embedder=_FixedEmbedder(X))
        assert seg.markdown is flag and seg.max_segments is not None
        assert seg.recut(2).markdown is flag and seg.recut(2).recut(3).markdown is flag
