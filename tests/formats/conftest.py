"""Fixtures of the format tests: a small segmentation, and the registry restored after a test."""

import pytest
from small_segmentation import small_segmentation

from bpseg_pgm.formats.registry import REGISTRY


@pytest.fixture
def seg():
    return small_segmentation()


@pytest.fixture
def registry():
    """The format registry, restored after the test (for tests that register formats)."""
    saved = {kind: dict(formats) for kind, formats in REGISTRY.items()}
    yield REGISTRY
    for kind, formats in saved.items():
        REGISTRY[kind].clear()
        REGISTRY[kind].update(formats)
