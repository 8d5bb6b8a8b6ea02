"""The data of a segmentation: :class:`SegmentationResult`, its sentences, labels, beliefs, spans and both levels.

A plain result type: what a fit gives, set once at construction, the views computed from it (segments,
runs) and a dict/JSON form that round-trips (:meth:`~SegmentationResult.to_dict`,
:meth:`~SegmentationResult.from_dict`).  It imports nothing of bpseg_pgm but :mod:`bpseg_pgm.utils`,
:mod:`bpseg_pgm.types`, :mod:`bpseg_pgm.policy` and :mod:`bpseg_pgm.confidence` (the calibrated confidence).  What needs the layers above (keywords, chunks, re-cuts, text and HTML) is added by
:class:`bpseg_pgm.text.Segmentation`, the class the pipeline returns, whose rendering lives in
:mod:`bpseg_pgm.formats`.

Numbering: every index (labels, segments, sentence indices, the dict) counts from 0.
"""

from __future__ import annotations

import bisect
import json
import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bpseg_pgm.confidence.calibrate import calibrated_confidence
from bpseg_pgm.policy import Policy
from bpseg_pgm.types.checks import check_segmentation_dict
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.jsonable import jsonable
from bpseg_pgm.utils.labels import bounds_labels, run_bounds
from bpseg_pgm.utils.plain import plain_array
from bpseg_pgm.utils.renamed import renamed_attribute
from bpseg_pgm.utils.spans import join_sentences
from bpseg_pgm.utils.words import plural

__all__ = ["BELIEFS", "CONFIDENCE_DECIMALS", "SegmentationResult"]

#: What :meth:`SegmentationResult.to_dict` writes of the beliefs: "confidence" (the default: each unit's calibrated
#: confidence and its raw belief in its own segment, 2n numbers) or "full" (the whole (n, k) matrix as well).
BELIEFS = ("confidence", "full")

#: Decimals the confidences and raw beliefs are rounded to in :meth:`SegmentationResult.to_dict` (the full matrix
#: is not rounded).
CONFIDENCE_DECIMALS = 4


@dataclass(repr=False)
class SegmentationResult:
    """A segmentation of ``sentences`` into possibly non-contiguous segments: the data, set at construction.

    Two words, used the same way everywhere (API, CLI, the text, JSON and HTML views): a **segment** is a label,
    the group of sentences that share it, possibly far apart (the BP-Seg paper's word: a segment may return); a
    **run** is a stretch of consecutive sentences with one label.  ``labels[i]`` is the segment of sentence
    ``i``; segments are numbered 0..m-1 in order of their first sentence and ``segments[j]`` lists the sentences
    of segment ``j`` in reading order.  The runs are computed from ``labels`` (:attr:`runs`, :attr:`run_labels`,
    :attr:`run_segments`, :attr:`segment_runs`, :attr:`returning_segments`); where no segment returns, each
    segment is one run.

    :class:`bpseg_pgm.text.Segmentation` (what ``segment_text`` returns) is this class with the views that need
    the layers above: keywords, chunks, :meth:`~bpseg_pgm.text.Segmentation.recut`, ``to_text`` and ``to_html``.

    Parameters
    ----------
    sentences : list of str
        The units, their whitespace collapsed (what was embedded).
    labels : ndarray of shape (n,)
        ``labels[i]`` is the segment of sentence ``i``, numbered 0.. in reading order.
    segments : list of list of int
        ``segments[j]``: the sentence indices of segment ``j``, in reading order.
    beliefs : ndarray of shape (n, k)
        BP beliefs, columns permuted to match the labels (columns of segments that ended up empty come last), so
        ``beliefs[i, labels[i]]`` is the raw belief of sentence ``i`` in its own segment
        (:meth:`belief_in_label`); :meth:`confidence` calibrates it into a probability of being right.
    params : dict, default={}
        The estimator's parameters (``BPSeg.get_params()``).
    n_iter : int or None, default=None
        Iterations of the inference.
    converged : bool or None, default=None
        Whether the inference converged.
    model : str or None, default=None
        The embedding model's name.
    text : str or None, default=None
        The text the sentences came from.  None: the sentences joined by newlines (``lines`` is then True and
        ``spans`` must be None).
    spans : list of (int, int) or None, default=None
        ``text[start:end]`` is sentence ``i`` as written; required with ``text``.
    lines : bool, default=False
        True when the text was read one sentence per line.
    embeddings : ndarray of shape (n, d) or None, default=None
        The rows BP-Seg saw (one per sentence; an empty sentence has its neighbour's).  Not kept by :meth:`to_dict`.
    embedder : object or None, default=None
        The embedder (its tokenizer counts the chunks' tokens).  Not kept by :meth:`to_dict`.
    structure : {"runs", "topics", "run-topics"} or None, default=None
        What BPSeg's ``structure`` chose (``BPSeg.structure_``); None when not made by the pipeline.
    granularity : dict or None, default=None
        How "auto" chose the number of runs (``BPSeg.granularity_``): ``{"span": k, "words": k or None}``.
    markdown : bool or None, default=None
        True if the text was read as Markdown when split (chunks then keep Markdown blocks whole); None: not
        said (chunks guess from the text).
    evidence : {"headings", "paragraphs"} or None, default=None
        What the runs were cut at (``BPSeg.evidence_``): the text's headings (the segments are its sections),
        its paragraphs (segments start only where a paragraph does), or None (anywhere).
    heading_paths : list of tuple of str or None, default=None
        The headings each sentence lies under, outermost first (``("Usage", "Reading files")``; a heading's own
        path ends with itself, a sentence before the first heading has ``()``); None when the text was not read
        with its headings (not Markdown).  :attr:`segment_heading_paths` and :attr:`run_heading_paths`
        give each segment's.
    format : {"markdown", "rst", "html", "numbered", "plain"} or None, default=None
        The format the text was read in (``segment_text(format=...)``), which the text and HTML views show it as
        (reStructuredText and HTML rendered); None when not said (the views then show Markdown by ``markdown``,
        anything else as plain text).  Not kept by :meth:`to_dict`.
    runs_fit : object or None, default=None
        The runs model's fit with every level (a :class:`~bpseg_pgm.runs.model.RunsFit`), kept so that
        ``recut`` can give another number of runs without refitting; None when there is none.  Not kept by
        :meth:`to_dict`.

    Attributes
    ----------
    n_segments : int
        Number of non-empty segments (labels); may be fewer than the k asked for.
    runs : list of list of int
        The runs of consecutive sentences with one label, in reading order.
    run_labels : ndarray of shape (n,)
        The run of each sentence.
    run_segments : ndarray of shape (n_runs,)
        The segment of each run.
    segment_runs : list of list of int
        The runs of each segment, in reading order.
    returning_segments : list of int
        The segments with two or more runs.
    n_runs : int
        Number of runs (at least ``n_segments``).
    line_numbers : list of int
        The line (index in ``text.splitlines()``) each sentence starts on.
    max_segments : int or None
        The most segments a re-cut can give, or None when no runs fit is kept.
    requested_segments : int or None
        The k asked for, when it was a number.
    segment_heading_paths, run_heading_paths : list of list of str
        The heading path of each segment's (run's) first sentence; ``[]`` each without headings.
    segment_headings, run_headings : list of str or None
        The title of the heading each segment (run) starts at, None where it starts elsewhere.
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
    structure: str | None = None
    granularity: dict | None = None
    markdown: bool | None = None
    runs_fit: Any = field(default=None, repr=False, compare=False)
    evidence: str | None = None
    heading_paths: list[tuple[str, ...]] | None = None
    format: str | None = None

    def __repr__(self) -> str:
        """One line: the sizes, the structure and the model, not the text, sentences or beliefs."""
        return (
            f"{type(self).__name__}(n_sentences={len(self.sentences)}, n_segments={self.n_segments}, "
            f"structure={self.structure!r}, model={self.model!r})"
        )

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
        if self.heading_paths is not None:
            self.heading_paths = _checked_heading_paths(self.heading_paths, len(self.sentences))

    # ----------------------------------------------------------------------------------------- the two levels

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

    def _bounds(self) -> np.ndarray:
        return run_bounds(np.asarray(self.labels))

    @property
    def runs(self) -> list[list[int]]:
        """The runs: the stretches of consecutive sentences with one label, in reading order.

        ``runs[r]`` lists the sentence indices of run ``r``; together they cover every sentence once.
        A segment that returns has two or more runs.  Computed from ``labels``.
        """
        b = self._bounds()
        return [list(range(int(a), int(e))) for a, e in zip(b[:-1], b[1:])]

    @property
    def n_runs(self) -> int:
        """Number of runs (at least :attr:`n_segments`)."""
        return len(self._bounds()) - 1

    @property
    def run_labels(self) -> np.ndarray:
        """``run_labels[i]`` is the run of sentence ``i`` (0.., reading order), shape (n,)."""
        return bounds_labels(self._bounds())

    @property
    def run_segments(self) -> np.ndarray:
        """``run_segments[r]`` is the segment (label) of run ``r``, shape (n_runs,)."""
        return plain_array(np.asarray(self.labels, dtype=np.int64)[self._bounds()[:-1]])

    @property
    def segment_runs(self) -> list[list[int]]:
        """``segment_runs[j]``: the runs of segment ``j``, in reading order (one unless it returns)."""
        out: list[list[int]] = [[] for _ in range(self.n_segments)]
        for r, t in enumerate(self.run_segments.tolist()):
            out[t].append(r)
        return out

    @property
    def returning_segments(self) -> list[int]:
        """The segments that come back: those with two or more runs (none for ``structure="runs"``)."""
        return [t for t, rs in enumerate(self.segment_runs) if len(rs) > 1]

    # ------------------------------------------------------------------------------------ beliefs and the k asked

    def belief_in_label(self) -> np.ndarray:
        """Each sentence's raw belief in its own label, ``beliefs[i, labels[i]]``, shape (n,).

        What the model that made the labels says, not a probability of being right: the topic model's BP
        marginal, the runs model's chain marginal, or for grouped runs the grouping's belief in the run's segment
        (one number per run, often 0.3-0.6 whether the run is right or not).  :meth:`confidence` calibrates it.
        """
        return np.asarray(self.beliefs)[np.arange(len(self.sentences)), np.asarray(self.labels, dtype=np.int64)]

    def confidence(self) -> np.ndarray:
        """Each sentence's confidence: the probability that it lies in the segment it was put in, shape (n,).

        Calibrated on the development sets (meetings, documentation, concatenated news): among sentences of
        confidence about p, about a fraction p lay in the gold segment matched to their label (labels matched
        to gold segments one to one by maximum overlap; a sentence whose label matches none counts as wrong).
        It is :func:`~bpseg_pgm.confidence.calibrate.calibrated_confidence` of the raw belief
        (:meth:`belief_in_label`), the sentence's distance to the nearer end of its run and the
        structure; its numbers are the ``confidence_*`` fields of the Policy the fit used
        (``params["policy"]``, else the default; ``docs/policy.md``).  A sentence in the middle of a long
        segment is more often right than one next to a boundary; most of the difference between documents is
        the structure's base rate, so read it as the chance that this sentence is placed right, not as how
        good the whole segmentation is.

        Returns
        -------
        ndarray of float64, shape (n,)
            Values in [0, 1]; its elements, indexed or iterated, are Python floats.
        """
        structure = "sections" if self.evidence == "headings" and self.structure == "runs" else self.structure
        return plain_array(calibrated_confidence(self.belief_in_label(), self.labels, structure, self.policy))

    @property
    def policy(self) -> Policy | None:
        """The Policy the fit used when the parameters hold one (None: the default, ``DEFAULT_POLICY``)."""
        policy = self.params.get("policy") if isinstance(self.params, dict) else None
        return policy if isinstance(policy, Policy) else None

    @property
    def max_segments(self) -> int | None:
        """The most segments a re-cut can give (the runs model's levels), or None when no runs fit is kept."""
        return None if self.runs_fit is None else int(self.runs_fit.levels.max_runs)

    @property
    def requested_segments(self) -> int | None:
        """The k asked for, when it was a number (None for "auto" or ``init="all"``)."""
        k = self.params.get("n_segments")
        if self.params.get("init") == "all" or isinstance(k, bool) or not isinstance(k, numbers.Integral):
            return None
        return int(k)

    def count_scores(self) -> dict[int, float] | None:
        """How the fit rated each count it could have chosen: ``{k: gain}`` for k = 1 .. :attr:`max_segments`.

        The gain is the runs model's noise-calibrated criterion (``runs_fit.null_gain``,
        :func:`~bpseg_pgm.runs.null.null_gain`): how much more k runs lower the document's cost than they lower
        that of its sentences shuffled in blocks; 0 at k = 1, ``-inf`` where k runs cannot be placed.  None when
        the segments are not the runs model's (``structure`` other than "runs"), when k was given (a re-cut
        included), or when no gains were kept (e.g. read from JSON).  See :meth:`suggested_counts`.
        """
        fit = self.runs_fit
        gain = None if fit is None else getattr(fit, "null_gain", None)
        if gain is None or self.structure != "runs" or self.requested_segments is not None:
            return None
        gain = np.asarray(gain, dtype=float).reshape(-1)[: self.max_segments]
        return {k: float(g) for k, g in enumerate(gain.tolist(), start=1)}

    def suggested_counts(self, n: int = 3) -> list[int]:
        """At most ``n`` (an int >= 1) counts worth trying, best first: this segmentation's own, then the local
        maxima of :meth:`count_scores` (a finite gain at least each neighbour's) by gain, the larger first (ties:
        the fewer segments).  Each is at most :attr:`max_segments`, so ``recut(k)`` gives it without refitting;
        the HTML view marks them on its slider.  ``[]`` where :meth:`count_scores` is None; a ValueError for a bad
        ``n``.  E.g. ``segment_text(text, structure="runs").suggested_counts()`` -> ``[6, 1]``.
        """
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
            raise ValueError(f"n must be an int >= 1, got {n!r}")
        scores = self.count_scores()
        if scores is None:
            return []
        own = self.n_segments
        peaks = sorted((k for k in _local_maxima(scores) if k != own), key=lambda k: (-scores[k], k))
        return ([own] + peaks)[: int(n)]

    def fewer_than_requested(self) -> str | None:
        """A one-line note when fewer labels came back than the k asked for, else None.

        k counts segments (labels), as ``-k`` does.
        """
        k = self.requested_segments
        if k is None or self.n_segments >= k:
            return None
        return (
            f"{plural(self.n_segments, 'segment')} for k = {k}: "
            f"{k - self.n_segments} of the k labels ended up with no sentence and were dropped"
        )

    # ---------------------------------------------------------------------------------------------- headings

    def _first_units(self, groups: list[list[int]]) -> list[int]:
        return [g[0] for g in groups if g]

    def _paths_at(self, units: list[int]) -> list[list[str]]:
        if self.heading_paths is None:
            return [[] for _ in units]
        return [list(self.heading_paths[i]) for i in units]

    def _headings_at(self, units: list[int]) -> list[str | None]:
        """The heading title each of ``units`` is, when a heading starts there (its path differs from the unit
        before it), else None."""
        paths = self.heading_paths
        if paths is None:
            return [None for _ in units]
        return [paths[i][-1] if paths[i] and (i == 0 or paths[i] != paths[i - 1]) else None for i in units]

    @property
    def segment_heading_paths(self) -> list[list[str]]:
        """``segment_heading_paths[j]``: the headings segment ``j``'s first sentence lies under, outermost first
        (``["Usage", "Reading files"]``); ``[]`` each when the text has no headings read."""
        return self._paths_at(self._first_units(self.segments))

    @property
    def run_heading_paths(self) -> list[list[str]]:
        """The heading path of each run's first sentence (as :attr:`segment_heading_paths`)."""
        return self._paths_at(self._first_units(self.runs))

    @property
    def segment_headings(self) -> list[str | None]:
        """The title of the heading segment ``j`` starts at, or None where it starts elsewhere (its name then
        comes from its keywords)."""
        return self._headings_at(self._first_units(self.segments))

    @property
    def run_headings(self) -> list[str | None]:
        """The title of the heading each run starts at, or None (as :attr:`segment_headings`)."""
        return self._headings_at(self._first_units(self.runs))

    # the names of the two levels before "segment" (a label) and "run" (consecutive sentences) were settled
    n_topics = renamed_attribute("n_topics", "n_segments")
    contiguous_segments = renamed_attribute("contiguous_segments", "runs")
    n_contiguous_segments = renamed_attribute("n_contiguous_segments", "n_runs")
    contiguous_labels = renamed_attribute("contiguous_labels", "run_labels")
    contiguous_topics = renamed_attribute("contiguous_topics", "run_segments")
    topic_segments = renamed_attribute("topic_segments", "segment_runs")
    returning_topics = renamed_attribute("returning_topics", "returning_segments")
    contiguous_heading_paths = renamed_attribute("contiguous_heading_paths", "run_heading_paths")
    contiguous_headings = renamed_attribute("contiguous_headings", "run_headings")

    # ------------------------------------------------------------------------------------------- dict and JSON

    def to_dict(self, beliefs: str = "confidence") -> dict[str, Any]:
        """Plain JSON-ready dict (lists, ints, floats, str), which :meth:`from_dict` reads back.

        The data (``sentences``, ``text``, ``spans``: offsets into the text, ``lines``, ``labels``, ``segments``,
        ``params``, ``n_iter``, ``converged``, ``model``, ``structure``, ``granularity``, ``markdown``,
        ``heading_paths``: each sentence's, or None), then ``line_numbers``, ``n_segments``, both levels under
        their attribute names (``n_runs``, ``runs``,
        ``run_labels``, ``run_segments``, ``segment_runs``, ``returning_segments``) and each level's
        heading paths (``segment_heading_paths``, ``run_heading_paths``).  All indices count from 0.

        The beliefs, so that the dict grows with the text and not with sentences x segments:
        ``beliefs="confidence"`` (the default) writes ``confidence``, each sentence's calibrated confidence
        (:meth:`confidence`: the probability that it lies in its segment), ``belief``, its raw belief in its own
        segment (:meth:`belief_in_label`), both rounded to :data:`CONFIDENCE_DECIMALS` decimals, and
        ``belief_columns`` (k, the beliefs' number of columns); ``beliefs="full"`` adds ``beliefs``, the whole
        (n, k) matrix, unrounded.

        Not kept: ``embeddings``, ``embedder`` and ``runs_fit`` (so a segmentation read back has
        ``max_segments`` None and its ``recut`` raises ValueError), and without ``beliefs="full"`` the beliefs
        outside each sentence's own segment (see :meth:`from_dict`).
        """
        if beliefs not in BELIEFS:
            raise ValueError(f"beliefs must be one of {BELIEFS}, got {beliefs!r}")
        matrix = np.asarray(self.beliefs, dtype=float)
        out: dict[str, Any] = {
            "sentences": list(self.sentences),
            "text": self.text,
            "spans": [[a, b] for a, b in self.spans],
            "lines": bool(self.lines),
            "line_numbers": self.line_numbers,
            "labels": [int(x) for x in self.labels],
            "segments": [[int(i) for i in seg] for seg in self.segments],
            "n_segments": self.n_segments,
            "confidence": [round(float(c), CONFIDENCE_DECIMALS) for c in self.confidence()],
            "belief": [round(float(c), CONFIDENCE_DECIMALS) for c in self.belief_in_label()],
            "belief_columns": int(matrix.shape[1]) if matrix.ndim == 2 else 0,
        }
        if beliefs == "full":
            out["beliefs"] = matrix.tolist()
        out.update(
            {
                "params": {k: jsonable(v) for k, v in self.params.items()},
                "n_iter": None if self.n_iter is None else int(self.n_iter),
                "converged": None if self.converged is None else bool(self.converged),
                "model": self.model,
                "structure": self.structure,
                "granularity": None if self.granularity is None else dict(self.granularity),
                "markdown": None if self.markdown is None else bool(self.markdown),
                "evidence": self.evidence,
                "heading_paths": None if self.heading_paths is None else [list(p) for p in self.heading_paths],
                "segment_heading_paths": self.segment_heading_paths,
                "run_heading_paths": self.run_heading_paths,
                "n_runs": self.n_runs,
                "runs": self.runs,
                "run_labels": self.run_labels.tolist(),
                "run_segments": self.run_segments.tolist(),
                "segment_runs": self.segment_runs,
                "returning_segments": self.returning_segments,
            }
        )
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]):
        """The segmentation :meth:`to_dict` wrote (or its JSON, parsed), as an instance of ``cls``.

        Kept: ``sentences``, ``text``, ``spans``, ``lines``, ``labels``, ``segments``, ``params``, ``n_iter``,
        ``converged``, ``model``, ``structure``, ``granularity``, ``markdown``, ``heading_paths`` (each
        sentence's: a list of lists of str, one per sentence, or None), and so both levels (computed from
        the labels) and each sentence's :meth:`belief_in_label` and :meth:`confidence` (computed again from the
        beliefs, the labels and the structure, with the default Policy: a fit's own Policy is not kept).  The
        beliefs are the full matrix when the dict holds it (``to_dict(beliefs="full")``); otherwise they are
        rebuilt from the raw beliefs (``belief``; a dict written before it had only ``confidence``, which was
        then the raw belief): each sentence's own segment holds its belief (rounded) and the rest is spread
        evenly over the other ``belief_columns`` (the original's other columns are not kept).  Not kept: ``embeddings`` and ``embedder`` (None: chunks
        then load the default model's tokenizer and split at the weakest link of the beliefs), and the runs fit,
        so ``max_segments`` is None and ``recut`` raises ValueError: segment the text again to re-cut it.  The
        derived keys (``line_numbers``, ``n_segments``, the levels, keywords) are not read.  A missing key or
        inconsistent lengths are a ValueError, and so is any field that does not fit
        (:func:`~bpseg_pgm.types.checks.check_segmentation_dict`), before anything is built from it.
        """
        check_segmentation_dict(d)  # one ValueError naming the field, before anything is built
        sentences = [str(s) for s in d["sentences"]]
        labels = np.asarray(d["labels"], dtype=np.int64).reshape(-1)
        n = len(sentences)
        if labels.shape[0] != n:
            raise ValueError(f"{labels.shape[0]} labels for {n} sentences")
        if labels.size and labels.min() < 0:
            raise ValueError("labels must be >= 0")
        segments = d.get("segments")
        if segments is None:
            segments = [np.flatnonzero(labels == j).tolist() for j in range(int(labels.max(initial=-1)) + 1)]
        segments = [[int(i) for i in seg] for seg in segments]
        if d.get("beliefs") is not None:
            beliefs = np.asarray(d["beliefs"], dtype=float)
            if beliefs.ndim != 2 or beliefs.shape[0] != n:
                raise ValueError(f"beliefs must have one row per sentence ({n}), got shape {beliefs.shape}")
        elif d.get("belief") is not None:
            beliefs = _beliefs_from_confidence(d["belief"], labels, d.get("belief_columns"), "beliefs")
        elif d.get("confidence") is not None:  # written before "belief": its confidence was the raw belief
            beliefs = _beliefs_from_confidence(d["confidence"], labels, d.get("belief_columns"), "confidences")
        else:
            raise ValueError("not a segmentation's dict: neither beliefs nor confidence")
        if d.get("confidence") is not None and len(d["confidence"]) != n:  # computed again, but it must fit
            raise ValueError(f"{len(d['confidence'])} confidences for {n} sentences")
        return cls(
            sentences=sentences,
            labels=labels,
            segments=segments,
            beliefs=beliefs,
            params=dict(d.get("params") or {}),
            n_iter=d.get("n_iter"),
            converged=d.get("converged"),
            model=d.get("model"),
            text=d["text"],
            spans=[(int(a), int(b)) for a, b in d["spans"]],
            lines=bool(d.get("lines", False)),
            structure=d.get("structure"),
            granularity=None if d.get("granularity") is None else dict(d["granularity"]),
            markdown=d.get("markdown"),
            evidence=d.get("evidence"),
            heading_paths=d.get("heading_paths"),
        )

    def to_json(self, indent: int | None = 2, *, beliefs: str = "confidence") -> str:
        """The :meth:`to_dict` content as a JSON string (UTF-8 characters kept); ``beliefs="full"`` writes the
        whole belief matrix too (see :meth:`to_dict`).  :meth:`from_json` reads it back.

        NaN or inf anywhere is a ValueError: ``json.dumps`` would write them as bare
        ``NaN``/``Infinity``, which is not JSON and breaks every strict reader.
        """
        d = self.to_dict(beliefs=beliefs)
        try:
            return json.dumps(d, indent=indent, ensure_ascii=False, allow_nan=False)
        except ValueError:
            raise ValueError("the segmentation holds NaN or inf values, which JSON cannot represent") from None

    @classmethod
    def from_json(cls, text: str):
        """The segmentation :meth:`to_json` wrote: :meth:`from_dict` of the parsed JSON (what it keeps, it says)."""
        return cls.from_dict(json.loads(text))


def _checked_heading_paths(paths: Any, n: int) -> list[tuple[str, ...]]:
    """``paths`` as a list of n tuples of str, or a ValueError naming ``heading_paths``."""
    if not isinstance(paths, (list, tuple)) or len(paths) != n:
        got = f"{len(paths)} paths" if isinstance(paths, (list, tuple)) else type(paths).__name__
        raise ValueError(f"heading_paths must hold one list of headings per sentence ({n}), got {got}")
    out = []
    for i, path in enumerate(paths):
        if not isinstance(path, (list, tuple)) or not all(isinstance(h, str) for h in path):
            raise ValueError(f"heading_paths[{i}] must be a list of str, got {path!r:.60}")
        out.append(tuple(path))
    return out


def _beliefs_from_confidence(confidence: Any, labels: np.ndarray, columns: Any, what: str) -> np.ndarray:
    """(n, k) beliefs whose own-segment entries are ``confidence`` (the raw beliefs, called ``what`` in an error)
    and whose rows spread the rest evenly."""
    conf = np.asarray(confidence, dtype=float).reshape(-1)
    if conf.shape[0] != labels.shape[0]:
        raise ValueError(f"{conf.shape[0]} {what} for {labels.shape[0]} sentences")
    k = int(labels.max(initial=-1)) + 1 if columns is None else int(columns)
    if k < int(labels.max(initial=-1)) + 1 or k < 1:
        raise ValueError(f"belief_columns ({k}) must exceed every label")
    rest = np.clip(1.0 - conf, 0.0, None) / (k - 1) if k > 1 else np.zeros_like(conf)
    beliefs = np.repeat(rest[:, None], k, axis=1)
    beliefs[np.arange(labels.shape[0]), labels] = conf
    return beliefs


def _local_maxima(scores: dict[int, float]) -> list[int]:
    """The counts k of ``scores`` (``{k: gain}``, k = 1, 2, ...) whose finite gain is at least that of each
    neighbour k - 1 and k + 1 present, in increasing k."""
    out = []
    for k, g in scores.items():
        if not np.isfinite(g):
            continue
        if all(g >= scores[j] for j in (k - 1, k + 1) if j in scores):
            out.append(k)
    return out
