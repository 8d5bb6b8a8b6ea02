"""Chunks with exact offsets and a token cap, cut from a BP-Seg segmentation.

* :mod:`.chunking`: :func:`make_chunks`, the algorithm (runs or whole segments, cuts at the weakest
  link, merging of small runs) and :func:`token_counter` (the embedding model's tokenizer);
* :mod:`.options`: the chunk options, checked in one place (:func:`check_chunk_options`,
  :func:`checked_token_counter`);
* :class:`Chunk`, ``Span`` and ``PIECE_SEPARATOR`` are leaf types (:mod:`bpseg_pgm.types.chunk`), re-exported here.

Below the text layer: chunking needs only those types, the embedding model's tokenizer
(:mod:`bpseg_pgm.embeddings`) and the runs of labels (:mod:`bpseg_pgm.utils.labels`).
``chunk_texts``, which segments many texts and then chunks them, is :func:`bpseg_pgm.text.chunk_texts`
(it segments first, so it lives in the text layer, above the chunks).
"""

from bpseg_pgm.chunks.chunking import make_chunks, token_counter
from bpseg_pgm.chunks.options import TokenCounter, check_chunk_options, checked_token_counter
from bpseg_pgm.types.chunk import PIECE_SEPARATOR, Chunk, Span

__all__ = [
    "Chunk",
    "PIECE_SEPARATOR",
    "Span",
    "TokenCounter",
    "check_chunk_options",
    "checked_token_counter",
    "make_chunks",
    "token_counter",
]
