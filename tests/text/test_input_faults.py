"""Issue 12 faults 2 and 9 at the text level: no NaN passes through, invalid Unicode is a ValueError before
the model sees it (fault 7, damaged cache rows, is in tests/embeddings/test_input_faults.py)."""

import dataclasses

import numpy as np
import pytest

from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.text.pipeline import segment_sentences, segment_text


class _Exploding:
    model_name = "exploding"

    def encode(self, sentences):
        raise AssertionError("input should have been rejected before embedding")


@pytest.mark.parametrize("text", ["Hello there. \ud800 is odd. Third one.", "A line.\n\udc80b\nC line."])
def test_lone_surrogate_is_a_value_error_before_embedding(text):
    with pytest.raises(ValueError, match=r"lone surrogate '\\ud[8c][08]0' at position \d+; it is not valid Unicode"):
        segment_text(text, embedder=_Exploding(), lines="\n" in text)


def test_lone_surrogate_in_sentences_and_in_the_embedder():
    with pytest.raises(ValueError, match="sentence 1 contains a lone surrogate"):
        segment_sentences(["fine", "bro\ud83dken"], embedder=_Exploding())
    with pytest.raises(ValueError, match="sentence 0 contains a lone surrogate"):
        Embedder(cache_dir="/nonexistent-never-created").encode(["\ud800"])


class _Fixed:
    model_name = "fixed"

    def __init__(self, X):
        self.X = X

    def encode(self, sentences):
        return self.X[: len(sentences)]


def test_reference_engine_overflow_is_a_value_error_not_nan_beliefs():
    X = np.random.default_rng(0).standard_normal((8, 5)).astype(np.float32)
    with pytest.raises(ValueError, match="reference solver.*overflowed"):
        segment_sentences([f"s{i}" for i in range(8)], 3, embedder=_Fixed(X), engine="reference", lam=1e4)


def test_non_finite_beliefs_never_reach_the_result(monkeypatch):
    """Whatever an engine returns, NaN beliefs end in a ValueError, not in labels or JSON."""
    from bpseg_pgm import estimator

    real_fit = estimator.BPSeg.fit

    def nan_fit(self, X, *a, **kw):
        real_fit(self, X, *a, **kw)
        self.result_ = dataclasses.replace(self.result_, beliefs=np.full_like(self.beliefs_, np.nan))
        return self

    monkeypatch.setattr(estimator.BPSeg, "fit", nan_fit)
    X = np.random.default_rng(1).standard_normal((6, 4)).astype(np.float32)
    with pytest.raises(ValueError, match="NaN or inf beliefs"):
        segment_sentences([f"s{i}" for i in range(6)], 2, embedder=_Fixed(X))
