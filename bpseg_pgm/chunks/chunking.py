"""From a segmentation to chunks: pieces of the original text with exact offsets and a token size.

A :class:`Chunk` is what a retrieval pipeline stores: its ``text``, where it sits in the
original (``start``, ``end``; ``text == original[start:end]`` for a contiguous chunk), which
sentences and which segment it holds, its length in the embedding model's tokens and how sure
BP-Seg was of its sentences.  :func:`make_chunks` cuts a
segmentation (a :class:`~bpseg_pgm.text.segmentation.Segmentation`, or anything with its ``text``,
``spans``, ``labels``, ``segments``, ``beliefs`` and ``confidence()``) into chunks:

* ``contiguous=True`` (the default): each run of consecutive sentences of one segment is a
  chunk, in reading order; the chunks tile the text (only whitespace lies between them).
* ``contiguous=False``: each segment is a chunk, its runs joined by a blank line (``spans``
  lists the runs; ``start``/``end`` are those of the first and last).

``max_tokens`` caps a chunk's length in tokens (the model's tokens, special tokens included,
so ``max_tokens=256`` fits all-MiniLM-L6-v2's window): a longer chunk is cut between two of its
sentences, at its *weakest link* (the lowest cosine similarity between consecutive sentences of
the chunk), preferring cuts that leave both halves within the cap, else cuts that leave each
half at least half the cap, and again until every chunk of two or more sentences fits (this is
checked on the exact text of each chunk).  A single sentence longer than the cap is kept whole:
chunks never cut inside a sentence.  ``min_tokens`` (contiguous chunks only) merges a chunk
shorter than that into the neighbour it is most similar to, when the merge fits ``max_tokens``;
a merged chunk's ``segment`` is the one holding most of its tokens.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from bpseg_pgm.chunks.options import TokenCounter, check_chunk_options, checked_token_counter
from bpseg_pgm.types.chunk import PIECE_SEPARATOR, Chunk, Span
from bpseg_pgm.utils.labels import index_runs, label_runs

__all__ = ["make_chunks", "token_counter"]


def token_counter(count_tokens: Any = None, embedder: Any = None, model: Any = None) -> TokenCounter:
    """``count_tokens`` (checked) if given, else the tokenizer of ``embedder``, else that of a new
    :class:`~bpseg_pgm.embeddings.Embedder` for ``model`` (None: the bundled default model)."""
    if count_tokens is not None:
        return checked_token_counter(count_tokens)
    if embedder is None or not callable(getattr(embedder, "count_tokens", None)):
        from bpseg_pgm.embeddings import Embedder

        embedder = Embedder(model)
    return embedder.count_tokens


def _unit_rows(seg: Any) -> np.ndarray:
    """Rows whose dot products measure how strongly two sentences belong together: the embeddings,
    or (for a segmentation built without them) the belief vectors."""
    rows = seg.embeddings if getattr(seg, "embeddings", None) is not None else seg.beliefs
    rows = np.asarray(rows, dtype=float)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)


class _Chunker:
    def __init__(self, seg: Any, counter: TokenCounter, max_tokens: int | None):
        self.seg, self.counter, self.max_tokens = seg, counter, max_tokens
        self.text: str = seg.text
        self.spans: list[Span] = list(seg.spans)
        counts = counter([self.text[a:b] for a, b in self.spans] + [""])
        self.special = counts[-1]
        self.body = np.maximum(np.asarray(counts[:-1], dtype=np.int64) - self.special, 0)
        self.rows = _unit_rows(seg)
        self.labels = np.asarray(seg.labels, dtype=np.int64)
        self.confidence = np.asarray(seg.confidence(), dtype=float)
        self._exact: dict[tuple[int, ...], int] = {}

    # -- text and sizes of a group of sentences ---------------------------------------------------
    def piece_spans(self, group: Sequence[int]) -> tuple[Span, ...]:
        return tuple((self.spans[run[0]][0], self.spans[run[-1]][1]) for run in index_runs(group))

    def group_text(self, group: Sequence[int]) -> str:
        return PIECE_SEPARATOR.join(self.text[a:b] for a, b in self.piece_spans(group))

    def estimate(self, group: Sequence[int]) -> int:
        return int(self.body[list(group)].sum()) + self.special

    def exact(self, group: Sequence[int]) -> int:
        key = tuple(group)
        if key not in self._exact:
            self._exact[key] = self.counter([self.group_text(group)])[0]
        return self._exact[key]

    def exact_many(self, groups: list[list[int]]) -> list[int]:
        todo = [g for g in dict.fromkeys(map(tuple, groups)) if g not in self._exact]
        if todo:
            self._exact.update(zip(todo, self.counter([self.group_text(g) for g in todo])))
        return [self._exact[tuple(g)] for g in groups]

    def link(self, i: int, j: int) -> float:
        return float(self.rows[i] @ self.rows[j])

    # -- splitting ----------------------------------------------------------------------------------
    def cut(self, group: list[int]) -> int:
        """Where to cut ``group`` (an index 1..len-1): its weakest link among the preferred cuts."""
        cap = self.max_tokens
        prefix = np.concatenate([[0], np.cumsum(self.body[group])])
        total = int(prefix[-1])
        cuts = np.arange(1, len(group))
        left, right = prefix[cuts] + self.special, total - prefix[cuts] + self.special
        links = np.array([self.link(group[c - 1], group[c]) for c in cuts])
        for allowed in ((left <= cap) & (right <= cap), (left >= cap / 2) & (right >= cap / 2)):
            if allowed.any():
                break
        else:
            allowed = np.ones(len(cuts), dtype=bool)
        balance = np.abs(prefix[cuts] - total / 2)
        best = min(np.flatnonzero(allowed), key=lambda c: (links[c], balance[c]))
        return int(cuts[best])

    def fit(self, group: list[int]) -> list[list[int]]:
        """``group`` cut until every part of two or more sentences has at most ``max_tokens`` tokens."""
        if self.max_tokens is None:
            return [group]
        done: list[list[int]] = []
        stack = [group]
        while stack:
            g = stack.pop()
            if len(g) == 1 or self.exact(g) <= self.max_tokens:
                done.append(g)
                continue
            c = self.cut(g)
            stack += [g[c:], g[:c]]  # the left part is taken next: reading order is kept
        return done

    # -- merging --------------------------------------------------------------------------------
    def merge_small(self, groups: list[list[int]], min_tokens: int) -> list[list[int]]:
        """Merge each contiguous chunk below ``min_tokens`` into the neighbour it is most similar to,
        smallest first, when the merged chunk fits ``max_tokens``."""
        groups = [list(g) for g in groups]
        stuck: set[tuple[int, ...]] = set()
        while True:
            sizes = self.exact_many(groups)
            small = [i for i, n in enumerate(sizes) if n < min_tokens and tuple(groups[i]) not in stuck]
            if not small:
                return groups
            i = min(small, key=lambda i: (sizes[i], i))
            options = []
            for j in (i - 1, i + 1):
                if 0 <= j < len(groups):
                    a, b = sorted((i, j))
                    merged = groups[a] + groups[b]
                    if self.max_tokens is None or self.exact(merged) <= self.max_tokens:
                        options.append((-self.link(groups[a][-1], groups[b][0]), a, merged))
            if not options:
                stuck.add(tuple(groups[i]))
                continue
            _, a, merged = min(options)
            groups[a:a + 2] = [merged]

    # -- output ---------------------------------------------------------------------------------
    def chunk(self, group: list[int]) -> Chunk:
        spans = self.piece_spans(group)
        tokens = np.bincount(self.labels[group], weights=self.body[group] + 1)  # +1: empty sentences count
        return Chunk(
            text=self.group_text(group),
            start=spans[0][0],
            end=spans[-1][1],
            sentences=tuple(int(i) for i in group),
            segment=int(np.argmax(tokens)),
            n_tokens=self.exact(group),
            confidence=float(self.confidence[group].mean()),
            spans=spans,
        )


def make_chunks(
    seg: Any,
    max_tokens: int | None = None,
    contiguous: bool = True,
    *,
    min_tokens: int | None = None,
    count_tokens: Callable[[list[str]], list[int]] | None = None,
) -> list[Chunk]:
    """Cut a :class:`~bpseg_pgm.text.segmentation.Segmentation` into :class:`~bpseg_pgm.types.chunk.Chunk` objects.

    ``contiguous=True``: runs of consecutive sentences of one segment, in reading order.
    ``contiguous=False``: one chunk per segment (split further when over ``max_tokens``), by
    segment and then reading order.  ``max_tokens``: the largest chunk of two or more sentences,
    in the embedding model's tokens (special tokens included); ``min_tokens``: merge smaller
    contiguous chunks into a neighbour (see the module's description).  ``count_tokens``, a
    function from a list of str to a list of int, replaces the model's tokenizer.
    """
    max_tokens, min_tokens = check_chunk_options(max_tokens, contiguous, min_tokens)
    counter = token_counter(count_tokens, getattr(seg, "embedder", None), getattr(seg, "model", None))
    chunker = _Chunker(seg, counter, max_tokens)
    if contiguous:
        groups = label_runs(chunker.labels)
    else:
        groups = [list(g) for g in seg.segments if len(g)]
    groups = [part for g in groups for part in chunker.fit(g)]
    if min_tokens is not None:
        groups = chunker.merge_small(groups, min_tokens)
    return [chunker.chunk(g) for g in groups]
