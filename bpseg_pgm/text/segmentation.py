"""The result of segmenting a text: :class:`Segmentation`, its sentences, labels, beliefs and spans.

The labels are renumbered in reading order (segment 0 is the one the first sentence belongs
to), which makes outputs comparable across runs and easy to read.  A segmentation has two levels:
its *topics* (the labels: a topic may return later in the text) and its *contiguous segments* (the
runs of consecutive sentences with one topic); see :class:`Segmentation`.  A segmentation keeps the
text and each sentence's character span in it, so it can be cut into :meth:`~Segmentation.chunks`
whose offsets point into the original (:func:`bpseg_pgm.chunks.make_chunks`), and shown as
HTML (:meth:`~Segmentation.to_html`, and in Jupyter by itself).

Numbering: every index in Python (labels, segments, sentence indices) counts from 0;
every human-readable output (:meth:`~Segmentation.to_text`, the HTML, the CLI's text)
counts sentences and segments from 1.
"""

from __future__ import annotations

import bisect
import json
import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bpseg_pgm.chunks import make_chunks
from bpseg_pgm.io.jsonable import jsonable
from bpseg_pgm.keywords import DEFAULT_TOP_N, check_top_n, class_keywords
from bpseg_pgm.text.checks import nonempty_units, unit_sources
from bpseg_pgm.text.split import join_sentences
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.labels import bounds_labels, run_bounds
from bpseg_pgm.utils.words import numbered, plural

__all__ = ["Segmentation"]


@dataclass(repr=False)
class Segmentation:
    """A segmentation of ``sentences`` into possibly non-contiguous segments.

    ``labels[i]`` is the segment of sentence ``i``; segments are numbered
    0..m-1 in order of their first sentence.  ``segments[j]`` lists the sentence
    indices of segment ``j`` in reading order.  ``beliefs`` is the (n, k) matrix
    of BP beliefs with columns permuted to match the renumbered labels (columns
    of segments that ended up empty come last), so ``beliefs[i, labels[i]]`` is
    the belief of sentence ``i`` in its own segment.

    ``text`` is the text the sentences came from and ``spans[i] = (start, end)``
    the characters of sentence ``i`` in it: ``text[start:end]`` is the sentence as
    written (``sentences[i]`` is the same with its whitespace collapsed).  Built from
    a list of sentences, ``text`` is those sentences joined by newlines (``lines``
    is then True: one sentence per line, as with ``segment_text(..., lines=True)``).
    ``embeddings`` (the rows BP-Seg saw) and ``embedder`` (for the tokenizer) are
    kept when the pipeline made the segmentation; :meth:`chunks` uses them.  So are the runs model's
    levels, when the fit kept them: :meth:`recut` gives the same document in another number of runs
    (up to :attr:`max_segments`) without refitting.

    **Two levels: topics and contiguous segments.**  A label groups sentences that belong together
    and may come back later in the text: it is a *topic*.  A *contiguous segment* is a run of
    consecutive sentences with one topic.  Every structure has both levels: for "runs" each topic is
    one contiguous segment; for "topics" and "run-topics" a topic may hold several (it *returns*).
    ``labels``, ``segments`` and ``n_segments`` keep their meaning from before the two levels were
    named (BP-Seg's paper calls its possibly non-contiguous groups "segments"): they are the topic
    level, ``labels[i]`` the topic of sentence ``i`` and ``segments[t]`` the sentences of topic ``t``.
    The contiguous level and the link between the two, all numbered from 0 in reading order:

    * :attr:`contiguous_segments` ``[r]``: the sentence indices of contiguous segment ``r``;
    * :attr:`contiguous_labels` ``[i]``: the contiguous segment of sentence ``i``;
    * :attr:`contiguous_topics` ``[r]``: the topic of contiguous segment ``r``;
    * :attr:`topic_segments` ``[t]``: the contiguous segments of topic ``t``, in reading order;
    * :attr:`returning_topics`: the topics with two or more contiguous segments;
    * :attr:`n_topics` (= ``n_segments``) and :attr:`n_contiguous_segments`.

    They are computed from ``labels``, so a segmentation built by hand or read from JSON has them too.
    The human-readable outputs (:meth:`to_text`, the HTML) speak of segments alone while every topic
    is one contiguous segment (the two levels coincide, and segment ``j`` is topic ``j``), and of
    topics and their segments as soon as a topic returns ("Topic 1: segments 1 and 3").

    **Keywords.**  :meth:`topic_keywords` and :meth:`contiguous_keywords` give the words that set
    each topic (or contiguous segment) apart: class-based TF-IDF over their sentences
    (:mod:`bpseg_pgm.keywords`; English stop words, speech fillers and transcription markers out).
    They are computed on first use and kept, so segmenting costs nothing more when they are unused.
    """

    sentences: list[str]
    labels: np.ndarray
    segments: list[list[int]]
    beliefs: np.ndarray
    params: dict[str, Any] = field(default_factory=dict)
    n_iter: int | None = None
    converged: bool | None = None
    model: str | None = None
    text: str | None = None
    spans: list[Span] | None = None
    lines: bool = False
    embeddings: np.ndarray | None = field(default=None, repr=False)
    embedder: Any = field(default=None, repr=False, compare=False)
    #: "runs" (every segment one run of consecutive sentences) or "topics" (segments may return):
    #: what BPSeg's ``structure`` chose (``BPSeg.structure_``); None when not made by the pipeline
    structure: str | None = None
    #: how "auto" chose the number of runs (``BPSeg.granularity_``): ``{"span": k, "words": k or None}``, the span
    #: rule's count and the count the words' evidence chose from there; None when k was given, the topic model
    #: was asked for, or the segmentation was not made by the pipeline
    granularity: dict | None = None
    #: True if the text was read as Markdown when split (code blocks, tables and headings one unit each);
    #: :meth:`chunks` then keeps Markdown blocks whole.  None: not said (chunks guess from the text)
    markdown: bool | None = None
    #: the runs fit (:class:`~bpseg_pgm.runs.model.RunsFit`, with its levels) the pipeline kept for :meth:`recut`;
    #: None when there is none (the topic model asked for, or a segmentation not made by the pipeline)
    _runs: Any = field(default=None, init=False, repr=False, compare=False)
    #: keywords already computed: (level, top_n, labels as bytes) -> lists of words
    _keywords: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __repr__(self) -> str:
        """One line: the sizes, the structure and the model, not the text, sentences or beliefs."""
        return (f"{type(self).__name__}(n_sentences={len(self.sentences)}, n_segments={self.n_segments}, "
                f"structure={self.structure!r}, model={self.model!r})")

    def __post_init__(self) -> None:
        if self.text is None:
            if self.spans is not None:
                raise ValueError("spans need the text they point into")
            self.text, self.spans = join_sentences(self.sentences)
            self.lines = True
        elif self.spans is None:
            raise ValueError("a Segmentation given its text needs the sentences' spans too")
        self.spans = [(int(a), int(b)) for a, b in self.spans]
        if len(self.spans) != len(self.sentences):
            raise ValueError(f"{len(self.spans)} spans for {len(self.sentences)} sentences")

    @property
    def line_numbers(self) -> list[int]:
        """The line each sentence starts on: its index (from 0) in ``text.splitlines()``.

        With ``segment_text(text, lines=True)`` the sentences are the non-blank lines (a blank line is
        not a unit), so ``line_numbers`` maps each unit, and its label, back to its input line:
        ``labels[i]`` is the segment of line ``line_numbers[i]``.  Built from a list of sentences,
        sentence ``i`` is on line ``i`` of the joined text (unless a sentence holds a line break).
        """
        starts = [0]
        for line in self.text.splitlines(keepends=True):
            starts.append(starts[-1] + len(line))
        return [bisect.bisect_right(starts, a) - 1 for a, _ in self.spans]

    @property
    def n_segments(self) -> int:
        """Number of non-empty segments (may be fewer than the k asked for)."""
        return len(self.segments)

    @property
    def n_topics(self) -> int:
        """Number of topics: the same as :attr:`n_segments` (the labels), in the two levels' words."""
        return self.n_segments

    def _bounds(self) -> np.ndarray:
        return run_bounds(np.asarray(self.labels))

    @property
    def contiguous_segments(self) -> list[list[int]]:
        """The contiguous segments: the runs of consecutive sentences with one topic, in reading order.

        ``contiguous_segments[r]`` lists the sentence indices of segment ``r``; together they cover
        every sentence once.  Computed from ``labels``.
        """
        b = self._bounds()
        return [list(range(int(a), int(e))) for a, e in zip(b[:-1], b[1:])]

    @property
    def n_contiguous_segments(self) -> int:
        """Number of contiguous segments (at least :attr:`n_topics`)."""
        return len(self._bounds()) - 1

    @property
    def contiguous_labels(self) -> np.ndarray:
        """``contiguous_labels[i]`` is the contiguous segment of sentence ``i`` (0.., reading order), shape (n,)."""
        return bounds_labels(self._bounds())

    @property
    def contiguous_topics(self) -> np.ndarray:
        """``contiguous_topics[r]`` is the topic (label) of contiguous segment ``r``, shape (n_contiguous_segments,)."""
        return np.asarray(self.labels, dtype=np.int64)[self._bounds()[:-1]]

    @property
    def topic_segments(self) -> list[list[int]]:
        """``topic_segments[t]``: the contiguous segments of topic ``t``, in reading order (one unless it returns)."""
        out: list[list[int]] = [[] for _ in range(self.n_topics)]
        for r, t in enumerate(self.contiguous_topics.tolist()):
            out[t].append(r)
        return out

    @property
    def returning_topics(self) -> list[int]:
        """The topics that come back: those with two or more contiguous segments (none for "runs")."""
        return [t for t, rs in enumerate(self.topic_segments) if len(rs) > 1]

    def topic_keywords(self, top_n: int = DEFAULT_TOP_N) -> list[list[str]]:
        """The ``top_n`` keywords of each topic, best first: ``topic_keywords()[t]`` for topic ``t``.

        Class-based TF-IDF (:func:`bpseg_pgm.keywords.class_keywords`): each topic's sentences are one
        document; the words frequent in it and rare in the other topics rank first.  English stop
        words, fillers of speech ("um", "yeah") and transcription markers (``{vocalsound}``) are never
        keywords.  A topic with no candidate word (only stop words, or text without spaces such as
        Chinese) gets ``[]``.  Computed on the first call and kept; deterministic.
        """
        return self._cached_keywords("topics", top_n, self.segments)

    def contiguous_keywords(self, top_n: int = DEFAULT_TOP_N) -> list[list[str]]:
        """The ``top_n`` keywords of each contiguous segment, best first, as :meth:`topic_keywords` gives them for
        topics but with each contiguous segment as one class (the same as the topics' when no topic returns)."""
        return self._cached_keywords("contiguous", top_n, self.contiguous_segments)

    def _cached_keywords(self, level: str, top_n: int, groups: list[list[int]]) -> list[list[str]]:
        top_n = check_top_n(top_n)
        key = (level, top_n, np.asarray(self.labels, dtype=np.int64).tobytes())
        if key not in self._keywords:
            words = class_keywords([" ".join(self.sentences[i] for i in g) for g in groups], top_n)
            self._keywords[key] = words
        return [list(w) for w in self._keywords[key]]

    @property
    def max_segments(self) -> int | None:
        """The most segments :meth:`recut` can give (the runs model's levels), or None when no levels are kept."""
        return None if self._runs is None else int(self._runs.levels.max_runs)

    def recut(self, n_segments: int | None = None, *, segment_length: float | None = None) -> Segmentation:
        """The same document cut into another number of runs, without refitting: a new Segmentation.

        Give exactly one of ``n_segments`` (an int from 1 to :attr:`max_segments`) or ``segment_length``
        (the target mean number of sentences per segment, a number > 0: k = round(n / segment_length),
        clipped to 1..:attr:`max_segments`).  The segments are the runs model's best split into k runs
        (kept by the fit for every k up to :attr:`max_segments`), its chain beliefs as ``beliefs``,
        ``structure`` "runs" and ``params["n_segments"]`` k, exactly as a fit with
        ``structure="runs", n_segments=k`` would give; this segmentation is unchanged.
        A segmentation of the topic model can be re-cut when ``structure="auto"`` kept the runs it weighed
        against it (the result is then runs).  A ValueError when the fit kept no levels
        (``structure="topics"`` asked for, "auto" on a document without reading-order runs, or a
        segmentation rebuilt from JSON): segment again with ``structure="runs"``.
        """
        if (n_segments is None) == (segment_length is None):
            raise ValueError("give exactly one of n_segments and segment_length")
        if self._runs is None:
            raise ValueError(
                "this segmentation keeps no levels to re-cut (the topic model was fitted without runs, or it was "
                "not made by the pipeline, e.g. read from JSON); segment again with structure='runs'"
            )
        top = self.max_segments
        if n_segments is not None:
            if isinstance(n_segments, bool) or not isinstance(n_segments, numbers.Integral):
                raise ValueError(f"n_segments must be an int, got {n_segments!r}")
            k = int(n_segments)
            if not 1 <= k <= top:
                raise ValueError(f"n_segments must be from 1 to {top} (max_segments), got {k}")
        else:
            if isinstance(segment_length, bool) or not isinstance(segment_length, numbers.Real):
                raise ValueError(f"segment_length must be a number, got {segment_length!r}")
            length = float(segment_length)
            if not (np.isfinite(length) and length > 0):
                raise ValueError(f"segment_length must be a finite number > 0, got {segment_length!r}")
            k = min(max(round(len(self.sentences) / length), 1), top)
        try:
            fit = self._runs.at(k)
        except ValueError as exc:  # a level the programme could not fill
            raise ValueError(f"cannot re-cut into {k} segments: {exc}") from None
        live = nonempty_units(self.sentences)
        return build_segmentation(
            list(self.sentences), np.asarray(self.embeddings)[live], fit.labels, np.asarray(fit.beliefs, dtype=float),
            params=dict(self.params, n_segments=k, structure="runs"), n_iter=1, converged=True, structure="runs",
            runs=fit, embedder=self.embedder, model=self.model, text=self.text, spans=list(self.spans),
            lines=self.lines,
        )

    def confidence(self) -> np.ndarray:
        """Belief of each sentence in its assigned segment, shape (n,)."""
        return self.beliefs[np.arange(len(self.sentences)), self.labels]

    @property
    def requested_segments(self) -> int | None:
        """The k asked for, when it was a number (None for "auto" or ``init="all"``)."""
        k = self.params.get("n_segments")
        if self.params.get("init") == "all" or isinstance(k, bool) or not isinstance(k, numbers.Integral):
            return None
        return int(k)

    def fewer_than_requested(self) -> str | None:
        """A one-line note when fewer labels came back than the k asked for, else None.

        The labels are called segments, or topics when a topic returns (as :meth:`to_text` calls them).
        """
        k = self.requested_segments
        if k is None or self.n_segments >= k:
            return None
        word = "topic" if self.returning_topics else "segment"  # the labels, in the words of to_text
        return (f"{plural(self.n_segments, word)} for k = {k}: "
                f"{k - self.n_segments} of the k labels ended up with no sentence and were dropped")

    def chunks(self, max_tokens: int | None = None, contiguous: bool = True, *, min_tokens: int | None = None,
               count_tokens: Any = None, hard_cap: bool = True, markdown: bool | None = None) -> list[Any]:
        """Cut the text into :class:`~bpseg_pgm.types.chunk.Chunk` objects with exact offsets.

        ``contiguous=True``: one chunk per run of consecutive sentences of one segment, in reading
        order, ``chunk.text == self.text[chunk.start:chunk.end]``.  ``contiguous=False``: one chunk
        per segment (its runs joined by blank lines; ``chunk.spans`` lists them).  ``max_tokens`` (the
        embedding model's tokens, special tokens included) is a hard cap: a longer chunk is split at its
        weakest link, and a sentence longer than the cap at its strongest inner boundaries
        (``hard_cap=False``: such a sentence stays whole).  ``min_tokens`` (None: a quarter of
        ``max_tokens``; 0: off) merges a shorter contiguous chunk into a neighbour when the result fits.
        ``markdown`` (None: the segmentation's ``markdown``, else guessed from the text) keeps code
        blocks, tables and list items whole and prefers boundaries before headings.
        ``count_tokens`` (a function from a list of str to a list of int) replaces the model's
        tokenizer.  See :func:`bpseg_pgm.chunks.make_chunks`.
        """
        return make_chunks(self, max_tokens, contiguous, min_tokens=min_tokens, count_tokens=count_tokens,
                           hard_cap=hard_cap, markdown=markdown)

    def to_html(self, title: str | None = None, *, full_page: bool = True, low_belief: float = 0.5,
                root_id: str | None = None) -> str:
        """The text coloured by segment, paragraphs kept, with an overview strip (one cell per sentence),
        a legend and the segments listed (collapsed when long), as HTML.

        ``full_page=False`` gives a fragment to embed in another page (what Jupyter shows); its
        styles are scoped to ``root_id`` (random by default).  See :func:`bpseg_pgm.formats.html.render_html`.
        """
        from bpseg_pgm.formats.html import render_html

        return render_html(self, title=title, full_page=full_page, low_belief=low_belief, root_id=root_id)

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the HTML fragment."""
        return self.to_html(full_page=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (lists, ints, floats, str); ``spans`` are offsets into the text.

        Besides the fields, ``line_numbers`` (the input line of each sentence), both levels under their
        attribute names (``n_topics``, ``n_contiguous_segments``,
        ``contiguous_segments``, ``contiguous_labels``, ``contiguous_topics``, ``topic_segments``,
        ``returning_topics``) and the keywords (``topic_keywords``, ``contiguous_keywords``: the default
        number of each).  All indices count from 0.
        """
        return {
            "sentences": list(self.sentences),
            "spans": [[a, b] for a, b in self.spans],
            "line_numbers": self.line_numbers,
            "labels": [int(x) for x in self.labels],
            "segments": [[int(i) for i in seg] for seg in self.segments],
            "n_segments": self.n_segments,
            "beliefs": np.asarray(self.beliefs, dtype=float).tolist(),
            "params": {k: jsonable(v) for k, v in self.params.items()},
            "n_iter": None if self.n_iter is None else int(self.n_iter),
            "converged": None if self.converged is None else bool(self.converged),
            "model": self.model,
            "structure": self.structure,
            "granularity": None if self.granularity is None else dict(self.granularity),
            "n_topics": self.n_topics,
            "n_contiguous_segments": self.n_contiguous_segments,
            "contiguous_segments": self.contiguous_segments,
            "contiguous_labels": self.contiguous_labels.tolist(),
            "contiguous_topics": self.contiguous_topics.tolist(),
            "topic_segments": self.topic_segments,
            "returning_topics": self.returning_topics,
            "topic_keywords": self.topic_keywords(),
            "contiguous_keywords": self.contiguous_keywords(),
        }

    def to_text(self) -> str:
        """Human-readable listing, sentences and segments numbered from 1.

        While every topic is one contiguous segment: each segment with its keywords and its numbered
        sentences.  When a topic returns: a first paragraph counts segments and topics and names the
        topics that return with their segments ("Topic 1 returns: segments 1 and 3."), then each topic
        with its keywords, its segments (one of two or more sentences with its own keywords, when the
        topic returns) and their sentences.  When fewer labels came back than the k asked for, a first
        line says so.
        """
        width = len(str(len(self.sentences)))
        note = self.fewer_than_requested()
        blocks = [f"Note: {note}."] if note else []
        keywords = self.topic_keywords()
        topic_parts = self.topic_segments  # each of these levels computed once, not per topic
        returning = self.returning_topics
        if not returning:
            for j, idx in enumerate(self.segments):
                head = f"[Segment {j + 1}] sentences " + ", ".join(str(i + 1) for i in idx)
                lines = [head] + ([f"  keywords: {', '.join(keywords[j])}"] if keywords[j] else [])
                lines += [f"  {i + 1:>{width}}  {self.sentences[i]}" for i in idx]
                blocks.append("\n".join(lines))
            return "\n\n".join(blocks) + "\n"
        parts = self.contiguous_segments
        part_keywords = self.contiguous_keywords()
        back = [(t + 1, numbered("segment", topic_parts[t])) for t in returning]
        returns = (f"Topic {back[0][0]} returns: {back[0][1]}" if len(back) == 1 else
                   "Topics that return: " + "; ".join(f"topic {t}: {where}" for t, where in back))
        blocks.append(f"{plural(len(parts), 'segment')} in {plural(self.n_topics, 'topic')}. "
                      f"{returns}.")
        for t, idx in enumerate(self.segments):
            rs = topic_parts[t]
            lines = [f"[Topic {t + 1}] {numbered('segment', rs)} · sentences " + ", ".join(str(i + 1) for i in idx)]
            if keywords[t]:
                lines.append(f"  keywords: {', '.join(keywords[t])}")
            for r in rs:
                shown = len(rs) > 1 and len(parts[r]) > 1 and part_keywords[r]  # one sentence's words say little
                own = f" · keywords: {', '.join(part_keywords[r])}" if shown else ""
                lines.append(f"  Segment {r + 1}{own}")
                lines += [f"    {i + 1:>{width}}  {self.sentences[i]}" for i in parts[r]]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks) + "\n"

    def to_json(self, indent: int | None = 2) -> str:
        """The :meth:`to_dict` content as a JSON string (UTF-8 characters kept).

        NaN or inf anywhere is a ValueError: ``json.dumps`` would write them as bare
        ``NaN``/``Infinity``, which is not JSON and breaks every strict reader.
        """
        try:
            return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)
        except ValueError:
            raise ValueError("the segmentation holds NaN or inf values, which JSON cannot represent") from None


def _renumber(raw: np.ndarray, beliefs: np.ndarray) -> tuple[np.ndarray, list[list[int]], np.ndarray]:
    """Relabel segments by first appearance; permute belief columns to match."""
    raw = np.asarray(raw, dtype=np.int64)
    order = list(dict.fromkeys(raw.tolist()))
    n_cols = beliefs.shape[1]
    used = set(order)
    order += [c for c in range(n_cols) if c not in used]
    new_of_old = np.empty(n_cols, dtype=np.int64)
    new_of_old[order] = np.arange(n_cols)
    labels = new_of_old[raw]
    segments = [np.flatnonzero(labels == j).tolist() for j in range(len(used))]
    return labels, segments, beliefs[:, order]


def build_segmentation(sentences: list[str], X_live: np.ndarray, raw_labels: np.ndarray, raw_beliefs: np.ndarray, *,
                       params: dict[str, Any], n_iter: int | None, converged: bool | None, structure: str | None,
                       runs: Any, embedder: Any, model: str | None, text: str | None, spans: list[Span] | None,
                       lines: bool, granularity: dict | None = None) -> Segmentation:
    """The :class:`Segmentation` of a fit on the non-empty ``sentences`` (rows ``X_live``): labels renumbered in
    reading order, belief columns permuted to match, every empty sentence given its source's label, belief row
    and embedding row (:func:`~bpseg_pgm.text.checks.unit_sources`).  ``runs`` (a
    :class:`~bpseg_pgm.runs.model.RunsFit` or None) is kept for :meth:`Segmentation.recut`.  What
    :func:`~bpseg_pgm.text.pipeline.fit_segmentation` and :meth:`Segmentation.recut` both build their
    result with.
    """
    live = nonempty_units(sentences)
    labels, segments, beliefs = _renumber(raw_labels, raw_beliefs)
    embeddings = np.asarray(X_live)
    if len(live) < len(sentences):  # every empty sentence takes its neighbour's row
        row_of = np.searchsorted(live, unit_sources(sentences))
        labels, beliefs, embeddings = labels[row_of], beliefs[row_of], embeddings[row_of]
        segments = [np.flatnonzero(labels == j).tolist() for j in range(len(segments))]
    seg = Segmentation(
        sentences=sentences,
        labels=labels,
        segments=segments,
        beliefs=beliefs,
        params=params,
        n_iter=n_iter,
        converged=converged,
        model=model,
        text=text,
        spans=spans,
        lines=lines,
        embeddings=embeddings,
        embedder=embedder,
        structure=structure,
        granularity=None if granularity is None else dict(granularity),
    )
    keeps_levels = getattr(runs, "levels", None) is not None and getattr(runs, "features", None) is not None
    seg._runs = runs if keeps_levels else None
    return seg
