"""Chunks with exact offsets and a token cap, cut from a BP-Seg segmentation (see :mod:`.chunking`)."""

from bpseg_pgm.chunks.chunking import PIECE_SEPARATOR, Chunk, chunk_texts, make_chunks

__all__ = ["Chunk", "make_chunks", "chunk_texts", "PIECE_SEPARATOR"]
