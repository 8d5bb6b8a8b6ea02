"""A small segmentation made without a model (tokens counted as words), for the format and CLI tests."""

import numpy as np

from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash

TEXT = (
    "The app release is on Friday. Testers found two bugs.\n\nThe office moves in May. "
    "Boxes arrive next week.\n\nThe release notes need a review. We hire two engineers."
)


class WordCounter:
    """Stands in for the embedder: its tokenizer counts words, plus 2 special tokens."""

    def count_tokens(self, texts):
        return [len(t.split()) + 2 for t in texts]


def small_segmentation(labels=(0, 0, 1, 1, 0, 2)) -> Segmentation:
    """The six sentences of :data:`TEXT` with these labels; beliefs 0.8 on the own segment."""
    spans = sentence_spans(TEXT)
    labels = np.asarray(labels)
    m = int(labels.max()) + 1
    beliefs = np.full((len(labels), m), 0.1)
    beliefs[np.arange(len(labels)), labels] = 0.8
    segments = [np.flatnonzero(labels == j).tolist() for j in range(m)]
    return Segmentation(
        [squash(TEXT[a:b]) for a, b in spans],
        labels,
        segments,
        beliefs,
        text=TEXT,
        spans=spans,
        params={"n_segments": m},
        embedder=WordCounter(),
    )
