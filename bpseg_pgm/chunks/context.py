"""Overlap as context: the sentences around a chunk, embedded with it and never part of it.

Peers overlap their chunks (the same sentences in two chunks, so that each chunk's embedding sees its
surroundings).  BP-Seg's chunks never overlap: :func:`with_context` gives each chunk the ``context_sentences``
neighbouring sentences before and after it as ``context_before`` / ``context_after`` (exact slices of the
original text), so that ``Chunk.embed_text`` carries them while ``text``, ``start``, ``end`` and ``spans`` stay
those of the chunk.  Given the model's window, only the neighbours that fit in it beside the whole chunk are
kept, so that the context never pushes the chunk's own text out of what the model reads.
"""

from __future__ import annotations

import bisect
from dataclasses import replace
from typing import Sequence

from bpseg_pgm.chunks.options import TokenCounter, check_context_sentences
from bpseg_pgm.types.chunk import Chunk, Span

__all__ = ["with_context"]


def with_context(
    chunks: Sequence[Chunk],
    text: str,
    spans: Sequence[Span],
    context_sentences: int,
    *,
    count_tokens: TokenCounter | None = None,
    window: int | None = None,
) -> list[Chunk]:
    """The chunks, each with the text of up to ``context_sentences`` neighbouring sentences on either side.

    Parameters
    ----------
    chunks : list of Chunk
        Chunks of ``text``.
    text : str
        The original text.
    spans : list of (int, int)
        The sentences' ``(start, end)`` in ``text``, in reading order (``Segmentation.spans``).
    context_sentences : int
        How many sentences on each side at most, >= 0; 0 returns the chunks unchanged.
    count_tokens : callable, optional
        The embedding model's token counter (special tokens included), with ``window``.
    window : int, optional
        The most tokens the embedding model reads (``Embedder.max_seq_length``).  With it, the context never
        pushes the chunk's own text out of the window: neighbours are added whole, nearest first and the two
        sides in turn (before, then after), while ``embed_text`` fits; a side stops at the first that does not.
        None: all ``context_sentences`` on each side.

    Returns
    -------
    list of Chunk
        The chunks with ``context_before`` = ``text[a:chunk.start]``, where ``a`` is the start of the last
        sentence kept before the chunk (a sentence the chunk starts inside counts: the part before the chunk is
        context), and ``context_after`` = ``text[chunk.end:b]``, where ``b`` is the end of the last sentence kept
        after it; ``""`` where none is (at either end of the text, or no room in the window).  Any segment's
        sentences are context, and only the chunk's first and last stretch have neighbours (a chunk of a
        non-contiguous segment gets the sentences before its first run and after its last).
    """
    n = check_context_sentences(context_sentences)
    if n == 0:
        return list(chunks)
    starts = [a for a, _ in spans]
    ends = [b for _, b in spans]
    sides = []
    for c in chunks:
        k = bisect.bisect_left(starts, c.start)  # sentences 0..k-1 start before the chunk
        before = [starts[i] for i in range(k - 1, max(0, k - n) - 1, -1)]  # where each context start would be
        j = bisect.bisect_right(ends, c.end)  # sentences j.. end after it
        after = [max(ends[i], c.end) for i in range(j, min(len(ends), j + n))]
        sides.append((before, after))
    if count_tokens is not None and window is not None:
        sides = _within_window(chunks, text, sides, count_tokens, window)
    out = []
    for c, (before, after) in zip(chunks, sides):
        a = before[-1] if before else c.start
        b = after[-1] if after else c.end
        out.append(replace(c, context_before=text[a : c.start], context_after=text[c.end : b]))
    return out


def _within_window(chunks, text, sides, count_tokens, window):
    """``sides`` cut to the neighbours that fit: for each chunk, the sentences before and after it (given by where
    the context would start or end), taken nearest first, before and after in turn, while the chunk's tokens and
    the context's fit ``window``; each neighbour counted alone, less the special tokens."""
    pieces = []
    for c, (before, after) in zip(chunks, sides):
        pieces += [text[a:z] for a, z in zip(before, [c.start, *before])]
        pieces += [text[z:b] for z, b in zip([c.end, *after], after)]
    special = count_tokens([""])[0]
    counts = iter(t - special for t in count_tokens(pieces)) if pieces else iter(())
    kept = []
    for c, (before, after) in zip(chunks, sides):
        cost_before = [next(counts) for _ in before]
        cost_after = [next(counts) for _ in after]
        room = window - c.n_tokens
        keep = [0, 0]
        open_ = [True, True]
        for d in range(max(len(before), len(after))):
            for side, cost in enumerate((cost_before, cost_after)):
                if open_[side] and d < len(cost) and cost[d] <= room:
                    room -= cost[d]
                    keep[side] += 1
                else:
                    open_[side] = False
        kept.append((before[: keep[0]], after[: keep[1]]))
    return kept
