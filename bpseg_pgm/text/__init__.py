"""From raw text to BP-Seg segments and chunks.

* :mod:`.split`: sentences (or lines) and their character spans;
* :mod:`.weights`: how much each unit counts (short units such as "Yeah ." less);
* :mod:`.checks`: the checks of a text or a list of sentences, before anything is embedded;
* :mod:`.segmentation`: :class:`Segmentation`, the result (the data type
  :class:`~bpseg_pgm.types.segmentation.SegmentationResult` with keywords, chunks, re-cuts, text and HTML);
* :mod:`.pipeline`: :func:`segment_text`, :func:`segment_texts`, :func:`segment_sentences` (split, embed, BPSeg);
* :mod:`.chunks`: :func:`chunk_texts`, many texts to chunks in one embedding batch.

:class:`Embedder` and :func:`embed_sentences` live in :mod:`bpseg_pgm.embeddings` and are re-exported here.
"""

from bpseg_pgm.embeddings import Embedder, embed_sentences
from bpseg_pgm.text.chunks import chunk_texts
from bpseg_pgm.text.pipeline import segment_sentences, segment_text, segment_texts
from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.text.split import sentence_spans, split_lines, split_sentences, split_text

__all__ = [
    "Embedder",
    "embed_sentences",
    "Segmentation",
    "chunk_texts",
    "segment_sentences",
    "segment_text",
    "segment_texts",
    "sentence_spans",
    "split_lines",
    "split_sentences",
    "split_text",
]
