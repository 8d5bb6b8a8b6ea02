"""Adapters to retrieval frameworks, each an optional extra (importing this package imports neither framework).

* :mod:`bpseg_pgm.integrations.langchain`: :class:`~bpseg_pgm.integrations.langchain.BPSegTextSplitter`,
  a ``langchain_text_splitters.TextSplitter`` (``pip install 'bpseg_pgm[langchain]'``);
* :mod:`bpseg_pgm.integrations.llama_index`: :class:`~bpseg_pgm.integrations.llama_index.BPSegNodeParser`,
  a llama-index-core ``NodeParser`` (``pip install 'bpseg_pgm[llama-index]'``).

Both cut each text into :class:`~bpseg_pgm.types.chunk.Chunk` objects with :func:`~bpseg_pgm.text.chunk_texts`
(all the texts of one call embedded in one batch; :mod:`.common` holds what the two share) and report exact
character offsets.
"""

from __future__ import annotations

from typing import Any

from bpseg_pgm.utils.labels import index_runs

__all__ = ["chunk_metadata", "HEADING_SEPARATOR", "METADATA_KEYS"]

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

#: Between the titles of ``bpseg_heading_path`` ("Usage > Reading files").
HEADING_SEPARATOR = " > "


def chunk_metadata(chunk: Any) -> dict[str, Any]:
    """Flat metadata for a chunk (str, int and float values only, as vector stores such as Chroma require).

    ``bpseg_segment`` is the chunk's segment (its label, which may hold several runs), ``bpseg_run`` its run (a
    stretch of consecutive sentences of one segment, numbered in reading order) and ``bpseg_keywords`` the
    segment's keywords ("price, cost, euros"), where the segmentation has them.  ``bpseg_heading_path`` is the headings the chunk's first sentence lies under,
    outermost first, joined by :data:`HEADING_SEPARATOR` ("Usage > Reading files"), where it has any (Markdown).
    ``bpseg_sentences`` is the chunk's 0-based sentence indices as text ("0-3" or "0-1,5"); a chunk
    of a non-contiguous segment also gets ``bpseg_spans``, its runs' offsets ("0:120,340:400").
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
        meta["bpseg_spans"] = ",".join(f"{a}:{b}" for a, b in chunk.spans)
    return meta
