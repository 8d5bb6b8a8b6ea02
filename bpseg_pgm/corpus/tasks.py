"""Units of work: documents grouped into tasks, and the function that segments one task.

A task holds whole documents, about ``task_chars`` characters of them, so the embedding batches stay large while
there are still enough tasks to keep every worker busy. The grouping depends only on the documents and
``task_chars``, never on the number of workers, so the same input gives the same labels on one worker or a cluster.

:func:`segment_task` runs on a Dask worker (or in this process): it embeds all the task's sentences in one call,
then runs BP-Seg on each document exactly as :func:`~bpseg_pgm.text.segment_text` does. A document that cannot be
segmented becomes an error row; a failure of the embedding model itself is not the document's fault and is raised.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from bpseg_pgm.corpus.rows import error_rows, segmentation_rows, to_table
from bpseg_pgm.types.document import Document as CorpusDocument

__all__ = ["TaskConfig", "group_documents", "segment_task", "DEFAULT_TASK_CHARS"]

DEFAULT_TASK_CHARS = 100_000  # about 1,000 sentences: 16 batches of 64 per model call

_EMBEDDERS: dict[tuple, Any] = {}  # one per worker process and configuration: the model loads once


@dataclass(frozen=True)
class TaskConfig:
    """Everything a worker needs besides the documents (plain values: it travels to the workers)."""

    n_segments: Any = "auto"
    lines: bool = False
    model: str | None = None
    backend: str | None = None
    cache_dir: str | None = None
    threads: int | None = None  # the model's CPU threads; None: leave the worker's setting alone
    params: dict = field(default_factory=dict)


def group_documents(docs: list[CorpusDocument], task_chars: int = DEFAULT_TASK_CHARS) -> list[list[CorpusDocument]]:
    """Consecutive documents in groups of at most ``task_chars`` characters (a longer document alone)."""
    groups: list[list[CorpusDocument]] = []
    size = 0
    for doc in docs:
        if not groups or (size + doc.size > task_chars and groups[-1]):
            groups.append([])
            size = 0
        groups[-1].append(doc)
        size += doc.size
    return groups


def _embedder(config: TaskConfig):
    from bpseg_pgm.embeddings import Embedder

    key = (config.model, config.backend, config.cache_dir, config.threads)
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = Embedder(
            config.model,
            cache_dir=config.cache_dir,
            show_progress=False,
            backend=config.backend,
            threads=config.threads,
        )
    return _EMBEDDERS[key]


def _prepare(doc: CorpusDocument, config: TaskConfig):
    """(sentences, spans, text, format, the checked estimator) of a document, or a ValueError saying why it cannot
    be segmented."""
    from bpseg_pgm.text.checks import check_sentences, checked_estimator, split_for_segmentation
    from bpseg_pgm.text.pipeline import read_format
    from bpseg_pgm.text.split import join_sentences

    if doc.units is not None:
        sentences = check_sentences(list(doc.units))
        text, spans = join_sentences(sentences)
        fmt = "plain"
    else:
        # the format as segment_text decides it: from the file's extension (meta), else guessed; never with --lines
        fmt = read_format(doc.text, config.lines, doc.meta.get("markdown"), doc.meta.get("format"))
        sentences, spans = split_for_segmentation(doc.text, config.lines, fmt == "markdown", fmt)
        text = doc.text
    estimator = checked_estimator(config.n_segments, dict(config.params), len(sentences))
    return sentences, spans, text, fmt, estimator


def segment_task(docs: list[CorpusDocument], config: TaskConfig):
    """Segment one task's documents; returns their rows as a pyarrow Table, documents in the given order."""
    from bpseg_pgm.text.pipeline import encode_batch, fit_segmentation

    prepared: dict[int, tuple] = {}
    failed: dict[int, str] = {}
    for i, doc in enumerate(docs):
        if doc.error is not None:
            failed[i] = doc.error
            continue
        try:
            prepared[i] = _prepare(doc, config)
        except ValueError as exc:
            failed[i] = str(exc)
    rows: list[dict] = []
    if prepared:
        embedder = _embedder(config)
        X = encode_batch(embedder, [sentences for sentences, *_ in prepared.values()])
        pos = 0
        segs = {}
        for i, (sentences, spans, text, fmt, estimator) in prepared.items():
            block = X[pos : pos + len(sentences)]
            pos += len(sentences)
            try:
                segs[i] = fit_segmentation(
                    sentences,
                    block,
                    estimator,
                    embedder,
                    text=text,
                    spans=spans,
                    lines=config.lines or docs[i].units is not None,
                    markdown=fmt == "markdown",
                    format=fmt,
                )
            except ValueError as exc:
                failed[i] = str(exc)
    else:
        segs = {}
    for i, doc in enumerate(docs):
        rows.extend(error_rows(doc.id, failed[i]) if i in failed else segmentation_rows(doc.id, segs[i]))
    return to_table(rows)


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def local_threads(n_workers: int) -> int:
    """Torch threads per local worker: the cores this process may use, shared out."""
    return max(1, cores() // max(1, n_workers))
