"""segment_texts (one embedding batch for many texts), and the text and spans every Segmentation keeps."""

import numpy as np
import pytest
from recording import Recording

from bpseg_pgm.text.pipeline import segment_sentences, segment_text, segment_texts
from bpseg_pgm.text.split import squash

A = "The sun was shining.  It was a warm day.\n\nI played tennis. The match went to five sets."
B = "Stocks fell sharply.\tInvestors were nervous.\nBonds rallied. Gold rose too."
PAPER = {"potentials": "paper", "lam": 0.12, "init": "farthest"}


def test_many_texts_one_batch_same_results_as_one_by_one(embedder):
    rec = Recording(embedder)
    segs = segment_texts([A, B, A], 2, embedder=rec, **PAPER)
    assert len(rec.calls) == 1 and len(rec.calls[0]) == 12  # all sentences, one call
    assert [s.text for s in segs] == [A, B, A]
    for text, seg in zip([A, B, A], segs):
        alone = segment_text(text, 2, embedder=embedder, **PAPER)
        assert seg.sentences == alone.sentences and seg.spans == alone.spans
        np.testing.assert_array_equal(seg.labels, alone.labels)
        np.testing.assert_allclose(seg.beliefs, alone.beliefs)
    segs = segment_texts([A, B], [2, 3], embedder=embedder, **PAPER)  # one k per text
    assert [s.params["n_segments"] for s in segs] == [2, 3]


@pytest.mark.parametrize(
    "texts, kwargs, match",
    [
        ("one text. Two.", {}, "texts must be a list of str"),
        ([], {}, "texts is empty"),
        ([A, 3], {}, r"texts\[1\]: text must be a str"),
        ([A, ""], {}, r"texts\[1\]: text is empty"),
        ([A, "Just one sentence."], {}, r"texts\[1\]: found 1 sentence"),
        ([B, A], {"n_segments": 5}, r"texts\[0\]: n_segments=5 is larger than the number of sentences \(4\)"),
        ([A, B], {"n_segments": [2]}, "n_segments has 1 values for 2 texts"),
    ],
)
def test_bad_batches_fail_before_embedding(texts, kwargs, match):
    class Exploding:
        model_name = "x"

        def encode(self, sentences):
            raise AssertionError("embedded before the input was checked")

    with pytest.raises(ValueError, match=match):
        segment_texts(texts, embedder=Exploding(), **kwargs)


def test_segment_text_keeps_the_text_and_the_spans(embedder):
    seg = segment_text(A, 2, embedder=embedder, **PAPER)
    assert seg.text is A and not seg.lines
    assert [A[a:b] for a, b in seg.spans] == [
        "The sun was shining.",
        "It was a warm day.",
        "I played tennis.",
        "The match went to five sets.",
    ]
    assert seg.to_dict()["spans"] == [list(s) for s in seg.spans]
    assert seg.embeddings.shape == (4, 384) and seg.embedder is embedder
    lines = segment_text(B, 2, lines=True, embedder=embedder, **PAPER)
    assert lines.lines and [squash(B[a:b]) for a, b in lines.spans] == lines.sentences
    assert B[slice(*lines.spans[0])] == "Stocks fell sharply.\tInvestors were nervous."


def test_from_sentences_the_text_is_one_sentence_per_line(embedder):
    sents = ["The sun was shining.", "It was a warm day.", "I played tennis.", "The match went to five sets."]
    seg = segment_sentences(sents, 2, embedder=embedder, **PAPER)
    assert seg.text == "\n".join(sents) and seg.lines
    assert [seg.text[a:b] for a, b in seg.spans] == sents
