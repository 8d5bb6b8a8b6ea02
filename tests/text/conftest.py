"""Shared fixtures: one embedder (one model load) per test session, with a private cache."""

import pytest

from bpseg_pgm.text.embeddings import Embedder


@pytest.fixture(scope="session")
def session_cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("bpseg_cache")


@pytest.fixture(scope="session")
def embedder(session_cache_dir):
    return Embedder(cache_dir=session_cache_dir, show_progress=False)
