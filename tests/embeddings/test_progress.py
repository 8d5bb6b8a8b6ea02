"""The embedding bar moves at each forward pass of the model (every ``batch_size`` = 64 texts), not once per encode
call of 512, and the vectors stay bit for bit those of the encode calls as they were (issue 52, item 5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.text import split_sentences
from bpseg_pgm.utils.validation import normalize_nonzero_rows

ROOT = Path(__file__).resolve().parents[2]


def _real_sentences(n: int) -> list[str]:
    """``n`` distinct sentences of the repository's own prose (README and docs pages), in a fixed order; the short
    ones (20 to 100 characters), so that the model is quick on them."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    found = dict.fromkeys(
        s.strip() for page in pages for s in split_sentences(page.read_text("utf-8")) if 20 <= len(s.strip()) <= 100
    )
    assert len(found) >= n, len(found)
    return list(found)[:n]


class FakeBar:
    """Stands for tqdm.auto.tqdm: records every update."""

    made: list[FakeBar] = []

    def __init__(self, total=None, disable=False, **kwargs):
        self.total, self.disable, self.kwargs = total, disable, kwargs
        self.n, self.updates, self.closed = 0, [], False
        FakeBar.made.append(self)

    def update(self, n=1):
        if not self.disable:
            self.n += n
            self.updates.append(n)

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _encode_with_fake_bar(embedder_like: Embedder, sentences: list[str]) -> tuple[np.ndarray, FakeBar]:
    FakeBar.made = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("tqdm.auto.tqdm", FakeBar)
        X = embedder_like.encode(sentences)
    assert len(FakeBar.made) == 1
    return X, FakeBar.made[0]


def _old_path(model, texts: list[str], batch_size: int = 64) -> np.ndarray:
    """What ``Embedder._encode_missing`` computed before the bar followed the forward passes: the same encode calls of
    ``batch_size * 8`` texts, normalised."""
    rows = []
    for start in range(0, len(texts), batch_size * 8):
        chunk = texts[start : start + batch_size * 8]
        emb = model.encode(chunk, batch_size=batch_size, show_progress_bar=False, convert_to_numpy=True)
        rows.append(normalize_nonzero_rows(np.asarray(emb, dtype=np.float32)))
    return np.concatenate(rows)


@pytest.fixture(scope="module")
def three_hundred(embedder, tmp_path_factory):
    """300 real sentences embedded afresh (a new cache) with the bar on: (sentences, vectors, the bar)."""
    sentences = _real_sentences(300)
    fresh = Embedder(cache_dir=tmp_path_factory.mktemp("progress_cache"), show_progress=True)
    fresh._model = embedder.model  # the loaded model; every sentence is a miss in the new cache
    X, bar = _encode_with_fake_bar(fresh, sentences)
    return sentences, X, bar


def test_the_bar_advances_at_least_every_64_sentences(three_hundred):
    _, _, bar = three_hundred
    assert bar.total == 300 and bar.n == 300 and bar.closed
    assert bar.kwargs["desc"] == "Embedding" and not bar.disable
    assert max(bar.updates) <= 64 and len(bar.updates) >= 5, bar.updates  # once per batch of 64, not 512 at once
    assert np.cumsum(bar.updates).tolist() == [64, 128, 192, 256, 300]


def test_the_vectors_are_bit_identical_to_the_old_encode_calls(three_hundred, embedder):
    sentences, X, _ = three_hundred
    old = _old_path(embedder.model, sentences)
    assert X.dtype == old.dtype == np.float32 and X.shape == old.shape == (300, 384)
    assert np.array_equal(X, old)


def test_several_calls_of_small_batches_count_every_sentence_once(embedder, tmp_path):
    sentences = _real_sentences(42)
    small = Embedder(cache_dir=tmp_path, batch_size=4, show_progress=True)  # calls of 32 texts, passes of 4
    small._model = embedder.model
    X, bar = _encode_with_fake_bar(small, sentences)
    assert bar.n == bar.total == 42 and bar.updates == [4] * 10 + [2], bar.updates  # calls of 32 and 10 texts
    assert np.array_equal(X, _old_path(embedder.model, sentences, batch_size=4))
    assert not embedder.model._forward_hooks  # the hook is removed when the bar closes


def test_a_model_whose_passes_are_not_seen_moves_the_bar_once_per_call(tmp_path):
    class Plain:  # neither a torch module nor an ONNX encoder: the bar moves after each encode call, as before
        def encode(self, texts, batch_size=32, **kwargs):
            return np.ones((len(texts), 4), dtype=np.float32)

    e = Embedder(cache_dir=tmp_path, batch_size=4, show_progress=True)
    e._model = Plain()
    _, bar = _encode_with_fake_bar(e, [f"sentence {i}" for i in range(70)])
    assert bar.updates == [32, 32, 6]


def test_an_onnx_encoder_reports_its_batches(tmp_path):
    class Onnx:  # what OnnxEncoder offers the bar: on_batch, called after each batch
        on_batch = None

        def encode(self, texts, batch_size=32, **kwargs):
            for start in range(0, len(texts), batch_size):
                if self.on_batch is not None:
                    self.on_batch(len(texts[start : start + batch_size]))
            return np.ones((len(texts), 4), dtype=np.float32)

    e = Embedder(cache_dir=tmp_path, batch_size=4, show_progress=True)
    e._model = Onnx()
    _, bar = _encode_with_fake_bar(e, [f"sentence {i}" for i in range(70)])
    assert bar.updates == [4] * 17 + [2] and e._model.on_batch is None
