"""A chunk: a piece of a text with its exact place in the original, its sentences, segment and token size.

:func:`bpseg_pgm.chunks.make_chunks` makes them from a segmentation; the adapters
(:mod:`bpseg_pgm.integrations`) and the ``chunks-jsonl`` output format read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Chunk", "Span", "PIECE_SEPARATOR"]

#: ``(start, end)``: characters ``start`` to ``end`` (excluded) of a text.
Span = tuple[int, int]

#: Between the runs of a non-contiguous chunk's text.
PIECE_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class Chunk:
    """A piece of a text: ``text``, its place ``start``/``end`` in the original, its sentences and segment.

    ``sentences`` are 0-based sentence indices in reading order; ``segment`` is the 0-based
    segment (the one holding most of the chunk's tokens); ``n_tokens`` is the length of ``text``
    in the embedding model's tokens (special tokens included); ``confidence`` is the mean calibrated
    confidence of its sentences (``Segmentation.confidence()``: the probability that each lies in its
    segment; 1.0 for a text of one sentence).  ``spans``
    lists the chunk's runs of consecutive sentences, ``(start, end)`` each: one for a contiguous
    chunk, where ``text == original[start:end]``; several for a chunk of a non-contiguous
    segment, whose ``text`` is the runs as written joined by a blank line.

    The two levels of a segmentation whose topics return (``Segmentation.contiguous_segments``):
    ``topic`` is the same number as ``segment`` (the label, which may hold several contiguous segments),
    named as the text output and the HTML name it; ``contiguous_segment`` is the contiguous segment (a run
    of one topic, numbered in reading order) holding most of the chunk's sentences of that topic, None
    where the segmentation has no contiguous level; ``keywords`` are the topic's keywords, best first
    (``Segmentation.topic_keywords()``), empty where there are none.  ``heading_path`` is the headings its
    first sentence lies under, outermost first (``("Usage", "Reading files")``; Markdown), empty where there
    are none.
    """

    text: str
    start: int
    end: int
    sentences: tuple[int, ...]
    segment: int
    n_tokens: int
    confidence: float
    spans: tuple[Span, ...]
    contiguous_segment: int | None = None
    keywords: tuple[str, ...] = ()
    heading_path: tuple[str, ...] = ()

    @property
    def topic(self) -> int:
        """The chunk's topic: the same number as ``segment``."""
        return self.segment

    @property
    def contiguous(self) -> bool:
        """True if the chunk is one stretch of the original text."""
        return len(self.spans) == 1

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (0-based indices, offsets in characters of the original text)."""
        return {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "sentences": list(self.sentences),
            "segment": self.segment,
            "n_tokens": self.n_tokens,
            "confidence": self.confidence,
            "spans": [list(span) for span in self.spans],
            "topic": self.topic,
            "contiguous_segment": self.contiguous_segment,
            "keywords": list(self.keywords),
            "heading_path": list(self.heading_path),
        }
