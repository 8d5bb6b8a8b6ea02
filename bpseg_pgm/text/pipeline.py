"""Text in, segments out: split, embed, run BP-Seg, and present the result.

:func:`segment_text` and :func:`segment_sentences` glue the sentence splitter,
the cached :class:`~bpseg_pgm.embeddings.Embedder` and the core
:class:`~bpseg_pgm.estimator.BPSeg` estimator together, checking the input *before* the
slow embedding step (:mod:`bpseg_pgm.text.checks`) so that bad input fails fast with one
clear ``ValueError``.  The result is a :class:`~bpseg_pgm.text.segmentation.Segmentation`
whose labels are renumbered in reading order (segment 0 is the one the first sentence
belongs to).  :func:`segment_texts` segments many texts with one embedding batch;
:func:`fit_segmentation` is the last step alone, for callers that embed themselves
(``bpseg corpus``).
"""

from __future__ import annotations

import logging
import os
from typing import Any, Iterable

import numpy as np

from bpseg_pgm.chunks.markdown import looks_like_markdown
from bpseg_pgm.embeddings import Embedder, resolve_embedder
from bpseg_pgm.features.units import Units
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.structure.detect import check_format, detect_format
from bpseg_pgm.text.checks import (
    check_sentences,
    checked_estimator,
    nonempty_units,
    split_for_segmentation,
)
from bpseg_pgm.text.layout import unit_layout
from bpseg_pgm.text.progress import fit_progress
from bpseg_pgm.text.segmentation import (
    Segmentation,
    _renumber,  # noqa: F401  (tests read it here)
    build_segmentation,
)
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.validation import check_list
from bpseg_pgm.utils.words import plural

__all__ = [
    "Segmentation",
    "fit_segmentation",
    "read_as_markdown",
    "read_format",
    "segment_text",
    "segment_sentences",
    "segment_texts",
]

DEFAULT_N_SEGMENTS = "auto"  # as in BPSeg: let the estimator choose k

PathOrName = str | os.PathLike | None  # a model name or directory; a cache directory

_log = logging.getLogger(__name__)


def segment_sentences(
    sentences: Iterable[str],
    n_segments: int | str = DEFAULT_N_SEGMENTS,
    *,
    model: PathOrName = None,
    embedder: Embedder | None = None,
    cache_dir: PathOrName = None,
    show_progress: bool | None = None,
    **bpseg_params: Any,
) -> Segmentation:
    """Segment already-split sentences with BP-Seg.

    ``model``/``cache_dir``/``show_progress`` configure a new :class:`Embedder`;
    pass ``embedder`` instead to reuse one (and its loaded model) across calls.
    ``n_segments`` is k, or "auto" to let BP-Seg choose.  Remaining keyword
    arguments (``potentials``, ``lam``, ``sigma``, ``engine``, ``init``, ``em_rounds``,
    ``max_iter``, ``tol``, ``damping``, ``random_state``, ...) go to :class:`~bpseg_pgm.BPSeg`; every one is
    checked before anything is embedded (``BPSeg(...).check_params()``), and a keyword BPSeg does not take
    is a ``ValueError`` naming it.
    The result's ``text`` is the sentences joined by newlines.

    Empty or whitespace-only sentences are kept as units: they are not embedded and not given to the
    model; each takes the segment and belief row of its nearest non-empty neighbour (the previous one,
    else the next), so ``labels``, ``spans`` and ``sentences`` have one entry per input sentence.
    At least 2 sentences must be non-empty.
    """
    sentences = check_sentences(sentences)
    live = nonempty_units(sentences)
    estimator = checked_estimator(n_segments, bpseg_params, len(live))
    embedder = resolve_embedder(embedder, model, cache_dir, show_progress)
    return fit_segmentation(sentences, embedder.encode([sentences[i] for i in live]), estimator, embedder)


def read_as_markdown(text: Any, lines: bool, markdown: Any) -> bool:
    """Whether ``text`` is read as Markdown: ``markdown`` if a bool, else (None) guessed
    (:func:`~bpseg_pgm.chunks.markdown.looks_like_markdown`); never with ``lines``.  Any other ``markdown`` is a
    ValueError.  The one rule for :func:`segment_text`, :func:`segment_texts`, ``chunk_texts`` and ``bpseg corpus``."""
    if markdown is not None and not isinstance(markdown, (bool, np.bool_)):
        raise ValueError(f"markdown must be True, False or None, got {markdown!r}")
    if lines or not isinstance(text, str):
        return False
    return looks_like_markdown(text) if markdown is None else bool(markdown)


def read_format(text: Any, lines: bool, markdown: Any = None, format: Any = None) -> str:
    """The format ``text`` is read in: "markdown", "rst", "html", "numbered" or "plain". ``format`` if given
    (one of those; it overrides ``markdown``), else "markdown" or "plain" if ``markdown`` is True or False, else
    (both None) Markdown if :func:`~bpseg_pgm.chunks.markdown.looks_like_markdown`, else
    :func:`~bpseg_pgm.structure.detect.detect_format`'s guess; always "plain" with ``lines``. A bad
    ``format`` or ``markdown`` is a ValueError."""
    format = check_format(format)
    if format is None:
        if markdown is not None:
            return "markdown" if read_as_markdown(text, lines, markdown) else "plain"
    elif markdown is not None and not isinstance(markdown, (bool, np.bool_)):
        raise ValueError(f"markdown must be True, False or None, got {markdown!r}")
    if lines or not isinstance(text, str):
        return "plain"
    if format is None and looks_like_markdown(text):  # Markdown first, as before
        return "markdown"
    return format or detect_format(text)


def segment_text(
    text: str,
    n_segments: int | str = DEFAULT_N_SEGMENTS,
    *,
    model: PathOrName = None,
    lines: bool = False,
    embedder: Embedder | None = None,
    cache_dir: PathOrName = None,
    show_progress: bool | None = None,
    markdown: bool | None = None,
    layout: bool = True,
    format: str | None = None,
    **bpseg_params: Any,
) -> Segmentation:
    """Split ``text`` into sentences (or lines, if ``lines``) and segment them with BP-Seg.

    The result keeps ``text`` and each sentence's ``spans`` in it.  With ``lines=True`` the units are
    the lines that are not blank: a blank (empty or whitespace-only) line is not a unit, so ``labels``
    has one entry per non-blank line, and ``Segmentation.line_numbers[i]`` is the index of unit ``i``'s
    line in ``text.splitlines()``.  ``markdown`` (None: guessed with
    :func:`~bpseg_pgm.chunks.markdown.looks_like_markdown`; ignored with ``lines``) reads the text as Markdown:
    each code block, table and heading is one unit, and the result's ``markdown`` tells its chunks to keep
    Markdown blocks whole.

    ``format`` reads the text as "markdown", "rst" (reStructuredText), "html", "numbered" (plain text with numbered
    headings, ``2.3 Results``) or "plain" (:mod:`bpseg_pgm.structure`); it overrides ``markdown``. None (and
    ``markdown`` None): guessed where the text is unambiguous (:func:`read_format`). Each format's section titles
    are headings, as Markdown's are; spans stay offsets of ``text`` as given.

    ``layout`` (default True) reads the text's own structure as evidence of its segments
    (:mod:`~bpseg_pgm.text.layout`, :mod:`~bpseg_pgm.decisions.layout`): with Markdown headings and
    ``n_segments="auto"`` the segments are the top-level sections (given k, or re-cut with
    :meth:`Segmentation.recut`, k runs at the headings: the sections split at their own sub-headings, then at
    their paragraphs); in a text of several paragraphs (blank lines between them) segments start only where a
    paragraph does. A text with neither is segmented as a
    list of its sentences would be. ``layout=False`` ignores both.
    """
    _check_layout(layout)
    fmt = read_format(text, lines, markdown, format)
    markdown = fmt == "markdown"
    sentences, spans = split_for_segmentation(text, lines, markdown, fmt)
    estimator = checked_estimator(n_segments, bpseg_params, len(sentences))
    embedder = resolve_embedder(embedder, model, cache_dir, show_progress)
    X = embedder.encode(sentences)
    policy = estimator.policy if isinstance(estimator.policy, Policy) else DEFAULT_POLICY
    # a phase line (bpseg_pgm.cli.progress); "quick" for a short text: shown only after a slow phase (a model load)
    _log.info("fitting %s", plural(len(sentences), "sentence"), extra={"quick": len(sentences) < policy.progress_units})
    return fit_segmentation(
        sentences,
        X,
        estimator,
        embedder,
        text=text,
        spans=spans,
        lines=lines,
        markdown=markdown,
        layout=layout,
        format=fmt,
    )


def segment_texts(
    texts: Iterable[str],
    n_segments: int | str | list = DEFAULT_N_SEGMENTS,
    *,
    model: PathOrName = None,
    lines: bool = False,
    embedder: Embedder | None = None,
    cache_dir: PathOrName = None,
    show_progress: bool | None = None,
    markdown: bool | None | list = None,
    layout: bool = True,
    format: str | None | list = None,
    **bpseg_params: Any,
) -> list[Segmentation]:
    """:func:`segment_text` for many texts: every text is checked and split first, then all their
    sentences are embedded in one batch (one progress bar, one model load), then each text is
    segmented on its own.  Returns one :class:`Segmentation` per text, in order.

    ``n_segments`` is one k (or "auto") for every text, or a list with one per text.  A text that
    cannot be segmented (not a str, empty, fewer than 2 sentences, fewer sentences than its k) is a
    ``ValueError`` naming it (``texts[3]: ...``) before anything is embedded.  ``markdown`` is decided per text
    (None: guessed), as in :func:`segment_text`, or given as a list with one value per text; ``format`` too;
    ``layout`` as in :func:`segment_text`.
    """
    texts = check_list(texts, "texts must be a list of str (use segment_text for a single text)", any_iterable=True)
    if not texts:
        raise ValueError("texts is empty")
    if isinstance(n_segments, (list, tuple)):
        if len(n_segments) != len(texts):
            raise ValueError(f"n_segments has {len(n_segments)} values for {len(texts)} texts")
        ks = list(n_segments)
    else:
        ks = [n_segments] * len(texts)
    checked_estimator("auto", bpseg_params)  # the parameters once, before any text; each text's k below
    _check_layout(layout)
    split = []
    per_text = {}
    for name, value in (("markdown", markdown), ("format", format)):
        if isinstance(value, (list, tuple)):
            if len(value) != len(texts):
                raise ValueError(f"{name} has {len(value)} values for {len(texts)} texts")
            per_text[name] = list(value)
        else:
            per_text[name] = [value] * len(texts)
    fmts = [read_format(t, lines, m, f) for t, m, f in zip(texts, per_text["markdown"], per_text["format"])]
    marks = [f == "markdown" for f in fmts]
    for i, (text, k) in enumerate(zip(texts, ks)):
        try:
            sentences, spans = split_for_segmentation(text, lines, marks[i], fmts[i])
            estimator = checked_estimator(k, bpseg_params, len(sentences))  # k (and explicit init) against this text
        except ValueError as exc:
            raise ValueError(f"texts[{i}]: {exc}") from None
        split.append((sentences, spans, estimator))
    embedder = resolve_embedder(embedder, model, cache_dir, show_progress)
    X = encode_batch(embedder, [sentences for sentences, *_ in split])
    out, pos = [], 0
    for text, mark, fmt, (sentences, spans, estimator) in zip(texts, marks, fmts, split):
        rows = X[pos : pos + len(sentences)]
        pos += len(sentences)
        out.append(
            fit_segmentation(
                sentences,
                rows,
                estimator,
                embedder,
                text=text,
                spans=spans,
                lines=lines,
                markdown=mark,
                layout=layout,
                format=fmt,
            )
        )
    return out


def encode_batch(embedder: Any, documents: list[list[str]]) -> np.ndarray:
    """The rows of every document's sentences, in order, from one call: ``encode_documents`` when the embedder
    embeds a sentence with its neighbours (``Embedder(context=...)``: neighbours are then taken from the
    sentence's own document only), else ``encode`` of all the sentences."""
    if getattr(embedder, "context", None) is not None and hasattr(embedder, "encode_documents"):
        return np.concatenate(embedder.encode_documents(documents), axis=0)
    return embedder.encode([s for doc in documents for s in doc])


def _check_layout(layout: Any) -> None:
    if not isinstance(layout, (bool, np.bool_)):
        raise ValueError(f"layout must be True or False, got {layout!r}")


def fit_segmentation(
    sentences: list[str],
    X: np.ndarray,
    estimator: Any,
    embedder: Any,
    text: str | None = None,
    spans: list[Span] | None = None,
    lines: bool = False,
    markdown: bool | None = None,
    layout: bool = True,
    format: str | None = None,
) -> Segmentation:
    """BP-Seg on the embeddings ``X`` of checked ``sentences``: the :class:`Segmentation`, labels renumbered.

    ``estimator``: the :class:`~bpseg_pgm.estimator.BPSeg` to fit, as
    :func:`~bpseg_pgm.text.checks.checked_estimator` makes and checks it before anything is embedded (its
    ``check_params`` is the one check of ``n_segments``; the fit runs it again on the units it sees).
    ``X`` has one row per non-empty sentence (what the model sees), or one row per sentence (the rows
    of empty sentences are then ignored).  Empty or whitespace-only sentences are not given to the
    model: each takes the label, belief row and embedding row of its nearest non-empty neighbour (the
    previous one, else the next; :func:`~bpseg_pgm.text.checks.unit_sources`), so the result has one
    entry per sentence.  ``text``/``spans``/``lines`` are kept in the result (None: the sentences joined by
    newlines); with ``text`` and ``spans`` and ``layout``, the text's paragraphs and headings
    (:func:`~bpseg_pgm.text.layout.unit_layout`; ``format``: the format the text was read in, see
    :func:`read_format`) go to the model.  NaN or inf beliefs, fewer than 2 non-empty sentences or a k larger
    than their number are a ValueError.
    """
    sentences = list(sentences)
    live = nonempty_units(sentences)
    if len(live) < 2:
        raise ValueError(f"need at least 2 non-empty sentences to segment, got {len(live)}")
    X = np.asarray(X)
    if len(X) == len(sentences):
        X_live = X if len(live) == len(sentences) else X[live]
    elif len(X) == len(live):
        X_live = X
    else:
        raise ValueError(f"{len(X)} embedding rows for {len(sentences)} sentences ({len(live)} non-empty)")
    # the features step: unit weights (short units, "Yeah .", count less) and, when the model reads them, the words
    live_units = [sentences[i] for i in live]
    paragraphs = headings = None
    _check_layout(layout)
    if layout and text is not None and spans is not None:  # the text's paragraphs and headings: evidence
        paragraphs, headings = unit_layout(text, spans, bool(markdown) and not lines, None if lines else format)
        paragraphs, headings = paragraphs[live], headings[live]
    # the Policy reaches the features and the progress line too (anything else is refused by the fit, below)
    policy = estimator.policy if isinstance(estimator.policy, Policy) else None
    units = Units.from_sentences(
        live_units,
        embeddings=X_live,
        words=estimator.reads_words(),
        paragraphs=paragraphs,
        headings=headings,
        policy=policy,
    )
    show = bool(getattr(embedder, "progress_enabled", lambda: False)())
    with fit_progress(len(live), show, None if policy is None else policy.progress_units) as callback:
        estimator.fit(units, callback=callback)
        if callback is not None:
            callback.done(f"{estimator.structure_}, {estimator.n_segments_} segments")
    if not np.all(np.isfinite(estimator.beliefs_)):  # every engine should refuse first; never pass NaN on
        raise ValueError(
            f"belief propagation (engine {estimator.engine!r}) gave NaN or inf beliefs: the potentials over- or "
            "underflowed; use a smaller lam or another engine"
        )
    return build_segmentation(
        sentences,
        X_live,
        estimator.result_,
        params=estimator.get_params(),
        embedder=embedder,
        model=getattr(embedder, "model_name", None),
        text=text,
        spans=spans,
        lines=lines,
        markdown=markdown,
        format=None if lines else format,
    )
