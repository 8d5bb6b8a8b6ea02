"""Chunks with exact offsets and a token cap, cut from a BP-Seg segmentation.

* :mod:`.chunking`: :func:`make_chunks`, the algorithm (runs or whole segments, cuts at the weakest
  link, merging of small runs) and :func:`token_counter` (the embedding model's tokenizer);
* :mod:`.options`: the chunk options, checked in one place (:func:`check_chunk_options`,
  :func:`checked_token_counter`, :func:`check_context_sentences`);
* :mod:`.parents`: :func:`link_parents`, one :class:`ParentChunk` per segment (a topic, whose runs may lie far
  apart) over its chunks, with exact spans;
* :mod:`.context`: :func:`with_context`, the neighbouring sentences embedded with each chunk (never part of it);
* :class:`Chunk`, :class:`ParentChunk`, ``Span`` and ``PIECE_SEPARATOR`` are leaf types (:mod:`bpseg_pgm.types.chunk`), re-exported here.

Below the text layer: chunking needs only those types, the embedding model's tokenizer
(:mod:`bpseg_pgm.embeddings`) and the runs of labels (:mod:`bpseg_pgm.utils.labels`).
``chunk_texts``, which segments many texts and then chunks them, is :func:`bpseg_pgm.text.chunk_texts`
(it segments first, so it lives in the text layer, above the chunks).
"""

from bpseg_pgm.chunks.chunking import make_chunks, token_counter
from bpseg_pgm.chunks.context import with_context
from bpseg_pgm.chunks.options import TokenCounter, check_chunk_options, check_context_sentences, checked_token_counter
from bpseg_pgm.chunks.parents import link_parents
from bpseg_pgm.types.chunk import PIECE_SEPARATOR, Chunk, ParentChunk, Span

__all__ = [
    "Chunk",
    "PIECE_SEPARATOR",
    "ParentChunk",
    "Span",
    "TokenCounter",
    "check_chunk_options",
    "check_context_sentences",
    "checked_token_counter",
    "link_parents",
    "make_chunks",
    "token_counter",
    "with_context",
]
