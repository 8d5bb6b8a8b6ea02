"""The checks a text or a list of sentences passes before anything is embedded (one clear ValueError).

The pipeline (:mod:`bpseg_pgm.text.pipeline`) and ``bpseg corpus`` (:mod:`bpseg_pgm.corpus.tasks`) run
them first, so bad input fails fast, before the slow embedding step.
"""

from __future__ import annotations

import numbers
from typing import Any

from bpseg_pgm.text.split import sentence_spans, squash
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.validation import check_str_list, check_unicode

__all__ = ["check_n_segments", "check_sentences", "split_for_segmentation"]


def check_sentences(sentences: Any) -> list[str]:
    """``sentences`` as a list of at least 2 non-empty str in valid Unicode, or a ValueError saying which is not."""
    sentences = list(check_str_list(sentences, "sentences", "sentence", any_iterable=True, unicode=True, nonblank=True,
                                    not_a_list="sentences must be a list of str (use segment_text for raw text)",
                                    not_a_str="{name} is {type}, not str"))
    if len(sentences) < 2:
        raise ValueError(f"need at least 2 sentences to segment, got {len(sentences)}")
    return sentences


def check_n_segments(n_segments: Any, n: int, init: Any) -> None:
    """A ValueError unless ``n_segments`` is "auto" or a positive int at most ``n`` (anything goes with ``init="all"``)."""
    if init == "all" or (isinstance(n_segments, str) and n_segments == "auto"):
        return  # k = n, or chosen by the estimator
    if isinstance(n_segments, bool) or not isinstance(n_segments, numbers.Integral) or n_segments < 1:
        raise ValueError(f"n_segments must be a positive int or 'auto', got {n_segments!r}")
    if n_segments > n:
        raise ValueError(f"n_segments={n_segments} is larger than the number of sentences ({n})")


def split_for_segmentation(text: Any, lines: bool) -> tuple[list[str], list[Span]]:
    """Sentences (whitespace collapsed) and their spans, or a ValueError saying why ``text`` cannot be segmented."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    if not text:
        raise ValueError("text is empty")
    if not text.strip():
        raise ValueError("text contains only whitespace")
    check_unicode(text)
    spans = sentence_spans(text, lines=lines)
    if len(spans) < 2:
        unit = "line" if lines else "sentence"
        raise ValueError(f"found {len(spans)} {unit}(s); need at least 2 to segment")
    return [squash(text[a:b]) for a, b in spans], spans
