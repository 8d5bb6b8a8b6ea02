"""Issue 22, "options checked late": every option of the text pipeline is checked before anything is embedded.

`segment_text(text, lamda=0.1)` used to fail only after the embedding step (24 s on a long text) with a
TypeError from BPSeg's constructor; now it is a ValueError naming the keyword before the model is touched.
"""

import numpy as np
import pytest
from recording import Exploding as _Exploding

from bpseg_pgm.text.checks import checked_estimator
from bpseg_pgm.text.chunks import chunk_texts
from bpseg_pgm.text.pipeline import fit_segmentation, segment_sentences, segment_text, segment_texts

TEXT = "Cats purr when happy. Kittens play with yarn. Bond yields rose today. Investors sold shares."
SENTS = ["Cats purr when happy.", "Kittens play with yarn.", "Bond yields rose today.", "Investors sold shares."]


BAD = [
    ({"lamda": 0.1}, r"unknown parameter 'lamda'.*did you mean 'lam'"),
    ({"n_segmentz": 2}, r"unknown parameter 'n_segmentz'"),
    ({"context": -1.0}, r"context"),
    ({"init": "bogus"}, r"init must be one of"),
    ({"merge_above": "high"}, r"merge_above"),
    ({"engine": "nope"}, r"engine"),
    ({"lam": -1}, r"lam must be"),
    ({"init": [0, 99]}, r"representatives must lie in"),  # explicit indices: checked against the text's length
]


@pytest.mark.parametrize("kwargs, match", BAD)
def test_segment_text_checks_every_option_before_embedding(kwargs, match):
    with pytest.raises(ValueError, match=match):
        segment_text(TEXT, embedder=_Exploding(), **kwargs)


@pytest.mark.parametrize("kwargs, match", BAD)
def test_segment_sentences_checks_every_option_before_embedding(kwargs, match):
    with pytest.raises(ValueError, match=match):
        segment_sentences(SENTS, embedder=_Exploding(), **kwargs)


@pytest.mark.parametrize("kwargs, match", BAD)
def test_segment_texts_checks_every_option_before_embedding(kwargs, match):
    with pytest.raises(ValueError, match=match):
        segment_texts([TEXT, TEXT], embedder=_Exploding(), **kwargs)


@pytest.mark.parametrize("kwargs, match", BAD[:-1])
def test_chunk_texts_checks_every_option_before_embedding(kwargs, match):
    with pytest.raises(ValueError, match=match):
        chunk_texts([TEXT, "One sentence."], 64, embedder=_Exploding(), **kwargs)
    with pytest.raises(ValueError, match=match):  # even when no text has two sentences
        chunk_texts(["One sentence."], 64, embedder=_Exploding(), **kwargs)


def test_chunk_texts_bad_k_even_without_a_text_to_segment():
    with pytest.raises(ValueError, match="n_segments must be a positive int"):
        chunk_texts(["One sentence."], 64, n_segments=0, embedder=_Exploding())


def test_the_estimator_fit_segmentation_takes_is_checked_once_before_any_embedding():
    with pytest.raises(ValueError, match="unknown parameter 'lamda'"):
        checked_estimator(2, {"lamda": 0.1})
    with pytest.raises(ValueError, match=r"n_segments=5 is larger than the number of sentences \(4\)"):
        checked_estimator(5, {}, 4)
    X = np.eye(4, dtype=np.float32)
    seg = fit_segmentation(SENTS, X, checked_estimator(2, {"init": "farthest"}, 4), None)
    assert seg.n_segments <= 2 and seg.params["init"] == "farthest"
