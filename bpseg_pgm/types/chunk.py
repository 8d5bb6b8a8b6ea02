"""A chunk: a piece of a text with its exact place in the original, its sentences, segment and token size.

:func:`bpseg_pgm.chunks.make_chunks` makes them from a segmentation; the adapters
(:mod:`bpseg_pgm.integrations`) and the ``chunks-jsonl`` output format read them.  A :class:`ParentChunk` is a
whole segment (a topic, whose runs may lie far apart) over its run-level chunks, its *children*
(:func:`bpseg_pgm.chunks.link_parents`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bpseg_pgm.utils.renamed import renamed_attribute

__all__ = ["Chunk", "ParentChunk", "Span", "PIECE_SEPARATOR"]

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

    ``parent`` is the index of the chunk's :class:`ParentChunk` in the list that
    :func:`~bpseg_pgm.chunks.link_parents` (``Segmentation.parent_chunks``) returns, None when parents were not
    asked for.  ``context_before`` and ``context_after`` are the text around the chunk that is embedded with it
    (``context_sentences`` neighbouring sentences on each side, any segment's, as written in the original:
    ``original[start - len(context_before):start] == context_before``), None when no context was asked for
    (``""`` at either end of the text); they never change ``text``, ``start``, ``end`` or ``spans``.
    :attr:`embed_text` is what to embed.
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
    parent: int | None = None
    context_before: str | None = None
    context_after: str | None = None

    topic = renamed_attribute("topic", "segment")
    contiguous_segment = renamed_attribute("contiguous_segment", "run")

    @property
    def contiguous(self) -> bool:
        """True if the chunk is one stretch of the original text."""
        return len(self.spans) == 1

    @property
    def embed_text(self) -> str:
        """The text to embed: ``context_before + text + context_after`` (``text`` without context).

        For a contiguous chunk it is one stretch of the original text, whitespace as written.
        """
        return (self.context_before or "") + self.text + (self.context_after or "")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (0-based indices, offsets in characters of the original text).

        ``parent`` is written only where it is set, ``context_before``, ``context_after`` and ``embed_text`` only
        where the context is (so a chunk made without them writes the keys it always did).
        :meth:`from_dict` reads it back.
        """
        out = {
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
        if self.parent is not None:
            out["parent"] = self.parent
        if self.context_before is not None or self.context_after is not None:
            out.update(
                context_before=self.context_before or "",
                context_after=self.context_after or "",
                embed_text=self.embed_text,
            )
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chunk:
        """The chunk :meth:`to_dict` wrote (or a ``chunks-jsonl`` line, parsed; ``chunk`` and ``embed_text``,
        derived, are not read).  A missing key is a ValueError naming it."""
        return cls(
            **_required(d, "chunk", ("text", "start", "end", "segment", "n_tokens", "confidence")),
            sentences=tuple(int(i) for i in _required(d, "chunk", ("sentences",))["sentences"]),
            spans=_spans(_required(d, "chunk", ("spans",))["spans"]),
            run=d.get("run"),
            keywords=tuple(d.get("keywords") or ()),
            heading_path=tuple(d.get("heading_path") or ()),
            parent=d.get("parent"),
            context_before=d.get("context_before"),
            context_after=d.get("context_after"),
        )


@dataclass(frozen=True)
class ParentChunk:
    """A whole segment over its chunks: a topic's runs, however far apart, as one retrievable unit.

    ``spans`` are the segment's stretches of the original text in reading order, ``(start, end)`` each: one
    per stretch of its chunks that no other segment's chunk interrupts (one per run, for chunks of runs), from
    its first chunk's start to its last chunk's end, so ``original[start:end]`` holds those chunks and only the
    whitespace between them.  A segment that does not return has one span (``contiguous``); one that returns has
    two or more.  ``text`` is the spans' text joined by :data:`PIECE_SEPARATOR` (a blank line), as for a chunk of
    a non-contiguous segment; ``start``/``end`` are those of the first and last span.

    ``children`` are the indices of its chunks in the chunk list, in reading order (each of them has
    ``parent`` set to this parent's index); ``segment`` is their segment and ``sentences`` theirs, all of them.
    ``n_tokens`` is the length of ``text`` in the embedding model's tokens (special tokens included; no cap
    applies to a parent), ``confidence`` the mean of its chunks' confidences, each weighted by its number of
    sentences, and ``keywords`` and ``heading_path`` those of its first chunk.
    """

    text: str
    start: int
    end: int
    spans: tuple[Span, ...]
    segment: int
    children: tuple[int, ...]
    sentences: tuple[int, ...]
    n_tokens: int
    confidence: float
    keywords: tuple[str, ...] = ()
    heading_path: tuple[str, ...] = ()

    @property
    def contiguous(self) -> bool:
        """True if the parent is one stretch of the original text (its segment does not return)."""
        return len(self.spans) == 1

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (0-based indices, offsets in characters of the original text), which
        :meth:`from_dict` reads back."""
        return {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "spans": [list(span) for span in self.spans],
            "segment": self.segment,
            "children": list(self.children),
            "sentences": list(self.sentences),
            "n_tokens": self.n_tokens,
            "confidence": self.confidence,
            "keywords": list(self.keywords),
            "heading_path": list(self.heading_path),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ParentChunk:
        """The parent :meth:`to_dict` wrote (or a ``chunks-jsonl`` parent line, parsed; its ``parent`` number and
        ``type`` are not read).  A missing key is a ValueError naming it."""
        lists = _required(d, "parent chunk", ("spans", "children", "sentences"))
        return cls(
            **_required(d, "parent chunk", ("text", "start", "end", "segment", "n_tokens", "confidence")),
            spans=_spans(lists["spans"]),
            children=tuple(int(i) for i in lists["children"]),
            sentences=tuple(int(i) for i in lists["sentences"]),
            keywords=tuple(d.get("keywords") or ()),
            heading_path=tuple(d.get("heading_path") or ()),
        )


def _required(d: Any, what: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise ValueError(f"a {what} must be read from a dict, got {type(d).__name__}")
    missing = [k for k in keys if k not in d]
    if missing:
        raise ValueError(f"not a {what}'s dict: no {', '.join(missing)}")
    return {k: d[k] for k in keys}


def _spans(spans: Any) -> tuple[Span, ...]:
    return tuple((int(a), int(b)) for a, b in spans)
