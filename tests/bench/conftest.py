"""Fixtures for the evaluation tests: the real Choi folder (or a skip) and a fake embedder."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from planted import planted_blocks as _planted_blocks

from bpseg_bench.choi import resolve_data_dir


@pytest.fixture(scope="session")
def choi_dir():
    """The Choi data folder, or skip when this checkout has none beside it."""
    try:
        return resolve_data_dir()
    except ValueError as exc:
        pytest.skip(f"Choi data not available: {exc}")


class HashEmbedder:
    """Deterministic stand-in for ``Embedder``: a unit vector seeded by each sentence's CRC32."""

    model_id = "hash-embedder"

    def __init__(self, dim: int = 16):
        self.dim = dim
        self.calls = 0

    def encode(self, sentences):
        self.calls += 1
        rows = [np.random.default_rng(zlib.crc32(s.encode("utf-8"))).normal(size=self.dim) for s in sentences]
        X = np.asarray(rows, dtype=np.float32)
        return X / np.linalg.norm(X, axis=1, keepdims=True)


@pytest.fixture
def hash_embedder():
    return HashEmbedder()


def planted_blocks(sizes, dim=32, noise=0.05, seed=0, order=None):
    """:func:`planted.planted_blocks` with small noise (0.05) by default."""
    return _planted_blocks(sizes, dim=dim, noise=noise, seed=seed, order=order)


@pytest.fixture
def planted():
    """The :func:`planted_blocks` generator."""
    return planted_blocks
