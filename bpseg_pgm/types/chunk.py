"""A chunk: a piece of a text with its exact place in the original, its sentences, segment and token size.

:func:`bpseg_pgm.chunks.make_chunks` makes them from a segmentation; the adapters
(:mod:`bpseg_pgm.integrations`) and the ``chunks-jsonl`` output format read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bpseg_pgm.utils.renamed import renamed_attribute

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

    A segment may return, so it may hold several runs (``Segmentation.runs``): ``run`` is the run (a stretch
    of consecutive sentences of one segment, numbered in reading order) holding most of the chunk's sentences,
    None where the segmentation gives no runs; ``keywords`` are the segment's keywords, best first
    (``Segmentation.segment_keywords()``), empty where there are none.  ``heading_path`` is the headings its
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
    run: int | None = None
    keywords: tuple[str, ...] = ()
    heading_path: tuple[str, ...] = ()

    topic = renamed_attribute("topic", "segment")
    contiguous_segment = renamed_attribute("contiguous_segment", "run")

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
            "run": self.run,
            "keywords": list(self.keywords),
            "heading_path": list(self.heading_path),
        }
