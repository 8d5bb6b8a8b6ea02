"""The result of segmenting a text: :class:`Segmentation`, the data of a fit and what it gives.

The data and its two levels are :class:`~bpseg_pgm.types.segmentation.SegmentationResult` (the leaf
:mod:`bpseg_pgm.types`: labels renumbered in reading order, beliefs, spans, topics and contiguous segments,
``to_dict`` / ``from_dict`` / ``to_json`` / ``from_json``).  :class:`Segmentation` is that type with the
views that need the packages above it, each a thin method: the keywords (:mod:`bpseg_pgm.keywords`),
:meth:`~Segmentation.chunks` (:func:`bpseg_pgm.chunks.make_chunks`), :meth:`~Segmentation.recut` (the runs
fit's levels, through :func:`build_segmentation`), and the text and HTML (:mod:`bpseg_pgm.formats`; in
Jupyter the segmentation shows itself as HTML).  :func:`build_segmentation` makes one from a fit.

Numbering: every index in Python (labels, segments, sentence indices) counts from 0;
every human-readable output (:meth:`~Segmentation.to_text`, the HTML, the CLI's text)
counts sentences and segments from 1.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bpseg_pgm.chunks import check_chunk_options, check_context_sentences, link_parents, make_chunks, token_counter
from bpseg_pgm.chunks.markdown import heading_paths as markdown_heading_paths
from bpseg_pgm.formats.html import render_html
from bpseg_pgm.formats.text import render_text
from bpseg_pgm.keywords import DEFAULT_TOP_N, check_top_n, class_keywords
from bpseg_pgm.keywords.speakers import without_speakers
from bpseg_pgm.structure.detect import STRUCTURED
from bpseg_pgm.structure.detect import heading_paths as structure_heading_paths
from bpseg_pgm.text.checks import nonempty_units, unit_sources
from bpseg_pgm.text.split import sentence_spans
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.types.fit import Fit
from bpseg_pgm.types.segmentation import SegmentationResult
from bpseg_pgm.utils.renamed import renamed_method

__all__ = ["Segmentation", "build_segmentation"]


@dataclass(repr=False)
class Segmentation(SegmentationResult):
    """A segmentation of ``sentences`` into possibly non-contiguous segments: what ``segment_text`` returns.

    The data (:class:`~bpseg_pgm.types.segmentation.SegmentationResult`, whose parameters and attributes it
    has) with the keywords, chunks, re-cuts and the text and HTML views.

    ``labels[i]`` is the segment of sentence ``i``; segments are numbered 0..m-1 in order of their first
    sentence, ``segments[j]`` lists the sentence indices of segment ``j`` in reading order, and ``beliefs`` is
    the (n, k) matrix of BP beliefs with columns permuted to match the labels.  ``text`` is the text the
    sentences came from and ``spans[i] = (start, end)`` the characters of sentence ``i`` in it.

    **Segments and runs.**  A *segment* is a label: the sentences that belong together, which may come back
    later in the text (BP-Seg's paper's word).  A *run* is a stretch of consecutive sentences with one label.
    ``labels``, ``segments`` and ``n_segments`` are the segments; :attr:`runs`, :attr:`run_labels`,
    :attr:`run_segments`, :attr:`segment_runs`, :attr:`returning_segments` and :attr:`n_runs` are the runs and
    the link between the two.  The human-readable outputs (:meth:`to_text`, the HTML) list segments alone
    while every segment is one run, and segments with their runs as soon as a segment returns.

    **Keywords.**  :meth:`segment_keywords` and :meth:`run_keywords` give the words that set
    each segment (or run) apart: class-based TF-IDF over their sentences
    (:mod:`bpseg_pgm.keywords`; English stop words, speech fillers and transcription markers out).
    They are computed on first use and kept, so segmenting costs nothing more when they are unused.

    **Dict and JSON.**  :meth:`to_dict` / :meth:`to_json` write the data, both levels and the keywords; the
    beliefs as each sentence's confidence unless ``beliefs="full"``.  ``Segmentation.from_dict`` /
    ``from_json`` read them back (without the embeddings, the embedder and the runs fit: :meth:`recut` then
    raises ValueError).

    Parameters
    ----------
    sentences, labels, segments, beliefs, params, n_iter, converged, model, text, spans, lines, embeddings, \
embedder, structure, granularity, markdown, runs_fit, heading_paths, format
        As :class:`~bpseg_pgm.types.segmentation.SegmentationResult` takes them (``runs_fit``: the runs model's
        fit with its levels, for :meth:`recut`; :func:`build_segmentation` keeps it when it has levels).

    Attributes
    ----------
    n_segments, n_runs, runs, run_labels, run_segments, \
segment_runs, returning_segments, line_numbers, max_segments, requested_segments, segment_heading_paths, \
run_heading_paths, segment_headings, run_headings
        As in :class:`~bpseg_pgm.types.segmentation.SegmentationResult`.
    """

    #: keywords already computed: (level, top_n, labels as bytes) -> lists of words
    _keywords: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def segment_keywords(self, top_n: int = DEFAULT_TOP_N) -> list[list[str]]:
        """The ``top_n`` keywords of each segment, best first: ``segment_keywords()[j]`` for segment ``j``.

        Class-based TF-IDF (:func:`bpseg_pgm.keywords.class_keywords`): each topic's sentences are one
        document; the words frequent in it and rare in the other segments rank first.  English stop
        words, fillers of speech ("um", "yeah") and transcription markers (``{vocalsound}``) are never
        keywords.  A segment with no candidate word (only stop words, or text without spaces such as
        Chinese) gets ``[]``.  Computed on the first call and kept; deterministic.
        """
        return self._cached_keywords("topics", top_n, self.segments)

    def run_keywords(self, top_n: int = DEFAULT_TOP_N) -> list[list[str]]:
        """The ``top_n`` keywords of each run, best first, as :meth:`segment_keywords` gives them for segments
        but with each run as one class (the same as the segments' when no segment returns)."""
        return self._cached_keywords("contiguous", top_n, self.runs)

    topic_keywords = renamed_method("topic_keywords", "segment_keywords")
    contiguous_keywords = renamed_method("contiguous_keywords", "run_keywords")

    def _cached_keywords(self, level: str, top_n: int, groups: list[list[int]]) -> list[list[str]]:
        top_n = check_top_n(top_n)
        key = (level, top_n, np.asarray(self.labels, dtype=np.int64).tobytes())
        if key not in self._keywords:
            units = without_speakers(self.sentences)  # "Anna: ..." names the speaker, not the topic
            words = class_keywords([" ".join(units[i] for i in g) for g in groups], top_n)
            self._keywords[key] = words
        return [list(w) for w in self._keywords[key]]

    def recut(self, n_segments: int | None = None, *, segment_length: float | None = None) -> Segmentation:
        """The same document cut into another number of runs, without refitting: a new Segmentation.

        Give exactly one of ``n_segments`` (an int from 1 to :attr:`max_segments`) or ``segment_length``
        (the target mean number of sentences per segment, a number > 0: k = round(n / segment_length), n the
        non-empty sentences, clipped to 1..:attr:`max_segments` with a UserWarning saying so).  The segments are the runs model's best split into k runs
        (kept by the fit for every k up to :attr:`max_segments`), its chain beliefs as ``beliefs``,
        ``structure`` "runs" and ``params["n_segments"]`` k, exactly as a fit with
        ``structure="runs", n_segments=k`` would give; this segmentation is unchanged.
        A segmentation of the topic model can be re-cut when ``structure="auto"`` kept the runs it weighed
        against it (the result is then runs).  A ValueError when the fit kept no levels
        (``structure="topics"`` asked for, "auto" on a document without reading-order runs, or a
        segmentation rebuilt from a dict or JSON): segment again with ``structure="runs"``.
        Which counts are worth trying, when the fit chose its own: :meth:`suggested_counts` (the counts the runs
        model's gain rates best, this one first; :meth:`count_scores` the gain of each).
        """
        if (n_segments is None) == (segment_length is None):
            raise ValueError("give exactly one of n_segments and segment_length")
        if self.runs_fit is None:
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
            # the units the model saw: empty units are not segmented, so they do not count toward the length
            n_live = len(nonempty_units(self.sentences))
            wanted = round(n_live / length)
            k = min(max(wanted, 1), top)
            if k != wanted:
                warnings.warn(
                    f"segment_length={segment_length:g} asks for {wanted} segments of {n_live} sentences; the fit "
                    f"keeps levels from 1 to {top} (max_segments): cut into {k}",
                    UserWarning,
                    stacklevel=2,
                )
        fit = self._level_fit(k)
        live = nonempty_units(self.sentences)
        return build_segmentation(
            list(self.sentences),
            np.asarray(self.embeddings)[live],
            Fit.of_runs(fit, evidence=self.evidence),
            params=dict(self.params, n_segments=k, structure="runs"),
            embedder=self.embedder,
            model=self.model,
            text=self.text,
            spans=list(self.spans),
            lines=self.lines,
            markdown=self.markdown,
            format=self.format,
            heading_paths=self.heading_paths,
        )

    def _level_fit(self, k: int) -> Any:
        try:
            return self.runs_fit.at(k)
        except ValueError as exc:  # a level the programme could not fill
            raise ValueError(f"cannot re-cut into {k} segments: {exc}") from None

    def level_labels(self, n_segments: int) -> np.ndarray:
        """The labels of :meth:`recut` ``(n_segments)`` alone, without its beliefs (cheaper; the HTML view's
        granularity slider reads every level with it).  A ValueError where :meth:`recut` raises one."""
        if self.runs_fit is None:
            raise ValueError("this segmentation keeps no levels to re-cut")
        top = self.max_segments
        if isinstance(n_segments, bool) or not isinstance(n_segments, numbers.Integral) or not 1 <= n_segments <= top:
            raise ValueError(f"n_segments must be an int from 1 to {top} (max_segments), got {n_segments!r}")
        raw = np.asarray(self._level_fit(int(n_segments)).labels, dtype=np.int64)
        order = {old: new for new, old in enumerate(dict.fromkeys(raw.tolist()))}  # renumbered in reading order
        labels = np.array([order[x] for x in raw.tolist()], dtype=np.int64)
        live = nonempty_units(self.sentences)
        if len(live) < len(self.sentences):  # every empty sentence takes its neighbour's label
            labels = labels[np.searchsorted(live, unit_sources(self.sentences))]
        return labels

    def chunks(
        self,
        max_tokens: int | None = None,
        contiguous: bool = True,
        *,
        min_tokens: int | None = None,
        count_tokens: Any = None,
        hard_cap: bool = True,
        markdown: bool | None = None,
        context_sentences: int | None = None,
    ) -> list[Any]:
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
        tokenizer.  ``context_sentences`` (None: the policy's ``chunk_context_sentences``, 1; 0: none) gives each chunk
        that many neighbouring sentences on each side as ``context_before`` / ``context_after``, embedded with it
        (``chunk.embed_text``) and never part of its text or offsets.  See :func:`bpseg_pgm.chunks.make_chunks`; :meth:`parent_chunks` adds the parents.
        """
        return make_chunks(
            self,
            max_tokens,
            contiguous,
            min_tokens=min_tokens,
            count_tokens=count_tokens,
            hard_cap=hard_cap,
            markdown=markdown,
            context_sentences=context_sentences,
        )

    def line_sentence_starts(self) -> list[list[int]] | None:
        """With ``lines=True``, each line's sentence starts (offsets into :attr:`text`; the first is the line's own):
        where :meth:`chunks` may cut inside a line; None for a segmentation of sentences."""
        if not self.lines:
            return None
        return [[a + p for p, _ in sentence_spans(self.text[a:b])] for a, b in self.spans]

    def parent_chunks(
        self,
        max_tokens: int | None = None,
        contiguous: bool = True,
        *,
        min_tokens: int | None = None,
        count_tokens: Any = None,
        hard_cap: bool = True,
        markdown: bool | None = None,
        context_sentences: int | None = None,
    ) -> tuple[list[Any], list[Any]]:
        """The chunks of :meth:`chunks` and their parents: one :class:`~bpseg_pgm.types.chunk.ParentChunk` per
        segment (a topic, all its runs however far apart) over its chunks.

        Parameters
        ----------
        max_tokens, contiguous, min_tokens, count_tokens, hard_cap, markdown, context_sentences
            As for :meth:`chunks`: they make the children; no cap applies to a parent.

        Returns
        -------
        parents : list of ParentChunk
            One per segment, by segment: ``spans`` are exact offsets into :attr:`text`, one per run (two or more
            for a segment that returns), and ``children`` index ``chunks``.
        chunks : list of Chunk
            What :meth:`chunks` returns, each with ``parent``, its parent's index in ``parents``.

        See Also
        --------
        bpseg_pgm.chunks.link_parents : the same for any list of chunks of a text.

        Examples
        --------
        >>> parents, chunks = seg.parent_chunks(max_tokens=256)  # doctest: +SKIP
        >>> [seg.text[a:b] for a, b in parents[chunks[0].parent].spans]  # doctest: +SKIP
        """
        check_chunk_options(max_tokens, contiguous, min_tokens)  # every option before the tokenizer is loaded
        check_context_sentences(context_sentences)
        counter = token_counter(count_tokens, self.embedder, self.model)
        chunks = self.chunks(
            max_tokens,
            contiguous,
            min_tokens=min_tokens,
            count_tokens=counter,
            hard_cap=hard_cap,
            markdown=markdown,
            context_sentences=context_sentences,
        )
        return link_parents(chunks, self.text, count_tokens=counter)

    def to_html(
        self, title: str | None = None, *, full_page: bool = True, low_belief: float = 0.5, root_id: str | None = None
    ) -> str:
        """The text coloured by segment, paragraphs kept, with an overview strip (one cell per sentence),
        a legend and the segments listed (collapsed when long), as HTML.

        ``full_page=False`` gives a fragment to embed in another page (what Jupyter shows); its
        styles are scoped to ``root_id`` (random by default).  See :func:`bpseg_pgm.formats.html.render_html`.
        """
        return render_html(self, title=title, full_page=full_page, low_belief=low_belief, root_id=root_id)

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the HTML fragment."""
        return self.to_html(full_page=False)

    def to_text(self) -> str:
        """Human-readable listing, sentences and segments numbered from 1 (:func:`bpseg_pgm.formats.text.render_text`).

        While every segment is one run: each segment with its keywords and its numbered
        sentences.  When a segment returns: a first paragraph counts runs and segments and names the
        segments that return with their runs ("Segment 1 returns: runs 1 and 3."), then each segment
        with its keywords, its runs and their sentences.  When fewer labels came back than the k asked
        for, a first line says so.
        """
        return render_text(self)

    def to_dict(self, beliefs: str = "confidence") -> dict[str, Any]:
        """Plain JSON-ready dict: :meth:`SegmentationResult.to_dict
        <bpseg_pgm.types.segmentation.SegmentationResult.to_dict>` (the data, both levels, the beliefs as each
        sentence's ``confidence``, or the full matrix too with ``beliefs="full"``) and the keywords
        (``segment_keywords``, ``run_keywords``: the default number of each).  ``Segmentation.from_dict``
        reads it back; what it does not keep (the embeddings, the embedder, the runs fit, and without
        ``beliefs="full"`` the beliefs outside each sentence's own segment) it says.
        """
        out = super().to_dict(beliefs=beliefs)
        out["segment_keywords"] = self.segment_keywords()
        out["run_keywords"] = self.run_keywords()
        return out


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


def build_segmentation(
    sentences: list[str],
    X_live: np.ndarray,
    fit: Fit,
    *,
    params: dict[str, Any],
    embedder: Any,
    model: str | None,
    text: str | None,
    spans: list[Span] | None,
    lines: bool,
    markdown: bool | None = None,
    format: str | None = None,
    heading_paths: list | None = None,
) -> Segmentation:
    """The :class:`Segmentation` of a ``fit`` (a :class:`~bpseg_pgm.types.fit.Fit`, what ``BPSeg().fit(...)``
    keeps as ``result_``) on the non-empty ``sentences`` (rows ``X_live``): labels renumbered in reading order,
    belief columns permuted to match, every empty sentence given its source's label, belief row and embedding
    row (:func:`~bpseg_pgm.text.checks.unit_sources`).  The fit's runs (a
    :class:`~bpseg_pgm.runs.model.RunsFit` or None) are kept for :meth:`Segmentation.recut` when they have their
    levels; ``markdown`` says whether the text was read as Markdown and ``format`` in which other format, if
    any (kept as the result's ``format``, which the views render; each sentence's ``heading_paths`` are then the
    headings of that format, unless ``heading_paths`` gives them).  What
    :func:`~bpseg_pgm.text.pipeline.fit_segmentation` and :meth:`Segmentation.recut` both build their result with.
    """
    live = nonempty_units(sentences)
    labels, segments, beliefs = _renumber(fit.labels, np.asarray(fit.beliefs, dtype=float))
    embeddings = np.asarray(X_live)
    if len(live) < len(sentences):  # every empty sentence takes its neighbour's row
        row_of = np.searchsorted(live, unit_sources(sentences))
        labels, beliefs, embeddings = labels[row_of], beliefs[row_of], embeddings[row_of]
        segments = [np.flatnonzero(labels == j).tolist() for j in range(len(segments))]
    runs = fit.runs
    keeps_levels = getattr(runs, "levels", None) is not None and getattr(runs, "features", None) is not None
    if heading_paths is None and text is not None and spans:  # where the text was read in a format with headings
        if markdown:
            heading_paths = markdown_heading_paths(text, spans)
        elif format in STRUCTURED:
            heading_paths = structure_heading_paths(text, format, spans)
    return Segmentation(
        sentences=sentences,
        labels=labels,
        segments=segments,
        beliefs=beliefs,
        params=params,
        n_iter=fit.n_iter,
        converged=fit.converged,
        model=model,
        text=text,
        spans=spans,
        lines=lines,
        embeddings=embeddings,
        embedder=embedder,
        structure=fit.structure,
        granularity=None if fit.granularity is None else dict(fit.granularity),
        markdown=markdown,
        runs_fit=runs if keeps_levels else None,
        evidence=fit.evidence,
        heading_paths=heading_paths,
        format=format,
    )
