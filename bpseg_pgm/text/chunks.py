"""Many texts to chunks in one call: split, embed in one batch, segment, and cut each into chunks.

:func:`chunk_texts` is what the framework adapters (:mod:`bpseg_pgm.integrations`) are built on.
It belongs to the text layer because it segments first (:func:`~bpseg_pgm.text.pipeline.segment_texts`);
the chunking itself is :func:`bpseg_pgm.chunks.make_chunks`.
"""

from __future__ import annotations

import numbers
from typing import Any, Iterable

import numpy as np

from bpseg_pgm.chunks import Chunk, check_chunk_options, check_context_sentences, make_chunks, token_counter
from bpseg_pgm.embeddings import resolve_embedder
from bpseg_pgm.text.checks import check_bpseg_params
from bpseg_pgm.text.pipeline import read_format, segment_texts
from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash
from bpseg_pgm.utils.validation import check_list, check_unicode

__all__ = ["chunk_texts"]


def _checked_caps(max_tokens: Any, n: int) -> list[int | None] | None:
    """One cap per text when ``max_tokens`` is a list (or tuple), else None."""
    if not isinstance(max_tokens, (list, tuple)):
        return None
    if len(max_tokens) != n:
        raise ValueError(f"max_tokens has {len(max_tokens)} values for {n} texts")
    return list(max_tokens)


def chunk_texts(
    texts: Iterable[str],
    max_tokens: int | None | list = None,
    contiguous: bool = True,
    *,
    min_tokens: int | None = None,
    hard_cap: bool = True,
    markdown: bool | None = None,
    context_sentences: int | None = None,
    format: str | None = None,
    n_segments: int | str = "auto",
    lines: bool = False,
    model: Any = None,
    embedder: Any = None,
    cache_dir: Any = None,
    show_progress: bool | None = None,
    bpseg_params: dict[str, Any] | None = None,
    **more_bpseg_params: Any,
) -> list[list[Chunk]]:
    """Chunks of many texts: one list of :class:`~bpseg_pgm.types.chunk.Chunk` per text, with one embedding
    batch for all.

    Unlike :func:`~bpseg_pgm.text.pipeline.segment_texts` this accepts any text: an empty or
    whitespace-only text gives no chunk, a text of one sentence gives one chunk (segment 0,
    confidence 1.0), and a k larger than a text's number of sentences becomes that number.
    ``max_tokens``, ``contiguous``, ``min_tokens``, ``hard_cap``, ``markdown`` and ``context_sentences`` are those
    of :func:`~bpseg_pgm.chunks.make_chunks` (``markdown`` decided per text when None; the parents of a text's
    chunks are :func:`~bpseg_pgm.chunks.link_parents` of them and the text); ``format`` reads every text
    in that format, as :func:`~bpseg_pgm.text.pipeline.segment_text` does (None: decided per text, see
    :func:`~bpseg_pgm.text.pipeline.read_format`); ``max_tokens`` may also be a list with one cap per text.
    BPSeg's parameters (``structure``, ``potentials``, ``lam``, ...) come as keyword arguments; they are all
    checked before anything is embedded (an unknown one is a ``ValueError`` naming it).
    ``bpseg_params`` (a dict of them) is deprecated: it was for BPSeg's ``contiguous``, whose name is taken
    here, and BPSeg now calls that parameter ``structure``; it is still accepted.
    """
    if bpseg_params is not None and not isinstance(bpseg_params, dict):
        raise ValueError(f"bpseg_params must be a dict, got {type(bpseg_params).__name__}")
    bpseg_params = {**(bpseg_params or {}), **more_bpseg_params}
    texts = check_list(texts, "texts must be a list of str", any_iterable=True)
    caps = _checked_caps(max_tokens, len(texts))
    for cap in caps if caps is not None else [max_tokens]:
        _, min_tokens = check_chunk_options(cap, contiguous, min_tokens)
    if caps is None:
        max_tokens, _ = check_chunk_options(max_tokens, contiguous, min_tokens)
        caps = [max_tokens] * len(texts)
    if not isinstance(hard_cap, (bool, np.bool_)):
        raise ValueError(f"hard_cap must be True or False, got {hard_cap!r}")
    context_sentences = check_context_sentences(context_sentences)
    check_bpseg_params(n_segments, bpseg_params)  # every option, before anything is embedded
    n_spans, marks, fmts = [], [], []
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise ValueError(f"texts[{i}]: text must be a str, got {type(text).__name__}")
        try:
            check_unicode(text)
        except ValueError as exc:
            raise ValueError(f"texts[{i}]: {exc}") from None
        fmts.append(read_format(text, lines, markdown, format))
        marks.append(fmts[-1] == "markdown")
        n_spans.append(len(sentence_spans(text, lines=lines, markdown=marks[-1], format=fmts[-1])))
    embedder = resolve_embedder(embedder, model, cache_dir, show_progress)
    many = [i for i, n in enumerate(n_spans) if n >= 2]
    ks = [
        n_segments
        if not isinstance(n_segments, numbers.Integral) or isinstance(n_segments, bool)
        else min(int(n_segments), n_spans[i])
        for i in many
    ]
    segs = (
        segment_texts(
            [texts[i] for i in many],
            ks,
            lines=lines,
            embedder=embedder,
            markdown=[marks[i] for i in many],
            format=[fmts[i] for i in many],
            **bpseg_params,
        )
        if many
        else []
    )
    by_text = dict(zip(many, segs))
    counter = token_counter(None, embedder, getattr(embedder, "model_name", None))
    out: list[list[Chunk]] = []
    for i, text in enumerate(texts):
        if n_spans[i] == 1:  # one sentence: one segment, cut like any other when over the cap
            ((a, b),) = sentence_spans(text, lines=lines, markdown=marks[i], format=fmts[i])
            by_text[i] = Segmentation(
                [squash(text[a:b])],
                np.zeros(1, dtype=np.int64),
                [[0]],
                np.ones((1, 1)),
                text=text,
                spans=[(a, b)],
                lines=lines,
                markdown=marks[i],
            )
        if i in by_text:
            out.append(
                make_chunks(
                    by_text[i],
                    caps[i],
                    contiguous,
                    min_tokens=min_tokens,
                    count_tokens=counter,
                    hard_cap=hard_cap,
                    markdown=marks[i],
                    context_sentences=context_sentences,
                )
            )
        else:
            out.append([])
    return out
