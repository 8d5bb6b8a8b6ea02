"""From a segmentation to chunks: pieces of the original text with exact offsets and a token size.

A :class:`Chunk` is what a retrieval pipeline stores: its ``text``, where it sits in the
original (``start``, ``end``; ``text == original[start:end]`` for a contiguous chunk), which
sentences and which segment it holds, its length in the embedding model's tokens and its ``confidence``: the
mean of its sentences' calibrated confidences (``seg.confidence()``: the probability that each lies in its
segment), i.e. the expected fraction of the chunk's sentences that belong to the chunk's segment.  :func:`make_chunks` cuts a
segmentation (a :class:`~bpseg_pgm.text.segmentation.Segmentation`, or anything with its ``text``,
``spans``, ``labels``, ``segments``, ``beliefs`` and ``confidence()``) into chunks:

* ``contiguous=True`` (the default): each run of consecutive sentences of one segment is a
  chunk, in reading order; the chunks tile the text (only whitespace lies between them).
* ``contiguous=False``: each segment is a chunk, its runs joined by a blank line (``spans``
  lists the runs; ``start``/``end`` are those of the first and last).

``max_tokens`` caps a chunk's length in tokens (the model's tokens, special tokens included,
so ``max_tokens=256`` fits all-MiniLM-L6-v2's window).  The cap is hard (``hard_cap=True``, the
default): a sentence longer than the cap is first cut into pieces that fit, at the strongest
boundary available (a blank line, a line break, a sentence end inside a Markdown block, a clause
mark ``, ; :``, a space, and only then between two characters, never inside a grapheme), each
piece as long as the cap allows; every chunk is then checked on its exact text.  A run longer
than the cap is *packed*: cut into the fewest consecutive chunks whose estimated size fits, and among
those at the cheapest cuts (before a heading first, then at the *weakest links*, the lowest cosine
similarity between consecutive sentences; inside a unit last), an exact dynamic programme; a chunk
whose exact text is still over the cap is then cut at its weakest link, preferring cuts that leave
both halves within the cap, until every chunk fits; a cut inside a sentence is made only where a
part holds nothing but pieces of one sentence.  A line of several sentences (a segmentation made with
``lines=True``: its ``line_sentence_starts()``) is cut into its sentences first, so that a chunk may end inside
a line, a speaker's turn, where that saves a chunk.
``hard_cap=False`` keeps the former soft cap: a sentence longer than the cap stays whole.

``min_tokens`` (contiguous chunks only) merges a chunk shorter than that into a neighbour *of the same
segment* (a piece of the same run, cut for size), the one it is most similar to, when the merge fits
``max_tokens``.  It never merges across segments: a chunk's ``segment``,
``run``, ``keywords`` and ``confidence`` describe every sentence in it, so a short run
between two others stays a short chunk.  By default (None) ``min_tokens`` is a quarter of
``max_tokens`` (no merging without a cap); ``min_tokens=0`` turns merging off.

``markdown`` (None: :func:`~bpseg_pgm.chunks.markdown.looks_like_markdown` decides, unless the
segmentation says) reads the text as Markdown: sentences that share a code block, a table, an HTML
block or a list item are one unit, which no chunk boundary cuts unless the block alone is longer than
the cap (then it is cut like a long sentence, at line breaks first); the unit goes to the segment
holding most of its tokens.  A heading goes to the segment of what follows it, and when a chunk is cut
for size, or a small one merged, a boundary just before a heading is preferred.

``context_sentences`` (None, the default: ``Policy.chunk_context_sentences``, 1; 0: none) gives each chunk its
neighbouring sentences as the context
embedded with it, as many as the model's window holds beside the chunk
(:func:`~bpseg_pgm.chunks.context.with_context`); parent chunks, one per segment over its
chunks, are :func:`~bpseg_pgm.chunks.parents.link_parents`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

import numpy as np

from bpseg_pgm.chunks.context import with_context
from bpseg_pgm.chunks.markdown import looks_like_markdown, markdown_blocks
from bpseg_pgm.chunks.options import TokenCounter, check_chunk_options, check_context_sentences, checked_token_counter
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.types.chunk import PIECE_SEPARATOR, Chunk, Span
from bpseg_pgm.utils.labels import index_runs, label_runs
from bpseg_pgm.utils.spans import BLANK_LINE
from bpseg_pgm.utils.spans import trim_span as _trim
from bpseg_pgm.utils.validation import normalize_nonzero_rows

__all__ = ["make_chunks", "token_counter"]

# Where a piece too long for the cap may be cut, strongest first (each cut is after the match).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CLAUSE = re.compile(r"[,;:\u3001\uff0c\uff1b\uff1a)\]}](?=\s)|\s[-\u2013\u2014](?=\s)")
_SPACE = re.compile(r"\s+")

# between pieces: inside one unit (a long sentence or a Markdown block), between units, before a heading
_INSIDE, _BETWEEN, _HEADING = 0, 2, 3
# What a cut costs when a run is packed (a cut between units costs the cosine similarity across it, in [-1, 1]):
# one before a heading is cheaper than any other, one inside a unit dearer than any other.
_HEADING_CUT, _INSIDE_CUT = 2.0, 3.0


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
    return normalize_nonzero_rows(np.asarray(rows, dtype=float))


@dataclass
class _Units:
    """The units chunks are made of: sentences, or (Markdown) the sentences sharing a block glued together."""

    spans: list[Span]
    sentences: list[list[int]]
    headings: set[int] = field(default_factory=set)  # units that start a heading
    block_bounds: list[int] = field(default_factory=list)  # where Markdown blocks start and end


def _units(text: str, spans: list[Span], markdown: bool) -> _Units:
    if not markdown:
        return _Units(list(spans), [[i] for i in range(len(spans))])
    blocks = markdown_blocks(text)
    atomic = list(blocks.atomic)
    starts = [a for a, _ in atomic]

    def block_of(a: int, b: int) -> set[int]:
        j = bisect.bisect_right(starts, b - 1)  # blocks starting before b
        out = set()
        while j > 0 and atomic[j - 1][1] > a:
            out.add(j - 1)
            j -= 1
        return out

    unit_spans: list[Span] = []
    unit_sents: list[list[int]] = []
    prev: set[int] = set()
    for i, (a, b) in enumerate(spans):
        these = block_of(a, b)
        if unit_sents and these & prev:
            unit_spans[-1] = (unit_spans[-1][0], b)
            unit_sents[-1].append(i)
        else:
            unit_spans.append((a, b))
            unit_sents.append([i])
        prev = these
    heading_starts = {a for a, _ in blocks.headings}
    headings = {u for u, (a, _) in enumerate(unit_spans) if a in heading_starts}
    bounds = sorted({p for span in blocks.atomic + blocks.units for p in span})
    return _Units(unit_spans, unit_sents, headings, bounds)


class _Chunker:
    def __init__(
        self, seg: Any, counter: TokenCounter, max_tokens: int | None, *, hard_cap: bool = True, markdown: bool = False
    ):
        self.seg, self.counter, self.max_tokens = seg, counter, max_tokens
        self.text: str = seg.text
        spans = list(seg.spans)
        self.special = counter([""])[0]
        if hard_cap and max_tokens is not None and max_tokens <= self.special:
            raise ValueError(
                f"max_tokens={max_tokens} leaves no room for text: the model adds {self.special} "
                "special tokens to every chunk"
            )
        sent_rows = _unit_rows(seg)
        sent_labels = np.asarray(seg.labels, dtype=np.int64)
        sent_conf = np.asarray(seg.confidence(), dtype=float)
        units = _units(self.text, spans, markdown)
        sent_body = (
            np.maximum(np.asarray(counter([self.text[a:b] for a, b in spans] or []), dtype=np.int64) - self.special, 0)
            if spans
            else np.zeros(0, dtype=np.int64)
        )
        self._sent_spans = spans

        # one label per unit: the segment holding most of its tokens (empty sentences count 1); a heading
        # takes the label of what follows it
        n_units = len(units.spans)
        unit_labels = np.empty(n_units, dtype=np.int64)
        for u, sents in enumerate(units.sentences):
            unit_labels[u] = int(np.argmax(np.bincount(sent_labels[sents], weights=sent_body[sents] + 1)))
        for u in range(n_units - 2, -1, -1):  # backwards: a run of headings takes the label of the text after it
            if u in units.headings:
                unit_labels[u] = unit_labels[u + 1]

        # pieces: each unit whole, or cut to fit the cap; a line (``lines=True``) of several sentences is cut into
        # them, so that a chunk may end inside a line where that saves a chunk (a cut inside a unit costs most)
        unit_counts = counter([self.text[a:b] for a, b in units.spans]) if n_units else []
        line_sentences = getattr(seg, "line_sentence_starts", None)
        starts = line_sentences() if callable(line_sentences) and not markdown and max_tokens is not None else None
        self.piece_spans: list[Span] = []
        self.piece_unit: list[int] = []
        for u, (a, b) in enumerate(units.spans):
            inner = [c for c in starts[u] if a < c < b] if starts is not None else []
            if inner:
                bounds = [a, *inner, b]
                parts = [p for lo, hi in zip(bounds, bounds[1:]) if (p := _trim(self.text, lo, hi)) is not None]
                if hard_cap and unit_counts[u] > max_tokens:  # a sentence of the line may be over the cap itself
                    sizes = counter([self.text[p:q] for p, q in parts])
                    parts = [
                        c
                        for p, n in zip(parts, sizes)
                        for c in (self._cut_to_fit(*p, [], []) if n > max_tokens else [p])
                    ]
            elif hard_cap and max_tokens is not None and unit_counts[u] > max_tokens:
                inner = [spans[i][0] for i in units.sentences[u][1:]]
                parts = self._cut_to_fit(a, b, inner, units.block_bounds)
            else:
                parts = [(a, b)]
            self.piece_spans += parts
            self.piece_unit += [u] * len(parts)
        self.piece_unit_arr = np.asarray(self.piece_unit, dtype=np.int64)
        counts = counter([self.text[a:b] for a, b in self.piece_spans]) if self.piece_spans else []
        self.body = np.maximum(np.asarray(counts, dtype=np.int64) - self.special, 0)
        self.units = units
        self.labels = unit_labels[self.piece_unit_arr] if n_units else np.zeros(0, dtype=np.int64)
        rows = np.stack([sent_rows[s].mean(axis=0) for s in units.sentences]) if n_units else sent_rows[:0]
        self.rows = normalize_nonzero_rows(rows)[self.piece_unit_arr] if n_units else rows
        self.confidence = (
            (np.array([sent_conf[s].mean() for s in units.sentences]))[self.piece_unit_arr] if n_units else np.zeros(0)
        )
        # the boundary before each piece (index 0: none)
        self.rank = np.array(
            [
                _INSIDE
                if i and self.piece_unit[i] == self.piece_unit[i - 1]
                else _HEADING
                if self.piece_unit[i] in units.headings
                else _BETWEEN
                for i in range(len(self.piece_spans))
            ],
            dtype=np.int64,
        )
        self._exact: dict[tuple[int, ...], int] = {}

    # -- cutting one long unit into pieces that fit --------------------------------------------------
    def _count(self, a: int, b: int) -> int:
        return self.counter([self.text[a:b]])[0]

    def _cut_to_fit(self, a: int, b: int, sentence_starts: list[int], block_bounds: list[int]) -> list[Span]:
        """``text[a:b]`` (trimmed) cut into trimmed pieces of at most ``max_tokens`` tokens, at the strongest
        boundaries available (Markdown blocks' own bounds first), each piece as long as the cap allows."""
        levels: list[Callable[[int, int], list[int]]] = [
            lambda lo, hi: [c for c in block_bounds if lo < c < hi],
            lambda lo, hi: [m.end() for m in BLANK_LINE.finditer(self.text, lo, hi)],
            lambda lo, hi: [m.end() for m in _LINE_BREAK.finditer(self.text, lo, hi)],
            lambda lo, hi: [c for c in sentence_starts if lo < c < hi],
            lambda lo, hi: [m.end() for m in _CLAUSE.finditer(self.text, lo, hi)],
            lambda lo, hi: [m.end() for m in _SPACE.finditer(self.text, lo, hi)],
        ]
        return self._split(a, b, levels, 0)

    def _split(self, a: int, b: int, levels: list, level: int) -> list[Span]:
        span = _trim(self.text, a, b)
        if span is None:
            return []
        a, b = span
        if self._count(a, b) <= self.max_tokens:
            return [span]
        for lv in range(level, len(levels)):
            cuts = sorted({c for c in levels[lv](a, b) if a < c < b})
            if cuts:
                break
        else:
            return self._split_characters(a, b)
        parts = [p for lo, hi in zip([a, *cuts], [*cuts, b]) if (p := _trim(self.text, lo, hi)) is not None]
        sizes = np.maximum(
            np.asarray(self.counter([self.text[p:q] for p, q in parts]), dtype=np.int64) - self.special, 0
        )
        out: list[Span] = []
        i = 0
        while i < len(parts):
            # the most parts from i whose estimated size fits, then checked on the exact text
            j, total = i + 1, int(sizes[i])
            while j < len(parts) and total + int(sizes[j]) + self.special <= self.max_tokens:
                total += int(sizes[j])
                j += 1
            while j > i + 1 and self._count(parts[i][0], parts[j - 1][1]) > self.max_tokens:
                j -= 1
            if j == i + 1:
                out += self._split(parts[i][0], parts[i][1], levels, lv + 1)
            else:
                out.append((parts[i][0], parts[j - 1][1]))
            i = j
        return out

    def _split_characters(self, a: int, b: int) -> list[Span]:
        """Cut between grapheme clusters (never inside one: emoji sequences, combining marks, CRLF), each
        piece the longest prefix that fits (binary search on the exact count)."""
        import regex

        bounds = [m.end() for m in regex.finditer(r"\X", self.text[a:b])]
        out: list[Span] = []
        start = a
        while start < b:
            # largest k with count(text[start:a + bounds[k]]) <= cap
            first = bisect.bisect_right(bounds, start - a)
            left, right = first, len(bounds) - 1
            if self._count(start, a + bounds[first]) > self.max_tokens:
                raise ValueError(
                    f"max_tokens={self.max_tokens} is too small: the character "
                    f"{self.text[start : a + bounds[first]]!r} alone is "
                    f"{self._count(start, a + bounds[first])} tokens"
                )
            while left < right:
                mid = (left + right + 1) // 2
                if self._count(start, a + bounds[mid]) <= self.max_tokens:
                    left = mid
                else:
                    right = mid - 1
            piece = _trim(self.text, start, a + bounds[left])
            if piece is not None:
                out.append(piece)
            start = a + bounds[left]
            while start < b and self.text[start].isspace():
                start += 1
        return out

    # -- text and sizes of a group of pieces ---------------------------------------------------
    def group_spans(self, group: Sequence[int]) -> tuple[Span, ...]:
        return tuple((self.piece_spans[run[0]][0], self.piece_spans[run[-1]][1]) for run in index_runs(group))

    def group_text(self, group: Sequence[int]) -> str:
        return PIECE_SEPARATOR.join(self.text[a:b] for a, b in self.group_spans(group))

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

    def boundary(self, i: int, j: int) -> int:
        """The rank of the boundary between pieces ``i`` and ``j`` (``i < j``)."""
        return int(self.rank[j]) if j == i + 1 else _BETWEEN

    # -- splitting ----------------------------------------------------------------------------------
    def cut(self, group: list[int]) -> int | None:
        """Where to cut ``group`` (an index 1..len-1), or None when it holds only pieces of one unit: among the
        cuts between units, the preferred sizes first, then a heading, then the weakest link, then balance."""
        cap = self.max_tokens
        cuts = np.arange(1, len(group))
        ranks = np.array([self.boundary(group[c - 1], group[c]) for c in cuts])
        if ranks.max() == _INSIDE:
            return None
        prefix = np.concatenate([[0], np.cumsum(self.body[group])])
        total = int(prefix[-1])
        left, right = prefix[cuts] + self.special, total - prefix[cuts] + self.special
        links = np.array([self.link(group[c - 1], group[c]) for c in cuts])
        between = ranks > _INSIDE
        for allowed in (
            between & (left <= cap) & (right <= cap),
            between & (left >= cap / 2) & (right >= cap / 2),
            between,
        ):
            if allowed.any():
                break
        balance = np.abs(prefix[cuts] - total / 2)
        best = min(np.flatnonzero(allowed), key=lambda c: (ranks[c] != _HEADING, links[c], balance[c]))
        return int(cuts[best])

    def pack(self, group: list[int]) -> list[list[int]]:
        """``group`` in the fewest consecutive parts whose estimated size fits ``max_tokens`` (each part's pieces'
        tokens plus the special tokens once) and, among those, cut where the cuts cost least: before a heading
        first, then at the weakest links (cosine similarity of the pieces either side), a cut inside one unit last.
        An exact dynamic programme over the cuts; a single piece is always a part (too long only with the soft cap).
        """
        n, room = len(group), self.max_tokens - self.special
        prefix = np.concatenate([[0], np.cumsum(self.body[group])])
        cost = np.zeros(n)
        for c in range(1, n):
            rank = self.boundary(group[c - 1], group[c])
            link = self.link(group[c - 1], group[c])
            cost[c] = _INSIDE_CUT if rank == _INSIDE else link - (_HEADING_CUT if rank == _HEADING else 0.0)
        best: list[tuple[int, float]] = [(0, 0.0)] + [(n + 1, 0.0)] * n
        back = [0] * (n + 1)
        lo = 0
        for j in range(1, n + 1):
            while prefix[j] - prefix[lo] > room and lo < j - 1:
                lo += 1
            for i in range(lo, j):
                score = (best[i][0] + 1, best[i][1] + cost[i])
                if score < best[j]:
                    best[j], back[j] = score, i
        cuts, j = [], n
        while j > 0:
            cuts.append(j)
            j = back[j]
        bounds = [0, *reversed(cuts)]
        return [group[a:b] for a, b in zip(bounds, bounds[1:])]

    def fit(self, group: list[int]) -> list[list[int]]:
        """``group`` cut until every part fits ``max_tokens`` (with the soft cap: every part of two or more units):
        :meth:`pack`, then a part whose exact size is still over the cap cut at its weakest link (:meth:`cut`)."""
        if self.max_tokens is None:
            return [group]
        done: list[list[int]] = []
        stack = [(group, False)]
        while stack:
            g, packed = stack.pop()
            if len(g) == 1 or self.exact(g) <= self.max_tokens:
                done.append(g)
                continue
            if not packed:
                stack += [(p, True) for p in reversed(self.pack(g))]  # the first part is taken next
                continue
            c = self.cut(g)
            if c is None:  # pieces of one long unit, each made to fit
                done += [[p] for p in g]
                continue
            stack += [(g[c:], True), (g[:c], True)]  # the left part is taken next: reading order is kept
        return done

    # -- merging --------------------------------------------------------------------------------
    def same_segment(self, a: list[int], b: list[int]) -> bool:
        """Whether the pieces of ``a`` and ``b`` all belong to one segment (what a merged chunk may hold)."""
        return len(set(self.labels[a].tolist()) | set(self.labels[b].tolist())) == 1

    def merge_small(self, groups: list[list[int]], min_tokens: int) -> list[list[int]]:
        """Merge each contiguous chunk below ``min_tokens`` into the neighbour of its own segment it is most
        similar to (not across a heading when the other side is possible), smallest first, when the merged chunk
        fits ``max_tokens``; never into a neighbour of another segment, whose label the merged chunk could not
        carry for all its sentences."""
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
                if 0 <= j < len(groups) and self.same_segment(groups[i], groups[j]):
                    a, b = sorted((i, j))
                    merged = groups[a] + groups[b]
                    if self.max_tokens is None or self.exact(merged) <= self.max_tokens:
                        heading = self.boundary(groups[a][-1], groups[b][0]) == _HEADING
                        options.append((heading, -self.link(groups[a][-1], groups[b][0]), a, merged))
            if not options:
                stuck.add(tuple(groups[i]))
                continue
            *_, a, merged = min(options)
            groups[a : a + 2] = [merged]

    # -- output ---------------------------------------------------------------------------------
    def chunk(self, group: list[int]) -> Chunk:
        spans = self.group_spans(group)
        sentences = sorted(
            {i for p in dict.fromkeys(self.piece_unit[p] for p in group) for i in self.units.sentences[p]}
        )
        tokens = np.bincount(self.labels[group], weights=self.body[group] + 1)  # +1: empty pieces count
        return Chunk(
            text=self.group_text(group),
            start=spans[0][0],
            end=spans[-1][1],
            sentences=tuple(int(i) for i in sentences),
            segment=int(np.argmax(tokens)),
            n_tokens=self.exact(group),
            confidence=float(self.confidence[group].mean()),
            spans=spans,
        )


def resolve_markdown(seg: Any, markdown: Any) -> bool:
    """``markdown`` as a bool: as given, else what the segmentation says (its ``markdown``), else a guess from
    its text (:func:`~bpseg_pgm.chunks.markdown.looks_like_markdown`)."""
    if markdown is None:
        markdown = getattr(seg, "markdown", None)
    if markdown is None:
        return looks_like_markdown(getattr(seg, "text", None) or "")
    if not isinstance(markdown, (bool, np.bool_)):
        raise ValueError(f"markdown must be True, False or None, got {markdown!r}")
    return bool(markdown)


def make_chunks(
    seg: Any,
    max_tokens: int | None = None,
    contiguous: bool = True,
    *,
    min_tokens: int | None = None,
    count_tokens: Callable[[list[str]], list[int]] | None = None,
    hard_cap: bool = True,
    markdown: bool | None = None,
    context_sentences: int | None = None,
) -> list[Chunk]:
    """Cut a :class:`~bpseg_pgm.text.segmentation.Segmentation` into :class:`~bpseg_pgm.types.chunk.Chunk` objects.

    ``contiguous=True``: runs of consecutive sentences of one segment, in reading order.
    ``contiguous=False``: one chunk per segment (split further when over ``max_tokens``), by
    segment and then reading order.  ``max_tokens``: the largest chunk, in the embedding model's tokens
    (special tokens included); a hard cap unless ``hard_cap=False`` (then a sentence longer than the cap
    stays whole).  ``min_tokens``: merge smaller contiguous chunks into a neighbour of the same segment
    (None: a quarter of ``max_tokens``; 0: no merging).  ``markdown``: respect Markdown blocks and headings (None: decided from
    the text).  ``count_tokens``, a function from a list of str to a list of int, replaces the model's
    tokenizer.  ``context_sentences`` (an int >= 0; 0: none; None: the segmentation's policy's
    ``chunk_context_sentences``, 1 as shipped) sets each chunk's ``context_before`` and
    ``context_after``, up to that many neighbouring sentences on each side, for ``Chunk.embed_text``: with the
    model's tokenizer, only those that fit the model's window (``max_seq_length``) beside the whole chunk, nearest
    first (:func:`~bpseg_pgm.chunks.context.with_context`); with a ``count_tokens`` of your own, all of them.  The
    chunks themselves (text, offsets, sizes, cuts) are the same with or without it.  See the module's description.

    A chunk cut out of a sentence longer than the cap lists that sentence in ``sentences``, as do the other
    chunks cut from it.
    """
    max_tokens, min_tokens = check_chunk_options(max_tokens, contiguous, min_tokens)
    context_sentences = check_context_sentences(context_sentences)
    if context_sentences is None:  # the policy the segmentation was fitted with, else the shipped one
        policy = getattr(seg, "policy", None)
        context_sentences = (policy if isinstance(policy, Policy) else DEFAULT_POLICY).chunk_context_sentences
    if not isinstance(hard_cap, (bool, np.bool_)):
        raise ValueError(f"hard_cap must be True or False, got {hard_cap!r}")
    markdown = resolve_markdown(seg, markdown)
    counter = token_counter(count_tokens, getattr(seg, "embedder", None), getattr(seg, "model", None))
    chunker = _Chunker(seg, counter, max_tokens, hard_cap=bool(hard_cap), markdown=markdown)
    if contiguous:
        groups = label_runs(chunker.labels)
    else:
        groups = [np.flatnonzero(chunker.labels == j).tolist() for j in np.unique(chunker.labels)]
    groups = [part for g in groups if len(g) for part in chunker.fit(g)]
    if contiguous and min_tokens is None and max_tokens is not None:
        min_tokens = max(1, max_tokens // 4)
    if contiguous and min_tokens:
        groups = chunker.merge_small(groups, min_tokens)
    chunks = _with_levels(seg, [chunker.chunk(g) for g in groups])
    if not context_sentences:
        return chunks
    # the model's own counter (an Embedder's bound count_tokens) knows its window; a user's counter does not
    window = getattr(getattr(counter, "__self__", None), "max_seq_length", None)
    return with_context(chunks, chunker.text, list(seg.spans), context_sentences, count_tokens=counter, window=window)


def _with_levels(seg: Any, chunks: list[Chunk]) -> list[Chunk]:
    """The chunks with their run, their segment's keywords and their first sentence's heading path,
    where the segmentation has them (``run_labels``, ``segment_keywords()`` and ``heading_paths``, as a
    :class:`~bpseg_pgm.text.segmentation.Segmentation`)."""
    contiguous = getattr(seg, "run_labels", None)
    keywords = getattr(seg, "segment_keywords", None)
    paths = getattr(seg, "heading_paths", None)
    if contiguous is None and not callable(keywords) and paths is None:
        return chunks
    labels = np.asarray(seg.labels)
    segment_words = keywords() if callable(keywords) else None
    out = []
    for c in chunks:
        run = None
        if contiguous is not None and c.sentences:
            own = [i for i in c.sentences if labels[i] == c.segment] or list(c.sentences)
            run = int(np.bincount(np.asarray(contiguous)[own]).argmax())  # most of them; ties: the first
        words = tuple(segment_words[c.segment]) if segment_words is not None and c.segment < len(segment_words) else ()
        path = tuple(paths[c.sentences[0]]) if paths is not None and c.sentences else ()
        out.append(replace(c, run=run, keywords=words, heading_path=path))
    return out
