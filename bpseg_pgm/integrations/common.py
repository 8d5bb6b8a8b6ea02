"""What the LangChain and LlamaIndex adapters share: their options checked alike, and one call to chunk.

Neither framework is imported here; each adapter module imports its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bpseg_pgm.chunks import Chunk, ParentChunk, check_chunk_options, link_parents
from bpseg_pgm.text import chunk_texts
from bpseg_pgm.text.checks import check_bpseg_params

__all__ = ["FRAMEWORK_SIZE_OPTIONS", "adapter_options", "chunk_for", "missing_extra", "parents_for"]


def missing_extra(module: str, package: str, extra: str) -> ImportError:
    """The ImportError an adapter raises when its framework is not installed."""
    return ImportError(f"bpseg_pgm.integrations.{module} needs {package}: pip install 'bpseg_pgm[{extra}]'")


#: The frameworks' own size options, refused at construction: LangChain's ``chunk_size`` counts
#: ``length_function`` units (characters by default) and both frameworks' chunks overlap; BP-Seg's chunks
#: never overlap and their one size cap is ``max_tokens``, in the embedding model's tokens.
FRAMEWORK_SIZE_OPTIONS = ("chunk_size", "chunk_overlap", "length_function")


def adapter_options(
    max_tokens: Any,
    contiguous: Any,
    min_tokens: Any,
    bpseg_params: Any,
    more_bpseg_params: dict[str, Any],
    *,
    adapter: str = "the adapter",
    n_segments: Any = "auto",
) -> tuple[int | None, int | None, dict[str, Any]]:
    """``(max_tokens, min_tokens, BPSeg's parameters in one dict)``, or a ValueError at construction, before
    anything is embedded: the chunk options as :func:`~bpseg_pgm.chunks.check_chunk_options` checks them,
    ``n_segments`` and every BPSeg parameter (an unknown keyword is named), ``bpseg_params`` a dict (a mapping)
    or None, and none of the framework's size options (:data:`FRAMEWORK_SIZE_OPTIONS`: use ``max_tokens``)."""
    for name in FRAMEWORK_SIZE_OPTIONS:
        if name in more_bpseg_params:
            raise ValueError(
                f"{adapter} does not take {name}: its one size cap is max_tokens, in the embedding model's tokens "
                f"(e.g. max_tokens=256), and its chunks never overlap"
            )
    max_tokens, min_tokens = check_chunk_options(max_tokens, contiguous, min_tokens)
    if bpseg_params is not None and not isinstance(bpseg_params, Mapping):
        raise ValueError(f"bpseg_params must be a dict, got {type(bpseg_params).__name__}")
    params = {**(bpseg_params or {}), **more_bpseg_params}
    check_bpseg_params(n_segments, params)
    return max_tokens, min_tokens, params


def chunk_for(
    adapter: Any, texts: Iterable[str], embedder: Any, caps: list[int | None] | None = None
) -> list[list[Chunk]]:
    """The chunks of every text (one embedding batch for all) with the adapter's options: its ``max_tokens``
    (or ``caps``, one per text), ``contiguous``, ``min_tokens``, ``context_sentences``, ``n_segments``, ``lines``
    and ``bpseg_params``, read when called."""
    return chunk_texts(
        list(texts),
        adapter.max_tokens if caps is None else caps,
        adapter.contiguous,
        min_tokens=adapter.min_tokens,
        context_sentences=getattr(adapter, "context_sentences", 0),
        n_segments=adapter.n_segments,
        lines=adapter.lines,
        embedder=embedder,
        bpseg_params=adapter.bpseg_params,
    )


def parents_for(
    texts: list[str], all_chunks: list[list[Chunk]], embedder: Any
) -> list[tuple[list[ParentChunk], list[Chunk]]]:
    """Each text's parents and its chunks with their ``parent`` (:func:`~bpseg_pgm.chunks.link_parents`), the
    parents' tokens counted by ``embedder``."""
    return [link_parents(chunks, text, count_tokens=embedder.count_tokens) for text, chunks in zip(texts, all_chunks)]
