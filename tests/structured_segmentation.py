"""A segmentation of a text read as reStructuredText or HTML, made without a model, for the view tests."""

import numpy as np

from bpseg_pgm.structure.detect import heading_paths
from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.checks import split_for_segmentation


def structured_segmentation(text: str, format: str) -> Segmentation:
    """``text`` read as ``format``, its units in two segments (the first half, the rest), as the pipeline keeps
    them: sentences from the structure's view, spans into ``text``, the format and the heading paths."""
    sentences, spans = split_for_segmentation(text, False, False, format)
    n = len(sentences)
    labels = np.array([0] * (n // 2) + [1] * (n - n // 2))
    return Segmentation(
        sentences,
        labels,
        [np.flatnonzero(labels == j).tolist() for j in range(2)],
        np.eye(2)[labels] * 0.8 + 0.1,
        text=text,
        spans=spans,
        format=format,
        heading_paths=heading_paths(text, format, spans),
    )
