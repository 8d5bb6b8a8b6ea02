"""Fixtures shared by every test folder: one embedder (one model load) per test session, with a private cache."""

import pytest


@pytest.fixture(scope="session")
def session_cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("bpseg_cache")


@pytest.fixture(scope="session")
def embedder(session_cache_dir):
    from bpseg_pgm.embeddings import Embedder

    return Embedder(cache_dir=session_cache_dir, show_progress=False)
