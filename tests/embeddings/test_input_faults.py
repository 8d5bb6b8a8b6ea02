"""Issue 12 fault 7 and a broken model at the embedding level: damaged cache rows are embedded again,
a model returning NaN is named and nothing broken is stored."""

import numpy as np
import pytest

from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.embeddings.cache import EmbeddingCache

SENTENCES = ["The sun was shining brightly.", "I'll play tennis tomorrow.", "Thunder rumbled in the distance."]


@pytest.mark.parametrize("damage", ["nan", "zero", "not unit", "short dim"])
def test_damaged_cached_row_is_embedded_again(embedder, session_cache_dir, damage, monkeypatch):
    """Fault 7: a NaN or zero row in the cache used to be blamed on the input ('contains NaN')."""
    good = embedder.encode(SENTENCES)
    bad = {"nan": np.full(384, np.nan), "zero": np.zeros(384), "not unit": 3.0 * good[1], "short dim": good[1][:100]}[
        damage
    ]
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
