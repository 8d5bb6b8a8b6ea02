"""Text in, segments out: split, embed, run BP-Seg, and present the result.

:func:`segment_text` and :func:`segment_sentences` glue the sentence splitter,
the cached :class:`~bpseg_pgm.embeddings.Embedder` and the core
:class:`~bpseg_pgm.BPSeg` estimator together, checking the input *before* the
slow embedding step so that bad input fails fast with one clear ``ValueError``.
The result is a :class:`Segmentation` whose labels are renumbered in reading
order (segment 0 is the one the first sentence belongs to), which makes outputs
comparable across runs and easy to read.  It keeps the text and each sentence's
character span in it, so it can be cut into :meth:`~Segmentation.chunks` whose
offsets point into the original, and shown as HTML (:meth:`~Segmentation.to_html`,
and in Jupyter by itself).  :func:`segment_texts` segments many texts with one
embedding batch.

Numbering: every index in Python (labels, segments, sentence indices) counts from 0;
every human-readable output (:meth:`~Segmentation.to_text`, the HTML, the CLI's text)
counts sentences and segments from 1.
"""

from __future__ import annotations

import json
import numbers
import os
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from bpseg_pgm.io.jsonable import jsonable

from bpseg_pgm.utils.validation import check_unicode
from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.text.split import Span, sentence_spans, squash

__all__ = ["Segmentation", "segment_text", "segment_sentences", "segment_texts"]

DEFAULT_N_SEGMENTS = "auto"  # as in BPSeg: let the estimator choose k


@dataclass
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
    kept when the pipeline made the segmentation; :meth:`chunks` uses them.
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
    #: what ``contiguous`` chose (``BPSeg.structure_``); None when not made by the pipeline
    structure: str | None = None

    def __post_init__(self) -> None:
        if self.text is None:
            if self.spans is not None:
                raise ValueError("spans need the text they point into")
            self.text, self.spans, self.lines = _joined(self.sentences)
        elif self.spans is None:
            raise ValueError("a Segmentation given its text needs the sentences' spans too")
        self.spans = [(int(a), int(b)) for a, b in self.spans]
        if len(self.spans) != len(self.sentences):
            raise ValueError(f"{len(self.spans)} spans for {len(self.sentences)} sentences")

    @property
    def n_segments(self) -> int:
        """Number of non-empty segments (may be fewer than the k asked for)."""
        return len(self.segments)

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
        """A one-line note when fewer segments came back than the k asked for, else None."""
        k = self.requested_segments
        if k is None or self.n_segments >= k:
            return None
        return (f"{self.n_segments} segment{'s' if self.n_segments != 1 else ''} for k = {k}: "
                f"{k - self.n_segments} of the k labels ended up with no sentence and were dropped")

    def chunks(self, max_tokens: int | None = None, contiguous: bool = True, *, min_tokens: int | None = None,
               count_tokens: Any = None) -> list[Any]:
        """Cut the text into :class:`~bpseg_pgm.chunks.Chunk` objects with exact offsets.

        ``contiguous=True``: one chunk per run of consecutive sentences of one segment, in reading
        order, ``chunk.text == self.text[chunk.start:chunk.end]``.  ``contiguous=False``: one chunk
        per segment (its runs joined by blank lines; ``chunk.spans`` lists them).  A chunk longer
        than ``max_tokens`` (the embedding model's tokens, special tokens included) is split at
        its weakest link, until every chunk of two or more sentences fits; with ``min_tokens``,
        a contiguous chunk shorter than that merges into a neighbour when the result fits.
        ``count_tokens`` (a function from a list of str to a list of int) replaces the model's
        tokenizer.  See :func:`bpseg_pgm.chunks.make_chunks`.
        """
        from bpseg_pgm.chunks import make_chunks

        return make_chunks(self, max_tokens, contiguous, min_tokens=min_tokens, count_tokens=count_tokens)

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
        """Plain JSON-ready dict (lists, ints, floats, str); ``spans`` are offsets into the text."""
        return {
            "sentences": list(self.sentences),
            "spans": [[a, b] for a, b in self.spans],
            "labels": [int(x) for x in self.labels],
            "segments": [[int(i) for i in seg] for seg in self.segments],
            "n_segments": self.n_segments,
            "beliefs": np.asarray(self.beliefs, dtype=float).tolist(),
            "params": {k: jsonable(v) for k, v in self.params.items()},
            "n_iter": None if self.n_iter is None else int(self.n_iter),
            "converged": None if self.converged is None else bool(self.converged),
            "model": self.model,
            "structure": self.structure,
        }

    def to_text(self) -> str:
        """Human-readable listing: each segment (numbered from 1) with its numbered sentences (from 1).

        When fewer segments came back than the k asked for, a first line says so.
        """
        width = len(str(len(self.sentences)))
        note = self.fewer_than_requested()
        blocks = [f"Note: {note}."] if note else []
        for j, idx in enumerate(self.segments):
            head = f"[Segment {j + 1}] sentences " + ", ".join(str(i + 1) for i in idx)
            body = [f"  {i + 1:>{width}}  {self.sentences[i]}" for i in idx]
            blocks.append("\n".join([head, *body]))
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


def _joined(sentences: list[str]) -> tuple[str, list[Span], bool]:
    """The sentences as one text, one per line, and their spans in it."""
    spans, pos = [], 0
    for sentence in sentences:
        spans.append((pos, pos + len(sentence)))
        pos += len(sentence) + 1
    return "\n".join(sentences), spans, True


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


def _check_sentences(sentences: Any) -> list[str]:
    if isinstance(sentences, (str, bytes)) or not isinstance(sentences, Iterable):
        raise ValueError("sentences must be a list of str (use segment_text for raw text)")
    sentences = list(sentences)
    for i, s in enumerate(sentences):
        if not isinstance(s, str):
            raise ValueError(f"sentence {i} is {type(s).__name__}, not str")
        check_unicode(s, f"sentence {i}")
        if not s.strip():
            raise ValueError(f"sentence {i} is empty")
    if len(sentences) < 2:
        raise ValueError(f"need at least 2 sentences to segment, got {len(sentences)}")
    return sentences


def _check_n_segments(n_segments: Any, n: int, init: Any) -> None:
    if init == "all" or (isinstance(n_segments, str) and n_segments == "auto"):
        return  # k = n, or chosen by the estimator
    if isinstance(n_segments, bool) or not isinstance(n_segments, numbers.Integral) or n_segments < 1:
        raise ValueError(f"n_segments must be a positive int or 'auto', got {n_segments!r}")
    if n_segments > n:
        raise ValueError(f"n_segments={n_segments} is larger than the number of sentences ({n})")


def segment_sentences(
    sentences: Iterable[str],
    n_segments: int | str = DEFAULT_N_SEGMENTS,
    *,
    model: str | os.PathLike | None = None,
    embedder: Embedder | None = None,
    cache_dir: str | os.PathLike | None = None,
    show_progress: bool | None = None,
    **bpseg_params: Any,
) -> Segmentation:
    """Segment already-split sentences with BP-Seg.

    ``model``/``cache_dir``/``show_progress`` configure a new :class:`Embedder`;
    pass ``embedder`` instead to reuse one (and its loaded model) across calls.
    ``n_segments`` is k, or "auto" to let BP-Seg choose.  Remaining keyword
    arguments (``potentials``, ``lam``, ``sigma``, ``engine``, ``init``, ``em_rounds``,
    ``max_iter``, ``tol``, ``damping``, ``random_state``, ...) go to :class:`~bpseg_pgm.BPSeg`.
    The result's ``text`` is the sentences joined by newlines.
    """
    sentences = _check_sentences(sentences)
    _check_n_segments(n_segments, len(sentences), bpseg_params.get("init"))
    embedder = _embedder(embedder, model, cache_dir, show_progress)
    return _fit(sentences, embedder.encode(sentences), n_segments, embedder, bpseg_params)


def segment_text(
    text: str,
    n_segments: int | str = DEFAULT_N_SEGMENTS,
    *,
    model: str | os.PathLike | None = None,
    lines: bool = False,
    embedder: Embedder | None = None,
    cache_dir: str | os.PathLike | None = None,
    show_progress: bool | None = None,
    **bpseg_params: Any,
) -> Segmentation:
    """Split ``text`` into sentences (or lines, if ``lines``) and segment them with BP-Seg.

    The result keeps ``text`` and each sentence's ``spans`` in it.
    """
    sentences, spans = _split_checked(text, lines)
    _check_n_segments(n_segments, len(sentences), bpseg_params.get("init"))
    embedder = _embedder(embedder, model, cache_dir, show_progress)
    return _fit(sentences, embedder.encode(sentences), n_segments, embedder, bpseg_params,
                text=text, spans=spans, lines=lines)


def segment_texts(
    texts: Iterable[str],
    n_segments: int | str = DEFAULT_N_SEGMENTS,
    *,
    model: str | os.PathLike | None = None,
    lines: bool = False,
    embedder: Embedder | None = None,
    cache_dir: str | os.PathLike | None = None,
    show_progress: bool | None = None,
    **bpseg_params: Any,
) -> list[Segmentation]:
    """:func:`segment_text` for many texts: every text is checked and split first, then all their
    sentences are embedded in one batch (one progress bar, one model load), then each text is
    segmented on its own.  Returns one :class:`Segmentation` per text, in order.

    ``n_segments`` is one k (or "auto") for every text, or a list with one per text.  A text that
    cannot be segmented (not a str, empty, fewer than 2 sentences, fewer sentences than its k) is a
    ``ValueError`` naming it (``texts[3]: ...``) before anything is embedded.
    """
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Iterable):
        raise ValueError("texts must be a list of str (use segment_text for a single text)")
    texts = list(texts)
    if not texts:
        raise ValueError("texts is empty")
    if isinstance(n_segments, (list, tuple)):
        if len(n_segments) != len(texts):
            raise ValueError(f"n_segments has {len(n_segments)} values for {len(texts)} texts")
        ks = list(n_segments)
    else:
        ks = [n_segments] * len(texts)
    split = []
    for i, (text, k) in enumerate(zip(texts, ks)):
        try:
            sentences, spans = _split_checked(text, lines)
            _check_n_segments(k, len(sentences), bpseg_params.get("init"))
        except ValueError as exc:
            raise ValueError(f"texts[{i}]: {exc}") from None
        split.append((sentences, spans))
    embedder = _embedder(embedder, model, cache_dir, show_progress)
    X = embedder.encode([s for sentences, _ in split for s in sentences])
    out, pos = [], 0
    for text, k, (sentences, spans) in zip(texts, ks, split):
        rows = X[pos:pos + len(sentences)]
        pos += len(sentences)
        out.append(_fit(sentences, rows, k, embedder, bpseg_params, text=text, spans=spans, lines=lines))
    return out


def _split_checked(text: Any, lines: bool) -> tuple[list[str], list[Span]]:
    """Sentences (whitespace collapsed) and their spans, or a ValueError saying why ``text`` cannot be segmented."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    if not text:
        raise ValueError("text is empty")
    if not text.strip():
        raise ValueError("text contains only whitespace")
    check_unicode(text)
    spans = sentence_spans(text, lines=lines)
    if len(spans) < 2:
        unit = "line" if lines else "sentence"
        raise ValueError(f"found {len(spans)} {unit}(s); need at least 2 to segment")
    return [squash(text[a:b]) for a, b in spans], spans


def _embedder(embedder: Any, model: Any, cache_dir: Any, show_progress: bool | None) -> Any:
    if embedder is not None and (model is not None or cache_dir is not None):
        raise ValueError("pass either an embedder or model/cache_dir, not both")
    return embedder if embedder is not None else Embedder(model, cache_dir=cache_dir, show_progress=show_progress)


def _fit(sentences: list[str], X: np.ndarray, n_segments: Any, embedder: Any, bpseg_params: dict[str, Any],
         text: str | None = None, spans: list[Span] | None = None, lines: bool = False) -> Segmentation:
    from bpseg_pgm import BPSeg

    from bpseg_pgm.text.weights import unit_weights

    # short units ("Yeah .") count less where the model uses weights (contiguous=True)
    estimator = BPSeg(n_segments=n_segments, **bpseg_params).fit(X, sample_weight=unit_weights(sentences))
    if not np.all(np.isfinite(estimator.beliefs_)):  # every engine should refuse first; never pass NaN on
        raise ValueError(
            f"belief propagation (engine {estimator.engine!r}) gave NaN or inf beliefs: the potentials over- or "
            "underflowed; use a smaller lam or another engine"
        )
    labels, segments, beliefs = _renumber(estimator.labels_, np.asarray(estimator.beliefs_, dtype=float))
    return Segmentation(
        sentences=sentences,
        labels=labels,
        segments=segments,
        beliefs=beliefs,
        params=estimator.get_params(),
        n_iter=estimator.n_iter_,
        converged=estimator.converged_,
        model=getattr(embedder, "model_name", None),
        text=text,
        spans=spans,
        lines=lines,
        embeddings=np.asarray(X),
        embedder=embedder,
        structure=getattr(estimator, "structure_", None),
    )
