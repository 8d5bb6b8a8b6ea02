"""Parent chunks: each segment (a topic, whose runs may lie far apart) as one parent over its run-level chunks.

A retrieval index embeds the small chunks and hands the LLM their parent: the whole topic, all of its runs,
in reading order.  :func:`link_parents` groups a text's chunks by segment into :class:`ParentChunk` objects
whose ``spans`` are exact character offsets into the original text, and gives each chunk its parent's index.
Peers' parent documents are fixed windows or whole sections; here a parent is a topic, which may return.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

from bpseg_pgm.chunks.chunking import token_counter
from bpseg_pgm.types.chunk import PIECE_SEPARATOR, Chunk, ParentChunk, Span

__all__ = ["link_parents"]


def _checked(chunks: Any, text: Any) -> list[Chunk]:
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    if not isinstance(chunks, (list, tuple)):
        raise ValueError(f"chunks must be a list of Chunk, got {type(chunks).__name__}")
    for i, c in enumerate(chunks):
        if not isinstance(c, Chunk):
            raise ValueError(f"chunks[{i}] must be a Chunk, got {type(c).__name__}")
        if not c.spans or any(not 0 <= a <= b <= len(text) for a, b in c.spans):
            raise ValueError(f"chunks[{i}]'s spans {list(c.spans)} do not lie in the text ({len(text)} characters)")
        if PIECE_SEPARATOR.join(text[a:b] for a, b in c.spans) != c.text:
            raise ValueError(f"chunks[{i}] is not a chunk of this text: its spans do not give its text")
    return list(chunks)


def _stretches(chunks: list[Chunk]) -> dict[int, list[Span]]:
    """Each segment's stretches of the text: its chunks' spans in reading order, merged where no other
    segment's chunk lies between them."""
    pieces = sorted((a, b, c.segment) for c in chunks for a, b in c.spans)
    out: dict[int, list[Span]] = {}
    previous = None
    for a, b, segment in pieces:
        spans = out.setdefault(segment, [])
        if segment == previous:
            spans[-1] = (spans[-1][0], max(spans[-1][1], b))
        else:
            spans.append((a, b))
        previous = segment
    return out


def link_parents(
    chunks: Sequence[Chunk], text: str, *, count_tokens: Callable[[list[str]], list[int]] | None = None
) -> tuple[list[ParentChunk], list[Chunk]]:
    """Group a text's chunks into one :class:`~bpseg_pgm.types.chunk.ParentChunk` per segment.

    Parameters
    ----------
    chunks : list of Chunk
        The chunks of ``text`` (:func:`~bpseg_pgm.chunks.make_chunks`, ``Segmentation.chunks``,
        ``chunk_texts``), of runs (``contiguous=True``) or of whole segments.
    text : str
        The original text the chunks' offsets point into.
    count_tokens : callable or None, default=None
        A function from a list of str to their lengths in tokens, for the parents' ``n_tokens``; None: the
        bundled model's tokenizer.

    Returns
    -------
    parents : list of ParentChunk
        One per segment that has chunks, by segment.  A parent's ``spans`` are exact offsets into ``text``, one
        per stretch of its chunks (one per run): a segment that returns has two or more.
    chunks : list of Chunk
        The chunks, in their order, each with ``parent`` set to its parent's index in ``parents``.

    Raises
    ------
    ValueError
        If ``chunks`` is not a list of Chunk whose spans give their text in ``text``.

    Examples
    --------
    >>> from bpseg_pgm.chunks import Chunk, link_parents
    >>> text = "Rain today. Sun later. More rain."
    >>> chunks = [Chunk(text[a:b], a, b, (i,), s, 3, 0.9, ((a, b),))
    ...           for i, (a, b, s) in enumerate([(0, 11, 0), (12, 22, 1), (23, 33, 0)])]
    >>> parents, chunks = link_parents(chunks, text, count_tokens=lambda ts: [len(t.split()) for t in ts])
    >>> parents[0].spans, parents[0].children, [c.parent for c in chunks]
    (((0, 11), (23, 33)), (0, 2), [0, 1, 0])
    >>> parents[0].text
    'Rain today.\\n\\nMore rain.'
    """
    chunks = _checked(chunks, text)
    stretches = _stretches(chunks)
    segments = sorted(stretches)
    index = {segment: p for p, segment in enumerate(segments)}
    children: dict[int, list[int]] = {segment: [] for segment in segments}
    for i in sorted(range(len(chunks)), key=lambda i: (chunks[i].start, i)):
        children[chunks[i].segment].append(i)
    texts = [PIECE_SEPARATOR.join(text[a:b] for a, b in stretches[segment]) for segment in segments]
    counts = token_counter(count_tokens)(texts) if texts else []
    parents = []
    for segment, parent_text, n_tokens in zip(segments, texts, counts):
        own = [chunks[i] for i in children[segment]]
        weights = [len(c.sentences) for c in own]
        total = sum(weights)
        confidence = (
            sum(w * c.confidence for w, c in zip(weights, own)) / total
            if total
            else sum(c.confidence for c in own) / len(own)
        )
        spans = tuple(stretches[segment])
        parents.append(
            ParentChunk(
                text=parent_text,
                start=spans[0][0],
                end=spans[-1][1],
                spans=spans,
                segment=segment,
                children=tuple(children[segment]),
                sentences=tuple(sorted({i for c in own for i in c.sentences})),
                n_tokens=int(n_tokens),
                confidence=float(confidence),
                keywords=own[0].keywords,
                heading_path=own[0].heading_path,
            )
        )
    return parents, [replace(c, parent=index[c.segment]) for c in chunks]
