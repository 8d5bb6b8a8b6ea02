"""Overlap as context: the sentences around a chunk, embedded with it and never part of it.

Peers overlap their chunks (the same sentences in two chunks, so that each chunk's embedding sees its
surroundings).  BP-Seg's chunks never overlap: :func:`with_context` gives each chunk the ``context_sentences``
neighbouring sentences before and after it as ``context_before`` / ``context_after`` (exact slices of the
original text), so that ``Chunk.embed_text`` carries them while ``text``, ``start``, ``end`` and ``spans`` stay
those of the chunk.
"""

from __future__ import annotations

import bisect
from dataclasses import replace
from typing import Sequence

from bpseg_pgm.chunks.options import check_context_sentences
from bpseg_pgm.types.chunk import Chunk, Span

__all__ = ["with_context"]


def with_context(chunks: Sequence[Chunk], text: str, spans: Sequence[Span], context_sentences: int) -> list[Chunk]:
    """The chunks, each with the text of its ``context_sentences`` neighbouring sentences on either side.

    Parameters
    ----------
    chunks : list of Chunk
        Chunks of ``text``.
    text : str
        The original text.
    spans : list of (int, int)
        The sentences' ``(start, end)`` in ``text``, in reading order (``Segmentation.spans``).
    context_sentences : int
        How many sentences on each side, >= 0; 0 returns the chunks unchanged.

    Returns
    -------
    list of Chunk
        The chunks with ``context_before`` = ``text[a:chunk.start]``, where ``a`` is the start of the
        ``context_sentences``-th sentence starting before the chunk (a sentence the chunk starts inside counts:
        the part before the chunk is context), and ``context_after`` = ``text[chunk.end:b]``, where ``b`` is the
        end of the ``context_sentences``-th sentence ending after it; ``""`` at either end of the text.  Any
        segment's sentences are context, and only the chunk's first and last stretch have neighbours (a chunk of
        a non-contiguous segment gets the sentences before its first run and after its last).
    """
    n = check_context_sentences(context_sentences)
    if n == 0:
        return list(chunks)
    starts = [a for a, _ in spans]
    ends = [b for _, b in spans]
    out = []
    for c in chunks:
        k = bisect.bisect_left(starts, c.start)  # sentences 0..k-1 start before the chunk
        a = starts[max(0, k - n)] if k else c.start
        j = bisect.bisect_right(ends, c.end)  # sentences j.. end after it
        b = ends[min(len(ends), j + n) - 1] if j < len(ends) else c.end
        out.append(replace(c, context_before=text[a : c.start], context_after=text[c.end : max(b, c.end)]))
    return out
