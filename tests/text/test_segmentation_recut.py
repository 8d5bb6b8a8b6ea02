"""Segmentation.recut: the runs fit's levels re-cut at another number of segments, or a target segment
length, without refitting; the same labels as a fresh runs fit with that k (exact programme, n <= 1000)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.features.weights import unit_weights
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.text.pipeline import segment_sentences, segment_text
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
    return {
        "labels": seg.labels.copy(),
        "beliefs": seg.beliefs.copy(),
        "segments": [list(s) for s in seg.segments],
        "params": dict(seg.params),
        "structure": seg.structure,
        "json": seg.to_json(),
        "max_segments": seg.max_segments,
    }


def test_recut_labels_equal_a_fresh_runs_fit_with_that_k(fitted):
    sentences, X, seg = fitted
    weights = unit_weights(sentences, P.word_scale)
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
    rebuilt = Segmentation(
        sentences=d["sentences"],
        labels=np.array(d["labels"]),
        segments=d["segments"],
        beliefs=seg.beliefs,
        params=d["params"],
        structure=d["structure"],
    )
    assert rebuilt.max_segments is None
    with pytest.raises(ValueError, match="read from JSON"):
        rebuilt.recut(2)
    for again in (Segmentation.from_dict(d), Segmentation.from_json(seg.to_json(beliefs="full"))):
        assert again.max_segments is None and again.runs_fit is None and again.structure == "runs"
        np.testing.assert_array_equal(again.labels, seg.labels)
        with pytest.raises(ValueError, match="keeps no levels"):
            again.recut(2)


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
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
    ],
)
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


# -- issue 36 fault 2: a re-cut of a fit whose boundaries weigh the words ---------------------------------


def _worded_document(blocks=6, size=10, d=16, seed=3):
    """Sentences whose words change at every block of ``size`` (each block its own terms), embeddings that
    barely see the blocks: the words place the boundaries, so their scale and alpha at k matter."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(blocks, d))
    X = np.concatenate([0.3 * centres[b] + rng.normal(size=(size, d)) for b in range(blocks)])
    sentences = []
    for b in range(blocks):
        for i in range(size):
            terms = rng.choice(12, size=4, replace=False)
            sentences.append(" ".join(f"block{b}term{t}" for t in terms) + f" and shared words {i % 3}.")
    return sentences, X


def test_recut_of_a_fit_that_weighs_the_words_is_the_fit_given_that_k():
    """Before the fix the re-cut read the words' levels of the fitted k (scales and alpha set there) and its
    word_alpha was None; the fit given k sets them at k."""
    sentences, X = _worded_document()
    seg = segment_sentences(sentences, embedder=_FixedEmbedder(X), structure="runs")
    assert seg.runs_fit.word_alpha is not None  # the words weighed in
    fitted_k = seg.n_segments
    for k in range(1, seg.max_segments + 1):
        cut = seg.recut(k)
        again = segment_sentences(sentences, k, embedder=_FixedEmbedder(X), structure="runs")
        np.testing.assert_array_equal(cut.labels, again.labels, err_msg=f"k={k} (fitted {fitted_k})")
        np.testing.assert_allclose(cut.beliefs, again.beliefs, atol=1e-9)
        assert cut.runs_fit.word_alpha == again.runs_fit.word_alpha
        assert cut.to_dict() == again.to_dict()
    np.testing.assert_array_equal(seg.recut(fitted_k).labels, seg.labels)  # the fitted k: the fit itself


def test_issue_reproducer_recut_3_is_the_fit_with_3_segments():
    """The issue's text (a two-sentence intro, then 30 list items of two sentences, all alike), with a fixed
    embedder: before the fix ``recut(3).labels[:6]`` was [0, 0, 1, 1, 1, 1], the fit's [0, 1, 2, 2, 2, 2]. Here the
    fitted k is one at which the words cannot weigh in, so the fit did not weigh them; its re-cut at 3 must."""
    text = "Intro paragraph sentence. Another intro sentence.\n\n" + "\n".join(
        f"- Item {i} first sentence. Item {i} second sentence with more words." for i in range(30)
    )
    rng = np.random.default_rng(0)
    item, intro = rng.normal(size=16), rng.normal(size=16)
    X = item + 0.6 * rng.normal(size=(62, 16))
    X[:2] = intro + 0.6 * rng.normal(size=(2, 16))
    seg = segment_text(text, structure="runs", embedder=_FixedEmbedder(X))
    fit3 = segment_text(text, 3, structure="runs", embedder=_FixedEmbedder(X))
    assert seg.n_segments == 31 and seg.runs_fit.word_alpha is None  # the words could not weigh in at 31 runs
    assert fit3.labels[:6].tolist() == [0, 1, 2, 2, 2, 2] and fit3.runs_fit.word_alpha is not None
    cut = seg.recut(3)  # the words weighed at 3 runs, as the fit given 3 does
    np.testing.assert_array_equal(cut.labels, fit3.labels)
    assert cut.runs_fit.word_alpha == fit3.runs_fit.word_alpha


def test_a_segment_length_beyond_the_levels_says_it_was_clipped(fitted):
    """Issue 36 note: --segment-length 1 was clipped to the levels without a word."""
    _, _, seg = fitted
    top = seg.max_segments
    with pytest.warns(UserWarning, match=rf"cut into {top}"):
        assert seg.recut(segment_length=1).n_segments == top
    with pytest.warns(UserWarning, match="cut into 1"):
        assert seg.recut(segment_length=10_000).n_segments == 1


def test_empty_units_do_not_count_toward_the_segment_length():
    sentences, X = _document()
    gaps = [u for s in sentences for u in (s, "")]
    a = segment_sentences(sentences, embedder=_FixedEmbedder(X), structure="runs")
    b = segment_sentences(gaps, embedder=_FixedEmbedder(X), structure="runs")
    length = len(sentences) / 3
    assert a.recut(segment_length=length).n_segments == b.recut(segment_length=length).n_segments == 3
