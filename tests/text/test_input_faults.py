"""Issue 12 faults 2, 7 and 9 at the text level: no NaN passes through, damaged cache rows are
re-embedded, invalid Unicode is a ValueError before the model sees it."""

import json

import numpy as np
import pytest

from bpseg_pgm.text.cache import EmbeddingCache
from bpseg_pgm.text.embeddings import Embedder
from bpseg_pgm.text.pipeline import Segmentation, segment_sentences, segment_text

SENTENCES = ["The sun was shining brightly.", "I'll play tennis tomorrow.", "Thunder rumbled in the distance."]


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
        self.beliefs_ = np.full_like(self.beliefs_, np.nan)
        return self

    monkeypatch.setattr(estimator.BPSeg, "fit", nan_fit)
    X = np.random.default_rng(1).standard_normal((6, 4)).astype(np.float32)
    with pytest.raises(ValueError, match="NaN or inf beliefs"):
        segment_sentences([f"s{i}" for i in range(6)], 2, embedder=_Fixed(X))


def test_json_never_holds_bare_nan():
    seg = Segmentation(sentences=["a", "b"], labels=np.array([0, 0]), segments=[[0, 1]],
                       beliefs=np.array([[np.nan], [1.0]]))
    with pytest.raises(ValueError, match="JSON cannot represent"):
        seg.to_json()
    seg.beliefs = np.array([[1.0], [1.0]])
    assert json.loads(seg.to_json())["beliefs"] == [[1.0], [1.0]]


@pytest.mark.parametrize("damage", ["nan", "zero", "not unit", "short dim"])
def test_damaged_cached_row_is_embedded_again(embedder, session_cache_dir, damage, monkeypatch):
    """Fault 7: a NaN or zero row in the cache used to be blamed on the input ('contains NaN')."""
    good = embedder.encode(SENTENCES)
    bad = {"nan": np.full(384, np.nan), "zero": np.zeros(384), "not unit": 3.0 * good[1],
           "short dim": good[1][:100]}[damage]
    with EmbeddingCache(session_cache_dir) as cache:
        cache.put_many(embedder.model_id, [(SENTENCES[1], bad)])
    loads = []
    real_encode_missing = Embedder._encode_missing

    def spy(self, missing, cache):
        loads.append(list(missing))
        return real_encode_missing(self, missing, cache)

    monkeypatch.setattr(Embedder, "_encode_missing", spy)
    again = Embedder(cache_dir=session_cache_dir, show_progress=False)
    again._model = embedder.model  # reuse the loaded model
    X = again.encode(SENTENCES)
    np.testing.assert_allclose(X, good, atol=1e-6)
    assert loads == [[SENTENCES[1]]]  # only the damaged row was embedded again, and it was overwritten:
    with EmbeddingCache(session_cache_dir) as cache:
        np.testing.assert_allclose(cache.get_many(embedder.model_id, [SENTENCES[1]])[SENTENCES[1]], good[1], atol=1e-6)


def test_model_returning_nan_is_named(embedder, tmp_path):
    class NanModel:
        def encode(self, chunk, **kw):
            return np.full((len(chunk), 4), np.nan, dtype=np.float32)

    e = Embedder(cache_dir=tmp_path, show_progress=False)
    e._model = NanModel()
    with pytest.raises(ValueError, match="returned NaN or inf for 2 sentence"):
        e.encode(["one", "two"])
    with EmbeddingCache(tmp_path) as cache:
        assert len(cache) == 0  # nothing broken was stored
