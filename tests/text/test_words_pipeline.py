"""The text pipeline gives the estimator each non-empty unit's word counts (the words' evidence reads them)."""

import numpy as np
import pytest

import bpseg_pgm.estimator as estimator_module
from bpseg_pgm.features.words import unit_word_counts
from bpseg_pgm.text.pipeline import segment_sentences, segment_text

CATS = ["The cat sleeps.", "Cats purr loudly.", "A cat chases mice."]
BONDS = ["Bond yields rose.", "The bonds matured.", "Yields of bonds fell."]


class _TopicEmbedder:
    """Rows by content: 'cat' sentences near e0, the others near e1; no model."""

    model_name = "topic"

    def encode(self, sentences):
        rows = []
        for s in sentences:
            v = np.zeros(6)
            v[0 if "cat" in s.lower() else 1] = 1.0
            v[2 + len(s) % 4] = 0.05
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows, dtype=np.float32)


@pytest.fixture()
def fits(monkeypatch):
    """Every BPSeg.fit call's estimator and word_counts, the fit itself unchanged."""
    calls = []
    fit = estimator_module.BPSeg.fit

    def recording_fit(self, X, *args, **kwargs):
        # the pipeline passes Units (embeddings, weights, words); a caller may pass arrays and word_counts
        counts = getattr(X, "word_counts", None) if kwargs.get("word_counts") is None else kwargs["word_counts"]
        calls.append((self, len(X), counts))
        return fit(self, X, *args, **kwargs)

    monkeypatch.setattr(estimator_module.BPSeg, "fit", recording_fit)
    return calls


def test_the_pipeline_passes_the_live_units_word_counts(fits):
    units = ["", *CATS, "   ", *BONDS, ""]
    seg = segment_sentences(units, "auto", embedder=_TopicEmbedder(), init="farthest")
    assert len(seg.labels) == len(units)
    assert len(fits) == 1
    model, n, counts = fits[0]
    assert counts is not None and n == 6 and counts.shape[0] == 6  # the empty units are not the model's
    expected = unit_word_counts(CATS + BONDS)
    np.testing.assert_array_equal(counts.toarray(), expected.toarray())
    assert hasattr(model, "granularity_")


def test_segment_text_passes_word_counts(fits):
    segment_text(" ".join(CATS + BONDS), embedder=_TopicEmbedder(), init="farthest")
    ((_, n, counts),) = fits
    assert counts is not None and counts.shape[0] == n == 6 and counts.sum() > 0


@pytest.mark.parametrize(
    "run",
    [
        lambda: segment_sentences(["", *CATS, *BONDS], 2, embedder=_TopicEmbedder(), init="farthest"),
        lambda: segment_text(" ".join(CATS + BONDS), 2, embedder=_TopicEmbedder(), init="farthest"),
    ],
)
def test_a_number_of_segments_asked_for_still_gets_the_words(fits, run):
    """With k given the words do not choose k (granularity_ is None) but still place the runs' boundaries."""
    run()
    ((model, n, counts),) = fits
    assert counts is not None and counts.shape[0] == n == 6 and model.granularity_ is None


def test_the_topic_model_asked_for_needs_no_words(fits):
    """structure="topics" cuts no runs: the words are not counted (no nltk, no pass over the text)."""
    segment_sentences(["", *CATS, *BONDS], 2, embedder=_TopicEmbedder(), init="farthest", structure="topics")
    ((model, n, counts),) = fits
    assert counts is None and n == 6


def test_the_segmentation_says_how_the_number_of_runs_was_chosen(fits):
    import json

    units = [f"{s[:-1]} number {i}." for i in range(10) for s in CATS] + [
        f"{s[:-1]} number {i}." for i in range(10) for s in BONDS
    ]
    seg = segment_sentences(units, "auto", embedder=_TopicEmbedder())
    model = fits[-1][0]
    assert model.granularity_ is not None and set(model.granularity_) == {"span", "words"}
    assert seg.granularity == model.granularity_
    assert json.loads(seg.to_json())["granularity"] == model.granularity_
    given = segment_sentences(units, 2, embedder=_TopicEmbedder())
    assert given.granularity is None and json.loads(given.to_json())["granularity"] is None
    assert seg.recut(3).granularity is None  # a count asked for: no rule chose it
