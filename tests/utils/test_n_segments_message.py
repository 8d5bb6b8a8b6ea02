"""n_segments=0 (or any bad k) gives one message wherever it is given: BPSeg, segment_sentences, prune."""

import numpy as np
import pytest

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.pruning import prune
from bpseg_pgm.text import segment_sentences

MESSAGE = "n_segments must be a positive int or 'auto', got 0"


class _NoEmbedder:
    """An embedder that must never run: the checks come first."""

    def encode(self, sentences):
        raise AssertionError("embedded before the checks")


@pytest.mark.parametrize("structure", ["auto", "runs", "topics"])
def test_bpseg(structure):
    X = np.random.default_rng(0).normal(size=(12, 8))
    with pytest.raises(ValueError) as info:
        BPSeg(n_segments=0, structure=structure).fit(X)
    assert str(info.value) == MESSAGE


def test_segment_sentences():
    with pytest.raises(ValueError) as info:
        segment_sentences(["One sentence.", "Another one.", "A third."], 0, embedder=_NoEmbedder())
    assert str(info.value) == MESSAGE


def test_prune():
    with pytest.raises(ValueError) as info:
        prune(["One sentence.", "Another one.", "A third."], "a question", n_segments=0, embedder=_NoEmbedder())
    assert str(info.value) == MESSAGE
