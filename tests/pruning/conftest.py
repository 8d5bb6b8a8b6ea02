"""A fake embedder for pruning tests: hashed bags of words, so that sentences sharing words are similar."""

import zlib

import numpy as np
import pytest

DIM = 64


class BagOfWordsEmbedder:
    """``encode``: each word adds 1 to a hashed dimension, rows normalised; ``count_tokens``: words + 2 specials."""

    model_name = "bag-of-words"

    def __init__(self):
        self.calls = 0

    def encode(self, sentences):
        self.calls += 1
        X = np.zeros((len(sentences), DIM))
        for i, s in enumerate(sentences):
            for w in s.lower().replace(".", " ").replace("?", " ").replace(",", " ").split():
                X[i, zlib.crc32(w.encode()) % DIM] += 1.0
            X[i, DIM - 1] += 0.1  # no all-zero row
        return (X / np.linalg.norm(X, axis=1, keepdims=True)).astype(np.float32)

    def count_tokens(self, texts):
        return [len(t.split()) + 2 for t in texts]


@pytest.fixture
def fake_embedder():
    return BagOfWordsEmbedder()
