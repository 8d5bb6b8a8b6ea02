"""From a segmentation to chunks: pieces of the original text with exact offsets and a token size.

A :class:`Chunk` is what a retrieval pipeline stores: its ``text``, where it sits in the
original (``start``, ``end``; ``text == original[start:end]`` for a contiguous chunk), which
sentences and which segment it holds, its length in the embedding model's tokens and how sure
BP-Seg was of its sentences.  :func:`make_chunks` cuts a
:class:`~bpseg_pgm.text.pipeline.Segmentation` into chunks:

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

import numbers
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable, Iterable, Sequence

import numpy as np

__all__ = ["Chunk", "make_chunks", "chunk_texts", "PIECE_SEPARATOR"]

Span = tuple[int, int]
TokenCounter = Callable[[list[str]], list[int]]

#: Between the runs of a non-contiguous chunk's text.
PIECE_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class Chunk:
    """A piece of a text: ``text``, its place ``start``/``end`` in the original, its sentences and segment.

    ``sentences`` are 0-based sentence indices in reading order; ``segment`` is the 0-based
    segment (the one holding most of the chunk's tokens); ``n_tokens`` is the length of ``text``
    in the embedding model's tokens (special tokens included); ``confidence`` is the mean BP
    belief of its sentences in their own segments (1.0 for a text of one sentence).  ``spans``
    lists the chunk's runs of consecutive sentences, ``(start, end)`` each: one for a contiguous
    chunk, where ``text == original[start:end]``; several for a chunk of a non-contiguous
    segment, whose ``text`` is the runs as written joined by a blank line.
    """

    text: str
    start: int
    end: int
    sentences: tuple[int, ...]
    segment: int
    n_tokens: int
    confidence: float
    spans: tuple[Span, ...]

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
        }


def _check_count(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be a positive int or None, got {value!r}")
    return int(value)


def _check_options(max_tokens: Any, contiguous: Any, min_tokens: Any) -> tuple[int | None, int | None]:
    max_tokens = _check_count(max_tokens, "max_tokens")
    min_tokens = _check_count(min_tokens, "min_tokens")
    if not isinstance(contiguous, (bool, np.bool_)):
        raise ValueError(f"contiguous must be True or False, got {contiguous!r}")
    if min_tokens is not None and not contiguous:
        raise ValueError("min_tokens merges neighbouring chunks, which needs contiguous=True")
    if min_tokens is not None and max_tokens is not None and min_tokens > max_tokens:
        raise ValueError(f"min_tokens ({min_tokens}) is larger than max_tokens ({max_tokens})")
    return max_tokens, min_tokens


def _checked_counter(count_tokens: Any) -> TokenCounter:
    if not callable(count_tokens):
        raise ValueError(f"count_tokens must be a function from a list of str to a list of int, got {count_tokens!r}")

    def count(texts: list[str]) -> list[int]:
        out = list(count_tokens(texts))
        if len(out) != len(texts) or not all(
            isinstance(n, numbers.Integral) and not isinstance(n, bool) and n >= 0 for n in out
        ):
            raise ValueError("count_tokens must return one non-negative int per text")
        return [int(n) for n in out]

    return count


def _token_counter(seg: Any, count_tokens: Any) -> TokenCounter:
    """``count_tokens`` if given, else the tokenizer of the segmentation's embedding model."""
    if count_tokens is not None:
        return _checked_counter(count_tokens)
    embedder = getattr(seg, "embedder", None)
    if embedder is None or not callable(getattr(embedder, "count_tokens", None)):
        from bpseg_pgm.embeddings import Embedder

        embedder = Embedder(seg.model)  # None: the bundled default model
    return embedder.count_tokens


def _unit_rows(seg: Any) -> np.ndarray:
    """Rows whose dot products measure how strongly two sentences belong together: the embeddings,
    or (for a segmentation built without them) the belief vectors."""
    rows = seg.embeddings if getattr(seg, "embeddings", None) is not None else seg.beliefs
    rows = np.asarray(rows, dtype=float)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)


def _runs(indices: Sequence[int]) -> list[list[int]]:
    """``indices`` (increasing) cut into runs of consecutive integers."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


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
        return tuple((self.spans[run[0]][0], self.spans[run[-1]][1]) for run in _runs(group))

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
    """Cut a :class:`~bpseg_pgm.text.pipeline.Segmentation` into :class:`Chunk` objects.

    ``contiguous=True``: runs of consecutive sentences of one segment, in reading order.
    ``contiguous=False``: one chunk per segment (split further when over ``max_tokens``), by
    segment and then reading order.  ``max_tokens``: the largest chunk of two or more sentences,
    in the embedding model's tokens (special tokens included); ``min_tokens``: merge smaller
    contiguous chunks into a neighbour (see the module's description).  ``count_tokens``, a
    function from a list of str to a list of int, replaces the model's tokenizer.
    """
    max_tokens, min_tokens = _check_options(max_tokens, contiguous, min_tokens)
    chunker = _Chunker(seg, _token_counter(seg, count_tokens), max_tokens)
    if contiguous:
        groups = _runs_of_labels(chunker.labels)
    else:
        groups = [list(g) for g in seg.segments if len(g)]
    groups = [part for g in groups for part in chunker.fit(g)]
    if min_tokens is not None:
        groups = chunker.merge_small(groups, min_tokens)
    return [chunker.chunk(g) for g in groups]


def _runs_of_labels(labels: np.ndarray) -> list[list[int]]:
    """Sentence indices cut wherever the label changes."""
    groups: list[list[int]] = []
    for i, label in enumerate(labels.tolist()):
        if groups and labels[groups[-1][-1]] == label:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def chunk_texts(
    texts: Iterable[str],
    max_tokens: int | None = None,
    contiguous: bool = True,
    *,
    min_tokens: int | None = None,
    n_segments: int | str = "auto",
    lines: bool = False,
    model: Any = None,
    embedder: Any = None,
    cache_dir: Any = None,
    show_progress: bool | None = None,
    bpseg_params: dict[str, Any] | None = None,
    **more_bpseg_params: Any,
) -> list[list[Chunk]]:
    """Chunks of many texts: one list of :class:`Chunk` per text, with one embedding batch for all.

    Unlike :func:`~bpseg_pgm.text.pipeline.segment_texts` this accepts any text: an empty or
    whitespace-only text gives no chunk, a text of one sentence gives one chunk (segment 0,
    confidence 1.0), and a k larger than a text's number of sentences becomes that number.
    The framework adapters (:mod:`bpseg_pgm.integrations`) are built on it.  BPSeg's parameters
    come as keyword arguments or, for names taken here (BPSeg's own ``contiguous``), in ``bpseg_params``.
    """
    if bpseg_params is not None and not isinstance(bpseg_params, dict):
        raise ValueError(f"bpseg_params must be a dict, got {type(bpseg_params).__name__}")
    bpseg_params = {**(bpseg_params or {}), **more_bpseg_params}
    from bpseg_pgm.utils.validation import check_unicode
    from bpseg_pgm.text.pipeline import _embedder, segment_texts
    from bpseg_pgm.text.split import sentence_spans

    max_tokens, min_tokens = _check_options(max_tokens, contiguous, min_tokens)
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Iterable):
        raise ValueError("texts must be a list of str")
    texts = list(texts)
    n_spans = []
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise ValueError(f"texts[{i}]: text must be a str, got {type(text).__name__}")
        try:
            check_unicode(text)
        except ValueError as exc:
            raise ValueError(f"texts[{i}]: {exc}") from None
        n_spans.append(len(sentence_spans(text, lines=lines)))
    embedder = _embedder(embedder, model, cache_dir, show_progress)
    many = [i for i, n in enumerate(n_spans) if n >= 2]
    ks = [n_segments if not isinstance(n_segments, numbers.Integral) or isinstance(n_segments, bool)
          else min(int(n_segments), n_spans[i]) for i in many]
    segs = segment_texts([texts[i] for i in many], ks, lines=lines, embedder=embedder, **bpseg_params) if many else []
    by_text = dict(zip(many, segs))
    counter = _token_counter(SimpleNamespace(embedder=embedder, model=getattr(embedder, "model_name", None)), None)
    out: list[list[Chunk]] = []
    for i, text in enumerate(texts):
        if i in by_text:
            out.append(make_chunks(by_text[i], max_tokens, contiguous, min_tokens=min_tokens, count_tokens=counter))
        elif n_spans[i] == 1:
            (a, b), = sentence_spans(text, lines=lines)
            out.append([Chunk(text[a:b], a, b, (0,), 0, counter([text[a:b]])[0], 1.0, ((a, b),))])
        else:
            out.append([])
    return out
