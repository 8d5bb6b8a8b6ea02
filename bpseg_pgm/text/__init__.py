"""From raw text to BP-Seg segments: sentence splitting, cached embeddings, pipeline."""

from bpseg_pgm.text.embeddings import Embedder, embed_sentences
from bpseg_pgm.text.pipeline import Segmentation, segment_sentences, segment_text
from bpseg_pgm.text.split import split_lines, split_sentences, split_text

__all__ = [
    "Embedder",
    "embed_sentences",
    "Segmentation",
    "segment_sentences",
    "segment_text",
    "split_lines",
    "split_sentences",
    "split_text",
]
