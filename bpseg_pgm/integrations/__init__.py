"""Adapters to retrieval frameworks, each an optional extra (importing this package imports neither framework).

* :mod:`bpseg_pgm.integrations.langchain`: :class:`~bpseg_pgm.integrations.langchain.BPSegTextSplitter`,
  a ``langchain_text_splitters.TextSplitter`` (``pip install 'bpseg_pgm[langchain]'``);
* :mod:`bpseg_pgm.integrations.llama_index`: :class:`~bpseg_pgm.integrations.llama_index.BPSegNodeParser`,
  a llama-index-core ``NodeParser`` (``pip install 'bpseg_pgm[llama-index]'``).

Both cut each text into :class:`~bpseg_pgm.types.chunk.Chunk` objects with :func:`~bpseg_pgm.text.chunk_texts`
(all the texts of one call embedded in one batch; :mod:`.common` holds what the two share) and report exact
character offsets.  Both can also give each segment (a topic, whose runs may lie far apart) as a parent over its
chunks (:func:`~bpseg_pgm.chunks.link_parents`; :func:`parent_metadata`), and embed each chunk with its
neighbouring sentences (``context_sentences``; :data:`CONTEXT_KEYS`).
"""

from __future__ import annotations

from typing import Any

from bpseg_pgm.utils.labels import index_runs

__all__ = ["chunk_metadata", "CONTEXT_KEYS", "HEADING_SEPARATOR", "METADATA_KEYS", "PARENT_KEYS", "parent_metadata"]

#: The metadata keys the adapters add to every chunk (besides the frameworks' own offsets).
METADATA_KEYS = (
    "bpseg_segment",
    "bpseg_run",
    "bpseg_keywords",
    "bpseg_n_tokens",
    "bpseg_confidence",
    "bpseg_sentences",
    "bpseg_heading_path",
)

#: The metadata keys of a chunk's parent (with parents asked for): its index among its text's parents (on the
#: parent and on each of its chunks) and, on the parent, its chunks' indices among its text's chunks.
PARENT_KEYS = ("bpseg_parent", "bpseg_children")

#: The metadata keys of the text embedded with a chunk and not part of it (with ``context_sentences``):
#: ``context_before + text + context_after`` is what to embed.
CONTEXT_KEYS = ("bpseg_context_before", "bpseg_context_after")

#: Between the titles of ``bpseg_heading_path`` ("Usage > Reading files").
HEADING_SEPARATOR = " > "


def chunk_metadata(chunk: Any) -> dict[str, Any]:
    """Flat metadata for a chunk (str, int and float values only, as vector stores such as Chroma require).

    ``bpseg_segment`` is the chunk's segment (its label, which may hold several runs), ``bpseg_run`` its run (a
    stretch of consecutive sentences of one segment, numbered in reading order) and ``bpseg_keywords`` the
    segment's keywords ("price, cost, euros"), where the segmentation has them.  ``bpseg_heading_path`` is the headings the chunk's first sentence lies under,
    outermost first, joined by :data:`HEADING_SEPARATOR` ("Usage > Reading files"), where it has any (Markdown).
    ``bpseg_sentences`` is the chunk's 0-based sentence indices as text ("0-3" or "0-1,5"); a chunk
    of a non-contiguous segment also gets ``bpseg_spans``, its runs' offsets ("0:120,340:400").  A chunk with a
    parent (:func:`~bpseg_pgm.chunks.link_parents`) gets ``bpseg_parent``, the parent's index among its text's
    parents; one with context (``context_sentences``) ``bpseg_context_before`` and ``bpseg_context_after``
    (:data:`CONTEXT_KEYS`), the text embedded around it.
    """
    runs = [(run[0], run[-1]) for run in index_runs(chunk.sentences)]
    meta = {
        "bpseg_segment": chunk.segment,
        "bpseg_n_tokens": chunk.n_tokens,
        "bpseg_confidence": round(float(chunk.confidence), 6),
        "bpseg_sentences": ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs),
    }
    if chunk.run is not None:
        meta["bpseg_run"] = chunk.run
    if chunk.keywords:
        meta["bpseg_keywords"] = ", ".join(chunk.keywords)
    path = getattr(chunk, "heading_path", ())
    if path:
        meta["bpseg_heading_path"] = HEADING_SEPARATOR.join(path)
    if not chunk.contiguous:
        meta["bpseg_spans"] = _spans(chunk.spans)
    if getattr(chunk, "parent", None) is not None:
        meta["bpseg_parent"] = chunk.parent
    if getattr(chunk, "context_before", None) is not None or getattr(chunk, "context_after", None) is not None:
        meta["bpseg_context_before"] = chunk.context_before or ""
        meta["bpseg_context_after"] = chunk.context_after or ""
    return meta


def _spans(spans: Any) -> str:
    return ",".join(f"{a}:{b}" for a, b in spans)


def _numbers(indices: Any) -> str:
    """0-based indices as text: "0-3" or "0-1,5"."""
    runs = [(run[0], run[-1]) for run in index_runs(list(indices))]
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def parent_metadata(parent: Any, index: int) -> dict[str, Any]:
    """Flat metadata for a :class:`~bpseg_pgm.types.chunk.ParentChunk`, the ``index``-th of its text.

    Parameters
    ----------
    parent : ParentChunk
        The parent.
    index : int
        Its index among its text's parents (its chunks' ``parent``).

    Returns
    -------
    dict
        ``bpseg_parent`` (``index``), ``bpseg_children`` (its chunks' 0-based indices among its text's chunks, as
        text: "0,2"), ``bpseg_segment``, ``bpseg_spans`` (always, its stretches' offsets: "0:120,340:400"; two or
        more for a segment that returns), ``bpseg_n_tokens``, ``bpseg_confidence``, ``bpseg_sentences`` and, where
        it has them, ``bpseg_keywords`` and ``bpseg_heading_path``: str, int and float values only.
    """
    meta = {
        "bpseg_parent": int(index),
        "bpseg_children": _numbers(parent.children),
        "bpseg_segment": parent.segment,
        "bpseg_spans": _spans(parent.spans),
        "bpseg_n_tokens": parent.n_tokens,
        "bpseg_confidence": round(float(parent.confidence), 6),
        "bpseg_sentences": _numbers(parent.sentences),
    }
    if parent.keywords:
        meta["bpseg_keywords"] = ", ".join(parent.keywords)
    if parent.heading_path:
        meta["bpseg_heading_path"] = HEADING_SEPARATOR.join(parent.heading_path)
    return meta
